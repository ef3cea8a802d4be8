"""The PC's keyboard and pads as the Spectrum's: the key map, typed punctuation, joysticks.

docs/window.md, "PC keys -> Spectrum keys" and "Joysticks". Every key goes into the window's
key feeder (``spectrum/keyfeed.py``) as a press, in the order the events come
(``spectrum/presses.py``): a PC key presses its Spectrum keys while it is held and for at least
the frames a keyboard scan needs however short the press, punctuation is typed as its SYMBOL
SHIFT combination alone, the PC's arrows as a joystick press its keys or Kempston bits; a game
pad's keyboard joystick holds its keys and the Kempston port is the pads' directions.
:meth:`PcKeys.take` gives one frame's input (a
:class:`~zxmonopoly.spectrum.frameinput.FrameInput`) and moves the feed on a frame: the
runtime's driver takes it for each frame it runs (or, in network play, sends), so a press
lasts its frames of the machine whatever the frame rate.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from zxmonopoly.spectrum.frameinput import FrameInput  # noqa: E402
from zxmonopoly.spectrum.keyboard import (  # noqa: E402
    CAPS_SHIFT,
    SYMBOL_SHIFT,
    SYMBOL_SHIFT_KEYS,
    Combo,
    resolve,
)
from zxmonopoly.spectrum.keyfeed import KeyFeed  # noqa: E402
from zxmonopoly.spectrum.presses import TYPED_GAP, TYPED_HOLD  # noqa: E402
from zxmonopoly.ui import joystick as joysticks  # noqa: E402

#: The key feeder's source name of a game pad's keyboard joystick keys (PC keys are their key
#: codes).
JOYSTICK_SOURCE = "joystick"

#: PC keys held down -> the Spectrum keys they hold (letters and digits are added below).
_HELD_KEY_NAMES: dict[int, tuple[str, ...]] = {
    pygame.K_RETURN: ("ENTER",),
    pygame.K_KP_ENTER: ("ENTER",),
    pygame.K_SPACE: ("SPACE",),
    pygame.K_LSHIFT: (CAPS_SHIFT,),
    pygame.K_RSHIFT: (CAPS_SHIFT,),
    pygame.K_LCTRL: (SYMBOL_SHIFT,),
    pygame.K_RCTRL: (SYMBOL_SHIFT,),
    pygame.K_LALT: (SYMBOL_SHIFT,),
    pygame.K_RALT: (SYMBOL_SHIFT,),
    pygame.K_BACKSPACE: (CAPS_SHIFT, "0"),
    pygame.K_LEFT: (CAPS_SHIFT, "5"),
    pygame.K_DOWN: (CAPS_SHIFT, "6"),
    pygame.K_UP: (CAPS_SHIFT, "7"),
    pygame.K_RIGHT: (CAPS_SHIFT, "8"),
}
for _c in "abcdefghijklmnopqrstuvwxyz0123456789":
    _HELD_KEY_NAMES[getattr(pygame, f"K_{_c}")] = (_c.upper(),)
for _d in range(10):
    _HELD_KEY_NAMES[getattr(pygame, f"K_KP{_d}")] = (str(_d),)
#: The same, resolved once to the matrix's (half-row, mask) pairs.
HELD_KEYS: dict[int, Combo] = {key: resolve(names) for key, names in _HELD_KEY_NAMES.items()}


class PcKeys:
    """The PC's keys and pads, fed into a :class:`KeyFeed` for the Spectrum."""

    def __init__(self, feed: KeyFeed) -> None:
        self.feed = feed
        self.pads = joysticks.PadInput()
        self.joystick_mode = "none"  # one of joystick.MODES
        self.cursor_joystick = False  # the PC's arrows (and right Ctrl) as the joystick
        self.consumed: set[int] = set()  # PC keys whose press was typed as a character

    def key_down(self, event: pygame.event.Event) -> bool:
        """A PC key went down: a joystick direction, a typed character or a Spectrum key held;
        False when it is none of them."""
        key = event.key
        if self.cursor_joystick and key in joysticks.PC_DIRECTION_KEYS:
            held = {joysticks.PC_DIRECTION_KEYS[key]}
            combo = joysticks.spectrum_combo(self.joystick_mode, held)
            bits = joysticks.kempston_value(self.joystick_mode, held)
            if combo or bits:  # (no joystick chosen: the arrows do nothing)
                self.feed.press(key, combo, bits)
            self.consumed.add(key)
            return True
        char = getattr(event, "unicode", "") or ""
        if key not in HELD_KEYS and char in SYMBOL_SHIFT_KEYS:
            self.type_character(char, key)
            self.consumed.add(key)
            return True
        if key in HELD_KEYS:
            self.feed.press(key, HELD_KEYS[key])
            return True
        return False

    def key_up(self, event: pygame.event.Event) -> None:
        """A PC key went up: its press ends (once it has had its frames)."""
        self.feed.release(event.key)
        self.consumed.discard(event.key)

    def let_go_all(self, pads: bool = False) -> None:
        """Every PC key let go and its presses forgotten (the menu opened), and the pads
        centred too with ``pads`` (the window lost the focus)."""
        self.feed.let_go_all()
        if pads:
            self.pads.forget()

    def type_character(self, char: str, source: object = "typed") -> None:
        """Type a punctuation character as its SYMBOL SHIFT combination: a press alone of
        TYPED_HOLD frames, then TYPED_GAP frames of nothing (the same one again waits until
        the ROM has seen it up long enough: ``spectrum/presses.py``)."""
        self.feed.press(source, resolve((SYMBOL_SHIFT, SYMBOL_SHIFT_KEYS[char])),
                        frames=TYPED_HOLD, alone=True, after=TYPED_GAP)

    def set_joystick(self, mode: str) -> None:
        """The joystick the Spectrum sees (one of joystick.MODES)."""
        self.joystick_mode = mode

    def toggle_cursor_joystick(self) -> None:
        """The PC's arrows and right Ctrl as the joystick, or as CAPS SHIFT+5..8 and SS."""
        self.cursor_joystick = not self.cursor_joystick
        for key in joysticks.PC_DIRECTION_KEYS:
            self.feed.release(key)

    def take(self) -> FrameInput:
        """The next frame's keys, the feed moved on a frame: the script's due actions run
        first, and its step and the typed combination count the frame."""
        self.feed.begin_frame()
        local = self.local_input()
        self.feed.advance()
        return local

    @property
    def action_due(self) -> bool:
        """Whether the next :meth:`take` runs a script action first (it may read the machine)."""
        return self.feed.action_due

    def local_input(self) -> FrameInput:
        """This frame's keys: the feed's matrix (a pad's keyboard joystick keys held in it) and
        the Kempston port from the pads and the presses."""
        pads = self.pads.held()
        stick = joysticks.spectrum_combo(self.joystick_mode, pads)
        if stick:
            self.feed.hold(JOYSTICK_SOURCE, stick)
        else:
            self.feed.let_go(JOYSTICK_SOURCE)
        return self.feed.frame_input(joysticks.kempston_value(self.joystick_mode, pads))
