"""The tape's loading screen (tools/gen_loading_screen.py, src/game/loading.scr): on the tape
between the BASIC loader and the code, and shown by LOAD "" at the real speed under our ROM
and under a Sinclair-compatible third-party ROM (OpenSE BASIC), before the game takes over.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from zxmonopoly import images
from zxmonopoly.basic import detokenise
from zxmonopoly.memory_map import ATTR_END, ATTR_FILE, DISPLAY_FILE, DISPLAY_FILE_SIZE, SCREEN_SIZE
from zxmonopoly.tape import read_tap

ROOT = Path(__file__).resolve().parents[2]
SCREEN = ROOT / "src" / "game" / "loading.scr"
OPENSE = Path("/usr/share/spectrum-roms/opense.rom")
ATTRS = DISPLAY_FILE_SIZE
FIRST_ROW = 4                       # rows 0-3 are where the ROM's messages go


def test_loading_screen_is_current():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_loading_screen.py"),
                           "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_tape_has_loader_screen_and_code_in_that_order():
    blocks = read_tap(images.game_tape_path().read_bytes())
    assert len(blocks) == 6
    loader = detokenise(blocks[1].data)
    assert 'LOAD ""SCREEN$ : LOAD ""CODE' in loader
    header = blocks[2].data
    assert header[0] == 3                                   # CODE
    assert int.from_bytes(header[11:13], "little") == SCREEN_SIZE  # length
    assert int.from_bytes(header[13:15], "little") == DISPLAY_FILE
    assert blocks[3].data == SCREEN.read_bytes()
    assert int.from_bytes(blocks[4].data[13:15], "little") == 0x6000


def shown(scr: bytes):
    """A run_until condition: the picture's colours from row FIRST_ROW on are on the screen."""
    want = scr[ATTRS + 32 * FIRST_ROW:]

    def check(machine) -> bool:
        return bytes(machine.memory[ATTR_FILE + 32 * FIRST_ROW:ATTR_END]) == want
    return check


@pytest.mark.parametrize("rom", ["ours", "opense"])
def test_load_shows_the_screen_then_the_game_starts(rom):
    from zxmonopoly.harness.session import Session, load_budget
    if rom == "opense" and not OPENSE.is_file():
        pytest.skip("opense-basic is not installed")
    tape = images.game_tape_path()
    scr = SCREEN.read_bytes()
    if rom == "ours":
        s = Session()
        s.load_tape(tape, fast=False)
    else:                                                    # keywords typed letter by letter
        s = Session(OPENSE, boot_frames=300)
        s.machine.deck.set_fast(False)
        s.machine.deck.insert(tape)
        s.type('load ""\n', frames=4, gap=8)
        s.machine.deck.play()
    assert s.machine.run_until(condition=shown(scr), max_frames=4000), s.lines()
    mem = s.machine.memory
    for y in range(FIRST_ROW * 8, 192):                      # the pixels too
        base = ((y & 0xC0) << 5) | ((y & 7) << 8) | ((y & 0x38) << 2)
        assert bytes(mem[DISPLAY_FILE + base:DISPLAY_FILE + base + 32]) == scr[base:base + 32], y
    # the code loads over the next minutes, the picture staying, and the game starts
    budget = load_budget(tape, fast=False)
    assert s.machine.run_until(pc=0x6000, max_frames=budget)        # the game's entry
    code_started = s.frame
    assert bytes(mem[ATTR_FILE + 32 * 10:ATTR_FILE + 32 * 22]) == scr[ATTRS + 320:ATTRS + 704]
    assert code_started > 3 * 50 * 60 // 2                   # a real-speed load: minutes
