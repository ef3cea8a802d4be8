"""The 48K's clock and frame: the facts the machine and the file formats both count in.

A leaf (it imports nothing), so that ``tape/`` and ``snapshot/``, which import nothing of the
emulator, and ``spectrum/timing`` (everything else's source of timing) take the same numbers
from one place. Facts: ``shared/reference/spectrum_facts.md`` §2.5.
"""

from __future__ import annotations

CPU_HZ = 3_500_000  # T-states a second (TZX counts its pulses in these)
LINE_TSTATES = 224  # one scan line: 128 T of display, then border and retrace
LINES = 312  # scan lines in a frame
FRAME_TSTATES = LINE_TSTATES * LINES  # 69,888 (a snapshot's T-state counter runs within it)
INT_LENGTH = 32  # T-states the ULA holds /INT low at the start of a frame
