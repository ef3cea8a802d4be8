"""Our engines beside SkoolKit's simulators, side by side on the same programs (``bench``).

SkoolKit (the ``bench`` extra) ships a Z80 simulator in C (``CSimulator``), one in Python
(``Simulator``) and a C one with the 48K's memory and I/O contention and frame interrupts
(``CCMIOSimulator``). Single runs of ~20 ms swing by 2x on a shared machine, so each comparison
is a number of paired rounds: ours and theirs run back to back for a set time each (the order
alternating round by round), and the table gives the median of the rounds' speed ratios with
their range. A separate run of a fixed length on fresh instances checks that both sides end
in the same state (T-states, registers, memory CRC); the row says so, or says what differs.
"""

from __future__ import annotations

import statistics
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .bench_workload import WORKLOAD_ORG, WORKLOAD_OUTER, busy_rom, make_cpu, workload_memory
from .memory_map import MEMORY_SIZE, ROM_SIZE
from .spectrum.timing import FRAME_TSTATES  # the 48K's frame, as both sides count it

#: Outer passes of the exactness check on the bare workload (about 340,000 T-states).
CHECK_PASSES = 100
#: Frames, then T-states into the next frame, of the exactness check on the whole machine: a
#: point inside a frame, since at a frame's end SkoolKit accepts the interrupt before it stops
#: and our machine after.
CHECK_FRAMES = 20
CHECK_FRAME_TSTATES = 30_000
#: Slices shorter than this are grown (doubled) so the call overhead does not count.
MIN_SLICE_SECONDS = 0.02
#: SkoolKit's ``trace`` stops when PC equals ``stop``; no 16-bit PC ever equals this.
NEVER = 0x10000


def skoolkit_version() -> str | None:
    """SkoolKit's version when it and its C simulators import, else None."""
    try:
        import skoolkit
        from skoolkit import CCMIOSimulator, CSimulator
    except ImportError:
        return None
    if CSimulator is None or CCMIOSimulator is None:
        return None
    return str(skoolkit.VERSION)


class Side:
    """One side of a pair: something that runs in slices and counts the work done."""

    name: str = ""
    unit: str = ""

    def slice(self) -> int:
        """Run one slice; return the work done (T-states or frames)."""
        raise NotImplementedError


def _grown(side_slice: Callable[[int], int]) -> Callable[[], int]:
    """A slice function whose size (a count passed to ``side_slice``) has been doubled until
    one slice takes MIN_SLICE_SECONDS."""
    size = 1
    while True:
        start = time.perf_counter()
        side_slice(size)
        if time.perf_counter() - start >= MIN_SLICE_SECONDS or size >= 1 << 20:
            break
        size *= 2
    return lambda: side_slice(size)


class OurCpu(Side):
    """The bare workload on one of our engines, in chunks of T-states."""

    unit = "T-states/s"

    def __init__(self, engine: str) -> None:
        self.name = engine
        self.cpu = make_cpu(engine)
        self.cpu.run(self.cpu.tstates + 10_000)  # compiles or loads the jit engine
        self._slice = _grown(self._run)

    def _run(self, chunks: int) -> int:
        begin = self.cpu.tstates
        self.cpu.run(begin + 10_000 * chunks)
        return self.cpu.tstates - begin

    def slice(self) -> int:
        """Run one slice of the workload; return its T-states."""
        return self._slice()


def _skoolkit_cpu(kind: str, memory: Sequence[int]) -> Any:
    """A SkoolKit simulator of ``kind`` ("C" or "Python") over ``memory``, at the workload's
    outer loop (the set-up before it run)."""
    from skoolkit import CSimulator
    from skoolkit.simulator import Simulator
    from skoolkit.simutils import from_memory

    cls = CSimulator if kind == "C" else Simulator
    # SkoolKit's own tools give the Python simulator a list (its fastest memory) and the C
    # one the same list, which it keeps as a bytearray.
    sim = from_memory(cls, list(memory))
    sim.run(WORKLOAD_ORG, WORKLOAD_OUTER)
    return sim


class SkoolkitCpu(Side):
    """The bare workload on SkoolKit's C or Python simulator, a number of outer passes a slice."""

    unit = "T-states/s"

    def __init__(self, kind: str) -> None:
        self.name = "CSimulator" if kind == "C" else "Simulator"
        self.sim = _skoolkit_cpu(kind, workload_memory())
        self._slice = _grown(self._run)

    def _run(self, passes: int) -> int:
        sim = self.sim
        registers = sim.registers
        begin = registers[25]
        for _ in range(passes):
            sim.run(WORKLOAD_OUTER, WORKLOAD_OUTER)
        return registers[25] - begin

    def slice(self) -> int:
        """Run one slice of outer passes; return their T-states."""
        return self._slice()


class OurMachine(Side):
    """The busy program on our whole 48K machine, in frames."""

    unit = "frames/s"

    def __init__(self, engine: str) -> None:
        from zxmonopoly.spectrum import Spectrum48

        self.name = engine
        self.machine = Spectrum48(rom=busy_rom(), engine=engine)
        self.machine.run_frames(5)  # compiles or loads the jit engine
        self._slice = _grown(self._run)

    def _run(self, frames: int) -> int:
        self.machine.run_frames(frames)
        return frames

    def slice(self) -> int:
        """Run one slice of whole frames; return how many."""
        return self._slice()


class _Ports:
    """The port tracer SkoolKit's ``trace`` asks for: no port callbacks, so the C simulator
    handles OUT itself (the busy program only sets the border) and reads 0xFF."""

    border = 7


def _skoolkit_machine() -> Any:
    """SkoolKit's contended C simulator at power-on, the busy ROM at 0 and RAM clear."""
    from skoolkit import CCMIOSimulator
    from skoolkit.simutils import from_memory

    memory = [0] * MEMORY_SIZE
    memory[:ROM_SIZE] = busy_rom()
    sim = from_memory(CCMIOSimulator, memory, {"PC": 0, "SP": 0xFFFF, "I": 0, "IY": 0},
                      {"iff": 0, "im": 0, "tstates": 0})
    sim.set_tracer(_Ports())
    return sim


def _trace_to(sim: Any, tstates: int) -> None:
    """Run SkoolKit's simulator with frame interrupts until its T-states reach ``tstates``."""
    sim.trace(sim.registers[24], NEVER, 0, tstates, True, None, None, None, None, None)


class SkoolkitMachine(Side):
    """The busy program on SkoolKit's CCMIOSimulator (contended memory and I/O, interrupts)."""

    unit = "frames/s"
    name = "CCMIOSimulator"

    def __init__(self) -> None:
        self.sim = _skoolkit_machine()
        self.frames = 0
        self._slice = _grown(self._run)

    def _run(self, frames: int) -> int:
        self.frames += frames
        _trace_to(self.sim, self.frames * FRAME_TSTATES)
        return frames

    def slice(self) -> int:
        """Run one slice of whole frames; return how many."""
        return self._slice()


@dataclass(frozen=True)
class Pairing:
    """Paired rounds of ours against theirs: each side's speed per round, in its unit."""

    ours: str
    theirs: str
    unit: str
    our_speeds: tuple[float, ...]
    their_speeds: tuple[float, ...]
    identical: str  # "yes (...)" or what differs

    @property
    def ratios(self) -> tuple[float, ...]:
        """Ours over theirs, round by round."""
        return tuple(o / t for o, t in zip(self.our_speeds, self.their_speeds, strict=True))

    @property
    def median(self) -> float:
        """The median of the rounds' ratios."""
        return statistics.median(self.ratios)


def _timed(side: Side, seconds: float) -> float:
    """Run ``side`` in slices (at least one) for at least ``seconds``; its speed (work per
    second)."""
    work = 0
    start = time.perf_counter()
    while True:
        work += side.slice()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return work / max(elapsed, 1e-9)


def paired_rounds(ours: Side, theirs: Side, rounds: int, seconds: float
                  ) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Each side's speed in ``rounds`` back-to-back rounds of ``seconds`` each, the side
    going first alternating (so a burst of load elsewhere does not favour one side)."""
    our_speeds, their_speeds = [], []
    for k in range(rounds):
        if k % 2 == 0:
            our_speeds.append(_timed(ours, seconds))
            their_speeds.append(_timed(theirs, seconds))
        else:
            their_speeds.append(_timed(theirs, seconds))
            our_speeds.append(_timed(ours, seconds))
    return tuple(our_speeds), tuple(their_speeds)


def _difference(ours: dict[str, int], theirs: dict[str, int]) -> str:
    """"yes (...)" when the two end states agree, else the first fields that differ."""
    differ = [f"{k} {ours[k]:#x} vs {theirs[k]:#x}" for k in ours if ours[k] != theirs[k]]
    if differ:
        return "NO: " + ", ".join(differ[:3])
    return f"yes (CRC {ours['CRC']:08x}, {ours['T']:,} T)"


def _skoolkit_registers(registers: Sequence[int], memory: Sequence[int]) -> dict[str, int]:
    """The end state of a SkoolKit simulator in the fields we compare."""
    from skoolkit import simutils as k

    def pair(hi: int) -> int:
        return registers[hi] * 256 + registers[hi + 1]

    return {"T": int(registers[k.T]), "PC": int(registers[k.PC]),
            "AF": pair(k.A), "BC": pair(k.B), "DE": pair(k.D), "HL": pair(k.H),
            "IX": pair(k.IXh), "SP": int(registers[k.SP]),
            "CRC": zlib.crc32(bytes(memory))}


def _our_registers(cpu: Any, tstates: int, memory: bytes | bytearray) -> dict[str, int]:
    """The end state of one of our CPUs in the fields we compare."""
    return {"T": tstates, "PC": cpu.pc, "AF": cpu.af, "BC": cpu.bc, "DE": cpu.de, "HL": cpu.hl,
            "IX": cpu.ix, "SP": cpu.sp, "CRC": zlib.crc32(bytes(memory))}


def check_cpu(engine: str, kind: str) -> str:
    """Whether our ``engine`` and SkoolKit's ``kind`` simulator end CHECK_PASSES outer passes of
    the workload in the same state: "yes (...)" or what differs."""
    sim = _skoolkit_cpu(kind, workload_memory())
    for _ in range(CHECK_PASSES):
        sim.run(WORKLOAD_OUTER, WORKLOAD_OUTER)
    theirs = _skoolkit_registers(sim.registers, sim.memory)
    memory = workload_memory()
    cpu = make_cpu(engine, memory)
    cpu.run(theirs["T"])
    return _difference(_our_registers(cpu, cpu.tstates, memory), theirs)


def check_machine(engine: str) -> str:
    """Whether our machine on ``engine`` and CCMIOSimulator are in the same state at
    CHECK_FRAME_TSTATES into the frame after CHECK_FRAMES frames: "yes (...)" or what differs."""
    from zxmonopoly.spectrum import Spectrum48

    sim = _skoolkit_machine()
    target = CHECK_FRAMES * FRAME_TSTATES + CHECK_FRAME_TSTATES
    _trace_to(sim, target)
    theirs = _skoolkit_registers(sim.registers, sim.memory)
    machine = Spectrum48(rom=busy_rom(), engine=engine)
    machine.run_frames(CHECK_FRAMES)
    while machine.tstates < CHECK_FRAME_TSTATES:
        machine.step()
    ours = _our_registers(machine.cpu, CHECK_FRAMES * FRAME_TSTATES + machine.tstates,
                          machine.memory)
    return _difference(ours, theirs)


def compare_cpu(engines: Sequence[str], rounds: int, seconds: float,
                progress: Callable[[str], None] = lambda _: None) -> list[Pairing]:
    """Paired rounds of each of our bare ``engines`` on the workload against SkoolKit's
    CSimulator (jit) or its Python Simulator (python)."""
    pairings = []
    for engine in engines:
        kind = "C" if engine == "jit" else "Python"
        progress(f"{engine} beside SkoolKit's {kind} simulator")
        ours, theirs = OurCpu(engine), SkoolkitCpu(kind)
        speeds = paired_rounds(ours, theirs, rounds, seconds)
        pairings.append(Pairing(engine, theirs.name, ours.unit, *speeds,
                                check_cpu(engine, kind)))
    return pairings


def compare_machine(engines: Sequence[str], rounds: int, seconds: float,
                    progress: Callable[[str], None] = lambda _: None) -> list[Pairing]:
    """Paired rounds of our whole machine on each of ``engines`` against CCMIOSimulator, on
    the busy program."""
    pairings = []
    for engine in engines:
        progress(f"the {engine} machine beside CCMIOSimulator")
        machine, sim = OurMachine(engine), SkoolkitMachine()
        speeds = paired_rounds(machine, sim, rounds, seconds)
        pairings.append(Pairing(f"{engine} 48K", sim.name, machine.unit, *speeds,
                                check_machine(engine)))
    return pairings


def format_comparison(pairings: Sequence[Pairing], version: str, rounds: int,
                      seconds: float) -> str:
    """The table of paired rounds beside SkoolKit."""
    lines = [f"Beside SkoolKit {version}: {rounds} paired rounds of {seconds:g} s a side, "
             "median speed (range), ratio ours/theirs median (range)", "",
             f"{'ours':<10} {'theirs':<15} {'unit':<11} {'ours':>22} {'theirs':>22} "
             f"{'ratio':>19}  identical"]
    for p in pairings:
        def spread(values: Sequence[float], fmt: str) -> str:
            return (f"{statistics.median(values):{fmt}} "
                    f"({min(values):{fmt}}-{max(values):{fmt}})")

        fmt = ".3g"
        ours = spread([v / 1e6 for v in p.our_speeds] if p.unit == "T-states/s"
                      else p.our_speeds, fmt)
        theirs = spread([v / 1e6 for v in p.their_speeds] if p.unit == "T-states/s"
                        else p.their_speeds, fmt)
        unit = "M T/s" if p.unit == "T-states/s" else p.unit
        ratio = (f"{p.median:.2f}x ({min(p.ratios):.2f}-{max(p.ratios):.2f})")
        lines.append(f"{p.ours:<10} {p.theirs:<15} {unit:<11} {ours:>22} {theirs:>22} "
                     f"{ratio:>19}  {p.identical}")
    lines += ["",
              "bare: the mixed workload (SkoolKit stops at its outer loop each pass); 48K: the "
              "busy program,",
              "ours the whole machine (video, contention, interrupts), theirs CCMIOSimulator "
              "(contended memory",
              "and I/O, frame interrupts). identical: the same end state (T-states, registers, "
              "memory CRC)",
              f"after {CHECK_PASSES} outer passes (bare) or {CHECK_FRAMES} frames and "
              f"{CHECK_FRAME_TSTATES:,} T (48K), on fresh instances."]
    return "\n".join(lines)
