"""Collect keystroke scripts (``scripts/*.zxs``) as pytest items run on the python engine;
fixtures ``game`` (the bundled game at its title) and ``rig`` (a GameRig)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def game():
    """The bundled game at its title screen, waiting for a key (python engine): a
    :meth:`~zxmonopoly.harness.Session.game` started from the once-per-process snapshot."""
    from zxmonopoly.harness import Session

    return Session.game(engine="python")


@pytest.fixture
def rig():
    """A fresh :class:`~zxmonopoly.harness.rig.GameRig` (python engine): the game's code in RAM,
    its state block cleared, routines callable by name."""
    from zxmonopoly.harness.rig import GameRig

    return GameRig(engine="python")


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    """A ``.zxs`` file under tests/game/scripts becomes one test."""
    if file_path.suffix == ".zxs" and file_path.parent.name == "scripts":
        return ScriptFile.from_parent(parent, path=file_path)
    return None


class ScriptFailed(Exception):
    """A script's failure report."""


class ScriptFile(pytest.File):
    """A keystroke script file."""

    def collect(self):
        """One item: the whole script."""
        yield ScriptItem.from_parent(self, name=self.path.stem)


class ScriptItem(pytest.Item):
    """Runs a script and fails with its report."""

    def runtest(self) -> None:
        """Run the script on the python engine."""
        from zxmonopoly.harness.script import run_script

        result = run_script(self.path, engine="python")
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
