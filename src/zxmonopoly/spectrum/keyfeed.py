"""The keys of each frame: one feeder for everything that presses Spectrum keys over time.

A :class:`KeyFeed` is advanced once a frame. It holds three layers of keys and gives, for the
frame about to run, the one keyboard matrix the machine sees (:meth:`KeyFeed.frame_input`):

1. **script** — a queue of steps run in order: keys held for some frames, frames of waiting,
   and actions that take no frame (the window's ``LOAD ""`` after the boot, which looks at the
   screen half way). While a script's keys are down they are the only keys down; its waits
   press nothing of their own, so the layers below show through (a user may type during the
   boot's wait).
2. **typed** — combinations typed one after another, each held its frames and followed by its
   gap (``keystrokes.plan``: the KSTATE rule of any 48K ROM). A typed combination or its gap
   is all the ROM sees: keys held meanwhile are let go, for a key held through a typed one
   would take a KSTATE set of its own and lose the typed key. Typing waits while a script's
   keys are down.
3. **held** — keys held down by some source (a keyboard joystick, a key pressed before the
   typing began) for as long as the source holds them, and a person's **presses** (the
   window's PC keys: :mod:`.presses`), each down for at least the frames a keyboard scan needs
   however short it was, in the order they came; a press alone (a punctuation character typed
   on the PC) is the only key down for its frames and the frames of nothing after it.

So the precedence is script keys, then typed keys (or their gaps), then held keys and presses.
Frames in which the layers above hide the presses do not count towards their holds. Every key
name is resolved once, when it enters the feed, to (half-row, mask) pairs
(:func:`~.keyboard.resolve`); a frame only ANDs masks into the matrix.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from . import keystrokes
from .frameinput import FrameInput
from .keyboard import NO_KEYS, Combo, resolve
from .presses import Press, Presses


@dataclass(frozen=True)
class _Hold:
    """A script step: ``combo`` down for ``frames`` frames (an empty combo: a wait)."""

    combo: Combo
    frames: int


@dataclass(frozen=True)
class _Call:
    """A script step that takes no frame: ``action()`` at the start of the next frame."""

    action: Callable[[], object]


class KeyFeed:
    """Script, typed and held keys merged into one matrix per frame (precedence: see module)."""

    def __init__(self) -> None:
        self._script: deque[_Hold | _Call] = deque()
        self._typed: deque[_Hold] = deque()
        self._held: dict[Hashable, Combo] = {}
        #: A person's presses and releases, laid on the frames (presses.py).
        self.presses = Presses()

    # -- the layers -----------------------------------------------------------------------

    def hold(self, source: Hashable, keys: str | Iterable[str] | Combo) -> None:
        """Hold ``keys`` for ``source`` until :meth:`let_go` (replacing what it held)."""
        self._held[source] = _combo(keys)

    def let_go(self, source: Hashable) -> None:
        """Release what ``source`` holds (nothing if it holds nothing)."""
        self._held.pop(source, None)

    def let_go_all(self) -> None:
        """Release every held key and forget every press (typed and scripted keys go on)."""
        self._held.clear()
        self.presses.clear()

    def press(self, source: Hashable, keys: str | Iterable[str] | Combo, joystick: int = 0, *,
              frames: int | None = None, alone: bool = False, after: int = 0) -> Press | None:
        """A person's key ``source`` went down, pressing ``keys`` (and the Kempston bits
        ``joystick``): down from its turn for at least the frames a scan needs, and while it
        is held (:mod:`.presses`; ``frames``, ``alone``, ``after``: a press of a fixed length,
        alone, then ``after`` frames of nothing). The press (``presses.frame`` counts the
        feed's frames; its ``down_at`` is the one it went down at), or None (not a new one)."""
        return self.presses.press(source, _combo(keys), joystick, frames=frames, alone=alone,
                                  after=after)

    def release(self, source: Hashable) -> None:
        """A person's key ``source`` went up: its press ends once it has had its frames."""
        self.presses.release(source)

    def type(self, schedule: Iterable[keystrokes.Press]) -> None:
        """Queue a typing schedule (``keystrokes.plan``) after what is typed already."""
        self._typed.extend(_steps(schedule))

    def type_keys(self, combos: Iterable[str | Sequence[str]], hold: int = keystrokes.HOLD_FRAMES,
                  gap: int = keystrokes.GAP_FRAMES) -> None:
        """Queue combinations timed as any 48K ROM takes them (``keystrokes.plan``)."""
        self.type(keystrokes.plan(combos, hold, gap))

    def script_keys(self, schedule: Iterable[keystrokes.Press]) -> None:
        """Append a typing schedule to the script: its keys over everything else."""
        self._script.extend(_steps(schedule))

    def script_wait(self, frames: int) -> None:
        """Append ``frames`` frames in which the script presses nothing."""
        if frames:
            self._script.append(_Hold(NO_KEYS, frames))

    def script_call(self, action: Callable[[], object], *, first: bool = False) -> None:
        """Append an action run at the start of the frame the script reaches it (``first``: run
        it before the rest of the script)."""
        (self._script.appendleft if first else self._script.append)(_Call(action))

    def script_next(self, schedule: Iterable[keystrokes.Press]) -> None:
        """Put a typing schedule at the front of the script (from inside a script's action)."""
        self._script.extendleft(reversed(_steps(schedule)))

    def clear(self) -> None:
        """Forget the script and the typing (a reset, a snapshot loaded); held keys stay."""
        self._script.clear()
        self._typed.clear()

    # -- state ----------------------------------------------------------------------------

    @property
    def scripting(self) -> bool:
        """Whether the script has steps to come."""
        return bool(self._script)

    @property
    def action_due(self) -> bool:
        """Whether the script's next step is an action (the next :meth:`begin_frame` runs it)."""
        return bool(self._script) and isinstance(self._script[0], _Call)

    @property
    def typing(self) -> bool:
        """Whether typed keys (or their gaps) are to come."""
        return bool(self._typed)

    @property
    def busy(self) -> bool:
        """Whether the script or the typing has frames to come."""
        return bool(self._script or self._typed)

    def typed_frames(self) -> int:
        """Frames the typing queued now takes (a script's keys may stretch it)."""
        return sum(step.frames for step in self._typed)

    # -- once a frame ---------------------------------------------------------------------

    def begin_frame(self) -> None:
        """Run the script's actions that are due now (they take no frame)."""
        while self._script and isinstance(self._script[0], _Call):
            self._script.popleft().action()

    def combo(self) -> Combo:
        """The keys down in the frame about to run (the precedence of the module's docstring)."""
        return self._keys()[0]

    def frame_input(self, joystick: int = 0) -> FrameInput:
        """The frame's keys as its input (the Kempston bits ``joystick`` ORed with those of
        the presses): what a machine is given (:meth:`Spectrum48.set_input`) or a network peer
        sends."""
        combo, pressed_joystick = self._keys()
        return FrameInput(joystick=joystick | pressed_joystick).pressing(combo)

    def advance(self) -> None:
        """One frame has run: the script's step, the typed combination and the presses move
        on a frame (a press counts it when it was shown)."""
        head = self._script[0] if self._script else None
        scripted = isinstance(head, _Hold) and bool(head.combo)
        typed = not scripted and bool(self._typed)
        if typed:
            _tick(self._typed)
        self.presses.advance(shown=not (scripted or typed))
        if isinstance(head, _Hold):
            _tick(self._script)

    def _keys(self) -> tuple[Combo, int]:
        """The frame's combination and the presses' Kempston bits, by the precedence."""
        head = self._script[0] if self._script else None
        if isinstance(head, _Hold) and head.combo:
            return head.combo, 0
        if self._typed:
            return self._typed[0].combo, 0
        pressed, joystick, alone = self.presses.now()
        held = self._held
        if alone or not held:
            return pressed, joystick
        if len(held) == 1 and not pressed:
            return next(iter(held.values())), joystick
        return tuple(pair for combo in held.values() for pair in combo) + pressed, joystick


def _steps(schedule: Iterable[keystrokes.Press]) -> list[_Hold]:
    """A typing schedule as steps: each combination held its frames, then its gap (steps of
    no frame left out)."""
    steps = []
    for step in schedule:
        if step.hold:
            steps.append(_Hold(_combo(step.keys), step.hold))
        if step.gap:
            steps.append(_Hold(NO_KEYS, step.gap))
    return steps


def _tick(queue: deque) -> None:
    """Take a frame off the step at the head of ``queue``; drop it at its last."""
    step = queue[0]
    if step.frames <= 1:
        queue.popleft()
    else:
        queue[0] = _Hold(step.combo, step.frames - 1)


def _combo(keys: str | Iterable[str] | Combo) -> Combo:
    """Key names resolved, or a combination resolved already, as a :data:`Combo`."""
    if isinstance(keys, tuple) and all(isinstance(k, tuple) for k in keys):
        return keys  # type: ignore[return-value]
    return resolve(keys)  # type: ignore[arg-type]
