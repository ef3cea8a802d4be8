"""The pytest plugin (src/zxmonopoly_pytest.py) in a project of someone else's: a throwaway
project outside the checkout with a tiny ROM assembled by ``zxmonopoly asm`` and two scripts,
one failing on purpose; pytest runs there in a new process and its report is read.

The new process finds the plugin as an install would make it found: through a ``pytest11``
entry point, declared by a distribution's metadata on its path (written here from our
pyproject.toml's own table), so ``-p no:zxmonopoly`` is tested by the name users type.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests import REPO_ROOT
from zxmonopoly import __version__

#: A 16 KB ROM that writes "OK" on the top line with a font of its own (CHARS points at it, as
#: the screen reader expects), stores 42 at ``marker`` and spins.
PROGRAM = """\
; tiny.asm - "OK" on the top line, 42 at marker, then a spin
CHARS   equ 0x5C36                  ; the system variable screen readers take the font from
SCREEN  equ 0x4000
marker  equ 0x8000
        org 0
        di
        ld sp, 0xFF00
        ld hl, font - 256           ; CHARS + 256 is the glyph of the space (character 32)
        ld (CHARS), hl
        ld hl, font + 8 * ('O' - 32)
        ld de, SCREEN               ; row 0, column 0
        call draw
        ld hl, font + 8 * ('K' - 32)
        ld de, SCREEN + 1
        call draw
        ld a, 42
        ld (marker), a
spin:   jr spin

; draw - copy one glyph into a character cell.  Input: HL = 8 bytes, DE = the cell's top line.
draw:   ld b, 8
.line:  ld a, (hl)
        ld (de), a
        inc hl
        inc d                       ; the next pixel line of a cell is 256 bytes on
        djnz .line
        ret

font:   ds 8 * ('K' - 32)
        db 0x00, 0x44, 0x48, 0x70, 0x48, 0x44, 0x44, 0x00   ; K
        ds 8 * ('O' - 'K' - 1)
        db 0x00, 0x38, 0x44, 0x44, 0x44, 0x44, 0x38, 0x00   ; O
        ds 0x4000 - $, 0xFF
"""
HEADER = "rom ../tiny.rom\nsymbols ../tiny.sym.json\nwait 5\n"
PASSING = "# The program shows OK and stores 42.\n" + HEADER + \
    'expect "OK" at row 0\nexpect peek marker = 42\n'
FAILING = "# Fails on purpose: the program stores 42, not 7.\n" + HEADER + \
    'expect "OK" at row 0\nexpect peek marker = 7\n'
FAILING_LINE = FAILING.splitlines().index("expect peek marker = 7") + 1
#: A plain test of the project: nothing of zxmonopoly is imported unless a script is collected.
PLAIN = """\
import sys


def test_the_plugin_alone_imports_nothing_of_zxmonopoly():
    assert "zxmonopoly_pytest" in sys.modules
    assert not [m for m in sys.modules if m == "zxmonopoly" or m.startswith("zxmonopoly.")]
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The throwaway project: tiny.asm assembled by ``zxmonopoly asm``, tests/ with the two
    scripts, plain/ with a Python test, and site/ holding the plugin's entry point."""
    root = tmp_path_factory.mktemp("someone_else")
    assert REPO_ROOT not in root.parents and root != REPO_ROOT
    (root / "tiny.asm").write_text(PROGRAM)
    subprocess.run([sys.executable, "-m", "zxmonopoly.cli", "asm", "tiny.asm", "-o", "tiny.rom",
                    "--sym", "tiny.sym.json"], cwd=root, env=_env(root), check=True,
                   capture_output=True, timeout=120)
    assert (root / "tiny.rom").stat().st_size == 0x4000
    (root / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    (root / "tests").mkdir()
    (root / "tests" / "passes.zxs").write_text(PASSING)
    (root / "tests" / "fails.zxs").write_text(FAILING)
    (root / "plain").mkdir()
    (root / "plain" / "test_plain.py").write_text(PLAIN)
    ours = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    dist = root / "site" / f"zxmonopoly-{__version__}.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: zxmonopoly\nVersion: {__version__}\n")
    (dist / "entry_points.txt").write_text("[pytest11]\n" + "".join(
        f"{name} = {target}\n" for name, target in ours["entry-points"]["pytest11"].items()))
    return root


def _env(root: Path) -> dict[str, str]:
    """This checkout's source and the project's site/ first on the path, as an install puts
    them; nothing of our own pytest or CI settings passed on."""
    # CI and BUILD_NUMBER make pytest print its summary lines whole (a user's terminal cuts
    # them to its width): the README shows a user's run, so CI's own setting is not passed on;
    # COLUMNS fixes the width the README was made at.
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD",
                        "CI", "BUILD_NUMBER", "COLUMNS")}
    env["COLUMNS"] = "80"
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT / "src"), str(root / "site")])
    return env


def _pytest(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest run in the project, as its owner would (no cache written)."""
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=project, env=_env(project), capture_output=True, text=True,
                          timeout=300)


def test_scripts_are_collected_run_and_the_failure_reported(project: Path) -> None:
    run = _pytest(project, "-rf")
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "collected 2 items" in out and "1 failed, 1 passed" in out, out
    assert "plugins: zxmonopoly-" in out, out
    report = out.split("FAILURES")[1]
    assert f"FAIL tests/fails.zxs:{FAILING_LINE}: expected peek marker = 7, got 42 (0x2A)" \
        in report, report
    assert "  line: expect peek marker = 7" in report, report
    screen = report.split("screen:\n")[1].splitlines()
    assert screen[1] == "  0 |OK                              |", report
    assert len([row for row in screen if row.endswith("|") and "+" not in row]) == 24, report
    assert "Traceback" not in out and "passes.zxs" not in report, report
    assert "FAILED tests/fails.zxs::fails" in out, out


def test_options_choose_the_files_and_the_engine(project: Path) -> None:
    run = _pytest(project, "-q", "--zxs-glob", "pass*.zxs", "--zxs-engine", "python")
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
    run = _pytest(project, "-q", "-o", "zxs_glob=fail*.zxs", "--zxs-engine", "auto")
    assert run.returncode == 1 and "1 failed in" in run.stdout, run.stdout + run.stderr
    run = _pytest(project, "-q", "--zxs-engine", "fast")
    assert run.returncode == 4 and "invalid choice: 'fast'" in run.stderr, run.stderr
    run = _pytest(project, "-q", "-o", "zxs_engine=fast")  # the ini setting, checked alike
    assert run.returncode == 4 and "zxs_engine = 'fast'" in run.stderr, run.stderr


def test_the_plugin_is_turned_off_with_p_no(project: Path) -> None:
    run = _pytest(project, "-q", "-p", "no:zxmonopoly")
    assert run.returncode == 5 and "no tests ran" in run.stdout, run.stdout + run.stderr


def test_loading_the_plugin_imports_nothing_of_zxmonopoly(project: Path) -> None:
    run = _pytest(project, "-q", "--zxs-no-collect", "plain", "tests")
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr


def test_the_readme_shows_what_the_plugin_prints(project: Path) -> None:
    """README.md's "In your own project": its script is fails.zxs, its output this run's."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### In your own project (the pytest plugin)")[1]
    block = section.split("```\n")[1]
    shown_script, shown_run = block.split("$ cat tests/fails.zxs\n")[1].split("$ pytest -q\n")
    assert shown_script == FAILING
    run = _pytest(project, "-q")
    assert run.returncode == 1, run.stdout + run.stderr
    timed = re.compile(r" in \d+\.\d+s")
    assert timed.sub(" in Ts", shown_run) == timed.sub(" in Ts", run.stdout)
