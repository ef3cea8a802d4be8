"""A headless run, as ``zxmonopoly run`` makes it: a machine booted (or a snapshot, a tape, the
bundled game), frames run, text typed, a wait for text; or an RZX recording played; then one
output tail (the screen as text, a screenshot, a snapshot).

The steps are the library's (``spectrum.boot``, the machine, ``spectrum.rzx``); this module
orders them for the command line, which only checks its options and reports
(``zxmonopoly.cli``). What goes wrong in a step raises its package's root error
(``SpectrumError``, ``SnapshotError``, ``TapeError``, ``Z80Error``; ``OSError`` for a file
written); what the run finds (a tape still loading, text that did not appear, a recording out
of step) is said through ``say`` (standard error, each line a message) and makes the status 1.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

from zxmonopoly.spectrum import Spectrum48

#: Each of the run's messages (without the ``zxmonopoly: `` the command puts first).
Say = Callable[[str], None]
#: Frames a run gives when none are asked for.
DEFAULT_FRAMES = 100
PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class Run:
    """What a headless run does (``zxmonopoly run``'s options)."""

    rom: PathLike | None = None
    engine: str | None = None
    frames: int = DEFAULT_FRAMES
    snapshot: PathLike | None = None
    tape: PathLike | None = None
    #: The bundled game: booted, ``LOAD ""`` typed, then ``frames`` of the game.
    game: bool = False
    #: ``LOAD ""`` typed after ``frames`` of the boot (the tape's load is then run too).
    autoload: bool = False
    real_load: bool = False
    #: Text typed after the frames (``\n``: ENTER).
    type: str | None = None
    until_text: str | None = None
    #: The budget of the tape's load and of the wait for ``until_text``.
    max_frames: int = 500

    def most_frames(self) -> int:
        """The most frames the run can take (for the engine's choice)."""
        from zxmonopoly.spectrum.keyboard import KeyboardError, keys_for_text
        from zxmonopoly.spectrum.timing import BOOT_FRAMES

        frames = self.frames
        if self.until_text is not None:
            frames += self.max_frames
        if self.game or self.autoload:
            frames += BOOT_FRAMES + 4 * 6  # the boot, then LOAD "" typed (6 frames a key)
        if self.type:
            try:
                frames += 6 * len(keys_for_text(self.type))
            except KeyboardError:  # reported when it is typed
                frames += 6 * len(self.type)
        return frames


@dataclass(frozen=True)
class Outputs:
    """What a run leaves behind: the screen as text (always after a failure), a PNG of the
    screen, a snapshot."""

    screen_text: bool = False
    screenshot: PathLike | None = None
    save_snapshot: PathLike | None = None


def machine_engine(engine: str | None, frames: int | None) -> str:
    """The headless machine's engine (the rule: zxmonopoly.spectrum.engine, docs/spectrum.md;
    a bad ZXMONOPOLY_ENGINE raises Z80Error)."""
    from zxmonopoly.spectrum.engine import choose_machine_engine

    return choose_machine_engine(engine, frames)


def run(options: Run, say: Say) -> tuple[Spectrum48, int]:
    """The run's steps on a new machine; the machine and the status (0, or 1 when the tape
    was still loading or the text did not appear)."""
    from zxmonopoly.spectrum import boot
    from zxmonopoly.spectrum.timing import BOOT_FRAMES

    machine = Spectrum48(rom=options.rom,
                         engine=machine_engine(options.engine, options.most_frames()))
    if options.snapshot:
        machine.load_snapshot(options.snapshot)
    if options.tape:
        boot.insert_tape(machine, options.tape, real_load=options.real_load)
        if not options.game:  # what tape info warns of (no blocks, a bad checksum, ...)
            from zxmonopoly.tape.image import printable

            for warning in machine.deck.warnings:
                say(f"warning: {printable(str(warning))}")
        if options.real_load and not options.autoload:
            machine.deck.play()
    if options.game:  # the recipe: boot, LOAD "" as a user types it; then the game's frames
        boot.load_quoted(machine, boot_frames=BOOT_FRAMES, real_load=options.real_load)
    machine.run_frames(options.frames)
    status = 0
    if options.tape and options.autoload and not options.game:  # LOAD "" after the boot
        boot.load_quoted(machine, real_load=options.real_load)
        if options.until_text is None:
            # Run the load itself (max_frames is its budget), so that what follows (the
            # screen, a screenshot) sees the loaded program.
            if not machine.run_until(condition=lambda m: m.deck.finished,
                                     max_frames=options.max_frames):
                say(f"the tape was still loading after {options.max_frames} frames "
                    "(--max-frames)")
                status = 1
    if options.type:
        machine.type_text(options.type)
    if options.until_text is not None:
        if not machine.run_until_text(options.until_text, max_frames=options.max_frames):
            say(f"{options.until_text!r} did not appear within {options.max_frames} frames")
            status = 1
    return machine, status


def play_rzx(path: PathLike, say: Say, *, rom: PathLike | None = None,
             engine: str | None = None, frames: int | None = None) -> tuple[Spectrum48, int]:
    """Play an RZX recording (its first ``frames``; None: all), checking the machine against
    its snapshots on the way and at its end; the machine and the status (1: out of step)."""
    from zxmonopoly.snapshot.rzx import load_rzx
    from zxmonopoly.spectrum.rzx import RzxDesync, RzxPlayer, closing_differences, machine_for

    status = 0
    recording = load_rzx(path)
    total = len(recording.frames)
    frames = total if frames is None else min(frames, total)
    machine = machine_for(recording, rom, machine_engine(engine, frames))
    player = RzxPlayer(recording, machine, str(path))
    for note in recording.notes:
        say(f"{path}: {note}")
    try:
        player.play(frames)
    except RzxDesync as exc:
        say(str(exc))
        status = 1
    say(f"played {player.frame:,} of {total:,} frames of {path}")
    for frame, differences in player.bookmark_differences[:1]:
        say(f"{path}: before frame {frame:,} the machine differs from the recording's "
            f"snapshot there: {'; '.join(differences)}")
        status = 1
    if player.bookmarks_checked and not player.bookmark_differences:
        say(f"the machine equalled the recording's {player.bookmarks_checked:,} snapshots on "
            "the way (registers and RAM)")
    if player.done and player.closing is not None and not status:
        player.settle()
        differences = closing_differences(machine, player.closing.snapshot)
        if differences:
            say(f"{path}: the machine differs from the recording's closing snapshot: "
                f"{'; '.join(differences)}")
        else:
            say("the machine equals the recording's closing snapshot (registers and RAM)")
    return machine, status


def write_outputs(machine: Spectrum48, outputs: Outputs, status: int,
                  out: Callable[[str], object] = print) -> None:
    """The run's one output tail: the screen as text through ``out`` when asked or when the
    run failed, then the screenshot and the snapshot asked for."""
    if outputs.screen_text or status:
        out("\n".join(machine.screen_text()))
    if outputs.screenshot:
        machine.screenshot(outputs.screenshot)
    if outputs.save_snapshot:
        machine.save_snapshot(outputs.save_snapshot)


def report_saves(machine: Spectrum48, say: Say) -> None:
    """Say which of the program's SAVEs were not written to a TAP file, and why."""
    deck = machine.deck
    for problem in deck.problems:
        say(str(problem))
    if deck.problems_dropped:
        say(f"... and {deck.problems_dropped} more SAVE(s) not written")
    if deck.saved:
        say(f"{len(deck.saved)} block(s) saved to {deck.save_path}")


def say_on_stderr(text: str) -> None:
    """A run's message as the command prints it."""
    print(f"zxmonopoly: {text}", file=sys.stderr)


__all__ = ["DEFAULT_FRAMES", "Outputs", "Run", "machine_engine", "play_rzx", "report_saves",
           "run", "say_on_stderr", "write_outputs"]
