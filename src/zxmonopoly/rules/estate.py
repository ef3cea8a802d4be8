"""Property: buying, auctions, houses and hotels, mortgages, trades and bankruptcy.

Every action checks first and raises RuleError without changing anything when it refuses.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from .data import CARDS, GROUPS, SQUARES
from .money import building_value, charge, interest, raisable, transfer, worth
from .state import (
    BANK,
    HOTEL,
    Game,
    RuleError,
    active,
    debts_of,
    deed,
    group_has_buildings,
    group_of,
    next_active,
    owned,
    owns_group,
)

Bid = tuple[int, int]
"""An auction bid: (player, amount), in the order the bids were entered (booklet C)."""

HOTEL_HOUSES = 4
"""Houses on every site of a group before a hotel, returned to the Bank when it is built (A43)."""


def _player(game: Game, player: int) -> None:
    """Refuse a player who is not in the game."""
    if not 0 <= player < len(game.players) or game.players[player].bankrupt:
        raise RuleError(f"player {player} is not in the game")


def _no_debts(game: Game, player: int) -> None:
    """Refuse spending by a player who owes money: players may not borrow (A50)."""
    if debts_of(game, player):
        raise RuleError(f"{game.players[player].name} must pay what they owe first")


def buy(game: Game) -> None:
    """The current player buys the property offered at its price (A14 § A Landing on unowned)."""
    square = game.offer
    if square is None:
        raise RuleError("no property is on offer")
    _no_debts(game, game.current)
    transfer(game, game.current, BANK, SQUARES[square].price)
    game.holdings[square].owner = game.current
    game.offer = None


def decline(game: Game, bids: Sequence[Bid] = ()) -> Bid | None:
    """Offer declined: the Bank auctions it at once (A14, A15 § A Landing on unowned; C Dice)."""
    square = game.offer
    if square is None:
        raise RuleError("no property is on offer")
    result = auction(game, square, bids)
    game.offer = None
    return result


def winning_bid(game: Game, bids: Sequence[Bid]) -> Bid | None:
    """The highest bid (first of equals); None: none, or one over assets (A19 § C Auctioning)."""
    best: Bid | None = None
    for bidder, amount in bids:
        _player(game, bidder)
        if amount < 1:
            raise RuleError("a bid is at least £1")
    for bidder, amount in bids:
        if amount > worth(game, bidder):
            return None
        if best is None or amount > best[1]:
            best = (bidder, amount)
    return best


def auction(game: Game, square: int, bids: Sequence[Bid]) -> Bid | None:
    """The Bank sells a deed it holds to the top bidder, or keeps it (A14-A20 § C Auctioning)."""
    if deed(game, square).owner is not None:
        raise RuleError(f"the Bank does not hold {SQUARES[square].name}")
    best = winning_bid(game, bids)
    if best is not None:
        game.holdings[square].owner = best[0]
        charge(game, best[0], BANK, best[1])
    return best


def build(game: Game, player: int, square: int, price: int | None = None) -> None:
    """Build a house (after 4: the hotel); ``price``: a shortage bid (A38-A44 § A Houses)."""
    _player(game, player)
    sites = group_of(square)
    holding = game.holdings[square]
    if holding.owner != player or not owns_group(game, player, SQUARES[square].group or ""):
        raise RuleError("houses go only on a complete colour group the builder owns")
    if any(game.holdings[s].mortgaged for s in sites):
        raise RuleError("no building while a site of the group is mortgaged")
    if holding.houses == HOTEL:
        raise RuleError("only one hotel on a site")
    if holding.houses > min(game.holdings[s].houses for s in sites):
        raise RuleError("build evenly: every site of the group first")
    hotel = holding.houses == HOTEL_HOUSES
    if (game.hotels if hotel else game.houses) == 0:
        raise RuleError(f"the Bank has no {'hotels' if hotel else 'houses'} left")
    _no_debts(game, player)
    cost = SQUARES[square].hotel_cost if hotel else SQUARES[square].house_cost
    transfer(game, player, BANK, cost if price is None else price)
    if hotel:
        game.hotels -= 1
        game.houses += HOTEL_HOUSES
        holding.houses = HOTEL
    else:
        game.houses -= 1
        holding.houses += 1


def sell_building(game: Game, player: int, square: int) -> None:
    """Sell a house, or a hotel back to 4 houses, at half, evenly (A40, A45 § A Houses, Selling)."""
    _player(game, player)
    sites = group_of(square)
    holding = game.holdings[square]
    if holding.owner != player or holding.houses == 0:
        raise RuleError("no building of the player's on that site")
    if holding.houses < max(game.holdings[s].houses for s in sites):
        raise RuleError("sell evenly: from the sites with the most buildings first")
    if holding.houses == HOTEL:
        if game.houses < HOTEL_HOUSES:
            raise RuleError("the Bank has not four houses to replace the hotel: sell the group")
        transfer(game, BANK, player, SQUARES[square].hotel_cost // 2)
        game.hotels += 1
        game.houses -= HOTEL_HOUSES
        holding.houses = HOTEL_HOUSES
    else:
        transfer(game, BANK, player, SQUARES[square].house_cost // 2)
        game.houses += 1
        holding.houses -= 1


def _clear_buildings(game: Game, sites: Collection[int]) -> int:
    """Return the sites' buildings to the Bank's stock; what they cost (the Bank pays half)."""
    cost = 0
    for s in sites:
        holding = game.holdings[s]
        cost += building_value(s, holding.houses)
        if holding.houses == HOTEL:
            game.hotels += 1
        else:
            game.houses += holding.houses
        holding.houses = 0
    return cost


def sell_group_buildings(game: Game, player: int, group: str) -> int:
    """Sell a group's buildings at half; a hotel: half + half 4 houses (A45 § A Selling)."""
    _player(game, player)
    if group not in GROUPS:
        raise RuleError(f"no colour group {group!r}")
    sites = GROUPS[group]
    if not any(game.holdings[s].houses for s in sites):
        raise RuleError("no buildings on that group")
    if not owns_group(game, player, group):
        raise RuleError("the group is not the player's")
    proceeds = _clear_buildings(game, sites) // 2
    transfer(game, BANK, player, proceeds)
    return proceeds


def shortage_auction_needed(game: Game, wanted: Mapping[int, int], hotels: bool = False) -> bool:
    """Whether 2+ players want more than the Bank has (A44, A20 § A Building shortage; C Houses)."""
    stock = game.hotels if hotels else game.houses
    wanting = [n for n in wanted.values() if n > 0]
    return stock > 0 and len(wanting) >= 2 and sum(wanting) > stock


def mortgage(game: Game, player: int, square: int) -> None:
    """Mortgage a deed with no buildings; the Bank pays its mortgage value (A52 § A Mortgages)."""
    _player(game, player)
    holding = deed(game, square)
    if holding.owner != player:
        raise RuleError("the property is not the player's")
    if holding.mortgaged:
        raise RuleError("already mortgaged")
    if holding.houses:
        raise RuleError("sell the buildings on the site to the Bank first")
    transfer(game, BANK, player, SQUARES[square].mortgage)
    holding.mortgaged = True


def unmortgage(game: Game, player: int, square: int) -> None:
    """Lift a mortgage: the mortgage value plus 10% interest (A53, A56 § A Mortgages)."""
    _player(game, player)
    holding = deed(game, square)
    if holding.owner != player or not holding.mortgaged:
        raise RuleError("not a mortgaged property of the player's")
    _no_debts(game, player)
    transfer(game, player, BANK, SQUARES[square].mortgage + interest(square))
    holding.mortgaged = False


def _hand_over(game: Game, square: int, to: int, lift: bool) -> None:
    """Change a deed's owner; on a mortgaged one the new owner pays 10% now, or lifts it (A54)."""
    holding = game.holdings[square]
    holding.owner = to
    if holding.mortgaged:
        charge(game, to, BANK, interest(square) + (SQUARES[square].mortgage if lift else 0))
        holding.mortgaged = not lift


def _transfer_cost(game: Game, squares: Collection[int], lift: Collection[int]) -> int:
    """What taking over ``squares`` costs at once in interest and lifted mortgages (A54)."""
    return sum(interest(s) + (SQUARES[s].mortgage if s in lift else 0)
               for s in squares if game.holdings[s].mortgaged)


def _tradable(game: Game, player: int, squares: Collection[int]) -> None:
    """Refuse deeds the player does not hold, or sites whose group has buildings (A46, A47)."""
    for s in squares:
        if deed(game, s).owner != player:
            raise RuleError(f"{SQUARES[s].name} is not {game.players[player].name}'s")
        if group_has_buildings(game, s):
            raise RuleError(f"sell the buildings on {SQUARES[s].name}'s group to the Bank first")


def trade(game: Game, a: int, b: int, give: int, take: Sequence[int] = (), cash: int = 0,
          lift: Collection[int] = ()) -> None:
    """``a`` gives ONE property for ``b``'s ``take`` and ``cash`` (<0: a pays) (A46-A50, A54)."""
    _player(game, a)
    _player(game, b)
    if a == b:
        raise RuleError("a trade is between two players")
    if give in take or len(set(take)) != len(take):
        raise RuleError("each property once")
    _tradable(game, a, [give])
    _tradable(game, b, take)
    payer, payee, amount = (b, a, cash) if cash >= 0 else (a, b, -cash)
    if game.players[payer].cash < amount:
        raise RuleError("players may not borrow: the cash balance must be there")
    a_cash = game.players[a].cash + cash
    b_cash = game.players[b].cash - cash
    if a_cash < _transfer_cost(game, take, lift) or b_cash < _transfer_cost(game, [give], lift):
        raise RuleError("the new owner cannot pay the interest on a mortgaged property")
    transfer(game, payer, payee, amount)
    _hand_over(game, give, b, give in lift)
    for s in take:
        _hand_over(game, s, a, s in lift)


def sell_jail_card(game: Game, seller: int, buyer: int, card: str, price: int) -> None:
    """Sell a Get Out of Jail Free card at an agreed price (A29 § the card: kept or sold)."""
    _player(game, seller)
    _player(game, buyer)
    if seller == buyer or card not in game.players[seller].jail_cards:
        raise RuleError("the seller does not hold that card")
    if price < 0 or game.players[buyer].cash < price:
        raise RuleError("the buyer cannot pay that")
    transfer(game, buyer, seller, price)
    game.players[seller].jail_cards.remove(card)
    game.players[buyer].jail_cards.append(card)


def pay_in_kind(game: Game, debtor: int, squares: Sequence[int], cash: int = 0,
                lift: Collection[int] = ()) -> None:
    """Settle the oldest debt to a player with part cash, part property he accepts (A51)."""
    debts = debts_of(game, debtor)
    if not debts or debts[0].creditor is BANK:
        raise RuleError("no debt to a player to settle")
    creditor = debts[0].creditor
    _tradable(game, debtor, squares)
    if not 0 <= cash <= game.players[debtor].cash:
        raise RuleError("the debtor has not that cash")
    if game.players[creditor].cash + cash < _transfer_cost(game, squares, lift):
        raise RuleError("the creditor cannot pay the interest on a mortgaged property")
    game.debts.remove(debts[0])
    transfer(game, debtor, creditor, cash)
    for s in squares:
        _hand_over(game, s, creditor, s in lift)


def declare_bankrupt(game: Game, player: int, lift: Collection[int] = ()) -> list[int]:
    """Retire a player owing more than he can raise; deeds to auction (A57-A60 § A Bankruptcy)."""
    _player(game, player)
    debts = debts_of(game, player)
    if not debts:
        raise RuleError("the player owes nothing")
    if raisable(game, player) >= sum(d.amount for d in debts):
        raise RuleError("the player can still raise the money: sell buildings and mortgage")
    if len(active(game)) < 2:
        raise RuleError("the game is over: the last player left has won")
    creditor = debts[0].creditor
    deeds = owned(game, player)
    bankrupt = game.players[player]
    if creditor is not BANK:
        gain = bankrupt.cash + sum(building_value(s, game.holdings[s].houses) // 2 for s in deeds)
        if lift and game.players[creditor].cash + gain < _transfer_cost(game, deeds, lift):
            raise RuleError("the creditor cannot lift those mortgages")
    for debt in debts:
        game.debts.remove(debt)
    for debt in list(game.debts):  # what others owe the bankrupt is the creditor's now
        if debt.creditor == player:
            debt.creditor = creditor
            if debt.debtor == creditor:
                game.debts.remove(debt)
    to_auction: list[int] = []
    if creditor is BANK:
        _clear_buildings(game, deeds)
        transfer(game, player, BANK, bankrupt.cash)
        for s in deeds:
            game.holdings[s].owner = None
            game.holdings[s].mortgaged = False
        for card in bankrupt.jail_cards:
            game.decks[CARDS[card].deck].append(card)
        to_auction = deeds
    else:
        transfer(game, BANK, creditor, _clear_buildings(game, deeds) // 2)
        transfer(game, player, creditor, bankrupt.cash)
        for s in deeds:
            _hand_over(game, s, creditor, s in lift)
        game.players[creditor].jail_cards += bankrupt.jail_cards
    bankrupt.jail_cards = []
    bankrupt.bankrupt = True
    bankrupt.in_jail = False
    if game.rent_due and player in (game.rent_due.payer, game.rent_due.owner):
        game.rent_due = None
    if game.current == player:
        game.offer = game.choice = None
        game.current = next_active(game, player)
        game.to_throw, game.doubles = True, 0
    return to_auction
