"""Shared helpers of the game's tests: a new game's state set up in a GameRig (:class:`Game`),
the same with buildings and the invariants (:class:`Estate`), and the keys and budgets they use.

Flags and square bytes are read through the symbol map (``PF_*``, ``SQ_*``), never hand-coded,
so a change of vars.asm's layout reaches these helpers as it reaches the game.
"""

from __future__ import annotations

from zxmonopoly.harness.rig import GameRig
from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST, GROUPS, SQUARES
from zxmonopoly.rules.state import HOTEL, new_game

#: Frames a routine call may take before the rig gives up (a throw with its questions).
BUDGET = 4000
RIGHT = "CAPS SHIFT+5"                # the cursor clockwise (to the next square number)
LEFT = "CAPS SHIFT+8"                 # anticlockwise
SITE_GROUPS = [squares for name, squares in GROUPS.items()
               if SQUARES[squares[0]].kind.name == "SITE"]


class Game:
    """A GameRig with the state of a new game for named players, and readable accessors."""

    def __init__(self, rig: GameRig, players: int = 2, computers: tuple[int, ...] = ()):
        self.r = rig
        self.symbols = rig.symbols
        rig.call("state_clear")
        rig.poke("v_num_players", players)
        for p in range(players):
            flags = self.mask("PF_PLAYING") | (self.mask("PF_COMPUTER") if p in computers else 0)
            rig.poke(rig.player_address(p + 1, "P_FLAGS"), flags)
            rig.poke(rig.player_address(p + 1, "P_TOKEN"), p)
            for i, ch in enumerate(f"P{p + 1}\0"):
                rig.poke(rig.player_address(p + 1, "P_NAME") + i, ord(ch))
        rig.poke("v_current", 0)
        rig.poke16("v_seed", 12345)
        rig.call("game_new")
        self.players = players
        self.base = self.money()

    def money(self) -> int:
        """Everyone's cash, the jackpot and the Bank's takings: conserved (vars.asm v_bank)."""
        bank = int.from_bytes(bytes(self.r.peek(self.r.address("v_bank") + i) for i in range(4)),
                              "little", signed=True)
        return sum(self.cash(p) for p in range(self.players)) + self.r.peek16("v_jackpot") + bank

    def conserved(self) -> bool:
        return self.money() == self.base

    def cash(self, p: int) -> int:
        a = self.r.player_address(p + 1, "P_CASH")
        return self.r.peek(a) | self.r.peek(a + 1) << 8

    def set_cash(self, p: int, value: int) -> None:
        self.base += value - self.cash(p)
        self.r.poke16(self.r.player_address(p + 1, "P_CASH"), value)

    def square(self, p: int) -> int:
        return self.r.peek(self.r.player_address(p + 1, "P_SQUARE"))

    def put(self, p: int, square: int) -> None:
        self.r.poke(self.r.player_address(p + 1, "P_SQUARE"), square)

    def flags(self, p: int) -> int:
        return self.r.peek(self.r.player_address(p + 1, "P_FLAGS"))

    def set_flags(self, p: int, *names: str) -> None:
        """Player ``p``'s flags set to exactly the named ones (``"PF_PLAYING"``, ...)."""
        self.r.poke(self.r.player_address(p + 1, "P_FLAGS"), sum(map(self.mask, set(names))))

    def mask(self, flag: str) -> int:
        """The bit mask of a flag (``"PF_PLAYING"``, ``"SQ_MORTGAGED"``) from the symbol map."""
        return 1 << self.symbols[flag]

    def in_jail(self, p: int) -> bool:
        return bool(self.flags(p) & self.mask("PF_IN_JAIL"))

    def byte(self, square: int) -> int:
        return self.r.peek(self.r.address("v_squares") + square)

    def owner(self, square: int) -> int | None:
        o = self.byte(square) & self.symbols["SQ_OWNER_MASK"]
        return None if o == 0 else o - 1

    def mortgaged(self, square: int) -> bool:
        return bool(self.byte(square) & self.mask("SQ_MORTGAGED"))

    def own(self, square: int, p: int | None, houses: int = 0, mortgaged: bool = False) -> None:
        value = ((0 if p is None else p + 1) | (self.mask("SQ_MORTGAGED") if mortgaged else 0)
                 | houses << self.symbols["SQ_BUILD_SHIFT"])
        self.r.poke(self.r.address("v_squares") + square, value)

    def current(self, p: int) -> None:
        self.r.poke("v_current", p)

    def roll(self, a: int, b: int) -> None:
        self.r.poke("v_rig_dice", a)
        self.r.poke(self.r.address("v_rig_dice") + 1, b)

    def throw(self, a: int, b: int, keys: tuple[str, ...] = ()) -> bool:
        """D for the current player with a rigged throw; keys answer its questions."""
        self.roll(a, b)
        self.r.start_call("turn_throw")
        for key in keys:
            self.r.wait_input(BUDGET)
            self.r.tap(key)
        self.r.finish_call(BUDGET)
        return bool(self.r.machine.cpu.f & 1)

    def messages(self) -> str:
        return " ".join(self.r.row(n).strip() for n in (21, 22, 23))

    def pack(self, name: str) -> list[int]:
        count = self.r.peek(f"v_{name}_count")
        return [self.r.peek(self.r.address(f"v_{name}") + i) for i in range(count)]

    def top_card(self, name: str, card_id: str) -> None:
        """Put a card on top of its pack (by swapping it with the top one)."""
        cards = CHANCE if name == "chance" else COMMUNITY_CHEST
        wanted = [c.id for c in cards].index(card_id)
        pack = self.pack(name)
        i = pack.index(wanted)
        pack[0], pack[i] = pack[i], pack[0]
        for n, c in enumerate(pack):
            self.r.poke(self.r.address(f"v_{name}") + n, c)


class Estate(Game):
    """Game with buildings kept in step with the Bank's stock, the invariants, and the model."""

    def level(self, square: int) -> int:
        s = self.symbols
        return (self.byte(square) & s["SQ_BUILD_MASK"]) >> s["SQ_BUILD_SHIFT"]

    def stock(self) -> tuple[int, int]:
        return self.r.peek("v_houses_left"), self.r.peek("v_hotels_left")

    def own(self, square: int, p: int | None, houses: int = 0, mortgaged: bool = False) -> None:
        """Give a square; its buildings come out of (and old ones go back to) the Bank's stock."""
        old = self.level(square)
        houses_left, hotels_left = self.stock()
        houses_left += old if old < HOTEL else 0
        hotels_left += old == HOTEL
        houses_left -= houses if houses < HOTEL else 0
        hotels_left -= houses == HOTEL
        self.r.poke("v_houses_left", houses_left)
        self.r.poke("v_hotels_left", hotels_left)
        super().own(square, p, houses, mortgaged)

    def jail_cards(self, p: int) -> int:
        return self.r.peek(self.r.player_address(p + 1, "P_JAIL_CARDS"))

    def check(self) -> None:
        """The invariants after every action (the issue's list)."""
        assert self.conserved(), "money is not conserved"
        levels = {s: self.level(s) for s in range(40)}
        houses = sum(v for v in levels.values() if v < HOTEL)
        hotels = sum(1 for v in levels.values() if v == HOTEL)
        houses_left, hotels_left = self.stock()
        assert houses_left + houses == 32, "houses in the Bank and on the board are not 32"
        assert hotels_left + hotels == 12, "hotels in the Bank and on the board are not 12"
        for group in SITE_GROUPS:
            built = [levels[s] for s in group]
            assert max(built) - min(built) <= 1, f"uneven building on {group}: {built}"

    def model(self):
        """The rules model's game in the same position (cash, deeds, stock)."""
        game = new_game([f"P{p + 1}" for p in range(self.players)])
        for p in range(self.players):
            game.players[p].cash = self.cash(p)
        for s, h in game.holdings.items():
            h.owner, h.houses, h.mortgaged = self.owner(s), self.level(s), self.mortgaged(s)
        game.houses, game.hotels = self.stock()
        return game

    def same_as(self, game) -> None:
        """The machine's position equals the model's."""
        for p in range(self.players):
            assert self.cash(p) == game.players[p].cash, f"player {p}'s cash"
        for s, h in game.holdings.items():
            assert (self.owner(s), self.level(s), self.mortgaged(s)) == \
                (h.owner, h.houses, h.mortgaged), SQUARES[s].name
        assert self.stock() == (game.houses, game.hotels)

    def build(self, p: int, square: int, price: int = 0, mode: int = 0) -> bool:
        """houses_build directly; True if built."""
        self.r.call("houses_build", budget=BUDGET, a=p, c=square, b=mode, hl=price)
        return not self.r.machine.cpu.f & 1

    def sell(self, p: int, square: int, keys: tuple[str, ...] = ()) -> bool:
        self.r.call("houses_sell_at", budget=BUDGET, keys=keys, a=p, c=square)
        return not self.r.machine.cpu.f & 1
