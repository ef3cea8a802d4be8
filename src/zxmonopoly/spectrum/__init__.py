"""The ZX Spectrum 48K around the Z80 core: screen, keyboard, beeper and the machine itself."""

from . import keystrokes
from .machine import FRAME_TSTATES, Spectrum48, SpectrumError

__all__ = ["FRAME_TSTATES", "Spectrum48", "SpectrumError", "keystrokes"]
