"""Import tools/gen_z80.py (not a package) for the tests that compare against it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_generator() -> ModuleType:
    """The generator module, loaded once per process."""
    if "gen_z80" in sys.modules:
        return sys.modules["gen_z80"]
    spec = importlib.util.spec_from_file_location("gen_z80", ROOT / "tools" / "gen_z80.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_z80"] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def engine_from(source: str, name: str):
    """The ``run`` function of generated engine source, compiled here."""
    namespace: dict = {}
    exec(compile(source, name, "exec"), namespace)
    return namespace["run"]
