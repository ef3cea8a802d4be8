"""The test items of the pytest plugin (zxmonopoly_pytest): one keystroke script, one test.

Each script runs with its own header (``rom``, ``tape``, ``snapshot``, ``symbols``,
``game``: docs/harness.md); a failure is reported as the script runner reports it: the
failing step's ``file:line``, what was expected and what was there, the step's line and the
screen as text, with no Python traceback.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from zxmonopoly.harness.errors import HarnessError
from zxmonopoly.harness.script import Result, run_script

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr


class ScriptFailed(HarnessError):
    """A script's failure, carrying the runner's result."""

    def __init__(self, result: Result) -> None:
        super().__init__(result.report())
        self.result = result


def shown_path(path: Path) -> str:
    """``path`` as the user reads it: relative to the working directory when under it."""
    try:
        return os.path.relpath(path) if path.is_relative_to(Path.cwd()) else str(path)
    except ValueError:  # another drive (Windows)
        return str(path)


class ScriptFile(pytest.File):
    """A keystroke script file: one item, the whole script, run on ``engine`` (``python``,
    ``jit``, or ``auto`` for the harness's own choice)."""

    def __init__(self, *, engine: str = "python", **kwargs) -> None:
        super().__init__(**kwargs)
        self.engine = engine

    def collect(self):
        """The script's one item, named after the file."""
        yield ScriptItem.from_parent(self, name=self.path.stem)


class ScriptItem(pytest.Item):
    """Runs a script and fails with its report."""

    def runtest(self) -> None:
        """Run the script on its file's engine; a failed run raises its report."""
        engine = self.parent.engine if isinstance(self.parent, ScriptFile) else "python"
        result = run_script(shown_path(self.path), engine=None if engine == "auto" else engine)
        if not result.passed:
            raise ScriptFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: str | None = None) -> str | TerminalRepr:
        """The script's report instead of a traceback."""
        if isinstance(excinfo.value, ScriptFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the script is, for pytest's headers and -v lines."""
        return self.path, None, f"keystroke script {self.path.name}"


__all__ = ["ScriptFailed", "ScriptFile", "ScriptItem", "shown_path"]
