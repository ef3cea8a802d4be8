"""The key matrix, typing text and the Kempston joystick (zxmonopoly.spectrum.keyboard)."""

from __future__ import annotations

import numpy as np
import pytest

from zxmonopoly.spectrum import keyboard as kb
from zxmonopoly.spectrum.keyboard import Joystick, Keyboard, KeyboardError, resolve

# spectrum_facts.md §3.1, written out key by key: (key, port high byte of its half-row, bit).
MATRIX = [
    ("CAPS SHIFT", 0xFE, 0), ("Z", 0xFE, 1), ("X", 0xFE, 2), ("C", 0xFE, 3), ("V", 0xFE, 4),
    ("A", 0xFD, 0), ("S", 0xFD, 1), ("D", 0xFD, 2), ("F", 0xFD, 3), ("G", 0xFD, 4),
    ("Q", 0xFB, 0), ("W", 0xFB, 1), ("E", 0xFB, 2), ("R", 0xFB, 3), ("T", 0xFB, 4),
    ("1", 0xF7, 0), ("2", 0xF7, 1), ("3", 0xF7, 2), ("4", 0xF7, 3), ("5", 0xF7, 4),
    ("0", 0xEF, 0), ("9", 0xEF, 1), ("8", 0xEF, 2), ("7", 0xEF, 3), ("6", 0xEF, 4),
    ("P", 0xDF, 0), ("O", 0xDF, 1), ("I", 0xDF, 2), ("U", 0xDF, 3), ("Y", 0xDF, 4),
    ("ENTER", 0xBF, 0), ("L", 0xBF, 1), ("K", 0xBF, 2), ("J", 0xBF, 3), ("H", 0xBF, 4),
    ("SPACE", 0x7F, 0), ("SYMBOL SHIFT", 0x7F, 1), ("M", 0x7F, 2), ("N", 0x7F, 3),
    ("B", 0x7F, 4),
]
SINGLE_ROW_PORTS = (0xFE, 0xFD, 0xFB, 0xF7, 0xEF, 0xDF, 0xBF, 0x7F)


def test_the_table_has_the_40_keys_of_the_facts() -> None:
    assert len(kb.KEYS) == 40
    assert set(kb.KEYS) == {key for key, _, _ in MATRIX}
    assert kb.HALF_ROW_PORTS == SINGLE_ROW_PORTS


@pytest.mark.parametrize(("key", "port", "bit"), MATRIX)
def test_each_key_reads_on_its_port_and_bit(key: str, port: int, bit: int) -> None:
    keys = Keyboard()
    keys.press(key)
    assert keys.is_pressed(key) and keys.pressed() == [key]
    for row, other in enumerate(SINGLE_ROW_PORTS):  # the machine's IN reads these rows
        expected = 0xFF ^ (1 << bit) if other == port else 0xFF
        assert keys.rows[row] == expected, hex(other)
    assert resolve(key) == ((SINGLE_ROW_PORTS.index(port), 1 << bit),)
    keys.release(key)
    assert not keys.is_pressed(key)
    assert (keys.rows == 0xFF).all()


def test_rows_is_one_array_changed_in_place() -> None:
    keys = Keyboard()
    rows = keys.rows
    assert rows.dtype == np.uint8 and rows.shape == (8,) and (rows == 0xFF).all()
    keys.press("CAPS SHIFT+SPACE")
    assert keys.rows is rows and rows[0] == 0xFE and rows[7] == 0xFE
    keys.release_all()
    assert keys.rows is rows and (rows == 0xFF).all()


def test_combinations() -> None:
    keys = Keyboard()
    keys.press("CAPS SHIFT+5")
    assert keys.is_pressed("CAPS SHIFT") and keys.is_pressed("5")
    assert keys.is_pressed("CAPS SHIFT+5") and not keys.is_pressed("CAPS SHIFT+6")
    assert keys.pressed() == ["CAPS SHIFT", "5"]
    keys.press(("SYMBOL SHIFT", "P"))
    assert keys.is_pressed(["SYMBOL SHIFT", "P", "5"])
    keys.release("CAPS SHIFT+5")
    assert keys.pressed() == ["P", "SYMBOL SHIFT"]
    keys.press("symbol  shift + q")  # names are read case- and space-insensitively
    assert keys.is_pressed("Q")


def test_resolved_combinations_press_and_release_alike() -> None:
    keys = Keyboard()
    combo = resolve("symbol shift+p")
    assert combo == ((7, 0x02), (5, 0x01))
    keys.press_combo(combo)
    assert keys.pressed() == ["P", "SYMBOL SHIFT"] and keys.pressed_combo() == ((5, 1), (7, 2))
    keys.release_combo(combo)
    assert keys.pressed() == [] and keys.pressed_combo() == ()


def test_unknown_keys_raise_one_clear_error() -> None:
    keys = Keyboard()
    with pytest.raises(KeyboardError, match=r"unknown key 'SHIFT' in 'SHIFT\+A'; valid: "
                                            r"'CAPS SHIFT', 'Z'"):
        keys.press("SHIFT+A")
    with pytest.raises(KeyboardError, match="unknown key ''"):
        keys.press("A+")
    with pytest.raises(KeyboardError, match="no key given"):
        keys.press([])
    assert (keys.rows == 0xFF).all()


# -- typing -----------------------------------------------------------------------------------

CS, SS = "CAPS SHIFT", "SYMBOL SHIFT"
# spectrum_facts.md §3.6, SYMBOL SHIFT + key in L/C mode.
SYMBOLS = {
    "*": "B", "?": "C", "^": "H", "↑": "H", "-": "J", "+": "K", "=": "L", ".": "M", ",": "N",
    ";": "O", '"': "P", "<": "R", ">": "T", "/": "V", "£": "X", ":": "Z",
    "!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "&": "6", "'": "7", "(": "8", ")": "9",
    "_": "0",
}


def test_keys_for_every_supported_character() -> None:
    for letter in "abcdefghijklmnopqrstuvwxyz":
        assert kb.keys_for_text(letter) == [(letter.upper(),)]
        assert kb.keys_for_text(letter.upper()) == [(CS, letter.upper())]
    for digit in "0123456789":
        assert kb.keys_for_text(digit) == [(digit,)]
    for symbol, key in SYMBOLS.items():
        assert kb.keys_for_text(symbol) == [(SS, key)], symbol
    assert kb.keys_for_text(" \n") == [("SPACE",), ("ENTER",)]
    assert set(kb.SYMBOL_SHIFT_KEYS) == set(SYMBOLS)


def test_keys_for_text_names_real_keys() -> None:
    text = 'Go "£200", x=1;\n'
    combos = kb.keys_for_text(text)
    assert len(combos) == len(text)
    assert combos[:4] == [(CS, "G"), ("O",), ("SPACE",), (SS, "P")]
    keys = Keyboard()
    for combo in combos:
        keys.press(combo)
        assert keys.is_pressed(combo)
        keys.release(combo)


@pytest.mark.parametrize("char", list("~\\{}|[]©"))
def test_e_mode_characters_are_refused(char: str) -> None:
    with pytest.raises(KeyboardError, match="needs E mode"):
        kb.keys_for_text("ab" + char)


def test_untypable_characters() -> None:
    with pytest.raises(KeyboardError, match=r"character 1 of 'a\\tb': '\\t' cannot be typed"):
        kb.keys_for_text("a\tb")
    with pytest.raises(KeyboardError, match="cannot be typed"):
        kb.keys_for_text("é")
    with pytest.raises(KeyboardError, match="one character"):
        kb.keys_for_character("ab")


# -- Kempston ---------------------------------------------------------------------------------


def test_joystick_bits_are_active_high() -> None:
    stick = Joystick()
    state = stick.state
    assert state.dtype == np.uint8 and state.shape == (1,) and state[0] == 0
    for name, bit in (("RIGHT", 0), ("LEFT", 1), ("DOWN", 2), ("UP", 3), ("FIRE", 4)):
        stick.press(name)
        assert stick.state[0] == 1 << bit and stick.is_pressed(name)
        stick.release(name)
        assert stick.state[0] == 0
    stick.press("up+fire")
    assert stick.state[0] == 0x18 and stick.is_pressed("UP+FIRE")
    stick.release_all()
    assert stick.state is state and state[0] == 0
    with pytest.raises(KeyboardError, match="unknown joystick input 'JUMP'"):
        stick.press("JUMP")
