"""Tape images (TAP, TZX 1.20) and their signal as EAR edges; imports nothing of the emulator.

``read(path_or_bytes)`` gives a ``Tape`` (its blocks and warnings), ``build_signal(tape)`` the
``Signal`` the machine plays, ``describe``/``info_lines`` a tzxlist-like listing. ``docs/tape.md``
describes the formats, the edge model, the errors and warnings.
"""

from .blocks import (
    ONE,
    PILOT,
    PILOT_DATA,
    PILOT_HEADER,
    SYNC1,
    SYNC2,
    TAP_PAUSE_MS,
    TSTATES_PER_MS,
    ZERO,
    Block,
    StandardData,
    Tape,
    TapeWarning,
)
from .image import describe, info_lines, read, signal_of, tap_tape
from .signal import BlockInfo, Signal, build_signal, data_blocks, stop_points
from .tap import Header, TapBlock, TapeError, read_tap, write_tap
from .tzx import read_tzx

__all__ = ["ONE", "PILOT", "PILOT_DATA", "PILOT_HEADER", "SYNC1", "SYNC2", "TAP_PAUSE_MS",
           "TSTATES_PER_MS", "ZERO", "Block", "BlockInfo", "Header", "Signal", "StandardData",
           "TapBlock", "Tape", "TapeError", "TapeWarning", "build_signal", "data_blocks",
           "describe", "info_lines", "read", "read_tap", "read_tzx", "signal_of", "stop_points",
           "tap_tape", "write_tap"]
