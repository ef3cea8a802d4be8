"""A person's key presses, in the order they came, each held for the frames a keyboard scan needs.

A PC key can go down and up between two emulated frames: a tap of a few milliseconds, or any
short press while the frames come slowly (a busy machine runs 5 a second). A matrix made from
the keys held at each frame would never hold such a press, and two quick presses would be one.
:class:`Presses` keeps every press and release as it comes and lays them on the frames,
counted in emulated frames (never in wall time), by these rules (docs/window.md, "PC keys"):

1. **A minimum hold.** A press is down at least :data:`~.keystrokes.HOLD_FRAMES` frames that
   the machine is shown it, however short it was, or as long as its key is held, whichever is
   longer. The ROM's interrupt (KEYBOARD, with its KSTATE bookkeeping) takes a new key at the
   first interrupt that sees it, and the game reads the matrix once a frame (``keys_wait``);
   three frames leave a margin for a frame whose interrupt a program kept off.
2. **In order.** A press goes down no earlier than every press that came before it. One that
   came while an earlier one was let go but still being held out, or let go with no frame yet
   showing it up, goes down :data:`~.keystrokes.GAP_FRAMES` frames after that one is up: the
   game's ``keys_wait`` sees every key up before it takes the next one, and the ROM ignores a
   frame with two keys down (shifts apart) and a third key while two KSTATE sets count down.
3. **The same key again** (shifts apart: :func:`~.keystrokes.kstate_key`) goes down only
   :data:`~.keystrokes.SAME_KEY_UP` frames after it went up: KSTATE takes it as a new key only
   after 5 interrupts up.
4. **Held keys are unchanged.** A key pressed while another is held (rollover, a shift held for
   a capital or for BREAK) goes down at once beside it, and each stays down while it is held.
5. **A press alone** (a punctuation character typed: its SYMBOL SHIFT combination, whatever PC
   shift typed it) is the only key down for its frames, then ``after`` frames of nothing; it
   goes down once every press before it has been shown its minimum (shifts apart: it hides
   them at once).

Frames in which the machine is not shown these keys (a key feeder's script or typing has them,
``KeyFeed``) are not counted towards a press's hold: the press is held on until it has been
shown its frames.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from .keyboard import KEYS, NO_KEYS, SYMBOL_SHIFT, Combo
from .keystrokes import GAP_FRAMES, HOLD_FRAMES, SAME_KEY_UP

#: A character typed (punctuation: its SYMBOL SHIFT combination alone): the frames it is held,
#: then the frames of nothing after it (the window's PC keys and a browser's page alike).
TYPED_HOLD = 4
TYPED_GAP = 2
#: Presses kept waiting for their frames at most (a person at the keys while the machine waits:
#: paused, or a network game waiting for a peer); more are not taken.
MAX_WAITING = 64
#: The shifts' (half-row, mask) pairs: not keys of their own to KSTATE.
_SHIFTS = frozenset((KEYS["CAPS SHIFT"], KEYS[SYMBOL_SHIFT]))


def _identity(combo: Combo, joystick: int = 0) -> frozenset:
    """What tells two presses apart for the same-key rule: the keys other than the shifts
    (the shifts when there is nothing else), and the Kempston bits of a joystick press."""
    keys = frozenset(combo)
    main = keys - _SHIFTS
    return frozenset((main or keys) | ({("kempston", joystick)} if joystick else set()))


@dataclass(eq=False)
class _Press:
    """One press: its keys, whether its key has been let go, and the frames it went down/up."""

    source: Hashable
    combo: Combo
    joystick: int
    identity: frozenset
    frames: int  # frames it must be shown at least
    alone: bool
    after: int  # frames of nothing after it (a press alone)
    arrived: int  # the frame about to run when it came
    released: bool = False
    down_at: int | None = None
    up_at: int | None = None  # the first frame it is up again
    shown: int = 0  # frames the machine was shown it
    #: The presses held by their keys when this one came: it goes down beside them.
    beside: frozenset[_Press] = frozenset()

    @property
    def shift_only(self) -> bool:
        """Whether it presses only shifts (a press alone hides them: the PC Shift that typed
        its character is not the Spectrum's)."""
        return not self.joystick and frozenset(self.combo) <= _SHIFTS

    @property
    def down(self) -> bool:
        """Whether it is down (gone down and not yet up)."""
        return self.down_at is not None and self.up_at is None


#: One press as :meth:`Presses.press` gives it back (its ``down_at``: the frame it went down).
Press = _Press


class Presses:
    """Presses and releases as they come, each laid on the frames to come (module's rules)."""

    def __init__(self, hold: int = HOLD_FRAMES, gap: int = GAP_FRAMES,
                 same_key_up: int = SAME_KEY_UP) -> None:
        self.hold = hold
        self.gap = gap
        self.same_key_up = same_key_up
        self.frame = 0  # the frame about to run, counted by advance()
        self._presses: list[_Press] = []
        self._started_for: int | None = None  # the frame _start last ran for

    # -- events ---------------------------------------------------------------------------

    def press(self, source: Hashable, combo: Combo, joystick: int = 0, *,
              frames: int | None = None, alone: bool = False, after: int = 0) -> Press | None:
        """``source`` (a PC key) went down, pressing ``combo`` and the Kempston bits
        ``joystick``. ``frames`` and ``alone``: a press of a fixed length (let go at once),
        the only keys down meanwhile and followed by ``after`` frames of nothing. The press
        (its ``down_at``, once set, is the frame it went down at), or None when it is not a
        new one (its key is down already) or not taken (MAX_WAITING)."""
        held = self._held_by(source)
        if held is not None:
            if held.combo == combo and held.joystick == joystick:
                return None  # the same key down again without an up: still the one press
            self.release(source)
        if sum(p.down_at is None for p in self._presses) >= MAX_WAITING:
            return None  # (a bound: nobody means that many presses before a frame)
        beside = frozenset(p for p in self._presses if not p.released)
        press = _Press(source, combo, joystick, _identity(combo, joystick),
                       self.hold if frames is None else frames, alone, after, self.frame,
                       released=frames is not None, beside=beside)
        self._presses.append(press)
        self._started_for = None
        return press

    def release(self, source: Hashable) -> None:
        """``source`` went up: its press ends once it has been shown its frames."""
        press = self._held_by(source)
        if press is None:
            return
        press.released = True
        if press.down and press.shown >= press.frames:
            press.up_at = self.frame
        self._started_for = None

    def clear(self) -> None:
        """Forget every press, held or to come (the menu opened, the focus lost)."""
        self._presses.clear()

    # -- once a frame ---------------------------------------------------------------------

    def now(self) -> tuple[Combo, int, bool]:
        """The frame's keys: the combination down, the Kempston bits, and whether a press
        alone (or the frames of nothing after it) owns the frame (no other key is down)."""
        self._start()
        shown, alone = self._shown()
        if len(shown) == 1:
            only = shown[0]
            return only.combo, only.joystick, alone
        combo = tuple(pair for press in shown for pair in press.combo)
        joystick = 0
        for press in shown:
            joystick |= press.joystick
        return (combo or NO_KEYS), joystick, alone

    def advance(self, shown: bool = True) -> None:
        """A frame has run; ``shown``: with these keys (False: other keys hid them, and the
        frame does not count towards a press's hold)."""
        self._start()
        if shown:
            for press in self._shown()[0]:
                press.shown += 1
        for press in self._presses:
            if press.down and press.released and press.shown >= press.frames:
                press.up_at = self.frame + 1
        self.frame += 1
        self._started_for = None
        longest = max(self.same_key_up, self.gap)
        self._presses = [p for p in self._presses
                         if p.up_at is None or p.up_at + max(longest, p.after) > self.frame]

    @property
    def pending(self) -> bool:
        """Whether a press is down or still to go down."""
        return any(p.up_at is None for p in self._presses)

    # -- the rules ------------------------------------------------------------------------

    def _held_by(self, source: Hashable) -> _Press | None:
        """The press ``source`` holds (not let go yet), if any."""
        for press in reversed(self._presses):
            if press.source == source and not press.released:
                return press
        return None

    def _start(self) -> None:
        """Put down, in order, the presses whose turn has come at this frame."""
        if self._started_for == self.frame:
            return
        self._started_for = self.frame
        for k, press in enumerate(self._presses):
            if press.down_at is not None:
                continue
            if not self._may_go_down(press, self._presses[:k]):
                break  # and nothing after it goes down before it
            press.down_at = self.frame

    def _may_go_down(self, press: _Press, earlier: list[_Press]) -> bool:
        """Whether ``press`` may go down at this frame, after the presses ``earlier``."""
        frame = self.frame
        for before in earlier:
            if before.down_at is None:
                return False  # still to go down itself: in order
            beside = before in press.beside  # held by its key when this one came
            if before.up_at is None:  # down now
                if before.released and not beside:
                    return False  # let go before this one came: this one comes after it
                if press.alone and before.shown < before.frames and not before.shift_only:
                    return False  # not yet shown its minimum, which this one would hide
                continue  # held when this one came: this one goes down beside it
            need = 0
            if before.identity == press.identity:
                need = self.same_key_up
            if before.alone:
                need = max(need, before.after)
            if before.up_at >= press.arrived and not beside:
                need = max(need, self.gap)  # let go as this one came: no frame showed a gap
            if frame < before.up_at + need:
                return False
        return True

    def _shown(self) -> tuple[list[_Press], bool]:
        """The presses the frame shows, and whether a press alone owns the frame."""
        down = [p for p in self._presses if p.down]
        for press in down:
            if press.alone:
                return [press], True
        for press in self._presses:
            if press.alone and press.up_at is not None \
                    and self.frame < press.up_at + press.after:
                return [], True
        return down, False
