"""The pytest plugin of zxmonopoly (the ``pytest11`` entry point ``zxmonopoly``): keystroke
scripts (``*.zxs``) under the test paths collected and run as tests.

This module is all that pytest imports at its start, and it imports nothing of zxmonopoly:
the scripts' items (zxmonopoly.harness.pytest_items) are imported when the first script is
collected, after pytest has applied its ``pythonpath`` setting. So a project that tests a
source tree (ours: ``pythonpath = ["src"]``) runs that tree's code even with a copy of
zxmonopoly installed, and a project without ``.zxs`` files never loads the emulator.
``-p no:zxmonopoly`` turns the plugin off.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

#: The file names collected as scripts unless ``--zxs-glob`` (ini ``zxs_glob``) says otherwise.
DEFAULT_GLOB = "*.zxs"
#: The engine scripts run on unless ``--zxs-engine`` (ini ``zxs_engine``) says otherwise:
#: CPython starts at once, where numba's first compile takes minutes.
DEFAULT_ENGINE = "python"
#: What ``--zxs-engine`` accepts: the engines, and ``auto`` for the harness's own choice.
ENGINE_CHOICES = ("python", "jit", "auto")


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options, each prefixed ``--zxs-``, and their ini settings."""
    group = parser.getgroup("zxmonopoly", "ZX Spectrum keystroke scripts (.zxs)")
    group.addoption("--zxs-glob", default=None, metavar="PATTERN",
                    help=f"file names collected as keystroke scripts (default {DEFAULT_GLOB}; "
                         "ini: zxs_glob)")
    group.addoption("--zxs-engine", default=None, choices=ENGINE_CHOICES,
                    help=f"the Z80 engine scripts run on: python, jit or auto "
                         f"(default {DEFAULT_ENGINE}; ini: zxs_engine)")
    group.addoption("--zxs-no-collect", action="store_true", default=False,
                    help="collect no keystroke scripts (the plugin stays loaded)")
    parser.addini("zxs_glob", "file names collected as keystroke scripts", default=DEFAULT_GLOB)
    parser.addini("zxs_engine", "the Z80 engine keystroke scripts run on (python, jit, auto)",
                  default=DEFAULT_ENGINE)


def setting(config: pytest.Config, name: str) -> str:
    """An option's value from the command line, else from the ini file."""
    value = config.getoption(f"zxs_{name}")
    return str(value if value is not None else config.getini(f"zxs_{name}"))


def pytest_configure(config: pytest.Config) -> None:
    """Refuse an unknown engine in the ini file as the command line refuses it."""
    engine = setting(config, "engine")
    if engine not in ENGINE_CHOICES:
        raise pytest.UsageError(f"zxs_engine = {engine!r}: expected one of "
                                f"{', '.join(ENGINE_CHOICES)}")


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    """A file whose name matches the glob becomes one test."""
    config = parent.config
    if config.getoption("zxs_no_collect"):
        return None
    if not fnmatch.fnmatch(file_path.name, setting(config, "glob")):
        return None
    from zxmonopoly.harness.pytest_items import ScriptFile

    return ScriptFile.from_parent(parent, path=file_path, engine=setting(config, "engine"))
