"""zxmonopoly: a ZX Spectrum 48K emulator in Python and a Monopoly game in Z80 assembly."""

__version__ = "0.1.0"

#: How long the first numba compile of the Spectrum engine takes, as users are told when no
#: compile has been measured beside their cache yet (z80/jitbuild.py): measured with an empty
#: cache on this project's 2-core machines with numba's lean pipeline (z80/jitpipeline.py),
#: `run --game --frames 2000 --engine jit` 34-35 s of wall time idle, the compile 32-40 s;
#: the same machine took 42-67 s before it, and busy days have run 1.7x slower (docs/z80.md).
JIT_FIRST_COMPILE = "30 s to a minute on 2 cores"
