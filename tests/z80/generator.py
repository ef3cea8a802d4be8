"""Import tools/gen_z80.py (not a package) for the tests that compare against it."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests import load_tool

ROOT = Path(__file__).resolve().parents[2]


def load_generator() -> ModuleType:
    """The generator module, loaded once per process."""
    return load_tool("gen_z80")


def engine_from(source: str, name: str):
    """The ``run`` function of generated engine source, compiled here."""
    namespace: dict = {}
    exec(compile(source, name, "exec"), namespace)
    return namespace["run"]
