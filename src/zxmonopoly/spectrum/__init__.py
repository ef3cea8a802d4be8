"""The ZX Spectrum 48K around the Z80 core: screen, keyboard, beeper and the machine itself."""

from . import keystrokes
from .errors import SpectrumError
from .frameinput import NO_INPUT, FrameInput
from .machine import FRAME_TSTATES, Spectrum48

__all__ = ["FRAME_TSTATES", "NO_INPUT", "FrameInput", "Spectrum48", "SpectrumError",
           "keystrokes"]
