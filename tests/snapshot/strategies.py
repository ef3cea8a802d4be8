"""Hypothesis strategies for snapshots: registers in range, RAM full of runs and 0xED bytes.

The strategies draw small specifications, and tests build the 48K from them with
:func:`make_ram` / :func:`make_snapshot`, so that a failing example prints short.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from zxmonopoly.snapshot import RAM_SIZE, Snapshot

byte = st.integers(0, 255)
word = st.integers(0, 0xFFFF)
# Bytes that make compression interesting: 0xED itself, and the usual fillers.
tricky_byte = st.sampled_from([0x00, 0xED, 0xED, 0xFF, 0x01, 0x76]) | byte

RamSpec = tuple[int, bool, list[tuple[int, int, int]]]
SnapshotSpec = tuple[dict[str, Any], RamSpec]

#: (seed, random or ED-heavy background, runs laid over it as (value, start, length)).
ram_specs = st.tuples(
    st.integers(0, 2**32 - 1), st.booleans(),
    st.lists(st.tuples(tricky_byte, st.integers(0, RAM_SIZE - 1), st.integers(1, 700)),
             max_size=30))


def make_ram(spec: RamSpec) -> bytes:
    """49,152 bytes from a :data:`ram_specs` value."""
    seed, random, runs = spec
    rng = np.random.default_rng(seed)
    if random:
        ram = rng.integers(0, 256, RAM_SIZE, dtype=np.uint8)
    else:
        ram = rng.choice(np.array([0x00, 0xED, 0x01], np.uint8), RAM_SIZE)
    for value, start, length in runs:
        ram[start:start + length] = value
    return ram.tobytes()


def snapshot_specs(tstates: bool = True, issue2: bool = True) -> st.SearchStrategy[Any]:
    """(every field but ``ram``, a RAM spec) of a valid 48K snapshot."""
    names8 = ("a", "f", "b", "c", "d", "e", "h", "l", "a_", "f_", "b_", "c_", "d_", "e_", "h_",
              "l_", "i", "r")
    fields = st.fixed_dictionaries(
        {name: byte for name in names8}
        | {name: word for name in ("ix", "iy", "sp", "pc")}
        | {"iff1": st.integers(0, 1), "iff2": st.integers(0, 1), "im": st.integers(0, 2),
           "border": st.integers(0, 7),
           "tstates": st.integers(0, 69_887) if tstates else st.just(0),
           "issue2": st.booleans() if issue2 else st.just(False)})
    return st.tuples(fields, ram_specs)


def make_snapshot(spec: SnapshotSpec) -> Snapshot:
    """The snapshot a :func:`snapshot_specs` value describes."""
    fields, ram = spec
    return Snapshot(**fields, ram=make_ram(ram))
