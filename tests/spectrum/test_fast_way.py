"""The Spectrum JIT adds an instruction's T-states at once (its fast way) where no cycle of it
can be delayed: outside the contended lines, or inside them when its data addresses (HL, DE,
BC, the stack, NN, IX/IY+d, IR) are all clear of contended memory (tools/z80gen/cycles.py,
``CHECK``), and a conditional instruction with its condition's T-states added. The CPython
engine walks every cycle. Both must end each instruction alike, to the T-state: here with
the code, the registers and NN in contended memory, clear of it and at its edges, from starts
inside the contended lines and out."""

from __future__ import annotations

import itertools

import pytest

from zxmonopoly.memory_map import ROM_SIZE
from zxmonopoly.spectrum import Spectrum48
from zxmonopoly.spectrum.timing import CONTENDED_FROM, LINE_TSTATES
from zxmonopoly.z80 import jit_available

pytestmark = pytest.mark.skipif(not jit_available(), reason="numba cannot be imported: no jit")

#: Each instruction's bytes: NN stands for the two bytes of the address under test, D for a
#: displacement.
NN, D = -1, -2
INSTRUCTIONS = {
    "LD A,(HL)": [0x7E], "LD (HL),A": [0x77], "INC (HL)": [0x34], "LD A,(DE)": [0x1A],
    "LD (BC),A": [0x02], "PUSH BC": [0xC5], "POP BC": [0xC1], "EX (SP),HL": [0xE3],
    "LD A,(NN)": [0x3A, NN], "LD (NN),A": [0x32, NN], "LD HL,(NN)": [0x2A, NN],
    "LD (NN),HL": [0x22, NN], "LD A,(IX+d)": [0xDD, 0x7E, D], "LD (IY+d),A": [0xFD, 0x77, D],
    "INC (IX+d)": [0xDD, 0x34, D], "LD (NN),IX": [0xDD, 0x22, NN], "LDI": [0xED, 0xA0],
    "LD A,I": [0xED, 0x57], "LD (NN),DE": [0xED, 0x53, NN], "CALL NZ,NN": [0xC4, NN],
    "CALL Z,NN": [0xCC, NN], "RET C": [0xD8], "RET NC": [0xD0], "DJNZ d": [0x10, D],
    "JR NZ,d": [0x20, D], "JR C,d": [0x38, D], "RST 8": [0xCF],
    # CB in the main function; DDCB's write tested from its opcode byte (BIT writes nothing)
    "RLC C": [0xCB, 0x01], "BIT 3,(HL)": [0xCB, 0x5E], "SET 2,(HL)": [0xCB, 0xD6],
    "RLC (IX+d)": [0xDD, 0xCB, D, 0x06], "BIT 3,(IX+d)": [0xDD, 0xCB, D, 0x5E],
    "SET 1,(IY+d)": [0xFD, 0xCB, D, 0xCE], "RES 0,(IX+d),B": [0xDD, 0xCB, D, 0x80],
    # DD's measured opcodes run in the main function, the rest (and FD) in DD's own
    "LD (IX+d),n": [0xDD, 0x36, D, 0x5A], "PUSH IX": [0xDD, 0xE5], "POP IX": [0xDD, 0xE1],
    "ADC A,(IX+d)": [0xDD, 0x8E, D], "EX (SP),IX": [0xDD, 0xE3], "ADD A,(IY+d)": [0xFD, 0x86, D],
}
#: Where the code starts: clear of contended memory, in it, and with its bytes crossing in.
CODE_AT = (0x9000, 0x6000, 0x3FFE)
#: HL, DE, BC, SP, IX, IY, I's page and NN all take one of these: contended, clear, the edges
#: and an index register's reach of the edges.
VALUES = (0x9000, 0x4000, 0x3FFF, 0x7FFF, 0x8000, 0x5B00, 0x3F81, 0x807F, 0x3F7F)
#: First T-states: the top border, each of the eight contention steps of a contended line, a
#: line's border and the last line.
STARTS = (100, *(CONTENDED_FROM + 40 * LINE_TSTATES + k for k in range(8)),
          CONTENDED_FROM + 40 * LINE_TSTATES + 140, CONTENDED_FROM + 191 * LINE_TSTATES + 5)
DISPLACEMENTS = (0x05, 0xFB)

PATTERN = bytes((k * 5 + 1) & 0xFF for k in range(0x10000))
_MACHINES: dict[str, Spectrum48] = {}


def _step(engine: str, code: list[int], code_at: int, value: int, flags: int,
          start: int) -> tuple[int, ...]:
    """The state after one instruction of ``code`` at ``code_at``, started at T ``start``,
    with every register pair and NN ``value`` and F ``flags``."""
    m = _MACHINES.get(engine)
    if m is None:
        m = _MACHINES[engine] = Spectrum48(rom=bytes(ROM_SIZE), engine=engine)
    cpu = m.cpu
    cpu.rom_top = 0  # the code may be in the ROM's half: everything is RAM here
    m.memory[:] = PATTERN
    at = code_at
    for byte in code:
        parts = [value & 0xFF, value >> 8] if byte == NN else [byte]
        for part in parts:
            m.memory[at & 0xFFFF] = part
            at += 1
    cpu.pc, cpu.hl, cpu.de, cpu.bc, cpu.sp = code_at, value, value, value, value
    cpu.ix, cpu.iy, cpu.i, cpu.f = value, value, value >> 8, flags
    cpu.iff1 = cpu.iff2 = 0
    cpu.tstates = start
    m.step()
    return (cpu.tstates, cpu.pc, cpu.hl, cpu.sp, cpu.bc, cpu.f, cpu.memptr, cpu.r,
            hash(bytes(m.memory)))


@pytest.mark.parametrize("name", list(INSTRUCTIONS))
def test_every_instruction_ends_where_the_walk_ends_it(name: str) -> None:
    template = INSTRUCTIONS[name]
    differ = []
    for code_at, value, flags, start, disp in itertools.product(
            CODE_AT, VALUES, (0x00, 0xFF), STARTS, DISPLACEMENTS):
        if D not in template and disp != DISPLACEMENTS[0]:
            continue
        code = [disp if byte == D else byte for byte in template]
        setup = (code, code_at, value, flags, start)
        python, jit = _step("python", *setup), _step("jit", *setup)
        if python != jit:
            differ.append((hex(code_at), hex(value), flags, start, disp, python[:2], jit[:2]))
    assert not differ, differ[:5]
