"""The pygame window: the Spectrum at 50 frames/s with PC keys, sound and function keys.

The window only wires its parts together: the display and title are here; the PC key map and
key handling are ``keys.py``, what the function keys and the menu do to the machine
``controls.py`` (the window's base class), the sound ``audio.py``, tapes and snapshots
``files.py``, the menu ``menu.py``, the frames, pacing and JIT hand-over ``runtime.py``, and
network play ``netwindow.py`` (imported when a game starts). The key map and the function keys are
documented in ``docs/window.md``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from zxmonopoly.spectrum import Spectrum48  # noqa: E402
from zxmonopoly.spectrum.engine import BackgroundJit, requested_engine  # noqa: E402
from zxmonopoly.spectrum.keyfeed import KeyFeed  # noqa: E402
from zxmonopoly.spectrum.timing import CPU_HZ  # noqa: E402
from zxmonopoly.spectrum.video import write_png  # noqa: E402
from zxmonopoly.ui import joystick as joysticks  # noqa: E402
from zxmonopoly.ui.audio import AudioOut  # noqa: E402
from zxmonopoly.ui.controls import MachineControls  # noqa: E402
from zxmonopoly.ui.display import WindowError, check_display  # noqa: E402
from zxmonopoly.ui.files import Files  # noqa: E402
from zxmonopoly.ui.keys import PcKeys  # noqa: E402
from zxmonopoly.ui.menu import Menu, main_page  # noqa: E402
from zxmonopoly.ui.runtime import SPEED_NAMES, Runtime  # noqa: E402
from zxmonopoly.ui.rzx import WindowRzx  # noqa: E402

if TYPE_CHECKING:
    from zxmonopoly.harness.record import Recorder
    from zxmonopoly.net.link import NetLink

TITLE = "zxmonopoly"
MESSAGE_SECONDS = 4.0
STATUS_COLOUR = (255, 255, 255)
STATUS_BACKGROUND = (0, 0, 0, 170)
PAUSED_COLOUR = (255, 255, 0)


class Window(MachineControls):
    """A pygame window that owns a :class:`Spectrum48` and runs it at 50 frames/s."""

    def __init__(self, machine: Spectrum48 | None = None, *, rom: Any = None,
                 engine: str | None = None, scale: int = 2, fullscreen: bool = False,
                 mute: bool = False, snapshot_dir: str | os.PathLike[str] = ".",
                 out: Callable[[str], None] = print,
                 log: str | os.PathLike[str] | None = None) -> None:
        if scale < 1:
            raise WindowError(f"--scale must be 1 or more, not {scale}")
        self.say = out
        self.scale = scale
        self.snapshot_dir = Path(snapshot_dir)
        check_display()
        pygame.font.init()
        pygame.joystick.init()  # pads plugged in send JOYDEVICEADDED; each is opened then
        audio: AudioOut | None = None
        if not mute:
            try:
                audio = AudioOut()
            except pygame.error as exc:
                self.say(f"zxmonopoly: no sound ({exc}); playing on silently")
        # No engine asked for: play on CPython at once and get the JIT ready meanwhile.
        jit: BackgroundJit | None = None
        if machine is None:
            engine = requested_engine(engine)
            if engine is None:
                from importlib.util import find_spec

                engine = "python"
                if find_spec("numba") is not None:  # found, not imported: the thread does that
                    jit = BackgroundJit()
            machine = Spectrum48(rom=rom, engine=engine, audio=audio is not None)
        self.machine = machine
        if audio is not None and not machine.audio:
            audio.close()
            audio = None
        #: The keys of each frame: the visible LOAD "" (script), typed punctuation, the PC keys
        #: and a keyboard joystick held (by PC key, and "joystick").
        self.feed = KeyFeed()
        self.keys = PcKeys(self.feed)
        self.files = Files(machine, self.feed, self.snapshot_dir, self.note)
        self.runtime = Runtime(machine, self.feed, self.keys, self.note, jit)
        self.runtime.audio = audio
        self.runtime.sound = audio is not None
        self.fullscreen = fullscreen
        self.screen = self._open(fullscreen)
        self.frame_surface = pygame.Surface((320, 256), depth=24)
        self.running = True
        self.paused = False
        self.help = False
        self.menu: Menu | None = None
        self.show_status = False
        self.recorder: Recorder | None = None  # (imported when F9 is first pressed)
        #: An RZX recording playing (the runtime's driver then) or being made (Shift+F9).
        self.rzx = WindowRzx(self.note, self.runtime)
        self.symbols: Path | None = None  # the running program's symbol map, for recordings
        from zxmonopoly.ui.eventlog import EventLog

        self.eventlog = EventLog(machine, log, lambda: self.symbols)  # F8: the game's record
        self.status = ""  # a lasting note in the title bar
        self.message = ""
        self.message_until = 0.0
        self._title = ""
        #: The network game this window is in (netwindow.py: its driver runs the frames).
        self.net: NetLink | None = None
        pygame.key.set_repeat()  # no auto-repeat: the Spectrum ROM repeats keys itself
        self._update_title()

    # -- display ----------------------------------------------------------------------------

    def _open(self, fullscreen: bool) -> pygame.Surface:
        """Open (or re-open) the display surface."""
        try:
            if fullscreen:
                return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            return pygame.display.set_mode((320 * self.scale, 256 * self.scale))
        except pygame.error as exc:
            raise WindowError(f"cannot open the window: {exc}") from None

    def toggle_fullscreen(self) -> None:
        """F11: between the window and the full screen."""
        self.fullscreen = not self.fullscreen
        self.screen = self._open(self.fullscreen)

    def _image_rect(self) -> pygame.Rect:
        """Where the Spectrum's picture goes: the largest whole scale that fits, centred."""
        width, height = self.screen.get_size()
        scale = max(1, min(width // 320, height // 256)) if self.fullscreen else self.scale
        rect = pygame.Rect(0, 0, 320 * scale, 256 * scale)
        rect.center = (width // 2, height // 2)
        return rect

    def draw(self) -> None:
        """Blit the last frame, scaled nearest-neighbour, and the help overlay if on."""
        pygame.surfarray.blit_array(self.frame_surface,
                                    self.machine.screen_rgb().transpose(1, 0, 2))
        rect = self._image_rect()
        if self.fullscreen:
            self.screen.fill((0, 0, 0))
        if rect.size == (320, 256):
            self.screen.blit(self.frame_surface, rect)
        else:
            self.screen.blit(pygame.transform.scale(self.frame_surface, rect.size), rect)
        if self.show_status:
            self._draw_status()
        if self.net is not None:
            from zxmonopoly.ui import netwindow

            banner = netwindow.banner(self)
            if banner is not None and self.menu is None:
                self._draw_banner(banner)
        elif self.paused and self.menu is None:
            self._draw_banner("PAUSED (F7 or P goes on)")
        if self.help:
            from zxmonopoly.ui.help import draw_help

            draw_help(self.screen)
        if self.eventlog.shown:
            self.eventlog.draw(self.screen)
        if self.menu is not None:
            self.menu.draw(self.screen)
        self._update_title()
        pygame.display.flip()

    def _font(self, rows: int) -> pygame.font.Font:
        """pygame's default font sized for ``rows`` lines in the window's height."""
        return pygame.font.Font(None, max(12, self.screen.get_height() // rows))

    def _draw_banner(self, text: str) -> None:
        """Text across the top of the window on a dark band, a line each of ``text``'s; a
        line wider than the window in a smaller font (a browser's link)."""
        width = self.screen.get_width()
        labels = []
        for line in text.split("\n"):
            rows = 20
            label = self._font(rows).render(line, True, PAUSED_COLOUR)
            while label.get_width() > width - 8 and rows < 60:
                rows += 4
                label = self._font(rows).render(line, True, PAUSED_COLOUR)
            labels.append(label)
        band = pygame.Surface((width, sum(label.get_height() for label in labels) + 8),
                              pygame.SRCALPHA)
        band.fill(STATUS_BACKGROUND)
        self.screen.blit(band, (0, 0))
        top = 4
        for label in labels:
            self.screen.blit(label, label.get_rect(midtop=(width // 2, top)))
            top += label.get_height()

    def status_text(self) -> str:
        """The status line: frames per second, speed, engine, tape and its position."""
        parts = [f"{self.fps():.0f} fps", SPEED_NAMES[self.speed], self.machine.engine]
        deck = self.machine.deck
        if deck.name is not None:
            block, blocks = deck.block_counter()
            seconds = deck.position() / CPU_HZ
            parts.append(f"tape {Path(deck.name).name} block {block}/{blocks} "
                         f"{int(seconds) // 60}:{seconds % 60:04.1f} "
                         f"{'playing' if deck.playing else 'stopped'}")
        if self.joystick_mode != "none":
            parts.append(f"joystick {joysticks.MODE_NAMES[self.joystick_mode]}")
        return "   ".join(parts)

    def fps(self) -> float:
        """Frames emulated per second over the last two seconds."""
        return self.runtime.fps()

    def _draw_status(self) -> None:
        """The status line along the bottom of the window."""
        label = self._font(24).render(self.status_text(), True, STATUS_COLOUR)
        height = label.get_height() + 6
        band = pygame.Surface((self.screen.get_width(), height), pygame.SRCALPHA)
        band.fill(STATUS_BACKGROUND)
        top = self.screen.get_height() - height
        self.screen.blit(band, (0, top))
        self.screen.blit(label, (6, top + 3))

    def window_rgb(self) -> np.ndarray:
        """The window's pixels as (height, width, 3) uint8."""
        return np.ascontiguousarray(pygame.surfarray.array3d(self.screen).transpose(1, 0, 2))

    def save_screenshot(self, path: str | os.PathLike[str]) -> None:
        """Save the window's pixels as PNG."""
        write_png(path, self.window_rgb())

    def _state(self) -> list[str]:
        """The words of the title that describe what the machine is doing."""
        words = []
        if self.paused:
            words.append("paused")
        if self.speed != 1:
            words.append("turbo" if self.speed == 0 else SPEED_NAMES[self.speed])
        if self.menu is not None:
            words.append("menu: Esc to close")
        if self.feed.scripting or self.machine.deck.playing:
            words.append("loading")
        if self.help:
            words.append("help: F1 to close")
        if self.recorder is not None:
            words.append("recording (F9 stops)")
        return words + self.rzx.words()

    def _update_title(self) -> None:
        """Set the title bar to the state and the latest message."""
        parts = [TITLE, *self._state()]
        if self.status:
            parts.append(self.status)
        if (self.message and time.monotonic() < self.message_until
                and self.message not in self.status):  # the game's end is said once
            parts.append(self.message)
        title = " - ".join(parts)
        if title != self._title:
            pygame.display.set_caption(title)
            self._title = title

    def note(self, text: str) -> None:
        """Show ``text`` in the title for a few seconds and print it."""
        self.message = text
        self.message_until = time.monotonic() + MESSAGE_SECONDS
        self.say(f"zxmonopoly: {text}")
        self._update_title()

    # -- keys -------------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        """React to one pygame event."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            self._key_down(event)
        elif event.type == pygame.KEYUP:
            self.keys.key_up(event)
            self.apply_keys()
        elif event.type == pygame.DROPFILE:
            self.open_file(event.file)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.keys.let_go_all(pads=True)
            self.apply_keys()
        elif self.keys.pads.handle(event):
            self.apply_keys()

    def handle_events(self) -> None:
        """Handle every waiting event."""
        for event in pygame.event.get():
            self.handle_event(event)

    def _key_down(self, event: pygame.event.Event) -> None:
        """A PC key went down: the menu's, a function key, or the Spectrum's (keys.py)."""
        key = event.key
        if self.menu is not None:
            self.menu.key(event)
            return
        if key == pygame.K_ESCAPE:
            self.open_menu()
            return
        if event.mod & pygame.KMOD_SHIFT and key in SHIFT_FUNCTION_KEYS:
            SHIFT_FUNCTION_KEYS[key](self)
            return
        if key in FUNCTION_KEYS:
            FUNCTION_KEYS[key](self)
            return
        if self.eventlog.shown and self.eventlog.key(key):
            return
        if self.paused and key == pygame.K_p:
            self.toggle_pause()
            return
        if self.keys.key_down(event):
            self.apply_keys()

    def apply_keys(self) -> None:
        """Show the keys at once: the local input (keys.py) given to the machine (the runtime's
        driver gives it again before each frame). In a network game the machine is everyone's:
        its input is the merged keys the node gives it."""
        local = self.keys.local_input()
        if self.net is not None:
            return
        self.machine.set_input(local)

    # -- the menu (Esc) ---------------------------------------------------------------------

    def open_menu(self) -> None:
        """Esc: open the menu; the Spectrum stops (its keys are let go) until it closes."""
        self.keys.let_go_all()
        self.apply_keys()
        if self.audio is not None:
            self.audio.clear()
        self.help = False
        self.menu = Menu(main_page(self), self.close_menu)
        self._update_title()

    def close_menu(self) -> None:
        """Close the menu: the Spectrum goes on (unless paused)."""
        self.menu = None
        self._update_title()

    def toggle_status(self) -> None:
        """The status line on or off."""
        self.show_status = not self.show_status

    def toggle_help(self) -> None:
        """F1: show or hide the keyboard picture."""
        self.help = not self.help

    def quit(self) -> None:
        """F10: close the window."""
        self.running = False

    # -- the loop ---------------------------------------------------------------------------

    def step(self, paced: bool = True) -> None:
        """One turn of the loop: events, frame(s) (runtime.py), drawing, pacing. In a network
        game the node's news, pause and speed are taken first, and the menu stops nothing."""
        self.handle_events()
        if not self.running:
            return
        if self.net is not None:
            from zxmonopoly.ui import netwindow

            netwindow.sync(self)
        if not self.paused and (self.menu is None or not self.runtime.driver.stops_for_menu):
            self.runtime.turn()
        self.runtime.check_jit()
        if self.audio is not None:
            self.audio.pump()
        self.draw()
        if paced:
            self.runtime.pace()

    def run(self, max_frames: int | None = None, paced: bool = True) -> None:
        """Run until the window closes (or ``max_frames`` frames have been emulated, or, with
        ``max_frames``, the network game has ended: no more frames will come; or a strict
        network game has failed: :attr:`net_failure`)."""
        while self.running:
            if max_frames is not None and self.frames_run >= max_frames:
                break
            ended = self.net is not None and self.net.ended is not None
            failed = self.net_failure is not None
            self.step(paced)  # (after the end: its lines shown, GAME OVER drawn)
            if failed or (max_frames is not None and ended):
                break

    @property
    def net_failure(self) -> str | None:
        """The desync that failed a ``--strict`` network game (None: none, or no game)."""
        return None if self.net is None else self.net.failure

    def close(self) -> None:
        """Close the window and the sound (a recording still running is written first)."""
        if self.recorder is not None:
            self.record()
        self.rzx.close(self.machine)
        self.eventlog.close()
        if self.net is not None:  # the host's window closing ends the game for everyone
            self.net.close()
            self.net = None
        self.runtime.cancel_jit()
        if self.audio is not None:
            self.audio.close()
            self.audio = None
        pygame.display.quit()


#: Function keys -> what they do.
FUNCTION_KEYS: dict[int, Callable[[Window], Any]] = {
    pygame.K_F1: Window.toggle_help,
    pygame.K_F2: Window.save_snapshot,
    pygame.K_F3: Window.load_snapshot,
    pygame.K_F5: Window.reset,
    pygame.K_F8: lambda window: window.eventlog.toggle(),
    pygame.K_F6: Window.toggle_tape,
    pygame.K_F7: Window.toggle_pause,
    pygame.K_PAUSE: Window.toggle_pause,
    pygame.K_F9: Window.record,
    pygame.K_F10: Window.quit,
    pygame.K_F11: Window.toggle_fullscreen,
    pygame.K_F12: Window.toggle_turbo,
}
#: Function keys with Shift -> what they do (F9 records keys, Shift+F9 an RZX file).
SHIFT_FUNCTION_KEYS: dict[int, Callable[[Window], Any]] = {
    pygame.K_F9: Window.record_rzx,
}

