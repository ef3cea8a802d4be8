"""Houses and hotels (H), the building-shortage auction and a human raising money, against the
booklet (A38-A45, part C "Houses") and the rules model (zxmonopoly.rules.estate).

Each test pokes a position into the state block, drives the game's own routines (GameRig) with
keys where the game asks, and after every action checks the invariants: money conserved, the
Bank's houses and hotels plus those on the board are 32 and 12, building even in every group.
"""

from __future__ import annotations

import pytest

from tests.game.helpers import BUDGET, RIGHT, Estate
from zxmonopoly.rules import estate
from zxmonopoly.rules.state import HOTEL, RuleError


def model_build(game, p: int, square: int) -> bool:
    try:
        estate.build(game, p, square)
    except RuleError:
        return False
    return True


def model_sell(game, p: int, square: int) -> bool:
    try:
        estate.sell_building(game, p, square)
    except RuleError:
        return False
    return True


def test_even_building_refused_then_accepted(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 0)
    g.own(3, 0)
    model = g.model()
    for square, ok in ((1, True), (1, False), (3, True), (3, True), (3, False), (1, True)):
        assert g.build(0, square) is ok is model_build(model, 0, square)
        if not ok:
            assert "evenly" in g.messages()
        g.same_as(model)
        g.check()
    assert (g.level(1), g.level(3)) == (2, 2) and g.cash(0) == 1500 - 4 * 50


def test_building_needs_the_whole_group(shared_rig):
    g = Estate(shared_rig)
    g.own(6, 0)
    g.own(8, 0)
    g.own(9, 1)
    assert not g.build(0, 6) and "complete colour group" in g.messages()
    assert not g.build(0, 5) and "sites" in g.messages()     # a station
    assert g.level(6) == 0 and g.cash(0) == 1500
    g.check()


def test_building_refused_on_a_mortgaged_group(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 0)
    g.own(3, 0, mortgaged=True)
    model = g.model()
    assert not g.build(0, 1) and not model_build(model, 0, 1)
    assert "mortgaged" in g.messages()
    g.same_as(model)
    g.check()


def test_building_needs_the_cash(shared_rig):
    g = Estate(shared_rig)
    g.own(37, 0)
    g.own(39, 0)
    g.set_cash(0, 150)
    assert not g.build(0, 37) and "Not enough cash" in g.messages()
    assert g.cash(0) == 150 and g.level(37) == 0
    g.check()


def test_hotel_exchange_four_houses_back(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 0, houses=4)
    g.own(3, 0, houses=4)
    assert g.stock() == (24, 12)
    model = g.model()
    assert g.build(0, 1) and model_build(model, 0, 1)
    assert g.level(1) == HOTEL and g.stock() == (28, 11) and g.cash(0) == 1450
    g.same_as(model)
    g.check()
    assert not g.build(0, 1) and "one hotel" in g.messages()
    assert g.build(0, 3) and g.stock() == (32, 10)
    g.check()


def test_no_houses_left_in_the_bank(shared_rig):
    g = Estate(shared_rig, players=3)
    for s in (6, 8, 9, 11, 13, 14, 16, 18, 19):
        g.own(s, 1, houses=3)                       # 27 houses
    g.own(21, 2, houses=2)
    g.own(23, 2, houses=2)
    g.own(24, 2, houses=1)                          # 32 on the board
    g.own(1, 0)
    g.own(3, 0)
    g.check()
    assert not g.build(0, 1) and "no houses left" in g.messages()
    g.check()


def test_even_selling_half_the_cost(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 0, houses=2)
    g.own(3, 0, houses=1)
    model = g.model()
    assert not g.sell(0, 3) and not model_sell(model, 0, 3)
    assert "evenly" in g.messages()
    assert g.sell(0, 1) and model_sell(model, 0, 1)
    assert g.cash(0) == 1500 + 25
    g.same_as(model)
    g.check()
    assert not g.sell(1, 1) and "None of" in g.messages()     # not player 2's
    g.check()


def test_selling_a_hotel_back_to_four_houses(shared_rig):
    g = Estate(shared_rig)
    g.own(37, 0, houses=HOTEL)
    g.own(39, 0, houses=HOTEL)
    model = g.model()
    assert g.sell(0, 37) and model_sell(model, 0, 37)
    assert g.level(37) == 4 and g.cash(0) == 1500 + 100 and g.stock() == (28, 11)
    g.same_as(model)
    g.check()
    assert not g.sell(0, 37) and "evenly" in g.messages()
    g.check()


def test_selling_a_hotel_when_the_bank_lacks_houses(shared_rig):
    g = Estate(shared_rig)
    g.own(37, 0, houses=HOTEL)
    g.own(39, 0, houses=HOTEL)
    for s in (6, 8, 9, 11, 13, 14):
        g.own(s, 1, houses=4)                       # 24
    for s in (16, 18, 19):
        g.own(s, 1, houses=2)                       # 30: the Bank has 2
    g.check()
    model = g.model()
    with pytest.raises(RuleError):
        estate.sell_building(model, 0, 37)
    assert not g.sell(0, 37, keys=("n",))           # declined: nothing happens
    assert g.level(37) == HOTEL and g.cash(0) == 1500
    g.check()
    assert g.sell(0, 37, keys=("y",))               # the whole group goes, at half
    estate.sell_group_buildings(model, 0, "dark_blue")
    assert g.cash(0) == 1500 + 1000 and g.stock() == (2, 12)
    g.same_as(model)
    g.check()


def test_houses_dialogue_builds_an_order(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 0)
    g.own(3, 0)
    shared_rig.start_call("houses_run")
    for key in ("b", "1", "2", "ENTER", "ENTER", "ENTER", RIGHT, "SPACE"):
        shared_rig.wait_input(BUDGET)
        shared_rig.tap(key)
    shared_rig.wait_input(BUDGET)
    text = g.messages()
    assert text.startswith("SET: Old Kent") and " 0, Whitechapel" in text
    for key in ("ENTER",                          # a house on Old Kent Road
                "ENTER",                          # the cursor stays there: uneven, refused
                RIGHT, RIGHT, "ENTER"):           # Whitechapel Road: the order is built
        shared_rig.wait_input(BUDGET)
        shared_rig.tap(key)
    shared_rig.finish_call(BUDGET)
    assert (g.level(1), g.level(3)) == (1, 1) and g.cash(0) == 1400
    g.check()


def test_house_shortage_auction(shared_rig):
    g = Estate(shared_rig)
    for s in (11, 13, 14, 16, 18, 19):
        g.own(s, 1, houses=4)                       # 24
    g.own(21, 1, houses=2)
    g.own(23, 1, houses=2)
    g.own(24, 1, houses=3)                          # 31: the Bank has one house
    g.own(1, 0)
    g.own(3, 0)
    g.own(6, 1)
    g.own(8, 1)
    g.own(9, 1)
    g.check()
    model = g.model()
    assert estate.shortage_auction_needed(model, {0: 1, 1: 2})
    keys = ("b",
            "1", "1", "ENTER", "ENTER",             # player 1: one house, no hotel
            "2", "2", "ENTER", "ENTER",             # player 2: two houses
            "ENTER",                                # all in: too few, an auction
            "1", "1", "0", "0", "ENTER",            # player 1 bids £100
            "2", "1", "2", "0", "ENTER",            # player 2 bids £120
            "ENTER",                                # gone to player 2
            *[RIGHT] * 6, "ENTER",                  # placed on The Angel, Islington
            "Q",                                    # player 1 cannot build: none left
            "Q")                                    # player 2 stops
    shared_rig.call("houses_run", budget=BUDGET, keys=keys)
    estate.build(model, 1, 6, price=120)
    assert g.level(6) == 1 and g.cash(1) == 1500 - 120 and g.stock() == (0, 12)
    g.same_as(model)
    g.check()


def test_human_raises_money_with_the_cursor(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 1, houses=1)
    g.own(3, 1, houses=1)
    g.own(5, 1)
    g.set_cash(1, 10)
    keys = (*[RIGHT] * 3, "ENTER",                  # Whitechapel: a house sold, £25
            *[RIGHT] * 2, "ENTER")                  # King's Cross mortgaged, £100 (the
                                                    # cursor goes on from Whitechapel)
    shared_rig.call("bank_pay", budget=BUDGET, keys=keys, a=1, c=0xFF, hl=120)
    assert not shared_rig.machine.cpu.f & 1            # paid
    assert g.level(3) == 0 and g.level(1) == 1 and g.mortgaged(5)
    assert g.cash(1) == 10 + 25 + 100 - 120
    g.check()


def test_human_raising_refusals_then_the_computer_chooses(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 1, houses=1)
    g.own(3, 1, houses=1)
    g.own(6, 0)
    g.set_cash(1, 0)
    keys = (*[RIGHT] * 6, "ENTER",                  # The Angel is not the payer's
            RIGHT, "ENTER",                         # Old Kent Road: its group is built: sell
            "Q")                                    # the computer chooses the rest
    shared_rig.call("bank_pay", budget=BUDGET, keys=keys, a=1, c=0, hl=60)
    assert g.level(1) == 0 and g.level(3) == 0 and g.mortgaged(1)
    assert g.cash(1) == 25 + 25 + 30 - 60 and g.cash(0) == 1560
    g.check()


def test_a51_human_pays_rent_part_in_property(shared_rig):
    """Booklet A "Miscellaneous": short of rent, the payer offers the creditor a property at a
    value they agree; it comes off the debt and the rest is paid in cash."""
    g = Estate(shared_rig)
    g.own(5, 1)                                     # King's Cross
    g.set_cash(1, 30)
    keys = (*[RIGHT] * 5, "P", "1", "0", "0", "ENTER",  # offered for £100 of the £120
            "Y")                                    # player 1 agrees
    shared_rig.call("bank_pay", budget=BUDGET, keys=keys, a=1, c=0, hl=120)
    assert not shared_rig.machine.cpu.f & 1            # paid
    assert g.owner(5) == 0 and not g.mortgaged(5)
    assert g.cash(1) == 30 - 20 and g.cash(0) == 1500 + 20
    assert shared_rig.peek16("bank_amount") == 20      # the cash part
    g.check()


def test_a51_the_creditor_may_refuse_and_the_value_is_at_most_the_debt(shared_rig):
    g = Estate(shared_rig)
    g.own(5, 1)
    g.own(6, 1)
    g.set_cash(1, 10)
    keys = (*[RIGHT] * 5, "P", "2", "0", "0", "ENTER",  # more than the £60 owed: refused,
            "5", "0", "ENTER",                      # asked again: £50
            "N",                                    # player 1 says no
            RIGHT, "P", "ENTER",                    # The Angel: ENTER alone, no offer
            "ENTER")                                # The Angel mortgaged: £50
    shared_rig.call("bank_pay", budget=BUDGET, keys=keys, a=1, c=0, hl=60)
    assert not shared_rig.machine.cpu.f & 1
    assert g.owner(5) == 1 and g.owner(6) == 1 and g.mortgaged(6) and not g.mortgaged(5)
    assert g.cash(1) == 0 and g.cash(0) == 1500 + 60
    g.check()


def test_a51_a_computer_creditor_judges_the_offer(shared_rig):
    """A computer creditor takes a property worth more to it than the debt it forgoes (and,
    mortgaged, the 10 % it pays at once), and declines one that is not."""
    g = Estate(shared_rig, computers=(0,))
    g.own(5, 1, mortgaged=True)                     # worth £100 to a computer: half price
    g.own(15, 1)                                    # Marylebone, £200
    g.set_cash(1, 0)
    keys = (*[RIGHT] * 5, "P", "1", "0", "0", "ENTER",  # mortgaged King's Cross for £100: no
            *[RIGHT] * 10, "P", "1", "0", "0", "ENTER")  # Marylebone for £100: taken
    shared_rig.call("bank_pay", budget=BUDGET, keys=keys, a=1, c=0, hl=100)
    assert not shared_rig.machine.cpu.f & 1
    assert g.owner(5) == 1 and g.owner(15) == 0
    assert g.cash(1) == 0 and g.cash(0) == 1500
    g.check()


def test_a51_only_a_debt_to_a_player_is_paid_in_property(shared_rig):
    g = Estate(shared_rig)
    g.own(5, 1)
    g.set_cash(1, 0)
    keys = (*[RIGHT] * 5, "P", "ENTER")             # P means nothing when owing the Bank
    shared_rig.call("bank_pay", budget=BUDGET, keys=keys, a=1, c=0xFF, hl=60)
    assert not shared_rig.machine.cpu.f & 1
    assert g.owner(5) == 1 and g.mortgaged(5) and g.cash(1) == 40
    g.check()


def test_human_with_nothing_left_goes_bankrupt(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 1, mortgaged=True)
    g.set_cash(1, 10)
    shared_rig.call("bank_pay", budget=BUDGET, keys=("ENTER",), a=1, c=0xFF, hl=100)  # no bids
    assert shared_rig.machine.cpu.f & 1 and g.flags(1) & g.mask("PF_BANKRUPT")
    g.check()
