"""The game's text (issue 28, item 3): the title centred, the £ never split from its amount,
every message's sentences ended."""

from __future__ import annotations

import pytest

from zxmonopoly.harness.session import Session

COLUMNS = 32


@pytest.fixture(scope="module")
def title() -> Session:
    session = Session.game()
    session.wait_input()
    return session


def test_every_title_line_is_centred(title: Session) -> None:
    lines = [(n, line) for n, line in enumerate(title.lines()) if line.strip()]
    assert len(lines) >= 9
    for n, line in lines:
        text = line.rstrip()
        left = len(text) - len(text.lstrip())
        right = COLUMNS - len(text)
        assert abs(left - right) <= 1, f"row {n} is off-centre ({left} | {right}): {line!r}"


# -- the wrapper ---------------------------------------------------------------------------

#: Where the test puts its strings: the printer buffer, after the rig's return trap.
TEXT_AT = 0x5B10


def reference_wrap(text: str, width: int = COLUMNS) -> list[str]:
    """Greedy word wrap as a reader expects it: words (runs between spaces) never split unless
    longer than a line, one space between words dropped at a break."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = word if not line else line + " " + word
        if len(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while len(word) > width:
            lines.append(word[:width])
            word = word[width:]
        line = word
    lines.append(line)
    return lines


def show(rig, pieces: list[str | int]) -> list[str]:
    """Print pieces on cleared message lines (a str through msg_print, an int through
    msg_money) and return the three lines."""
    rig.call("msg_clear")
    for piece in pieces:
        if isinstance(piece, int):
            rig.call("msg_money", hl=piece)
            continue
        data = piece.replace("£", "`").encode("ascii") + b"\0"  # the font's £ is at 60h
        for i, byte in enumerate(data):
            rig.poke(TEXT_AT + i, byte)
        rig.call("msg_print", hl=TEXT_AT)
    return rig.message_rows()


@pytest.mark.parametrize("amount", [5, 1500, 20000])
def test_an_amount_and_its_stop_stay_with_the_pound_sign(machine, amount: int) -> None:
    """'£' and its digits and the stop after them are one word at every column (the issue's
    "total £" / "1500. Press a key")."""
    for lead in range(1, 34):
        pieces: list[str | int] = ["x" * lead + " Cash ", amount, ", total ", amount,
                                   ". Press a key"]
        text = "".join(p if isinstance(p, str) else f"£{p}" for p in pieces)
        rows = show(machine, pieces)
        expected = reference_wrap(text)[-3:]
        assert [r for r in rows if r] == expected, (lead, rows)
        for row in rows:
            assert not row.endswith("£") and not row.startswith("."), (lead, rows)


def test_a_word_printed_in_pieces_is_carried_whole(machine) -> None:
    """A square's name and its full stop, a name and its colon: the stop goes with the word."""
    for lead in range(1, 33):
        pieces: list[str | int] = ["y" * lead, " buys ", "Vine Street", ".", " Throw again."]
        rows = show(machine, pieces)
        assert [r for r in rows if r] == reference_wrap("".join(map(str, pieces))), (lead, rows)
