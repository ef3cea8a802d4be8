"""Engine choice and switching: CPython now, the JIT when it is ready, the state carried exactly."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import REPO_ROOT
from zxmonopoly import images
from zxmonopoly.spectrum import Spectrum48
from zxmonopoly.spectrum import engine as choice
from zxmonopoly.z80 import jit_available, state

needs_numba = pytest.mark.skipif(not jit_available(), reason="numba cannot be imported: no jit")


#: The state array's slots both engines keep (the JIT_ ones, and the unnamed, are the JIT's
#: scratch within one run).
SHARED_SLOTS = sorted({value for name, value in vars(state).items()
                       if name.isupper() and not name.startswith(("EXIT", "JIT_"))
                       and name != "SIZE"})


def snapshot_of(machine: Spectrum48) -> tuple:
    """Everything the two engines share, as plain values."""
    st = machine.cpu.state
    return (bytes(machine.memory), [int(st[k]) for k in SHARED_SLOTS], machine.frame,
            machine.border, list(machine.last_frame_events), list(machine._frame_events),
            machine.cpu.breakpoints.addresses, machine.deck.playing)


def loading_machine(engine: str) -> Spectrum48:
    """Our ROM with the game's tape playing in real time (EAR edges, border stripes)."""
    machine = Spectrum48(engine=engine)
    machine.deck.set_fast(False)
    machine.deck.insert(images.game_tape_path())
    machine.cpu.breakpoints[0x1234] = 1  # a breakpoint nobody reaches: it must carry over
    machine.run_frames(30)
    for key in ("J", "SYMBOL SHIFT+P", "SYMBOL SHIFT+P", "ENTER"):
        machine.tap(key)
    machine.deck.play()
    return machine


@pytest.mark.parametrize(("first", "then"), [("python", "jit"), ("jit", "python"),
                                             ("python", "python")])
def test_switching_engines_between_frames_changes_nothing(first: str, then: str) -> None:
    if "jit" in (first, then) and not jit_available():
        pytest.skip("numba cannot be imported: no jit")
    switched = loading_machine(first)
    straight = loading_machine("python")
    switched.run_frames(40)
    straight.run_frames(40)
    switched.step()  # mid-frame too: a switch is allowed between any two runs
    straight.step()
    switched.set_engine(then)
    assert switched.engine == then and switched.cpu.engine == then
    switched.run_frames(60)
    straight.run_frames(60)
    assert snapshot_of(switched) == snapshot_of(straight)
    assert switched.screen_text() == straight.screen_text()


def test_the_machine_never_binds_the_bare_cpus_engine() -> None:
    machine = Spectrum48(engine="python")
    machine.run_frames(3)
    assert machine.cpu._run is None  # the Spectrum engine runs the state, not Z80.run


def rule(monkeypatch: pytest.MonkeyPatch, *, numba: bool, cached: bool) -> None:
    monkeypatch.delenv("ZXMONOPOLY_ENGINE", raising=False)
    monkeypatch.setattr(choice, "jit_available", lambda: numba)
    monkeypatch.setattr(choice, "spectrum_jit_cached", lambda: cached)


@pytest.mark.parametrize(("numba", "cached", "frames", "expected"), [
    (False, False, 10**6, "python"),  # no numba
    (True, True, 300, "python"),  # short: loading numba costs more than python takes
    (True, True, choice.SHORT_RUN_FRAMES, "jit"),  # in the cache: used
    (True, True, None, "jit"),
    (True, False, None, "python"),  # not cached, length unknown: never compiled
    (True, False, choice.LONG_RUN_FRAMES - 1, "python"),
    (True, False, choice.LONG_RUN_FRAMES, "jit"),  # long: the compile pays for itself
])
def test_the_engine_rule(monkeypatch, numba, cached, frames, expected) -> None:
    rule(monkeypatch, numba=numba, cached=cached)
    assert choice.choose_machine_engine(None, frames) == expected


def test_an_engine_asked_for_wins(monkeypatch) -> None:
    rule(monkeypatch, numba=True, cached=False)
    assert choice.choose_machine_engine("jit", 10) == "jit"
    monkeypatch.setenv("ZXMONOPOLY_ENGINE", "python")
    assert choice.choose_machine_engine(None, 10**6) == "python"


def test_a_short_headless_run_does_not_even_import_numba() -> None:
    code = ("import sys; from zxmonopoly.cli import main; "
            "status = main(['run', '--frames', '300', '--screen-text']); "
            "print('numba' in sys.modules, status)")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src")}
    env.pop("ZXMONOPOLY_ENGINE", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.splitlines()[-1] == "False 0"
    assert "zxmonopoly ROM" in out


def wait_for(jit: choice.BackgroundJit) -> None:
    assert jit._thread is not None
    jit._thread.join(300)
    assert not jit._thread.is_alive()


def test_a_failed_background_compile_is_reported(monkeypatch) -> None:
    monkeypatch.setattr(choice, "spectrum_jit_cached", lambda: False)
    monkeypatch.setattr(choice, "_compile_command", lambda: [
        sys.executable, "-c", "import sys; print('numba blew up', file=sys.stderr); sys.exit(3)"])
    jit = choice.BackgroundJit()
    jit.start()
    wait_for(jit)
    assert jit.state == "failed" and not jit.ready()
    assert jit.error == "the compile exited with status 3: numba blew up"


@needs_numba
def test_background_compile_then_load(monkeypatch) -> None:
    Spectrum48(engine="jit")  # the cache is filled (by this, or by earlier tests)
    monkeypatch.setattr(choice, "spectrum_jit_cached", lambda: False)  # as if it were not
    monkeypatch.setattr(choice, "_compile_command", lambda: [sys.executable, "-c", "pass"])
    jit = choice.BackgroundJit()
    jit.start()
    wait_for(jit)
    assert jit.state == "ready", jit.error
    assert jit.compile_seconds is not None


def test_the_compile_command_runs_this_source_at_low_priority() -> None:
    command = choice._compile_command()
    assert command[0] == sys.executable
    assert "os.nice(19)" in command[2] and "compile_spectrum_jit()" in command[2]
    assert str(REPO_ROOT / "src") in command[2]


def test_cancel_stops_the_compile_process(monkeypatch) -> None:
    monkeypatch.setattr(choice, "spectrum_jit_cached", lambda: False)
    monkeypatch.setattr(choice, "_compile_command",
                        lambda: [sys.executable, "-c", "import time; time.sleep(60)"])
    jit = choice.BackgroundJit()
    jit.start()
    end = time.monotonic() + 60
    while jit._process is None:  # the compile's process started by the thread
        assert time.monotonic() < end, "no compile process"
        time.sleep(0.01)
    process = jit._process
    assert process is not None
    jit.cancel()
    wait_for(jit)
    assert process.poll() is not None and not jit.ready()


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (Linux: its /proc entry, not a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not (hasattr(os, "killpg") and Path("/proc/self/stat").is_file()),
                    reason="process groups and /proc: Linux")
def test_cancel_stops_the_compile_s_worker_processes_too(monkeypatch, tmp_path: Path) -> None:
    """The compile runs workers of its own (z80/jitbuild.py); a SIGTERM ends the compile's
    process before its clean-up, so the cancel stops its whole process group."""
    pid_file = tmp_path / "worker.pid"
    code = ("import subprocess, sys, time\n"
            "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
            f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
            "time.sleep(120)\n")
    monkeypatch.setattr(choice, "spectrum_jit_cached", lambda: False)
    monkeypatch.setattr(choice, "_compile_command", lambda: [sys.executable, "-c", code])
    jit = choice.BackgroundJit()
    jit.start()
    end = time.monotonic() + 60
    while not pid_file.is_file() or not pid_file.read_text():  # the worker has started
        assert time.monotonic() < end, "the compile's worker did not start"
        time.sleep(0.01)
    worker = int(pid_file.read_text())
    assert running(worker)
    jit.cancel()
    wait_for(jit)
    while running(worker):  # a signal is delivered at once; the process ends just after
        assert time.monotonic() < end, "the compile's worker outlived the cancel"
        time.sleep(0.01)


def test_run_counts_the_most_frames_its_options_can_take() -> None:
    from zxmonopoly.harness.headless import Run
    from zxmonopoly.spectrum.timing import BOOT_FRAMES

    assert Run(frames=300, until_text="X", max_frames=900, type="ab\n").most_frames() == (
        300 + 900 + 3 * 6)
    assert Run(frames=100, game=True).most_frames() == 100 + BOOT_FRAMES + 4 * 6


def test_script_never_compiles_when_the_cache_is_cold(monkeypatch) -> None:
    from zxmonopoly import cli

    rule(monkeypatch, numba=True, cached=False)
    assert cli._machine_engine(None, None) == "python"
    rule(monkeypatch, numba=True, cached=True)
    assert cli._machine_engine(None, None) == "jit"
    monkeypatch.setenv("ZXMONOPOLY_ENGINE", "bogus")
    with pytest.raises(cli.CliError, match="ZXMONOPOLY_ENGINE"):
        cli._machine_engine(None, None)
