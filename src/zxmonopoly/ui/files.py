"""The window's files: tapes put in the deck and loaded with ``LOAD ""``, snapshots saved and
loaded, RZX recordings opened (played by ui/rzx.py), screenshots.

Names are new each time (``zxmonopoly-YYYYmmdd-HHMMSS.szx``, never one that exists), in the
snapshot directory (the current one unless ``Window(snapshot_dir=...)``). Every failure is a
message for the window to show; play goes on.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable
from pathlib import Path

from zxmonopoly import snapshot as snapshot_formats
from zxmonopoly.spectrum import Spectrum48, boot
from zxmonopoly.spectrum.keyfeed import KeyFeed
from zxmonopoly.spectrum.timing import BOOT_FRAMES
from zxmonopoly.ui.display import WindowError
from zxmonopoly.ui.rzx import SUFFIX as RZX_SUFFIX
from zxmonopoly.ui.rzx import WindowRzx

#: The snapshot formats the machine reads (zxmonopoly.snapshot decides), and the one the menu
#: and F2 save.
SNAPSHOT_SUFFIXES = tuple(snapshot_formats.SUFFIXES)
SAVE_FORMAT = ".szx"
TAPE_SUFFIXES = (".tap", ".tzx")
#: What the menu's Open lists: tapes, snapshots and RZX recordings.
OPEN_SUFFIXES = TAPE_SUFFIXES + SNAPSHOT_SUFFIXES + (RZX_SUFFIX,)


def new_snapshot_path(directory: Path) -> Path:
    """A new snapshot file name in ``directory``: never one that exists."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = directory / f"zxmonopoly-{stamp}{SAVE_FORMAT}"
    k = 1
    while path.exists():
        path = directory / f"zxmonopoly-{stamp}-{k}{SAVE_FORMAT}"
        k += 1
    return path


def kind_of(path: str | os.PathLike[str]) -> str | None:
    """``"tape"``, ``"snapshot"`` or ``"recording"`` (RZX) by the file's suffix; None for
    anything else."""
    suffix = Path(path).suffix.lower()
    if suffix in TAPE_SUFFIXES:
        return "tape"
    if suffix == RZX_SUFFIX:
        return "recording"
    return "snapshot" if suffix in SNAPSHOT_SUFFIXES else None


def running_game_symbols(memory: object) -> Path | None:
    """The bundled game's symbol map when ``memory`` holds its program as the tape loads it
    (the code and tables up to its state block, which the game never writes), else None: a
    snapshot of the game has its record read from it (F8, ``--log``) as a game loaded from
    the tape has."""
    from zxmonopoly import images
    from zxmonopoly.harness.rig import game_code

    try:
        start, code = game_code()
        end = images.game_symbols()["v_state"]
    except (OSError, KeyError):  # (a checkout without its build: no record, as before)
        return None
    if not start < end <= start + len(code):
        return None
    held = bytes(memory[start:end])  # type: ignore[index]
    return images.game_symbols_path() if held == code[:end - start] else None


class Files:
    """Tapes, snapshots and screenshots of one machine, told through ``note``; ``LOAD ""`` is
    typed through the window's key feeder."""

    def __init__(self, machine: Spectrum48, feed: KeyFeed, directory: str | os.PathLike[str],
                 note: Callable[[str], None]) -> None:
        self.machine = machine
        self.feed = feed
        self.directory = Path(directory)
        self.note = note
        self.last_snapshot: Path | None = None

    def insert_tape(self, path: str | os.PathLike[str], real_load: bool = False) -> None:
        """Put a tape in the deck (fast loading unless ``real_load``); WindowError if not."""
        from zxmonopoly.tape import TapeError

        try:
            boot.insert_tape(self.machine, path, real_load=real_load)
        except TapeError as exc:  # its message names the file
            raise WindowError(str(exc)) from None
        except OSError as exc:
            raise WindowError(f"{path}: {exc}") from None

    def autoload(self, real_load: bool = False, boot_frames: int = BOOT_FRAMES) -> None:
        """Type LOAD "" as a user of the running ROM would, after ``boot_frames`` of boot, and
        start the tape for a real load: the one recipe (``boot.schedule_load``) on the feed's
        script, run frame by frame."""
        boot.schedule_load(self.feed, self.machine, boot_frames=boot_frames, real_load=real_load)

    def open_tape(self, path: str | os.PathLike[str]) -> None:
        """A tape opened (dropped, the menu): put in the deck, the machine reset and LOAD ""
        typed; WindowError if it cannot be read (the machine untouched)."""
        self.insert_tape(path)
        self.machine.reset()
        self.feed.clear()
        self.autoload()

    def open_recording(self, path: str | os.PathLike[str], rzx: WindowRzx) -> bool:
        """An RZX recording opened: played from its snapshot (the typing of the machine
        before means nothing now); False, and said, when it cannot be."""
        if not rzx.play(self.machine, path):
            return False
        self.feed.clear()
        return True

    def save_snapshot(self) -> Path | None:
        """Save the machine to a new .szx file (exact, HALT included) in the directory."""
        path = new_snapshot_path(self.directory)
        try:
            self.machine.save_snapshot(path)
        except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
            self.note(f"cannot save the snapshot: {exc}")
            return None
        self.last_snapshot = path
        self.note(f"saved {path}")
        return path

    def load_snapshot(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Load ``path``, else the last snapshot saved or given, else the newest here."""
        path = self.pick_snapshot(path)
        if path is None:
            return False
        try:
            self.machine.load_snapshot(path)
        except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
            self.note(f"cannot load {path}: {exc}")
            return False
        self.feed.clear()  # the LOAD "" or the typing of the machine before means nothing now
        self.last_snapshot = Path(path)
        self.note(f"loaded {path}")
        return True

    def pick_snapshot(self, path: str | os.PathLike[str] | None = None
                      ) -> str | os.PathLike[str] | None:
        """``path``, else the last snapshot saved or given, else the newest here; None (and
        said) when there is none."""
        if path is None:
            path = self.last_snapshot or self.newest_snapshot()
        if path is None:
            self.note(f"no snapshot to load in {self.directory} (F2 saves one)")
        return path

    def newest_snapshot(self) -> Path | None:
        """The newest zxmonopoly-*.szx (or an older .z80) in the directory."""
        found = sorted((p for suffix in (".szx", ".z80")
                        for p in self.directory.glob(f"zxmonopoly-*{suffix}")),
                       key=lambda p: p.stat().st_mtime)
        return found[-1] if found else None

    def save_snapshot_as(self, name: str) -> str | None:
        """Save a snapshot called ``name`` (SAVE_FORMAT added) here; a problem, or None."""
        path = Path(name)
        if path.suffix.lower() not in SNAPSHOT_SUFFIXES:
            path = path.with_name(path.name + SAVE_FORMAT)
        path = self.directory / path.name
        if path.exists():
            return f"{path.name} exists: type another name"
        try:
            self.machine.save_snapshot(path)
        except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
            return f"cannot save: {exc}"
        self.last_snapshot = path
        self.note(f"saved {path}")
        return None

    def save_screenshot(self) -> Path | None:
        """Save the Spectrum's screen (without menu or status) as a new PNG here."""
        path = new_snapshot_path(self.directory).with_suffix(".png")
        try:
            self.machine.screenshot(path)
        except OSError as exc:
            self.note(f"cannot save the screenshot: {exc.strerror or exc}")
            return None
        self.note(f"screenshot {path}")
        return path
