"""BASIC statements: PRINT, POKE/PEEK, CLEAR, RANDOMIZE USR, RUN, GO TO, REM, STOP, NEW, CLS,
BORDER, LIST, PAUSE, colours; RST 10h for machine code; anything else is C Nonsense in BASIC."""

from __future__ import annotations

import pytest

from zxmonopoly import basic
from zxmonopoly.asm import assemble
from zxmonopoly.memory_map import ATTR_FILE

from .romkit import (
    BREAK,
    edit_line,
    press_enter,
    program,
    report_line,
    run_command,
    screen,
    type_basic,
    word,
)

CODE_AT = 32768


def poke_code(machine, source: str, org: int = CODE_AT) -> None:
    code = assemble(f"        org {org}\n{source}", "<test code>").binary()
    machine.memory[org:org + len(code)] = code


def enter_program(machine, *lines: tuple[str, ...]) -> None:
    for parts in lines:
        type_basic(machine, *parts)
        press_enter(machine)


def test_print_integers_and_arithmetic(machine):
    text = run_command(machine, "PRINT", "2+2")
    assert text[0] == "4" and report_line(machine) == "0 OK, 0:1"
    run_command(machine, "PRINT", "7-10;", "PEEK", "0*3;", "-(1+2)*4;", "100/7;", "-7/2")
    assert screen(machine)[1] == "-3" + str(0xF3 * 3) + "-1214-3"


def test_print_strings_separators_at_and_tab(machine):
    run_command(machine, "PRINT", '"a""b",', '"c";', '"d"', "'", "AT", "5,3;", '"at";', "TAB",
                "20;", '"t"')
    text = screen(machine)
    assert text[0] == 'a"b' + " " * 13 + "cd"
    assert text[1] == ""
    assert text[5] == "   at" + " " * 15 + "t"


def test_print_numbers_up_to_32_bits(machine):
    run_command(machine, "PRINT", "2147483647;", '" ";', "-2147483647;", '" ";', "7000*30")
    assert screen(machine)[0] == "2147483647 -2147483647 210000"
    run_command(machine, "PRINT", "70000*3")  # * and / take 16-bit operands
    assert report_line(machine) == "6 Number too big, 0:1"


def test_print_scrolls_the_upper_screen(machine):
    enter_program(machine, ("10", "PRINT", "1"), ("20", "GO TO", "10"))
    type_basic(machine, "RUN")
    machine.tap("ENTER", hold=2, gap=40)
    machine.keyboard.press(BREAK)
    machine.run_frames(5)
    machine.keyboard.release_all()
    machine.run_frames(5)
    text = screen(machine)
    assert text[:22] == ["1"] * 22
    assert text[22].startswith("L BREAK into program, ")


def test_poke_then_print_peek(machine):
    run_command(machine, "POKE", "30000,200")
    assert machine.memory[30000] == 200
    run_command(machine, "POKE", "30001,-1")
    assert machine.memory[30001] == 255
    text = run_command(machine, "PRINT", "PEEK", "30000+", "PEEK", "30001")
    assert text[0] == "455"


def test_poke_out_of_range_is_report_b(machine):
    run_command(machine, "POKE", "65536,1")
    assert report_line(machine) == "B Integer out of range, 0:1"
    run_command(machine, "POKE", "30000,256")
    assert report_line(machine) == "B Integer out of range, 0:1"


def test_clear_sets_ramtop_and_the_stack_under_it(machine):
    run_command(machine, "CLEAR", "32767")
    assert word(machine, 23730) == 32767                    # RAMTOP
    assert machine.memory[32767] == 0x3E                    # the GO SUB stack's end
    assert word(machine, 23613) == 32764                    # ERR_SP under it
    assert report_line(machine) == "0 OK, 0:1"
    run_command(machine, "PRINT", "1")                      # and it still runs
    assert screen(machine)[0] == "1"


@pytest.mark.parametrize("value", ["100", "65535+1"])
def test_clear_too_low_or_too_high_is_ramtop_no_good(machine, value):
    run_command(machine, "CLEAR", value)
    assert report_line(machine) in ("M RAMTOP no good, 0:1", "B Integer out of range, 0:1")
    assert word(machine, 23730) == 0xFF57


def test_randomize_usr_runs_machine_code_and_returns(machine):
    poke_code(machine, """
        ld hl,0x9000
        inc (hl)
        ld bc,1234
        ret
""")
    run_command(machine, "RANDOMIZE", "USR", "32768")
    assert machine.memory[0x9000] == 1
    assert word(machine, 23670) == 1234                     # SEED = what USR gave
    assert report_line(machine) == "0 OK, 0:1"
    run_command(machine, "PRINT", "USR", "32768")
    assert screen(machine)[0] == "1234" and machine.memory[0x9000] == 2


def test_randomize_alone_seeds_from_frames(machine):
    run_command(machine, "RANDOMIZE")
    assert word(machine, 23670) != 0


def test_machine_code_prints_through_rst_10_and_chan_open(machine):
    poke_code(machine, """
        ld a,2                  ; the upper screen
        call 0x1601
        ld a,0x16               ; AT 4,6
        rst 0x10
        ld a,4
        rst 0x10
        ld a,6
        rst 0x10
        ld de,text
        ld bc,5
        call 0x203C             ; PR-STRING
        ld a,0x13               ; BRIGHT 1
        rst 0x10
        ld a,1
        rst 0x10
        ld a,0xF5               ; a token prints as its keyword
        rst 0x10
        ret
text:   db "Hello"
""")
    run_command(machine, "RANDOMIZE", "USR", "32768")
    assert screen(machine)[4] == "      Hello PRINT"
    assert machine.memory[ATTR_FILE + 4 * 32 + 6] == 0x38       # plain
    assert machine.memory[ATTR_FILE + 4 * 32 + 12] == 0x78      # BRIGHT 1


def test_rst_10_keeps_bc_de_hl(machine):
    poke_code(machine, """
        ld a,2
        call 0x1601
        ld bc,0x1122
        ld de,0x3344
        ld hl,0x5566
        ld a,"X"
        rst 0x10
        ld (0x9000),bc
        ld (0x9002),de
        ld (0x9004),hl
        ret
""")
    run_command(machine, "RANDOMIZE", "USR", "32768")
    assert bytes(machine.memory[0x9000:0x9006]) == bytes.fromhex("221144336655")


def test_run_go_to_rem_and_stop(machine):
    enter_program(machine,
                  ("10", "PRINT", '"one"'),
                  ("20", "GO TO", "40"),
                  ("30", "PRINT", '"never"'),
                  ("40", "REM", " :", "PRINT", '"not"'),
                  ("50", "PRINT", '"two":', "STOP"),
                  ("60", "PRINT", '"after"'))
    text = run_command(machine, "RUN")
    assert text[:3] == ["one", "two", ""]
    assert report_line(machine) == "9 STOP statement, 50:2"


def test_run_from_a_line_and_program_end_reports_ok(machine):
    enter_program(machine, ("10", "PRINT", '"a"'), ("20", "PRINT", '"b"'))
    text = run_command(machine, "RUN", "20")
    assert text[0] == "b" and report_line(machine) == "0 OK, 20:1"
    run_command(machine, "GO TO", "15")
    assert screen(machine)[1] == "b"


def test_list_shows_the_program(machine):
    enter_program(machine, ("10", "PRINT", '"hi";', "PEEK", "23672"), ("200", "CLS"))
    text = run_command(machine, "LIST")
    assert text[:2] == ['  10 PRINT "hi";PEEK 23672', ' 200 CLS']


def test_new_clears_the_program_and_shows_the_copyright(machine):
    enter_program(machine, ("10", "PRINT", "1"))
    run_command(machine, "CLEAR", "40000")
    type_basic(machine, "NEW")
    machine.tap("ENTER", hold=1, gap=30)
    assert program(machine) == b""
    assert screen(machine)[22] == "© 2026 zxmonopoly ROM"
    assert word(machine, 23730) == 40000                    # NEW keeps RAMTOP


def test_cls_clears_the_screen(machine):
    run_command(machine, "PRINT", '"x"')
    run_command(machine, "CLS")
    assert screen(machine)[:22] == [""] * 22


def test_border_sets_the_border_and_bordcr(machine):
    run_command(machine, "BORDER", "1")
    assert machine.memory[23624] == 0x0F                    # blue border, white ink below
    assert machine.border_now() == 1
    run_command(machine, "BORDER", "6")
    assert machine.memory[23624] == 0x30
    run_command(machine, "BORDER", "8")
    assert report_line(machine) == "K Invalid colour, 0:1"


def test_ink_and_paper_statements_set_the_permanent_colours(machine):
    run_command(machine, "INK", "2:", "PAPER", "6:", "PRINT", '"c"')
    assert machine.memory[23693] == 0x32                    # ATTR_P
    assert machine.memory[ATTR_FILE] == 0x32
    run_command(machine, "PRINT", "INK", "1;", '"d"')       # INK inside PRINT: for it only
    assert machine.memory[ATTR_FILE + 32] == 0x31
    assert machine.memory[23695] == 0x32                    # ATTR_T back to ATTR_P


def test_pause_waits_for_frames(machine):
    type_basic(machine, "PAUSE", "50")
    before = machine.frame
    press_enter(machine)
    assert machine.frame - before >= 50
    assert report_line(machine) == "0 OK, 0:1"


def test_out_writes_a_port(machine):
    run_command(machine, "OUT", "254,2")
    assert machine.border_now() == 2


@pytest.mark.parametrize("parts", [
    ("DIM", "a(3)"), ("LET", "a$=", '"x"'), ("LET", "ab=1"), ("PRINT", "a1"),
    ("PRINT", "SIN", "1"), ("INPUT", "a"), ("BEEP", "1"), ("PLOT", "1,1"), ("READ", "a"),
    ("PRINT", "1.5"), ("PRINT", '"open'), ("PRINT", "1 2"), ("IF", "1 p"),
    ("FOR", "i=1"),
])
def test_unsupported_basic_is_nonsense_never_a_hang(machine, parts):
    run_command(machine, *parts)
    assert report_line(machine) == "C Nonsense in BASIC, 0:1"
    assert edit_line(machine) == b""
    assert screen(machine)[23] == "K"


def test_numbers_in_a_loaded_program_use_the_hidden_form(machine):
    """The interpreter reads the hidden 5-byte value, not the digits (spectrum_facts 6.2)."""
    line = bytearray(basic.tokenise("10 PRINT 1"))
    value_at = line.index(0x0E) + 1
    line[value_at:value_at + 5] = basic.encode_number(77)
    start = word(machine, 23635)
    machine.memory[start:start + len(line)] = line
    machine.memory[start + len(line)] = 0x80
    machine.memory[start + len(line) + 1] = 0x0D
    machine.memory[start + len(line) + 2] = 0x80
    for var, delta in ((23627, 0), (23641, 1), (23643, 1), (23649, 3), (23651, 3), (23653, 3)):
        value = start + len(line) + delta
        machine.memory[var] = value & 0xFF
        machine.memory[var + 1] = value >> 8
    text = run_command(machine, "RUN")
    assert text[0] == "77"


def test_let_and_variables_in_expressions(machine):
    run_command(machine, "LET", "a=5:", "LET", "b=a*3-1:", "LET", "a=a+1:", "PRINT", "a;",
                '" ";', "b")
    assert screen(machine)[0] == "6 14"
    run_command(machine, "PRINT", "z")
    assert report_line(machine) == "2 Variable not found, 0:1"


def test_variables_are_stored_in_the_standard_format(machine):
    run_command(machine, "LET", "a=5:", "LET", "b=-3:", "LET", "c=70000")
    start, end = word(machine, 23627), word(machine, 23641) - 1
    assert bytes(machine.memory[start:end]) == (
        b"\x61" + basic.encode_number(5) + b"\x62\x00\xff\xfd\xff\x00"
        + b"\x63" + basic.encode_number(70000))
    assert machine.memory[end] == 0x80


def test_comparisons_and_logic_give_1_or_0(machine):
    run_command(machine, "LET", "a=5:", "PRINT", "a=5;", "a<5;", "a", ">=", "5;", "a", "<>",
                "5;", "NOT", "a;", "a", "AND", "0;", "0", "OR", "a;", "2", "AND", "3;", "1+2<4")
    assert screen(machine)[0] == "10100" + "0" + "1" + "2" + "1"


def test_if_then_runs_the_rest_of_the_line_or_skips_it(machine):
    enter_program(machine,
                  ("10", "LET", "a=1"),
                  ("20", "IF", "a=1", "THEN", "PRINT", '"yes":', "PRINT", '"also"'),
                  ("30", "IF", "a=2", "THEN", "PRINT", '"no":', "PRINT", '"not either"'),
                  ("40", "PRINT", '"end"'))
    text = run_command(machine, "RUN")
    assert text[:4] == ["yes", "also", "end", ""]
    assert report_line(machine) == "0 OK, 40:1"


def test_for_next_loops_in_a_program_and_in_a_command(machine):
    enter_program(machine,
                  ("10", "FOR", "i=10", "TO", "1", "STEP", "-3:", "PRINT", "i;", '" ";:',
                   "NEXT", "i"),
                  ("20", "FOR", "j=1", "TO", "2"),
                  ("30", "PRINT", '"j";', "j;", '" ";'),
                  ("40", "NEXT", "j"))
    text = run_command(machine, "RUN")
    assert text[0] == "10 7 4 1 j1 j2"
    run_command(machine, "CLS")
    run_command(machine, "FOR", "k=1", "TO", "3:", "PRINT", "k;:", "NEXT", "k")
    assert screen(machine)[0] == "123"
    assert report_line(machine) == "0 OK, 0:3"
    run_command(machine, "NEXT", "q")
    assert report_line(machine) == "1 NEXT without FOR, 0:1"


def test_go_sub_and_return(machine):
    enter_program(machine,
                  ("10", "GO SUB", "100:", "PRINT", '"back"'),
                  ("20", "GO SUB", "100"),
                  ("30", "STOP"),
                  ("100", "PRINT", '"sub"'),
                  ("110", "RETURN"))
    text = run_command(machine, "RUN")
    assert text[:4] == ["sub", "back", "sub", ""]
    assert report_line(machine) == "9 STOP statement, 30:1"
    assert word(machine, 23613) == 0xFF54            # the GO SUB stack is empty again
    run_command(machine, "RETURN")
    assert report_line(machine) == "7 RETURN without GO SUB, 0:1"


def test_clear_removes_the_variables(machine):
    run_command(machine, "LET", "a=1:", "CLEAR")
    assert word(machine, 23627) == word(machine, 23641) - 1
    run_command(machine, "PRINT", "a")
    assert report_line(machine) == "2 Variable not found, 0:1"


def test_continue_after_stop_and_after_break(machine):
    enter_program(machine,
                  ("10", "PRINT", '"a":', "STOP", ":", "PRINT", '"b"'),
                  ("20", "PRINT", '"c"'))
    run_command(machine, "RUN")
    assert report_line(machine) == "9 STOP statement, 10:2"
    text = run_command(machine, "CONTINUE")
    assert text[:3] == ["a", "b", "c"] and report_line(machine) == "0 OK, 20:1"
