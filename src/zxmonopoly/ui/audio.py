"""The window's sound: the beeper's samples through pygame.mixer, a short queue of Sounds.

docs/window.md, "Timing and sound": 44,100 Hz mono int16, 882 samples a frame, 40 ms Sounds
with one playing and one queued; the window's loop holds a frame back while more than
AUDIO_AHEAD samples wait, so the sound paces the emulation.
"""

from __future__ import annotations

import contextlib
import os

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from zxmonopoly.spectrum.timing import AUDIO_RATE, AUDIO_SAMPLES_PER_FRAME  # noqa: E402

AUDIO_CHUNK = 2 * AUDIO_SAMPLES_PER_FRAME  # one mixer Sound: 40 ms
AUDIO_MAX_PENDING = 6 * AUDIO_SAMPLES_PER_FRAME  # more waiting than this: the oldest is dropped
AUDIO_AHEAD = 3 * AUDIO_SAMPLES_PER_FRAME  # more waiting than this: the emulation waits for it


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
