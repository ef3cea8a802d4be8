"""The package as a user gets it (issue 31 part 3): ``python -m build`` makes an sdist and a
wheel, ``twine check`` passes them, the wheel holds what the program reads at run time (the
built images of src/zxmonopoly/data) and no tests or tools, and installed into a fresh
virtual environment outside the checkout it runs ``zxmonopoly --version``, ``zxmonopoly run
--game --frames 300 --screen-text`` (the title, as the checkout shows it) and keystroke
scripts through its pytest plugin, one failing on purpose.

Slow (a build, a venv and pip fetching numpy, numba and pygame): ``pytest -m slow
tests/test_wheel.py``, which .ci/run runs.
"""

from __future__ import annotations

import email.parser
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests import REPO_ROOT
from zxmonopoly import __version__, images

pytestmark = pytest.mark.slow

TITLE_SCRIPT = '# The bundled game at its title screen.\ngame\nexpect "PRESS ANY KEY"\n'
WRONG_SCRIPT = ('# Fails on purpose: the title does not say this.\ngame\n'
                'expect "PRESS NO KEY" at row 21\n')
WRONG_LINE = WRONG_SCRIPT.splitlines().index('expect "PRESS NO KEY" at row 21') + 1


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None,
         timeout: int = 600) -> subprocess.CompletedProcess[str]:
    """A command's run, its output kept for the assertion messages."""
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _user_env(home: Path) -> dict[str, str]:
    """The environment of a user outside the checkout: no PYTHONPATH (so nothing of src/ is
    seen), no pytest settings of ours, numba's cache in the user's own folder."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "VIRTUAL_ENV",
                        "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "ZXMONOPOLY_ENGINE")}
    env["NUMBA_CACHE_DIR"] = str(home / "numba_cache")
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel, built by ``python -m build`` (its own isolated environment)."""
    out = tmp_path_factory.mktemp("dist")
    run = _run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO_ROOT)], REPO_ROOT,
               timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    wheels, sdists = list(out.glob("*.whl")), list(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, list(out.iterdir())
    return {"wheel": wheels[0], "sdist": sdists[0]}


def test_twine_check_passes(dist: dict[str, Path]) -> None:
    run = _run([sys.executable, "-m", "twine", "check", "--strict", str(dist["wheel"]),
                str(dist["sdist"])], REPO_ROOT)
    assert run.returncode == 0 and run.stdout.count("PASSED") == 2, run.stdout + run.stderr


def test_the_wheel_holds_the_built_images_and_no_tests_or_tools(dist: dict[str, Path]) -> None:
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        names = set(wheel.namelist())
        data = REPO_ROOT / "src" / "zxmonopoly" / "data"
        shipped = sorted(p.name for p in data.iterdir() if p.is_file())
        for name in (images.ROM_IMAGE, images.ROM_SYMBOLS, images.GAME_TAPE,
                     images.GAME_SYMBOLS, images.BUSY_ROM_IMAGE):
            assert name in shipped
        for name in shipped:  # each as the checkout's build made it
            assert wheel.read(f"zxmonopoly/data/{name}") == (data / name).read_bytes(), name
        assert "zxmonopoly_pytest.py" in names
        assert not [n for n in names if n.split("/")[0] in ("tests", "tools", "roms", "docs")]
        dist_info = f"zxmonopoly-{__version__}.dist-info"
        entry_points = wheel.read(f"{dist_info}/entry_points.txt").decode()
        meta = email.parser.Parser().parsestr(wheel.read(f"{dist_info}/METADATA").decode())
    assert "[pytest11]\nzxmonopoly = zxmonopoly_pytest" in entry_points, entry_points
    assert "zxmonopoly = zxmonopoly.cli:main" in entry_points, entry_points
    assert meta["Name"] == "zxmonopoly" and meta["Version"] == __version__
    assert meta["Summary"] and meta["License-Expression"] == "GPL-3.0-or-later"
    assert meta["Requires-Python"] == ">=3.11"
    classifiers = meta.get_all("Classifier")
    assert "Framework :: Pytest" in classifiers and "Topic :: System :: Emulators" in classifiers
    assert meta["Description-Content-Type"] == "text/markdown"


def test_the_sdist_holds_the_sources_of_the_images(dist: dict[str, Path]) -> None:
    with tarfile.open(dist["sdist"]) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    for name in ("LICENSE", "README.md", "roms/main.asm", "src/game/main.asm",
                 "tools/build.py", "tests/conftest.py", "src/zxmonopoly_pytest.py",
                 f"src/zxmonopoly/data/{images.GAME_TAPE}"):
        assert name in names, name
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


@pytest.fixture(scope="module")
def venv(dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment outside the checkout with the wheel (and pytest) installed."""
    home = tmp_path_factory.mktemp("user")
    assert REPO_ROOT not in home.parents
    run = _run([sys.executable, "-m", "venv", str(home / "venv")], home)
    assert run.returncode == 0, run.stderr
    pip = [str(home / "venv" / "bin" / "python"), "-m", "pip", "install", "--prefer-binary",
           "--disable-pip-version-check", str(dist["wheel"]), "pytest"]
    run = _run(pip, home, _user_env(home), timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return home


def _tool(venv: Path, name: str, *args: str, cwd: Path | None = None):
    """A console script of the venv, run as the user runs it."""
    return _run([str(venv / "venv" / "bin" / name), *args], cwd or venv, _user_env(venv))


def test_the_installed_package_is_the_wheel_not_the_checkout(venv: Path) -> None:
    run = _tool(venv, "python", "-c",
                "import zxmonopoly, zxmonopoly_pytest; print(zxmonopoly.__file__); "
                "print(zxmonopoly_pytest.__file__)")
    assert run.returncode == 0, run.stderr
    for line in run.stdout.split():
        assert Path(line).is_relative_to(venv / "venv"), run.stdout


def test_version(venv: Path) -> None:
    run = _tool(venv, "zxmonopoly", "--version")
    assert run.returncode == 0 and run.stdout.strip() == f"zxmonopoly {__version__}", run


def test_run_the_game_to_its_title(venv: Path) -> None:
    args = ("run", "--game", "--frames", "300", "--screen-text")
    run = _tool(venv, "zxmonopoly", *args)
    assert run.returncode == 0, run.stderr
    assert "PRESS ANY KEY" in run.stdout, run.stdout
    here = _run([sys.executable, "-m", "zxmonopoly.cli", *args], REPO_ROOT)
    assert here.returncode == 0 and run.stdout == here.stdout, (run.stdout, here.stdout)


def test_keystroke_scripts_through_the_installed_plugin(venv: Path) -> None:
    project = venv / "project"
    (project / "tests").mkdir(parents=True)
    (project / "tests" / "title.zxs").write_text(TITLE_SCRIPT)
    (project / "tests" / "wrong.zxs").write_text(WRONG_SCRIPT)
    run = _tool(venv, "pytest", "-p", "no:cacheprovider", cwd=project)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "plugins: zxmonopoly-" in out and "1 failed, 1 passed" in out, out
    report = out.split("FAILURES")[1]
    assert f"FAIL tests/wrong.zxs:{WRONG_LINE}: expected 'PRESS NO KEY' at row 21, row 21 is " \
        "'         PRESS ANY KEY'" in report, report
    assert " 21 |         PRESS ANY KEY          |" in report, report
    assert '  line: expect "PRESS NO KEY" at row 21' in report, report
    assert "Traceback" not in out, out
