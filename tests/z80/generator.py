"""Import the generator (tools/gen_z80.py and its package tools/z80gen) for the tests."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from tests import load_tool

ROOT = Path(__file__).resolve().parents[2]


def load_generator() -> ModuleType:
    """The generator's command (``OUTPUTS``, ``PACKAGE_DIR``), loaded once per process; it puts
    tools/ on the path, so that :func:`part` can import the package."""
    return load_tool("gen_z80")


def part(name: str) -> ModuleType:
    """One module of the generator's package: ``part("leaves")`` is ``z80gen.leaves``."""
    load_generator()
    return importlib.import_module(f"z80gen.{name}")


def engine_from(source: str, name: str):
    """The ``run`` function of generated engine source, compiled here."""
    namespace: dict = {}
    exec(compile(source, name, "exec"), namespace)
    return namespace["run"]
