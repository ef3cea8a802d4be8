"""Game state: players, the deeds they hold, the Bank's stock and money, the decks, the turn.

Rule numbers (A1..A69, B1.1..B1.14) are those of ``../shared/reference/seed_rules.md``; the
booklet is seed 000, part A (rules) and part C (playing on the computer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .data import (
    CHANCE,
    COMMUNITY_CHEST,
    GROUPS,
    HOTELS_IN_BANK,
    HOUSES_IN_BANK,
    SQUARES,
    STARTING_CASH,
)
from .records import Kind

HOTEL = 5
"""``Holding.houses`` of a site with a hotel (rents are indexed 0-4 houses, 5 hotel)."""

BANK = None
"""The Bank as payer or creditor (a player is an index into ``Game.players``)."""

MIN_PLAYERS, MAX_PLAYERS = 2, 6
PROPERTIES = tuple(sq.index for sq in SQUARES if sq.is_property)


class RuleError(Exception):
    """An action the rules do not allow; the game state is left unchanged."""


@dataclass
class Player:
    """A player: cash, token square, jail, Get Out of Jail Free cards held, bankruptcy."""

    name: str
    cash: int = 0
    square: int = 0
    in_jail: bool = False
    jail_turns: int = 0
    """Turns already taken in jail without getting out (0, 1 or 2)."""
    jail_cards: list[str] = field(default_factory=list)
    bankrupt: bool = False


@dataclass
class Holding:
    """The state of one property: owner (None: the Bank), houses (HOTEL for a hotel), mortgage."""

    owner: int | None = None
    houses: int = 0
    mortgaged: bool = False


@dataclass
class Debt:
    """Money a player must pay but cannot yet: to another player or to the Bank (None)."""

    debtor: int
    creditor: int | None
    amount: int


@dataclass
class RentDue:
    """Rent the owner may claim (R) until the next throw of the dice (A23)."""

    square: int
    payer: int
    owner: int
    dice: int


@dataclass
class Game:
    """Everything the rules need to know; ``bank`` is the Bank's balance (it may go negative)."""

    players: list[Player]
    holdings: dict[int, Holding]
    decks: dict[str, list[str]]
    houses: int = HOUSES_IN_BANK
    hotels: int = HOTELS_IN_BANK
    bank: int = 0
    current: int = 0
    doubles: int = 0
    """Doubles thrown in succession in the current turn."""
    to_throw: bool = True
    """Whether the current player still has a throw to make."""
    dice: tuple[int, int] = (0, 0)
    """The last throw."""
    offer: int | None = None
    """A property the current player landed on and has not yet bought or declined."""
    choice: str | None = None
    """A drawn card waiting for its player's choice ("pay a £10 fine or take a Chance")."""
    rent_due: RentDue | None = None
    debts: list[Debt] = field(default_factory=list)


def new_game(names: Sequence[str], chance: Sequence[str] | None = None,
             chest: Sequence[str] | None = None, first: int = 0) -> Game:
    """A game for 2-6 players, £1,500 each, decks in the given order (A1-A3 § A Money, C Piece)."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(f"{len(names)} players: the game takes 2-6 (booklet C)")
    decks = {"chance": list(chance or [c.id for c in CHANCE]),
             "chest": list(chest or [c.id for c in COMMUNITY_CHEST])}
    for name, cards in (("chance", CHANCE), ("chest", COMMUNITY_CHEST)):
        if sorted(decks[name]) != sorted(c.id for c in cards):
            raise RuleError(f"the {name} deck must hold each of its 16 cards once")
    if not 0 <= first < len(names):
        raise RuleError("no such player")
    game = Game(players=[Player(name) for name in names],
                holdings={i: Holding() for i in PROPERTIES}, decks=decks, current=first)
    for player in game.players:
        player.cash += STARTING_CASH
        game.bank -= STARTING_CASH
    return game


def deed(game: Game, square: int) -> Holding:
    """The state of a property; RuleError for a square that is not one."""
    holding = game.holdings.get(square)
    if holding is None:
        raise RuleError(f"square {square} is not a property")
    return holding


def group_of(square: int) -> tuple[int, ...]:
    """The sites of a site's colour group."""
    if not 0 <= square < len(SQUARES) or SQUARES[square].kind is not Kind.SITE:
        raise RuleError(f"square {square} is not a building site")
    return GROUPS[SQUARES[square].group or ""]


def owns_group(game: Game, player: int, group: str) -> bool:
    """Whether one player holds a whole colour group (A22, A38 § A Advantages for owners)."""
    return all(game.holdings[s].owner == player for s in GROUPS[group])


def group_has_buildings(game: Game, square: int) -> bool:
    """Whether any site of a site's colour group has a house or hotel (A47 § A Selling property)."""
    return SQUARES[square].kind is Kind.SITE and any(
        game.holdings[s].houses for s in group_of(square))


def houses_in_play(game: Game) -> int:
    """Houses standing on the board (a hotel holds none: its four went back to the Bank)."""
    return sum(h.houses for h in game.holdings.values() if h.houses < HOTEL)


def hotels_in_play(game: Game) -> int:
    """Hotels standing on the board."""
    return sum(1 for h in game.holdings.values() if h.houses == HOTEL)


def owned(game: Game, player: int) -> list[int]:
    """The properties a player holds, in board order."""
    return [s for s, h in game.holdings.items() if h.owner == player]


def active(game: Game) -> list[int]:
    """The players still in the game, in name-entry order (A7, A60 § A Bankruptcy)."""
    return [i for i, p in enumerate(game.players) if not p.bankrupt]


def next_active(game: Game, player: int) -> int:
    """Who plays after ``player``, skipping the bankrupt (A7 § C Who goes first?)."""
    n = len(game.players)
    for step in range(1, n + 1):
        candidate = (player + step) % n
        if not game.players[candidate].bankrupt:
            return candidate
    return player


def debts_of(game: Game, player: int) -> list[Debt]:
    """The debts a player still has to pay, oldest first."""
    return [d for d in game.debts if d.debtor == player]
