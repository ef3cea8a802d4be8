"""The harness's words (harness/words.py): the one reader of numbers, players, squares and
comparisons for scripts, watches and positions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zxmonopoly import images
from zxmonopoly.harness import words
from zxmonopoly.harness.errors import HarnessError
from zxmonopoly.harness.session import Symbols
from zxmonopoly.harness.words import WordError


@pytest.mark.parametrize("word, value", [("0", 0), ("1300", 1300), ("0x5C3A", 0x5C3A),
                                         ("0X5c3a", 0x5C3A), ("$ff", 255), ("007", 7)])
def test_numbers_in_the_forms_the_docs_allow(word: str, value: int) -> None:
    assert words.is_number(word) and words.number(word) == value


@pytest.mark.parametrize("word", ["²", "٣", "१२", "𝟘", "Ⅻ", "½", "0x٣", "$²", "1²", "", "0x",
                                  "$", "-1", "+1", "1e3", "1_000", " 1", "1\n", "£1"])
def test_anything_else_is_not_a_number(word: str) -> None:
    """Unicode digits are digits to str.isdigit() and int(), not here; nor are signs, spaces
    or a pound sign (except where an amount is read)."""
    assert not words.is_number(word)
    with pytest.raises(WordError, match="expected a number"):
        words.number(word)


def test_a_pound_sign_leads_an_amount_only() -> None:
    assert words.number("£1300", pounds=True) == 1300
    with pytest.raises(WordError):
        words.number("££1300", pounds=True)


def test_numbers_are_12_characters_at_most() -> None:
    assert words.number("9" * 12) == 999_999_999_999
    with pytest.raises(WordError, match="a number of 13 characters"):
        words.number("9" * 13)


@given(st.text(max_size=6))
def test_number_gives_a_value_or_word_error(word: str) -> None:
    try:
        value = words.number(word)
    except WordError:
        return
    assert word.isascii() and value >= 0


def test_frames_and_addresses_are_bounded() -> None:
    assert words.frames("1000000") == words.MAX_FRAMES
    with pytest.raises(WordError, match="more than a step may run"):
        words.frames("1000001")
    assert words.address("$FFFF") == 0xFFFF and words.address("v_houses_left") == "v_houses_left"
    with pytest.raises(WordError, match="beyond 0xFFFF"):
        words.address("0x10000")
    with pytest.raises(WordError, match="expected an address or symbol name"):
        words.address("v²")


def test_players_are_the_games() -> None:
    """1 to the game's own MAX_PLAYERS (six pieces), read from its symbol map."""
    assert Symbols.load(images.game_symbols_path())["MAX_PLAYERS"] == words.max_players() == 6
    assert [words.player(str(n)) for n in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert words.player("0x6") == 6
    for bad in ("0", "7", "²", "one"):
        with pytest.raises(WordError, match="the player number is 1-6"):
            words.player(bad)


def test_one_table_of_comparisons() -> None:
    """= and == are one comparison; everything else is refused, naming the table."""
    assert words.COMPARISONS["="](3, 3) and words.COMPARISONS["=="](3, 3)
    assert words.COMPARISONS["<="](2, 3) and not words.COMPARISONS[">"](2, 3)
    with pytest.raises(WordError, match=r"expected a comparison \(= == != < <= > >=\)"):
        words.comparison("≤")


@pytest.mark.parametrize("which, index", [(39, 39), ("39", 39), ("0x27", 39), ("Mayfair", 39),
                                          ("old kent rd.", 1), ("Kings Cross", 5)])
def test_squares(which, index) -> None:
    assert words.square(which) == index


@pytest.mark.parametrize("which, message", [("²", "no square '²' on the board"),
                                            (40, "square 40 is not on the board"),
                                            ("Chance", "is ambiguous"),
                                            ("Mayfiar", "did you mean Mayfair?")])
def test_bad_squares(which, message) -> None:
    """A square that does not read is a WordError, which is a HarnessError to the Python API
    (GameState.square, Position.own) and a ValueError."""
    with pytest.raises(WordError, match=message) as info:
        words.square(which)
    assert isinstance(info.value, HarnessError) and isinstance(info.value, ValueError)


@given(st.text(max_size=20))
def test_quote_and_unquote_are_inverse(text: str) -> None:
    import re

    quoted = words.quote(text)
    m = re.fullmatch(words.QUOTED, quoted, re.DOTALL)
    assert m is not None and words.unquote(m.group(1)) == text
