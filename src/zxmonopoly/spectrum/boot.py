"""One boot-and-load recipe: the boot's frames, LOAD "" typed as a user of the running ROM
types it, the tape started; then the caller runs until what it waits for (a text:
``Spectrum48.run_until_text``; the game's wait for a key: ``Session.wait_input``).

The window (its autoload, frame by frame on its key feeder), ``Session.game`` and
``Session.load_tape`` (so a script's ``tape`` header) and ``zxmonopoly run`` (``--game``,
``--autoload``) all load a tape through :func:`schedule_load`; the headless ones run it with
:func:`load_quoted` or :func:`boot_and_load`.

``LOAD ""`` is typed as a user would: J first (``keystrokes.LOAD_PROBE``); a K-mode ROM (the
48K, ours) shows the keyword LOAD, and SYMBOL SHIFT+P twice and ENTER follow; a ROM that spells
keywords (OpenSE BASIC) gets DELETE and ``load ""`` letter by letter (``keystrokes.load_rest``,
judged from the screen the probe left).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from . import keystrokes
from .keyfeed import KeyFeed
from .timing import BOOT_FRAMES

if TYPE_CHECKING:
    from .machine import Spectrum48

def insert_tape(machine: Spectrum48, tape: str | os.PathLike[str], *,
                real_load: bool = False) -> None:
    """Put a tape in the deck: fast loading (LD-BYTES trapped) unless ``real_load``."""
    machine.deck.set_fast(not real_load)
    machine.deck.insert(tape)


def schedule_load(feed: KeyFeed, machine: Spectrum48, *, boot_frames: int = 0,
                  real_load: bool = False) -> None:
    """Put the recipe on ``feed``'s script: ``boot_frames`` frames of waiting, the probe J,
    the rest of ``LOAD ""`` and ENTER for what the screen then shows, and PLAY for a real
    load. The machine runs it frame by frame as the feed is advanced."""
    feed.script_wait(boot_frames)
    feed.script_keys(keystrokes.plan(keystrokes.LOAD_PROBE))

    def rest() -> None:
        feed.script_next(keystrokes.load_rest(machine.screen_text()))

    feed.script_call(rest)
    if real_load:
        feed.script_call(machine.deck.play)


def load_quoted(machine: Spectrum48, *, boot_frames: int = 0, real_load: bool = False) -> None:
    """Run :func:`schedule_load` headless: the machine is left where the ROM has taken ENTER
    (and the tape plays, for a real load)."""
    feed = KeyFeed()
    schedule_load(feed, machine, boot_frames=boot_frames, real_load=real_load)
    machine.run_feed(feed)


def boot_and_load(machine: Spectrum48, tape: str | os.PathLike[str], *,
                  boot_frames: int = BOOT_FRAMES, real_load: bool = False) -> None:
    """The whole recipe headless on a machine just powered on: the tape put in, the boot's
    frames, ``LOAD ""`` (and PLAY for a real load)."""
    insert_tape(machine, tape, real_load=real_load)
    load_quoted(machine, boot_frames=boot_frames, real_load=real_load)
