"""Payments between players and the Bank, debts, mortgage interest and valuations."""

from __future__ import annotations

from .data import MORTGAGE_INTEREST_PERCENT, SQUARES
from .state import BANK, HOTEL, Debt, Game, RuleError, owned

FIVE_HOUSES = 5
"""Short-game valuation of a hotel: the cost of five houses (A63)."""


def transfer(game: Game, payer: int | None, payee: int | None, amount: int) -> None:
    """Move cash the payer has; the Bank can always pay (A4, A5 § A Banker, The bank)."""
    if amount < 0:
        raise RuleError("a negative amount")
    if payer is not BANK and game.players[payer].cash < amount:
        raise RuleError(f"{game.players[payer].name} has only £{game.players[payer].cash}")
    if payer is BANK:
        game.bank -= amount
    else:
        game.players[payer].cash -= amount
    if payee is BANK:
        game.bank += amount
    else:
        game.players[payee].cash += amount


def charge(game: Game, debtor: int, creditor: int | None, amount: int) -> None:
    """A compulsory payment, at once if the cash is there, else a debt (A57, B1.8 § C Rent)."""
    if amount <= 0:
        return
    if game.players[debtor].cash >= amount and not any(d.debtor == debtor for d in game.debts):
        transfer(game, debtor, creditor, amount)
    else:
        game.debts.append(Debt(debtor, creditor, amount))


def pay_debts(game: Game, player: int) -> int:
    """Pay debts, oldest first, while the cash lasts; returns what is owed (B1.8 § C Rent)."""
    for debt in [d for d in game.debts if d.debtor == player]:
        if game.players[player].cash < debt.amount:
            break
        transfer(game, player, debt.creditor, debt.amount)
        game.debts.remove(debt)
    return sum(d.amount for d in game.debts if d.debtor == player)


def interest(square: int) -> int:
    """10% of the mortgage value, rounded up to whole pounds (A53 § A Mortgages)."""
    return -(-SQUARES[square].mortgage * MORTGAGE_INTEREST_PERCENT // 100)


def building_value(square: int, houses: int) -> int:
    """What a site's buildings cost: houses, or a hotel and its four houses (A45 § A Selling)."""
    return houses * SQUARES[square].house_cost if houses < HOTEL else (
        4 * SQUARES[square].house_cost + SQUARES[square].hotel_cost)


def worth(game: Game, player: int) -> int:
    """Cash, deeds (mortgaged: half), houses at cost, hotels as 5 houses (A63 § A short game)."""
    total = game.players[player].cash
    for s in owned(game, player):
        h = game.holdings[s]
        total += SQUARES[s].price // 2 if h.mortgaged else SQUARES[s].price
        total += h.houses * SQUARES[s].house_cost if h.houses < HOTEL else (
            FIVE_HOUSES * SQUARES[s].house_cost)
    return total


def raisable(game: Game, player: int) -> int:
    """Cash after selling all buildings and mortgaging all deeds (A57, A58 § A Bankruptcy)."""
    total = game.players[player].cash
    for s in owned(game, player):
        h = game.holdings[s]
        total += building_value(s, h.houses) // 2
        if not h.mortgaged:
            total += SQUARES[s].mortgage
    return total
