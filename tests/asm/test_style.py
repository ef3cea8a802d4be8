"""tools/asm_style.py: the ROM and the game in one house style (docs/assembler.md)."""

from __future__ import annotations

import pytest

from tests import REPO_ROOT, load_tool


@pytest.fixture(scope="module")
def style():
    """tools/asm_style.py as a module."""
    return load_tool("asm_style")


def test_the_rom_and_the_game_are_in_house_style(style, capsys) -> None:
    status = style.main(["--check"])
    assert status == 0, capsys.readouterr().out


def test_both_trees_are_checked(style) -> None:
    names = {p.relative_to(REPO_ROOT).as_posix() for p in style.sources([])}
    assert "roms/basic.asm" in names and "src/game/board.asm" in names
    assert "roms/colours.asm" in names


@pytest.mark.parametrize(("before", "after"), [
    ("        ld a,1", "        ld a, 1"),
    ("        ex af,af'", "        ex af, af'"),
    ("        ds ENTRY_CLS-$, TRAP_FILL", "        ds ENTRY_CLS - $, TRAP_FILL"),
    ("        ld de,(v_header+HDR_LENGTH)", "        ld de, (v_header + HDR_LENGTH)"),
    ("        ld a, (ix + P_CASH + 1)", "        ld a, (ix+P_CASH+1)"),
    ("        ld (iy - 1),a", "        ld (iy-1), a"),
    ("        ld a, -1", "        ld a, -1"),
    ("        cp \"9\"+1", "        cp \"9\" + 1"),
    ("        db \"a,b\",0", "        db \"a,b\", 0"),
    ("        ld a, x%10", "        ld a, x%10"),
    (".next:  ld a,(hl)", ".next:  ld a, (hl)"),
    ("SIZE    equ A*2+1", "SIZE    equ A * 2 + 1"),
    ("        ld a, 1", "        ld a, 1"),
])
def test_a_line_is_restyled(style, before: str, after: str) -> None:
    assert style.restyle(before) == after
    assert style.same_tokens(before, after)


def test_a_comment_keeps_its_column_and_its_continuation_follows(style) -> None:
    before = ("        ld hl,v_header+HDR_NAME+NAME_SIZE ; the name's end\n"
              + " " * 42 + "; (a continuation)\n"
              "        ld a,b                      ; A = b\n")
    after = ("        ld hl, v_header + HDR_NAME + NAME_SIZE  ; the name's end\n"
             + " " * 48 + "; (a continuation)\n"
             "        ld a, b                     ; A = b\n")
    assert style.restyle(before) == after


def test_a_rewrite_that_would_change_tokens_is_refused(style) -> None:
    # After a blank, % starts a binary number: "x %10" is x followed by 2, not x MOD 10.
    assert not style.same_tokens("        ld a, x%10", "        ld a, x %10")


def test_a_branch_without_its_question_is_found(style) -> None:
    text = ("        jr z, .x\n"
            "        jr z, .y                ; Is it the last?\n"
            "        jp .z\n"
            ".a:     ret nc\n"
            "        call c, sub             ;\n"
            "        ret z                   ; the last: done\n"
            "        ld a, c                 ; (C, not a condition)\n")
    assert style.unasked(text) == [1, 4, 5, 6]


def test_every_game_branch_asks_its_question(style) -> None:
    """Issue 44: a question at every conditional branch of every game file (not five)."""
    games = [p for p in style.sources([]) if p.parent.name == style.QUESTIONED_TREE]
    assert len(games) > 30
    unasked = {p.name: style.unasked(p.read_text(encoding="utf-8")) for p in games}
    assert {name: lines for name, lines in unasked.items() if lines} == {}
