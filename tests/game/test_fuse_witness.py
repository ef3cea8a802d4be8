"""tools/fuse_witness.py: FUSE, the reference emulator, loads our tape under OpenSE BASIC and
shows the title as ours does. The witness itself is slow-marked (FUSE under Xvfb and our real
load on the python engine: some 45 s) and skipped when FUSE is not installed; its parts that
need no FUSE are checked here always."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests import load_tool
from zxmonopoly import images

ROOT = Path(__file__).resolve().parents[2]
OPENSE = Path("/usr/share/spectrum-roms/opense.rom")


def _tool():
    return load_tool("fuse_witness")


def test_the_debugger_script_stops_at_the_entry_and_the_title_wait():
    tool = _tool()
    symbols = dict(images.game_symbols())
    script, layout = tool.debugger_script(symbols, 12345, tool.load_schedule(False))
    lines = script.splitlines()
    assert f"break {symbols['start']}" in lines
    title = (f"tbreak {symbols['keys_wait.wait']} if [{symbols['v_phase']}] == "
             f"{symbols['PHASE_TITLE']}")  # once: the HALT loop passes there every frame
    assert title in lines
    after = lines[lines.index(title) + 1:]
    assert after[after.index("end") - 2:after.index("end")] == [
        f"print {tool.TAG + tool.SHOWN}", "continue"]  # FUSE runs on for the screenshots
    assert "break time 100 if spectrum:frames > 12345" in lines
    assert lines.count("end") == sum(line.startswith("commands ") for line in lines)
    # the title's dump holds the screen, the state block and the font
    starts = [start for start, _ in layout[tool.TITLE]]
    assert tool.SCREEN in starts
    assert any(s <= symbols["v_state"] < s + n for s, n in layout[tool.TITLE])
    assert len(script) > 128 * 1024  # why it goes in the settings file, not on the command line


def test_dumps_parse_back_into_memory():
    tool = _tool()
    layout = {tool.ENTRY: [(0x4000, 8), (0x5C34, 4)], tool.PLAYING: []}
    memory = bytes(range(8)) + b"\x10\x11\x12\x13"
    words = [int.from_bytes(memory[i:i + 4], "big") for i in range(0, 12, 4)]
    out = "\n".join(["some banner", f"0x{tool.TAG + tool.PLAYING:x}", "0xf0", "0x556",
                     f"0x{tool.TAG + tool.ENTRY:x}", "0x2ed8", "0x6000",
                     *(f"0x{w:x}" for w in words)]) + "\n"
    dumps = tool.parse_dumps(out, layout)
    assert dumps[tool.PLAYING].frame == 0xF0 and dumps[tool.PLAYING].pc == 0x556
    entry = dumps[tool.ENTRY]
    assert (entry.frame, entry.pc) == (0x2ED8, 0x6000)
    assert entry.read(0x4002, 4) == bytes([2, 3, 4, 5])
    assert entry.read(0x5C36, 2) == b"\x12\x13"
    with pytest.raises(KeyError):
        entry.read(0x4006, 4)
    with pytest.raises(tool.WitnessError):  # cut short
        tool.parse_dumps(out.rsplit("\n", 2)[0], layout)


def test_load_is_typed_per_rom_and_keys_map_to_x():
    tool = _tool()
    spelled = [step.keys for step in tool.load_schedule(False)]
    assert [tool.x_keys(k) for k in spelled] == [
        ["l"], ["o"], ["a"], ["d"], ["space"], ["Control_L", "p"], ["Control_L", "p"],
        ["Return"]]
    assert [step.keys for step in tool.load_schedule(True)][0] == ("J",)


def test_the_tape_screen_and_screen_rows():
    tool = _tool()
    scr = tool.tape_screen(images.game_tape_path())
    assert scr == (ROOT / "src" / "game" / "loading.scr").read_bytes()
    assert tool.character_rows([0, 32, 7 * 256 + 7 * 32, 2048, 6144, 6911]) == [0, 1, 7, 8, 23]
    keep = tool.outside_message_rows()
    assert len(keep) == 6912 - 4 * 32 * 9 and 0 not in keep and 6144 + 4 * 32 in keep


def test_xvfb_screen_files_are_read_and_colours_matched(tmp_path: Path):
    tool = _tool()
    width, height, per_line = 3, 2, 16  # 4 pixels a line: one of padding
    header = struct.pack(">25I", 100, 7, 2, 24, width, height, 0, 0, 32, 0, 32, 32, per_line,
                         4, 0xFF0000, 0xFF00, 0xFF, 8, 2, 2, width, height, 0, 0, 0)
    pixels = np.array([[0xF8FCF8, 0x0000C0, 0xC0C000, 0], [0, 0xF80000, 0x00FCF8, 0]],
                      dtype="<u4")
    path = tmp_path / "screen.xwd"
    path.write_bytes(header + bytes(24) + pixels.tobytes())  # 2 colormap entries of 12 bytes
    rgb = tool.read_xwd(path)
    assert rgb.shape == (2, 3, 3)
    assert rgb[0, 0].tolist() == [0xF8, 0xFC, 0xF8] and rgb[1, 2].tolist() == [0, 0xFC, 0xF8]
    # 5-6-5 levels of BRIGHT white, blue, yellow, black, BRIGHT red and cyan
    assert tool.colour_indices(rgb).tolist() == [[15, 1, 6], [0, 10, 13]]


def _witness(*args: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("fuse") is None:
        pytest.skip("fuse is not installed (apt-get install fuse-emulator-sdl xdotool)")
    if not OPENSE.is_file():
        pytest.skip(f"{OPENSE} is not installed (apt-get install opense-basic)")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, str(ROOT / "tools" / "fuse_witness.py"), *args],
                          capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.slow
def test_fuse_loads_the_tape_under_opense_to_the_title_as_ours_at_the_real_speed():
    done = _witness("--engine", "python", "--real-load")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VERDICT: PASS" in done.stdout
    assert "frames from the tape starting to start: FUSE " in done.stdout
    assert "screenshots show ours exactly" in done.stdout  # FUSE's own window


@pytest.mark.slow
def test_a_tape_that_does_not_load_is_a_failure_with_fuses_screen(tmp_path: Path):
    """The witness can fail: one byte of the code changed, OpenSE reports a loading error."""
    tape = bytearray(images.game_tape_path().read_bytes())
    tape[-5000] ^= 0xFF  # inside the last block, the code: its checksum no longer holds
    broken = tmp_path / "broken.tap"
    broken.write_bytes(tape)
    done = _witness("--engine", "python", "--tape", str(broken))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "the game's entry was never reached" in done.stdout
    assert "Loading error" in done.stdout  # OpenSE's report, read off FUSE's screen
    assert "VERDICT: FAIL: FUSE did not reach the title" in done.stdout
