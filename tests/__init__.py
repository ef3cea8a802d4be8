"""Tests of zxmonopoly; the layout mirrors src/."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
# shared/ (test vectors, references) lies beside the clone: ../shared from the repository root.
SHARED_DIR = (REPO_ROOT / ".." / "shared").resolve()
