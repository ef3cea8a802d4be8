"""Speed of the Z80 engines on a mixed workload, in T-states per second and multiples of real time.

Run it as ``zxmonopoly bench`` or ``python tools/bench_z80.py``; ``zxmonopoly bench --machine``
measures the whole 48K machine instead, in frames per second of a busy program.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zxmonopoly import JIT_FIRST_COMPILE
from zxmonopoly.bench_workload import busy_rom, make_cpu
from zxmonopoly.spectrum.timing import FIFTY_HZ_CPU, FRAMES_PER_SECOND, OUR_ROM_BOOT_FRAMES


@dataclass(frozen=True)
class Speed:
    """T-states run and wall-clock seconds taken by one engine."""

    engine: str
    tstates: int
    seconds: float

    @property
    def tstates_per_second(self) -> float:
        return self.tstates / self.seconds if self.seconds > 0 else 0.0

    @property
    def real_time_multiple(self) -> float:
        return self.tstates_per_second / FIFTY_HZ_CPU


def measure(engine: str | None, seconds: float = 3.0) -> Speed:
    """Run the workload for about ``seconds`` of wall-clock time, after a warm-up run."""
    cpu = make_cpu(engine)
    cpu.run(cpu.tstates + 10_000)  # warm-up: compiles or loads the jit engine
    chunk = 10_000
    # Grow the chunk until one run() call takes a noticeable time, so that call overhead does
    # not count.
    while True:
        start = time.perf_counter()
        cpu.run(cpu.tstates + chunk)
        if time.perf_counter() - start >= 0.02 or chunk >= 1 << 30:
            break
        chunk *= 2
    begin_tstates = cpu.tstates
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        cpu.run(cpu.tstates + chunk)
        elapsed = time.perf_counter() - start
    return Speed(engine or "default", cpu.tstates - begin_tstates, elapsed)


def _startup_probe(engine: str) -> None:
    """In a fresh interpreter: print seconds from importing the core to finishing a first run."""
    start = time.perf_counter()
    cpu = make_cpu(engine)
    cpu.run(cpu.tstates + 10_000)
    print(json.dumps({"seconds": time.perf_counter() - start}))


def startup_seconds(engine: str, cache_dir: str) -> float:
    """Seconds a new process takes to import the core and run briefly, numba cache in cache_dir."""
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = cache_dir
    env.pop("ZXMONOPOLY_ENGINE", None)
    package_root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    code = f"from zxmonopoly.benchmarks import _startup_probe; _startup_probe({engine!r})"
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"startup probe of the {engine} engine failed:\n{result.stderr}")
    return float(json.loads(result.stdout.strip().splitlines()[-1])["seconds"])


#: Rounds of :func:`new_cpu_seconds` that ``bench`` takes the median of.
NEW_CPU_ROUNDS = 31


def new_cpu_seconds(engine: str, rounds: int = 31) -> tuple[float, float, float]:
    """(median, fastest, slowest) seconds to make a Z80 and run its first 1,000 T-states, in a
    process that has loaded the engine already (what each test of a suite pays)."""
    from zxmonopoly.z80 import Z80

    make_cpu(engine).run(1_000)  # loads (or compiles) the engine: not part of the figure
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        Z80(bytearray(65536), engine=engine).run(1_000)
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2], times[0], times[-1]


def jit_startup() -> tuple[float, float]:
    """(cold, warm) start-up seconds of the jit engine: empty numba cache, then the same cache."""
    with tempfile.TemporaryDirectory(prefix="zxmonopoly-numba-") as cache_dir:
        cold = startup_seconds("jit", cache_dir)
        warm = startup_seconds("jit", cache_dir)
    return cold, warm


# -- start-up of the window and the machine's engines (``bench --startup``) --------------------

#: Frames the window needs to show the boot and the whole of LOAD "" typed.
def _window_load_frames() -> int:
    return OUR_ROM_BOOT_FRAMES + 4 * 8 + 1


def _fresh_env(cache_dir: str) -> dict[str, str]:
    """The environment of a new process: this package's source, numba's cache in cache_dir."""
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = cache_dir
    env.pop("ZXMONOPOLY_ENGINE", None)
    package_root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    return env


def window_startup_seconds(cache_dir: str) -> float:
    """Wall seconds from starting ``zxmonopoly play`` to LOAD "" typed on its screen.

    The window runs under SDL's dummy driver, muted, paced at 50 frames/s as a user sees it,
    with no engine asked for (so it plays on CPython while the JIT is got ready in the
    background), and closes after the frame where LOAD "" is complete.
    """
    env = _fresh_env(cache_dir)
    env["SDL_VIDEODRIVER"] = env["SDL_AUDIODRIVER"] = "dummy"
    with tempfile.TemporaryDirectory(prefix="zxmonopoly-bench-") as work:
        shot = Path(work) / "load.png"
        start = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "zxmonopoly.cli", "play", "--mute", "--exit-after-frames",
             str(_window_load_frames()), "--screenshot", str(shot)],
            env=env, cwd=work, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - start
        if result.returncode != 0 or not shot.is_file():
            raise RuntimeError(f"the window's start-up run failed:\n{result.stderr}")
    return seconds


def _spectrum_jit_probe() -> None:
    """In a fresh interpreter: print seconds from import to the Spectrum JIT's first frame."""
    start = time.perf_counter()
    from zxmonopoly.spectrum.engine import compile_spectrum_jit

    compile_spectrum_jit()
    print(json.dumps({"seconds": time.perf_counter() - start}))


def spectrum_jit_seconds(cache_dir: str) -> float:
    """Seconds a new process takes to compile (empty cache) or load the Spectrum JIT."""
    code = "from zxmonopoly.benchmarks import _spectrum_jit_probe; _spectrum_jit_probe()"
    result = subprocess.run([sys.executable, "-c", code], env=_fresh_env(cache_dir),
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"the Spectrum JIT start-up probe failed:\n{result.stderr}")
    return float(json.loads(result.stdout.strip().splitlines()[-1])["seconds"])


def measure_startup(jit: bool = True) -> list[tuple[str, float, float | None]]:
    """(what, cold seconds, warm seconds) of the window and, with ``jit``, the Spectrum JIT.

    Cold: a new, empty numba cache directory; warm: the same directory once the JIT has been
    compiled into it (the window's cold run stops its background compile when it closes).
    """
    rows: list[tuple[str, float, float | None]] = []
    with tempfile.TemporaryDirectory(prefix="zxmonopoly-numba-") as cache_dir:
        window_cold = window_startup_seconds(cache_dir)
        if not jit:
            rows.append(('window: LOAD "" typed', window_cold, None))
            return rows
        jit_cold = spectrum_jit_seconds(cache_dir)
        jit_warm = spectrum_jit_seconds(cache_dir)
        window_warm = window_startup_seconds(cache_dir)
    rows.append(('window: LOAD "" typed', window_cold, window_warm))
    rows.append(("Spectrum JIT: first frame", jit_cold, jit_warm))
    return rows


def format_startup_table(rows: Sequence[tuple[str, float, float | None]]) -> str:
    """The start-up report."""
    lines = ["Start-up of a new process: numba's cache empty (cold), then filled (warm)", "",
             f"{'':<28} {'cold':>9} {'warm':>9}"]
    for what, cold, warm in rows:
        warm_text = "-" if warm is None else f"{warm:.1f} s"
        lines.append(f"{what:<28} {cold:>7.1f} s {warm_text:>9}")
    lines += ["",
              f'window: `zxmonopoly play` until LOAD "" is typed ({_window_load_frames()} frames '
              "at 50/s, SDL dummy driver); it",
              "plays on CPython at once, cold or warm. Spectrum JIT: compiling it (cold) or "
              "loading it",
              "from the cache (warm) and running a frame, as the window's background work does."]
    return "\n".join(lines)


def format_table(
    speeds: Sequence[Speed], startups: dict[str, tuple[float, float]], seconds: float,
    new_cpus: dict[str, tuple[float, float, float]] | None = None,
) -> str:
    """The benchmark's report."""
    lines = [
        f"Z80 engines, mixed workload, {seconds:g} s each "
        f"(a real Spectrum runs {FIFTY_HZ_CPU:,} T-states/s)",
        "",
        f"{'engine':<8} {'T-states/s':>14} {'x real time':>12} {'cold start':>11} "
        f"{'warm start':>11}",
    ]
    for speed in speeds:
        cold, warm = ("-", "-")
        if speed.engine in startups:
            cold, warm = (f"{s:.2f} s" for s in startups[speed.engine])
        lines.append(
            f"{speed.engine:<8} {speed.tstates_per_second:>14,.0f} "
            f"{speed.real_time_multiple:>11.2f}x {cold:>11} {warm:>11}"
        )
    if startups:
        lines += [
            "",
            "cold/warm start: a new process importing the core and running 10,000 T-states, with",
            "an empty numba cache (compiles) and then with the cache that run left (loads).",
        ]
    if new_cpus:
        lines += ["", "a new Z80 and its first run of 1,000 T-states, the engine loaded "
                  f"(median of {NEW_CPU_ROUNDS}, fastest-slowest):"]
        lines += [f"  {engine:<8} {median * 1000:.3f} ms ({low * 1000:.3f}-{high * 1000:.3f})"
                  for engine, (median, low, high) in new_cpus.items()]
    return "\n".join(lines)


# -- the whole machine ------------------------------------------------------------------------

@dataclass(frozen=True)
class MachineSpeed:
    """Frames a headless 48K ran and the wall-clock seconds taken, for one engine."""

    engine: str
    frames: int
    seconds: float

    @property
    def frames_per_second(self) -> float:
        """Frames run per wall-clock second."""
        return self.frames / self.seconds if self.seconds > 0 else 0.0

    @property
    def real_time_multiple(self) -> float:
        """How many times faster than a real 48K (50.08 frames/s)."""
        return self.frames_per_second / FRAMES_PER_SECOND


def measure_machine(engine: str | None, seconds: float = 3.0) -> MachineSpeed:
    """Run the busy ROM headless for about ``seconds``, after a warm-up; count whole frames."""
    from zxmonopoly.spectrum import Spectrum48

    machine = Spectrum48(rom=busy_rom(), engine=engine)
    machine.run_frames(5)  # warm-up: compiles or loads the jit engine
    batch = 1
    while True:  # grow the batch until one takes a noticeable time
        start = time.perf_counter()
        machine.run_frames(batch)
        if time.perf_counter() - start >= 0.02 or batch >= 1 << 16:
            break
        batch *= 2
    frames = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        machine.run_frames(batch)
        frames += batch
        elapsed = time.perf_counter() - start
    return MachineSpeed(machine.engine, frames, elapsed)


def format_machine_table(speeds: Sequence[MachineSpeed], seconds: float) -> str:
    """The machine benchmark's report."""
    lines = [
        f"48K machine, busy program (interrupts on, no HALT, contended RAM), {seconds:g} s each "
        f"(real time = {FRAMES_PER_SECOND:.2f} frames/s)",
        "",
        f"{'engine':<8} {'frames/s':>12} {'x real time':>12}",
    ]
    for speed in speeds:
        lines.append(
            f"{speed.engine:<8} {speed.frames_per_second:>12,.1f} "
            f"{speed.real_time_multiple:>11.2f}x"
        )
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options (all but --engine) to ``parser``."""
    parser.add_argument(
        "--seconds",
        type=float,
        default=3.0,
        metavar="S",
        help="wall-clock seconds to run each engine (default: 3)",
    )
    parser.add_argument(
        "--no-startup",
        action="store_true",
        help="skip measuring the jit engine's cold and warm start in new processes",
    )
    parser.add_argument(
        "--startup",
        action="store_true",
        help="measure start-up instead: the window until LOAD \"\" is typed, and the Spectrum "
        "JIT's compile (empty numba cache) and load (filled cache), each in a new process",
    )
    parser.add_argument(
        "--machine",
        action="store_true",
        help="measure the whole 48K machine (frames/s of a busy program) instead of the core",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=9,
        metavar="N",
        help="paired rounds against SkoolKit's simulators, when SkoolKit is installed "
        "(default: 9; 0 skips them)",
    )
    parser.add_argument(
        "--round-seconds",
        type=float,
        default=0.4,
        metavar="S",
        help="wall-clock seconds of each side of a paired round (default: 0.4)",
    )
    parser.add_argument(
        "--net",
        action="store_true",
        help="measure network play instead: two peers through a delaying relay at 0-250 ms "
        "round trip (--seconds each, after 2 s of warm-up; python engine unless --engine)",
    )
    parser.add_argument(
        "--lobby",
        action="store_true",
        help="measure the lobby instead: many rooms of headless players through one lobby "
        "process (--rooms, --players; --seconds each after 3 s): messages a second, the delay "
        "through it (median, 99th percentile), its CPU",
    )
    parser.add_argument(
        "--browser",
        action="store_true",
        help="measure the browser's seat instead: the stream's bytes a second over a whole "
        "computer game, a key's round trip on a page, a host's frames/s with 8 pages watching "
        "(--seconds; headless Chromium for the rows with a real browser)",
    )
    parser.add_argument("--rooms", default="10,50,100", metavar="N[,N...]",
                        help="with --lobby: the numbers of rooms, a row each (default 10,50,100)")
    parser.add_argument("--players", type=int, default=4, metavar="N",
                        help="with --lobby: players a room, the host included (default 4)")


def _beside_skoolkit(args: argparse.Namespace, engines: Sequence[str], machine: bool,
                     out) -> None:
    """Print the paired rounds against SkoolKit's simulators, or why there are none."""
    from zxmonopoly import bench_skoolkit

    rounds = getattr(args, "rounds", 0)
    if rounds <= 0:
        return
    version = bench_skoolkit.skoolkit_version()
    print(file=out)
    if version is None:
        print("SkoolKit: not installed (pip install 'zxmonopoly[bench]'), no side-by-side rows",
              file=out)
        return
    seconds = getattr(args, "round_seconds", 0.4)
    compare = bench_skoolkit.compare_machine if machine else bench_skoolkit.compare_cpu
    pairings = compare(engines, rounds, seconds,
                       lambda what: print(f"pairing {what} ...", file=sys.stderr, flush=True))
    print(bench_skoolkit.format_comparison(pairings, version, rounds, seconds), file=out)


def run_from_args(args: argparse.Namespace, out=None) -> int:
    """Run the benchmark as ``zxmonopoly bench`` asked; print the table to ``out``."""
    from zxmonopoly.z80 import ENGINES, jit_available

    out = sys.stdout if out is None else out
    if getattr(args, "lobby", False):
        from zxmonopoly.net.lobbybench import run_from_args as run_lobby

        try:
            rooms = [int(n) for n in args.rooms.split(",")]
        except ValueError:
            raise ValueError(f"--rooms {args.rooms!r}: numbers, with commas") from None
        if not all(1 <= n <= 500 for n in rooms) or not 2 <= args.players <= 6:
            raise ValueError("--rooms 1 to 500 each, --players 2 to 6")
        return run_lobby(args.seconds, rooms, args.players, out)
    if getattr(args, "browser", False):
        from zxmonopoly.bench_browser import run_from_args as run_browser

        return run_browser(args.seconds, args.engine, out)
    if getattr(args, "net", False):
        from zxmonopoly.bench_net import run_from_args as run_net

        return run_net(args.seconds, args.engine, out)
    if args.engine is not None:
        engines = [args.engine]
    else:
        engines = [e for e in ENGINES if e != "jit" or jit_available()]
    notes = []
    if "jit" in engines and not jit_available():
        engines.remove("jit")
        notes.append("jit: skipped, numba cannot be imported")
    elif args.engine is None and not jit_available():
        notes.append("jit: skipped, numba cannot be imported")
    if getattr(args, "startup", False):
        print(f"measuring start-up (a cold compile takes {JIT_FIRST_COMPILE}) ...", file=sys.stderr,
              flush=True)
        rows = measure_startup(jit="jit" in engines)
        print(format_startup_table(rows), file=out)
        for note in notes:
            print(note, file=out)
        return 0
    if getattr(args, "machine", False):
        machine_speeds = []
        for engine in engines:
            print(f"measuring the machine on {engine} ...", file=sys.stderr, flush=True)
            machine_speeds.append(measure_machine(engine, args.seconds))
        print(format_machine_table(machine_speeds, args.seconds), file=out)
        _beside_skoolkit(args, engines, machine=True, out=out)
        for note in notes:
            print(note, file=out)
        return 0
    speeds = []
    startups: dict[str, tuple[float, float]] = {}
    new_cpus: dict[str, tuple[float, float, float]] = {}
    for engine in engines:
        print(f"measuring {engine} ...", file=sys.stderr, flush=True)
        speeds.append(measure(engine, args.seconds))
        new_cpus[engine] = new_cpu_seconds(engine, NEW_CPU_ROUNDS)
        if engine == "jit" and not args.no_startup:
            startups[engine] = jit_startup()
    print(format_table(speeds, startups, args.seconds, new_cpus), file=out)
    _beside_skoolkit(args, engines, machine=False, out=out)
    for note in notes:
        print(note, file=out)
    return 0
