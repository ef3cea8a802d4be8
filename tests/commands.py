"""Commands the tests start: this interpreter (never a ``python`` found on PATH, which in a
venv that is not activated is another Python without our dependencies) on this tree's source."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

from tests import REPO_ROOT

SRC = REPO_ROOT / "src"


def source_env(base: Mapping[str, str] | None = None, **more: str) -> dict[str, str]:
    """``base`` (default: this process's environment) with this tree's ``src`` first on
    PYTHONPATH, so a child imports the code under test, not an installed copy."""
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
    env.update(more)
    return env


def cli(*args: str) -> list[str]:
    """``zxmonopoly ARGS`` as this interpreter runs it: ``[sys.executable, -m, ...]``."""
    return [sys.executable, "-m", "zxmonopoly.cli", *args]


def installed_script(name: str) -> str | None:
    """A console script installed with this interpreter's packages (a venv's ``bin``, found
    whether or not the venv is activated), else one on PATH; None when there is none."""
    beside = Path(sys.executable).parent / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which(name)
