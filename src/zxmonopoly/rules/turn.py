"""A turn: who starts, dice and movement, GO, landing, cards, tax, jail, rent claims, the end.

Every action checks first and raises RuleError without changing anything when it refuses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .data import CARDS, GO_SALARY, JAIL_FINE, JAIL_SQUARE, MAX_TURNS_IN_JAIL, SQUARES
from .money import charge, transfer, worth
from .records import Card, Effect, Kind
from .rent import rent
from .state import BANK, HOTEL, Game, RentDue, RuleError, active, deed, next_active, owned

BOARD = len(SQUARES)
THREE_DOUBLES = 3


def first_player_round(totals: Mapping[int, int]) -> list[int]:
    """The highest throwers: one starts, or they throw again (A6 § C Who goes first?)."""
    best = max(totals.values())
    return [p for p, total in totals.items() if total == best]


def _free(game: Game) -> None:
    """Refuse to go on while an offer, a card choice or a debt waits, or after the end (A60)."""
    if len(active(game)) < 2:
        raise RuleError("the game is over")
    if game.offer is not None:
        raise RuleError(f"buy or decline {SQUARES[game.offer].name} first")
    if game.choice is not None:
        raise RuleError("choose: pay the fine or take a Chance")
    if game.debts:
        raise RuleError("a debt must be paid first")


def send_to_jail(game: Game) -> None:
    """Straight to jail, no salary, the turn ends (A12, A33 § A Jail)."""
    player = game.players[game.current]
    player.square, player.in_jail, player.jail_turns = JAIL_SQUARE, True, 0
    game.to_throw, game.doubles = False, 0


def throw(game: Game, die1: int, die2: int) -> None:
    """The current player's throw: jail, doubles, move (A8, A9, A35 § A To start the game, Jail)."""
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise RuleError("a die shows 1-6")
    _free(game)
    if not game.to_throw:
        raise RuleError("no throw left: end the turn")
    player = game.players[game.current]
    game.rent_due = None  # A23: rent not claimed before the next throw is lost
    game.dice = (die1, die2)
    double = die1 == die2
    if player.in_jail:
        if double:  # A35(a): out, move by this throw, and throw again
            game.doubles, game.to_throw = 1, True
        elif player.jail_turns < MAX_TURNS_IN_JAIL - 1:
            player.jail_turns += 1
            game.to_throw = False
            return
        else:  # A35(d): the third failed throw: pay £50 and move by it
            game.to_throw = False
            charge(game, game.current, BANK, JAIL_FINE)
        player.in_jail, player.jail_turns = False, 0
        advance(game, die1 + die2)
        return
    if double:
        game.doubles += 1
        if game.doubles == THREE_DOUBLES:  # A9: no move on the third double
            send_to_jail(game)
            return
    game.to_throw = double
    advance(game, die1 + die2)


def advance(game: Game, steps: int, salary: bool = True) -> None:
    """Move forward, £200 on passing or landing on GO, then land (A10, A11 § A To start)."""
    player = game.players[game.current]
    if salary and player.square + steps >= BOARD:
        transfer(game, BANK, game.current, GO_SALARY)
    player.square = (player.square + steps) % BOARD
    land(game)


def land(game: Game) -> None:
    """What the square reached does (A14, A21, A28, A31-A34 § A Landing on ..., Jail)."""
    player = game.players[game.current]
    sq = SQUARES[player.square]
    if sq.is_property:
        owner = game.holdings[sq.index].owner
        if owner is None:
            game.offer = sq.index
        elif owner != game.current:
            game.rent_due = RentDue(sq.index, game.current, owner, sum(game.dice))
    elif sq.kind is Kind.TAX:
        charge(game, game.current, BANK, sq.amount)
    elif sq.kind is Kind.CHANCE:
        draw(game, "chance")
    elif sq.kind is Kind.CHEST:
        draw(game, "chest")
    elif sq.kind is Kind.GO_TO_JAIL:
        send_to_jail(game)
    # GO, Jail (just visiting, A34) and Free Parking (A32): nothing happens.


def draw(game: Game, deck: str) -> Card:
    """The next card, obeyed, then to the bottom unless kept (A28, A29 § A Landing on chance)."""
    card = CARDS[game.decks[deck].pop(0)]
    if card.effect is not Effect.JAIL_FREE:
        game.decks[deck].append(card.id)
    obey(game, card)
    return card


def repairs(game: Game, player: int, card: Card) -> int:
    """A repairs card's bill: per house and per hotel, a hotel not also 4 houses (CH08, CH09)."""
    bill = 0
    for s in owned(game, player):
        houses = game.holdings[s].houses
        bill += card.per_hotel if houses == HOTEL else card.amount * houses
    return bill


def obey(game: Game, card: Card) -> None:
    """A card's exact effect on the current player (A28-A30 § A Landing on chance; cards_uk.md)."""
    me = game.current
    player = game.players[me]
    match card.effect:
        case Effect.MOVE_TO:
            assert card.dest is not None
            advance(game, (card.dest - player.square) % BOARD or BOARD, card.salary)
        case Effect.MOVE_BACK_TO:
            assert card.dest is not None
            player.square = card.dest
            land(game)
        case Effect.MOVE_BY:
            player.square = (player.square + card.steps) % BOARD
            land(game)
        case Effect.GO_TO_JAIL:
            send_to_jail(game)
        case Effect.PAY_BANK:
            charge(game, me, BANK, card.amount)
        case Effect.COLLECT_BANK:
            transfer(game, BANK, me, card.amount)
        case Effect.REPAIRS:
            charge(game, me, BANK, repairs(game, me, card))
        case Effect.COLLECT_FROM_EACH:
            for other in active(game):
                if other != me:
                    charge(game, other, me, card.amount)
        case Effect.JAIL_FREE:
            player.jail_cards.append(card.id)
        case Effect.FINE_OR_CHANCE:
            game.choice = card.id


def choose(game: Game, take_chance: bool) -> None:
    """Answer "pay a £10 fine or take a Chance" (CC16, the player's choice; cards_uk.md)."""
    if game.choice is None:
        raise RuleError("no card waits for a choice")
    card = CARDS[game.choice]
    game.choice = None
    if take_chance:
        draw(game, "chance")
    else:
        charge(game, game.current, BANK, card.amount)


def _before_throw_in_jail(game: Game) -> None:
    """Refuse unless the current player is in jail and has not thrown yet this turn."""
    _free(game)
    if not game.players[game.current].in_jail or not game.to_throw:
        raise RuleError("only a player in jail, before throwing")


def pay_fine(game: Game) -> None:
    """Pay £50 before throwing on the next or following turn in jail (A35c, A36 § A Jail (3))."""
    _before_throw_in_jail(game)
    player = game.players[game.current]
    if player.jail_turns >= MAX_TURNS_IN_JAIL - 1:
        raise RuleError("on the third turn the fine is paid only after a failed throw")
    transfer(game, game.current, BANK, JAIL_FINE)
    player.in_jail, player.jail_turns = False, 0


def use_jail_card(game: Game) -> None:
    """Leave jail with a Get Out of Jail Free card, back to its pack (A29, A35b § A Jail (2)).

    A player holding both gives the Chance card first (the booklet does not say; the game
    keeps no order of the cards held, so a fixed rule both sides follow).
    """
    _before_throw_in_jail(game)
    player = game.players[game.current]
    if not player.jail_cards:
        raise RuleError("no Get Out of Jail Free card")
    card = min(player.jail_cards, key=lambda c: CARDS[c].deck != "chance")
    player.jail_cards.remove(card)
    game.decks[CARDS[card].deck].append(card)
    player.in_jail, player.jail_turns = False, 0


def claim_rent(game: Game, owner: int) -> int:
    """The owner presses R before the next throw; the rent is charged (A23, A26 § C Rent)."""
    due = game.rent_due
    if due is None or due.owner != owner:
        raise RuleError("no rent is due to that player")
    game.rent_due = None
    amount = rent(game, due.square, due.dice)
    charge(game, due.payer, owner, amount)
    return amount


def end_turn(game: Game) -> None:
    """Pass the dice to the next player in name-entry order (A7, A9 § A To start the game)."""
    _free(game)
    if game.to_throw:
        raise RuleError("the player has a throw to make")
    game.current = next_active(game, game.current)
    game.to_throw, game.doubles = True, 0


def winner(game: Game) -> int | None:
    """The last player left in the game, if only one is (A60 § A Bankruptcy)."""
    players = active(game)
    return players[0] if len(players) == 1 else None


def richest(game: Game) -> list[int]:
    """The richest, at time-up or CAPS SHIFT+SPACE (A63, A64, A67 § C Short game, End game)."""
    values = {p: worth(game, p) for p in active(game)}
    best = max(values.values())
    return [p for p, value in values.items() if value == best]


def deal_short_game(game: Game, deeds: Sequence[int]) -> None:
    """Two shuffled deeds dealt to each player, paid at once (A63 § A Rules for the short game)."""
    players = active(game)
    hand = list(deeds[: 2 * len(players)])
    if len(hand) < 2 * len(players) or len(set(hand)) != len(hand):
        raise RuleError("two different deeds for each player")
    for s in hand:
        if deed(game, s).owner is not None:
            raise RuleError(f"the Bank does not hold {SQUARES[s].name}")
    for i, player in enumerate(players):
        if game.players[player].cash < sum(SQUARES[s].price for s in hand[i::len(players)]):
            raise RuleError(f"{game.players[player].name} cannot pay for the deeds dealt")
    for i, s in enumerate(hand):
        player = players[i % len(players)]
        transfer(game, player, BANK, SQUARES[s].price)
        game.holdings[s].owner = player
