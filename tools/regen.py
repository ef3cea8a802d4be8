#!/usr/bin/env python3
"""Run every generator of the repository in order; ``--check`` fails if anything committed is stale.

The chain (docs/architecture.md draws it)::

    board_uk.json, cards_uk.json -> src/zxmonopoly/rules/data.py   (gen_rules_data.py)
    rules/data.py                -> src/game/tables.asm            (gen_game_tables.py)
    rules/data.py                -> src/game/board3d.asm           (gen_board3d.py)
    the board, the font, pieces  -> src/game/loading.scr           (gen_loading_screen.py)
    roms/, src/game/, assembler  -> src/zxmonopoly/data/           (build.py)
    z80/isa.py, templates.py,
    machine_cycles.py, state.py,
    spectrum/ula.py,
    tools/z80_profile.json       -> z80/_engine_{py,jit}.py, z80/_blocks_py.py,
                                    spectrum/_engine_{py,jit}.py   (gen_z80.py)

Each step is its tool run as a separate process (``--check`` passed on), so that running one
tool by hand and running the chain do exactly the same. ``tools/z80_profile.json`` is an input,
measured by ``tools/profile_z80.py``, ``docs/screens/*.png`` are remade by
``tools/make_screens.py`` and ``docs/window-*.png`` by ``tools/window_screenshots.py``: they
run the game for minutes, so they are not steps of the chain (:data:`BY_HAND`; tests check the
gallery's scripts). Every step's outputs are the one list of generated files
(``.gitattributes`` marks the same patterns; tests/test_generated.py).

Usage: ``python tools/regen.py [--check]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
sys.path.insert(0, str(TOOLS))

import gen_rules_data  # noqa: E402  (its REFERENCE is the one place the JSON's home is named)


@dataclass(frozen=True)
class Step:
    """One generator: its tool in tools/, what it reads and the files it writes."""

    tool: str
    reads: str
    #: The files it writes, as patterns from the repository's root (``*`` within one folder):
    #: the one list of generated files, which ``.gitattributes`` marks ``linguist-generated``
    #: pattern for pattern (tests/test_generated.py holds the two and the tools' own together).
    outputs: tuple[str, ...]

    @property
    def writes(self) -> str:
        """The outputs in one line, as the chain prints them."""
        return ", ".join(self.outputs)


STEPS = (
    Step("gen_rules_data.py", "board_uk.json, cards_uk.json", ("src/zxmonopoly/rules/data.py",)),
    Step("gen_game_tables.py", "rules/data.py", ("src/game/tables.asm",)),
    Step("gen_board3d.py", "rules/data.py", ("src/game/board3d.asm",)),
    Step("gen_loading_screen.py", "board3d projection, roms/font.asm, src/game/graphics.asm",
         ("src/game/loading.scr",)),
    Step("build.py", "roms/, src/game/, src/bench/, the assembler", ("src/zxmonopoly/data/*",)),
    Step("gen_z80.py", "z80/isa.py, z80/templates.py, z80/machine_cycles.py, z80/state.py, "
         "spectrum/ula.py, tools/z80_profile.json",
         ("src/zxmonopoly/z80/_engine_*.py", "src/zxmonopoly/z80/_blocks_py.py",
          "src/zxmonopoly/spectrum/_engine_*.py")),
)
#: Generated files outside the chain: their tools play the game or open the window for
#: minutes, so they are run by hand when what they show changes (not by ``--check``).
BY_HAND = (
    Step("profile_z80.py", "the game played (the opcodes it runs)", ("tools/z80_profile.json",)),
    Step("make_screens.py", "docs/screens/scripts", ("docs/screens/*.png",)),
    Step("window_screenshots.py", "the window at the game's title", ("docs/window-*.png",)),
)


def run_step(step: Step, check: bool) -> bool:
    """Run one step; True when it succeeded (with ``check``: its outputs were current)."""
    if step.tool == "gen_rules_data.py" and not gen_rules_data.REFERENCE.is_dir():
        print(f"{step.tool}: skipped ({gen_rules_data.REFERENCE} does not exist)")
        return True
    command = [sys.executable, str(TOOLS / step.tool)] + (["--check"] if check else [])
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    took = time.perf_counter() - started
    verdict = ("current" if check else "done") if done.returncode == 0 else \
        ("STALE" if check else "FAILED")
    print(f"{step.tool}: {verdict}: {step.reads} -> {step.writes} ({took:.1f} s)")
    if done.returncode != 0:
        for text in (done.stdout, done.stderr):
            if text.strip():
                print("    " + text.strip().replace("\n", "\n    "))
    return done.returncode == 0


def main(argv: list[str] | None = None) -> int:
    """Run (or check) the chain; exit status 1 when a step failed or is stale."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail if any generated file differs from its sources")
    args = ap.parse_args(argv)
    failed = []
    for step in STEPS:
        # Without --check a later step reads what an earlier one wrote, so the chain stops at
        # the first failure; a check goes on, to list everything stale at once.
        if not run_step(step, args.check):
            failed.append(step.tool)
            if not args.check:
                break
    if failed:
        advice = "run python tools/regen.py" if args.check else "fix it and run again"
        print(f"{'stale' if args.check else 'failed'}: {', '.join(failed)} ({advice})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
