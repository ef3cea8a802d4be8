"""The pytest plugin (zxmonopoly.harness.pytest_plugin) in a project of someone else's: a
throwaway project outside the checkout, a tiny ROM assembled with our assembler, two scripts
(one failing on purpose), pytest run there in a new process, its report read."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from tests import REPO_ROOT

#: A 16 KB ROM that stores 42 at ``marker`` and then spins.
PROGRAM = """\
marker  equ 0x8000
        org 0
        di
        ld sp, 0xff00
        ld a, 42
        ld (marker), a
spin:   jr spin
        ds 0x4000 - $, 0xff
"""
HEADER = "rom tiny.rom\nsymbols tiny.sym.json\nwait 5\n"
PASSING = HEADER + "expect peek marker = 42\n"
FAILING = HEADER + "# on purpose: the program stores 42\nexpect peek marker = 7\n"
#: The name the plugin goes by: the entry point's once installed, else its module's.
PLUGIN = ("zxmonopoly" if entry_points(group="pytest11", name="zxmonopoly")
          else "zxmonopoly.harness.pytest_plugin")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The throwaway project: tiny.asm assembled by ``zxmonopoly asm``, tests/ with two scripts."""
    root = tmp_path_factory.mktemp("someone_else")
    assert REPO_ROOT not in root.parents
    (root / "tiny.asm").write_text(PROGRAM)
    subprocess.run([sys.executable, "-m", "zxmonopoly.cli", "asm", "tiny.asm", "-o", "tiny.rom",
                    "--sym", "tiny.sym.json"], cwd=root, env=_env(), check=True,
                   capture_output=True)
    tests = root / "tests"
    tests.mkdir()
    for name, text in (("passes.zxs", PASSING), ("fails.zxs", FAILING)):
        (tests / name).write_text(text.replace("tiny.", "../tiny."))
    return root


def _env() -> dict[str, str]:
    """This checkout's package first on the path, as an install would put it."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT / "src"), env.get("PYTHONPATH", "")])
    env.pop("PYTEST_ADDOPTS", None)
    return env


def _pytest(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest run in the project (its own rootdir, no cache written)."""
    plugin = () if PLUGIN == "zxmonopoly" else ("-p", PLUGIN)  # before args: "-p no:" wins
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "--rootdir", str(project), *plugin, *args, "tests"],
                          cwd=project, env=_env(), capture_output=True, text=True, timeout=300)


def test_scripts_are_collected_run_and_the_failure_reported(project: Path) -> None:
    run = _pytest(project, "-q")
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "1 failed, 1 passed" in out, out
    assert "fails.zxs:5: expected marker" in out and "= 7, got 42" in out, out
    assert "line: expect peek marker = 7" in out and "screen:" in out, out
    assert "passes.zxs" not in out.split("short test summary")[-1], out


def test_options_choose_the_files_and_the_engine(project: Path) -> None:
    run = _pytest(project, "-q", "--zxs-glob", "pass*.zxs", "--zxs-engine", "python")
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr


def test_the_plugin_is_turned_off_with_p_no(project: Path) -> None:
    run = _pytest(project, "-q", "-p", f"no:{PLUGIN}")
    assert run.returncode == 5 and "no tests ran" in run.stdout, run.stdout + run.stderr
