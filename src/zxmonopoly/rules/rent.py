"""Rent, as printed on the title deeds and adjusted by the booklet's notes (A21-A26)."""

from __future__ import annotations

from .data import GROUPS, SQUARES, STATIONS, UNIMPROVED_FULL_GROUP_RENT_MULTIPLIER, UTILITIES
from .records import Kind
from .state import Game


def unmortgaged_owned(game: Game, owner: int, squares: tuple[int, ...]) -> int:
    """How many of ``squares`` the owner holds unmortgaged (A24 § A Landing on owned property)."""
    return sum(1 for s in squares
               if game.holdings[s].owner == owner and not game.holdings[s].mortgaged)


def double_rent(game: Game, square: int) -> bool:
    """Whether unimproved rent doubles: whole group, none mortgaged (A22 § A Advantages, Houses)."""
    group = GROUPS[SQUARES[square].group or ""]
    owner = game.holdings[square].owner
    return all(game.holdings[s].owner == owner and not game.holdings[s].mortgaged for s in group)


def rent(game: Game, square: int, dice: int) -> int:
    """The rent for a throw totalling ``dice`` (A21-A25 § A Landing on owned property; deeds)."""
    sq, holding = SQUARES[square], game.holdings[square]
    if holding.owner is None or holding.mortgaged:
        return 0
    if sq.kind is Kind.SITE:
        if holding.houses:
            return sq.rents[holding.houses]
        return sq.rents[0] * (UNIMPROVED_FULL_GROUP_RENT_MULTIPLIER
                              if double_rent(game, square) else 1)
    if sq.kind is Kind.STATION:
        return sq.rents[unmortgaged_owned(game, holding.owner, STATIONS) - 1]
    return sq.rents[unmortgaged_owned(game, holding.owner, UTILITIES) - 1] * dice
