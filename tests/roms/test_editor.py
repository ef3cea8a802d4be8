"""The line editor: K/L/C/E/G modes, keyword keys, symbols, DELETE and cursor keys, EDIT, and
lines stored in the program in the standard tokenised format."""

from __future__ import annotations

import pytest

from zxmonopoly import basic
from zxmonopoly.basic import K_MODE_KEYWORDS
from zxmonopoly.spectrum import keystrokes as ks

from .romkit import (
    EXTEND,
    SS,
    edit_line,
    press_enter,
    program,
    run_command,
    screen,
    type_basic,
)

DELETE = "CAPS SHIFT+0"
LEFT, RIGHT = "CAPS SHIFT+5", "CAPS SHIFT+8"
CAPS_LOCK, GRAPHICS, EDIT = "CAPS SHIFT+2", "CAPS SHIFT+9", "CAPS SHIFT+1"


@pytest.mark.parametrize("letter", sorted(K_MODE_KEYWORDS))
def test_k_mode_letter_enters_its_keyword(machine, letter):
    """§3.5: in K mode each letter is a keyword, token = letter + 0xA5."""
    machine.tap(letter)
    word = K_MODE_KEYWORDS[letter]
    assert edit_line(machine) == bytes([ord(letter) + 0xA5])
    assert basic.TOKENS[ord(letter) + 0xA5 - basic.FIRST_TOKEN] == word
    assert screen(machine)[23] == word + " L"     # the keyword, its space, the L cursor
    machine.tap(DELETE)
    assert edit_line(machine) == b"" and screen(machine)[23] == "K"


def test_keyword_with_caps_shift_is_still_a_keyword(machine):
    machine.tap("CAPS SHIFT+R")
    assert edit_line(machine) == bytes([0xF7])  # RUN


def test_symbol_shift_p_is_a_quote_and_symbols_in_l_mode(machine):
    machine.type_keys(["P"] + [f"{SS}+{key}" for key in ("P", "1", "2", "K", "J", "L", "M", "N",
                                                         "O", "Z", "X", "H")])
    assert edit_line(machine) == bytes([0xF5]) + b'"!@+-=.,;:' + bytes([0x60, 0x5E])
    assert screen(machine)[23] == 'PRINT "!@+-=.,;:£↑L'


def test_symbol_shift_keywords_in_l_mode(machine):
    machine.tap("P")
    for key in ("A", "I", "E", "Q", "W", "Y", "U", "S", "G", "F", "D"):
        machine.tap(f"{SS}+{key}")
    assert edit_line(machine) == bytes([0xF5, 0xE2, 0xAC, 0xC8, 0xC7, 0xC9, 0xC6, 0xC5, 0xC3,
                                        0xCB, 0xCC, 0xCD])


def test_letters_are_lower_case_in_l_mode_capitals_with_caps_shift_or_caps_lock(machine):
    machine.tap("P")
    machine.type_text("aB")
    assert screen(machine)[23].endswith("aBL")
    machine.tap(CAPS_LOCK)
    assert screen(machine)[23].endswith("aBC")
    machine.tap("C")
    machine.tap(CAPS_LOCK)
    assert edit_line(machine) == bytes([0xF5]) + b"aBC"
    assert screen(machine)[23].endswith("aBCL")


def test_e_mode_gives_functions_and_shifted_keywords(machine):
    machine.tap("P")
    machine.tap(EXTEND)
    assert screen(machine)[23].endswith("E")
    machine.tap("O")                  # PEEK
    machine.tap(EXTEND)
    machine.tap("L")                  # USR
    machine.tap(EXTEND)
    machine.tap(f"{SS}+X")            # INK
    machine.tap(EXTEND)
    machine.tap(f"{SS}+3")            # LINE
    assert edit_line(machine) == bytes([0xF5, 0xBE, 0xC0, 0xD9, 0xCA])
    assert screen(machine)[23].endswith("L")  # E mode lasted one key


def test_extend_twice_leaves_e_mode(machine):
    machine.type_keys(["P", EXTEND, EXTEND, "O"])
    assert edit_line(machine) == bytes([0xF5]) + b"o"


def test_g_mode_block_graphics_and_udgs(machine):
    machine.tap("P")
    machine.tap(GRAPHICS)
    assert screen(machine)[23].endswith("G")
    machine.type_keys(["3", "CAPS SHIFT+3", "8", "A", "U", GRAPHICS])
    assert edit_line(machine) == bytes([0xF5, 0x83, 0x8C, 0x80, 0x90, 0xA4])
    assert screen(machine)[23].endswith("L")


def test_delete_and_cursor_keys(machine):
    machine.tap("P")
    machine.type_text("abc")
    machine.type_keys([LEFT, LEFT, DELETE])  # deletes "a"
    machine.type_text("x")
    assert edit_line(machine) == bytes([0xF5]) + b"xbc"
    assert screen(machine)[23] == "PRINT xLbc"
    machine.type_keys([RIGHT, RIGHT, RIGHT, DELETE])  # (not past the end)
    assert edit_line(machine) == bytes([0xF5]) + b"xb"
    machine.type_keys([DELETE] * 4)
    assert edit_line(machine) == b""


def test_k_mode_comes_back_after_a_colon_and_a_line_number(machine):
    type_basic(machine, "10")
    assert screen(machine)[23] == "10K"
    type_basic(machine, " ", "PRINT", "1:")
    assert screen(machine)[23] == "10 PRINT 1:K"
    machine.type_text('"a:')
    assert screen(machine)[23].endswith(':L')  # inside a string: no keyword


def test_typing_load_quote_quote_shows_it_and_enter_calls_ld_bytes(machine, rom):
    """J, SYMBOL SHIFT + P twice, ENTER: LD-BYTES for a header (IX, DE = 17, A = 0, LOAD)."""
    machine.type_keys(["J", f"{SS}+P", f"{SS}+P"])
    assert screen(machine)[23] == 'LOAD ""L'
    assert edit_line(machine) == bytes([0xEF, 0x22, 0x22])
    machine.keyboard.press("ENTER")
    assert machine.run_until(pc=0x0556, max_frames=20)
    cpu = machine.cpu
    assert cpu.de == 17 and cpu.a == 0 and cpu.f & 1
    assert cpu.ix == rom["v_header"]
    machine.keyboard.release_all()


def test_a_numbered_line_is_stored_in_the_standard_format(machine):
    type_basic(machine, "10", "CLEAR", "32767:", "LOAD", '""', "CODE", ":", "RANDOMIZE", "USR",
               "32768")
    press_enter(machine)
    expected = basic.tokenise('10 CLEAR 32767: LOAD ""CODE : RANDOMIZE USR 32768')
    assert program(machine) == expected
    assert machine.memory[23625] == 10           # E_PPC
    assert screen(machine)[23] == "K"            # no report: back to editing


def test_big_numbers_get_the_floating_hidden_form(machine):
    type_basic(machine, "5", "PRINT", "70000+1")
    press_enter(machine)
    assert program(machine) == basic.tokenise("5 PRINT 70000+1")


def test_lines_are_kept_in_order_replaced_and_deleted(machine):
    for number, text in ((30, '"c"'), (10, '"a"'), (20, '"b"')):
        type_basic(machine, str(number), "PRINT", text)
        press_enter(machine)
    assert basic.detokenise(program(machine)) == '10 PRINT "a"\n20 PRINT "b"\n30 PRINT "c"'
    type_basic(machine, "20", "PRINT", '"B"')
    press_enter(machine)
    type_basic(machine, "30")
    press_enter(machine)
    assert basic.detokenise(program(machine)) == '10 PRINT "a"\n20 PRINT "B"'
    vars_ = machine.memory[23627] | machine.memory[23628] << 8
    assert machine.memory[vars_] == 0x80


def test_line_number_out_of_range_is_nonsense(machine):
    run_command(machine, "10000", "PRINT", "1")
    assert screen(machine)[22] == "C Nonsense in BASIC, 0:1"
    assert program(machine) == b""


def test_edit_brings_the_last_line_down(machine):
    type_basic(machine, "10", "PRINT", "12")
    press_enter(machine)
    machine.tap(EDIT)
    machine.run_frames(5)
    assert edit_line(machine) == b"10" + bytes([0xF5]) + b"12"
    assert screen(machine)[23] == "10 PRINT 12L"
    machine.type_text("3")
    press_enter(machine)
    assert program(machine) == basic.tokenise("10 PRINT 123")


def test_a_long_line_grows_the_lower_screen_and_shrinks_back(machine):
    type_basic(machine, "PRINT", '"' + "x" * 70 + '"')
    assert machine.memory[23659] == 3            # DF_SZ: 3 rows
    text = screen(machine)
    assert text[21] == 'PRINT "' + "x" * 25 and text[23] == "x" * 13 + '"L'
    machine.type_keys([DELETE] * 50, hold=2, gap=2)
    assert machine.memory[23659] == 2
    assert screen(machine)[23] == 'PRINT "' + "x" * 21 + "L"
    assert screen(machine)[21] == ""


def test_enter_on_an_empty_line_does_nothing(machine):
    press_enter(machine)
    assert screen(machine)[22:] == ["© 2026 zxmonopoly ROM", "K"] or screen(machine)[23] == "K"


@pytest.mark.parametrize("up_frames, typed", [(3, b"1"), (4, b"11")])
def test_the_same_key_counts_again_only_after_five_interrupts_up(machine, up_frames, typed):
    """As the 48K's KSTATE: a key up for 4 interrupts still owns its set (the press is the
    same keystroke, dropped); at the 5th the set is freed and the press is new."""
    machine.tap("P")
    machine.run_frames(10)
    machine.tap("1", hold=3, gap=up_frames)
    machine.tap("1", hold=3, gap=10)
    assert edit_line(machine) == bytes([0xF5]) + typed
    model = ks.KstateModel()
    assert len(model.run([ks.Press(("1",), 3, up_frames), ks.Press(("1",), 3, 10)])) == len(typed)


def test_a_third_key_is_ignored_while_two_own_the_sets(machine):
    machine.tap("P")
    machine.run_frames(10)
    for key in "123":
        machine.tap(key, hold=2, gap=0)
    machine.run_frames(10)
    assert edit_line(machine) == bytes([0xF5]) + b"12"


def test_typed_text_with_doubled_characters_arrives_whole(machine):
    machine.type_text('p11;"aa""b"\n')  # K mode: p is PRINT; "" in a string is a quote
    machine.run_frames(20)
    assert screen(machine)[0] == '11aa"b'
