"""Tests of the JIT's cold compile (zxmonopoly.z80.jitbuild): helpers compiled once each, for
the types ``run`` passes, in worker processes that fill numba's cache; the measured estimate."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from zxmonopoly.z80 import jit_available

pytestmark = pytest.mark.skipif(not jit_available(), reason="numba cannot be imported: no jit")

# A small engine of the generated engines' shape: ``run`` calls two helpers, one of which
# calls a third; a module array read by a helper; scalars as int64 (literals at the calls).
ENGINE = '''
import numpy as np
from numba import njit

TAB = np.array([10, 20, 30, 40], dtype=np.int64)


@njit(cache=True, _nrt=False)
def _leaf(TAB, x):
    return TAB[x & 3] + x


@njit(cache=True, _nrt=False)
def _big(st, mem, x, y):
    st[0] = _leaf(TAB, x) + y + mem[0]
    return 0


@njit(cache=True, _nrt=False)
def _other(st, until):
    st[1] = until * 2
    return 3


@njit(cache=True, _nrt=False)
def run(st, mem, until):
    x = 1
    reason = _big(st, mem, x, 0)
    reason += _other(st, until)
    return reason
'''


@pytest.fixture
def engine_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The small engine as an importable module, seen by worker processes too."""
    name = f"jitbuild_probe_{os.getpid()}_{tmp_path.name}".replace("-", "_")
    (tmp_path / f"{name}.py").write_text(ENGINE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    module = importlib.import_module(name)
    yield module
    sys.modules.pop(name, None)


def test_each_helper_is_compiled_once_in_the_workers_and_run_links_them(
        engine_module, monkeypatch: pytest.MonkeyPatch) -> None:
    from zxmonopoly.z80 import jitbuild

    monkeypatch.setenv(jitbuild.JOBS_ENV, "2")
    st = np.zeros(4, dtype=np.int64)
    mem = np.zeros(8, dtype=np.uint8)
    mem[0] = 7
    seconds, workers = jitbuild.compile_helpers(engine_module, (st, mem, 5))
    assert workers == 2  # _big and _other, each in its own process; _leaf in _big's
    assert set(seconds) == {"_leaf", "_big", "_other"}
    for name in ("_big", "_other"):
        # loaded here from the cache its worker wrote, not compiled again
        assert sum(getattr(engine_module, name).stats.cache_hits.values()) == 1
    assert engine_module.run(st, mem, 5) == 3
    assert list(st[:2]) == [20 + 1 + 0 + 7, 10]
    for name in ("_leaf", "_big", "_other"):
        assert len(getattr(engine_module, name).signatures) == 1  # none for other types


def test_the_signatures_are_run_s_types_module_arrays_read_only_and_int64() -> None:
    from numba import types

    from zxmonopoly.spectrum import _engine_jit as spectrum_jit
    from zxmonopoly.spectrum.machine import contention_table
    from zxmonopoly.z80 import state as S
    from zxmonopoly.z80.cpu import engine_tables
    from zxmonopoly.z80.jitbuild import helper_signatures

    st = np.zeros(S.SIZE, dtype=np.int64)
    mem = np.zeros(65536, dtype=np.uint8)
    machine = (contention_table(), np.zeros(8, np.uint8), np.zeros(1, np.uint8),
               np.zeros(4, np.int64), np.zeros(4, np.int64),
               np.zeros(4, np.uint8))  # CONT, keys, joy, out_log, tape, in_log (RZX's port reads)
    sigs = helper_signatures(spectrum_jit, (st, mem, mem, 0, *engine_tables("jit"), *machine))
    walk = dict(zip(["CONT", "CYC", "k"], sigs["_walk"], strict=False))
    assert not walk["CYC"].mutable and walk["CONT"].mutable
    assert walk["k"] == types.int64
    assert set(sigs) >= {"_walk", "_port_in", "_prefix_ed", "_prefix_dd", "_prefix_fd"}


def test_helpers_are_built_after_the_helpers_they_call(engine_module) -> None:
    from zxmonopoly.z80.jitbuild import build_order, callees

    assert callees(engine_module) == {"_big": ["_leaf"], "_other": [], "_leaf": []}
    order = build_order(engine_module)
    assert order.index("_leaf") < order.index("_big")
    assert sorted(order) == ["_big", "_leaf", "_other"]


def test_the_work_is_dealt_to_the_least_loaded_worker() -> None:
    from zxmonopoly.z80.jitbuild import _deal

    assert _deal([("a", 9), ("b", 5), ("c", 4), ("d", 1)], 2) == [["a", "d"], ["b", "c"]]
    assert _deal([("a", 9)], 2) == [["a"]]  # no empty worker


def test_the_estimate_is_the_last_compile_measured_here(engine_module) -> None:
    from zxmonopoly import JIT_FIRST_COMPILE
    from zxmonopoly.z80 import jitbuild

    if jitbuild._times_path(engine_module) is None:
        pytest.skip("numba's cache path is not where jitbuild reads it")
    assert jitbuild.last_compile_seconds(engine_module) is None
    assert jitbuild.compile_estimate(engine_module) == JIT_FIRST_COMPILE
    jitbuild.record_compile_seconds(engine_module, 33.26)
    assert jitbuild.last_compile_seconds(engine_module) == 33.3
    assert jitbuild.compile_estimate(engine_module) == "the last one here took 33 s"


def test_a_prefix_exit_inside_a_loop_of_its_own_is_refused() -> None:
    from tests.z80.generator import part
    from zxmonopoly.z80.templates import Exit

    check = part("emit_numba").check_exits_outside_loops
    check(["while x:", "    x -= 1", Exit(2)])  # after the loop: the break leaves the pass
    with pytest.raises(ValueError, match="an exit inside a loop"):
        check(["if y:", "    while x:", "        " + Exit(2)])


# An engine of load_engine's shape (``run`` takes the state, memory, breakpoints, the limit and
# the flag tables), with one helper, so that a cold compile of it goes through jitbuild.
LOADABLE = '''
from numba import njit


@njit(cache=True, _nrt=False)
def _helper(st, until):
    st[0] = until + 1
    return 0


@njit(cache=True, _nrt=False)
def run(st, mem, bp, until, FT):
    return _helper(st, until)
'''

CHILD = '''
import sys
from zxmonopoly.z80.cpu import load_engine
load_engine("jit", sys.argv[1])
print("loaded", flush=True)
'''


def _first_line(child: Any, seconds: float) -> str:
    """The child's first line on stderr; a child silent for ``seconds`` is killed (an old
    lock that blocks without a word must fail the test, not hang the suite)."""
    import queue
    import threading

    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(child.stderr.readline()), daemon=True).start()
    try:
        return lines.get(timeout=seconds)
    except queue.Empty:
        child.kill()
        return f"(nothing in {seconds:.0f} s)"


def test_a_second_process_waits_for_the_compile_and_loads_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one process holds the compile lock, another that finds no cache waits; when the
    first has written the cache and let go, the second loads it without compiling."""
    import subprocess

    from zxmonopoly.z80 import jitbuild

    package = f"loadable_probe_{os.getpid()}_{tmp_path.name}".replace("-", "_")
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / package / "_engine_jit.py").write_text(LOADABLE)
    family = f"{package}._engine"  # as load_engine is given the engines' families
    monkeypatch.syspath_prepend(str(tmp_path))
    # the child imports this zxmonopoly (the source tree's, not an install's) and the probe
    ours = str(Path(jitbuild.__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(tmp_path), ours, os.environ.get("PYTHONPATH")])))
    module = importlib.import_module(f"{family}_jit")
    try:
        with jitbuild.compile_lock(module):
            child = subprocess.Popen([sys.executable, "-c", CHILD, family], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # The child imports numba, finds no cache and waits at the lock, saying so (its
            # first line); an unlocked child would say it is compiling instead.
            first = _first_line(child, 120)
            assert "waiting for another process's numba compile of" in first, first
            assert child.poll() is None
            st = np.zeros(4, dtype=np.int64)
            module.run(st, st, st, 5, st)  # the cache, written while the child waits
            assert st[0] == 6
        out, err = child.communicate(timeout=60)
    finally:
        sys.modules.pop(f"{family}_jit", None)
        sys.modules.pop(package, None)
    assert child.returncode == 0, err
    assert out == "loaded\n"
    assert "compiling" not in err, err  # it loaded what this process compiled


def test_the_compile_lock_is_let_go_when_its_holder_dies(tmp_path: Path, engine_module) -> None:
    """A process killed while compiling leaves no lock behind (the kernel's flock)."""
    import subprocess

    from zxmonopoly.z80 import jitbuild

    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a+b'); "
         "fcntl.flock(f.fileno(), fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)",
         str(Path(engine_module.run._cache._cache_path) / jitbuild.LOCK_FILE)],
        stdout=subprocess.PIPE, text=True)
    Path(engine_module.run._cache._cache_path).mkdir(parents=True, exist_ok=True)
    assert holder.stdout.readline() == "held\n"
    holder.kill()
    holder.wait()
    with jitbuild.compile_lock(engine_module):
        pass  # taken at once: a lock left behind would hang here


def test_the_lean_pipeline_compiles_what_the_engines_write_and_knows_its_options() -> None:
    """numba has both options the lean pipeline sets (else it would quietly compile the slow
    way), and a function of the engines' kind (int64 locals, a loop, a bool used only as a
    condition, an array written) compiles with it and computes what Python computes."""
    numba = pytest.importorskip("numba")
    from numba.core.compiler import Flags

    from zxmonopoly.z80.jitpipeline import LEAN_OPTIONS, LeanCompiler

    assert all(hasattr(Flags(), option) for option in LEAN_OPTIONS)

    def step(mem, n):
        t = 0
        pc = 0
        for _ in range(n):
            op = mem[pc] & 0xFF
            if op & 1:
                t += 7
            else:
                t += 4
            ok = (op & 0x40) == 0
            if ok:
                mem[pc] = (op + 3) & 0xFF
            pc = (pc + 1) & 0xFF
        return t

    lean = numba.njit(_nrt=False, pipeline_class=LeanCompiler)(step)
    mem = np.arange(256, dtype=np.uint8)
    expected = step(mem.copy(), 1000)
    assert lean(mem, 1000) == expected
