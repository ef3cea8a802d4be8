"""The FUSE Z80 test vectors (testdata/fuse-z80) parsed: initial and expected states, memory
blocks and bus event traces, shared by test_fuse, test_cycles and the machine's tests.

Memory starts as the FUSE harness leaves it (:data:`INITIAL_FILL`); ``apply_blocks`` lays a
vector's memory blocks over it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests import FUSE_DIR
from tests.z80.helpers import REGISTERS

FUSE_TEST_COUNT = 1356
EVENT_TYPES = frozenset({"MR", "MW", "MC", "PR", "PW", "PC"})
# What the FUSE harness (coretest.c) fills memory with before a test.
INITIAL_FILL = bytes([0xDE, 0xAD, 0xBE, 0xEF]) * 0x4000


@dataclass(frozen=True)
class Event:
    """One bus event of the expected trace: time, type (MR, MW, MC, PR, PW, PC), address, data."""

    tstates: int
    kind: str
    address: int
    data: int | None


@dataclass(frozen=True)
class Vector:
    """One FUSE test: initial and expected state."""

    name: str
    registers: dict[str, int]  # initial, keys as in REGISTERS
    until: int  # run while tstates < until
    memory: tuple[tuple[int, bytes], ...]  # initial memory blocks
    expected_registers: dict[str, int]
    expected_tstates: int
    expected_memory: tuple[tuple[int, bytes], ...]  # blocks changed by the test
    events: tuple[Event, ...]


def _parse_state(line1: str, line2: str) -> tuple[dict[str, int], int]:
    words = line1.split()
    rest = line2.split()
    if len(words) != 13 or len(rest) != 7:
        raise ValueError(f"bad register lines: {line1!r} / {line2!r}")
    registers = {name: int(w, 16) for name, w in zip(REGISTERS[:13], words, strict=True)}
    registers["i"] = int(rest[0], 16)
    registers["r"] = int(rest[1], 16)
    for name, w in zip(("iff1", "iff2", "im", "halted"), rest[2:6], strict=True):
        registers[name] = int(w)
    return registers, int(rest[6])


def _parse_memory_line(line: str) -> tuple[int, bytes]:
    words = line.split()
    if words[-1] != "-1":
        raise ValueError(f"memory line without -1: {line!r}")
    return int(words[0], 16), bytes(int(w, 16) for w in words[1:-1])


def _parse_in(text: str) -> list[tuple[str, dict[str, int], int, tuple]]:
    lines = iter(text.splitlines())
    tests = []
    for line in lines:
        if not line.strip():
            continue
        name = line.strip()
        registers, until = _parse_state(next(lines), next(lines))
        blocks = []
        for mem_line in lines:
            if mem_line.strip() == "-1":
                break
            blocks.append(_parse_memory_line(mem_line))
        tests.append((name, registers, until, tuple(blocks)))
    return tests


def _parse_expected(text: str) -> list[tuple[str, tuple, dict[str, int], int, tuple]]:
    results = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if line.strip()]
        if not lines:
            continue
        name = lines[0].strip()
        k = 1
        events = []
        while k < len(lines) and len(words := lines[k].split()) >= 3 and words[1] in EVENT_TYPES:
            data = int(words[3], 16) if len(words) > 3 else None
            events.append(Event(int(words[0]), words[1], int(words[2], 16), data))
            k += 1
        registers, tstates = _parse_state(lines[k], lines[k + 1])
        blocks = tuple(_parse_memory_line(line) for line in lines[k + 2 :])
        results.append((name, tuple(events), registers, tstates, blocks))
    return results


@cache
def load_vectors(directory: Path = FUSE_DIR) -> tuple[Vector, ...]:
    """All FUSE vectors in ``directory``, parsed once per process."""
    ins = _parse_in((directory / "tests.in").read_text())
    outs = _parse_expected((directory / "tests.expected").read_text())
    if [t[0] for t in ins] != [t[0] for t in outs]:
        raise ValueError("tests.in and tests.expected name different tests")
    vectors = []
    for (name, registers, until, memory), (_, events, expected, tstates, changes) in zip(
        ins, outs, strict=True
    ):
        vectors.append(Vector(name, registers, until, memory, expected, tstates, changes, events))
    return tuple(vectors)


def apply_blocks(memory: bytearray, blocks: tuple[tuple[int, bytes], ...]) -> None:
    """Write memory blocks (address, bytes) into ``memory``, wrapping at 64K."""
    for address, data in blocks:
        for k, byte in enumerate(data):
            memory[(address + k) & 0xFFFF] = byte


__all__ = ["FUSE_DIR", "FUSE_TEST_COUNT", "INITIAL_FILL", "Event", "Vector", "apply_blocks",
           "load_vectors"]
