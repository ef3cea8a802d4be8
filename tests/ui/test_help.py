"""The F1 picture marks every key of the game's player menu (issue 28, item 7)."""

from __future__ import annotations

import re
from pathlib import Path

from zxmonopoly.harness.rig import game_symbols
from zxmonopoly.ui.help import FUNCTION_HELP, GAME_KEYS

TURN_ASM = Path(__file__).resolve().parents[2] / "src" / "game" / "turn.asm"


def player_menu_keys() -> set[str]:
    """The letters the player menu answers (turn.asm's ``cp`` chain after ``.got``)."""
    text = TURN_ASM.read_text()
    chain = text[text.index(".got:   call to_upper"):text.index(".retire:")]
    symbols = game_symbols()
    keys = set()
    for operand in re.findall(r"^\s+cp\s+(\S+)", chain, re.M):
        value = ord(operand[1]) if operand.startswith("'") else symbols[operand]
        if chr(value).isalpha():
            keys.add(chr(value))
    return keys


def test_every_menu_letter_is_marked_and_told() -> None:
    keys = player_menu_keys()
    assert {"D", "R", "C", "A", "O", "M", "H", "T", "F", "B", "X"} <= keys
    assert keys <= set(GAME_KEYS), f"not on the F1 picture: {sorted(keys - set(GAME_KEYS))}"
    told = " ".join(FUNCTION_HELP)
    for key in keys:
        assert re.search(rf"\b{key}\b", told), f"F1's text does not name {key}"
