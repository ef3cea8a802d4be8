"""The Spectrum JIT times a pass of LDIR, LDDR, CPIR or CPDR by one lookup in a table of its
passes (tools/z80gen/cycles.py ``PassTable``, spectrum/timing.py ``with_pass_tables``); the
CPython engine walks every cycle. Both must end every run alike, to the T-state: here from
starts all over the frame, with the code, HL and DE each in contended memory or not (and
crossing into or out of it as the block moves), repeating and not."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from zxmonopoly.memory_map import ROM_SIZE
from zxmonopoly.spectrum import Spectrum48
from zxmonopoly.spectrum.machine import jit_contention
from zxmonopoly.spectrum.timing import (
    CONTENDED_FROM,
    CONTENTION_SPAN,
    FRAME_TSTATES,
    LINE_TSTATES,
    contention_table,
    with_pass_tables,
)
from zxmonopoly.z80 import jit_available

BLOCKS = {"LDIR": 0xB0, "LDDR": 0xB8, "CPIR": 0xB1, "CPDR": 0xB9}
#: Where the code, HL and DE start: contended, not, and near the edges the block crosses.
CODE_AT = (0x6000, 0x9000, 0x3FFF)  # 0x3FFF: ED in the ROM, its opcode at 0x4000
BLOCK_AT = (0x4800, 0x9400, 0x7FF8, 0x8004, 0x4004, 0x3FFC, 0x67FC, 0x2C00)
#: First T-states: the top border, the first contended line's edges, a line's middle and its
#: border, the last line, and past it.
STARTS = (0, 14300, CONTENDED_FROM - 3, CONTENDED_FROM, CONTENDED_FROM + 1,
          CONTENDED_FROM + 130, CONTENDED_FROM + 40 * LINE_TSTATES + 77,
          CONTENDED_FROM + 191 * LINE_TSTATES + 100, 57240, 69800)

pytestmark = pytest.mark.skipif(not jit_available(), reason="numba cannot be imported: no jit")


PATTERN = bytes((k * 7 + 3) & 0xFF for k in range(0x10000))
_MACHINES: dict[str, Spectrum48] = {}


def _run(engine: str, code_at: int, op: int, hl: int, de: int, bc: int, start: int,
         a: int) -> tuple[int, ...]:
    """The state once the block instruction at ``code_at``, started at T ``start``, is done
    (a breakpoint after it), or at the frame's end if it is still repeating there."""
    m = _MACHINES.get(engine)
    if m is None:
        m = _MACHINES[engine] = Spectrum48(rom=bytes(ROM_SIZE), engine=engine)
    cpu = m.cpu
    cpu.rom_top = 0  # the block may be in the ROM's half: everything is RAM here
    m.memory[:] = PATTERN
    m.memory[code_at], m.memory[(code_at + 1) & 0xFFFF] = 0xED, op
    after = (code_at + 2) & 0xFFFF
    cpu.pc, cpu.hl, cpu.de, cpu.bc, cpu.a = code_at, hl, de, bc, a
    cpu.iff1 = cpu.iff2 = 0
    cpu.tstates = start
    cpu.breakpoints[after] = 1
    try:
        m._run_to(FRAME_TSTATES)
    finally:
        cpu.breakpoints[after] = 0
    return (cpu.tstates, cpu.pc, cpu.hl, cpu.de, cpu.bc, cpu.f, cpu.memptr, cpu.r,
            hash(bytes(m.memory)))


@pytest.mark.parametrize("name", list(BLOCKS))
def test_every_pass_is_timed_as_the_walk_times_it(name: str) -> None:
    op = BLOCKS[name]
    differ = []
    for code_at, block, start in itertools.product(CODE_AT, BLOCK_AT, STARTS):
        # LDxR: HL the source, DE the destination 0x1800 on (0x67FC: DE crosses out of
        # contended memory, 0x2C00: into it); CPxR: A = 0xFF, found where the pattern has it
        hl, de = block, (block + 0x1800) & 0xFFFF
        for bc in (1, 2, 9):
            setup = (code_at, op, hl, de, bc, start, 0xFF)
            python, jit = _run("python", *setup), _run("jit", *setup)
            if python != jit:
                differ.append((hex(code_at), hex(block), start, bc, python, jit))
    assert not differ, differ[:5]


def test_the_tables_hold_the_walk_from_every_start() -> None:
    """One pass described as a walk (two cycles at a contended address, one conditional):
    every entry of every segment is the walk's T-states from that start."""
    delays = contention_table()
    # address bit 0: 3 T then 1 T twice; condition bit 1: 5 T at the same address
    specs = [1, 3, 0, 3, 1, -1, 0, 1, 2, -1, 0, 5, 1, 1]
    table = with_pass_tables(delays, specs)
    assert len(table) == 5 * CONTENTION_SPAN and (table[:CONTENTION_SPAN] == delays).all()
    padded = [int(x) for x in delays] + [0] * 256
    for mask in range(4):
        segment = table[(1 + mask) * CONTENTION_SPAN:(2 + mask) * CONTENTION_SPAN]
        for start in range(0, FRAME_TSTATES, 97):
            t = start
            for n, k, cond in ((3, 1, False), (1, 2, False), (5, 1, True)):
                if cond and not mask & 2:
                    continue
                for _ in range(k):
                    if mask & 1:
                        t += padded[t]
                    t += n
            assert segment[start] == t - start, (mask, start)


def test_the_jit_array_is_the_delays_then_the_passes() -> None:
    table = jit_contention()
    assert table.dtype == np.uint8
    assert (table[:CONTENTION_SPAN] == contention_table()).all()
    # LDIR's table: 8 segments (HL, DE and the repeat; its fetches are walked), then CPIR's 4
    assert len(table) == (1 + 8 + 4) * CONTENTION_SPAN
    # an LDIR pass that repeats, all uncontended: 21 T less the fetches' 8, from any start
    assert table[(1 + 4) * CONTENTION_SPAN + 30_000] == 13
