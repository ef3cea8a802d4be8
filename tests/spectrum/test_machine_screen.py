"""The 48K machine's picture against goldens: screenshots, screen text, both engines alike."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tests.spectrum.textrom import print_at, text_rom
from zxmonopoly.spectrum import Spectrum48, video

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE_GOLDENS = os.environ.get("ZXMONOPOLY_UPDATE_GOLDENS") == "1"

# -- screenshot goldens -----------------------------------------------------------------------

GOLDEN_TEXT = (
    ("line1", 1, 4, "ZXMONOPOLY SCREEN GOLDEN"),
    ("line3", 3, 1, "THE QUICK BROWN FOX JUMPS OVER"),
    ("line4", 4, 1, "THE LAZY DOG: 0123456789!"),
    ("line6", 6, 2, "FLASH (1985) +-*/=?.,'"),
    ("line22", 22, 8, "INVERSE TEXT 42"),
)

# Border blue; top third paper white ink black, row 1 BRIGHT blue on yellow, row 6 FLASH white
# on red; the lower two thirds: every attribute byte there is (and a pattern of pixels). Then
# text in our font (row 22 then inverted, pattern and all), and every frame border stripes:
# blue from the frame's start, red from T ≈ 9,000, cyan from T ≈ 11,600 (top border lines).
GOLDEN_ROM = text_rom(
    setup="""
        LD A,1
        OUT (0xFE),A
        LD HL,0x5800
        LD DE,0x5801
        LD BC,255
        LD (HL),0x38
        LDIR
        LD HL,0x5820
        LD B,32
a1:     LD (HL),0x71
        INC HL
        DJNZ a1
        LD HL,0x58C0
        LD B,32
a6:     LD (HL),0x97
        INC HL
        DJNZ a6
        LD HL,0x5900
a2:     LD A,L
        BIT 1,H
        JR Z,a3
        XOR 0x55
a3:     LD (HL),A
        INC HL
        LD A,H
        CP 0x5B
        JR C,a2
        LD HL,0x4800
b1:     LD A,L
        RRCA
        XOR H
        LD (HL),A
        INC HL
        LD A,H
        CP 0x58
        JR C,b1
""" + "".join(print_at(row, col, label) for label, row, col, _ in GOLDEN_TEXT)
    + "        JP drawn\n"
    + "".join(f'{label}: DB "{text}",0\n' for label, _, _, text in GOLDEN_TEXT)
    + """drawn:
        LD H,0x50
inv1:   LD L,0xC0
inv2:   LD A,(HL)
        CPL
        LD (HL),A
        INC L
        LD A,L
        CP 0xE0
        JR C,inv2
        INC H
        LD A,H
        CP 0x58
        JR C,inv1
""",
    loop="""
        LD A,1
        OUT (0xFE),A
        LD BC,340
d1:     DEC BC
        LD A,B
        OR C
        JR NZ,d1
        LD A,2
        OUT (0xFE),A
        LD BC,100
d2:     DEC BC
        LD A,B
        OR C
        JR NZ,d2
        LD A,5
        OUT (0xFE),A
""",
)


def _check_golden(path: Path, actual: bytes, compare: Callable[[Path], None]) -> None:
    """Compare with the golden file, or (ZXMONOPOLY_UPDATE_GOLDENS=1) write it first."""
    if UPDATE_GOLDENS and (not path.is_file() or path.read_bytes() != actual):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual)
    if not path.is_file():
        pytest.fail(f"{path} is missing: run with ZXMONOPOLY_UPDATE_GOLDENS=1 to make it")
    compare(path)


@pytest.mark.golden
@pytest.mark.parametrize("frames", [10, 20])
def test_screenshot_matches_golden_png(engine, frames):
    m = Spectrum48(rom=GOLDEN_ROM, engine=engine)
    m.run_frames(frames)
    assert video.flash_swapped(m.frame) == (frames == 20)
    rgb = m.screen_rgb()

    def compare(path: Path) -> None:
        golden = video.read_png(path)
        assert golden.shape == rgb.shape
        differ = np.argwhere((golden != rgb).any(axis=2))
        assert not len(differ), (f"{len(differ)} pixels differ from {path.name}; first at "
                                 f"(y, x) = {tuple(differ[0])}; regenerate with "
                                 "ZXMONOPOLY_UPDATE_GOLDENS=1 if the change is meant")

    _check_golden(GOLDEN_DIR / f"screen_frame{frames}.png", video.png_bytes(rgb), compare)


@pytest.mark.golden
def test_screen_text_matches_golden(engine):
    m = Spectrum48(rom=GOLDEN_ROM, engine=engine)
    m.run_frames(10)
    text = "\n".join(m.screen_text()) + "\n"

    def compare(path: Path) -> None:
        assert text == path.read_text(encoding="utf-8")

    _check_golden(GOLDEN_DIR / "screen.txt", text.encode("utf-8"), compare)
    lines = text.splitlines()
    for _, row, col, message in GOLDEN_TEXT:
        assert lines[row][col:col + len(message)] == message


@pytest.mark.golden
def test_golden_picture_has_what_it_claims(engine):
    m = Spectrum48(rom=GOLDEN_ROM, engine=engine)
    m.run_frames(10)
    rgb = m.screen_rgb()
    left = [tuple(rgb[y, 0]) for y in range(256)]
    blue, red, cyan = (tuple(video.PALETTE[c]) for c in (1, 2, 5))
    assert left[0] == blue and red in left[:32] and left[-1] == cyan  # stripes in the top border
    yellow_bright = tuple(video.PALETTE[6 + 8])
    assert tuple(rgb[32 + 8, 32]) == yellow_bright  # row 1: BRIGHT paper yellow
    flash_cell = rgb[32 + 48:32 + 56, 32:40]  # row 6, column 0: FLASH white on red, blank
    assert (flash_cell == video.PALETTE[2]).all()
    m.run_frames(10)
    assert (m.screen_rgb()[32 + 48:32 + 56, 32:40] == video.PALETTE[7]).all()


def test_engines_draw_the_golden_identically(engine):
    if engine == "python":
        pytest.skip("compares python with jit")
    pictures = []
    for name in ("python", "jit"):
        m = Spectrum48(rom=GOLDEN_ROM, engine=name)
        m.run_frames(20)
        pictures.append(m.screen_rgb())
    assert np.array_equal(pictures[0], pictures[1])
