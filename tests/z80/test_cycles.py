"""The machine cycles behind memory and I/O contention, checked against the FUSE traces.

Every FUSE vector lists, with its time, each contention check the instruction makes (MC for
memory, PC for ports). The Spectrum engines walk the cycle lists of
``machine_cycles.cycles``; here the generator builds the same Spectrum engine with each check
recorded instead of applied, and the record must equal the FUSE trace for all 1,356 vectors.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.z80.fuse_vectors import INITIAL_FILL, apply_blocks, load_vectors
from tests.z80.generator import engine_from, part
from zxmonopoly.z80.cpu import engine_tables


def _traced_run():
    return engine_from(part("emit_python").gen_python(part("variant").TRACED), "<traced engine>")


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
    return _traced_run()


def test_contention_checks_match_every_fuse_trace(traced):
    from zxmonopoly.z80 import Z80

    failures = []
    for vector in load_vectors():
        memory = bytearray(INITIAL_FILL)
        apply_blocks(memory, vector.memory)
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
        in_log = np.zeros(1, dtype=np.uint8)
        tables = engine_tables(cpu.engine)
        traced(cpu.state, memory, cpu.breakpoints.array, vector.until, *tables, record, keys,
               joy, log, tape, in_log)
        want = _expected(vector)
        if seen != want:
            failures.append(f"{vector.name}: expected {want}\n    got {seen}")
    assert not failures, f"{len(failures)} traces differ:\n" + "\n".join(failures[:20])


def test_fast_paths_change_no_timing():
    """Outside the contended part of a line the Spectrum engine skips the walk: check that
    this gives exactly the T-states of walking every cycle, for every FUSE program started
    at T-states spread over screen lines, borders and the edges between them."""
    from zxmonopoly.spectrum import _engine_py as _spectrum_py
    from zxmonopoly.spectrum.timing import contention_table
    from zxmonopoly.z80 import Z80

    variant = part("variant")
    reference = engine_from(part("emit_python").gen_python(variant.REFERENCE),
                            "<reference engine>")
    cont = contention_table().tolist()
    differ = []
    for n, vector in enumerate(load_vectors()):
        start = 14335 - 70 + (n * 37) % (224 * 3)
        results = []
        for run in (_spectrum_py.run, reference):
            memory = bytearray(INITIAL_FILL)
            apply_blocks(memory, vector.memory)
            memory[0x4000:0x8000] = memory[0x0000:0x4000]  # code and data in contended RAM too
            cpu = Z80(memory, engine="python")
            for name, value in vector.registers.items():
                setattr(cpu, name, value)
            cpu.pc = (cpu.pc & 0x3FFF) | 0x4000 if n % 2 else cpu.pc
            cpu.tstates = start
            tables = engine_tables(cpu.engine)
            run(cpu.state, memory, cpu.breakpoints.array, start + vector.until, *tables, cont,
                np.full(8, 0xFF, dtype=np.uint8), np.zeros(1, dtype=np.uint8),
                np.zeros(64, dtype=np.int64), np.zeros(1, dtype=np.int64),
                np.zeros(1, dtype=np.uint8))
            results.append((cpu.tstates, cpu.pc, cpu.af, bytes(memory)))
        if results[0] != results[1]:
            differ.append(f"{vector.name} from T={start}: {results[0][:3]} vs {results[1][:3]}")
    assert not differ, differ[:20]


def _one_pass_at_a_time(variant):
    """An engine of ``variant`` whose HALT never skips ahead: each pass goes round the loop."""
    source = part("emit_python").gen_python(dataclasses.replace(variant, halt_skip=False))
    return engine_from(source, "<one HALT pass at a time>")


def _halt_runs(run, engine: str, machine: bool, iff1: int):
    """(T, R, PC, halted) after HALTs at contended and uncontended addresses, run from
    starts spread over the frame (borders, screen lines, the edges between) to limits."""
    from zxmonopoly.spectrum.machine import jit_contention
    from zxmonopoly.spectrum.timing import FRAME_TSTATES, contention_table
    from zxmonopoly.z80 import Z80

    cont = contention_table()
    out = []
    for where in (0x6000, 0x9000):
        for start in (0, 4, 14200, 14270, 14271, 14300, 14335, 14340, 30001, 57200, 57246,
                      57250, 69000):
            for limit in (14272, 14335 + 224 * 3 + 5, 57247, FRAME_TSTATES):
                if limit <= start:
                    continue
                memory = bytearray(0x10000)
                memory[where] = 0x76  # HALT
                cpu = Z80(memory, engine=engine)
                cpu.pc, cpu.r, cpu.iff1, cpu.iff2, cpu.tstates = where, 0x25, iff1, iff1, start
                args = [cpu.state, cpu._mem, cpu.breakpoints.array, limit,
                        *engine_tables(cpu.engine)]
                if machine:
                    args += [jit_contention() if engine == "jit" else cont.tolist(),
                             np.full(8, 0xFF, dtype=np.uint8), np.zeros(1, dtype=np.uint8),
                             np.zeros(64, dtype=np.int64), np.zeros(1, dtype=np.int64),
                             np.zeros(1, dtype=np.uint8)]
                run(*args)
                out.append((where, start, limit, cpu.tstates, cpu.r, cpu.pc, cpu.halted))
    return out


@pytest.mark.parametrize("iff1", [0, 1])
def test_halt_skips_ahead_exactly(iff1):
    """A HALT runs its passes to the limit at once (in contended memory, one by one only
    inside the screen's lines): T, R and PC come out as if each pass went round the loop,
    in the CPython and numba Spectrum engines and the bare CPU's."""
    from zxmonopoly.spectrum import _engine_py as _spectrum_py
    from zxmonopoly.z80 import _engine_py
    from zxmonopoly.z80.cpu import jit_available

    variant = part("variant")
    slow_machine = _halt_runs(_one_pass_at_a_time(variant.REFERENCE), "python", True, iff1)
    assert _halt_runs(_spectrum_py.run, "python", True, iff1) == slow_machine
    slow_bare = _halt_runs(_one_pass_at_a_time(variant.BARE), "python", False, iff1)
    assert _halt_runs(_engine_py.run, "python", False, iff1) == slow_bare
    if jit_available():
        from zxmonopoly.spectrum import _engine_jit as _spectrum_jit
        from zxmonopoly.z80 import _engine_jit

        assert _halt_runs(_spectrum_jit.run, "jit", True, iff1) == slow_machine
        assert _halt_runs(_engine_jit.run, "jit", False, iff1) == slow_bare


def test_halt_stops_at_a_breakpoint_on_it():
    """A breakpoint on the HALT stops the run after its first pass, not at the limit."""
    from zxmonopoly.z80 import Z80

    for engine in ("python", "jit"):
        memory = bytearray(0x10000)
        memory[0x9000] = 0x76
        cpu = Z80(memory, engine=engine)
        cpu.pc = 0x9000
        cpu.breakpoints[0x9000] = 1
        assert cpu.run(10_000) == 1  # EXIT_BREAK
        assert (cpu.tstates, cpu.pc, cpu.halted) == (4, 0x9000, 1)
