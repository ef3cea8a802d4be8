"""The close-up in the lower third (closeup.asm; issue 45, item 6): the square landed on is the
subject, the two before it the way there, and no frame of a walk shows a half-drawn, doubled or
stale label."""

from __future__ import annotations

from tests.game.helpers import Game
from tests.game.screen import attr
from zxmonopoly.rules.data import SQUARES
from zxmonopoly.spectrum.video import ATTR_FILE, row_address


def closeup_picture(rig) -> bytes:
    """The close-up's rows as the screen holds them: every pixel byte and attribute."""
    mem = rig.machine.memory
    top, height = rig.symbols["CLOSEUP_TOP"], rig.symbols["CLOSEUP_HEIGHT"]
    pixels = b"".join(bytes(mem[row_address(y):row_address(y) + 32])
                      for y in range(8 * top, 8 * (top + height)))
    return pixels + bytes(mem[ATTR_FILE + 32 * top:ATTR_FILE + 32 * (top + height)])


def test_every_frame_of_a_walk_round_the_board_shows_a_whole_closeup(rig):
    """A token walks 39 squares from GO to Mayfair: at the end of every frame the close-up is,
    byte for byte, the whole close-up of one square of the walk, in the order walked (before,
    its boxes were seen half redrawn: "Pall Mall" over "rall Mall", a name twice, "£12")."""
    Game(rig)
    rig.call("board_draw_all")
    pictures = {}
    for square in range(40):
        rig.call("closeup_show", a=square)
        pictures[closeup_picture(rig)] = square
    assert len(pictures) == 40
    rig.call("closeup_show", a=0)
    seen: list[int | None] = []
    rig.machine.frame_listeners.append(lambda _m: seen.append(pictures.get(closeup_picture(rig))))
    try:
        rig.call("move_forward", a=39, ix=rig.player_address(1, "P_FLAGS"))
    finally:
        rig.machine.frame_listeners.pop()
    assert None not in seen, [(n, s) for n, s in enumerate(seen) if s is None][:5]
    assert seen == sorted(seen), seen
    assert set(seen) == set(range(40)), sorted(set(range(40)) - set(seen))
    assert rig.peek(rig.player_address(1, "P_SQUARE")) == 39 and seen[-1] == 39


def boxes(rig) -> list[tuple[int, int]]:
    """The close-up's boxes, left to right: (first column, width); the last is the square
    landed on."""
    s = rig.symbols
    way, gutter, now = s["CU_WAY_WIDTH"], s["CU_GUTTER"], s["CU_NOW_WIDTH"]
    return [(0, way), (way + gutter, way), (2 * (way + gutter), now)]


def box_text(rig, box: tuple[int, int], rows: range) -> list[str]:
    """A box's lines in those rows, stripped (a picture's or a piece's cells dropped)."""
    col, width = box
    return [line[col:col + width].replace("?", "").strip() for line in rig.lines()[rows.start:
                                                                                   rows.stop]]


def joined(lines: list[str]) -> str:
    """A name read back from its lines: a line ending in a hyphen goes on in the next."""
    out = ""
    for line in (ln for ln in lines if ln):
        out += line[:-1] if line.endswith("-") else line + " "
    return out.strip()


def test_every_name_is_whole_in_every_box_and_breaks_only_at_a_syllable(rig):
    """Each square's name, in either kind of box: all of it, each line centred, a long word
    broken only where board_name_breaks says ("White-chapel", never "Whitecha-pel")."""
    from zxmonopoly.rules.z80tables import NAME_BREAKS
    Game(rig)
    top = rig.symbols["CLOSEUP_TOP"]
    names = range(top + 1, top + 4)                 # between the band and the price row
    for square in range(40):
        rig.call("closeup_show", a=(square + 2) % 40)
        for box, shown in zip(boxes(rig), (square, (square + 1) % 40, (square + 2) % 40),
                              strict=True):
            lines = box_text(rig, box, names)
            name = SQUARES[shown].short
            assert joined(lines) == name, (shown, lines)
            for line in lines:
                if line.endswith("-"):
                    assert any(line[:-1] == first or line[:-1].endswith(" " + first)
                               for first in NAME_BREAKS.values()), (shown, lines)
            col, width = box
            for n, line in zip(names, lines, strict=True):
                if line and "?" not in rig.lines()[n][col:col + width]:
                    raw = rig.lines()[n][col:col + width]
                    left, right = len(raw) - len(raw.lstrip()), len(raw) - len(raw.rstrip())
                    assert abs(left - right) <= 1, (shown, raw)     # centred


def test_the_square_landed_on_is_the_large_bright_box_with_the_piece(rig):
    g = Game(rig)
    g.put(0, 39)
    rig.call("closeup_show", a=39)                  # Park Lane, Super Tax -> Mayfair
    s = rig.symbols
    (way0, w0), (way1, w1), (now, wn) = boxes(rig)
    assert wn > w0 == w1
    top, height = s["CLOSEUP_TOP"], s["CLOSEUP_HEIGHT"]
    price = top + height - 1
    for row in range(top + 1, top + height):        # below the bands: the boxes' own colours
        assert {attr(rig, row, c) for c in range(now, now + wn)} == {s["ATTR_CU_CURRENT"]}
        assert {attr(rig, row, c) for c in range(way0, way0 + w0)} == {s["ATTR_CU_WAY"]}
    bright = 0x40
    assert s["ATTR_CU_CURRENT"] & bright and not s["ATTR_CU_WAY"] & bright
    assert attr(rig, top, now) & bright and not attr(rig, top, way0) & bright   # the bands
    # the way there: an arrow in each gutter; the current player's piece on his square
    from tests.game.screen import cell_bytes, glyph
    arrow = bytes(rig.peek(s["gfx_way"] + i) for i in range(8))
    assert cell_bytes(rig, s["CU_ARROW_ROW"], way0 + w0) == arrow
    assert cell_bytes(rig, s["CU_ARROW_ROW"], now - 1) == arrow
    assert cell_bytes(rig, price, now + wn - 1) == glyph(rig, s["CH_TOKEN"] + 0)
    assert box_text(rig, (now, wn), range(top + 1, top + 4)) == ["", "Mayfair", ""]
    assert box_text(rig, (now, wn), range(price, price + 1)) == ["£400"]


def test_the_closeup_writes_only_its_own_rows_of_the_picture(rig):
    """The close-up's picture (CU_PICTURE) is laid out as the display file's third; the close-up
    writes only its own rows' offsets there, never the message lines' (CU_MSG_OFFSET..), where a
    refusal keeps the lines under it (refuse.asm): every square in every box, owned and
    mortgaged or not, with the widest price there is (a £65,535 jackpot: "Pot £65535", a cell
    wider than a way box, printed from the box's edge)."""
    g = Game(rig)
    s = rig.symbols
    rig.poke("v_options", rig.peek("v_options") | 1 << s["OPT_JACKPOT"])
    rig.poke16("v_jackpot", 65535)
    mem = rig.machine.memory
    kept = [s["CU_PICTURE"] + page * 256 + s["CU_MSG_OFFSET"] for page in range(9)]
    assert s["CU_PICTURE_ATTRS"] == s["CU_PICTURE"] + 8 * 256
    width = 256 - s["CU_MSG_OFFSET"]
    assert width == s["MSG_HEIGHT"] * 32
    for n, at in enumerate(kept):
        mem[at:at + width] = bytes((n * 31 + i * 7 + 1) & 0xFF for i in range(width))
    before = [bytes(mem[at:at + width]) for at in kept]
    properties = [sq.index for sq in SQUARES if sq.price]
    for owned in (0, 1 << s["SQ_MORTGAGED"] | 1):
        for square in properties:
            rig.poke(s["v_squares"] + square, owned)
        for square in range(40):
            rig.call("closeup_show", a=square)
            assert [bytes(mem[at:at + width]) for at in kept] == before, (owned, square)
    g.put(0, 20)
    price = s["CLOSEUP_TOP"] + s["CLOSEUP_HEIGHT"] - 1
    for square, box in ((22, 0), (21, 1), (20, 2)):         # Free Parking in each box
        rig.call("closeup_show", a=square)
        col, width = boxes(rig)[box]
        assert "Pot £65535" in rig.lines()[price][col:col + 10 + 1], (box, rig.lines()[price])


def _colours_of_line(rig, y: int) -> list[int]:
    """The colour (0-7, BRIGHT aside) of each pixel of display line ``y``: ink where a pixel is
    set, paper where not."""
    mem = rig.machine.memory
    out = []
    for col in range(32):
        cell = mem[ATTR_FILE + 32 * (y // 8) + col]
        byte = mem[row_address(y) + col]
        for bit in range(7, -1, -1):
            out.append(cell & 7 if byte >> bit & 1 else cell >> 3 & 7)
    return out


def test_the_status_row_never_runs_into_a_colour_band(rig):
    """The status row (the player's name on blue, or the cursor's square) sits right on the
    close-up's top row, where a site's colour band is: no pixel column runs from the status
    row's blue straight into a band of the same blue (tried as a player would: Park Lane's
    dark-blue band, landed on, read as part of the status row above it). Every site is tried
    in every box, under the name and under the cursor."""
    g = Game(rig)
    s = rig.symbols
    status, top = s["STATUS_ROW"], s["CLOSEUP_TOP"]
    assert top == status + 1
    blue = s["ATTR_STATUS"] >> 3 & 7
    assert s["ATTR_CURSOR_NAME"] >> 3 & 7 == blue
    sites = {sq.index for sq in SQUARES if sq.kind == "site"}
    assert len(sites) == 22
    rig.call("board_draw_all")
    merged = []
    for square in range(40):
        g.put(0, square)
        rig.call("closeup_show", a=square)
        shown = [(square - 2) % 40, (square - 1) % 40, square]
        for drawn in ("board_draw_status", "cursor_show"):
            rig.poke("cursor_square", square)
            rig.call(drawn)
            above, below = _colours_of_line(rig, 8 * top - 1), _colours_of_line(rig, 8 * top)
            for (col, width), site in zip(boxes(rig), shown, strict=True):
                if site not in sites:
                    continue
                runs = [x for x in range(8 * col, 8 * (col + width))
                        if above[x] == below[x] == blue]
                if runs:
                    merged.append((SQUARES[site].name, drawn, len(runs)))
    assert not merged, merged
