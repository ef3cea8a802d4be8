"""The window's RZX recordings: one playing (a dropped or opened .rzx) or one being made
(Shift+F9 or the menu), kept apart from the window so that it needs only a few hooks.

While one plays, the runtime's frame driver is a :class:`PlayDriver` (runtime.py's seam):
each frame is the recording's next, and at its end (or out of step) the local driver comes
back and the machine plays on from there. A recording being made follows the machine's
frames itself (``RzxRecorder``). The files open a .rzx through :meth:`WindowRzx.play`, the key
and the menu item call :meth:`WindowRzx.toggle_record`; :meth:`WindowRzx.words` go in the
window's title and :meth:`WindowRzx.close` writes a recording still running. docs/window.md,
"Recording".
"""

from __future__ import annotations

import contextlib
import datetime
import os
from collections.abc import Callable
from pathlib import Path

from zxmonopoly.snapshot.rzx import load_rzx, save_rzx
from zxmonopoly.spectrum import Spectrum48
from zxmonopoly.spectrum.rzx import RzxPlayer, RzxRecorder
from zxmonopoly.ui.runtime import FrameKeys, LocalDriver, Runtime

SUFFIX = ".rzx"
#: What the window's key and menu item say (the key itself is bound in the window).
KEY_NAME = "Shift+F9"


def new_path(directory: Path) -> Path:
    """A new recording's file name in ``directory``: never one that exists."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = directory / f"zxmonopoly-{stamp}{SUFFIX}"
    k = 1
    while path.exists():
        path = directory / f"zxmonopoly-{stamp}-{k}{SUFFIX}"
        k += 1
    return path


class PlayDriver:
    """The runtime's frame driver while a recording plays: each frame is the recording's next
    (its port reads, not the window's keys; the keys are still taken, so that the key feeder
    moves on a frame as ever)."""

    stops_for_menu = True

    def __init__(self, rzx: WindowRzx) -> None:
        self.rzx = rzx

    def run_frame(self, machine: Spectrum48, keys: FrameKeys, wait: float) -> bool:
        """Play the recording's next frame."""
        keys.take()
        self.rzx.play_frame()
        return True

    def lock(self) -> contextlib.AbstractContextManager[object]:
        """Nothing else touches the machine: no lock."""
        return contextlib.nullcontext()


class WindowRzx:
    """At most one RZX recording playing and one being made, for one window's runtime."""

    def __init__(self, note: Callable[[str], None], runtime: Runtime) -> None:
        self.note = note
        self.runtime = runtime
        self.player: RzxPlayer | None = None
        self.recorder: RzxRecorder | None = None
        self.path = Path()  # where the recording being made goes

    def play(self, machine: Spectrum48, path: str | os.PathLike[str]) -> bool:
        """Start playing ``path`` on ``machine`` from its snapshot (the machine takes the
        recording's ROM when its .szx holds one: Fuse's custom ROM); False, and a note, when
        it cannot be read."""
        if self.recorder is not None:
            self.note(f"recording an RZX file: stop it first ({KEY_NAME})")
            return False
        try:
            recording = load_rzx(path)
            rom = recording.start.rom
            if rom is not None and rom != machine.rom:
                machine.rom = bytes(rom)
                machine.memory[:len(rom)] = rom
            self.player = RzxPlayer(recording, machine, os.fspath(path))
        except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
            self.note(f"cannot play {path}: {exc}")
            return False
        if not isinstance(self.runtime.driver, PlayDriver):
            if not isinstance(self.runtime.driver, LocalDriver):  # a network game's
                self.player = None
                self.note("cannot play a recording in a network game")
                return False
            self.runtime.driver = PlayDriver(self)
        self.note(f"playing {Path(path).name}: {len(self.player.frames)} frames")
        return True

    def play_frame(self) -> None:
        """Play the recording's next frame. At its end, or out of step, the local driver
        comes back: the machine plays on from there."""
        player = self.player
        try:
            if player is not None:
                player.play_frame()
        except Exception as exc:  # noqa: BLE001 - a desync is shown, the machine plays on
            self._stop_playing()
            self.note(str(exc))
            return
        if player is None or player.done:
            self._stop_playing()
            if player is not None:
                self.note(f"played all {len(player.frames)} frames of {player.name}")

    def _stop_playing(self) -> None:
        self.player = None
        self.runtime.driver = LocalDriver()

    def toggle_record(self, machine: Spectrum48, directory: Path) -> None:
        """Start recording ``machine`` into a new ``zxmonopoly-DATE-TIME.rzx`` in ``directory``
        (made if need be): a .szx with the ROM, then every frame; or stop and write it."""
        if self.recorder is None:
            if self.player is not None:
                self.note("an RZX recording is playing: record when it ends")
                return
            try:
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                self.note(f"cannot record into {directory}: {exc.strerror or exc}")
                return
            path = new_path(directory)
            self.recorder = RzxRecorder(machine)
            self.path = path
            self.note(f"recording into {path} ({KEY_NAME} stops)")
            return
        recorder, self.recorder = self.recorder, None
        try:
            save_rzx(self.path, recorder.stop())
        except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
            self.note(f"cannot write the recording: {exc}")
            return
        self.note(f"recorded {recorder.frames} frames into {self.path}")

    def words(self) -> list[str]:
        """What the window's title says of it."""
        out = []
        if self.recorder is not None:
            out.append(f"recording RZX ({KEY_NAME} stops)")
        if self.player is not None:
            out.append(f"playing RZX {self.player.frame}/{len(self.player.frames)}")
        return out

    def menu_label(self) -> str:
        """The menu item's words."""
        return f"Record RZX ({KEY_NAME}): {'stop' if self.recorder is not None else 'start'}"

    def close(self, machine: Spectrum48) -> None:
        """The window closes: a recording still running is written."""
        if self.recorder is not None:
            self.toggle_record(machine, self.path.parent)
