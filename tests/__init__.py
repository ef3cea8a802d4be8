"""Tests of zxmonopoly; the layout mirrors src/."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO_ROOT = Path(__file__).resolve().parents[1]
# Data the tests read, in the repository (a test that cannot find it fails, it never skips).
FUSE_DIR = REPO_ROOT / "testdata" / "fuse-z80"  # the FUSE Z80 test vectors (GPL-2)
REFERENCE_DIR = REPO_ROOT / "reference"  # the board and cards (tools/gen_rules_data.py)


def load_tool(name: str) -> ModuleType:
    """``tools/NAME.py`` (a script, not a package) as the module ``NAME``, loaded once a process."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "tools" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module
