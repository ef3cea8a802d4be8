"""Tests of zxmonopoly; the layout mirrors src/."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
# Data the tests read, in the repository (a test that cannot find it fails, it never skips).
FUSE_DIR = REPO_ROOT / "testdata" / "fuse-z80"  # the FUSE Z80 test vectors (GPL-2)
REFERENCE_DIR = REPO_ROOT / "reference"  # the board and cards (tools/gen_rules_data.py)
