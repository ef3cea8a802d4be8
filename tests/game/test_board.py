"""The game screen with the flat board (board.asm, the B option), its pictures (graphics.asm)
and the board cursor (cursor.asm).

Each test pokes a state into the rig, calls the routine by name and reads the screen back:
text through the game's font, attributes, and pixels compared with the glyphs in the image.
"""

from __future__ import annotations

import pytest

from tests.game.screen import (
    attr,
    busy_state,
    cell_bytes,
    elapsed,
    glyph,
    set_player,
    set_square,
)

# Board geometry of board.asm (row, column of a square's cells)
ROW_TOP_OUTER, ROW_TOP_INNER, ROW_BOTTOM_INNER, ROW_BOTTOM_OUTER = 2, 3, 13, 14


def token_area(square: int) -> tuple[int, int]:
    """(row, column) of the left cell of an edge square's token area."""
    if square < 10:
        return ROW_BOTTOM_OUTER, 22 - 2 * square
    if square < 20:
        return 23 - square, 0
    if square < 30:
        return ROW_TOP_OUTER, 2 * square - 38
    return square - 27, 24


def band(square: int) -> tuple[int, int]:
    """(row, column) of the owner cell of an edge square's band."""
    if square < 10:
        return ROW_BOTTOM_INNER, 22 - 2 * square
    if square < 20:
        return 23 - square, 2
    if square < 30:
        return ROW_TOP_INNER, 2 * square - 38
    return square - 27, 22


@pytest.fixture
def rig(rig):
    """The fresh rig of conftest showing the flat board (the B option; the perspective board
    is tests/game/test_board3d.py's)."""
    rig.poke("v_flat_board", 1)
    return rig


# -- graphics ---------------------------------------------------------------------------------

def test_glyphs_are_all_drawn_and_distinct(rig):
    codes = range(rig.symbols["CH_TOKEN"], rig.symbols["CH_GRAPHICS_END"])
    glyphs = [glyph(rig, c) for c in codes]
    assert len(glyphs) == 15
    assert all(any(g) for g in glyphs)
    assert len(set(glyphs)) == len(glyphs)
    small = [bytes(rig.peek(rig.symbols["gfx_small_tokens"] + 3 * t + i) for i in range(3))
             for t in range(6)]
    assert len(set(small)) == 6


# -- the menu and the whole screen --------------------------------------------------------------

def test_menu_words_and_highlighted_initials(rig):
    busy_state(rig)
    rig.call("board_draw_all")
    assert rig.row(0).split() == ["Mortgage", "Houses", "Rent", "Owners"]
    assert rig.row(1).split() == ["Trade", "Dice", "Credit", "Assets"]
    key, menu = rig.symbols["ATTR_MENU_KEY"], rig.symbols["ATTR_MENU"]
    for row in (0, 1):
        line = rig.row(row)
        for word in line.split():
            col = line.index(word)
            assert attr(rig, row, col) == key, word
            assert attr(rig, row, col + 1) == menu, word


def test_draw_all_is_fast_and_shows_the_corners(rig):
    busy_state(rig)
    t = elapsed(rig, "board_draw_all")
    assert t < 3_500_000 // 2, f"board_draw_all took {t} T-states"   # under 0.5 s
    text = rig.text()
    for label in ("FREE", "PARK", "GOTO", "JAIL", "GO", "MONOPOLY", "DICE", "TIME"):
        assert label in text
    rig.screenshot("/tmp/board.png")


def test_draw_square_is_fast(rig):
    busy_state(rig)
    rig.call("board_draw_all")
    for square in (0, 10, 24, 39):                         # under 10 ms each
        t = elapsed(rig, "board_draw_square", a=square)
        assert t < 35_000, f"square {square}: {t} T-states"


# -- the player list, status row, dice and clock ------------------------------------------------

def test_player_list_names_cash_and_marks(rig):
    busy_state(rig)
    rig.call("board_draw_all")
    lines = rig.lines()
    rows = {name: next(n for n, line in enumerate(lines) if name in line)
            for name in ("ANNE", "BOB", "CHARLOTTE", "DAVE", "EVELYN", "FRANKENSTE")}
    assert "£1500" in lines[rows["ANNE"]]
    assert "£230" in lines[rows["BOB"]]
    assert "12000" in lines[rows["CHARLOTTE"]]
    assert "£7" in lines[rows["DAVE"]]
    assert "£999" in lines[rows["EVELYN"]]
    assert "BUST" in lines[rows["FRANKENSTE"]]
    assert "G12000" in lines[rows["CHARLOTTE"]]           # computer: Greedy
    assert "C £999" in lines[rows["EVELYN"]]              # computer: Cautious
    # numbers 1-6 before the names, the piece before the number
    for p, name in enumerate(rows):
        row = rows[name]
        col = lines[row].index(name)
        assert lines[row][col - 1] == str(p + 1)
        assert cell_bytes(rig, row, col - 2) == glyph(rig, rig.symbols["CH_TOKEN"] + p)
    # the current player (BOB) highlighted, the others not, the bankrupt one dimmed
    col = lines[rows["BOB"]].index("BOB")
    assert attr(rig, rows["BOB"], col) == rig.symbols["ATTR_PL_CURRENT"]
    assert attr(rig, rows["ANNE"], col) == rig.symbols["ATTR_PL_NORMAL"]
    assert attr(rig, rows["FRANKENSTE"], col) == rig.symbols["ATTR_PL_OUT"]


def test_player_list_follows_cash_and_turn(rig):
    busy_state(rig)
    rig.call("board_draw_all")
    rig.poke16(rig.player_address(1, "P_CASH"), 1234)
    rig.poke("v_current", 0)
    rig.call("board_draw_players")
    row, col = rig.find("ANNE")
    assert "£1234" in rig.row(row)
    assert attr(rig, row, col) == rig.symbols["ATTR_PL_CURRENT"]


def test_fewer_players_leave_blank_rows(rig):
    rig.poke("v_num_players", 2)
    set_player(rig, 0, "ANNE")
    set_player(rig, 1, "BOB")
    set_player(rig, 2, "GHOST")
    rig.call("board_draw_all")
    assert rig.find("ANNE") and rig.find("BOB")
    assert rig.find("GHOST") is None


def test_status_row(rig):
    busy_state(rig)
    rig.call("board_draw_all")
    assert "Player 2 BOB" in rig.row(15)
    col = rig.row(15).index("Player")
    assert cell_bytes(rig, 15, col - 2) == glyph(rig, rig.symbols["CH_TOKEN"] + 1)


def test_dice_panel_and_clock(rig):
    rig.poke("v_num_players", 2)
    rig.call("board_draw_all")
    assert "DICE" not in rig.text()                        # no throw yet
    assert "TIME" not in rig.text()                        # not a short game
    rig.poke("v_dice", 2)
    rig.poke(rig.address("v_dice") + 1, 5)
    rig.call("board_draw_dice")
    assert "DICE" in rig.text() and "DOUBLE" not in rig.text()
    # each die is its CH_DIE glyph drawn double size: the top-left cell holds rows 0-3
    for face, col in ((2, rig.symbols["DIE1_COL"]), (5, rig.symbols["DIE2_COL"])):
        g = glyph(rig, rig.symbols["CH_DIE"] + face - 1)
        top = cell_bytes(rig, rig.symbols["DICE_ROW"], col)
        expect = bytes(sum(((g[line // 2] >> (7 - bit // 2)) & 1) << (7 - bit)
                           for bit in range(8)) for line in range(8))
        assert top == expect
    rig.poke(rig.address("v_dice") + 1, 2)
    rig.call("board_draw_dice")
    assert "DOUBLE" in rig.text()
    rig.poke("v_short_game", 1)
    rig.poke16("v_clock_minutes", 65)
    rig.call("board_draw_clock")
    assert "TIME" in rig.text() and "1:05" in rig.text()


# -- squares: tokens, owners, mortgage, buildings -----------------------------------------------

def test_a_token_stands_on_its_square(rig):
    rig.poke("v_num_players", 2)
    set_player(rig, 0, "ANNE", square=24, token=3)
    set_player(rig, 1, "BOB", square=0)
    rig.call("board_draw_all")
    row, col = token_area(24)
    assert cell_bytes(rig, row, col) == glyph(rig, rig.symbols["CH_TOKEN"] + 3)
    assert not any(cell_bytes(rig, row, col + 1))
    row, col = token_area(23)
    assert not any(cell_bytes(rig, row, col) + cell_bytes(rig, row, col + 1))
    # moving: the player's square changes, two squares are redrawn
    rig.poke(rig.player_address(1, "P_SQUARE"), 25)
    rig.call("board_draw_square", a=24)
    rig.call("board_draw_square", a=25)
    row, col = token_area(24)
    assert not any(cell_bytes(rig, row, col))
    row, col = token_area(25)
    assert cell_bytes(rig, row, col) == glyph(rig, rig.symbols["CH_TOKEN"] + 3)


def test_six_tokens_on_one_square_are_all_visible(rig):
    rig.poke("v_num_players", 6)
    for p in range(6):
        set_player(rig, p, f"P{p}", square=13)
    rig.call("board_draw_all")
    row, col = token_area(13)
    area = [cell_bytes(rig, row, col), cell_bytes(rig, row, col + 1)]
    bits = [[(area[x // 8][y] >> (7 - x % 8)) & 1 for x in range(16)] for y in range(8)]
    for p in range(6):                                     # each slot has its own pixels
        x0, y0 = 1 + 5 * (p % 3), 1 + 4 * (p // 3)
        assert any(bits[y][x] for y in range(y0, y0 + 3) for x in range(x0, x0 + 4)), p
    # a player out of the game is not shown
    set_player(rig, 5, "P5", square=13, playing=False)
    rig.call("board_draw_square", a=13)
    area = [cell_bytes(rig, row, col), cell_bytes(rig, row, col + 1)]
    bits = [[(area[x // 8][y] >> (7 - x % 8)) & 1 for x in range(16)] for y in range(8)]
    assert not any(bits[y][x] for y in range(5, 8) for x in range(11, 15))
    assert any(bits[y][x] for y in range(5, 8) for x in range(6, 10))   # player 4 still there


def test_jail_shows_visitors_and_prisoners_apart(rig):
    rig.poke("v_num_players", 2)
    set_player(rig, 0, "ANNE", square=10)
    set_player(rig, 1, "BOB", square=10, in_jail=True)
    rig.call("board_draw_all")
    assert cell_bytes(rig, ROW_BOTTOM_OUTER, 0) == glyph(rig, rig.symbols["CH_TOKEN"] + 0)
    inside = cell_bytes(rig, ROW_BOTTOM_OUTER, 2)
    bars = rig.symbols["JAIL_BARS_LEFT"]
    assert bytes(b & ~bars & 0xFF for b in inside) == bytes(
        b & ~bars & 0xFF for b in glyph(rig, rig.symbols["CH_TOKEN"] + 1))
    assert attr(rig, ROW_BOTTOM_OUTER, 2) == rig.symbols["ATTR_JAIL"]


def test_owner_buildings_and_mortgage(rig):
    rig.poke("v_num_players", 3)
    for p in range(3):
        set_player(rig, p, f"P{p}")
    set_square(rig, 39, 1, buildings=5)                    # Mayfair: player 2, a hotel
    set_square(rig, 37, 1, buildings=3)                    # Park Lane: 3 houses
    set_square(rig, 11, 2, mortgaged=True)                 # Pall Mall: player 3, mortgaged
    set_square(rig, 5, 0)                                  # King's Cross: player 1
    rig.call("board_draw_all")
    row, col = band(39)
    assert rig.row(row)[col] == "2"
    assert cell_bytes(rig, row, col + 1) == glyph(rig, rig.symbols["CH_HOTEL"])
    row, col = band(37)
    houses = rig.symbols["gfx_houses"] + 2 * 8
    assert cell_bytes(rig, row, col + 1) == bytes(rig.peek(houses + i) for i in range(8))
    row, col = band(11)
    assert rig.row(row)[col:col + 2] == "3M"
    trow, tcol = token_area(11)
    mortgaged = rig.symbols["ATTR_MORTGAGED"]
    for c in (col, col + 1):
        assert attr(rig, row, c) == mortgaged
    for c in (tcol, tcol + 1):
        assert attr(rig, trow, c) == mortgaged
    row, col = band(5)
    assert rig.row(row)[col] == "1"
    # unowned, unmortgaged sites show their group colour, and different groups differ
    colours = {attr(rig, *band(sq)) for sq in (1, 6, 13, 16, 21, 26, 31, 37)}
    assert len(colours) == 8
    assert mortgaged not in colours


def test_non_property_squares_are_distinguishable(rig):
    rig.poke("v_num_players", 2)
    rig.call("board_draw_all")
    cells = {sq: cell_bytes(rig, band(sq)[0], band(sq)[1] + 1) for sq in (2, 4, 5, 7, 12, 28)}
    assert len(set(cells.values())) == 6
    assert rig.row(band(7)[0])[band(7)[1] + 1] == "?"      # Chance
    assert rig.row(band(4)[0])[band(4)[1] + 1] == "£"      # Income Tax


# -- the close-up ------------------------------------------------------------------------------

def test_closeup_shows_three_squares(rig):
    rig.poke("v_num_players", 2)
    rig.call("board_draw_all")
    rig.call("closeup_show", a=1)                          # 39, 0, 1
    lower = "\n".join(rig.lines()[16:21])
    assert "Mayfair" in lower and "GO" in lower and "Old Kent" in lower
    assert "£400" in lower and "£60" in lower and "Get £200" in lower
    # the current square is the large box on the right, in its own colours
    now = 2 * (rig.symbols["CU_WAY_WIDTH"] + rig.symbols["CU_GUTTER"])
    row, col = rig.find("Old Kent")
    assert col >= now
    gutters = (rig.symbols["CU_WAY_WIDTH"], now - 1)
    assert all(line[g] in " ?" for line in rig.lines()[16:21] for g in gutters)   # (arrows)
    assert attr(rig, row, col) == rig.symbols["ATTR_CU_CURRENT"]
    row, col = rig.find("Mayfair")
    assert attr(rig, row, col) == rig.symbols["ATTR_CU_WAY"]


def test_closeup_wraps_names_and_tells_taxes(rig):
    rig.poke("v_num_players", 2)
    rig.call("board_draw_all")
    rig.call("closeup_show", a=5)                          # 3, 4, 5
    lines = rig.lines()[16:21]
    way = rig.symbols["CU_WAY_WIDTH"]
    assert [line[:way].strip() for line in lines[1:4]] == ["White-", "chapel", "Rd."]
    assert any("Income" in line for line in lines) and any("Pay £200" in line for line in lines)
    now = 2 * (way + rig.symbols["CU_GUTTER"])
    right = [line[now:].strip() for line in lines]        # (its picture twice the size above)
    assert right[2:4] == ["King's Cross", "Station"]
    assert right[4].startswith("£200") and right[4].endswith("?")   # and the piece
    # mortgaged: says so in the band
    set_square(rig, 5, 0, mortgaged=True)
    rig.call("closeup_show", a=5)
    assert "MORTGAGED" in rig.row(20)                      # (a station: in its price row)
    set_square(rig, 3, 0, mortgaged=True)
    rig.call("closeup_show", a=3)
    assert "MORTGAGED" in rig.row(16)[now:]               # (a site: in its band)
    rig.call("lower_clear")
    assert all(not line.strip() for line in rig.lines()[16:21])


# -- the cursor -------------------------------------------------------------------------------

def flashing(r, square: int) -> bool:
    row, col = band(square)
    return bool(attr(r, row, col) & 0x80)


def test_cursor_moves_and_chooses(rig):
    rig.poke("v_num_players", 2)
    rig.call("board_draw_all")
    rig.start_call("cursor_select", hl=rig.symbols["cursor_none"])
    rig.wait_input()
    assert attr(rig, 13, 22) & 0x80                         # on GO
    assert "GO" in rig.row(15)
    for _ in range(3):                                      # clockwise: 1, 2, 3
        rig.tap("CAPS SHIFT+5")
        rig.wait_input()
    assert flashing(rig, 3) and not flashing(rig, 1)
    assert "Whitechapel" in rig.row(15)
    rig.tap("CAPS SHIFT+8")                                 # anticlockwise: back to 2
    rig.wait_input()
    assert flashing(rig, 2) and not flashing(rig, 3)
    rig.tap("SPACE")                                        # details: nothing to show
    rig.wait_input()
    rig.tap("ENTER")
    rig.finish_call()
    assert rig.machine.cpu.a == 2
    assert not rig.machine.cpu.f & 1
    assert not flashing(rig, 2)
    assert not any(attr(rig, r, c) & 0x80 for r in range(24) for c in range(32))


def test_cursor_wraps_and_quits(rig):
    rig.poke("v_num_players", 2)
    set_player(rig, 0, "ANNE")
    set_player(rig, 1, "BOB")
    rig.call("board_draw_all")
    rig.start_call("cursor_select", hl=rig.symbols["cursor_none"])
    rig.wait_input()
    rig.tap("CAPS SHIFT+8")                                 # from GO anticlockwise: Mayfair
    rig.wait_input()
    assert flashing(rig, 39)
    assert "Mayfair" in rig.row(15)
    rig.tap("Q")
    rig.finish_call()
    assert rig.machine.cpu.f & 1
    assert not flashing(rig, 39)
    assert "Player 1 ANNE" in rig.row(15)


def test_cursor_space_calls_the_details_routine(rig):
    rig.poke("v_num_players", 2)
    rig.call("board_draw_all")
    rig.start_call("cursor_select", hl=rig.symbols["closeup_show"])
    rig.wait_input()
    for _ in range(2):
        rig.tap("CAPS SHIFT+5")
        rig.wait_input()
    rig.tap("SPACE")
    rig.wait_input()
    assert "Community" in "\n".join(rig.lines()[16:21])
    rig.tap("CAPS SHIFT+SPACE")                             # BREAK quits too
    rig.finish_call()
    assert rig.machine.cpu.f & 1
