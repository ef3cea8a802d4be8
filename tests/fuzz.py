"""Fuzzing with Hypothesis: mutations of valid files, and the two run lengths of every fuzz test.

``fuzz_test(n_short, n_long)`` makes a test body into two tests: a short run in the default
suite and a long one under ``-m slow``. ``mutated(seed)`` draws files from valid ones by the
edits that found the defects of issue 20: bit flips, byte overwrites with boundary values,
truncation, duplication and insertion of runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: Examples per fuzz test: the default suite, and ``-m slow``.
SHORT, LONG = 150, 20_000

BOUNDARY = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]


@st.composite
def mutated(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    """One of ``seeds`` with a few random edits."""
    data = bytearray(draw(st.sampled_from(list(seeds))))
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["flip", "set", "cut", "dup", "insert", "word"]))
        pos = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[pos] ^= 1 << draw(st.integers(0, 7))
        elif kind == "set" and data:
            data[pos] = draw(st.sampled_from(BOUNDARY) | st.integers(0, 255))
        elif kind == "word" and len(data) > pos + 1:
            value = draw(st.sampled_from([0, 1, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF]))
            data[pos:pos + 2] = value.to_bytes(2, "little")
        elif kind == "cut":
            del data[pos:pos + draw(st.integers(1, 64))]
        elif kind == "dup":
            data[pos:pos] = data[pos:pos + draw(st.integers(1, 64))]
        elif kind == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=16))
    return bytes(data)


def files(seeds: Sequence[bytes]) -> st.SearchStrategy[bytes]:
    """Random bytes, or a mutated seed."""
    return st.binary(max_size=512) | mutated(seeds)


def fuzz_test(strategy: st.SearchStrategy[Any]) -> Callable[[Callable[[Any], None]],
                                                          tuple[Callable[..., None], ...]]:
    """Decorate ``check(value)``: returns (short test, slow test) to assign in a test module."""

    def make(check: Callable[[Any], None]) -> tuple[Callable[..., None], ...]:
        def run(value: Any) -> None:
            check(value)

        health = [HealthCheck.too_slow, HealthCheck.data_too_large,
                  HealthCheck.filter_too_much]
        short = settings(max_examples=SHORT, deadline=None, suppress_health_check=health)(
            given(strategy)(run))
        long = pytest.mark.slow(settings(max_examples=LONG, deadline=None,
                                         suppress_health_check=health)(given(strategy)(run)))
        return short, long

    return make
