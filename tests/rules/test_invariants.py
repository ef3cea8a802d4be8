"""Invariants under any sequence of actions (Hypothesis), and whole seeded games to the end.

After every action: money is conserved (players + Bank = 0, the Bank's payments counted),
houses and hotels in play + the Bank's stock = 32 and 12, building is even, cash is never
negative, and a refused action changes nothing.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.driver import step
from tests.rules.helpers import check_invariants, game, group
from zxmonopoly import rules
from zxmonopoly.rules import CHANCE, COMMUNITY_CHEST, GROUPS
from zxmonopoly.rules.state import active


def _pick(data: st.DataObject):
    return lambda lo, hi: data.draw(st.integers(lo, hi))


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 6),
       st.permutations([c.id for c in CHANCE]), st.permutations([c.id for c in COMMUNITY_CHEST]))
def test_random_play_keeps_the_invariants(data, players, chance, chest):
    g = game(players, chance=chance, chest=chest)
    check_invariants(g)
    pick = _pick(data)
    for _ in range(data.draw(st.integers(20, 150))):
        step(g, pick)


@settings(max_examples=80, deadline=None)
@given(st.data(), st.integers(0, 32), st.integers(0, 12))
def test_building_and_selling_keep_even_building_and_the_stock(data, houses_out, hotels_out):
    g = game(3)
    owners = [data.draw(st.integers(0, 2)) for _ in GROUPS]
    for owner, name in zip(owners, GROUPS, strict=True):
        group(g, owner, name)
    g.houses -= houses_out  # the rest of the stock is, say, elsewhere: keep the count honest
    g.hotels -= hotels_out
    pick = _pick(data)
    for _ in range(data.draw(st.integers(1, 120))):
        p = pick(0, 2)
        site = list(g.holdings)[pick(0, len(g.holdings) - 1)]
        name = list(GROUPS)[pick(0, len(GROUPS) - 1)]
        action = pick(0, 5)
        before = (g.houses, g.hotels, sum(pl.cash for pl in g.players) + g.bank)
        try:
            if action <= 2:
                rules.build(g, p, site)
            elif action == 3:
                rules.sell_building(g, p, site)
            elif action == 4:
                rules.sell_group_buildings(g, p, name)
            else:
                (rules.unmortgage if g.holdings[site].mortgaged else rules.mortgage)(g, p, site)
        except rules.RuleError:
            assert before == (g.houses, g.hotels, sum(pl.cash for pl in g.players) + g.bank)
        assert rules.houses_in_play(g) + g.houses + houses_out == 32
        assert rules.hotels_in_play(g) + g.hotels + hotels_out == 12
        assert sum(pl.cash for pl in g.players) + g.bank == 0
        for sites in GROUPS.values():
            levels = [g.holdings[s].houses for s in sites]
            assert max(levels) - min(levels) <= 1


def test_seeded_games_play_to_the_end():
    """Whole games with random (seeded) choices: they end, and every state is legal."""
    finished = 0
    for seed in range(12):
        rnd = random.Random(seed)
        g = game(rnd.randint(2, 4))
        for _ in range(6000):
            if rules.winner(g) is not None:
                finished += 1
                break
            step(g, rnd.randint)
        assert len(active(g)) >= 1
    assert finished >= 6


@settings(max_examples=100, deadline=None)
@given(st.data(), st.integers(2, 4), st.integers(0, 1500), st.booleans())
def test_bankruptcy_keeps_the_invariants(data, players, cash, to_bank):
    g = game(players)
    g.bank += g.players[1].cash - cash
    g.players[1].cash = cash
    for name in GROUPS:
        if data.draw(st.booleans()):
            group(g, 1, name)
    pick = _pick(data)
    for _ in range(data.draw(st.integers(0, 40))):
        site = list(g.holdings)[pick(0, len(g.holdings) - 1)]
        try:
            (rules.build if pick(0, 3) else rules.mortgage)(g, 1, site)
        except rules.RuleError:
            pass
    if data.draw(st.booleans()):
        g.players[1].jail_cards.append(g.decks["chance"].pop(g.decks["chance"].index("CH16")))
    creditor = None if to_bank else 0
    rules.charge(g, 1, creditor, rules.raisable(g, 1) + data.draw(st.integers(1, 500)))
    lift = {s for s in g.holdings if data.draw(st.booleans())} if not to_bank else set()
    try:
        deeds = rules.declare_bankrupt(g, 1, lift)
    except rules.RuleError:
        deeds = rules.declare_bankrupt(g, 1)
    check_invariants(g)
    assert g.players[1].bankrupt and not any(h.owner == 1 for h in g.holdings.values())
    for s in deeds:
        rules.auction(g, s, [(0, pick(1, 300))])
        check_invariants(g)
