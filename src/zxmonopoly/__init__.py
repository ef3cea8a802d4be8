"""zxmonopoly: a ZX Spectrum 48K emulator in Python and a Monopoly game in Z80 assembly."""

__version__ = "0.1.0"

#: How long the first numba compile of the Spectrum engine takes, as users are told when no
#: compile has been measured beside their cache yet (z80/jitbuild.py): measured with an empty
#: cache on this project's 2-core machines, 31-35 s of wall time at load 2-3, a median of 71 s
#: (59-93 s) at load 4.5-6.5 (docs/spectrum.md, "Speed").
JIT_FIRST_COMPILE = "30 s to 1.5 minutes on 2 cores"
