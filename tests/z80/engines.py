"""The engines that run Z80 code, for the Z80 tests: the bare CPU's and the Spectrum's.

The bare CPU's CPython engine runs a run with no breakpoint on its block engine
(``zxmonopoly.z80.blocks``) unless the run is too short for a block: ``python`` is the engine
as a user gets it (so a ``step`` interprets), ``python-blocks`` the same with every run, however
short, on the block engine (the interpreter then runs only what the blocks leave to it).

The Spectrum 48K runs its own engines (``spectrum/_engine_py``, ``_engine_jit``), generated
separately from the bare CPU's: every instruction there walks its machine cycles for
contention and the ports answer as the ULA does. The Z80 checks run on them too, through a
:class:`~zxmonopoly.z80.Z80` whose run calls the Spectrum engine instead of the bare one:

- **contention off**: the contention table is all zeros, so every instruction takes its
  uncontended T-states wherever it runs and whatever it touches (memory contention itself is
  checked against the FUSE traces in ``test_cycles.py`` and by the machine's tests);
- **all memory is RAM**: ``rom_top`` stays 0, as for a bare CPU, since the FUSE vectors put
  code at 0x0000 and write anywhere (the machine sets 0x4000; ``test_cpu.py`` checks that the
  Spectrum engines keep writes out below ``rom_top``);
- **ports**: with ``read_port``/``write_port`` every port access goes to Python, as on the
  bare CPU; without them the Spectrum's devices answer (keyboard, floating bus), as in the
  machine;
- everything else is the machine's engine as it runs in :class:`Spectrum48`: the same state
  array, HALT, interrupts, breakpoints. A run may be started inside the screen's lines
  (``T`` from 14,271 to 57,247) to take the engines' cycle walk rather than their fast path.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import pytest

from zxmonopoly.spectrum.timing import CONTENDED_FROM, LINE_TSTATES
from zxmonopoly.z80 import Z80, jit_available, state

Z80_ENGINES = ("python", "python-blocks", "jit", "spectrum-python", "spectrum-jit")
# A T-state inside the contended screen lines (line 70), where the Spectrum engines walk
# every machine cycle instead of adding the instruction's T-states at once.
WALK_T = CONTENDED_FROM + 70 * LINE_TSTATES + 10


def engine_param(name: str) -> Any:
    """``name`` as a pytest parameter, skipped when it needs numba and numba is absent."""
    needs_jit = name.endswith("jit")
    return pytest.param(name, id=name, marks=pytest.mark.skipif(
        needs_jit and not jit_available(), reason="numba cannot be imported"))


ENGINE_PARAMS = [engine_param(name) for name in Z80_ENGINES]


@cache
def _devices() -> tuple[np.ndarray, ...]:
    """Contention table (zeros), keyboard rows (no key down), joystick, port log, tape, and
    the port-read log."""
    from zxmonopoly.spectrum.machine import IN_LOG_ENTRIES, OUT_LOG_ENTRIES
    from zxmonopoly.spectrum.timing import FRAME_TSTATES

    return (np.zeros(FRAME_TSTATES + 256, dtype=np.uint8), np.full(8, 0xFF, dtype=np.uint8),
            np.zeros(1, dtype=np.uint8), np.zeros(2 * OUT_LOG_ENTRIES, dtype=np.int64),
            np.zeros(1, dtype=np.int64), np.zeros(IN_LOG_ENTRIES, dtype=np.uint8))


@cache
def spectrum_run(base: str) -> Callable[..., int]:
    """The Spectrum engine on ``base`` ("python" or "jit") as a bare engine's ``run``."""
    from zxmonopoly.spectrum.engine import SPECTRUM_ENGINES
    from zxmonopoly.z80.cpu import load_engine

    cont, keys, joy, log, tape, in_log = _devices()
    if base == "jit":
        # the JIT's array: the delays (all 0), then its block passes' tables made from them
        from zxmonopoly.spectrum import _engine_jit
        from zxmonopoly.spectrum.timing import with_pass_tables

        extra: tuple[Any, ...] = (with_pass_tables(cont, _engine_jit.PASS_SPECS), keys, joy,
                                  log, tape, in_log)
    else:
        extra = (cont.tolist(), keys, joy, log, tape, in_log)
    run = load_engine(base, SPECTRUM_ENGINES, extra)

    def run_machine(st: Any, mem: Any, bp: Any, until: int, *tables: Any) -> int:
        while True:
            reason = run(st, mem, bp, until, *tables, *extra)
            if reason != state.EXIT_LOG_FULL:
                return int(reason)
            st[state.OUT_N] = 0  # port-0xFE writes are the machine's business, not ours

    return run_machine


def make_z80(memory: bytearray, engine: str | None = None, **ports: Any) -> Z80:
    """A :class:`Z80` over ``memory`` on one of :data:`Z80_ENGINES` (``ports``: read_port,
    write_port)."""
    if engine == "python-blocks":
        cpu = Z80(memory, engine="python", **ports)
        cpu._bind()
        cpu._run_free.__self__.short_run = 0  # type: ignore[union-attr]
        cpu._short_run = 0
        return cpu
    if engine is None or not engine.startswith("spectrum-"):
        return Z80(memory, engine=engine, **ports)
    base = engine.removeprefix("spectrum-")
    cpu = Z80(memory, engine=base, **ports)
    cpu._run = cpu._run_free = spectrum_run(base)
    return cpu
