"""The window's runtime loop: frames run at the chosen speed, paced at 50 Hz, the JIT taken
over when it is ready.

Each frame is run by a :class:`FrameDriver`, which takes this window's keys from the key
feeder a frame at a time (:class:`FrameKeys`: each take moves the feed on one frame) and runs
the frame: locally (:class:`LocalDriver`: the window's keys are the machine's), or in network
play a driver that sends them for a frame ahead and runs the frame on the merged keys of every
player. A driver that could not run a frame (waiting for the network) returns False: nothing
moves on, the window keeps drawing and handling events. docs/window.md, "Timing and sound".

For tests, ``ZXMONOPOLY_TEST_FPS=N`` makes every frame take at least 1/N s (a machine too
slow for 50 frames a second): a key's press and release then come between two frames.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from zxmonopoly.spectrum import Spectrum48  # noqa: E402
from zxmonopoly.spectrum.engine import BackgroundJit  # noqa: E402
from zxmonopoly.spectrum.frameinput import FrameInput  # noqa: E402
from zxmonopoly.spectrum.keyfeed import KeyFeed  # noqa: E402
from zxmonopoly.spectrum.timing import HOST_FRAMES_PER_SECOND  # noqa: E402
from zxmonopoly.ui.audio import AUDIO_AHEAD, AudioOut  # noqa: E402
from zxmonopoly.ui.display import WindowError  # noqa: E402

if TYPE_CHECKING:
    from zxmonopoly.harness.record import Recorder

MAX_LAG = 0.1  # seconds the silent schedule may fall behind and still catch up
#: The speeds the menu offers: frames emulated per 50 Hz tick (0: as many as fit, no sound).
SPEEDS = (1, 2, 0)
SPEED_NAMES = {1: "100 %", 2: "200 %", 0: "max"}
#: Frames the window runs before it starts getting the JIT ready (the boot is on screen first;
#: it also waits until LOAD "" has been typed).
JIT_START_FRAMES = 10
#: Turns in a row a frame may wait for the sound to catch up.
AUDIO_WAITS = 3
#: Seconds of a 20 ms tick a driver may wait for what a frame needs (the network's keys): the
#: rest is the window's (events, drawing).
TICK_WAIT = 0.015
#: For tests: the environment variable that slows the window's frames to N a second at most.
TEST_FPS_VARIABLE = "ZXMONOPOLY_TEST_FPS"


def slowed_frame_seconds() -> float:
    """The wall time each frame takes at least, from ZXMONOPOLY_TEST_FPS (0: not slowed)."""
    text = os.environ.get(TEST_FPS_VARIABLE, "").strip()
    if not text:
        return 0.0
    try:
        fps = float(text)
    except ValueError:
        fps = 0.0
    if not 0 < fps <= HOST_FRAMES_PER_SECOND:
        raise WindowError(f"{TEST_FPS_VARIABLE} must be frames a second above 0 and at most "
                          f"{HOST_FRAMES_PER_SECOND}, not {text!r}")
    return 1 / fps


class FrameKeys(Protocol):
    """Where a driver takes this window's keys from (``keys.PcKeys``)."""

    def take(self) -> FrameInput:
        """The input of the next frame; the key feeder moves on one frame."""
        ...

    @property
    def action_due(self) -> bool:
        """Whether the next :meth:`take` runs a script action that reads the machine (the
        rest of LOAD "" looks at the screen): it must come when every frame whose keys were
        taken before has run."""
        ...


class FrameDriver(Protocol):
    """What runs the machine's frames with this window's keys (locally, or through the
    network)."""

    #: Whether the machine waits while this window's menu is open (alone: yes; in a network
    #: game the others play on, and this window's keys are let go meanwhile).
    stops_for_menu: bool

    def run_frame(self, machine: Spectrum48, keys: FrameKeys, wait: float) -> bool:
        """Run the next frame, taking this window's keys from ``keys`` for each frame the
        driver schedules; wait at most ``wait`` seconds for what it needs. True when one frame
        was run, False when none was (nothing moved on)."""
        ...

    def lock(self) -> contextlib.AbstractContextManager[object]:
        """Held while the window changes the machine between frames (the JIT's hand-over),
        against the driver's own threads."""
        ...


class LocalDriver:
    """Local play: the window's keys are the machine's, and every frame runs at once."""

    stops_for_menu = True

    def run_frame(self, machine: Spectrum48, keys: FrameKeys, wait: float) -> bool:
        """This frame's input to the machine (its one seam), then run it."""
        machine.set_input(keys.take())
        machine.run_frames(1)
        return True

    def lock(self) -> contextlib.AbstractContextManager[object]:
        """Nothing else touches the machine: no lock."""
        return contextlib.nullcontext()


class Runtime:
    """Runs a machine's frames for a window: speed, sound, pacing, the JIT's hand-over."""

    def __init__(self, machine: Spectrum48, feed: KeyFeed, keys: FrameKeys,
                 note: Callable[[str], None], jit: BackgroundJit | None = None) -> None:
        self.machine = machine
        self.feed = feed
        self.keys = keys
        self.note = note
        self.jit = jit
        self.driver: FrameDriver = LocalDriver()
        self.audio: AudioOut | None = None
        self.sound = False
        self.recorder: Recorder | None = None  # gets each frame's keys
        self.speed = 1  # one of SPEEDS
        self.frames_run = 0  # frames emulated
        #: When the recent frames were run (two seconds of them).
        self._fps_frames: deque[float] = deque(maxlen=2 * HOST_FRAMES_PER_SECOND)
        self.clock = pygame.time.Clock()
        self._audio_waits = 0
        self._jit_told = False
        self._deadline: float | None = None  # the next tick of the silent 50 Hz schedule
        #: Wall time a frame takes at least (tests: ZXMONOPOLY_TEST_FPS; 0: as it comes).
        self.frame_seconds = slowed_frame_seconds()

    @property
    def turbo(self) -> bool:
        """Whether the machine runs as fast as it can (speed max)."""
        return self.speed == 0

    def run_frame(self, wait: float = 0.0) -> bool:
        """Emulate one frame through the driver (it takes the keys, so the feed moves on),
        then count it, record its keys and hand its sound on; False when the driver could not
        run it (waiting up to ``wait`` seconds: nothing moved on)."""
        began = time.perf_counter()
        if not self.driver.run_frame(self.machine, self.keys, wait):
            return False
        if self.frame_seconds:  # a slow machine's frame, for tests: keys come meanwhile
            time.sleep(max(0.0, began + self.frame_seconds - time.perf_counter()))
        self.frames_run += 1
        self._fps_frames.append(time.monotonic())
        if self.recorder is not None:  # the matrix the frame ran with
            self.recorder.frame(self.machine.keyboard.pressed())
        if self.machine.audio:
            samples = self.machine.take_audio()
            if self.audio is not None and self.sound and self.speed == 1:
                self.audio.feed(samples)
        return True

    def turn(self) -> None:
        """One 50 Hz tick's frames: two at 200 %, as many as fit at max, else one (unless
        the sound is ahead and the frame waits for it). A frame the driver cannot run yet
        ends the turn; it waits at most TICK_WAIT of the tick in all."""
        start = time.perf_counter()
        if self.speed == 2:
            if self.run_frame(TICK_WAIT):
                self.run_frame(max(0.0, start + TICK_WAIT - time.perf_counter()))
        elif self.turbo:
            end = start + 1 / HOST_FRAMES_PER_SECOND
            ran = self.run_frame(TICK_WAIT)
            while ran and time.perf_counter() < end:
                ran = self.run_frame(max(0.0, start + TICK_WAIT - time.perf_counter()))
        elif self._audio_ahead():
            self._audio_waits += 1
        else:
            self._audio_waits = 0
            self.run_frame(TICK_WAIT)

    def _audio_ahead(self) -> bool:
        """Whether enough sound waits that the emulation should let the mixer catch up."""
        return (self.audio is not None and self.audio.backlog() > AUDIO_AHEAD
                and self._audio_waits < AUDIO_WAITS)

    def pace(self) -> None:
        """Wait for the next tick: the sound paces when it plays, else a fixed schedule."""
        if self.turbo:
            return
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

    def fps(self) -> float:
        """Frames emulated per second over the last two seconds."""
        times = self._fps_frames
        if len(times) < 2:
            return 0.0
        span = times[-1] - times[0]
        return (len(times) - 1) / span if span > 0 else 0.0

    def check_jit(self) -> None:
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
            with self.driver.lock():  # a network thread may be reading the machine
                self.machine.set_engine("jit")
            self.jit = None
            took = f" (compiled in {jit.compile_seconds:.0f} s)" if jit.compile_seconds else ""
            self.note(f"the JIT engine is ready: switched from CPython{took}")
        elif jit.state == "failed":
            self.jit = None
            self.note(f"the JIT engine is not available ({jit.error}); playing on CPython")

    def cancel_jit(self) -> None:
        """Stop getting the JIT ready (the window closes)."""
        if self.jit is not None:
            self.jit.cancel()
            self.jit = None
