"""The public Z80 CPU: registers as attributes, ``step``/``run``, interrupts, two engines."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from . import state as S
from . import tables
from .errors import Z80Error

ENGINES = ("jit", "python")

ReadPort = Callable[[int], int]
WritePort = Callable[[int, int], None]

# The interrupt line held "until accepted" is modelled as active until this T-state.
FOREVER = 1 << 62


def jit_available() -> bool:
    """True when numba can be imported."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def default_engine() -> str:
    """``$ZXMONOPOLY_ENGINE`` if set, else ``jit`` when numba imports, else ``python``."""
    env = os.environ.get("ZXMONOPOLY_ENGINE")
    if env:
        if env not in ENGINES:
            raise Z80Error(f"ZXMONOPOLY_ENGINE={env!r}: expected one of {', '.join(ENGINES)}")
        return env
    return "jit" if jit_available() else "python"


def check_engine(engine: str) -> None:
    """The one check of an engine name, for the bare CPU and the machine alike: a known
    engine, and ``jit`` only where numba imports (Z80Error otherwise)."""
    if engine not in ENGINES:
        raise Z80Error(f"unknown engine {engine!r}: expected one of {', '.join(ENGINES)}")
    if engine == "jit" and not jit_available():
        raise Z80Error("engine 'jit' needs numba, which cannot be imported")


_compiled: set[str] = set()

#: The generated bare-CPU engines: ``_engine_py`` and ``_engine_jit`` in this package (the
#: Spectrum's live in zxmonopoly.spectrum).
BARE_ENGINES = f"{__package__}._engine"


def engine_tables(engine: str) -> tuple[Any, ...]:
    """The flag tables every generated engine takes after ``until``, in ``engine``'s form
    (for jit one numpy array of them all, tables.PACKED; lists for CPython, which indexes
    lists fastest)."""
    if engine == "jit":
        return (tables.PACKED,)
    return tuple(tables.LISTS[k] for k in tables.ORDER)


def load_engine(engine: str, family: str, extra: tuple[Any, ...] = (),
                name: str = "run") -> Callable[..., int]:
    """The function ``name`` of a generated engine: module ``family + "_jit"`` (compiled by
    numba, warmed up once per process with ``extra``, the arguments a machine's engine takes
    after the tables) or ``family + "_py"`` (CPython). Compiling says so on stderr."""
    import importlib

    if engine != "jit":
        return getattr(importlib.import_module(f"{family}_py"), name)
    module_name = f"{family}_jit"
    module = importlib.import_module(module_name)
    if module_name not in _compiled:
        package, short = module_name.rsplit(".", 1)
        cached = _has_cache(module, short)
        st = np.zeros(S.SIZE, dtype=np.int64)
        mem = np.zeros(65536, dtype=np.uint8)
        run_args = (st, mem, mem, 0, *engine_tables("jit"), *extra)
        if cached:
            module.run(*run_args)
        else:
            from . import jitbuild

            # Two processes starting at once (test workers, a tournament's jobs, a window and
            # a headless command) would each compile the whole engine; the second waits for
            # the first and then loads what it wrote.
            what = f"{package.rsplit('.', 1)[-1]} {short.strip('_')}"  # "spectrum engine_jit"
            with jitbuild.compile_lock(module, lambda: print(
                    f"zxmonopoly: waiting for another process's numba compile of {what} "
                    f"({jitbuild.compile_estimate(module)})...", file=sys.stderr, flush=True)):
                if _has_cache(module, short):
                    module.run(*run_args)
                else:
                    _compile_cold(module, what, run_args)
        _compiled.add(module_name)
    return getattr(module, name)


def _compile_cold(module: Any, what: str, run_args: tuple[Any, ...]) -> None:
    """Compile a generated engine into numba's cache, saying so on stderr: before, how long
    the last cold compile took here (measured, when one was); after, how long this one took."""
    from . import jitbuild

    print(f"zxmonopoly: compiling {what} with numba (first run only, "
          f"{jitbuild.compile_estimate(module)})...", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    helpers, workers = jitbuild.compile_helpers(module, run_args)
    t1 = time.perf_counter()
    module.run(*run_args)
    seconds = time.perf_counter() - t0
    jitbuild.record_compile_seconds(module, seconds)
    print(f"zxmonopoly: compiled in {seconds:.1f} s (its {len(helpers)} helpers in "
          f"{workers} process{'es' if workers > 1 else ''}, {t1 - t0:.1f} s; then the main "
          f"function, {seconds - (t1 - t0):.1f} s)", file=sys.stderr, flush=True)


def _has_cache(module: Any, module_name: str) -> bool:
    """Whether numba's on-disk cache holds the engine's main function for this source."""
    try:
        # The index numba itself reads: empty when missing or written for another source
        # (an index file of the same name, left by an earlier source, is not a cache).
        return bool(module.run._cache._cache_file._load_index())
    except (AttributeError, OSError):  # numba's internals moved: fall back to the file test
        pass
    try:
        cache_path = module.run._cache._cache_path
        stem = f"{module_name}.run-"
        return any(n.startswith(stem) and n.endswith(".nbi") for n in os.listdir(cache_path))
    except (AttributeError, OSError):
        return False


class BreakpointMap:
    """The 64K breakpoint map: ``bp[addr] = 1`` stops ``run`` when PC arrives at ``addr``.

    ``array`` is what the engines read (a list for CPython, a uint8 array for numba); the map
    also keeps the set addresses, so a run with none skips the test after each instruction.
    Bit 0 of each entry is the breakpoint; bit 1 (``state.WATCH_BIT``, set at every address
    by ``watching = True``) has the Spectrum engines check their watches after every
    instruction, in the same test of ``bp[pc]`` (the bare CPU's engines have no watches).
    """

    __slots__ = ("array", "_set", "_watching")

    def __init__(self, array: Any, addresses: Iterable[int] | None = None) -> None:
        self.array = array
        if addresses is None:  # found by numpy, not entry by entry (11 ms for a Python walk)
            addresses = np.flatnonzero(np.asarray(array, dtype=np.uint8) & 1).tolist()
        # ``addresses``, when given, are those the array marks: a new Z80 makes an empty map,
        # and reading 65,536 entries back was most of its construction.
        self._set: set[int] = set(addresses)
        self._watching = False

    def __getitem__(self, address: int) -> int:
        return int(self.array[address]) & 1

    def __setitem__(self, address: int, value: int) -> None:
        address = int(address) & 0xFFFF
        self.array[address] = (1 if value else 0) | (S.WATCH_BIT if self._watching else 0)
        if value:
            self._set.add(address)
        else:
            self._set.discard(address)

    def __len__(self) -> int:
        return len(self.array)

    def __bool__(self) -> bool:
        """True while any breakpoint is set (or the watches are armed)."""
        return bool(self._set) or self._watching

    @property
    def addresses(self) -> list[int]:
        """The addresses set, lowest first."""
        return sorted(self._set)

    @property
    def watching(self) -> bool:
        """True while the watch bit is set at every address."""
        return self._watching

    @watching.setter
    def watching(self, on: bool) -> None:
        if bool(on) == self._watching:
            return
        self._watching = bool(on)
        bit = S.WATCH_BIT if on else 0
        if isinstance(self.array, list):
            self.array[:] = [bit | (1 if a in self._set else 0) for a in range(len(self.array))]
        else:
            self.array[:] = bit
            for address in self._set:
                self.array[address] = bit | 1

    def clear(self) -> None:
        """Clear every breakpoint (the watch bit stays as it is)."""
        bit = S.WATCH_BIT if self._watching else 0
        for address in self._set:
            self.array[address] = bit
        self._set.clear()


_REG8 = {"a": S.A, "f": S.F, "b": S.B, "c": S.C, "d": S.D, "e": S.E, "h": S.H, "l": S.L,
         "a_": S.A_, "f_": S.F_, "b_": S.B_, "c_": S.C_, "d_": S.D_, "e_": S.E_, "h_": S.H_,
         "l_": S.L_, "i": S.I, "r": S.R, "iff1": S.IFF1, "iff2": S.IFF2, "im": S.IM}
_PAIRS = {"af": (S.A, S.F), "bc": (S.B, S.C), "de": (S.D, S.E), "hl": (S.H, S.L),
          "af_": (S.A_, S.F_), "bc_": (S.B_, S.C_), "de_": (S.D_, S.E_), "hl_": (S.H_, S.L_)}
_WORDS = {"ix": S.IX, "iy": S.IY, "sp": S.SP, "pc": S.PC, "memptr": S.MEMPTR}
_HALVES = {"ixh": (S.IX, 8), "ixl": (S.IX, 0), "iyh": (S.IY, 8), "iyl": (S.IY, 0)}


class Z80:
    """A Zilog Z80 (NMOS) over a 64K ``bytearray``.

    Registers are int attributes (``a``, ``bc``, ``af_``, ``ixh``, ``memptr``, ``q`` …),
    readable and settable between calls. ``engine`` is ``"jit"`` (numba) or ``"python"``;
    both run the code generated from :mod:`zxmonopoly.z80.isa` and share ``memory``.
    Without port callables an IN reads 0xFF and an OUT goes nowhere.
    """

    def __init__(self, memory: bytearray, *, engine: str | None = None,
                 read_port: ReadPort | None = None, write_port: WritePort | None = None):
        if not isinstance(memory, bytearray) or len(memory) != 65536:
            raise Z80Error("memory must be a bytearray of 65,536 bytes")
        engine = engine or default_engine()
        check_engine(engine)
        self.memory = memory
        self.read_port = read_port
        self.write_port = write_port
        self._st: Any = [0] * S.SIZE
        self.engine = ""
        self.set_engine(engine)
        self.reset()

    def set_engine(self, engine: str) -> None:
        """Run on ``engine`` from now on, keeping every register, T-state and breakpoint.

        The state moves between the engines' containers (a list for CPython, int64 and uint8
        arrays for numba); memory is the same ``bytearray`` either way. The engine's code is
        bound on the first :meth:`run`, so a machine that runs its own loop over this state
        (:class:`~zxmonopoly.spectrum.Spectrum48`) never compiles the bare CPU's.
        """
        check_engine(engine)
        old_bp = getattr(self, "breakpoints", None)
        values = [int(v) for v in self._st]
        if engine == "jit":
            self._st = np.array(values, dtype=np.int64)
            self._mem = np.frombuffer(self.memory, dtype=np.uint8)
            self.breakpoints = BreakpointMap(np.zeros(65536, dtype=np.uint8), ())
        else:
            self._st = values
            self._mem = self.memory
            # A list: CPython indexes lists fastest.
            self.breakpoints = BreakpointMap([0] * 65536, ())
        self._tables = engine_tables(engine)
        if old_bp is not None:
            self.breakpoints.watching = old_bp.watching
            for address in old_bp.addresses:
                self.breakpoints[address] = 1
        self.engine = engine
        self._run: Callable[..., int] | None = None
        self._run_free: Callable[..., int] | None = None
        # Runs shorter than this (a step) go straight to _run_short (python: the interpreter,
        # past the block engine, which would hand them on; 0: none).
        self._short_run = 0
        self._run_short: Callable[..., int] | None = None

    def _bind(self) -> None:
        """Load (or compile) the engine's run loop: on the first run, not at construction."""
        if self.engine == "jit":
            # One compiled function: the breakpoint test costs next to nothing there.
            self._run = self._run_free = load_engine("jit", BARE_ENGINES)
        else:
            # With breakpoint tests (the interpreter), and without: the block engine, which
            # runs what it has translated and leaves the rest to the interpreter's run_free.
            from .blocks import SHORT_RUN, BlockEngine

            self._run = load_engine("python", BARE_ENGINES)
            self._run_short = load_engine("python", BARE_ENGINES, name="run_free")
            self._run_free = BlockEngine(self._run_short).run
            self._short_run = SHORT_RUN

    # -- state --------------------------------------------------------------------------

    def reset(self) -> None:
        """Power-on state: PC=0, I=R=0, interrupts off, IM 0; AF and SP 0xFFFF."""
        for k in range(S.SIZE):
            self._st[k] = 0
        self.af = self.sp = 0xFFFF
        self._sync_io()

    def _sync_io(self) -> None:
        self._st[S.IO_EXIT] = 1 if (self.read_port or self.write_port) else 0

    @property
    def halted(self) -> int:
        """1 while the CPU sits in HALT."""
        return int(self._st[S.HALTED])

    @halted.setter
    def halted(self, v: int) -> None:
        self._st[S.HALTED] = 1 if v else 0

    @property
    def tstates(self) -> int:
        """T-states counted so far."""
        return int(self._st[S.T])

    @tstates.setter
    def tstates(self, v: int) -> None:
        self._st[S.T] = int(v)

    @property
    def q(self) -> int:
        """Q: F after the last instruction if it changed the flags, else 0."""
        return int(self._st[S.Q])

    @q.setter
    def q(self, v: int) -> None:
        self._st[S.Q] = v & 0xFF

    @property
    def rom_top(self) -> int:
        """Writes below this address are ignored (0: all memory is RAM)."""
        return int(self._st[S.ROM_TOP])

    @rom_top.setter
    def rom_top(self, v: int) -> None:
        self._st[S.ROM_TOP] = int(v)

    @property
    def state(self) -> Any:
        """The raw state array (layout in :mod:`zxmonopoly.z80.state`), for machines."""
        return self._st

    # -- running ------------------------------------------------------------------------

    def run(self, until_tstates: int) -> int:
        """Run while T < ``until_tstates`` (the last instruction completes); return the reason.

        The reason is :data:`state.EXIT_LIMIT` or :data:`state.EXIT_BREAK` (PC reached an
        address set in ``breakpoints``).
        """
        self._sync_io()
        if self._run is None:
            self._bind()
        st, until = self._st, int(until_tstates)
        bp = self.breakpoints
        while True:
            if bp:
                run = self._run
            elif self._short_run and until - st[S.T] < self._short_run:
                run = self._run_short
            else:
                run = self._run_free
            reason = run(st, self._mem, bp.array, until, *self._tables)
            if reason == S.EXIT_PORT_IN:
                value = self.read_port(int(st[S.PORT])) if self.read_port else 0xFF
                st[S.IN_VALUE] = int(value) & 0xFF
                st[S.IN_READY] = 1
            elif reason == S.EXIT_PORT_OUT:
                if self.write_port:
                    self.write_port(int(st[S.PORT]), int(st[S.PORT_VALUE]))
                if st[S.T] >= until:
                    return S.EXIT_LIMIT
            else:
                return int(reason)

    def step(self) -> int:
        """Run one instruction (or accept a pending interrupt); return its T-states."""
        t0 = self.tstates
        self.run(t0 + 1)
        return self.tstates - t0

    def interrupt(self, data: int = 0xFF) -> None:
        """Raise the maskable interrupt line with ``data`` on the bus, held until accepted."""
        self._st[S.INT_END] = FOREVER
        self._st[S.INT_DATA] = data & 0xFF
        self._st[S.INT_ACK_CLEARS] = 1

    def clear_interrupt(self) -> None:
        """Drop the maskable interrupt line."""
        self._st[S.INT_END] = 0

    def nmi(self) -> None:
        """Accept a non-maskable interrupt now: push PC, jump to 0x0066 (11 T)."""
        st = self._st
        pc = int(st[S.PC])
        if st[S.HALTED]:
            pc = (pc + 1) & 0xFFFF
            st[S.HALTED] = 0
        st[S.IFF1] = 0
        st[S.R] = (int(st[S.R]) & 0x80) | ((int(st[S.R]) + 1) & 0x7F)
        sp = int(st[S.SP])
        top = int(st[S.ROM_TOP])
        for byte in (pc >> 8, pc & 0xFF):
            sp = (sp - 1) & 0xFFFF
            if sp >= top:
                self.memory[sp] = byte
        st[S.SP] = sp
        st[S.PC] = st[S.MEMPTR] = 0x0066
        st[S.T] = int(st[S.T]) + 11
        st[S.Q] = 0
        st[S.AFTER_EI] = st[S.AFTER_LDAIR] = 0

    def __repr__(self) -> str:
        regs = " ".join(f"{n}={getattr(self, n):04X}" for n in
                        ("af", "bc", "de", "hl", "ix", "iy", "sp", "pc"))
        return f"<Z80 {self.engine} {regs} T={self.tstates}>"


def _byte_prop(idx: int) -> property:
    def get(self: Z80) -> int:
        return int(self._st[idx])

    def put(self: Z80, v: int) -> None:
        self._st[idx] = v & 0xFF

    return property(get, put)


def _pair_prop(hi: int, lo: int) -> property:
    def get(self: Z80) -> int:
        return (int(self._st[hi]) << 8) | int(self._st[lo])

    def put(self: Z80, v: int) -> None:
        self._st[hi] = (v >> 8) & 0xFF
        self._st[lo] = v & 0xFF

    return property(get, put)


def _word_prop(idx: int) -> property:
    def get(self: Z80) -> int:
        return int(self._st[idx])

    def put(self: Z80, v: int) -> None:
        self._st[idx] = v & 0xFFFF

    return property(get, put)


def _half_prop(idx: int, shift: int) -> property:
    def get(self: Z80) -> int:
        return (int(self._st[idx]) >> shift) & 0xFF

    def put(self: Z80, v: int) -> None:
        keep = int(self._st[idx]) & (0x00FF if shift else 0xFF00)
        self._st[idx] = keep | ((v & 0xFF) << shift)

    return property(get, put)


for _n, _i in _REG8.items():
    setattr(Z80, _n, _byte_prop(_i))
for _n, (_h, _l) in _PAIRS.items():
    setattr(Z80, _n, _pair_prop(_h, _l))
for _n, _i in _WORDS.items():
    setattr(Z80, _n, _word_prop(_i))
for _n, (_i, _s) in _HALVES.items():
    setattr(Z80, _n, _half_prop(_i, _s))
