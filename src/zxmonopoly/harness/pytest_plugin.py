"""The pytest plugin (entry point ``pytest11``, name ``zxmonopoly``): keystroke scripts
(``*.zxs``) under the test paths collected and run as tests.

Each script runs with its own header (``rom``, ``tape``, ``snapshot``, ``symbols``, ``game``,
docs/harness.md); a failure is reported as the failing step's ``file:line``, its line, the
expected and actual values and the screen as text. ``-p no:zxmonopoly`` turns it off.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

#: The script files collected unless ``--zxs-glob`` says otherwise.
DEFAULT_GLOB = "*.zxs"
#: The engine scripts run on unless ``--zxs-engine`` says otherwise: CPython starts at once.
DEFAULT_ENGINE = "python"


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options, each prefixed ``--zxs-``."""
    group = parser.getgroup("zxmonopoly", "ZX Spectrum keystroke scripts (.zxs)")
    group.addoption("--zxs-glob", default=None, metavar="PATTERN",
                    help=f"file names collected as scripts (default {DEFAULT_GLOB}; "
                         "ini: zxs_glob)")
    group.addoption("--zxs-engine", default=None, metavar="ENGINE",
                    help=f"the Z80 engine scripts run on: python, jit or auto "
                         f"(default {DEFAULT_ENGINE}; ini: zxs_engine)")
    group.addoption("--zxs-no-collect", action="store_true", default=False,
                    help="collect no scripts (the plugin stays loaded)")
    parser.addini("zxs_glob", "file names collected as keystroke scripts", default=DEFAULT_GLOB)
    parser.addini("zxs_engine", "the Z80 engine keystroke scripts run on",
                  default=DEFAULT_ENGINE)


def _setting(config: pytest.Config, name: str) -> str:
    """An option's value from the command line, else the ini file."""
    value = config.getoption(f"zxs_{name}")
    return str(value if value is not None else config.getini(f"zxs_{name}"))


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    """A file matching the glob becomes one test."""
    config = parent.config
    if config.getoption("zxs_no_collect"):
        return None
    if fnmatch.fnmatch(file_path.name, _setting(config, "glob")):
        return ScriptFile.from_parent(parent, path=file_path)
    return None


class ScriptFailed(Exception):
    """A script's failure: its report (step, file:line, expected and actual, screen)."""


class ScriptFile(pytest.File):
    """A keystroke script file."""

    def collect(self):
        """One item: the whole script."""
        yield ScriptItem.from_parent(self, name=self.path.stem)


class ScriptItem(pytest.Item):
    """Runs a script and fails with its report."""

    def runtest(self) -> None:
        """Run the script on the chosen engine; a failed run raises its report."""
        from zxmonopoly.harness.script import run_script

        engine = _setting(self.config, "engine")
        result = run_script(self.path, engine=None if engine == "auto" else engine)
        if not result.passed:
            raise ScriptFailed(result.report())

    def repr_failure(self, excinfo, style=None):
        """The script's report instead of a traceback."""
        if isinstance(excinfo.value, ScriptFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        """Where the script is."""
        return self.path, 0, f"script {self.path.name}"


__all__ = ["DEFAULT_ENGINE", "DEFAULT_GLOB", "ScriptFailed", "ScriptFile", "ScriptItem"]
