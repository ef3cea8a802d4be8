"""Building game states for rule tests, and the invariants every legal state keeps."""

from __future__ import annotations

from collections.abc import Callable

from zxmonopoly.rules import GROUPS, HOTEL, Game, RuleError, new_game
from zxmonopoly.rules.data import HOTELS_IN_BANK, HOUSES_IN_BANK
from zxmonopoly.rules.state import hotels_in_play, houses_in_play


def game(players: int = 2, **kwargs: object) -> Game:
    """A new game of ``players`` named P0, P1, ... (cards in printed order unless given)."""
    return new_game([f"P{i}" for i in range(players)], **kwargs)  # type: ignore[arg-type]


def own(g: Game, player: int, *squares: int, houses: int = 0, mortgaged: bool = False) -> None:
    """Hand deeds to a player directly (no money moves), with buildings taken from the Bank."""
    for s in squares:
        h = g.holdings[s]
        h.owner, h.mortgaged = player, mortgaged
        set_houses(g, s, houses)


def set_houses(g: Game, square: int, houses: int) -> None:
    """Put ``houses`` (HOTEL for a hotel) on a site, keeping the Bank's stock in step."""
    h = g.holdings[square]
    if h.houses == HOTEL:
        g.hotels += 1
    else:
        g.houses += h.houses
    h.houses = houses
    if houses == HOTEL:
        g.hotels -= 1
    else:
        g.houses -= houses


def group(g: Game, player: int, name: str, houses: int = 0) -> tuple[int, ...]:
    """Give a player a whole colour group with ``houses`` on every site; its squares."""
    own(g, player, *GROUPS[name], houses=houses)
    return GROUPS[name]


def total_money(g: Game) -> int:
    """Players' cash plus the Bank's balance: 0 in every state (A4, A5)."""
    return sum(p.cash for p in g.players) + g.bank


def check_invariants(g: Game) -> None:
    """Money conserved, stock constant, building even and only where allowed, cash never < 0."""
    assert total_money(g) == 0
    assert houses_in_play(g) + g.houses == HOUSES_IN_BANK
    assert hotels_in_play(g) + g.hotels == HOTELS_IN_BANK
    assert g.houses >= 0 and g.hotels >= 0
    for p in g.players:
        assert p.cash >= 0
        if p.bankrupt:
            assert p.cash == 0 and not p.jail_cards
    for name, sites in GROUPS.items():
        levels = [g.holdings[s].houses for s in sites]
        assert max(levels) - min(levels) <= 1, (name, levels)
        if max(levels):
            owners = {g.holdings[s].owner for s in sites}
            assert len(owners) == 1 and None not in owners, (name, owners)
    for h in g.holdings.values():
        assert not (h.mortgaged and h.houses), "buildings on a mortgaged site"
        assert h.owner is not None or (not h.mortgaged and not h.houses)
        assert h.owner is None or not g.players[h.owner].bankrupt
    for deck in g.decks.values():
        assert len(set(deck)) == len(deck)
    held = [c for p in g.players for c in p.jail_cards]
    assert len(g.decks["chance"]) + len(g.decks["chest"]) + len(held) == 32


def snapshot(g: Game) -> tuple:
    """Everything in a game state as plain values (much quicker than a deep copy)."""
    return (tuple((p.name, p.cash, p.square, p.in_jail, p.jail_turns, tuple(p.jail_cards),
                   p.bankrupt) for p in g.players),
            tuple((s, h.owner, h.houses, h.mortgaged) for s, h in g.holdings.items()),
            tuple(g.decks["chance"]), tuple(g.decks["chest"]), g.houses, g.hotels, g.bank,
            g.current, g.doubles, g.to_throw, g.dice, g.offer, g.choice, repr(g.rent_due),
            tuple((d.debtor, d.creditor, d.amount) for d in g.debts))


def refused(g: Game, action: Callable[[], object]) -> bool:
    """Run an action; if the rules refuse it, check that nothing changed and say so."""
    before = snapshot(g)
    try:
        action()
    except RuleError:
        assert snapshot(g) == before, "a refused action changed the state"
        return True
    return False
