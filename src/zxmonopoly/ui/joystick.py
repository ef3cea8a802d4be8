"""Joysticks: a PC game pad (or the PC's cursor keys) as a Kempston, Sinclair or cursor joystick.

A Kempston joystick is its own port (0x1F); the others are keys on the Spectrum's keyboard:
Sinclair 1 (the right-hand port of a +2) is 6-0, Sinclair 2 is 1-5, a cursor (Protek/AGF)
joystick is 5-8 and 0. docs/window.md has the table.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from zxmonopoly.spectrum.keyboard import NO_KEYS, Combo, resolve  # noqa: E402

#: The joystick the Spectrum sees, in the order the menu offers them.
MODES = ("none", "kempston", "sinclair1", "sinclair2", "cursor")
MODE_NAMES = {"none": "none", "kempston": "Kempston", "sinclair1": "Sinclair 1",
              "sinclair2": "Sinclair 2", "cursor": "cursor"}
DIRECTIONS = ("LEFT", "RIGHT", "DOWN", "UP", "FIRE")
#: Keyboard joysticks: direction -> the Spectrum key it holds.
KEY_MAPS: dict[str, dict[str, str]] = {
    "sinclair1": {"LEFT": "6", "RIGHT": "7", "DOWN": "8", "UP": "9", "FIRE": "0"},
    "sinclair2": {"LEFT": "1", "RIGHT": "2", "DOWN": "3", "UP": "4", "FIRE": "5"},
    "cursor": {"LEFT": "5", "DOWN": "6", "UP": "7", "RIGHT": "8", "FIRE": "0"},
}
#: An axis further than this from the centre is a direction (pygame's axes run -1..1).
AXIS_THRESHOLD = 0.5
#: With the PC's cursor keys as the joystick: the arrows and this key for fire (the left Ctrl
#: and both Alts stay SYMBOL SHIFT).
PC_FIRE_KEY = pygame.K_RCTRL
PC_DIRECTION_KEYS = {pygame.K_LEFT: "LEFT", pygame.K_RIGHT: "RIGHT", pygame.K_UP: "UP",
                     pygame.K_DOWN: "DOWN", PC_FIRE_KEY: "FIRE"}


class PadInput:
    """The directions and fire held on the game pads (the PC's cursor keys as the joystick are
    presses in the key feeder: keys.py)."""

    def __init__(self) -> None:
        self.axes: dict[tuple[int, int], float] = {}  # (pad, axis) -> position
        self.hats: dict[tuple[int, int], tuple[int, int]] = {}  # (pad, hat) -> (x, y)
        self.buttons: set[tuple[int, int]] = set()  # (pad, button) held
        self.pads: dict[int, pygame.joystick.JoystickType] = {}  # open pads by instance id

    def handle(self, event: pygame.event.Event) -> bool:
        """Take a pygame joystick event; True if it was one."""
        if event.type == pygame.JOYAXISMOTION:
            self.axes[(event.instance_id, event.axis)] = float(event.value)
        elif event.type == pygame.JOYHATMOTION:
            self.hats[(event.instance_id, event.hat)] = tuple(event.value)
        elif event.type == pygame.JOYBUTTONDOWN:
            self.buttons.add((event.instance_id, event.button))
        elif event.type == pygame.JOYBUTTONUP:
            self.buttons.discard((event.instance_id, event.button))
        elif event.type == pygame.JOYDEVICEADDED:
            try:  # a pad must be opened for its events to come
                pad = pygame.joystick.Joystick(event.device_index)
                self.pads[pad.get_instance_id()] = pad
            except pygame.error:
                pass
        elif event.type == pygame.JOYDEVICEREMOVED:
            self.pads.pop(event.instance_id, None)
            self.forget(event.instance_id)
        else:
            return False
        return True

    def forget(self, pad: int | None = None) -> None:
        """Centre everything (of one pad, or of all)."""
        for table in (self.axes, self.hats):
            for key in [k for k in table if pad is None or k[0] == pad]:
                del table[key]
        self.buttons = {b for b in self.buttons if pad is not None and b[0] != pad}

    def held(self) -> set[str]:
        """The directions and fire held now, on every pad."""
        held: set[str] = set()
        for (_, axis), value in self.axes.items():
            if axis % 2 == 0 and abs(value) > AXIS_THRESHOLD:
                held.add("RIGHT" if value > 0 else "LEFT")
            elif axis % 2 == 1 and abs(value) > AXIS_THRESHOLD:
                held.add("DOWN" if value > 0 else "UP")
        for x, y in self.hats.values():
            if x:
                held.add("RIGHT" if x > 0 else "LEFT")
            if y:
                held.add("UP" if y > 0 else "DOWN")
        if self.buttons:
            held.add("FIRE")
        return held


#: The same, each key resolved once to its (half-row, mask) in the matrix.
KEY_COMBOS: dict[str, dict[str, Combo]] = {
    mode: {direction: resolve(key) for direction, key in mapping.items()}
    for mode, mapping in KEY_MAPS.items()}


def spectrum_combo(mode: str, held: set[str]) -> Combo:
    """The keys a keyboard joystick (``mode``) holds on the matrix for ``held`` (none for the
    Kempston and no joystick)."""
    mapping = KEY_COMBOS.get(mode)
    if not mapping:
        return NO_KEYS
    return tuple(pair for d in DIRECTIONS if d in held for pair in mapping[d])


def kempston_value(mode: str, held: set[str]) -> int:
    """The Kempston port's bits for ``held`` when ``mode`` is kempston (else 0)."""
    from zxmonopoly.spectrum.keyboard import JOYSTICK_BITS

    if mode != "kempston":
        return 0
    value = 0
    for direction in held:
        value |= JOYSTICK_BITS[direction]
    return value
