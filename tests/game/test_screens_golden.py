"""Screenshot goldens of the new screens (issue 23): the game screen with the perspective board
and the close-ups, the flat board (B), and the loading screen as the machine shows it.
``ZXMONOPOLY_UPDATE_GOLDENS=1`` rewrites them; the PNGs are compared pixel for pixel and the
screen text line for line.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from tests.game.screen import busy_state
from zxmonopoly.memory_map import DISPLAY_FILE, SCREEN_SIZE

pytestmark = [pytest.mark.golden]

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE_GOLDENS = os.environ.get("ZXMONOPOLY_UPDATE_GOLDENS") == "1"
ROOT = Path(__file__).resolve().parents[2]


def steady(machine) -> None:
    """Run to a frame where FLASH shows its normal phase (the rig waits on its return trap)."""
    from zxmonopoly.spectrum import video
    machine.run_frames(32 - machine.frame % 32)
    assert not video.flash_swapped(machine.frame)


def compare(machine, name: str, text: str) -> None:
    from zxmonopoly.spectrum import video
    rgb = machine.screen_rgb()
    png_path, text_path = GOLDEN_DIR / f"{name}.png", GOLDEN_DIR / f"{name}.txt"
    if UPDATE_GOLDENS:
        GOLDEN_DIR.mkdir(exist_ok=True)
        png_path.write_bytes(video.png_bytes(rgb))
        text_path.write_text(text, encoding="utf-8")
    if not png_path.is_file() or not text_path.is_file():
        pytest.fail(f"{name} goldens missing: run with ZXMONOPOLY_UPDATE_GOLDENS=1 to make them")
    assert text == text_path.read_text(encoding="utf-8")
    golden = video.read_png(png_path)
    differ = np.argwhere((golden != rgb).any(axis=2))
    assert not len(differ), f"{len(differ)} pixels differ from {name}.png, first at {differ[0]}"


@pytest.mark.parametrize("flat", [0, 1])
def test_game_screen_matches_golden(flat):
    from zxmonopoly.harness.rig import GameRig
    rig = GameRig()
    busy_state(rig)
    rig.poke("v_flat_board", flat)
    rig.call("board_draw_all")
    rig.call("closeup_show", a=5)
    steady(rig.machine)
    compare(rig.machine, "game_flat" if flat else "game_perspective", rig.text() + "\n")


def test_loading_screen_matches_golden():
    from zxmonopoly.harness.session import Session
    s = Session()
    screen = (ROOT / "src" / "game" / "loading.scr").read_bytes()
    s.machine.memory[DISPLAY_FILE:DISPLAY_FILE + SCREEN_SIZE] = screen
    compare(s.machine, "loading", "\n".join(s.machine.screen_text()) + "\n")


@pytest.mark.parametrize("script", sorted((ROOT / "docs" / "screens" / "scripts").glob("*.zxs")),
                         ids=lambda p: p.name)
def test_gallery_scripts_parse_and_name_their_screens(script):
    """tools/make_screens.py's scripts are well formed and write into docs/screens/."""
    from zxmonopoly.harness.script import parse_script
    parsed = parse_script(script)
    shots = [Path(step.args[0]) for step in parsed.steps if step.op == "screenshot"]
    assert shots
    assert all(shot.parent.resolve() == (ROOT / "docs" / "screens") for shot in shots)
    assert all(shot.is_file() for shot in shots), "run python tools/make_screens.py"
