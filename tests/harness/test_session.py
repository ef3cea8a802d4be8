"""Tests of zxmonopoly.harness.session: screen decoding, keys, waits, reading."""

from __future__ import annotations

import pytest

from tests import core_present

pytestmark = pytest.mark.skipif(not core_present(), reason="the Z80 core is not there yet")


@pytest.fixture(scope="module")
def booted():
    """One booted session on our ROM (python engine)."""
    from zxmonopoly.harness import Session

    return Session(engine="python")


def _session():
    from zxmonopoly.harness import Session

    return Session(engine="python")


def _draw(session, row: int, col: int, glyph: bytes, inverse: bool = False) -> None:
    """Write an 8-byte glyph straight into a screen cell."""
    from zxmonopoly.spectrum.video import row_address

    for y in range(8):
        byte = glyph[y] ^ (0xFF if inverse else 0)
        session.machine.memory[row_address(8 * row + y) + col] = byte


@pytest.mark.parametrize("inverse", [False, True])
def test_every_glyph_of_the_rom_font_decodes(inverse: bool) -> None:
    """All 96 glyphs written to the screen (plain and inverted) read back as their characters."""
    from zxmonopoly.spectrum.video import SPECTRUM_CHARACTERS

    session = _session()
    charset = session.charset()
    for code in range(96):
        row, col = divmod(code, 32)
        _draw(session, row, col, charset[8 * code:8 * code + 8], inverse)
    lines = session.lines()
    expected = SPECTRUM_CHARACTERS
    assert "".join(lines[:3]) == expected
    for code in range(96):
        assert session.row(code // 32)[code % 32] == expected[code]


def test_unknown_cell_reads_as_question_mark() -> None:
    """A pattern that is no glyph reads '?'."""
    session = _session()
    _draw(session, 5, 7, bytes([0x81, 0x42, 0x24, 0x18, 0x18, 0x24, 0x42, 0x99]))
    assert session.row(5)[7] == "?"


def test_font_from_a_symbol_reads_a_game_font() -> None:
    """With font= an address, the screen is read with the glyphs there, not CHARS+256."""
    from zxmonopoly.harness import Session

    session = Session(engine="python", font=0x9000)
    rom_font = session.machine.memory[0x3D00:0x4000]
    shifted = bytes(rom_font[8:]) + bytes(rom_font[:8])  # glyph of 'A' now stands for '@'
    session.machine.memory[0x9000:0x9000 + 768] = shifted
    _draw(session, 0, 0, bytes(rom_font[8 * 33:8 * 34]))  # the ROM's 'A'
    assert session.row(0)[0] == "@"


def test_key_combinations_reach_the_matrix(booted) -> None:
    """press/release with '+' combinations set and clear the right matrix bits."""
    kb = booted.machine.keyboard
    booted.press("CAPS SHIFT+SPACE")
    assert kb.is_pressed("CAPS SHIFT") and kb.is_pressed("SPACE")
    assert kb.rows[0] == 0xFE and kb.rows[7] == 0xFE
    booted.press("symbol shift+p")
    assert sorted(kb.pressed()) == ["CAPS SHIFT", "P", "SPACE", "SYMBOL SHIFT"]
    booted.release("CAPS SHIFT+SPACE")
    assert sorted(kb.pressed()) == ["P", "SYMBOL SHIFT"]
    booted.release()
    assert kb.pressed() == []


def test_type_keyword_and_wait_text() -> None:
    """PRINT entered as a keyword, text typed with shifts, the result read off row 0."""
    session = _session()
    session.keyword("PRINT")
    session.type('"Hi!"\n')
    session.wait_text("0 OK", 100)
    assert session.row(0).rstrip() == "Hi!"
    assert session.find("Hi!") == (0, 0)
    assert session.attributes(0, 0) == (0, 7, False, False)


def test_wait_text_failure_shows_what_and_screen(booted) -> None:
    """A wait that times out says what it waited for, the budget, and shows the screen."""
    from zxmonopoly.harness import HarnessError

    with pytest.raises(HarnessError) as info:
        booted.wait_text("Mayfair", 5)
    message = str(info.value)
    assert "'Mayfair'" in message and "5 frames" in message
    assert "zxmonopoly ROM" in message and " 23 |" in message


def test_wait_pc_by_symbol_and_failure(booted) -> None:
    """wait_pc reaches a ROM routine by name; an address never run fails with its name."""
    from zxmonopoly.harness import HarnessError

    symbols = booted.symbols
    name = next(n for n in ("ENTRY_MASK_INT", "ENTRY_KEYBOARD") if n in symbols)
    booted.wait_pc(name, 5)
    assert booted.machine.cpu.pc == symbols[name]
    with pytest.raises(HarnessError, match="PC = 0x8000"):
        booted.wait_pc(0x8000, 3)


def test_wait_until_and_peek_poke(booted) -> None:
    """wait_until on a RAM condition; peek16 of FRAMES counts frames; poke refuses the ROM."""
    from zxmonopoly.harness import HarnessError

    before = booted.peek16("FRAMES")
    taken = booted.wait_until(lambda s: s.peek16("FRAMES") >= before + 10, 50)
    assert taken == 10
    booted.poke(0x8000, 0x1234)
    assert booted.peek(0x8000) == 0x34
    with pytest.raises(HarnessError, match="ROM"):
        booted.poke(0x100, 1)
    with pytest.raises(HarnessError, match="never"):
        booted.wait_until(lambda s: False, 2, "never")
    with pytest.raises(KeyError, match="NO_SUCH"):
        booted.peek("NO_SUCH")


def test_reset_snapshot_and_screenshot(tmp_path) -> None:
    """A snapshot taken mid-session starts a new session where it was; reset boots again."""
    from zxmonopoly.harness import Session

    session = _session()
    session.keyword("PRINT")
    session.type("7*6\n")
    session.wait_text("0 OK", 100)
    snap = tmp_path / "s.z80"
    session.save_snapshot(snap)
    session.screenshot(tmp_path / "s.png")
    assert (tmp_path / "s.png").read_bytes().startswith(b"\x89PNG")
    again = Session.from_snapshot(snap, engine="python")
    assert again.row(0).rstrip() == "42"
    session.reset()
    assert session.find("42") is None and session.find("zxmonopoly ROM")


def test_type_and_keyword_give_every_key_doubled_ones_included():
    """The same key twice in a row (1 1, then " ") needs it up 5 interrupts between: Session.type
    leaves it so (keystrokes.plan), on our ROM as on the 48K."""
    session = _session()
    session.keyword("PRINT")
    session.type('11;"aa"\n')
    session.wait_text("11aa", budget=50)
    assert session.row(0).rstrip() == "11aa"
