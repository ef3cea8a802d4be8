"""Random legal-or-refused play: one step picks an action and its arguments from ``pick``."""

from __future__ import annotations

from collections.abc import Callable

from tests.rules.helpers import check_invariants, refused
from zxmonopoly import rules
from zxmonopoly.rules import GROUPS
from zxmonopoly.rules.state import Game, active, debts_of, owned

Pick = Callable[[int, int], int]
"""pick(lo, hi): an integer in lo..hi inclusive (Hypothesis draw or a seeded random)."""


def _some(pick: Pick, items: list[int]) -> int:
    """One of the items (or -1 when there are none)."""
    return items[pick(0, len(items) - 1)] if items else -1


def _player(g: Game, pick: Pick) -> int:
    return _some(pick, active(g))


def _bids(g: Game, pick: Pick) -> list[tuple[int, int]]:
    return [(_player(g, pick), pick(1, 700)) for _ in range(pick(0, 3))]


def raise_money(g: Game, pick: Pick) -> None:
    """The first debtor sells buildings, then mortgages, then pays or goes bankrupt."""
    debtor = g.debts[0].debtor
    built = [s for s in owned(g, debtor) if g.holdings[s].houses]
    if built:
        name = next(n for n, sites in GROUPS.items() if built[0] in sites)
        refused(g, lambda: rules.sell_group_buildings(g, debtor, name))
    elif free := [s for s in owned(g, debtor) if not g.holdings[s].mortgaged]:
        refused(g, lambda: rules.mortgage(g, debtor, free[0]))
    refused(g, lambda: rules.pay_debts(g, debtor))
    if debts_of(g, debtor):
        lift = {s for s in owned(g, debtor) if pick(0, 1)}
        deeds: list[int] = []

        def bankrupt() -> None:
            deeds.extend(rules.declare_bankrupt(g, debtor, lift))

        if refused(g, bankrupt) and lift:
            lift = set()
            refused(g, bankrupt)
        for s in deeds:
            refused(g, lambda s=s: rules.auction(g, s, _bids(g, pick)))


def step(g: Game, pick: Pick) -> str:
    """Try one action; refused ones must leave the state as it was. Returns the action's name."""
    me = g.current
    p = _player(g, pick)
    q = _player(g, pick)
    mine = owned(g, p)
    buildable = [s for name, sites in GROUPS.items() if rules.state.owns_group(g, p, name)
                 for s in sites]
    debtor = next((d.debtor for d in g.debts if d.creditor is not None), p)
    name = ACTIONS[pick(0, len(ACTIONS) - 1)]
    if g.debts and pick(0, 1):
        name = "raise"
    actions: dict[str, Callable[[], object]] = {
        "throw": lambda: rules.throw(g, pick(1, 6), pick(1, 6)),
        "buy": lambda: rules.buy(g),
        "decline": lambda: rules.decline(g, _bids(g, pick)),
        "claim": lambda: rules.claim_rent(g, g.rent_due.owner if g.rent_due else p),
        "end": lambda: rules.end_turn(g),
        "choose": lambda: rules.choose(g, bool(pick(0, 1))),
        "fine": lambda: rules.pay_fine(g),
        "card": lambda: rules.use_jail_card(g),
        "build": lambda: rules.build(g, p, _some(pick, buildable or mine)),
        "sell": lambda: rules.sell_building(g, p, _some(pick, mine)),
        "sell_group": lambda: rules.sell_group_buildings(
            g, p, list(GROUPS)[pick(0, len(GROUPS) - 1)]),
        "mortgage": lambda: rules.mortgage(g, p, _some(pick, mine)),
        "unmortgage": lambda: rules.unmortgage(g, p, _some(pick, mine)),
        "trade": lambda: rules.trade(
            g, p, q, _some(pick, mine),
            [s for s in owned(g, q) if pick(0, 3) == 0], pick(-300, 300),
            {s for s in owned(g, q) + mine if pick(0, 1)}),
        "jail_card": lambda: rules.sell_jail_card(
            g, p, q, (g.players[p].jail_cards or ["CH16"])[0], pick(0, 100)),
        "in_kind": lambda: rules.pay_in_kind(
            g, debtor, [s for s in owned(g, debtor) if pick(0, 1)], pick(0, 50)),
        "settle": lambda: rules.pay_debts(g, p),
        "settle_mine": lambda: rules.pay_debts(g, me),
    }
    if name == "raise" and g.debts:
        raise_money(g, pick)
    else:
        refused(g, actions.get(name, actions["settle_mine"]))
    check_invariants(g)
    assert not g.players[g.current].bankrupt
    for player in g.players:
        assert not player.in_jail or player.square == rules.data.JAIL_SQUARE
    return name


# Turn actions come up more often than the rest, so that games move on.
ACTIONS = (["throw"] * 6 + ["buy"] * 3 + ["end"] * 4 + ["claim"] * 2 + ["build"] * 6 + [
           "decline", "choose", "fine", "card", "sell", "sell_group", "mortgage",
           "unmortgage", "trade", "jail_card", "in_kind", "settle", "raise"])
