#!/usr/bin/env python3
"""Remake ``docs/screens/*.png``: the game's screens, each from a keystroke script.

Every script in ``docs/screens/scripts/`` is run (``zxmonopoly.harness.script``); its
``screenshot ../NAME.png`` lines (paths are the script's own) write the gallery.  The loading
screen is the tape's SCREEN$ (``src/game/loading.scr``) shown by the emulated machine.  A
script that fails stops the tool with its report.

Usage: ``python tools/make_screens.py``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zxmonopoly.harness.script import run_script  # noqa: E402
from zxmonopoly.harness.session import Session  # noqa: E402
from zxmonopoly.memory_map import DISPLAY_FILE, SCREEN_SIZE  # noqa: E402

SCRIPTS = ROOT / "docs" / "screens" / "scripts"
OUT = ROOT / "docs" / "screens"
LOADING = ROOT / "src" / "game" / "loading.scr"


def loading_png(path: Path) -> None:
    """The loading screen as the machine shows it once LOAD "" has read the SCREEN$."""
    session = Session()
    session.machine.memory[DISPLAY_FILE:DISPLAY_FILE + SCREEN_SIZE] = LOADING.read_bytes()
    session.screenshot(path)


def main(argv: list[str] | None = None) -> int:
    """Run every script into the gallery; returns the exit status."""
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    for script in sorted(SCRIPTS.glob("*.zxs")):
        result = run_script(script)
        if not result.passed:
            print(result.report(), file=sys.stderr)
            return 1
        print(f"{script.name}: ok")
    loading_png(OUT / "loading.png")
    print(f"{len(sorted(OUT.glob('*.png')))} screens in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
