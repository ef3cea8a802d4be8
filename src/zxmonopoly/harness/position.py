"""Set up a game position through the game's state block, refusing what the game cannot reach.

A :class:`Position` (``session.position()``) collects edits of the state block - who owns a
square, its houses or hotel, mortgaged; a player's cash, square, jail state and Get Out of
Jail Free cards; the next card of a pack; whose turn - on a copy of the memory, keeps the
books the game keeps (the Bank's houses and hotels, and the Bank's account ``v_bank`` so that
money stays conserved), then checks the whole position against the game's invariants
(:func:`zxmonopoly.harness.invariants.state_problems`) and writes the state block back only
when every rule holds. The edits of one position are checked together, so their order does
not matter (a hotel on Mayfair may be written before Park Lane's).

Players are numbered 1-6 as on the screen. Every address comes from the symbol map.

Scripts write the same edits one a line (``own "Mayfair" by 1 hotel``, ``cash 2 = 2500``);
a run of consecutive position lines is one position (docs/harness.md, *Positions*).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from zxmonopoly.harness import words
from zxmonopoly.harness.errors import HarnessError
from zxmonopoly.harness.game import decode_state, player_field_address
from zxmonopoly.harness.invariants import (
    HOTEL_LEVEL,
    JAIL_FREE_CARD,
    JAIL_SQUARE,
    PACK_BITS,
    bank_balance,
    set_bank_balance,
    square_levels,
    state_problems,
)
from zxmonopoly.harness.words import WordError
from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST, SQUARES
from zxmonopoly.rules.records import PROPERTY_KINDS

PACK_CARDS = {"chance": CHANCE, "chest": COMMUNITY_CHEST}
#: The v_* array of each pack (its count follows as ``NAME_count``).
PACK_SYMBOL = {"chance": "v_chance", "chest": "v_chest"}
MAX_CASH = 0xFFFF


class PositionError(HarnessError):
    """A position the game could not reach, or an edit that makes no sense; says why."""


class Position:
    """Edits of a running game's state block, checked together and written by :meth:`apply`.

    Use as ``with session.position() as pos: pos.own("Mayfair", 1, hotel=True) ...`` (applied
    when the block ends without an exception) or call :meth:`apply`. The game must be in play
    (phase ``playing``): before that the setup and ``game_new`` write the block afresh.
    """

    def __init__(self, session: Any) -> None:
        self.session = session
        self.symbols = session.symbols
        state = decode_state(session.machine.memory, self.symbols)
        if state.phase != "playing":
            raise PositionError(f"a position is set in a game (phase playing), not in phase "
                                f"{state.phase}: finish the setup first")
        self.memory = bytearray(session.machine.memory)
        self.players = len(state.players)
        self.done: list[str] = []
        levels = square_levels(self.memory, self.symbols)
        self._houses0, self._hotels0 = _on_board(levels)

    # -- helpers ------------------------------------------------------------------------------

    def _player(self, number: int) -> None:
        """Check that player ``number`` (1..players) is in the game and playing."""
        if not isinstance(number, int) or not 1 <= number <= self.players:
            raise PositionError(f"player {number} is not in the game (players are 1-"
                                f"{self.players})")
        if not self.memory[self._at(number, "P_FLAGS")] >> self.symbols["PF_PLAYING"] & 1:
            raise PositionError(f"player {number} is out of the game (bankrupt or retired)")

    def _at(self, number: int, field: str) -> int:
        """The address of ``field`` of player ``number``'s record."""
        return player_field_address(self.symbols, number, field)

    def _flag(self, number: int, bit: str, on: bool) -> None:
        at = self._at(number, "P_FLAGS")
        mask = 1 << self.symbols[bit]
        self.memory[at] = (self.memory[at] | mask) if on else (self.memory[at] & ~mask & 0xFF)

    # -- edits --------------------------------------------------------------------------------

    def own(self, square: int | str, player: int | None, *, houses: int = 0,
            hotel: bool = False, mortgaged: bool = False) -> Position:
        """``square`` owned by ``player`` (None: the Bank) with ``houses`` (0-4) or a hotel,
        mortgaged or not. The Bank's houses and hotels follow."""
        index = words.square(square)
        sq = SQUARES[index]
        if sq.kind not in PROPERTY_KINDS:
            raise PositionError(f"square {index} ({sq.name}) cannot be owned")
        if not 0 <= houses <= 4:
            raise PositionError(f"{sq.name}: {houses} houses; a site takes 0-4 houses, then a "
                                "hotel")
        if hotel and houses:
            raise PositionError(f"{sq.name}: a hotel replaces the four houses; give a hotel or "
                                "houses, not both")
        level = HOTEL_LEVEL if hotel else houses
        if level and sq.kind.name != "SITE":
            raise PositionError(f"{sq.name} is a {sq.kind.value}: only sites take houses or "
                                "hotels")
        s = self.symbols
        owner = 0
        if player is not None:
            self._player(player)
            owner = player
        elif level or mortgaged:
            raise PositionError(f"{sq.name}: the Bank's squares carry no buildings and no "
                                "mortgage")
        self.memory[s["v_squares"] + index] = (owner & s["SQ_OWNER_MASK"]
                                               | level << s["SQ_BUILD_SHIFT"]
                                               | int(mortgaged) << s["SQ_MORTGAGED"])
        what = "the Bank" if player is None else f"player {player}"
        extra = ("a hotel" if hotel else f"{houses} house(s)") if level else ""
        self.done.append(f"{sq.name} owned by {what}" + (f", {extra}" if extra else "")
                         + (", mortgaged" if mortgaged else ""))
        return self

    def cash(self, player: int, amount: int) -> Position:
        """Player ``player`` holds ``amount`` pounds; the Bank's account pays the difference."""
        self._player(player)
        if not 0 <= amount <= MAX_CASH:
            raise PositionError(f"cash {amount}: the game keeps 0-{MAX_CASH} pounds a player")
        at = self._at(player, "P_CASH")
        old = self.memory[at] | self.memory[at + 1] << 8
        self.memory[at] = amount & 0xFF
        self.memory[at + 1] = amount >> 8
        set_bank_balance(self.memory, self.symbols,
                         bank_balance(self.memory, self.symbols) - (amount - old))
        self.done.append(f"player {player} cash {amount}")
        return self

    def at(self, player: int, square: int | str) -> Position:
        """Player ``player``'s token stands on ``square`` (a player in jail stays on Jail)."""
        self._player(player)
        index = words.square(square)
        self.memory[self._at(player, "P_SQUARE")] = index
        self.done.append(f"player {player} on {SQUARES[index].name}")
        return self

    def jail(self, player: int, turns: int = 0) -> Position:
        """Player ``player`` in jail (on the Jail square) with ``turns`` failed throws behind."""
        self._player(player)
        self._flag(player, "PF_IN_JAIL", True)
        self.memory[self._at(player, "P_SQUARE")] = JAIL_SQUARE
        self.memory[self._at(player, "P_JAIL_TURNS")] = turns & 0xFF
        self.done.append(f"player {player} in jail, {turns} turn(s)")
        return self

    def free(self, player: int) -> Position:
        """Player ``player`` out of jail (a token on the Jail square is then just visiting)."""
        self._player(player)
        self._flag(player, "PF_IN_JAIL", False)
        self.memory[self._at(player, "P_JAIL_TURNS")] = 0
        self.done.append(f"player {player} out of jail")
        return self

    def jail_cards(self, player: int, packs: Iterable[str]) -> Position:
        """Player ``player`` holds the Get Out of Jail Free cards of ``packs`` (``"chance"``,
        ``"chest"``) and no other: a card taken leaves its pack, one given back goes to its
        pack's bottom."""
        self._player(player)
        s = self.symbols
        wanted = {_pack(p) for p in packs}
        at = self._at(player, "P_JAIL_CARDS")
        for pack, bit in PACK_BITS.items():
            mask = 1 << s[bit]
            held = bool(self.memory[at] & mask)
            cards = self._pack(pack)
            card = JAIL_FREE_CARD[pack]
            if pack in wanted and not held:
                if card not in cards:
                    raise PositionError(f"the {pack} Get Out of Jail Free card "
                                        f"({PACK_CARDS[pack][card].id}) is not in its pack: "
                                        "another player holds it")
                cards.remove(card)
                self.memory[at] |= mask
            elif pack not in wanted and held:
                cards.append(card)
                self.memory[at] &= ~mask & 0xFF
            self._write_pack(pack, cards)
        shown = ",".join(sorted(wanted)) or "none"
        self.done.append(f"player {player} jail cards {shown}")
        return self

    def next_card(self, pack: str, card: str) -> Position:
        """``card`` (``"CH07"``) on top of its pack, the others in their order below it."""
        pack = _pack(pack)
        ids = [c.id for c in PACK_CARDS[pack]]
        if card.upper() not in ids:
            raise PositionError(f"no card {card!r} in the {pack} pack ({ids[0]}-{ids[-1]})")
        number = ids.index(card.upper())
        cards = self._pack(pack)
        if number not in cards:
            raise PositionError(f"{card.upper()} is not in the {pack} pack: a player holds it")
        cards.remove(number)
        self._write_pack(pack, [number, *cards])
        self.done.append(f"next {pack} card {card.upper()}")
        return self

    def turn(self, player: int) -> Position:
        """Player ``player``'s turn (no doubles thrown yet)."""
        self._player(player)
        self.memory[self.symbols["v_current"]] = player - 1
        self.memory[self.symbols["v_doubles"]] = 0
        self.done.append(f"player {player}'s turn")
        return self

    # -- packs --------------------------------------------------------------------------------

    def _pack(self, pack: str) -> list[int]:
        base = self.symbols[PACK_SYMBOL[pack]]
        count = self.memory[self.symbols[PACK_SYMBOL[pack] + "_count"]]
        return list(self.memory[base:base + count])

    def _write_pack(self, pack: str, cards: Sequence[int]) -> None:
        base = self.symbols[PACK_SYMBOL[pack]]
        self.memory[base:base + len(cards)] = bytes(cards)
        self.memory[self.symbols[PACK_SYMBOL[pack] + "_count"]] = len(cards)

    # -- checking and writing ---------------------------------------------------------------

    def problems(self) -> list[str]:
        """Why the game could not reach this position (empty: it could)."""
        s = self.symbols
        houses, hotels = _on_board(square_levels(self.memory, s))
        out = []
        left = self.memory[s["v_houses_left"]] - (houses - self._houses0)
        hotels_left = self.memory[s["v_hotels_left"]] - (hotels - self._hotels0)
        if left < 0:
            out.append(f"{houses} houses on the board: the Bank has only "
                       f"{s['HOUSES_IN_BANK']} houses (no more than {s['HOUSES_IN_BANK']} in "
                       "play)")
        if hotels_left < 0:
            out.append(f"{hotels} hotels on the board: the Bank has only "
                       f"{s['HOTELS_IN_BANK']} hotels (no more than {s['HOTELS_IN_BANK']} in "
                       "play)")
        if out:
            return out
        self.memory[s["v_houses_left"]] = left
        self.memory[s["v_hotels_left"]] = hotels_left
        self._houses0, self._hotels0 = houses, hotels
        return state_problems(self.memory, s)

    def apply(self) -> None:
        """Check the position and write the state block; PositionError naming every rule
        broken (and nothing written) when the game could not reach it."""
        problems = self.problems()
        if problems:
            raise PositionError("the game cannot reach this position: " + "; ".join(problems)
                                + (f" (after: {'; '.join(self.done)})" if self.done else ""))
        start, end = self.symbols["v_state"], self.symbols["v_state_end"]
        self.session.machine.memory[start:end] = self.memory[start:end]

    def __enter__(self) -> Position:
        """The position, applied when the block ends without an exception."""
        return self

    def __exit__(self, kind, value, traceback) -> None:
        """Apply unless the block raised."""
        if kind is None:
            self.apply()


def _on_board(levels) -> tuple[int, int]:
    """(houses, hotels) standing on the board."""
    return (sum(level for _o, level, _m in levels if level < HOTEL_LEVEL),
            sum(1 for _o, level, _m in levels if level == HOTEL_LEVEL))


def _pack(name: str) -> str:
    key = name.strip().lower().replace("community chest", "chest").replace("community", "chest")
    if key not in PACK_CARDS:
        raise PositionError(f"no pack {name!r}: the packs are chance and chest")
    return key


# -- the script lines -----------------------------------------------------------------------------

#: The first word of each position line of a script.
COMMANDS = ("own", "cash", "at", "jail", "free", "next", "turn")


@dataclass(frozen=True)
class Edit:
    """One position line: the Position method and its arguments."""

    method: str
    args: tuple
    kwargs: tuple = ()

    def apply_to(self, position: Position) -> None:
        """Make this edit on ``position``."""
        getattr(position, self.method)(*self.args, **dict(self.kwargs))


_ITEM = re.compile(r'\s*(?:' + words.QUOTED + r'|([^,"]+))\s*(?:,|\Z)')


def _squares(text: str) -> list[int]:
    """``"Park Lane", Mayfair, 39`` -> board indexes."""
    out, pos = [], 0
    text = text.strip()
    if not text:
        raise WordError("expected a square: a name in quotes, plain words or an index")
    while pos < len(text):
        m = _ITEM.match(text, pos)
        if not m or m.end() == pos:
            raise WordError(f"cannot read squares {text[pos:]!r}")
        name = words.unquote(m.group(1)) if m.group(1) is not None else m.group(2).strip()
        out.append(words.square(name))
        pos = m.end()
    return out


def _split_by(rest: str) -> tuple[str, str]:
    """``SQUARES by REST`` split at the first ``by`` outside quotes."""
    quoted = False
    for i, ch in enumerate(rest):
        if ch == '"':
            quoted = not quoted
        elif not quoted and rest[i:i + 4].lower() == " by ":
            return rest[:i], rest[i + 4:]
    raise WordError("expected 'own SQUARE[, SQUARE...] by PLAYER|bank [N houses|hotel] "
                    "[mortgaged]'")


def parse_line(command: str, rest: str) -> list[Edit]:
    """One position line of a script (``command`` is its first word, lower case) as edits;
    WordError when malformed."""
    parts = rest.split()
    low = [w.lower() for w in parts]
    if command == "own":
        where, how = _split_by(rest)
        squares = _squares(where)
        how_words = how.lower().replace(",", " ").split()
        if not how_words:
            raise WordError("expected a player number or 'bank' after 'by'")
        player = None if how_words[0] in ("bank", "none") else words.player(how_words[0])
        houses, hotel, mortgaged = 0, False, False
        rest_words = how_words[1:]
        if rest_words and rest_words[-1] == "mortgaged":
            mortgaged = True
            rest_words = rest_words[:-1]
        if rest_words == ["hotel"]:
            hotel = True
        elif len(rest_words) == 2 and rest_words[1] in ("house", "houses"):
            houses = words.number(rest_words[0], "a number of houses (0-4)")
            if houses > 4:
                raise WordError(f"{houses} houses: a site takes 0-4 houses, then a "
                                "hotel")
        elif rest_words:
            raise WordError(f"expected 'N houses', 'hotel' and/or 'mortgaged' after "
                            f"the owner, got {' '.join(rest_words)!r}")
        kwargs = (("houses", houses), ("hotel", hotel), ("mortgaged", mortgaged))
        return [Edit("own", (sq, player), kwargs) for sq in squares]
    if command == "cash":
        if len(parts) != 3 or parts[1] != "=":
            raise WordError("expected 'cash PLAYER = AMOUNT', e.g. 'cash 2 = 2500'")
        amount = words.number(parts[2], "an amount of pounds", pounds=True)
        if amount > MAX_CASH:
            raise WordError(f"cash {amount}: the game keeps 0-{MAX_CASH} pounds")
        return [Edit("cash", (words.player(parts[0]), amount))]
    if command == "at":
        if len(parts) < 2:
            raise WordError("expected 'at PLAYER SQUARE', e.g. 'at 2 \"Park Lane\"'")
        squares = _squares(rest.split(None, 1)[1])
        if len(squares) != 1:
            raise WordError("a token stands on one square")
        return [Edit("at", (words.player(parts[0]), squares[0]))]
    if command == "jail" and low[:1] == ["cards"]:
        if len(parts) < 4 or parts[2] != "=":
            raise WordError("expected 'jail cards PLAYER = chance,chest|none'")
        packs = [p for p in re.split(r"[,\s]+", " ".join(low[3:])) if p]
        if packs == ["none"]:
            packs = []
        if not set(packs) <= {"chance", "chest"}:
            raise WordError(f"expected chance, chest, chance,chest or none, got "
                            f"{' '.join(parts[3:])!r}")
        return [Edit("jail_cards", (words.player(parts[1]), tuple(packs)))]
    if command == "jail":
        if len(parts) == 1:
            return [Edit("jail", (words.player(parts[0]),))]
        if len(parts) == 3 and low[1] == "turns":
            turns = words.number(parts[2], "a number of jail turns (0-2)")
            if turns > 2:
                raise WordError(f"{turns} jail turns: 0-2 (the third throw leaves)")
            return [Edit("jail", (words.player(parts[0]), turns))]
        raise WordError("expected 'jail PLAYER [turns N]' or 'jail cards PLAYER = "
                        "PACKS'")
    if command == "free":
        if len(parts) != 1:
            raise WordError("expected 'free PLAYER' (out of jail)")
        return [Edit("free", (words.player(parts[0]),))]
    if command == "next":
        if len(parts) != 2 or low[0] not in ("chance", "chest"):
            raise WordError("expected 'next chance CARD' or 'next chest CARD', e.g. "
                            "'next chance CH07'")
        ids = [c.id for c in PACK_CARDS[low[0]]]
        if parts[1].upper() not in ids:
            raise WordError(f"no card {parts[1]!r} in the {low[0]} pack "
                            f"({ids[0]}-{ids[-1]})")
        return [Edit("next_card", (low[0], parts[1].upper()))]
    if command == "turn":
        if len(parts) != 1:
            raise WordError("expected 'turn PLAYER'")
        return [Edit("turn", (words.player(parts[0]),))]
    raise WordError(f"not a position command: {command!r}")


__all__ = ["COMMANDS", "Edit", "Position", "PositionError", "parse_line"]
