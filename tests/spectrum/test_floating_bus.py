"""The floating bus, read by a Z80 program of ours that syncs with the frame and counts T-states.

The program (in uncontended RAM) HALTs for the frame interrupt (IM 2), waits a number of
T-states counted instruction by instruction, then reads a port no device answers, IN A,(C) or
IN A,(n), and stores A. The test works out, on its own, the T-state at which that IN samples
the bus and what the ULA is fetching then, from the documented 48K model (docs/spectrum.md,
"The floating bus"): Fuse's, after Ramsoft's guide. It is the model as the facts state it,
written here apart from the engines' generated code:

- the first screen byte is fetched at T 14,338; in each 8 T-states of the 128 T of a screen line
  (224 T a line, 192 lines), offset 2 reads the bitmap byte, 3 its attribute, 4 the next bitmap
  byte, 5 its attribute, and 0, 1, 6, 7 read 0xFF, as do the borders and the retrace;
- an IN samples the bus 3 T-states into its port cycle (1 T, then 2 T; the 4th T follows the
  read); a port with its high byte in 0x40-0x7F is contended before each of those T-states
  (delays 6, 5, 4, 3, 2, 1, 0, 0 from T 14,335 at the start of each screen line's 128 T).

The issue's worked case: the attribute at 0x5A0F holds 0x53; IN A,(C) with BC = 0x40FF starting
at T 43,046 samples at 43,069 and reads 0x53. Around it, a few T-states either side, and
uncontended ports 0x80FF and 0xFFFF.
"""

from __future__ import annotations

import pytest

from tests.spectrum.roms import rom
from zxmonopoly.asm import assemble
from zxmonopoly.memory_map import ATTR_END, ATTR_FILE, DISPLAY_FILE
from zxmonopoly.spectrum import Spectrum48

IDLE_ROM = rom("        ORG 0\n        DI\nhere:   JR here\n")
PROGRAM_AT = 0x8000  # uncontended RAM: the program's own cycles are never delayed
VECTORS = 0x9000  # IM 2 table (I = 0x90), 257 bytes of HANDLER's high byte
HANDLER = 0xA0A0
RESULT = 0xC000
START_T = 1000  # the program starts here in frame 0, past the interrupt
ACCEPT_T = 19  # IM 2 acceptance in frame 1 (the HALT passes end exactly at 69,888: see below)
LOOP_T = 24  # DEC DE (6) + LD A,D (4) + OR E (4) + JP NZ (10)
# Padding by the remainder of the T-states mod 4: an instruction of that remainder, then NOPs.
PAD = {0: ("", 0), 1: ("LD A,I", 9), 2: ("INC HL", 6), 3: ("LD A,0", 7)}

FIRST_FETCH = 14338
LINE_T, SCREEN_LINES, FETCH_T = 224, 192, 128
CONTENTION_FROM = 14335
DELAYS = (6, 5, 4, 3, 2, 1, 0, 0)


def contention(t: int) -> int:
    """The ULA's delay of a contended access at T-state ``t``."""
    rel = t - CONTENTION_FROM
    line, col = divmod(rel, LINE_T)
    if rel < 0 or line >= SCREEN_LINES or col >= FETCH_T:
        return 0
    return DELAYS[col % 8]


def sample_t(io_start: int, port: int) -> int:
    """The T-state at which an IN whose port cycle starts at ``io_start`` samples the bus."""
    if not 0x40 <= port >> 8 <= 0x7F:
        return io_start + 3
    t = io_start
    for _ in range(3):
        t += contention(t) + 1
    return t + contention(t)


def ula_fetch(t: int, memory: bytes) -> int:
    """What the ULA puts on the bus at T-state ``t``: a screen byte or 0xFF."""
    rel = t - (FIRST_FETCH - 2)
    line, col = divmod(rel, LINE_T)
    if rel < 0 or line >= SCREEN_LINES or col >= FETCH_T:
        return 0xFF
    group, offset = divmod(col, 8)
    if offset not in (2, 3, 4, 5):
        return 0xFF
    x = 2 * group + (offset - 2) // 2
    if offset in (2, 4):  # bitmap: y7 y6 y2 y1 y0 y5 y4 y3 x4..x0
        return memory[DISPLAY_FILE | (line >> 6) << 11 | (line & 7) << 8
                      | ((line >> 3) & 7) << 5 | x]
    return memory[ATTR_FILE + (line // 8) * 32 + x]


def program(in_start: int, port: int, form: str) -> tuple[bytes, bytes]:
    """(code at PROGRAM_AT, handler at HANDLER): the IN starts at ``in_start`` of frame 1."""
    # The handler runs from ACCEPT_T: LD DE,n (10), the loop, the padding, the port set-up
    # (LD BC,nn 10; or LD A,n 7), then the IN.
    setup = 10 if form == "c" else 7
    budget = in_start - ACCEPT_T - 10 - setup
    count = (budget - 24) // LOOP_T  # leave 24 T or more to pad with
    pad = budget - count * LOOP_T
    odd, odd_t = PAD[pad % 4]
    nops = (pad - odd_t) // 4
    assert count > 0 and odd_t + 4 * nops == pad
    port_in = (f"LD BC,{port}\n        IN A,(C)" if form == "c"
               else f"LD A,{port >> 8}\n        IN A,({port & 0xFF})")
    handler = f"""
        ORG {HANDLER}
        LD DE,{count}
loop:   DEC DE
        LD A,D
        OR E
        JP NZ,loop
        {odd}
        DS {nops}
        {port_in}
        LD ({RESULT}),A
        HALT
"""
    # Frame 0: the program starts at START_T (a multiple of 4); after EI (4) the HALT's passes
    # of 4 T end exactly at 69,888, so the interrupt is accepted at T 0 of frame 1.
    main = f"""
        ORG {PROGRAM_AT}
        EI
        HALT
"""
    code = assemble(main, "<floating bus main>").binary()
    body = assemble(handler, "<floating bus handler>").binary()
    return code, body


def screen_pattern(memory: bytearray) -> None:
    """Bitmap and attributes with distinct bytes, none 0xFF; the worked case's 0x53 at 0x5A0F."""
    for a in range(DISPLAY_FILE, ATTR_END):
        memory[a] = (a * 7 + 3) % 251
    memory[0x5A0F] = 0x53


def run_case(engine: str, in_start: int, port: int, form: str) -> tuple[int, int]:
    """(A read by the program, the model's byte) for an IN starting at ``in_start``."""
    m = Spectrum48(rom=IDLE_ROM, engine=engine)
    screen_pattern(m.memory)
    main, handler = program(in_start, port, form)
    m.memory[PROGRAM_AT:PROGRAM_AT + len(main)] = main
    m.memory[HANDLER:HANDLER + len(handler)] = handler
    m.memory[VECTORS:VECTORS + 257] = bytes([HANDLER >> 8]) * 257
    cpu = m.cpu
    cpu.pc, cpu.sp, cpu.i, cpu.im, cpu.iff1, cpu.iff2 = PROGRAM_AT, 0xFF00, VECTORS >> 8, 2, 0, 0
    cpu.tstates = START_T
    m.run_frames(2)
    assert cpu.halted and cpu.pc == HANDLER + len(handler) - 1, "the program did not finish"
    io_start = in_start + (8 if form == "c" else 7)  # after the two M1s / the M1 and n
    want = ula_fetch(sample_t(io_start, port), bytes(m.memory))
    return m.memory[RESULT], want


def test_the_worked_case_reads_the_attribute_at_5a0f(engine):
    assert sample_t(43046 + 8, 0x40FF) == 43069  # the model, as the issue works it out
    assert ula_fetch(43069, bytes([0] * 0x5A0F + [0x53] + [0] * 0xA5F0)) == 0x53
    got, want = run_case(engine, 43046, 0x40FF, "c")
    assert (got, want) == (0x53, 0x53)


CASES = [(start, port, form) for port in (0x40FF, 0x80FF, 0xFFFF) for form in ("c", "n")
         for start in range(43046 - 12, 43046 + 13)]


def test_neighbours_read_as_the_model_says(engine):
    """25 starts around the worked case, three ports, both forms of IN: 150 programs."""
    wrong = []
    seen = set()
    for start, port, form in CASES:
        got, want = run_case(engine, start, port, form)
        seen.add(want)
        if got != want:
            wrong.append(f"IN A,{'(C)' if form == 'c' else '(n)'} port {port:04X} from T {start}: "
                         f"read {got:02X}, the model says {want:02X}")
    assert not wrong, "\n".join(wrong)
    assert 0xFF in seen and len(seen) > 10  # idle T-states and many screen bytes among them


@pytest.mark.parametrize("line_t", [14338 - 224 - 3, 14338 - 4, 14338 + 191 * 224 + 120])
def test_at_the_edges_of_the_screen(engine, line_t):
    """Before the first line, at its first fetch, and across the end of the last line."""
    wrong = []
    for d in range(0, 16):
        for port in (0x40FF, 0xFFFF):
            got, want = run_case(engine, line_t - 8 + d, port, "c")
            if got != want:
                wrong.append(f"port {port:04X} from T {line_t - 8 + d}: {got:02X} vs {want:02X}")
    assert not wrong, "\n".join(wrong)
