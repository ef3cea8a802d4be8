"""One frame's input: the keyboard's 8 half-rows and the Kempston joystick's bits.

Everything that runs the machine's frames hands it a :class:`FrameInput` through the one seam,
:meth:`Spectrum48.set_input <zxmonopoly.spectrum.machine.Spectrum48.set_input>`, which checks it
and writes the matrix and the Kempston port (nothing else writes them between frames): the
window's runtime and its key handling, the lockstep node (the players' inputs of a frame
:meth:`combined <FrameInput.combined>`), a key feed's frames (:meth:`KeyFeed.frame_input
<zxmonopoly.spectrum.keyfeed.KeyFeed.frame_input>`). A value, made by whoever gathers the
keys between two frames: from a feed's layers, a network message, or a queue of presses and
releases folded into one frame (:meth:`pressing <FrameInput.pressing>` adds a key that came
and went between two frames to the frame's keys).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .keyboard import Combo, KeyboardError, resolve

HALF_ROWS = 8
#: A half-row's keys: bits 0-4, active low (0 = pressed). Bits 5-7 are no key: they read 1.
ROW_KEYS = 0x1F
#: The Kempston interface's bits: right, left, down, up, fire (1 = active); bits 5-7 read 0.
KEMPSTON_BITS = 0x1F
RELEASED_ROWS = b"\xff" * HALF_ROWS


@dataclass(frozen=True)
class FrameInput:
    """One frame's keys and joystick: ``rows`` the 8 half-rows (bits 0-4, 0 = pressed) and
    ``joystick`` the Kempston bits (0-4, 1 = active). Checked when made: 8 bytes of rows, a
    joystick byte (KeyboardError otherwise); the seam masks the bits that are no key."""

    rows: bytes = RELEASED_ROWS
    joystick: int = 0

    def __post_init__(self) -> None:
        rows = self.rows
        if isinstance(rows, (bytearray, memoryview)):
            rows = bytes(rows)
            object.__setattr__(self, "rows", rows)
        if not isinstance(rows, bytes) or len(rows) != HALF_ROWS:
            raise KeyboardError(f"a frame's input holds {HALF_ROWS} half-rows of keys, not "
                                f"{len(rows) if isinstance(rows, bytes) else type(rows).__name__}")
        if isinstance(self.joystick, bool) or not isinstance(self.joystick, int) \
                or not 0 <= self.joystick <= 0xFF:
            raise KeyboardError(f"a frame's Kempston bits are a byte, not {self.joystick!r}")

    @classmethod
    def pressed(cls, names: str | Iterable[str] = (), joystick: int = 0) -> FrameInput:
        """The input with the keys ``names`` held (``"CAPS SHIFT+5"`` or a tuple; none: every
        key up) and the Kempston bits ``joystick``."""
        names = tuple(names) if not isinstance(names, str) else names
        return cls(joystick=joystick).pressing(resolve(names) if names else ())

    def pressing(self, combo: Combo) -> FrameInput:
        """This input with the resolved keys ``combo`` down as well (a tap between two frames
        folded into the next one's keys)."""
        if not combo:
            return self
        rows = bytearray(self.rows)
        for row, mask in combo:
            rows[row] &= 0xFF ^ mask
        return FrameInput(bytes(rows), self.joystick)

    @classmethod
    def combined(cls, inputs: Iterable[FrameInput]) -> FrameInput:
        """Several players' inputs as one keyboard: a key down on any is down (the half-rows
        ANDed), a joystick bit set on any is set (ORed). None: every key up."""
        rows = bytearray(RELEASED_ROWS)
        joystick = 0
        for each in inputs:
            for k, byte in enumerate(each.rows):
                rows[k] &= byte
            joystick |= each.joystick
        return cls(bytes(rows), joystick)


#: Every key up, the joystick centred.
NO_INPUT = FrameInput()
