"""The window's machine controls: what the function keys, the menu and the command line do
to the Spectrum (tapes, snapshots, reset, pause, speed, sound, joysticks, recordings, network
play), and the machine's state as the window shows it.

A part of :class:`~zxmonopoly.ui.window.Window` (its base class), apart from the display, the
events and the loop that ``window.py`` keeps. In a network game a control is the host's, done
on every machine at one frame (``netwindow.py``). docs/window.md, "Function keys" and "The
menu".
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from zxmonopoly.spectrum import Spectrum48  # noqa: E402
from zxmonopoly.spectrum.engine import BackgroundJit  # noqa: E402
from zxmonopoly.spectrum.keyfeed import KeyFeed  # noqa: E402
from zxmonopoly.spectrum.timing import BOOT_FRAMES  # noqa: E402
from zxmonopoly.ui import joystick as joysticks  # noqa: E402
from zxmonopoly.ui.audio import AudioOut  # noqa: E402
from zxmonopoly.ui.display import WindowError  # noqa: E402
from zxmonopoly.ui.files import Files, kind_of, running_game_symbols  # noqa: E402
from zxmonopoly.ui.keys import PcKeys  # noqa: E402
from zxmonopoly.ui.runtime import SPEED_NAMES, Runtime  # noqa: E402
from zxmonopoly.ui.rzx import WindowRzx  # noqa: E402

if TYPE_CHECKING:
    from zxmonopoly.harness.record import Recorder
    from zxmonopoly.net.link import NetLink, NetOptions


class MachineControls:
    """The controls of a window's machine. The window sets the parts they work on."""

    machine: Spectrum48
    feed: KeyFeed
    keys: PcKeys
    files: Files
    runtime: Runtime
    rzx: WindowRzx
    #: The network game the window is in (netwindow.py), or None.
    net: NetLink | None
    recorder: Recorder | None
    paused: bool
    status: str
    snapshot_dir: Path
    symbols: Path | None

    # -- what the controls ask of the window ----------------------------------------------

    def note(self, text: str) -> None:
        """Show ``text`` to the user (the window's title, and printed)."""
        raise NotImplementedError

    def apply_keys(self) -> None:
        """Give the machine the window's keys at once."""
        raise NotImplementedError

    def close_menu(self) -> None:
        """Close the menu."""
        raise NotImplementedError

    def _update_title(self) -> None:
        """Show the state in the title bar."""
        raise NotImplementedError

    # -- the machine's state, as the window shows it ----------------------------------------

    @property
    def audio(self) -> AudioOut | None:
        """The sound out (None: silent)."""
        return self.runtime.audio

    @audio.setter
    def audio(self, audio: AudioOut | None) -> None:
        self.runtime.audio = audio

    @property
    def sound(self) -> bool:
        """Whether the sound is on."""
        return self.runtime.sound

    @property
    def speed(self) -> int:
        """Frames a 50 Hz tick (runtime.SPEEDS; 0: as many as fit)."""
        return self.runtime.speed

    @property
    def turbo(self) -> bool:
        """Whether the machine runs as fast as it can (speed max)."""
        return self.runtime.turbo

    @property
    def frames_run(self) -> int:
        """Frames emulated by this window."""
        return self.runtime.frames_run

    @property
    def jit(self) -> BackgroundJit | None:
        """The JIT being got ready in the background (None: none, or taken over)."""
        return self.runtime.jit

    @property
    def joystick_mode(self) -> str:
        """The joystick the Spectrum sees (one of joystick.MODES)."""
        return self.keys.joystick_mode

    @property
    def cursor_joystick(self) -> bool:
        """Whether the PC's arrows and right Ctrl are the joystick."""
        return self.keys.cursor_joystick

    @property
    def last_snapshot(self) -> Path | None:
        """The snapshot last saved or loaded (F3 loads it)."""
        return self.files.last_snapshot

    @last_snapshot.setter
    def last_snapshot(self, path: Path | None) -> None:
        self.files.last_snapshot = path

    # -- the machine ----------------------------------------------------------------------

    def run_frame(self) -> None:
        """Emulate one frame, with the typed keys and the script moving on (runtime.py)."""
        self.runtime.run_frame()

    def autoload(self, real_load: bool = False, boot_frames: int = BOOT_FRAMES) -> None:
        """Type LOAD "" as a user of the running ROM would, after the boot, and start the tape
        (files.py; the feed's script runs it frame by frame)."""
        self.files.autoload(real_load, boot_frames)

    def insert_tape(self, path: str | os.PathLike[str], real_load: bool = False) -> None:
        """Put a tape in the deck (fast loading unless ``real_load``)."""
        self.files.insert_tape(path, real_load)

    def open_file(self, path: str | os.PathLike[str]) -> None:
        """A dropped file: a tape is loaded with LOAD "" after a reset, a snapshot is loaded
        (in a network game: on every machine, the host's only), an RZX recording played."""
        if self.net is not None:
            from zxmonopoly.ui import netwindow

            netwindow.open_file(self, path)
            return
        kind = kind_of(path)
        try:
            if kind == "tape":
                self.files.open_tape(path)
                self.status = ""
                self.note(f"loading {Path(path).name}")
            elif kind == "snapshot":
                self.load_snapshot(path)
            elif kind == "recording":
                self.files.open_recording(path, self.rzx)
            else:
                self.note(f"{Path(path).name}: not a .tap, .tzx, .szx, .z80, .sna or .rzx")
        except WindowError as exc:
            self.note(str(exc))

    def save_snapshot(self) -> Path | None:
        """F2: save the machine to a new .szx file (exact, HALT included) in the snapshot dir."""
        with self.runtime.driver.lock():  # not while a network thread repairs it
            return self.files.save_snapshot()

    def load_snapshot(self, path: str | os.PathLike[str] | None = None) -> bool:
        """F3: load ``path``, else the last snapshot saved or given, else the newest here (in a
        network game: on every machine at one frame, the host's only). A snapshot of the game
        opened in a window that knew no program has its record read (F8, ``--log``)."""
        if self.net is None:
            loaded = self.files.load_snapshot(path)
            if loaded and self.symbols is None:  # (a snapshot of the game: its record goes on)
                self.symbols = running_game_symbols(self.machine.memory)
            return loaded
        from zxmonopoly.ui import netwindow

        chosen = self.files.pick_snapshot(path)
        return chosen is not None and netwindow.load_snapshot(self, chosen)

    def reset(self) -> None:
        """F5: power the Spectrum off and on (in a network game: every machine at one frame,
        the host's only)."""
        if self.net is not None:
            from zxmonopoly.ui import netwindow

            netwindow.reset(self)
            return
        self.machine.reset()
        self.feed.clear()
        self.note("reset")

    def toggle_tape(self) -> None:
        """F6: play or stop the tape."""
        deck = self.machine.deck
        if deck.name is None:
            self.note("no tape in the deck (drop a .tap or .tzx on the window)")
        elif self.net is not None:  # every machine's tape, at one frame
            from zxmonopoly.net.protocol import TAPE_PLAY, TAPE_STOP

            self.note(self.net.tape(TAPE_STOP if deck.playing else TAPE_PLAY))
        elif deck.playing:
            deck.stop()
            self.note("tape stopped")
        else:
            deck.play()
            self.note("tape playing")

    def rewind_tape(self) -> None:
        """Rewind the tape to its start."""
        if self.machine.deck.name is None:
            self.note("no tape in the deck")
            return
        if self.net is not None:
            from zxmonopoly.net.protocol import TAPE_REWIND

            self.note(self.net.tape(TAPE_REWIND))
            return
        self.machine.deck.rewind()
        self.note("tape rewound")

    def toggle_pause(self) -> None:
        """Pause (F7, Pause) or go on (in a network game: every machine stops at one frame,
        the host's only; the window's pause follows the node's)."""
        if self.net is not None:
            self.note(self.net.pause(not self.net.paused))
            return
        self.paused = not self.paused
        if self.audio is not None:
            self.audio.clear()
        self._update_title()

    def set_speed(self, speed: int) -> None:
        """100 %, 200 % or max (0); sound only at 100 % (in a network game: the host's, for
        every machine; max is as fast as the slowest)."""
        if self.net is not None:
            self.note(self.net.set_speed(speed))
            return
        self.runtime.speed = speed
        if self.audio is not None:
            self.audio.clear()
        self.note(f"speed {SPEED_NAMES[speed]}")

    def toggle_turbo(self) -> None:
        """F12: as fast as possible, or back to 100 %."""
        self.set_speed(1 if self.speed == 0 else 0)

    def set_sound(self, on: bool) -> None:
        """Sound on or off (on starts the mixer if the window was started with --mute)."""
        if on and self.audio is None:
            try:
                self.audio = AudioOut()
            except pygame.error as exc:
                self.note(f"no sound ({exc})")
                return
        if on:
            self.machine.set_audio(True)
        elif self.audio is not None:
            self.audio.clear()
        self.runtime.sound = on
        self.note("sound on" if on else "sound off")

    def set_joystick(self, mode: str) -> None:
        """The joystick the Spectrum sees (one of joystick.MODES)."""
        self.keys.set_joystick(mode)
        self.apply_keys()
        self.note(f"joystick: {joysticks.MODE_NAMES[mode]}")

    def toggle_cursor_joystick(self) -> None:
        """The PC's arrows and right Ctrl as the joystick, or as CAPS SHIFT+5..8 and SS."""
        self.keys.toggle_cursor_joystick()
        self.apply_keys()
        self.note("cursor keys: joystick" if self.cursor_joystick else "cursor keys: keys")

    def save_screenshot_file(self) -> Path | None:
        """Save the Spectrum's screen (without menu or status) as a new PNG here."""
        return self.files.save_screenshot()

    def save_snapshot_as(self, name: str) -> str | None:
        """Save a snapshot called ``name`` (files.SAVE_FORMAT added) here; a problem, or None."""
        problem = self.files.save_snapshot_as(name)
        if problem is None:
            self.close_menu()
        return problem

    # -- recordings and network play ------------------------------------------------------

    def record(self) -> None:
        """F9: start recording the keys into a keystroke script, or stop and write it."""
        if self.recorder is None and self.net is not None:
            self.note("recording: not in a network game (the keys are everyone's)")
            return
        if self.recorder is None:
            from zxmonopoly.harness.record import Recorder

            recorder = Recorder(self.machine, self.snapshot_dir, self.symbols)
            try:
                recorder.start()
            except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
                self.note(f"cannot start recording: {exc}")
                return
            self.recorder = self.runtime.recorder = recorder
            self.note(f"recording into {recorder.script_path} (F9 stops)")
        else:
            recorder, self.recorder = self.recorder, None
            self.runtime.recorder = None
            try:
                path = recorder.stop()
            except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
                self.note(f"cannot write the recording: {exc}")
                return
            self.note(f"recorded {recorder.frames} frames into {path}")

    def record_rzx(self) -> None:
        """Shift+F9: start recording an RZX file (``zxmonopoly-DATE-TIME.rzx`` in the snapshot
        directory), or stop and write it."""
        if self.rzx.recorder is None and self.net is not None:
            self.note("recording RZX: not in a network game (the keys are everyone's)")
            return
        self.rzx.toggle_record(self.machine, self.snapshot_dir)

    def host_network(self, options: NetOptions | None = None) -> str | None:
        """Host a network game of this window's machine as ``options`` say (the menu's Host:
        by default on 127.0.0.1 and the default port); the problem (also shown), or None."""
        from zxmonopoly.net.link import net_options
        from zxmonopoly.ui import netwindow

        options = options or net_options(host=True)
        assert options is not None
        problem = netwindow.start(self, options, netwindow.deck_path(self))
        if problem is not None:
            self.note(problem)
        return problem

    def join_network(self, options: NetOptions) -> str | None:
        """Join the network game ``options`` name (the menu's Join); the problem, or None."""
        from zxmonopoly.ui import netwindow

        return netwindow.start(self, options, netwindow.deck_path(self))

    def leave_network(self) -> None:
        """Leave the network game (the host's leaving ends it for everyone)."""
        from zxmonopoly.ui import netwindow

        netwindow.leave(self)
