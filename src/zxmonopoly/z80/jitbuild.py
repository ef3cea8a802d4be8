"""Compiling a generated numba engine into numba's cache with its helpers in parallel.

A generated numba engine is a ``run`` function calling helper functions (one per prefix table,
the Spectrum's cycle walker). Left to itself, numba compiles a helper while it types ``run``,
once for every argument types it meets on the way (intermediate and literal types too: the
Spectrum's ED function was compiled twice, its walker five times), one after another. Here
each helper is compiled once, for the types ``run`` hands it, in worker processes that write
numba's on-disk cache; this process then loads them from the cache, forbids further compiles
of them (``run``'s calls convert to those types), and compiles ``run``, which links them.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import pickle
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

#: Environment variable: worker processes for a cold compile (default: the CPUs, at most the
#: helpers); 1 compiles every helper in this process.
JOBS_ENV = "ZXMONOPOLY_JIT_JOBS"


def helpers(module: Any) -> dict[str, Any]:
    """The module's numba functions other than ``run``, largest source first."""
    from numba.core.dispatcher import Dispatcher

    found = {name: obj for name, obj in vars(module).items()
             if isinstance(obj, Dispatcher) and name != "run"}
    size = {name: len(inspect.getsource(obj.py_func)) for name, obj in found.items()}
    return dict(sorted(found.items(), key=lambda item: -size[item[0]]))


def helper_signatures(module: Any, run_args: Sequence[Any]) -> dict[str, tuple[Any, ...]]:
    """Each helper's argument types as ``run`` passes them: a parameter named as one of
    ``run``'s takes that argument's type, one named as an array of the module takes its
    type (read-only), and every other is an int64 (the engines keep every scalar in an int64)."""
    from numba import typeof, types

    names = list(inspect.signature(module.run.py_func).parameters)
    known = {name: typeof(value) for name, value in zip(names, run_args, strict=True)}
    signatures = {}
    for name, function in helpers(module).items():
        argtypes = []
        for param in inspect.signature(function.py_func).parameters:
            if param in known:
                argtypes.append(known[param])
            elif isinstance(getattr(module, param, None), np.ndarray):
                # numba freezes a module's array into the compiled code: read-only there
                argtypes.append(typeof(getattr(module, param)).copy(readonly=True))
            else:
                argtypes.append(types.int64)
        signatures[name] = tuple(argtypes)
    return signatures


def jobs(count: int) -> int:
    """Worker processes for ``count`` helpers: $ZXMONOPOLY_JIT_JOBS, else the CPUs we may use."""
    asked = os.environ.get(JOBS_ENV, "")
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    wanted = int(asked) if asked.isdigit() and int(asked) > 0 else cpus
    return max(1, min(wanted, count))


def callees(module: Any) -> dict[str, list[str]]:
    """Each helper's helpers: the other helpers its source calls."""
    found = helpers(module)
    source = {name: inspect.getsource(f.py_func) for name, f in found.items()}
    return {name: [other for other in found if other != name and f"{other}(" in source[name]]
            for name in found}


def build_order(module: Any) -> list[str]:
    """The helpers, each after every helper it calls (then largest source first)."""
    calls = callees(module)
    done: list[str] = []

    def visit(name: str) -> None:
        if name not in done:
            for other in calls[name]:
                visit(other)
            done.append(name)

    for name in calls:  # (largest first)
        visit(name)
    return done


def _compile(module_name: str, name: str, argtypes: tuple[Any, ...]) -> float:
    """Compile one helper for one signature (or load it from numba's cache) and allow it no
    other: a caller compiled later converts its arguments to these types instead of making
    numba compile the helper again for each it meets. The seconds it took."""
    start = time.perf_counter()
    function = getattr(importlib.import_module(module_name), name)
    function.compile(argtypes)
    function.disable_compile()
    return time.perf_counter() - start


def _die_with_parent() -> None:
    """End this worker when the process that started it ends (the window's cancel, Ctrl-C)."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        try:  # PR_SET_PDEATHSIG (1): the kernel sends SIGKILL when the parent dies
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
        except (OSError, AttributeError):
            pass


def worker() -> None:
    """A worker process: compile the pickled tasks on stdin in turn, each a helper with the
    helpers it calls first, and print each helper's seconds as a JSON line."""
    parent = os.getppid()
    _die_with_parent()
    if os.getppid() != parent:  # the parent ended before we asked to end with it
        return
    ready: set[str] = set()
    for module_name, name, argtypes, first in pickle.loads(sys.stdin.buffer.read()):
        for callee, callee_types in first:  # (each compiled or loaded once per worker)
            if callee not in ready:
                _compile(module_name, callee, callee_types)
                ready.add(callee)
        seconds = _compile(module_name, name, argtypes)
        print(json.dumps({"name": name, "seconds": seconds}), flush=True)


def _deal(tasks: list[Any], workers: int) -> list[list[Any]]:
    """Tasks (largest first) dealt to ``workers`` lists: each next one to the list with the
    least work so far (a helper's compile time grows with its size, faster than linearly)."""
    piles: list[list[Any]] = [[] for _ in range(workers)]
    load = [0] * workers
    for task, size in tasks:
        k = load.index(min(load))
        piles[k].append(task)
        load[k] += size
    return [pile for pile in piles if pile]


def _run_workers(piles: list[list[Any]]) -> dict[str, float]:
    """Run one worker process per pile; the seconds of each helper they compiled."""
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    code = "from zxmonopoly.z80.jitbuild import worker; worker()"
    seconds: dict[str, float] = {}
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for pile in piles:
            proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, env=env)
            procs.append(proc)
            assert proc.stdin is not None
            proc.stdin.write(pickle.dumps(pile))
            proc.stdin.close()
        for proc in procs:
            assert proc.stdout is not None
            out = proc.stdout.read()
            proc.wait()
            for line in out.decode(errors="replace").splitlines():
                try:
                    done = json.loads(line)
                    seconds[done["name"]] = float(done["seconds"])
                except (ValueError, KeyError, TypeError):
                    continue  # not ours (a library printing): that helper is compiled here
    finally:
        for proc in procs:  # (an exception here: no worker outlives this process's compile)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return seconds


def compile_helpers(module: Any, run_args: Sequence[Any]) -> tuple[dict[str, float], int]:
    """Compile the module's helpers for ``run_args`` (in worker processes when more than one
    job), load them here and forbid them further compiles; the seconds each took, and the
    number of processes that compiled them."""
    signatures = helper_signatures(module, run_args)
    found = helpers(module)
    calls = callees(module)
    order = build_order(module)

    def first(name: str) -> list[tuple[str, tuple[Any, ...]]]:
        """The helpers ``name`` calls, at any depth, each after the ones it calls."""
        below = set(calls[name])
        while True:
            more = below | {c for n in below for c in calls[n]}
            if more == below:
                break
            below = more
        return [(n, signatures[n]) for n in order if n in below]

    # A helper another calls is compiled (cheaply) by every worker that needs it; the
    # others are dealt out, each to one worker.
    called = {c for name in calls for c in calls[name]}
    tasks = [((module.__name__, name, signatures[name], first(name)),
              len(inspect.getsource(found[name].py_func)) ** 2)
             for name in found if name not in called]
    seconds: dict[str, float] = {}
    workers = jobs(len(tasks))
    if workers > 1:
        seconds = _run_workers(_deal(tasks, workers))
    for name in order:  # from the workers' cache; compiled here if a worker failed
        took = _compile(module.__name__, name, signatures[name])
        seconds.setdefault(name, took)
    return seconds, workers


#: The file beside numba's cache of an engine that keeps how long its last cold compile took.
TIMES_FILE = "zxmonopoly-compile-seconds.json"
#: The file beside numba's cache that one cold compile at a time holds locked.
LOCK_FILE = "zxmonopoly-compile.lock"


@contextlib.contextmanager
def compile_lock(module: Any, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the cache's compile lock (an exclusive ``flock``, waiting for it) while inside;
    ``waiting`` is called first when another process holds it.

    The lock is the kernel's, so a process that dies holding it lets it go. Where there is
    no ``fcntl`` (Windows) or the cache directory cannot be written, nothing is locked and
    each process compiles for itself.
    """
    try:
        import fcntl

        directory = Path(module.run._cache._cache_path)
        directory.mkdir(parents=True, exist_ok=True)
        handle = open(directory / LOCK_FILE, "a+b")  # noqa: SIM115 (held across the yield)
    except (ImportError, AttributeError, OSError):
        yield
        return
    with handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _times_path(module: Any) -> Path | None:
    """Where the compile times of ``module``'s engine are kept (numba's cache directory)."""
    try:
        return Path(module.run._cache._cache_path) / TIMES_FILE
    except AttributeError:  # numba's internals moved: no record, no estimate
        return None


def compile_estimate(module: Any) -> str:
    """How long a cold compile of ``module``'s engine takes, as its users are told: the last
    one measured here, else the figure measured for this release (zxmonopoly.JIT_FIRST_COMPILE)."""
    from zxmonopoly import JIT_FIRST_COMPILE

    last = last_compile_seconds(module)
    return f"the last one here took {last:.0f} s" if last else JIT_FIRST_COMPILE


def last_compile_seconds(module: Any) -> float | None:
    """How long the last cold compile of ``module``'s engine took here, if it was recorded."""
    path = _times_path(module)
    try:
        value = json.loads(path.read_text())[module.__name__] if path else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return float(value) if isinstance(value, int | float) else None


def record_compile_seconds(module: Any, seconds: float) -> None:
    """Keep how long this cold compile of ``module``'s engine took, for the next one's message."""
    path = _times_path(module)
    if path is None:
        return
    try:
        times = json.loads(path.read_text()) if path.is_file() else {}
        times = times if isinstance(times, dict) else {}
        times[module.__name__] = round(seconds, 1)
        path.write_text(json.dumps(times))
    except (OSError, ValueError):
        pass  # a read-only cache: the next message gives the range instead
