"""Reports: RST 8 and its code byte, shown as "code message, line:statement" (facts 5.1)."""

from __future__ import annotations

import pytest

from .romkit import BREAK, edit_line, press_enter, report_line, run_command, screen, type_basic

# The 48K's report codes and wording: code byte after RST 8 = report number - 1.
REPORTS = [
    ("0", "OK"), ("1", "NEXT without FOR"), ("2", "Variable not found"), ("3", "Subscript wrong"),
    ("4", "Out of memory"), ("5", "Out of screen"), ("6", "Number too big"),
    ("7", "RETURN without GO SUB"), ("8", "End of file"), ("9", "STOP statement"),
    ("A", "Invalid argument"), ("B", "Integer out of range"), ("C", "Nonsense in BASIC"),
    ("D", "BREAK - CONT repeats"), ("E", "Out of DATA"), ("F", "Invalid file name"),
    ("G", "No room for line"), ("H", "STOP in INPUT"), ("I", "FOR without NEXT"),
    ("J", "Invalid I/O device"), ("K", "Invalid colour"), ("L", "BREAK into program"),
    ("M", "RAMTOP no good"), ("N", "Statement lost"), ("O", "Invalid stream"),
    ("P", "FN without DEF"), ("Q", "Parameter error"), ("R", "Tape loading error"),
]
CODE_AT = 32768


@pytest.mark.parametrize("number", range(len(REPORTS)))
def test_each_report_from_rst_8(machine, number):
    """Machine code that does RST 8 / DB code: the report with its code and message."""
    code, message = REPORTS[number]
    machine.memory[CODE_AT:CODE_AT + 2] = bytes([0xCF, (number - 1) & 0xFF])
    run_command(machine, "RANDOMIZE", "USR", str(CODE_AT))
    assert report_line(machine) == f"{code} {message}, 0:1"
    assert machine.memory[23610] == (number - 1) & 0xFF        # ERR_NR
    assert screen(machine)[23] == "K" and edit_line(machine) == b""


def test_report_shows_the_line_and_statement(machine):
    type_basic(machine, "30", "PRINT", "1:", "PRINT", "2:", "POKE", "-1,0")
    press_enter(machine)
    run_command(machine, "RUN")
    assert report_line(machine) == "B Integer out of range, 30:3"


@pytest.mark.parametrize(("parts", "expected"), [
    (("PRINT", "1/0"), "6 Number too big"),
    (("PRINT", "AT", "22,0;1"), "5 Out of screen"),
    (("PRINT", "AT", "0,32;1"), "5 Out of screen"),
    (("BORDER", "9"), "K Invalid colour"),
    (("PRINT", "INK", "10;1"), "K Invalid colour"),
    (("POKE", "70000,1"), "B Integer out of range"),
    (("CLEAR", "100"), "M RAMTOP no good"),
    (("SAVE", '""'), "F Invalid file name"),
    (("SAVE", '"elevenchars"'), "F Invalid file name"),
    (("STOP",), "9 STOP statement"),
    (("GO TO", "100"), "0 OK"),
])
def test_reports_from_statements(machine, parts, expected):
    run_command(machine, *parts)
    assert report_line(machine) == f"{expected}, 0:1"


def test_break_during_load_is_report_d(machine):
    type_basic(machine, "LOAD", '""')
    machine.tap("ENTER", hold=2, gap=10)
    machine.keyboard.press(BREAK)
    machine.run_frames(3)
    machine.keyboard.release_all()
    machine.run_frames(3)
    assert report_line(machine) == "D BREAK - CONT repeats, 0:1"


def test_the_next_key_clears_a_report(machine):
    run_command(machine, "STOP")
    assert report_line(machine).startswith("9 STOP")
    machine.tap("P")
    assert screen(machine)[22:] == ["", "PRINT L"]
