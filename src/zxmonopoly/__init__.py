"""zxmonopoly: a ZX Spectrum 48K emulator in Python and a Monopoly game in Z80 assembly."""

__version__ = "0.1.0"

#: How long the first numba compile of the Spectrum engine takes, as users are told: measured
#: 104 s of wall time (100 s of CPU) and 185 s on idle 2-core machines, 383 s on a busy one.
JIT_FIRST_COMPILE = "1.5 to 6.5 minutes on 2 cores"
