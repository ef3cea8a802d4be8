"""Typing that any 48K ROM accepts: key combinations turned into a timed press/release schedule.

Every piece of typing in the project goes through :func:`plan` and a key feeder
(``keyfeed.KeyFeed``): ``Spectrum48.type_text`` and ``type_keys``, the harness
(``Session.type``, ``Session.load_tape``, a script's ``tape`` header, ``Session.game``), the CLI
(``run --type``, ``--autoload``, ``--game``) and the window's autoload and typed characters;
``boot.py`` types ``LOAD ""`` with :data:`LOAD_PROBE` and :func:`load_rest`.

The rule it keeps is the one of the Sinclair ROM's KEYBOARD routine (0x02BF, run by the frame
interrupt; facts in ``shared/reference/spectrum_facts.md`` §3 and ``docs/rom-api.md``, "The
keyboard"), which our ROM follows too:

- There are two KSTATE sets (key, countdown, repeat counter, code). At each interrupt a set
  whose key is up counts down from 5 and is freed at 0; a set whose key is seen down is set
  back to 5.
- A key that still owns a set is a *repeat*: it gives a code again only after REPDEL frames
  (35 on the 48K, 25 on OpenSE BASIC), then every REPPER. So the same key pressed again before
  it has been up for 5 interrupts is lost, and so is a new key while both sets are taken.
- The shifts are not keys of their own here: SYMBOL SHIFT+P and P are the same key to KSTATE.

So :func:`plan` leaves the same key up for :data:`SAME_KEY_UP` frames (5 and a margin for an
interrupt missed while the program has them off), never has a third key pressed while two
others are still counting down, and holds each combination :data:`HOLD_FRAMES` frames: seen by
at least one interrupt, and far below any REPDEL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .keyboard import CAPS_SHIFT, SYMBOL_SHIFT, KeyboardError, keys_for_text, parse_keys

#: Interrupts a released key keeps its KSTATE set (the Sinclair KEYBOARD routine's countdown).
KSTATE_COUNTDOWN = 5
#: Frames more than that before the same key is pressed again, for interrupts the running
#: program may keep off (a BEEP, a tape block) while the key is up.
MARGIN_FRAMES = 3
#: Frames the same key stays up before it is pressed again.
SAME_KEY_UP = KSTATE_COUNTDOWN + MARGIN_FRAMES
#: KSTATE sets: a third key pressed while two others still own one is ignored.
KSTATE_SETS = 2
#: Default frames each combination is held: seen by 3 interrupts, well under REPDEL.
HOLD_FRAMES = 3
#: Default frames of nothing between two different keys.
GAP_FRAMES = 3
#: The smallest REPDEL of the ROMs we run (OpenSE BASIC's 25; the 48K's is 35): a hold as long
#: as that would type the key twice.
MIN_REPDEL = 25

#: LOAD "" as a 48K user types it in K mode: J (LOAD), SYMBOL SHIFT+P twice, ENTER.
LOAD_QUOTED_K_MODE: tuple[tuple[str, ...], ...] = (
    ("J",), (SYMBOL_SHIFT, "P"), (SYMBOL_SHIFT, "P"), ("ENTER",))
#: LOAD "" spelled letter by letter, as ROMs without K mode (OpenSE BASIC) take it.
LOAD_QUOTED_SPELLED = 'load ""\n'


@dataclass(frozen=True)
class Press:
    """One step of a schedule: hold ``keys`` for ``hold`` frames, then nothing for ``gap``."""

    keys: tuple[str, ...]
    hold: int
    gap: int


def kstate_key(combo: Sequence[str]) -> tuple[str, ...]:
    """What KSTATE keeps of a combination: its keys other than the shifts (the shifts
    themselves when there is nothing else, as CAPS SHIFT+SYMBOL SHIFT for E mode)."""
    keys = tuple(sorted(set(combo)))
    main = tuple(k for k in keys if k not in (CAPS_SHIFT, SYMBOL_SHIFT))
    return main or keys


def combos_of(keys: Iterable[str | Sequence[str]]) -> list[tuple[str, ...]]:
    """Combinations given as ``"SYMBOL SHIFT+P"`` or ``("SYMBOL SHIFT", "P")``, checked and
    normalised to tuples of key names."""
    return [tuple(parse_keys(combo)) for combo in keys]


def plan(combos: Iterable[str | Sequence[str]], hold: int = HOLD_FRAMES,
         gap: int = GAP_FRAMES) -> list[Press]:
    """The schedule that types ``combos`` one after another so that a Sinclair-style ROM takes
    every one: ``hold`` frames down each, at least ``gap`` frames up between two, longer where
    the KSTATE rule needs it. The last step's gap also lets the same key follow at once."""
    if hold < 1 or hold >= MIN_REPDEL:
        raise KeyboardError(f"a key must be held 1 to {MIN_REPDEL - 1} frames (fewer than "
                            f"REPDEL, or it repeats), not {hold}")
    if gap < 0:
        raise KeyboardError(f"the gap between keys must be 0 frames or more, not {gap}")
    steps: list[tuple[tuple[str, ...], int]] = []  # (combo, frame it goes down)
    released: dict[tuple[str, ...], int] = {}  # KSTATE key -> frame it went up
    now = 0  # the first frame free after the last release
    for combo in combos_of(combos):
        key = kstate_key(combo)
        start = now + (gap if steps else 0)
        if key in released:  # its set must be freed (with the margin) first
            start = max(start, released[key] + SAME_KEY_UP)
        others = sorted((t for k, t in released.items() if k != key), reverse=True)
        if len(others) >= KSTATE_SETS:  # both sets taken: wait for the older to be freed
            start = max(start, others[KSTATE_SETS - 1] + SAME_KEY_UP)
        steps.append((combo, start))
        now = start + hold
        released[key] = now
        # sets freed long ago play no part any more
        released = {k: t for k, t in released.items() if t + SAME_KEY_UP > now}
    schedule = []
    for (combo, start), nxt in zip(steps, steps[1:] + [((), None)], strict=True):
        next_start = nxt[1] if nxt[1] is not None else start + hold + max(gap, SAME_KEY_UP)
        schedule.append(Press(combo, hold, next_start - start - hold))
    return schedule


def plan_text(text: str, hold: int = HOLD_FRAMES, gap: int = GAP_FRAMES) -> list[Press]:
    """:func:`plan` for text typed in L mode (``"\\n"`` is ENTER; see ``keys_for_text``)."""
    return plan(keys_for_text(text), hold, gap)


def frames_of(schedule: Iterable[Press]) -> int:
    """Frames a schedule takes."""
    return sum(step.hold + step.gap for step in schedule)


class KstateModel:
    """The Sinclair KEYBOARD routine's bookkeeping, one :meth:`interrupt` per frame: which
    presses give a code. Tests check schedules against it (the ROM itself is the real check).

    Codes are not decoded: :meth:`interrupt` returns the KSTATE key that gave one, or None.
    """

    def __init__(self, repdel: int = 35, repper: int = 5):
        self.repdel, self.repper = repdel, repper
        self.sets: list[list] = [[None, 0, 0] for _ in range(KSTATE_SETS)]  # key, count, rep

    def interrupt(self, down: Sequence[str]) -> tuple[str, ...] | None:
        """One frame's interrupt with the combination ``down`` held (empty: no key)."""
        for kset in self.sets:  # every owned set counts down; at 0 it is freed
            if kset[0] is not None:
                kset[1] -= 1
                if kset[1] == 0:
                    kset[0] = None
        if not down:
            return None
        key = kstate_key(down)
        for kset in self.sets:
            if kset[0] == key:  # a repeat: held on, it gives a code after REPDEL, then REPPER
                kset[1] = KSTATE_COUNTDOWN
                kset[2] -= 1
                if kset[2]:
                    return None
                kset[2] = self.repper
                return key
        for kset in reversed(self.sets):  # the 48K tries its second set first
            if kset[0] is None:
                kset[:] = [key, KSTATE_COUNTDOWN, self.repdel]
                return key
        return None  # both sets taken: the key is ignored

    def run(self, schedule: Iterable[Press]) -> list[tuple[str, ...]]:
        """The keys that gave a code, frame by frame through a schedule."""
        codes = []
        for step in schedule:
            for frames, down in ((step.hold, step.keys), (step.gap, ())):
                for _ in range(frames):
                    got = self.interrupt(down)
                    if got is not None:
                        codes.append(got)
        return codes


# -- LOAD "" on any ROM -----------------------------------------------------------------------

#: DELETE (CAPS SHIFT+0): takes back the probe letter on a ROM that spells keywords.
DELETE = (CAPS_SHIFT, "0")
#: The probe: J alone, which a K-mode ROM (the 48K, ours) shows as the keyword LOAD.
LOAD_PROBE: tuple[tuple[str, ...], ...] = (("J",),)
#: Screen rows where the edit line shows after the probe (the lower screen's two lines).
EDIT_ROWS = slice(22, 24)


def shows_keyword(screen_lines: Sequence[str]) -> bool:
    """Whether the probe J came out as the keyword LOAD (a K-mode editor) on the lower screen."""
    return any("LOAD" in line for line in screen_lines[EDIT_ROWS])


def load_rest(screen_lines: Sequence[str]) -> list[Press]:
    """What to type after :data:`LOAD_PROBE` to finish LOAD "" and ENTER, judged from the
    screen it left: ``""`` and ENTER after a keyword; else DELETE and the command spelled."""
    if shows_keyword(screen_lines):
        return plan(LOAD_QUOTED_K_MODE[1:])
    return plan([DELETE, *keys_for_text(LOAD_QUOTED_SPELLED)])
