"""The 40-key matrix, typing text as key combinations, and the Kempston joystick.

Facts: ``shared/reference/spectrum_facts.md`` §3.1 (matrix), §3.2 (Kempston), §3.6 (SYMBOL SHIFT
symbols in L/C mode). The machine reads :attr:`Keyboard.rows` and :attr:`Joystick.state` directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from .errors import SpectrumError

#: The eight half-rows in port order: half-row i is selected by a 0 in address bit 8 + i.
#: Within a half-row the first key is bit 0 (the outer end of the row).
HALF_ROWS: tuple[tuple[str, ...], ...] = (
    ("CAPS SHIFT", "Z", "X", "C", "V"),
    ("A", "S", "D", "F", "G"),
    ("Q", "W", "E", "R", "T"),
    ("1", "2", "3", "4", "5"),
    ("0", "9", "8", "7", "6"),
    ("P", "O", "I", "U", "Y"),
    ("ENTER", "L", "K", "J", "H"),
    ("SPACE", "SYMBOL SHIFT", "M", "N", "B"),
)
#: The port high byte that selects each half-row alone (0xFE, 0xFD, … 0x7F).
HALF_ROW_PORTS = tuple(0xFF ^ (1 << i) for i in range(8))
#: Key name -> (half-row index 0–7, bit mask).
KEYS: dict[str, tuple[int, int]] = {
    name: (row, 1 << bit) for row, names in enumerate(HALF_ROWS) for bit, name in enumerate(names)
}

CAPS_SHIFT, SYMBOL_SHIFT = "CAPS SHIFT", "SYMBOL SHIFT"


class KeyboardError(SpectrumError, ValueError):
    """An unknown key, joystick direction or character that cannot be typed, or a frame's
    input that is not one (a ValueError too: a bad name is a bad value)."""


def _parse(names: str | Iterable[str], table: Mapping[str, object], what: str) -> list[str]:
    """Key names of a combination such as ``"CAPS SHIFT+5"`` or ``("CAPS SHIFT", "5")``."""
    parts = names.split("+") if isinstance(names, str) else list(names)
    keys = []
    for part in parts:
        key = " ".join(part.upper().split())
        if key not in table:
            valid = ", ".join(repr(k) for k in table)
            raise KeyboardError(f"unknown {what} {part!r} in {names!r}; valid: {valid}")
        keys.append(key)
    if not keys:
        raise KeyboardError(f"no {what} given")
    return keys


def parse_keys(names: str | Iterable[str]) -> list[str]:
    """The key names of a combination (``"CAPS SHIFT+5"`` or ``("CAPS SHIFT", "5")``), checked."""
    return _parse(names, KEYS, "key")


#: A key combination resolved once: (half-row index, bit mask) for each of its keys.
Combo = tuple[tuple[int, int], ...]
#: The combination of no key.
NO_KEYS: Combo = ()


def resolve(names: str | Iterable[str]) -> Combo:
    """A combination (``"CAPS SHIFT+5"`` or ``("CAPS SHIFT", "5")``) checked and resolved to
    (half-row, mask) pairs, so that pressing it needs no more parsing."""
    return tuple(KEYS[key] for key in _parse(names, KEYS, "key"))


class Keyboard:
    """The matrix state: ``rows`` holds the 8 half-rows, bits 0–4 active low (0 = pressed).

    ``rows`` is one uint8 array that is only ever changed in place, so a running machine can
    keep a reference to it; the engines read it (the ULA port, ``spectrum/ula.py``).
    """

    def __init__(self) -> None:
        self.rows = np.full(8, 0xFF, dtype=np.uint8)

    def press(self, names: str | Iterable[str]) -> None:
        """Press a key or combination (``"A"``, ``"CAPS SHIFT+5"``, ``("SYMBOL SHIFT", "P")``)."""
        self.press_combo(resolve(names))

    def release(self, names: str | Iterable[str]) -> None:
        """Release a key or every key of a combination."""
        self.release_combo(resolve(names))

    def press_combo(self, combo: Combo) -> None:
        """Press a resolved combination (:func:`resolve`)."""
        for row, mask in combo:
            self.rows[row] &= 0xFF ^ mask

    def release_combo(self, combo: Combo) -> None:
        """Release a resolved combination."""
        for row, mask in combo:
            self.rows[row] |= mask

    def release_all(self) -> None:
        """Release every key."""
        self.rows[:] = 0xFF

    def is_pressed(self, names: str | Iterable[str]) -> bool:
        """Whether every key of the combination is held down."""
        return all(not self.rows[row] & mask for row, mask in resolve(names))

    def pressed(self) -> list[str]:
        """Names of the keys held down, in matrix order."""
        return [name for name, (row, mask) in KEYS.items() if not self.rows[row] & mask]

    def pressed_combo(self) -> Combo:
        """The keys held down, resolved (what a key feeder keeps holding)."""
        return tuple((row, mask) for row, mask in KEYS.values() if not self.rows[row] & mask)


# -- typing text ------------------------------------------------------------------------------

#: Characters typed with SYMBOL SHIFT in L/C mode (facts §3.6). "↑" is the Spectrum's 0x5E,
#: shown as "^" in ASCII; "£" is the Spectrum's 0x60.
SYMBOL_SHIFT_KEYS: dict[str, str] = {
    "!": "1", "@": "2", "#": "3", "$": "4", "%": "5",
    "&": "6", "'": "7", "(": "8", ")": "9", "_": "0",
    "*": "B", "?": "C", "^": "H", "↑": "H", "-": "J", "+": "K", "=": "L", ".": "M",
    ",": "N", ";": "O", '"': "P", "<": "R", ">": "T", "/": "V", "£": "X", ":": "Z",
}
#: Characters only E mode gives (facts §3.7): typing them is not supported.
E_MODE_CHARACTERS = "~\\{}|[]©"


def keys_for_character(char: str) -> tuple[str, ...]:
    """The key combination that types ``char`` in L mode (capitals with CAPS SHIFT)."""
    if len(char) != 1:
        raise KeyboardError(f"expected one character, not {char!r}")
    if "a" <= char <= "z" or "0" <= char <= "9":
        return (char.upper(),)
    if "A" <= char <= "Z":
        return (CAPS_SHIFT, char)
    if char == " ":
        return ("SPACE",)
    if char == "\n":
        return ("ENTER",)
    if char in SYMBOL_SHIFT_KEYS:
        return (SYMBOL_SHIFT, SYMBOL_SHIFT_KEYS[char])
    if char in E_MODE_CHARACTERS:
        raise KeyboardError(f"{char!r} needs E mode (CAPS SHIFT+SYMBOL SHIFT, then a key); "
                            "typing it is not supported")
    raise KeyboardError(f"{char!r} cannot be typed on the Spectrum keyboard")


def keys_for_text(text: str) -> list[tuple[str, ...]]:
    """Each character of ``text`` as the key combination a user presses in L mode.

    Letters give lower case, or capitals with CAPS SHIFT; ``"\\n"`` is ENTER. In K mode (the
    start of a BASIC line) the ROM reads letters as keywords instead: that is the caller's
    business.
    """
    combos = []
    for index, char in enumerate(text):
        try:
            combos.append(keys_for_character(char))
        except KeyboardError as exc:
            raise KeyboardError(f"character {index} of {text!r}: {exc}") from None
    return combos


# -- Kempston joystick ------------------------------------------------------------------------

#: Kempston bits (port 0x1F, active high; facts §3.2).
JOYSTICK_BITS: dict[str, int] = {"RIGHT": 0x01, "LEFT": 0x02, "DOWN": 0x04, "UP": 0x08,
                                 "FIRE": 0x10}


class Joystick:
    """A Kempston joystick: ``state`` is a 1-element uint8 array, bits active high.

    ``state`` is only ever changed in place, so a running machine can keep a reference to it.
    """

    def __init__(self) -> None:
        self.state = np.zeros(1, dtype=np.uint8)

    def press(self, names: str | Iterable[str]) -> None:
        """Push one or more directions or fire (``"UP"``, ``"UP+FIRE"``)."""
        for name in _parse(names, JOYSTICK_BITS, "joystick input"):
            self.state[0] |= JOYSTICK_BITS[name]

    def release(self, names: str | Iterable[str]) -> None:
        """Let go of one or more directions or fire."""
        for name in _parse(names, JOYSTICK_BITS, "joystick input"):
            self.state[0] &= 0xFF ^ JOYSTICK_BITS[name]

    def release_all(self) -> None:
        """Centre the stick and release fire."""
        self.state[0] = 0

    def is_pressed(self, names: str | Iterable[str]) -> bool:
        """Whether every named input is active."""
        parsed = _parse(names, JOYSTICK_BITS, "joystick input")
        return all(self.state[0] & JOYSTICK_BITS[n] for n in parsed)
