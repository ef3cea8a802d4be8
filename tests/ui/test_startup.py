"""Starting the window: no display is one line and exit 2; no waiting for the JIT."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.commands import cli, source_env

pygame = pytest.importorskip("pygame")

from zxmonopoly.spectrum import Spectrum48  # noqa: E402
from zxmonopoly.ui.display import NO_DISPLAY  # noqa: E402
from zxmonopoly.z80 import jit_available  # noqa: E402

ONE_LINE = f"zxmonopoly: error: {NO_DISPLAY}"
LAST_OUTPUT: list[str] = [""]


def zxmonopoly(*args: str, env: dict[str, str], timeout: float = 120) -> tuple[int, str]:
    """Run ``zxmonopoly ARGS`` (this interpreter) on this tree's source: (status, stderr).

    The last standard output is kept in ``LAST_OUTPUT``.
    """
    result = subprocess.run(cli(*args), env=source_env(env, PYGAME_HIDE_SUPPORT_PROMPT="1"),
                            capture_output=True, text=True, timeout=timeout, check=False)
    LAST_OUTPUT[:] = [result.stdout]
    return result.returncode, result.stderr


#: ``zxmonopoly ARGS`` run by ``main``, then a line of what it did before it ended: the
#: machines it made and whether pygame was imported.
COUNTING = """\
import sys
from zxmonopoly.spectrum import machine
made = []
init = machine.Spectrum48.__init__
machine.Spectrum48.__init__ = lambda self, *a, **k: made.append(1) or init(self, *a, **k)
from zxmonopoly.cli import main
status = main(sys.argv[1:])
print("machines", len(made), "pygame", "pygame" in sys.modules)
sys.exit(status)
"""


def without_display() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        env.pop(name, None)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland desktops only")
@pytest.mark.parametrize("args", [(), ("play", "--mute"), ("--mute",)])
def test_no_display_is_one_line_and_exit_2_at_once(args: tuple[str, ...]) -> None:
    """At once: before any machine is made, before pygame is even imported."""
    result = subprocess.run([sys.executable, "-c", COUNTING, *args],
                            env=source_env(without_display()), capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [ONE_LINE]
    assert result.stdout.split() == ["machines", "0", "pygame", "False"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland desktops only")
def test_a_display_with_no_server_is_refused_not_run_offscreen() -> None:
    env = without_display()
    env["DISPLAY"] = ":397"  # no X server there: SDL would fall back to its offscreen driver
    status, err = zxmonopoly("--mute", env=env)
    assert status == 2
    assert err.splitlines() == [ONE_LINE]  # SDL's own complaint is not added


def test_the_dummy_driver_asked_for_still_works(tmp_path: Path) -> None:
    env = without_display()
    env["SDL_VIDEODRIVER"] = env["SDL_AUDIODRIVER"] = "dummy"
    shot = tmp_path / "shot.png"
    status, err = zxmonopoly("--mute", "--engine", "python", "--exit-after-frames", "3",
                             "--screenshot", str(shot), env=env)
    assert status == 0, err
    assert shot.is_file()


@pytest.fixture
def dummy_sdl(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("ZXMONOPOLY_ENGINE", raising=False)
    yield


@pytest.mark.skipif(not jit_available(), reason="numba cannot be imported: no jit")
def test_the_window_starts_on_python_and_moves_to_the_jit(dummy_sdl, tmp_path: Path) -> None:
    from zxmonopoly.ui.runtime import JIT_START_FRAMES
    from zxmonopoly.ui.window import Window

    Spectrum48(engine="jit")  # numba's cache holds the engine (a cold one is test_engine's)
    said: list[str] = []
    w = Window(mute=True, snapshot_dir=tmp_path, out=said.append)
    try:
        assert w.machine.engine == "python" and w.jit is not None
        w.run(max_frames=JIT_START_FRAMES, paced=False)
        assert w.machine.engine == "python"
        deadline = time.monotonic() + 120
        while w.machine.engine == "python" and time.monotonic() < deadline:
            w.step(paced=False)
        assert w.machine.engine == "jit", (w.jit and w.jit.state, said)
        assert said[-1].startswith("zxmonopoly: the JIT engine is ready: switched from CPython")
        frame = w.machine.frame
        w.run(max_frames=w.frames_run + 5, paced=False)
        assert w.machine.frame == frame + 5
    finally:
        w.close()


def test_an_engine_asked_for_starts_no_background_work(dummy_sdl, tmp_path: Path) -> None:
    from zxmonopoly.ui.window import Window

    w = Window(engine="python", mute=True, snapshot_dir=tmp_path, out=lambda text: None)
    try:
        assert w.jit is None
        w.run(max_frames=20, paced=False)
        assert w.machine.engine == "python"
    finally:
        w.close()


def compile_processes(cache_dir: Path) -> list[int]:
    """Processes (Linux) whose environment points numba at ``cache_dir``."""
    found = []
    needle = f"NUMBA_CACHE_DIR={cache_dir}".encode()
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and needle in (proc / "environ").read_bytes().split(b"\0"):
                found.append(int(proc.name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not jit_available(), reason="numba cannot be imported: no jit")
def test_first_launch_with_an_empty_numba_cache_needs_no_waiting(tmp_path: Path) -> None:
    """The issue's check: 300 frames with an empty cache, the title shown, played on CPython
    while the JIT compiled in the background (45 s and more on 2 cores: it was not ready,
    so the window waited for it at no frame)."""
    from zxmonopoly.spectrum import video

    cache = tmp_path / "numba-cache"
    env = without_display()
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", NUMBA_CACHE_DIR=str(cache))
    env.pop("ZXMONOPOLY_ENGINE", None)
    shot = tmp_path / "title.png"
    status, err = zxmonopoly("play", "--mute", "--exit-after-frames", "300",
                             "--screenshot", str(shot), env=env)
    assert status == 0, err
    assert "compiling the JIT engine in the background" in LAST_OUTPUT[0]
    assert "the JIT engine is ready" not in LAST_OUTPUT[0]
    pixels = video.read_png(shot)[::2, ::2].astype(int)  # the window is 2x: back to 320x256
    banner = pixels[57:63, 100:225]  # the red band behind "M O N O P O L Y"
    red = (banner[..., 0] > 150) & (banner[..., 1] < 60) & (banner[..., 2] < 60)
    assert red.mean() > 0.4
    if sys.platform.startswith("linux"):  # the background compile ended with the window
        end = time.monotonic() + 30
        while compile_processes(cache):  # (signalled as the window closed: ending just after)
            assert time.monotonic() < end, compile_processes(cache)
            time.sleep(0.05)
