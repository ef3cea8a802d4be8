"""The 48K's timing, described once: the frame, its lines, the interrupt and contention.

Every other module (the machine, the picture, the beeper, the window's pacing and sound, the
boot before typing, the benchmarks, and the Spectrum engines that ``tools/gen_z80.py``
generates) takes these numbers from here. Facts:
``shared/reference/spectrum_facts.md`` §2.5 (frame timing) and §2.6 (contention).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where the table is made: the CLI reads the constants at start-up
    import numpy as np

# The clock, the line, the frame and the interrupt, which the file formats count in as well.
from zxmonopoly.clock import CPU_HZ, FRAME_TSTATES, INT_LENGTH, LINE_TSTATES, LINES  # noqa: F401 - re-exported

FRAMES_PER_SECOND = CPU_HZ / FRAME_TSTATES  # ≈ 50.08 (real time for a whole machine)
#: Frames a second a host shows: the window paces the machine at this rate, as a 50 Hz TV does.
HOST_FRAMES_PER_SECOND = 50
#: The T-state rate of a host that runs exactly 50 frames a second: 3,494,400 (a real 48K runs
#: 3,500,000 and shows 50.08 frames a second).
FIFTY_HZ_CPU = FRAME_TSTATES * HOST_FRAMES_PER_SECOND

#: The frame line that shows display row 0 (64 lines of top border and retrace before it).
FIRST_DISPLAY_LINE = 64
DISPLAY_LINES = 192
DISPLAY_LINE_TSTATES = 128  # T-states of a line in which the ULA fetches the display
#: T-state at which the ULA fetches the first display byte (line 64, T 0 of the line).
DISPLAY_TSTATES = FIRST_DISPLAY_LINE * LINE_TSTATES  # 14,336
#: First contended T-state: one before the first fetch of each display line.
CONTENDED_FROM = DISPLAY_TSTATES - 1  # 14,335
#: The delay of an access starting at each T-state of a contended line's 8-T groups.
CONTENTION_PATTERN = (6, 5, 4, 3, 2, 1, 0, 0)
#: One past the last contended T-state of the frame.
CONTENDED_TO = CONTENDED_FROM + (DISPLAY_LINES - 1) * LINE_TSTATES + DISPLAY_LINE_TSTATES

#: The sound's sample rate (mono int16), and the samples one frame gives at 50 frames a second
#: (the beeper counts FIFTY_HZ_CPU T-states to the second, so exactly 882).
AUDIO_RATE = 44_100
AUDIO_SAMPLES_PER_FRAME = AUDIO_RATE // HOST_FRAMES_PER_SECOND

#: Frames run after power-on before typing: any 48K ROM is ready for keys by then.
BOOT_FRAMES = 100
#: ... and with our ROM, which shows its K cursor at frame 19: the window's LOAD "" is on the
#: screen within 1.5 s of it opening.
OUR_ROM_BOOT_FRAMES = 40


def contention_table() -> np.ndarray:
    """Delay of a contended access starting at each T-state of a frame (facts §2.5).

    256 T-states past the frame's end are included (all 0), for an instruction that
    overruns the frame.
    """
    import numpy as np

    table = np.zeros(FRAME_TSTATES + 256, dtype=np.int64)
    pattern = np.array(CONTENTION_PATTERN, dtype=np.int64)
    groups = DISPLAY_LINE_TSTATES // len(CONTENTION_PATTERN)
    for line in range(DISPLAY_LINES):
        start = CONTENDED_FROM + line * LINE_TSTATES
        table[start:start + DISPLAY_LINE_TSTATES] = np.tile(pattern, groups)
    return table
