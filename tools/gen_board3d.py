#!/usr/bin/env python3
"""Write ``src/game/board3d.asm``: the perspective board of the game screen, from the board data.

The board is seen from the GO/Jail side: the near edge (Jail .. GO) fills the screen's width,
the far edge (Free Parking .. Go To Jail) is narrower, as a camera looking down at an angle
sees it.  The tool

* projects the 40 squares (corners 1.5 units, sites 1 unit, 12 units a side) onto the pixel
  rows of character rows ``TOP_ROW``..``TOP_ROW + ROWS - 1``;
* draws every square's outline (a pixel whose right or lower neighbour belongs to another
  region is a line);
* plans the attributes cell by cell so that no 8 x 8 cell needs more than two colours: a cell
  mostly dark (outside the board, lines) gets black paper and the board's colour as ink, a
  cell mostly light gets the light colour as paper and black ink;
* chooses for each square its *band cells* (one or two whole cells inside its inner part, which
  the game colours by the square's group and marks with owner, buildings or a symbol) and its
  *token area* (16 pixels wide, one cell row high, at any pixel column: where its pieces
  stand), and checks that no band cell, label, dice or list cell lies under a token area;
* stores the picture as a tile map: the distinct 8-byte cells once, then a byte per cell.

The game (``src/game/perspective.asm``) copies the picture to the screen, then draws bands and
tokens; to move a token it restores the cells of a token area from the tile map and ORs in the
pieces of every square whose area shares those cells (the list emitted per square).

``tests/game/test_board3d.py`` fails when running this again would change the committed file.

Usage: ``python tools/gen_board3d.py [--check] [--png FILE]``
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zxmonopoly.rules.data import SQUARES  # noqa: E402

OUTPUT = ROOT / "src" / "game" / "board3d.asm"

# --- the picture's place and the camera -------------------------------------------------------
TOP_ROW = 2                  # character rows TOP_ROW .. TOP_ROW + ROWS - 1 (the upper two-thirds)
ROWS = 13
COLUMNS = 32
WIDTH = COLUMNS * 8
Y_FAR = 24                   # pixel row (of the screen) of the far edge: row 2 holds its tokens
Y_NEAR = 119                 # pixel row of the near edge (the last of row 14)
FAR_SCALE = 0.7              # the far edge's width as a fraction of the near edge's
NEAR_WIDTH = 254             # pixels across the near edge
UNITS = 12.0                 # a side: two corners of 1.5 and nine squares of 1
CORNER = 1.5
BAND_DEPTH = 0.45            # the inner part of a square (units) where its band cells go

# --- colours (Spectrum attribute bits) --------------------------------------------------------
BLACK, BLUE, RED, MAGENTA, GREEN, CYAN, YELLOW, WHITE = range(8)
BRIGHT = 0x40
BOARD = WHITE                # the squares
INSIDE = GREEN               # the board's middle
OUTSIDE = BLACK
LINE = BLACK

# --- what the game prints over the picture: the player list, dice, clock, corner labels -------
LIST_TOP = 4                 # "MONOPOLY" on this row, the players below, the Bank's row last
LIST_LEFT = 7
LIST_WIDTH = 18
LIST_ROWS = 8                # title + 6 players + the Bank
DICE_LABEL = (2, 0)          # "DICE"; the two dice (double size) on the two rows below
DICE_COLUMNS = 4
CLOCK_LABEL = (2, 28)        # "TIME"; the clock on the row below, from CLOCK_COL
CLOCK_COL = 27
CLOCK_WIDTH = 5
ATTR_LABEL_GO = WHITE * 8 + RED + BRIGHT
ATTR_LABEL_JAIL = BLACK * 8 + WHITE + BRIGHT
ATTR_LABEL_FP = WHITE * 8 + RED + BRIGHT
ATTR_LABEL_GTJ = WHITE * 8 + BLUE + BRIGHT
ATTR_TITLE = WHITE * 8 + RED + BRIGHT
# (square, row, column, attribute, text): the corners' names where they fit
LABELS = [(0, 13, 29, ATTR_LABEL_GO, "GO"), (10, 13, 0, ATTR_LABEL_JAIL, "JAIL"),
          (20, 3, 5, ATTR_LABEL_FP, "FP"), (30, 3, 24, ATTR_LABEL_GTJ, "GJ")]
TOKEN_WIDTH = 16             # a token area (graphics: board_compose_tokens)
JAIL = 10
SIDE = 10                    # squares from one corner to the next


class BoardError(Exception):
    """The layout does not work out (a cell wanted twice, a square with no room)."""


# --- projection ---------------------------------------------------------------------------------
K = 1 / FAR_SCALE - 1        # the scale at depth v (0 near .. 1 far) is 1 / (1 + K v)
Y_HORIZON = (Y_FAR - Y_NEAR * FAR_SCALE) / (1 - FAR_SCALE)


def scale(v: float) -> float:
    """How much smaller the board is drawn at depth ``v`` (0 near, 1 far)."""
    return 1 / (1 + K * v)


def project(u: float, v: float) -> tuple[float, float]:
    """Screen pixel (x, y) of board point (u, v), both 0..1 (u from the Jail side)."""
    s = scale(v)
    return WIDTH / 2 + (u - 0.5) * NEAR_WIDTH * s, Y_HORIZON + (Y_NEAR + 1 - Y_HORIZON) * s


def unproject(x: float, y: float) -> tuple[float, float]:
    """Board point (u, v) seen at screen pixel (x, y) (outside 0..1 when off the board)."""
    s = (y - Y_HORIZON) / (Y_NEAR + 1 - Y_HORIZON)
    v = (1 / s - 1) / K
    return (x - WIDTH / 2) / (NEAR_WIDTH * s) + 0.5, v


@dataclass
class Square:
    """One square's place on the board (units) and what the layout gave it."""

    index: int
    u0: float
    u1: float
    v0: float
    v1: float
    side: str                      # near, left, far, right
    corner: bool
    band_row: int = 0
    band_col: int = 0
    band_cells: int = 0
    token_x: int = 0
    token_row: int = 0
    token_width: int = TOKEN_WIDTH
    shares: list[int] = field(default_factory=list)

    def contains(self, u: float, v: float) -> bool:
        return self.u0 <= u * UNITS < self.u1 and self.v0 <= v * UNITS < self.v1

    def in_band(self, u: float, v: float) -> bool:
        """Is the board point in the inner part of the square (towards the middle)?"""
        uu, vv = u * UNITS, v * UNITS
        return {"near": vv >= self.v1 - BAND_DEPTH, "far": vv < self.v0 + BAND_DEPTH,
                "left": uu >= self.u1 - BAND_DEPTH, "right": uu < self.u0 + BAND_DEPTH}[self.side]

    def centre(self) -> tuple[float, float]:
        return project((self.u0 + self.u1) / 2 / UNITS, (self.v0 + self.v1) / 2 / UNITS)

    def token_cells(self) -> set[tuple[int, int]]:
        first, last = self.token_x // 8, (self.token_x + self.token_width - 1) // 8
        return {(self.token_row, c) for c in range(first, last + 1)}

    def band(self) -> set[tuple[int, int]]:
        return {(self.band_row, self.band_col + i) for i in range(self.band_cells)}


def squares() -> list[Square]:
    """The 40 squares in board units: GO near right, play clockwise (left along the near edge)."""
    far = UNITS - CORNER
    out = []
    for i in range(40):
        side, k = divmod(i, 10)
        corner = k == 0
        if side == 0:      # near edge, GO at the right
            u0, u1 = (far, UNITS) if corner else (far - k, far - k + 1)
            out.append(Square(i, u0, u1, 0, CORNER, "near", corner))
        elif side == 1:    # left edge, Jail at the near end
            v0, v1 = (0, CORNER) if corner else (CORNER + k - 1, CORNER + k)
            out.append(Square(i, 0, CORNER, v0, v1, "left", corner))
        elif side == 2:    # far edge, Free Parking at the left
            u0, u1 = (0, CORNER) if corner else (CORNER + k - 1, CORNER + k)
            out.append(Square(i, u0, u1, far, UNITS, "far", corner))
        else:              # right edge, Go To Jail at the far end
            v0, v1 = (far, UNITS) if corner else (far - k, far - k + 1)
            out.append(Square(i, far, UNITS, v0, v1, "right", corner))
    out[JAIL].side = "near"       # a corner's band side does not matter: it has no band
    return out


# --- rendering ----------------------------------------------------------------------------------
REGION_INSIDE, REGION_OUTSIDE = 40, 41


def regions(board: list[Square]) -> list[list[int]]:
    """For each pixel of the picture, the square under it (or inside / outside)."""
    grid = []
    for py in range(ROWS * 8):
        y = TOP_ROW * 8 + py + 0.5
        row = []
        for px in range(WIDTH):
            u, v = unproject(px + 0.5, y)
            if not (0 <= u < 1 and 0 <= v < 1):
                row.append(REGION_OUTSIDE)
                continue
            hit = next((sq.index for sq in board if sq.contains(u, v)), REGION_INSIDE)
            row.append(hit)
        grid.append(row)
    return grid


def colours(grid: list[list[int]]) -> list[list[int]]:
    """The colour each pixel wants: lines where regions meet, the board, its middle, outside."""
    h, w = len(grid), len(grid[0])
    out = []
    for y in range(h):
        row = []
        for x in range(w):
            r = grid[y][x]
            edge = any(0 <= yy < h and 0 <= xx < w and grid[yy][xx] != r
                       for yy, xx in ((y, x + 1), (y + 1, x)))
            if r == REGION_OUTSIDE:
                row.append(OUTSIDE)
            elif edge:
                row.append(LINE)
            else:
                row.append(INSIDE if r == REGION_INSIDE else BOARD)
        out.append(row)
    return out


def cell_coverage(grid: list[list[int]], row: int, col: int) -> dict[int, float]:
    """Fractions of a cell (picture row, column) covered by each region."""
    counts: dict[int, int] = {}
    for y in range(row * 8, row * 8 + 8):
        for x in range(col * 8, col * 8 + 8):
            counts[grid[y][x]] = counts.get(grid[y][x], 0) + 1
    return {k: n / 64 for k, n in counts.items()}


def band_coverage(board: list[Square], sq: Square, row: int, col: int,
                  whole: bool = False) -> float:
    """Fraction of a cell (picture row, column) inside the band part of a square (or all of
    it: a side square is about a cell high, too little for a band part to hold a cell)."""
    n = 0
    for y in range(row * 8, row * 8 + 8):
        for x in range(col * 8, col * 8 + 8):
            u, v = unproject(x + 0.5, TOP_ROW * 8 + y + 0.5)
            if 0 <= u < 1 and 0 <= v < 1 and sq.contains(u, v) and (whole or sq.in_band(u, v)):
                n += 1
    return n / 64


# --- layout --------------------------------------------------------------------------------------
def apart(taken: dict[tuple[int, int], str], texts: list[str]) -> None:
    """Texts printed over the picture never touch: a cell of one (a corner's name, the dice,
    the clock, the list) has no other's cell beside it on its row (issue 45: "GJ0:08")."""
    for (row, col), what in taken.items():
        if not what.startswith(tuple(texts)):
            continue
        other = taken.get((row, col + 1))
        if other is not None and other != what and other.startswith(tuple(texts)):
            raise BoardError(f"{what} touches {other} at {(row, col)}: no space between them")


def layout(board: list[Square]) -> None:
    """Give every square its band cells and token area; raise BoardError when they collide."""
    taken: dict[tuple[int, int], str] = {}

    def take(cells: set[tuple[int, int]], what: str) -> None:
        for c in sorted(cells):
            if c in taken:
                raise BoardError(f"cell {c} wanted by {what} and by {taken[c]}")
            taken[c] = what

    for sq in board:
        cx, cy = sq.centre()
        if sq.corner:
            if sq.side == "far" or sq.index == 30:
                sq.token_row = TOP_ROW                    # standing behind the far edge
            else:
                sq.token_row = TOP_ROW + ROWS - 1          # on the near edge's outer row
            if sq.index == JAIL:                           # visitors and prisoners side by side
                sq.token_width = 2 * TOKEN_WIDTH
            sq.token_x = max(0, min(WIDTH - sq.token_width, round(cx - sq.token_width / 2)))
            continue
        if sq.side in ("near", "far"):
            sq.band_row = TOP_ROW + ROWS - 2 if sq.side == "near" else TOP_ROW + 1
            sq.token_row = TOP_ROW + ROWS - 1 if sq.side == "near" else TOP_ROW
            cells = [c for c in range(COLUMNS)
                     if band_coverage(board, sq, sq.band_row - TOP_ROW, c, True) >= 0.5]
            cells.sort(key=lambda c: abs(c * 8 + 4 - cx))
            best = sorted(cells[:2])
            if len(best) == 2 and best[1] != best[0] + 1:
                best = best[:1]
            if not best:
                raise BoardError(f"square {sq.index}: no cell for its band")
            sq.band_col, sq.band_cells = best[0], len(best)
            sq.token_x = round(cx - TOKEN_WIDTH / 2)
        else:
            # nine squares, nine rows between the far and the near row: one row each, in order
            k = sq.index % 10
            far_first = k if sq.side == "right" else SIDE - k
            sq.band_row = sq.token_row = TOP_ROW + 2 + far_first - 1
            r = sq.band_row - TOP_ROW
            cells = [c for c in range(COLUMNS) if band_coverage(board, sq, r, c, True) >= 0.3]
            if not cells:
                raise BoardError(f"square {sq.index}: no cell for its band")
            sq.band_col = max(cells) if sq.side == "left" else min(cells)
            sq.band_cells = 1
            if sq.side == "left":                          # the pieces on the outer part
                sq.token_x = sq.band_col * 8 - TOKEN_WIDTH
            else:
                sq.token_x = (sq.band_col + 1) * 8
    for sq in board:
        take(sq.band(), f"square {sq.index}'s band")
    for _sq, row, col, _attr, text in LABELS:
        take({(row, col + i) for i in range(len(text))}, f"label {text}")
    take({(LIST_TOP + r, LIST_LEFT + c) for r in range(LIST_ROWS) for c in range(LIST_WIDTH)},
         "the player list")
    take({(DICE_LABEL[0] + r, DICE_LABEL[1] + c) for r in range(3) for c in range(DICE_COLUMNS)},
         "the dice")
    take({(CLOCK_LABEL[0], CLOCK_LABEL[1] + c) for c in range(4)}
         | {(CLOCK_LABEL[0] + 1, CLOCK_COL + c) for c in range(CLOCK_WIDTH)}, "the clock")
    apart(taken, ["label", "the dice", "the clock", "the player list"])
    for sq in board:
        for cell in sq.token_cells():
            if cell in taken:
                raise BoardError(f"square {sq.index}'s token area covers {taken[cell]} at {cell}")
            if not (TOP_ROW <= cell[0] < TOP_ROW + ROWS and 0 <= cell[1] < COLUMNS):
                raise BoardError(f"square {sq.index}'s token area is off the picture")
    for sq in board:
        mine = sq.token_cells()
        sq.shares = [o.index for o in board if o.token_cells() & mine]


def attributes(want: list[list[int]], board_squares: list[Square]) -> tuple[list[int], list[int]]:
    """Plan each cell's two colours and its pixels: (attributes, 8 bytes a cell)."""
    attrs, pixels = [], []
    for row in range(ROWS):
        for col in range(COLUMNS):
            block = [want[row * 8 + y][col * 8 + x] for y in range(8) for x in range(8)]
            dark = sum(1 for c in block if c == BLACK)
            light = [c for c in block if c != BLACK]
            main = max(set(light), key=light.count) if light else BOARD
            if dark * 2 > len(block):                      # mostly dark: black paper
                attr = BLACK * 8 + main + BRIGHT
                bits = [c != BLACK for c in block]
            else:
                attr = main * 8 + BLACK + (BRIGHT if main == BOARD else 0)
                bits = [c == BLACK for c in block]
            attrs.append(attr)
            for y in range(8):
                pixels.append(sum(bits[y * 8 + x] << (7 - x) for x in range(8)))
    for sq in board_squares:                                 # bands: drawn by the game
        for r, c in sq.band():
            i = (r - TOP_ROW) * COLUMNS + c
            attrs[i] = WHITE * 8 + BLACK + BRIGHT
            pixels[i * 8:i * 8 + 8] = [0] * 8
    return attrs, pixels


def clashes(want: list[list[int]]) -> int:
    """Cells whose wanted pixels hold three or more colours (the plan loses one of them)."""
    n = 0
    for row in range(ROWS):
        for col in range(COLUMNS):
            block = {want[row * 8 + y][col * 8 + x] for y in range(8) for x in range(8)}
            n += len(block) > 2
    return n


def tiles(pixels: list[int]) -> tuple[list[bytes], list[int]]:
    """The distinct cells (blank first) and each cell's number."""
    table: dict[bytes, int] = {bytes(8): 0}
    numbers = []
    for i in range(ROWS * COLUMNS):
        cell = bytes(pixels[i * 8:i * 8 + 8])
        numbers.append(table.setdefault(cell, len(table)))
    if len(table) > 256:
        raise BoardError(f"{len(table)} distinct cells: more than a byte can number")
    return list(table), numbers


# --- output --------------------------------------------------------------------------------------
def rows_of(values: list[int], per_line: int = 16) -> list[str]:
    return ["        db " + ", ".join(f"0x{v:02X}" for v in values[i:i + per_line])
            for i in range(0, len(values), per_line)]


def generate() -> tuple[str, dict[str, object]]:
    """The text of board3d.asm, and figures about it."""
    board = squares()
    grid = regions(board)
    want = colours(grid)
    layout(board)
    attrs, pixels = attributes(want, board)
    table, numbers = tiles(pixels)
    lines = [
        "; " + "=" * 93,
        "; board3d.asm - the perspective board: picture (tile map), colours and where each",
        "; square's band and pieces go",
        ";",
        "; Generated by tools/gen_board3d.py from zxmonopoly.rules.data: do not edit.",
        "; " + "=" * 93,
        "",
        f"B3_TOP          equ {TOP_ROW}               ; the picture's first character row",
        f"B3_ROWS         equ {ROWS}              ; its rows (all {COLUMNS} columns)",
        f"B3_TILES        equ {len(table)}             ; distinct 8-byte cells",
        f"B3_LIST_TOP     equ {LIST_TOP}               ; the player list: title row",
        f"B3_LIST_LEFT    equ {LIST_LEFT}               ; ... its first column",
        f"B3_DICE_LABEL_ROW equ {DICE_LABEL[0]}",
        f"B3_DICE_COL     equ {DICE_LABEL[1]}",
        f"B3_DICE_COLUMNS equ {DICE_COLUMNS}",
        f"B3_CLOCK_LABEL_ROW equ {CLOCK_LABEL[0]}",
        f"B3_CLOCK_LABEL_COL equ {CLOCK_LABEL[1]}",
        f"B3_CLOCK_COL    equ {CLOCK_COL}",
        f"B3_CLOCK_WIDTH  equ {CLOCK_WIDTH}",
        "",
        "; A square's record: token area x (pixels), its row, band row, band column, band cells",
        "; (0 corner, 1, 2: owner then symbol), token area cells to restore, and the address of",
        "; the list of squares whose token areas share those cells (0FFh-terminated)",
        "B3_TOKEN_X      equ 0",
        "B3_TOKEN_ROW    equ 1",
        "B3_BAND_ROW     equ 2",
        "B3_BAND_COL     equ 3",
        "B3_BAND_CELLS   equ 4",
        "B3_TOKEN_CELLS  equ 5",
        "B3_SHARES       equ 6",
        "B3_RECORD       equ 8",
        "b3_squares:",
    ]
    for sq in board:
        cells = len(sq.token_cells())
        lines.append(f"        db {sq.token_x}, {sq.token_row}, {sq.band_row}, {sq.band_col}, "
                     f"{sq.band_cells}, {cells}\n        dw b3_shares_{sq.index}"
                     f"        ; {SQUARES[sq.index].short}")
    lines.append("        assert $ - b3_squares == 40 * B3_RECORD")
    for sq in board:
        lines.append(f"b3_shares_{sq.index}: db " + ", ".join(str(s) for s in sq.shares)
                     + ", 0xFF")
    lines.append("")
    lines.append("; The corners' names and the list's title (print_string codes)")
    lines.append("b3_labels:")
    for _sq, row, col, attr, text in LABELS:
        lines.append(f'        db PR_AT, {row}, {col}, PR_ATTR, 0x{attr:02X}, "{text}"')
    lines.append(f'        db PR_AT, {LIST_TOP}, {LIST_LEFT + (LIST_WIDTH - 8) // 2}, PR_ATTR, '
                 f'0x{ATTR_TITLE:02X}, "MONOPOLY", 0')
    lines.append("")
    lines.append("; Each cell's tile number, row by row")
    lines.append("b3_map:")
    lines += rows_of(numbers, COLUMNS)
    lines.append("        assert $ - b3_map == B3_ROWS * 32")
    lines.append("; Each cell's attribute")
    lines.append("b3_attrs:")
    lines += rows_of(attrs, COLUMNS)
    lines.append("        assert $ - b3_attrs == B3_ROWS * 32")
    lines.append("; The distinct cells, 8 bytes each")
    lines.append("b3_tiles:")
    for t in table:
        lines.append("        db " + ", ".join(f"0x{b:02X}" for b in t))
    lines.append("        assert $ - b3_tiles == B3_TILES * 8")
    text = "\n".join(lines) + "\n"
    figures = {"tiles": len(table), "bytes": len(table) * 8 + 2 * ROWS * COLUMNS + 40 * 8
               + sum(len(sq.shares) + 1 for sq in board), "clashes": clashes(want)}
    return text, figures


def png(path: Path) -> None:
    """A picture of the plan, as the Spectrum shows it (for looking at, not for the build)."""
    import pygame
    board = squares()
    grid = regions(board)
    want = colours(grid)
    layout(board)
    attrs, pixels = attributes(want, board)
    palette = [(0, 0, 0), (0, 0, 215), (215, 0, 0), (215, 0, 215), (0, 215, 0), (0, 215, 215),
               (215, 215, 0), (215, 215, 215)]
    surf = pygame.Surface((WIDTH, ROWS * 8))
    for i, a in enumerate(attrs):
        row, col = divmod(i, COLUMNS)
        for y in range(8):
            bits = pixels[i * 8 + y]
            for x in range(8):
                c = a & 7 if bits >> (7 - x) & 1 else a >> 3 & 7
                surf.set_at((col * 8 + x, row * 8 + y), palette[c])
    pygame.image.save(pygame.transform.scale(surf, (WIDTH * 3, ROWS * 24)), str(path))


def main(argv: list[str] | None = None) -> int:
    """Write board3d.asm, or with --check report whether it is up to date."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if board3d.asm would change")
    ap.add_argument("--png", type=Path, help="also save a picture of the plan")
    args = ap.parse_args(argv)
    try:
        text, figures = generate()
    except BoardError as exc:
        print(f"gen_board3d: {exc}", file=sys.stderr)
        return 1
    if args.png:
        png(args.png)
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT} is stale: run python tools/gen_board3d.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"{OUTPUT.relative_to(ROOT)}: {figures['tiles']} tiles, {figures['bytes']} bytes, "
          f"{figures['clashes']} cells wanting three colours")
    return 0


if __name__ == "__main__":
    sys.exit(main())
