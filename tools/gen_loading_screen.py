#!/usr/bin/env python3
"""Write ``src/game/loading.scr``: the tape's loading screen (a SCREEN$, 6912 bytes).

The picture is made here from the project's own material: the title in the ROM's font
(``roms/font.asm``) drawn four times its size on a red banner, the perspective board of
``tools/gen_board3d.py`` with every square's band in its group's colours, and the six pieces
of ``src/game/graphics.asm`` standing in the board's middle, twice their size.  Rows 0-3 are
left black: the ROM prints its "Bytes: monopoly" there while the code loads (row 3 under a
Sinclair-like ROM), as 1985 tapes showed.

The build (``zxmonopoly.asm.build``) puts the file on the tape between the BASIC loader and the
code, and the loader says ``LOAD ""SCREEN$``.  ``tests/game/test_loading_screen.py`` fails when
running this again would change the committed file.

Usage: ``python tools/gen_loading_screen.py [--check] [--png FILE]``
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

import gen_board3d as b3  # noqa: E402

from zxmonopoly.memory_map import ATTR_FILE_SIZE, DISPLAY_FILE_SIZE  # noqa: E402
from zxmonopoly.rules.data import SQUARES  # noqa: E402

OUTPUT = ROOT / "src" / "game" / "loading.scr"
FONT = ROOT / "roms" / "font.asm"
GRAPHICS = ROOT / "src" / "game" / "graphics.asm"
BITMAP_SIZE, ATTR_SIZE = DISPLAY_FILE_SIZE, ATTR_FILE_SIZE
BLACK, BLUE, RED, MAGENTA, GREEN, CYAN, YELLOW, WHITE = range(8)
BRIGHT = 0x40
TITLE = "MONOPOLY"
TITLE_ROW = 4                # the banner: rows 4..9, the letters in rows 5..8
TITLE_SCALE = 4
BOARD_ROW = 10               # the board picture: rows 10..22
FOOTER = ("zxmonopoly, after the 1985 game",)
# Each colour group's band paper (brown: red without BRIGHT)
GROUP_COLOURS = {"brown": RED, "light_blue": CYAN, "pink": MAGENTA, "orange": YELLOW,
                 "red": RED, "yellow": YELLOW, "green": GREEN, "dark_blue": BLUE}


class PictureError(Exception):
    """A source the picture is made from cannot be read."""


def glyph_rows(path: Path, label: str | None, count: int) -> list[bytes]:
    """``count`` 8-byte glyphs from the ``db %........`` lines of an assembler file (after
    ``label:`` if given)."""
    text = path.read_text(encoding="utf-8")
    if label is not None:
        at = text.find(f"\n{label}:")
        if at < 0:
            raise PictureError(f"{path}: no label {label}")
        text = text[at:]
    rows = [int(m, 2) for m in re.findall(r"^\s*db\s+%([01]{8})", text, re.MULTILINE)]
    if len(rows) < 8 * count:
        raise PictureError(f"{path}: {len(rows)} glyph rows, {8 * count} wanted")
    return [bytes(rows[8 * i:8 * i + 8]) for i in range(count)]


class Screen:
    """A Spectrum screen being drawn: pixels and attributes."""

    def __init__(self) -> None:
        self.pixels = [[0] * 256 for _ in range(192)]
        self.attrs = [BLACK * 8 + WHITE] * ATTR_SIZE

    def attr(self, row: int, col: int, value: int) -> None:
        self.attrs[row * 32 + col] = value

    def glyph(self, g: bytes, x: int, y: int, scale: int = 1) -> None:
        """Set the pixels of a glyph at pixel (x, y), each pixel ``scale`` times."""
        for gy in range(8):
            for gx in range(8):
                if g[gy] >> (7 - gx) & 1:
                    for dy in range(scale):
                        for dx in range(scale):
                            self.pixels[y + gy * scale + dy][x + gx * scale + dx] = 1

    def text(self, font: list[bytes], s: str, row: int, col: int, attr: int) -> None:
        for i, ch in enumerate(s):
            self.glyph(font[ord(ch) - 0x20], (col + i) * 8, row * 8)
            self.attr(row, col + i, attr)

    def scr(self) -> bytes:
        out = bytearray(BITMAP_SIZE + ATTR_SIZE)
        for y in range(192):
            base = ((y & 0xC0) << 5) | ((y & 7) << 8) | ((y & 0x38) << 2)
            for col in range(32):
                out[base + col] = sum(self.pixels[y][col * 8 + b] << (7 - b) for b in range(8))
        out[BITMAP_SIZE:] = bytes(self.attrs)
        return bytes(out)


def picture() -> bytes:
    """The SCREEN$ bytes."""
    font = glyph_rows(FONT, "font", 96)
    pieces = glyph_rows(GRAPHICS, "graphics_glyphs", 6)
    s = Screen()
    # the banner and the title, four times the font's size
    for row in range(TITLE_ROW, TITLE_ROW + 6):
        for col in range(32):
            s.attr(row, col, RED * 8 + WHITE + BRIGHT)
    for i, ch in enumerate(TITLE):
        s.glyph(font[ord(ch) - 0x20], i * 8 * TITLE_SCALE, (TITLE_ROW + 1) * 8, TITLE_SCALE)
    # the board, as the game shows it, its bands coloured
    board = b3.squares()
    grid = b3.regions(board)
    want = b3.colours(grid)
    b3.layout(board)
    attrs, pixels = b3.attributes(want, board)
    for i, a in enumerate(attrs):
        r, c = divmod(i, 32)
        s.attr(BOARD_ROW + r, c, a)
        for y in range(8):
            bits = pixels[i * 8 + y]
            for x in range(8):
                s.pixels[(BOARD_ROW + r) * 8 + y][c * 8 + x] = bits >> (7 - x) & 1
    for sq in board:
        group = SQUARES[sq.index].group
        for r, c in sq.band():
            row = BOARD_ROW + r - b3.TOP_ROW
            paper = GROUP_COLOURS.get(group, WHITE)
            s.attr(row, c, paper * 8 + BLACK + (0 if group == "brown" else BRIGHT))
            for y in range(8):
                for x in range(8):
                    s.pixels[row * 8 + y][c * 8 + x] = 0
    # the six pieces in the middle, twice their size
    top = BOARD_ROW + 5
    pitch = 3
    left = (32 - (len(pieces) * pitch - 1)) // 2
    for i, g in enumerate(pieces):
        col = left + i * pitch
        for r in range(2):
            for c in range(2):
                s.attr(top + r, col + c, GREEN * 8 + WHITE + BRIGHT)
        s.glyph(g, col * 8, top * 8, 2)
    for n, line in enumerate(FOOTER):
        s.text(font, line, 23 + n, (32 - len(line)) // 2, BLACK * 8 + YELLOW + BRIGHT)
    return s.scr()


def png(data: bytes, path: Path) -> None:
    """The SCREEN$ as a PNG (for looking at)."""
    import pygame
    palette = [(0, 0, 0), (0, 0, 215), (215, 0, 0), (215, 0, 215), (0, 215, 0), (0, 215, 215),
               (215, 215, 0), (215, 215, 215)]
    bright = [(0, 0, 0), (0, 0, 255), (255, 0, 0), (255, 0, 255), (0, 255, 0), (0, 255, 255),
              (255, 255, 0), (255, 255, 255)]
    surf = pygame.Surface((256, 192))
    for y in range(192):
        base = ((y & 0xC0) << 5) | ((y & 7) << 8) | ((y & 0x38) << 2)
        for col in range(32):
            a = data[BITMAP_SIZE + (y // 8) * 32 + col]
            pal = bright if a & BRIGHT else palette
            byte = data[base + col]
            for b in range(8):
                c = a & 7 if byte >> (7 - b) & 1 else a >> 3 & 7
                surf.set_at((col * 8 + b, y), pal[c])
    pygame.image.save(pygame.transform.scale(surf, (768, 576)), str(path))


def main(argv: list[str] | None = None) -> int:
    """Write loading.scr, or with --check report whether it is up to date."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if loading.scr would change")
    ap.add_argument("--png", type=Path, help="also save the picture as a PNG")
    args = ap.parse_args(argv)
    try:
        data = picture()
    except (PictureError, b3.BoardError) as exc:
        print(f"gen_loading_screen: {exc}", file=sys.stderr)
        return 1
    if args.png:
        png(data, args.png)
    if args.check:
        if not OUTPUT.is_file() or OUTPUT.read_bytes() != data:
            print(f"{OUTPUT} is stale: run python tools/gen_loading_screen.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_bytes(data)
    print(f"{OUTPUT.relative_to(ROOT)}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
