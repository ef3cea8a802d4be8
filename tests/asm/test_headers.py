"""tools/asm_headers.py: every routine's header (Input, Output, Corrupts) against its code."""

from __future__ import annotations

import pytest

from tests import load_tool
from tests.asm.util import program


@pytest.fixture(scope="module")
def headers():
    """tools/asm_headers.py as a module."""
    return load_tool("asm_headers")


def changes(headers, text: str, name: str = "sub1") -> tuple[str, bool]:
    """What the routine ``name`` of a small program changes, as a header writes it."""
    prog = program(text)
    analyser = headers.Analyser(prog)
    entries = [s.value for n, s in prog.symbols.items() if "." not in n]
    summary = analyser.solve(entries)[prog.symbols[name].value]
    return headers.shown(summary.changed), summary.returns


@pytest.mark.parametrize(("body", "expected"), [
    ("ld a, 1\n ret", "A"),
    ("push bc\n ld bc, 0\n pop bc\n ret", "nothing"),
    ("push de\n pop hl\n ret", "HL"),
    ("ex de, hl\n ex de, hl\n ret", "nothing"),
    ("ex de, hl\n ret", "DE, HL"),
    ("ld b, a\n ld a, 7\n ld a, b\n ret", "B"),
    ("exx\n ld b, 1\n exx\n ret", "B'"),
    ("inc hl\n dec hl\n ret", "nothing"),
    ("inc hl\n ret", "HL"),
    ("djnz sub1\n ret", "B"),
    ("cp 1\n ret z\n ld c, 2\n ret", "F, C"),
    ("ldir\n ret", "F, BC, DE, HL"),
    ("call sub2\n ret\nsub2: ld ix, 0\n ret", "IX"),
    ("ld a, (ix+1)\n ld (iy+2), a\n ret", "A"),
    ("ex af, af'\n ret", "AF, AF'"),
    ("or a\n ret", "F"),
    ("and a\n ret", "F"),
    ("or b\n ret", "AF"),
    ("and 7\n ret", "AF"),
])
def test_the_analysis_finds_what_a_routine_changes(headers, body: str, expected: str) -> None:
    assert changes(headers, f"sub1: {body}\n")[0] == expected


def test_a_recursive_routine_settles(headers) -> None:
    # sub1 calls itself while A is not 0: what it changes is what one call changes.
    text = "sub1: or a\n ret z\n dec a\n ld hl, 0\n call sub1\n ld d, 1\n ret\n"
    assert changes(headers, text) == ("AF, D, HL", True)


def test_a_routine_that_never_returns_is_seen(headers) -> None:
    assert changes(headers, "sub1: jr sub1\n") == ("nothing", False)


def test_a_jump_through_hl_is_not_guessed(headers) -> None:
    prog = program("sub1: jp (hl)\n")
    summary = headers.Analyser(prog).solve([prog.symbols["sub1"].value])[prog.symbols["sub1"].value]
    assert summary.odd and not summary.returns


@pytest.mark.parametrize(("text", "regs"), [
    ("AF, BC", {"A", "F", "B", "C"}),
    ("F, DE (HL kept)", {"F", "D", "E"}),
    ("AF, BC', DE' (the main BC, DE, HL and HL' are kept)", {"A", "F", "B'", "C'", "D'", "E'"}),
    ("all but IX", {"A", "F", "B", "C", "D", "E", "H", "L", "IYH", "IYL"}),
    ("nothing", set()),
    ("AF, BC.  Report B if y is above 175.", {"A", "F", "B", "C"}),
])
def test_a_corrupts_line_is_read(headers, text: str, regs: set[str]) -> None:
    assert headers.registers(text) == frozenset(regs)


def test_an_output_names_its_flags(headers) -> None:
    assert headers.registers("carry set if so; HL = the line", flags=True) == \
        frozenset({"F", "H", "L"})


def header_problems(headers, lines: list[str], changed: set[str]) -> list[str]:
    """problems() of a routine ``f`` with these header lines and this analysis."""
    routine = headers.Routine("f", 0, "x.asm", 1, lines)
    return headers.problems(routine, headers.Summary(frozenset(changed), returns=True))


def test_a_header_that_misses_a_register_is_found(headers) -> None:
    lines = ["f - a routine", "Input:   A", "Output:  HL = it", "Corrupts: F"]
    assert header_problems(headers, lines, {"F", "H", "L"}) == []
    assert header_problems(headers, lines, {"F", "H", "L", "B"}) == \
        ["changes B (not in Corrupts or Output)"]


def test_a_header_that_names_a_register_kept_is_found(headers) -> None:
    lines = ["f - a routine", "Input:   A", "Output:  done", "Corrupts: AF, BC"]
    assert header_problems(headers, lines, {"A", "F", "B"}) == \
        ["Corrupts names C, which it keeps"]


def test_a_header_needs_its_name_and_three_parts(headers) -> None:
    assert header_problems(headers, ["g - not f"], set()) == [
        "the header does not start with its name ('g - not f')",
        "no Input: line", "no Output: line", "no Corrupts: line"]


def test_every_routine_of_the_rom_has_a_true_header(headers, capsys) -> None:
    assert headers.main(["--check", "--target", "rom"]) == 0, capsys.readouterr().out


def test_every_routine_of_the_game_has_a_true_header(headers, capsys) -> None:
    assert headers.main(["--check", "--target", "game"]) == 0, capsys.readouterr().out
