"""zxmonopoly: a ZX Spectrum 48K emulator in Python and a Monopoly game in Z80 assembly."""

__version__ = "0.1.0"
