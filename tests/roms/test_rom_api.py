"""The entry points machine code calls, with the 48K's register conventions
(shared/reference/rom_conventions.md; docs/rom-api.md): each called with a distinct value in
every register returns, gives its output, and changes no register the 48K's keeps."""

from __future__ import annotations

import pytest

from zxmonopoly.asm import assemble
from zxmonopoly.spectrum import Spectrum48

from .romkit import report_line, screen

RET_TRAP = 0x8000  # JR $: where the routines return to
CODE = 0x8100  # test programs
TEXT = 0x9000  # test strings
STACK = 0x7F00
ERR_NR = 0x5C3A
S_POSN, DF_CC, STKEND, COORDS, BORDCR = 0x5C88, 0x5C84, 0x5C65, 0x5C7D, 0x5C48
SPOSNL, DF_CCL, DF_SZ, TV_FLAG = 0x5C8A, 0x5C86, 0x5C6B, 0x5C3C

#: The values every register holds before a call (as in rom_conventions.md).
DISTINCT = {"af": 0x4100, "bc": 0x1122, "de": 0x3344, "hl": 0x5566, "af_": 0x7788,
            "bc_": 0x99AA, "de_": 0xBBCC, "hl_": 0xDDEE, "ix": 0x1357, "iy": ERR_NR}
#: Register halves a comparison looks at (F is never compared).
COMPARED = ("a", "bc", "de", "hl", "a_", "f_", "bc_", "de_", "hl_", "ix", "iy", "sp")


def _registers(m: Spectrum48) -> dict[str, int]:
    cpu = m.cpu
    return {name: getattr(cpu, name) for name in COMPARED}


def call(m: Spectrum48, address: int, frames: int = 50, interrupts: bool = False,
         **registers: int) -> dict[str, int]:
    """Call ``address`` with DISTINCT overridden by ``registers``; return the registers
    before the call (SP as the routine returns it)."""
    mem, cpu = m.memory, m.cpu
    mem[RET_TRAP:RET_TRAP + 2] = bytes([0x18, 0xFE])
    for name, value in {**DISTINCT, **registers}.items():
        setattr(cpu, name, value)
    cpu.sp = STACK - 2
    mem[STACK - 2], mem[STACK - 1] = RET_TRAP & 0xFF, RET_TRAP >> 8
    before = _registers(m)
    before["sp"] = STACK
    cpu.iff1 = cpu.iff2 = int(interrupts)
    cpu.halted = 0
    cpu.pc = address
    assert m.run_until(pc=RET_TRAP, max_frames=frames), f"0x{address:04X} did not return " \
        f"(PC = 0x{cpu.pc:04X})"
    return before


def changed(before: dict[str, int], after: dict[str, int]) -> set[str]:
    return {name for name in COMPARED if before[name] != after[name]}


def upper_screen(m: Spectrum48) -> None:
    """Output to the upper screen (CHAN-OPEN 2)."""
    call(m, 0x1601, af=0x0200)


# (address, name, inputs, what the 48K's may change: rom_conventions.md)
ENTRIES = [
    (0x0010, "RST 10h", {"af": 0x4100}, {"a", "a_", "f_", "bc_", "de_"}),
    (0x0038, "MASK-INT", {}, set()),
    (0x028E, "KEY-SCAN", {}, {"a", "bc", "de", "hl"}),
    (0x02BF, "KEYBOARD", {}, {"a", "bc", "de", "hl"}),
    (0x03B5, "BEEPER", {"hl": 0x0100, "de": 0x0010}, {"a", "bc", "de", "ix"}),
    (0x0D6B, "CLS", {}, {"a", "bc", "de", "hl"}),
    (0x0DAF, "CL-ALL", {}, {"a", "bc", "de", "hl"}),
    (0x0DD9, "CL-SET", {"bc": 0x141E}, {"a", "de", "hl"}),
    (0x0E44, "CL-LINE", {"bc": 0x0222}, {"a", "bc", "de", "hl"}),
    (0x1601, "CHAN-OPEN", {"af": 0x0200}, {"a", "bc", "de", "hl"}),
    (0x1A1B, "OUT-NUM-1", {"bc": 0x04D2}, {"a", "bc", "a_", "f_", "bc_", "de_"}),
    (0x203C, "PR-STRING", {"de": TEXT, "bc": 5}, {"a", "bc", "de", "a_", "f_", "bc_", "de_"}),
    (0x22AA, "PIXEL-ADD", {"bc": 0x6432}, {"a", "bc", "hl"}),
    (0x22E5, "PLOT-SUB", {"bc": 0x6432}, {"a", "bc", "de", "hl"}),
    (0x2D2B, "STACK-BC", {"bc": 0x04D2}, {"a", "bc", "de", "hl", "de_"}),
    (0x2DE3, "PRINT-FP", {}, {"a", "bc", "de", "hl", "a_", "f_", "bc_", "de_"}),
]


@pytest.mark.parametrize("address, name, inputs, may_change", ENTRIES,
                         ids=[e[1] for e in ENTRIES])
def test_each_entry_keeps_what_the_48k_keeps(machine, address, name, inputs, may_change):
    machine.memory[TEXT:TEXT + 5] = b"Hello"
    upper_screen(machine)
    if name == "PRINT-FP":
        call(machine, 0x2D2B, bc=4321)
    before = call(machine, address, **inputs)
    after = _registers(machine)
    assert changed(before, after) <= may_change, name


def test_rst_10h_prints_from_a_program_that_keeps_its_pointer_in_hl_alternate(machine):
    """A test suite's print routine: RST 10h on the alternate set with interrupts on, the
    string pointer in HL' all along. It must print the whole string and end."""
    text = "Result: all tests passed"
    source = f"""
        org {CODE}
start:  ld hl,text
        exx                     ; the pointer lives in HL'
        di
loop:   exx
        ld a,(hl)
        inc hl
        exx
        or a
        jr z,done
        call print
        jr loop
done:   ei
        ret
print:  push iy
        ld iy,0x5C3A
        push de
        push bc
        exx
        ei
        rst 0x10
        di
        exx
        pop bc
        pop de
        pop iy
        ret
text:   db "{text}", 0
"""
    code = assemble(source, "<rst 10h test>").binary()
    machine.memory[CODE:CODE + len(code)] = code
    upper_screen(machine)
    call(machine, CODE, frames=20)
    assert screen(machine)[0] == text


def test_pr_string_prints_and_keeps_hl_alternate(machine):
    machine.memory[TEXT:TEXT + 5] = b"Hello"
    upper_screen(machine)
    before = call(machine, 0x203C, de=TEXT, bc=5)
    assert screen(machine)[0] == "Hello"
    assert machine.cpu.hl_ == before["hl_"] and machine.cpu.hl == before["hl"]
    assert machine.cpu.bc == 0 and machine.cpu.de == TEXT + 5


def out_num_1_expected(number: int) -> str:
    """What the 48K's OUT-NUM-1 prints, worked out here from its rule (not from our ROM): places
    1000, 100, 10 by repeated subtraction, a leading 0 suppressed (E = 0xFF), the thousands as
    one character past "9" when it is 10 or more, the units always; bit 15 set: "0"."""
    if number & 0x8000:
        return "0"
    out, started = "", False
    for place in (1000, 100, 10):
        digit, number = divmod(number, place)
        if digit or started:
            out += chr(ord("0") + digit)
            started = True
    return out + chr(ord("0") + number)


@pytest.mark.parametrize("number", [1234, 42, 0, 7, 100, 1005, 9999, 10000, 12345, 32767,
                                    0x8000, 0xFFFE])
def test_out_num_1_prints_a_number_as_the_reports_do(machine, number):
    # "0 OK, 10:1": the 48K prints a report's line and statement through OUT-NUM-1 with no
    # leading spaces (the Sinclair ROM loads E with 0xFF, "no leading zeros", for it; OUT-NUM-2,
    # which LIST uses, pads with spaces).
    upper_screen(machine)
    hl = 0x1357
    call(machine, 0x1A1B, bc=number, hl=hl, de=0x2468)
    assert machine.screen_text()[0].rstrip() == out_num_1_expected(number)
    assert machine.cpu.hl == hl and machine.cpu.de == 0x2468


def test_out_num_1_expected_examples():
    assert [out_num_1_expected(n) for n in (42, 0, 10000, 12345)] == ["42", "0", ":000", "<345"]


def test_cl_set_sets_the_print_position_and_keeps_bc(machine):
    upper_screen(machine)
    call(machine, 0x0DD9, bc=(24 - 5) << 8 | (33 - 3))  # row 5, column 3
    assert machine.cpu.bc == (24 - 5) << 8 | (33 - 3)
    assert machine.memory[S_POSN] == 33 - 3 and machine.memory[S_POSN + 1] == 24 - 5
    call(machine, 0x0010, af=ord("Z") << 8)
    assert screen(machine)[5] == "   Z"


@pytest.mark.parametrize("df_sz, line, column", [(2, 0, 4), (2, 1, 0), (3, 0, 31), (5, 2, 7)])
def test_cl_set_in_the_lower_screen_counts_lines_from_its_top(machine, df_sz, line, column):
    """The 48K's CL-SET with TV_FLAG bit 0 set finds the display line B + DF_SZ - 24: B = 24
    is the lower screen's first line, whatever DF_SZ is."""
    mem = machine.memory
    call(machine, 0x0D6B)  # CLS: nothing else on the rows looked at
    mem[DF_SZ] = df_sz
    call(machine, 0x1601, af=0x0000)  # stream 0: the lower screen (K)
    assert mem[TV_FLAG] & 1
    bc = (24 - line) << 8 | (33 - column)
    call(machine, 0x0DD9, bc=bc)
    assert machine.cpu.bc == bc
    display_line = (24 - line) + df_sz - 24  # the 48K's rule, counted from the bottom
    row = 24 - display_line
    assert row == 24 - df_sz + line
    address = 0x4000 | (row & 0x18) << 8 | (row & 7) << 5 | column
    assert mem[DF_CCL] | mem[DF_CCL + 1] << 8 == address
    assert mem[SPOSNL] == 33 - column and mem[SPOSNL + 1] == 24 - row  # (from the top)
    call(machine, 0x0010, af=ord("Z") << 8)
    assert screen(machine)[row] == " " * column + "Z"


def test_cl_all_clears_and_cl_line_clears_the_bottom_rows(machine):
    upper_screen(machine)
    machine.memory[TEXT:TEXT + 2] = b"AB"
    call(machine, 0x203C, de=TEXT, bc=2)
    machine.memory[COORDS:COORDS + 2] = b"\x05\x06"
    call(machine, 0x0DAF)
    assert screen(machine)[0] == "" and machine.memory[COORDS:COORDS + 2] == b"\0\0"
    mem = machine.memory
    mem[0x4000:0x5800] = b"\xff" * 0x1800
    call(machine, 0x0E44, bc=0x0300)  # the bottom 3 rows
    row = lambda r, line=0: mem[0x4000 | (r & 0x18) << 8 | line << 8 | (r & 7) << 5]  # noqa: E731
    assert [row(r) for r in (20, 21, 22, 23)] == [0xFF, 0, 0, 0]


@pytest.mark.parametrize("y, x", [(0, 0), (175, 255), (100, 50), (87, 129)])
def test_pixel_add_gives_the_byte_and_the_bit(machine, y, x):
    call(machine, 0x22AA, bc=y << 8 | x)
    top = 175 - y
    expected = 0x4000 | (top & 0xC0) << 5 | (top & 7) << 8 | (top & 0x38) << 2 | x >> 3
    assert machine.cpu.hl == expected and machine.cpu.a == x & 7


def test_plot_sub_sets_the_pixel_and_coords(machine):
    call(machine, 0x22E5, bc=100 << 8 | 50)
    call(machine, 0x22AA, bc=100 << 8 | 50)
    assert machine.memory[machine.cpu.hl] == 0x80 >> (50 & 7)
    assert machine.memory[COORDS] == 50 and machine.memory[COORDS + 1] == 100
    machine.memory[0x5C91] |= 1  # OVER 1: plotting again takes it away
    call(machine, 0x22E5, bc=100 << 8 | 50)
    call(machine, 0x22AA, bc=100 << 8 | 50)
    assert machine.memory[machine.cpu.hl] == 0


def test_pixel_add_above_175_is_report_b(machine):
    cpu = machine.cpu  # (it does not return: started by hand)
    machine.memory[RET_TRAP:RET_TRAP + 2] = bytes([0x18, 0xFE])
    cpu.bc, cpu.iy, cpu.sp, cpu.pc = 176 << 8, ERR_NR, STACK, 0x22AA
    machine.run_frames(5)
    assert machine.memory[ERR_NR] == 0x0A  # B Integer out of range


@pytest.mark.parametrize("value", [0, 1, 255, 4321, 65535])
def test_stack_bc_then_print_fp_prints_the_number(machine, value):
    upper_screen(machine)
    end = machine.memory[STKEND] | machine.memory[STKEND + 1] << 8
    call(machine, 0x2D2B, bc=value, iy=0x1234)
    assert machine.cpu.iy == ERR_NR  # as the 48K's STACK-BC leaves it
    assert machine.memory[end:end + 5] == bytes([0, 0, value & 0xFF, value >> 8, 0])
    call(machine, 0x2DE3)
    assert screen(machine)[0] == str(value)
    assert machine.memory[STKEND] | machine.memory[STKEND + 1] << 8 == end


def test_stack_a_stacks_a(machine):
    upper_screen(machine)
    call(machine, 0x2D28, af=0xC800)
    call(machine, 0x2DE3)
    assert screen(machine)[0] == "200"


@pytest.mark.parametrize("value, printed", [
    (bytes([0x91, 0x43, 0x50, 0x00, 0x00]), "100000"),   # 0.1100001101010000 * 2^17
    (bytes([0x00, 0xFF, 0xFB, 0xFF, 0x00]), "-5"),       # the integer form, negative
    (bytes([0x83, 0xC0, 0x00, 0x00, 0x00]), "-6"),       # -0.11 * 2^3, the floating form
])
def test_print_fp_prints_whole_numbers_in_either_form(machine, value, printed):
    upper_screen(machine)
    _push_value(machine, value)
    call(machine, 0x2DE3)
    assert screen(machine)[0] == printed


def test_print_fp_stops_with_report_c_for_a_fraction(machine):
    _push_value(machine, bytes([0x81, 0x40, 0x00, 0x00, 0x00]))  # 1.5
    cpu = machine.cpu
    machine.memory[RET_TRAP:RET_TRAP + 2] = bytes([0x18, 0xFE])
    cpu.iy, cpu.sp, cpu.pc = ERR_NR, STACK, 0x2DE3
    machine.run_frames(5)
    assert machine.memory[ERR_NR] == 0x0B


def _push_value(machine: Spectrum48, value: bytes) -> None:
    """A 5-byte value onto the calculator stack, as the calculator would leave it."""
    mem = machine.memory
    end = mem[STKEND] | mem[STKEND + 1] << 8
    mem[end:end + 5] = value
    mem[STKEND], mem[STKEND + 1] = (end + 5) & 0xFF, (end + 5) >> 8


def test_beeper_plays_de_plus_one_cycles_of_4hl_plus_120_t_states_a_half(machine):
    hl, de = 200, 9
    machine.run_frames(1)  # a new frame: the tone (about 18,000 T) and nothing else in it
    call(machine, 0x03B5, hl=hl, de=de, frames=5)
    after = _registers(machine)
    machine.run_frames(1)
    toggles = [t for t, _value in machine.last_frame_events]
    assert len(toggles) == 2 * (de + 1)
    halves = [b - a for a, b in zip(toggles, toggles[1:], strict=False)]
    assert all(abs(h - (4 * hl + 120)) <= 8 for h in halves), halves  # (I/O contention)
    assert machine.cpu.iff1 == 1  # interrupts on again
    assert after["hl"] == hl


def test_key_scan_gives_the_48k_key_values(machine):
    keyboard = machine.keyboard
    for keys, expected_de in ((("B",), 0xFF00), (("V",), 0xFF07), (("SYMBOL SHIFT", "P"), 0x1822),
                              (("CAPS SHIFT",), 0xFF27), (("CAPS SHIFT", "SYMBOL SHIFT"), 0x2718),
                              ((), 0xFFFF)):
        keyboard.release_all()
        if keys:
            keyboard.press(keys)
        call(machine, 0x028E)
        assert machine.cpu.de == expected_de and machine.cpu.f & 0x40, keys
    keyboard.release_all()
    keyboard.press(("A", "S"))
    call(machine, 0x028E)
    assert not machine.cpu.f & 0x40  # two keys: not a valid reading
    keyboard.release_all()


@pytest.mark.parametrize("address", [0x2DA2, 0x0100, 0x3C00])
def test_an_address_we_do_not_provide_stops_with_a_report(rom, machine, address):
    """FP-TO-BC (0x2DA2) and the padding between our routines hold RST 28h: report C."""
    if address == 0x0100 and rom.image[address] != 0xEF:
        address = next(a for a in range(0x0100, 0x0300) if rom.image[a] == 0xEF)
    assert rom.image[address] == 0xEF
    cpu = machine.cpu
    cpu.iy, cpu.sp, cpu.pc = ERR_NR, STACK, address
    machine.run_frames(5)
    assert machine.memory[ERR_NR] == 0x0B  # C Nonsense in BASIC
    assert report_line(machine).startswith("C Nonsense in BASIC")
