#!/usr/bin/env python3
"""Assemble a Z80 source: the same as ``zxmonopoly asm`` (see docs/assembler.md)."""

from __future__ import annotations

import sys
from pathlib import Path

# Run from a checkout without installing: the package lives in src/.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from zxmonopoly.asm.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
