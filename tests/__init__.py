"""Tests of zxmonopoly; the layout mirrors src/."""

import importlib.util
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
# shared/ (test vectors, references) lies beside the clone: ../shared from the repository root.
SHARED_DIR = (REPO_ROOT / ".." / "shared").resolve()


def core_present() -> bool:
    """Whether the Z80 core (zxmonopoly.z80.cpu) exists in this tree."""
    return importlib.util.find_spec("zxmonopoly.z80.cpu") is not None
