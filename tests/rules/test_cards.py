"""Every Chance and Community Chest card, exactly (A28-A30; cards_uk.md)."""

from __future__ import annotations

import pytest

from tests.rules.helpers import check_invariants, game, group, own, refused, set_houses
from zxmonopoly.rules import (
    CHANCE,
    COMMUNITY_CHEST,
    HOTEL,
    choose,
    claim_rent,
    end_turn,
    sell_jail_card,
    throw,
)
from zxmonopoly.rules.data import JAIL_SQUARE

CHANCE_IDS = [c.id for c in CHANCE]
CHEST_IDS = [c.id for c in COMMUNITY_CHEST]

# Throws from a start square onto each card square: (start, die1, die2).
# (Square 2 is reached from GO with a double: from 39 the token would pass GO.)
ONTO = {7: (4, 1, 2), 22: (19, 1, 2), 36: (33, 1, 2), 2: (0, 1, 1), 17: (14, 1, 2),
        33: (29, 1, 3)}


def draw_on(card_id: str, square: int, players: int = 2, chance_next: str | None = None):
    """A game where player 0 lands on ``square`` with ``card_id`` on top of its pack."""
    chance = list(CHANCE_IDS)
    chest = list(CHEST_IDS)
    pack = chance if card_id.startswith("CH") else chest
    pack.remove(card_id)
    pack.insert(0, card_id)
    if chance_next:
        chance.remove(chance_next)
        chance.insert(0, chance_next)
    g = game(players, chance=chance, chest=chest)
    start, d1, d2 = ONTO[square]
    g.players[0].square = start
    throw(g, d1, d2)
    return g


def test_a28_card_drawn_from_the_top_goes_to_the_bottom():
    g = draw_on("CH10", 7)
    assert g.decks["chance"][-1] == "CH10" and len(g.decks["chance"]) == 16
    assert g.decks["chance"][0] == CHANCE_IDS[0]


@pytest.mark.parametrize("square,cash,dest", [(7, 1700, 0), (22, 1700, 0), (36, 1700, 0)])
def test_ch01_advance_to_go_collect_200(square, cash, dest):
    g = draw_on("CH01", square)
    assert g.players[0].square == dest and g.players[0].cash == cash


@pytest.mark.parametrize("card,square", [("CH02", 7), ("CH02", 36), ("CC03", 2), ("CC03", 33)])
def test_ch02_cc03_go_to_jail_no_salary_turn_ends(card, square):
    g = draw_on(card, square)
    p = g.players[0]
    assert p.square == JAIL_SQUARE and p.in_jail and p.cash == 1500 and not g.to_throw


@pytest.mark.parametrize("card,square,dest,cash", [
    ("CH03", 7, 11, 1500), ("CH03", 22, 11, 1700), ("CH03", 36, 11, 1700),
    ("CH04", 7, 15, 1500), ("CH04", 22, 15, 1700), ("CH04", 36, 15, 1700),
    ("CH05", 7, 24, 1500), ("CH05", 22, 24, 1500), ("CH05", 36, 24, 1700),
    ("CH06", 7, 39, 1500), ("CH06", 22, 39, 1500), ("CH06", 36, 39, 1500),
])
def test_a30_advance_cards_pay_200_only_when_passing_go(card, square, dest, cash):
    g = draw_on(card, square)
    assert g.players[0].square == dest and g.players[0].cash == cash
    assert g.offer == dest  # A14: an unowned property reached by a card may be bought


def test_a30_advance_card_onto_owned_property_makes_rent_due():
    chance = ["CH06"] + [c for c in CHANCE_IDS if c != "CH06"]
    g = game(chance=chance)
    own(g, 1, 37, 39)
    g.players[0].square = 4
    throw(g, 1, 2)
    assert g.rent_due and g.rent_due.square == 39 and g.rent_due.owner == 1


def test_ch04_normal_station_rent_at_marylebone():
    chance = ["CH04"] + [c for c in CHANCE_IDS if c != "CH04"]
    g = game(chance=chance)
    own(g, 1, 5, 15)
    g.players[0].square = 4
    throw(g, 1, 2)
    assert claim_rent(g, 1) == 50


def test_ch07_back_three_from_7_to_income_tax():
    g = draw_on("CH07", 7)
    assert g.players[0].square == 4 and g.players[0].cash == 1300


def test_ch07_back_three_from_22_to_vine_street():
    g = draw_on("CH07", 22)
    assert g.players[0].square == 19 and g.offer == 19 and g.players[0].cash == 1500


def test_ch07_back_three_from_36_to_community_chest_draws_again():
    chest = ["CC07"] + [c for c in CHEST_IDS if c != "CC07"]
    chance = ["CH07"] + [c for c in CHANCE_IDS if c != "CH07"]
    g = game(chance=chance, chest=chest)
    g.players[0].square = 33
    throw(g, 1, 2)
    assert g.players[0].square == 33 and g.players[0].cash == 1700


@pytest.mark.parametrize("card,bill", [("CH08", 7 * 25 + 100), ("CH09", 7 * 40 + 115)])
def test_ch08_ch09_repairs_per_house_and_per_hotel_a_hotel_is_not_also_4_houses(card, bill):
    chance = [card] + [c for c in CHANCE_IDS if c != card]
    g = game(chance=chance)
    group(g, 0, "light_blue", houses=1)  # 3 houses
    group(g, 0, "dark_blue", houses=4)
    set_houses(g, 39, HOTEL)  # 4 houses and 1 hotel
    g.players[0].square = 4
    throw(g, 1, 2)
    assert g.players[0].cash == 1500 - bill
    check_invariants(g)


@pytest.mark.parametrize("card,amount", [("CH10", 150), ("CH11", 20), ("CH12", 15)])
def test_chance_fines_paid_to_the_bank(card, amount):
    g = draw_on(card, 7)
    assert g.players[0].cash == 1500 - amount
    check_invariants(g)


@pytest.mark.parametrize("card,amount", [("CH13", 150), ("CH14", 100), ("CH15", 50)])
def test_chance_bank_pays(card, amount):
    g = draw_on(card, 22)
    assert g.players[0].cash == 1500 + amount


@pytest.mark.parametrize("card,square", [("CH16", 7), ("CC15", 17)])
def test_a29_get_out_of_jail_free_is_kept_out_of_the_pack(card, square):
    g = draw_on(card, square)
    pack = "chance" if card.startswith("CH") else "chest"
    assert g.players[0].jail_cards == [card] and card not in g.decks[pack]
    assert len(g.decks[pack]) == 15


def test_a29_get_out_of_jail_free_may_be_sold():
    g = draw_on("CH16", 7)
    sell_jail_card(g, 0, 1, "CH16", 30)
    assert g.players[1].jail_cards == ["CH16"] and g.players[0].cash == 1530
    assert refused(g, lambda: sell_jail_card(g, 0, 1, "CH16", 30))


@pytest.mark.parametrize("square", [2, 17, 33])
def test_cc01_advance_to_go(square):
    g = draw_on("CC01", square)
    assert g.players[0].square == 0 and g.players[0].cash == 1700


@pytest.mark.parametrize("square", [2, 17, 33])
def test_cc02_go_back_to_old_kent_road_no_salary(square):
    g = draw_on("CC02", square)
    assert g.players[0].square == 1 and g.players[0].cash == 1500 and g.offer == 1


@pytest.mark.parametrize("card,amount", [("CC04", 100), ("CC05", 50), ("CC06", 50)])
def test_chest_payments_to_the_bank(card, amount):
    g = draw_on(card, 17)
    assert g.players[0].cash == 1500 - amount


@pytest.mark.parametrize("card,amount", [("CC07", 200), ("CC08", 100), ("CC09", 100),
                                         ("CC10", 50), ("CC11", 25), ("CC12", 20),
                                         ("CC13", 10)])
def test_chest_bank_pays(card, amount):
    g = draw_on(card, 33)
    assert g.players[0].cash == 1500 + amount


def test_cc14_birthday_collect_10_from_each_player():
    g = draw_on("CC14", 2, players=4)
    assert [p.cash for p in g.players] == [1530, 1490, 1490, 1490]
    check_invariants(g)


def test_cc14_a_player_short_of_10_owes_it():
    chest = ["CC14"] + [c for c in CHEST_IDS if c != "CC14"]
    g = game(3, chest=chest)
    g.bank += g.players[2].cash - 5
    g.players[2].cash = 5
    throw(g, 1, 1)
    assert g.players[0].cash == 1510 and g.debts[0].debtor == 2 and g.debts[0].creditor == 0
    assert refused(g, lambda: end_turn(g))


def test_cc16_pay_the_10_fine():
    g = draw_on("CC16", 17)
    assert g.choice == "CC16" and refused(g, lambda: end_turn(g))
    choose(g, take_chance=False)
    assert g.players[0].cash == 1490 and g.choice is None
    end_turn(g)


def test_cc16_take_a_chance_instead():
    g = draw_on("CC16", 17, chance_next="CH14")
    choose(g, take_chance=True)
    assert g.players[0].cash == 1600 and g.decks["chance"][-1] == "CH14"


def test_every_card_keeps_the_invariants():
    for card in CHANCE_IDS + CHEST_IDS:
        square = 7 if card.startswith("CH") else 17
        g = draw_on(card, square, players=3)
        if g.choice:
            choose(g, take_chance=True)
        check_invariants(g)
