"""The machine cycles behind memory and I/O contention, checked against the FUSE traces.

Every FUSE vector lists, with its time, each contention check the instruction makes (MC for
memory, PC for ports). The Spectrum engines walk the cycle lists of ``templates.cycles``; here
the generator builds the same Spectrum engine with each check recorded instead of applied,
and the record must equal the FUSE trace for all 1,356 vectors.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.z80.generator import engine_from, load_generator
from tests.z80.test_fuse import FUSE_DIR, INITIAL_FILL, _apply, load_vectors


def _traced_run():
    gen = load_generator()
    return engine_from(gen.gen_python(gen.TRACED), "<traced engine>")


def _expected(vector) -> list[tuple[int, int]]:
    out = []
    for ev in vector.events:
        if ev.kind == "MC":
            out.append((ev.tstates, ev.address))
        elif ev.kind == "PC":
            out.append((ev.tstates, 0x10000 | ev.address))
    return out


@pytest.fixture(scope="module")
def traced():
    if not (FUSE_DIR / "tests.in").is_file():
        pytest.skip(f"FUSE vectors not found in {FUSE_DIR}")
    return _traced_run()


def test_contention_checks_match_every_fuse_trace(traced):
    from zxmonopoly.z80 import Z80

    failures = []
    for vector in load_vectors():
        memory = bytearray(INITIAL_FILL)
        _apply(memory, vector.memory)
        cpu = Z80(memory, engine="python")
        for name, value in vector.registers.items():
            setattr(cpu, name, value)
        cpu.tstates = 0
        seen: list[tuple[int, int]] = []

        def record(t: int, addr: int, seen=seen) -> None:
            seen.append((t, addr))

        keys = np.full(8, 0xFF, dtype=np.uint8)
        joy = np.zeros(1, dtype=np.uint8)
        log = np.zeros(64, dtype=np.int64)
        tape = np.zeros(1, dtype=np.int64)
        traced(cpu.state, memory, cpu.breakpoints, vector.until, *cpu._tables, record, keys,
               joy, log, tape)
        want = _expected(vector)
        if seen != want:
            failures.append(f"{vector.name}: expected {want}\n    got {seen}")
    assert not failures, f"{len(failures)} traces differ:\n" + "\n".join(failures[:20])


def test_fast_paths_change_no_timing():
    """Outside the contended part of a line the Spectrum engine skips the walk: check that
    this gives exactly the T-states of walking every cycle, for every FUSE program started
    at T-states spread over screen lines, borders and the edges between them."""
    if not (FUSE_DIR / "tests.in").is_file():
        pytest.skip(f"FUSE vectors not found in {FUSE_DIR}")
    from zxmonopoly.spectrum.machine import contention_table
    from zxmonopoly.z80 import Z80, _spectrum_py

    gen = load_generator()
    reference = engine_from(gen.gen_python(gen.REFERENCE), "<reference engine>")
    cont = contention_table().tolist()
    differ = []
    for n, vector in enumerate(load_vectors()):
        start = 14335 - 70 + (n * 37) % (224 * 3)
        results = []
        for run in (_spectrum_py.run, reference):
            memory = bytearray(INITIAL_FILL)
            _apply(memory, vector.memory)
            memory[0x4000:0x8000] = memory[0x0000:0x4000]  # code and data in contended RAM too
            cpu = Z80(memory, engine="python")
            for name, value in vector.registers.items():
                setattr(cpu, name, value)
            cpu.pc = (cpu.pc & 0x3FFF) | 0x4000 if n % 2 else cpu.pc
            cpu.tstates = start
            run(cpu.state, memory, cpu.breakpoints, start + vector.until, *cpu._tables, cont,
                np.full(8, 0xFF, dtype=np.uint8), np.zeros(1, dtype=np.uint8),
                np.zeros(64, dtype=np.int64), np.zeros(1, dtype=np.int64))
            results.append((cpu.tstates, cpu.pc, cpu.af, bytes(memory)))
        if results[0] != results[1]:
            differ.append(f"{vector.name} from T={start}: {results[0][:3]} vs {results[1][:3]}")
    assert not differ, differ[:20]
