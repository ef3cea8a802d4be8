"""Shared helpers of the game's screen tests: what a character cell shows (pixels, attribute,
the glyph drawn for a code), players and squares poked into the state block, a busy position
with every kind of square, and the T-states a routine takes."""

from __future__ import annotations

from zxmonopoly.memory_map import ATTR_FILE
from zxmonopoly.spectrum.timing import FRAME_TSTATES
from zxmonopoly.spectrum.video import row_address


def cell_bytes(r, row: int, col: int) -> bytes:
    """The 8 pixel bytes of a character cell."""
    mem = r.machine.memory
    return bytes(mem[row_address(8 * row + line) + col] for line in range(8))


def glyph(r, code: int) -> bytes:
    """The 8 bytes the game draws for a character code (font or graphics)."""
    if code >= 0x80:
        addr = r.symbols["graphics_glyphs"] + 8 * (code - 0x80)
    else:
        addr = r.symbols["font"] + 8 * (code - 0x20)
    return bytes(r.peek(addr + i) for i in range(8))


def attr(r, row: int, col: int) -> int:
    """The attribute byte of a character cell."""
    return r.peek(ATTR_FILE + 32 * row + col)


def set_player(r, p: int, name: str, *, square: int = 0, cash: int = 1500, token: int | None = None,
               playing: bool = True, computer: bool = False, in_jail: bool = False,
               bankrupt: bool = False, personality: int = 0) -> None:
    """Player ``p`` (0-5) written into the state block, flags by their symbols."""
    sym = r.symbols
    a = r.player_address(p + 1, "P_NAME")
    for i, ch in enumerate(name):
        r.poke(a + i, ord(ch))
    r.poke(a + len(name), 0)
    flags = ((playing << sym["PF_PLAYING"]) | (computer << sym["PF_COMPUTER"])
             | (in_jail << sym["PF_IN_JAIL"]) | (bankrupt << sym["PF_BANKRUPT"]))
    r.poke(r.player_address(p + 1, "P_FLAGS"), flags)
    r.poke(r.player_address(p + 1, "P_TOKEN"), p if token is None else token)
    r.poke(r.player_address(p + 1, "P_SQUARE"), square)
    r.poke(r.player_address(p + 1, "P_PERSONALITY"), personality)
    r.poke16(r.player_address(p + 1, "P_CASH"), cash)


def set_square(r, square: int, owner: int | None, *, mortgaged: bool = False, buildings: int = 0):
    """A square's byte: owner ``owner`` (0-5, None for the Bank), mortgage and buildings."""
    value = 0 if owner is None else owner + 1
    value |= (mortgaged << r.symbols["SQ_MORTGAGED"]) | (buildings << r.symbols["SQ_BUILD_SHIFT"])
    r.poke(r.address("v_squares") + square, value)


def busy_state(r) -> None:
    """Six players (a computer in jail, one bankrupt), buildings and mortgages all over."""
    names = ["ANNE", "BOB", "CHARLOTTE", "DAVE", "EVELYN", "FRANKENSTE"]
    squares = [0, 10, 10, 24, 24, 39]
    r.poke("v_num_players", 6)
    for p, name in enumerate(names):
        set_player(r, p, name, square=squares[p], cash=[1500, 230, 12000, 7, 999, 0][p],
                   computer=p in (2, 4), personality=p, in_jail=p == 2, playing=p != 5,
                   bankrupt=p == 5)
    r.poke("v_current", 1)
    r.poke("v_dice", 3)
    r.poke(r.address("v_dice") + 1, 3)
    r.poke("v_short_game", 1)
    r.poke16("v_clock_minutes", 75)
    r.poke("v_houses_left", 20)
    r.poke("v_hotels_left", 11)
    for sq, owner, mort, build in [(1, 0, 0, 1), (3, 0, 0, 2), (6, 1, 0, 3), (8, 1, 0, 4),
                                   (9, 1, 0, 5), (11, 2, 1, 0), (5, 3, 0, 0), (12, 4, 0, 0),
                                   (16, 2, 0, 0), (19, 3, 1, 0), (21, 0, 0, 0), (24, 5, 0, 5),
                                   (26, 1, 0, 0), (31, 2, 0, 4), (37, 3, 0, 0), (39, 3, 0, 5),
                                   (35, 0, 1, 0), (28, 1, 0, 0)]:
        set_square(r, sq, owner, mortgaged=bool(mort), buildings=build)


def elapsed(r, routine: str, **regs) -> int:
    """T-states a call takes (interrupts included)."""
    m = r.machine
    f0, t0 = m.frame, m.cpu.tstates
    r.call(routine, **regs)
    return (m.frame - f0) * FRAME_TSTATES + m.cpu.tstates - t0
