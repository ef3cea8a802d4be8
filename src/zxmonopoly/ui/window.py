"""The pygame window: the Spectrum at 50 frames/s with PC keys, sound and function keys.

The key map and the function keys are documented in ``docs/window.md``.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from zxmonopoly import snapshot as snapshot_formats  # noqa: E402
from zxmonopoly.spectrum import Spectrum48, keystrokes  # noqa: E402
from zxmonopoly.spectrum.engine import BackgroundJit, requested_engine  # noqa: E402
from zxmonopoly.spectrum.keyboard import (  # noqa: E402
    CAPS_SHIFT,
    SYMBOL_SHIFT,
    SYMBOL_SHIFT_KEYS,
    Combo,
    resolve,
)
from zxmonopoly.spectrum.keyfeed import KeyFeed  # noqa: E402
from zxmonopoly.spectrum.timing import (  # noqa: E402
    AUDIO_RATE,
    AUDIO_SAMPLES_PER_FRAME,
    BOOT_FRAMES,
    CPU_HZ,
    HOST_FRAMES_PER_SECOND,
)
from zxmonopoly.spectrum.video import write_png  # noqa: E402
from zxmonopoly.ui import joystick as joysticks  # noqa: E402
from zxmonopoly.ui.display import WindowError, check_display  # noqa: E402
from zxmonopoly.ui.menu import FilePage, Item, Menu, NamePage, Page  # noqa: E402

if TYPE_CHECKING:
    from zxmonopoly.harness.record import Recorder

AUDIO_CHUNK = 2 * AUDIO_SAMPLES_PER_FRAME  # one mixer Sound: 40 ms
AUDIO_MAX_PENDING = 6 * AUDIO_SAMPLES_PER_FRAME  # more waiting than this: the oldest is dropped
AUDIO_AHEAD = 3 * AUDIO_SAMPLES_PER_FRAME  # more waiting than this: the emulation waits for it
TYPED_HOLD = 4  # frames a typed punctuation combination is held
TYPED_GAP = 2  # frames of nothing after it
TITLE = "zxmonopoly"
#: The snapshot formats the machine reads (zxmonopoly.snapshot decides), and the one the menu
#: and F2 save.
SNAPSHOT_SUFFIXES = tuple(snapshot_formats.SUFFIXES)
SAVE_FORMAT = ".szx"
TAPE_SUFFIXES = (".tap", ".tzx")
MESSAGE_SECONDS = 4.0
MAX_LAG = 0.1  # seconds the silent schedule may fall behind and still catch up
#: The speeds the menu offers: frames emulated per 50 Hz tick (0: as many as fit, no sound).
SPEEDS = (1, 2, 0)
SPEED_NAMES = {1: "100 %", 2: "200 %", 0: "max"}
STATUS_COLOUR = (255, 255, 255)
STATUS_BACKGROUND = (0, 0, 0, 170)
PAUSED_COLOUR = (255, 255, 0)

#: PC keys held down -> the Spectrum keys they hold (letters and digits are added below).
_HELD_KEY_NAMES: dict[int, tuple[str, ...]] = {
    pygame.K_RETURN: ("ENTER",),
    pygame.K_KP_ENTER: ("ENTER",),
    pygame.K_SPACE: ("SPACE",),
    pygame.K_LSHIFT: (CAPS_SHIFT,),
    pygame.K_RSHIFT: (CAPS_SHIFT,),
    pygame.K_LCTRL: (SYMBOL_SHIFT,),
    pygame.K_RCTRL: (SYMBOL_SHIFT,),
    pygame.K_LALT: (SYMBOL_SHIFT,),
    pygame.K_RALT: (SYMBOL_SHIFT,),
    pygame.K_BACKSPACE: (CAPS_SHIFT, "0"),
    pygame.K_LEFT: (CAPS_SHIFT, "5"),
    pygame.K_DOWN: (CAPS_SHIFT, "6"),
    pygame.K_UP: (CAPS_SHIFT, "7"),
    pygame.K_RIGHT: (CAPS_SHIFT, "8"),
}
for _c in "abcdefghijklmnopqrstuvwxyz0123456789":
    _HELD_KEY_NAMES[getattr(pygame, f"K_{_c}")] = (_c.upper(),)
for _d in range(10):
    _HELD_KEY_NAMES[getattr(pygame, f"K_KP{_d}")] = (str(_d),)
#: The same, resolved once to the matrix's (half-row, mask) pairs.
HELD_KEYS: dict[int, Combo] = {key: resolve(names) for key, names in _HELD_KEY_NAMES.items()}

#: Frames the window runs before it starts getting the JIT ready (the boot is on screen first;
#: it also waits until LOAD "" has been typed).
JIT_START_FRAMES = 10


@contextlib.contextmanager
def _native_stderr_silenced():  # noqa: ANN202 - a context manager
    """File descriptor 2 to /dev/null meanwhile: with no sound device, ALSA's C library prints
    a dozen "ALSA lib ..." lines there before pygame raises the one error we report."""
    try:
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        yield
        return
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


class AudioOut:
    """The beeper through pygame.mixer: 44,100 Hz mono int16, a short queue of Sounds."""

    def __init__(self) -> None:
        with _native_stderr_silenced():
            pygame.mixer.init(frequency=AUDIO_RATE, size=-16, channels=1, buffer=512,
                              allowedchanges=0)
        self.channel = pygame.mixer.Channel(0)
        self.pending = np.zeros(0, dtype=np.int16)
        self.dropped = 0
        self.underruns = 0
        self.handed = 0  # samples given to the mixer: what a test can count, however fast it plays

    def feed(self, samples: np.ndarray) -> None:
        """Add a frame's samples and hand whole chunks to the mixer."""
        if samples.size:
            self.pending = np.concatenate((self.pending, samples.astype(np.int16, copy=False)))
        extra = self.pending.size - AUDIO_MAX_PENDING
        if extra > 0:
            self.pending = self.pending[extra:]
            self.dropped += extra
        self.pump()

    def pump(self) -> None:
        """Keep one Sound playing and one queued."""
        while self.channel.get_queue() is None:
            busy = self.channel.get_busy()
            if self.pending.size < AUDIO_CHUNK and (busy or self.pending.size == 0):
                if not busy:
                    self.underruns += 1
                return
            chunk, self.pending = self.pending[:AUDIO_CHUNK], self.pending[AUDIO_CHUNK:]
            sound = pygame.mixer.Sound(buffer=chunk.tobytes())
            self.handed += int(chunk.size)
            if busy:
                self.channel.queue(sound)
            else:
                self.channel.play(sound)

    def backlog(self) -> int:
        """Samples made but not yet handed to the mixer."""
        return int(self.pending.size)

    def clear(self) -> None:
        """Forget the waiting samples (turbo, pause)."""
        self.pending = np.zeros(0, dtype=np.int16)

    def close(self) -> None:
        """Stop the mixer."""
        pygame.mixer.quit()


def _new_snapshot_path(directory: Path) -> Path:
    """A new snapshot file name in ``directory``: never one that exists."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = directory / f"zxmonopoly-{stamp}{SAVE_FORMAT}"
    k = 1
    while path.exists():
        path = directory / f"zxmonopoly-{stamp}-{k}{SAVE_FORMAT}"
        k += 1
    return path


class Window:
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
        self.audio: AudioOut | None = None
        if not mute:
            try:
                self.audio = AudioOut()
            except pygame.error as exc:
                self.say(f"zxmonopoly: no sound ({exc}); playing on silently")
        # No engine asked for: play on CPython at once and get the JIT ready meanwhile.
        self.jit: BackgroundJit | None = None
        if machine is None:
            engine = requested_engine(engine)
            if engine is None:
                from importlib.util import find_spec

                engine = "python"
                if find_spec("numba") is not None:  # found, not imported: the thread does that
                    self.jit = BackgroundJit()
            machine = Spectrum48(rom=rom, engine=engine, audio=self.audio is not None)
        self.machine = machine
        if self.audio is not None and not machine.audio:
            self.audio.close()
            self.audio = None
        self.fullscreen = fullscreen
        self.screen = self._open(fullscreen)
        self.frame_surface = pygame.Surface((320, 256), depth=24)
        self.clock = pygame.time.Clock()
        self.running = True
        self.paused = False
        self.speed = 1  # one of SPEEDS
        self.sound = self.audio is not None
        self.help = False
        self.menu: Menu | None = None
        self.show_status = False
        self.joystick_mode = "none"
        self.cursor_joystick = False  # the PC's arrows (and right Ctrl) as the joystick
        self.pads = joysticks.PadInput()
        #: When the recent frames were run (two seconds of them).
        self._fps_frames: deque[float] = deque(maxlen=2 * HOST_FRAMES_PER_SECOND)
        self.frames_run = 0  # frames emulated by this window
        #: The keys of each frame: the visible LOAD "" (script), typed punctuation, the PC keys
        #: and a keyboard joystick held (by PC key, and "joystick").
        self.feed = KeyFeed()
        self.consumed: set[int] = set()  # PC keys whose press was typed as a character
        self.last_snapshot: Path | None = None
        self.recorder: Recorder | None = None  # (imported when F9 is first pressed)
        self.symbols: Path | None = None  # the running program's symbol map, for recordings
        from zxmonopoly.ui.eventlog import EventLog

        self.eventlog = EventLog(machine, log, lambda: self.symbols)  # F8: the game's record
        self.status = ""  # a lasting note in the title bar
        self.message = ""
        self.message_until = 0.0
        self._title = ""
        self._audio_waits = 0
        self._jit_told = False
        self._deadline: float | None = None  # the next tick of the silent 50 Hz schedule
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
        if self.paused and self.menu is None:
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
        """A line of text across the top of the window, on a dark band."""
        label = self._font(20).render(text, True, PAUSED_COLOUR)
        band = pygame.Surface((self.screen.get_width(), label.get_height() + 8), pygame.SRCALPHA)
        band.fill(STATUS_BACKGROUND)
        self.screen.blit(band, (0, 0))
        self.screen.blit(label, label.get_rect(midtop=(self.screen.get_width() // 2, 4)))

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
        times = self._fps_frames
        if len(times) < 2:
            return 0.0
        span = times[-1] - times[0]
        return (len(times) - 1) / span if span > 0 else 0.0

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
        return words

    def _update_title(self) -> None:
        """Set the title bar to the state and the latest message."""
        parts = [TITLE, *self._state()]
        if self.status:
            parts.append(self.status)
        if self.message and time.monotonic() < self.message_until:
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
            self.feed.let_go(event.key)
            self.consumed.discard(event.key)
            if event.key in joysticks.PC_DIRECTION_KEYS:
                self.pads.keys.discard(joysticks.PC_DIRECTION_KEYS[event.key])
            self.apply_keys()
        elif event.type == pygame.DROPFILE:
            self.open_file(event.file)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.feed.let_go_all()
            self.pads.forget()
            self.apply_keys()
        elif self.pads.handle(event):
            self.apply_keys()

    def handle_events(self) -> None:
        """Handle every waiting event."""
        for event in pygame.event.get():
            self.handle_event(event)

    def _key_down(self, event: pygame.event.Event) -> None:
        """A PC key went down: a function key, a Spectrum key, or a typed character."""
        key = event.key
        if self.menu is not None:
            self.menu.key(event)
            return
        if key == pygame.K_ESCAPE:
            self.open_menu()
            return
        if self.cursor_joystick and key in joysticks.PC_DIRECTION_KEYS:
            self.pads.keys.add(joysticks.PC_DIRECTION_KEYS[key])
            self.consumed.add(key)
            self.apply_keys()
            return
        if key in FUNCTION_KEYS:
            FUNCTION_KEYS[key](self)
            return
        if self.eventlog.shown and self.eventlog.key(key):
            return
        if self.paused and key == pygame.K_p:
            self.toggle_pause()
            return
        char = getattr(event, "unicode", "") or ""
        if key not in HELD_KEYS and char in SYMBOL_SHIFT_KEYS:
            self.type_character(char)
            self.consumed.add(key)
            return
        if key in HELD_KEYS:
            self.feed.hold(key, HELD_KEYS[key])
            self.apply_keys()

    def type_character(self, char: str) -> None:
        """Type a punctuation character as its SYMBOL SHIFT combination, over a few frames
        (left up long enough after it for the same one to follow: ``keystrokes.plan``)."""
        self.feed.type(keystrokes.plan([(SYMBOL_SHIFT, SYMBOL_SHIFT_KEYS[char])], TYPED_HOLD,
                                       TYPED_GAP))
        self.apply_keys()

    def apply_keys(self) -> None:
        """Set the matrix from the key feed (a scripted or typed combination alone, else the
        keys held down) and the Kempston port from the pads."""
        pads = self.pads.held()
        stick = joysticks.spectrum_combo(self.joystick_mode, pads)
        if stick:
            self.feed.hold("joystick", stick)
        else:
            self.feed.let_go("joystick")
        self.feed.write(self.machine.keyboard.rows)
        self.machine.joystick.state[0] = joysticks.kempston_value(self.joystick_mode, pads)

    # -- the machine ------------------------------------------------------------------------

    def run_frame(self) -> None:
        """Emulate one frame, with the typed keys and the script moving on."""
        self.feed.begin_frame()
        self.apply_keys()
        held = self.machine.keyboard.pressed() if self.recorder is not None else []
        self.machine.run_frames(1)
        self.frames_run += 1
        self._fps_frames.append(time.monotonic())
        if self.recorder is not None:
            self.recorder.frame(held)
        self.feed.advance()
        if self.machine.audio:
            samples = self.machine.take_audio()
            if self.audio is not None and self.sound and self.speed == 1:
                self.audio.feed(samples)

    def autoload(self, real_load: bool = False, boot_frames: int = BOOT_FRAMES) -> None:
        """Type LOAD "" as a user of the running ROM would, after the boot, and start the tape:
        the one recipe (``boot.schedule_load``), run frame by frame on the window's feeder."""
        from zxmonopoly.spectrum import boot

        boot.schedule_load(self.feed, self.machine, boot_frames=boot_frames, real_load=real_load)

    def insert_tape(self, path: str | os.PathLike[str], real_load: bool = False) -> None:
        """Put a tape in the deck (fast loading unless ``real_load``)."""
        from zxmonopoly.tape import TapeError

        try:
            self.machine.deck.set_fast(not real_load)
            self.machine.deck.insert(path)
        except TapeError as exc:  # its message names the file
            raise WindowError(str(exc)) from None
        except OSError as exc:
            raise WindowError(f"{path}: {exc}") from None

    def open_file(self, path: str | os.PathLike[str]) -> None:
        """A dropped file: a tape is loaded with LOAD "" after a reset, a snapshot is loaded."""
        suffix = Path(path).suffix.lower()
        try:
            if suffix in TAPE_SUFFIXES:
                self.insert_tape(path)
                self.machine.reset()
                self.feed.clear()
                self.autoload()
                self.status = ""
                self.note(f"loading {Path(path).name}")
            elif suffix in SNAPSHOT_SUFFIXES:
                self.load_snapshot(path)
            else:
                self.note(f"{Path(path).name}: not a .tap, .tzx, .szx, .z80 or .sna")
        except WindowError as exc:
            self.note(str(exc))

    def save_snapshot(self) -> Path | None:
        """F2: save the machine to a new .szx file (exact, HALT included) in the snapshot dir."""
        path = _new_snapshot_path(self.snapshot_dir)
        try:
            self.machine.save_snapshot(path)
        except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
            self.note(f"cannot save the snapshot: {exc}")
            return None
        self.last_snapshot = path
        self.note(f"saved {path}")
        return path

    def load_snapshot(self, path: str | os.PathLike[str] | None = None) -> bool:
        """F3: load ``path``, else the last snapshot saved or given, else the newest here."""
        if path is None:
            path = self.last_snapshot or self._newest_snapshot()
        if path is None:
            self.note(f"no snapshot to load in {self.snapshot_dir} (F2 saves one)")
            return False
        try:
            self.machine.load_snapshot(path)
        except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
            self.note(f"cannot load {path}: {exc}")
            return False
        self.feed.clear()
        self.last_snapshot = Path(path)
        self.note(f"loaded {path}")
        return True

    def _newest_snapshot(self) -> Path | None:
        """The newest zxmonopoly-*.szx (or an older .z80) in the snapshot directory."""
        found = sorted((p for suffix in (".szx", ".z80")
                        for p in self.snapshot_dir.glob(f"zxmonopoly-*{suffix}")),
                       key=lambda p: p.stat().st_mtime)
        return found[-1] if found else None

    def reset(self) -> None:
        """F5: power the Spectrum off and on."""
        self.machine.reset()
        self.feed.clear()
        self.note("reset")

    def toggle_tape(self) -> None:
        """F6: play or stop the tape."""
        deck = self.machine.deck
        if deck.name is None:
            self.note("no tape in the deck (drop a .tap or .tzx on the window)")
        elif deck.playing:
            deck.stop()
            self.note("tape stopped")
        else:
            deck.play()
            self.note("tape playing")

    def toggle_pause(self) -> None:
        """Pause (F7, Pause) or go on."""
        self.paused = not self.paused
        if self.audio is not None:
            self.audio.clear()
        self._update_title()

    @property
    def turbo(self) -> bool:
        """Whether the machine runs as fast as it can (speed max)."""
        return self.speed == 0

    def set_speed(self, speed: int) -> None:
        """100 %, 200 % or max (0); sound only at 100 %."""
        self.speed = speed
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
        self.sound = on
        self.note("sound on" if on else "sound off")

    def set_joystick(self, mode: str) -> None:
        """The joystick the Spectrum sees (one of joystick.MODES)."""
        self.joystick_mode = mode
        self.apply_keys()
        self.note(f"joystick: {joysticks.MODE_NAMES[mode]}")

    def save_screenshot_file(self) -> Path | None:
        """Save the Spectrum's screen (without menu or status) as a new PNG here."""
        path = _new_snapshot_path(self.snapshot_dir).with_suffix(".png")
        try:
            self.machine.screenshot(path)
        except OSError as exc:
            self.note(f"cannot save the screenshot: {exc.strerror or exc}")
            return None
        self.note(f"screenshot {path}")
        return path

    def save_snapshot_as(self, name: str) -> str | None:
        """Save a snapshot called ``name`` (SAVE_FORMAT added) here; a problem, or None."""
        path = Path(name)
        if path.suffix.lower() not in SNAPSHOT_SUFFIXES:
            path = path.with_name(path.name + SAVE_FORMAT)
        path = self.snapshot_dir / path.name
        if path.exists():
            return f"{path.name} exists: type another name"
        try:
            self.machine.save_snapshot(path)
        except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
            return f"cannot save: {exc}"
        self.last_snapshot = path
        self.note(f"saved {path}")
        self.close_menu()
        return None

    # -- the menu (Esc) ---------------------------------------------------------------------

    def open_menu(self) -> None:
        """Esc: open the menu; the Spectrum stops (its keys are let go) until it closes."""
        self.feed.let_go_all()
        self.pads.keys.clear()
        self.apply_keys()
        if self.audio is not None:
            self.audio.clear()
        self.help = False
        self.menu = Menu(self._main_page(), self.close_menu)
        self._update_title()

    def close_menu(self) -> None:
        """Close the menu: the Spectrum goes on (unless paused)."""
        self.menu = None
        self._update_title()

    def _main_page(self) -> Page:
        """The menu's items (docs/window.md, "The menu")."""
        deck = self.machine.deck

        def tape_label() -> str:
            if deck.name is None:
                return "Tape: (none; Open puts one in)"
            block, blocks = deck.block_counter()
            return (f"Tape: {'stop' if deck.playing else 'play'}   {Path(deck.name).name} "
                    f"block {block}/{blocks}")

        def cycle(values: tuple, now: object, step: int) -> object:
            return values[(values.index(now) + step) % len(values)]

        def then_close(action: Callable[[], Any]) -> Callable[[], None]:
            def run() -> None:
                self.close_menu()
                action()
            return run

        items = [
            Item(lambda: "Open a tape or snapshot...", lambda: self.menu and self.menu.open(
                FilePage("Open a tape or snapshot", self.snapshot_dir,
                         TAPE_SUFFIXES + SNAPSHOT_SUFFIXES,
                         lambda path: then_close(lambda: self.open_file(path))()))),
            Item(tape_label, self.toggle_tape),
            Item(lambda: "Tape: rewind", self.rewind_tape),
            Item(lambda: "Save snapshot as...", lambda: self.menu and self.menu.open(
                NamePage(f"Save a snapshot in {self.snapshot_dir.resolve()} as",
                         _new_snapshot_path(self.snapshot_dir).stem, self.save_snapshot_as))),
            Item(lambda: "Load snapshot...", lambda: self.menu and self.menu.open(
                FilePage("Load a snapshot", self.snapshot_dir, SNAPSHOT_SUFFIXES,
                         lambda path: then_close(lambda: self.load_snapshot(path))()))),
            Item(lambda: "Reset", then_close(self.reset)),
            Item(lambda: f"Pause: {'on' if self.paused else 'off'}", self.toggle_pause),
            Item(lambda: f"Speed: {SPEED_NAMES[self.speed]}", None,
                 lambda step: self.set_speed(cycle(SPEEDS, self.speed, step))),
            Item(lambda: f"Sound: {'on' if self.sound else 'off'}",
                 lambda: self.set_sound(not self.sound)),
            Item(lambda: f"Joystick: {joysticks.MODE_NAMES[self.joystick_mode]}", None,
                 lambda step: self.set_joystick(cycle(joysticks.MODES, self.joystick_mode,
                                                      step))),
            Item(lambda: "PC cursor keys as the joystick (right Ctrl fires): "
                 f"{'on' if self.cursor_joystick else 'off'}", self.toggle_cursor_joystick),
            Item(lambda: f"Status line: {'on' if self.show_status else 'off'}",
                 self.toggle_status),
            Item(lambda: "Screenshot", then_close(self.save_screenshot_file)),
            Item(lambda: f"Record of the game (F8): {'shown' if self.eventlog.shown else 'hidden'}",
                 then_close(self.eventlog.toggle)),
            Item(lambda: "Quit", self.quit),
        ]
        return Page("zxmonopoly", items)

    def rewind_tape(self) -> None:
        """Rewind the tape to its start."""
        if self.machine.deck.name is None:
            self.note("no tape in the deck")
            return
        self.machine.deck.rewind()
        self.note("tape rewound")

    def toggle_cursor_joystick(self) -> None:
        """The PC's arrows and right Ctrl as the joystick, or as CAPS SHIFT+5..8 and SS."""
        self.cursor_joystick = not self.cursor_joystick
        self.pads.keys.clear()
        self.apply_keys()
        self.note("cursor keys: joystick" if self.cursor_joystick else "cursor keys: keys")

    def toggle_status(self) -> None:
        """The status line on or off."""
        self.show_status = not self.show_status

    def toggle_help(self) -> None:
        """F1: show or hide the keyboard picture."""
        self.help = not self.help

    def record(self) -> None:
        """F9: start recording the keys into a keystroke script, or stop and write it."""
        if self.recorder is None:
            from zxmonopoly.harness.record import Recorder

            recorder = Recorder(self.machine, self.snapshot_dir, self.symbols)
            try:
                recorder.start()
            except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
                self.note(f"cannot start recording: {exc}")
                return
            self.recorder = recorder
            self.note(f"recording into {recorder.script_path} (F9 stops)")
        else:
            recorder, self.recorder = self.recorder, None
            try:
                path = recorder.stop()
            except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
                self.note(f"cannot write the recording: {exc}")
                return
            self.note(f"recorded {recorder.frames} frames into {path}")

    def quit(self) -> None:
        """F10: close the window."""
        self.running = False

    # -- the loop ---------------------------------------------------------------------------

    def step(self, paced: bool = True) -> None:
        """One turn of the loop: events, frame(s), drawing, pacing."""
        self.handle_events()
        if not self.running:
            return
        if not self.paused and self.menu is None:
            if self.speed == 2:
                self.run_frame()
                self.run_frame()
            elif self.turbo:
                end = time.perf_counter() + 1 / HOST_FRAMES_PER_SECOND
                self.run_frame()
                while time.perf_counter() < end and self.running:
                    self.run_frame()
            elif self._audio_ahead():
                self._audio_waits += 1
            else:
                self._audio_waits = 0
                self.run_frame()
        self._check_jit()
        if self.audio is not None:
            self.audio.pump()
        self.draw()
        if paced and not self.turbo:
            if self.audio is not None:
                # A little faster than 50 Hz: the sound paces (it holds frames back instead).
                self.clock.tick(HOST_FRAMES_PER_SECOND + 1)
            else:
                self._pace()

    def _pace(self) -> None:
        """Wait for the next 50 Hz tick of a fixed schedule (silent play).

        A fixed schedule, not a fixed wait after each frame: on a busy machine the wake-ups
        come late, and the late time is made up by the next turns rather than lost (up to
        MAX_LAG; further behind, the schedule starts again from now).
        """
        now = time.perf_counter()
        if self._deadline is None or now - self._deadline > MAX_LAG:
            self._deadline = now
        self._deadline += 1 / HOST_FRAMES_PER_SECOND
        delay = self._deadline - time.perf_counter()
        if delay > 0:
            time.sleep(delay)

    def _check_jit(self) -> None:
        """Between frames: start getting the JIT ready, or move the machine onto it."""
        jit = self.jit
        if jit is None:
            return
        loaded = self.frames_run >= JIT_START_FRAMES and not self.feed.scripting
        if jit.state == "waiting" and loaded:
            jit.start()  # after LOAD "" is typed: numba's import takes the CPU for a moment
        elif jit.state == "compiling" and not self._jit_told:
            self._jit_told = True
            self.note("compiling the JIT engine in the background (first run only: "
                      f"{jit.estimate}); playing on CPython meanwhile")
        elif jit.ready():
            self.machine.set_engine("jit")
            self.jit = None
            took = f" (compiled in {jit.compile_seconds:.0f} s)" if jit.compile_seconds else ""
            self.note(f"the JIT engine is ready: switched from CPython{took}")
        elif jit.state == "failed":
            self.jit = None
            self.note(f"the JIT engine is not available ({jit.error}); playing on CPython")

    def _audio_ahead(self) -> bool:
        """Whether enough sound waits that the emulation should let the mixer catch up."""
        return (self.audio is not None and self.audio.backlog() > AUDIO_AHEAD
                and self._audio_waits < 3)

    def run(self, max_frames: int | None = None, paced: bool = True) -> None:
        """Run until the window closes (or ``max_frames`` frames have been emulated)."""
        while self.running:
            if max_frames is not None and self.frames_run >= max_frames:
                break
            self.step(paced)

    def close(self) -> None:
        """Close the window and the sound (a recording still running is written first)."""
        if self.recorder is not None:
            self.record()
        self.eventlog.close()
        if self.jit is not None:
            self.jit.cancel()
            self.jit = None
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

