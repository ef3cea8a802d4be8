"""Buying, auctions, houses and hotels, mortgages, trades, bankruptcy, valuation (A14-A67)."""

from __future__ import annotations

import pytest

from tests.rules.helpers import check_invariants, game, group, own, refused, set_houses
from zxmonopoly.rules import (
    BANK,
    HOTEL,
    auction,
    build,
    buy,
    charge,
    deal_short_game,
    declare_bankrupt,
    decline,
    interest,
    mortgage,
    pay_debts,
    pay_in_kind,
    raisable,
    richest,
    sell_building,
    sell_group_buildings,
    sell_jail_card,
    shortage_auction_needed,
    throw,
    trade,
    unmortgage,
    winner,
    winning_bid,
    worth,
)
from zxmonopoly.rules.data import SQUARES


def offered(square: int, players: int = 3):
    """A game where player 0 has just landed on an unowned ``square`` (from 3 squares before)."""
    g = game(players)
    g.players[0].square = square - 3
    throw(g, 1, 2)
    assert g.offer == square
    return g


# Buying and auctions (A14-A20)


def test_a14_buy_at_the_printed_price():
    g = offered(39)
    buy(g)
    assert g.holdings[39].owner == 0 and g.players[0].cash == 1100 and g.offer is None
    check_invariants(g)


def test_a14_a50_cannot_buy_without_the_cash():
    g = offered(39)
    g.bank += 1500 - 399
    g.players[0].cash = 399
    assert refused(g, lambda: buy(g))


def test_a14_a15_declined_property_is_auctioned_at_once_and_the_decliner_may_bid():
    g = offered(39)
    assert decline(g, [(1, 10), (0, 300), (2, 350), (0, 360)]) == (0, 360)
    assert g.holdings[39].owner == 0 and g.players[0].cash == 1140 and g.offer is None
    check_invariants(g)


def test_a16_bidding_may_start_at_any_price():
    g = offered(39)
    assert decline(g, [(1, 1)]) == (1, 1)
    assert g.players[1].cash == 1499


def test_a17_no_bids_the_property_stays_with_the_bank():
    g = offered(39)
    assert decline(g, []) is None
    assert g.holdings[39].owner is None and g.offer is None


def test_a19_equal_bid_does_not_beat_the_first():
    assert winning_bid(game(3), [(1, 100), (2, 100)]) == (1, 100)


def test_a19_booklet_c_bid_beyond_the_bidders_assets_voids_the_auction():
    g = offered(39)
    own(g, 1, 37)  # assets: 1500 cash + 350 Park Lane
    assert winning_bid(g, [(1, 1850)]) == (1, 1850)
    assert decline(g, [(2, 200), (1, 1851)]) is None
    assert g.holdings[39].owner is None and g.players[2].cash == 1500


def test_a19_winner_short_of_cash_owes_the_bank():
    g = offered(39)
    own(g, 1, 37)
    decline(g, [(1, 1600)])
    assert g.holdings[39].owner == 1 and g.debts[0].amount == 1600


def test_a20_property_the_bank_receives_is_auctioned():
    g = game(3)
    own(g, 0, 39)
    charge(g, 0, BANK, 5000)
    deeds = declare_bankrupt(g, 0)
    assert deeds == [39]
    assert auction(g, 39, [(1, 250), (2, 260)]) == (2, 260)
    assert g.holdings[39].owner == 2
    check_invariants(g)


def test_a20_only_what_the_bank_holds_is_auctioned():
    g = game()
    own(g, 0, 39)
    assert refused(g, lambda: auction(g, 39, [(1, 500)]))
    assert refused(g, lambda: auction(g, 0, [(1, 500)]))


# Houses and hotels (A38-A45)


def test_a38_houses_only_on_a_complete_colour_group():
    g = game()
    own(g, 0, 37)
    own(g, 1, 39)
    assert refused(g, lambda: build(g, 0, 37))
    assert refused(g, lambda: build(g, 0, 5))  # a station
    assert refused(g, lambda: build(g, 1, 37))  # not the builder's


def test_a42_a_house_costs_the_price_on_the_deed():
    for name, cost in (("brown", 50), ("pink", 100), ("red", 150), ("dark_blue", 200)):
        g = game()
        site = group(g, 0, name)[0]
        build(g, 0, site)
        assert g.players[0].cash == 1500 - cost and g.holdings[site].houses == 1
        check_invariants(g)


def test_a39_no_building_while_a_site_of_the_group_is_mortgaged():
    g = game()
    group(g, 0, "dark_blue")
    g.holdings[37].mortgaged = True
    assert refused(g, lambda: build(g, 0, 39))


def test_a40_build_evenly():
    g = game()
    group(g, 0, "light_blue")
    build(g, 0, 6)
    assert refused(g, lambda: build(g, 0, 6))
    build(g, 0, 8)
    build(g, 0, 9)
    build(g, 0, 6)
    assert [g.holdings[s].houses for s in (6, 8, 9)] == [2, 1, 1]
    check_invariants(g)


def test_a40_booklet_no_three_houses_beside_one():
    g = game()
    group(g, 0, "light_blue", houses=2)
    set_houses(g, 6, 3)
    set_houses(g, 8, 1)
    assert refused(g, lambda: build(g, 0, 6))


def test_a40_at_most_four_houses_then_a_hotel():
    g = game()
    group(g, 0, "dark_blue", houses=4)
    build(g, 0, 37)
    assert g.holdings[37].houses == HOTEL
    build(g, 0, 39)
    assert refused(g, lambda: build(g, 0, 39))  # one hotel per site


def test_a43_hotel_needs_four_houses_on_every_site_and_returns_them():
    g = game()
    group(g, 0, "brown", houses=4)
    houses_before = g.houses
    build(g, 0, 1)
    assert g.holdings[1].houses == HOTEL and g.houses == houses_before + 4 and g.hotels == 11
    assert g.players[0].cash == 1450
    check_invariants(g)


def test_a43_no_hotel_beside_three_houses():
    g = game()
    group(g, 0, "brown", houses=4)
    set_houses(g, 3, 3)
    assert refused(g, lambda: build(g, 0, 1))


def test_a44_no_houses_in_the_bank_means_wait():
    g = game()
    group(g, 0, "brown")
    g.houses = 0
    assert refused(g, lambda: build(g, 0, 1))


def test_a44_no_hotels_in_the_bank():
    g = game()
    group(g, 0, "brown", houses=4)
    g.hotels = 0
    assert refused(g, lambda: build(g, 0, 1))


@pytest.mark.parametrize("stock,wanted,needed", [
    (3, {0: 2, 1: 2}, True), (4, {0: 2, 1: 2}, False), (3, {0: 5}, False),
    (0, {0: 1, 1: 1}, False), (3, {0: 2, 1: 0, 2: 2}, True)])
def test_a44_house_shortage_auction_when_two_or_more_want_more_than_the_bank_has(
        stock, wanted, needed):
    g = game(3)
    g.houses = stock
    assert shortage_auction_needed(g, wanted) is needed


def test_a44_hotel_shortage_auction():
    g = game(3)
    g.hotels = 1
    assert shortage_auction_needed(g, {0: 1, 2: 1}, hotels=True)


def test_a44_booklet_c_shortage_auction_winner_builds_at_the_bid():
    g = game(3)
    group(g, 0, "brown")
    group(g, 1, "dark_blue")
    g.houses = 1
    assert shortage_auction_needed(g, {0: 1, 1: 2})
    bidder, price = winning_bid(g, [(0, 60), (1, 210)])
    build(g, bidder, 37, price=price)
    assert g.players[1].cash == 1290 and g.houses == 0
    assert refused(g, lambda: build(g, 0, 1))


def test_a45_houses_sell_back_at_half_price():
    g = game()
    group(g, 0, "green", houses=1)
    sell_building(g, 0, 31)
    assert g.players[0].cash == 1600 and g.holdings[31].houses == 0
    check_invariants(g)


def test_a40_sell_evenly():
    g = game()
    group(g, 0, "green", houses=1)
    set_houses(g, 31, 2)
    assert refused(g, lambda: sell_building(g, 0, 32))
    sell_building(g, 0, 31)


def test_a45_hotel_sells_back_to_four_houses_for_half_its_price():
    g = game()
    group(g, 0, "dark_blue", houses=HOTEL)
    sell_building(g, 0, 39)
    assert g.holdings[39].houses == 4 and g.players[0].cash == 1600 and g.hotels == 11
    check_invariants(g)


def test_a45_hotel_cannot_break_into_houses_the_bank_lacks():
    g = game()
    group(g, 0, "dark_blue", houses=HOTEL)
    g.houses = 3
    assert refused(g, lambda: sell_building(g, 0, 39))


def test_a45_booklet_hotel_pays_half_its_price_plus_half_of_four_houses():
    g = game()
    group(g, 0, "dark_blue", houses=HOTEL)
    for name in ("red", "yellow", "brown"):
        group(g, 1, name, houses=4)  # all 32 houses on the board
    assert g.houses == 0 and refused(g, lambda: sell_building(g, 0, 39))
    proceeds = sell_group_buildings(g, 0, "dark_blue")
    assert proceeds == 2 * (200 // 2 + 4 * 200 // 2) and g.players[0].cash == 1500 + proceeds
    assert g.hotels == 12 and g.houses == 0
    check_invariants(g)


def test_a45_group_sale_of_houses():
    g = game()
    group(g, 0, "orange", houses=3)
    assert sell_group_buildings(g, 0, "orange") == 9 * 50
    assert refused(g, lambda: sell_group_buildings(g, 0, "orange"))


# Mortgages (A52-A56)


def test_a52_mortgage_pays_half_the_printed_price():
    g = game()
    own(g, 0, 39, 12)
    mortgage(g, 0, 39)
    mortgage(g, 0, 12)
    assert g.players[0].cash == 1500 + 200 + 75
    assert refused(g, lambda: mortgage(g, 0, 39))
    check_invariants(g)


def test_a52_buildings_on_the_site_must_be_sold_first():
    g = game()
    group(g, 0, "brown", houses=1)
    assert refused(g, lambda: mortgage(g, 0, 1))
    sell_building(g, 0, 1)
    mortgage(g, 0, 1)  # booklet: the buildings "on the Site"; Whitechapel keeps its house
    assert g.holdings[3].houses == 1
    check_invariants(g)


def test_a53_lifting_costs_the_mortgage_plus_10_percent():
    g = game()
    own(g, 0, 39, mortgaged=True)
    unmortgage(g, 0, 39)
    assert g.players[0].cash == 1500 - 220 and not g.holdings[39].mortgaged


@pytest.mark.parametrize("square,due", [(12, 8), (37, 18), (1, 3), (39, 20)])
def test_a53_interest_rounds_up_to_whole_pounds(square, due):
    assert interest(square) == due


def test_a55_only_the_owner_lifts_a_mortgage():
    g = game()
    own(g, 0, 39, mortgaged=True)
    assert refused(g, lambda: unmortgage(g, 1, 39))


def test_a56_rebuild_after_lifting_at_full_price():
    g = game()
    group(g, 0, "brown")
    g.holdings[1].mortgaged = True
    assert refused(g, lambda: build(g, 0, 3))
    unmortgage(g, 0, 1)
    build(g, 0, 3)
    assert g.players[0].cash == 1500 - 33 - 50


# Trading (A46-A51, A54)


def test_a46_a49_one_property_for_properties_and_cash():
    g = game()
    own(g, 0, 39)
    own(g, 1, 5, 15)
    trade(g, 0, 1, 39, [5, 15], cash=100)
    assert g.holdings[39].owner == 1 and g.holdings[5].owner == g.holdings[15].owner == 0
    assert g.players[0].cash == 1600 and g.players[1].cash == 1400
    check_invariants(g)


def test_a46_sale_for_cash_either_way():
    g = game()
    own(g, 0, 39)
    trade(g, 0, 1, 39, cash=1000)
    assert g.holdings[39].owner == 1 and g.players[0].cash == 2500
    own(g, 0, 37)
    trade(g, 0, 1, 37, cash=-20)  # the cash balance may go to either player
    assert g.players[0].cash == 2480


def test_a47_no_site_sold_while_its_group_has_buildings():
    g = game()
    group(g, 0, "brown", houses=1)
    set_houses(g, 3, 0)
    assert refused(g, lambda: trade(g, 0, 1, 3, cash=100))
    own(g, 1, 5)
    assert refused(g, lambda: trade(g, 1, 0, 5, [3]))


def test_a50_no_borrowing_the_cash_must_be_there():
    g = game()
    own(g, 0, 39)
    assert refused(g, lambda: trade(g, 0, 1, 39, cash=1501))


def test_a48_a54_mortgaged_property_sold_new_owner_pays_10_percent_now():
    g = game()
    own(g, 0, 39, mortgaged=True)
    trade(g, 0, 1, 39, cash=50)
    assert g.holdings[39].mortgaged and g.players[1].cash == 1500 - 50 - 20
    unmortgage(g, 1, 39)  # later: principal plus another 10%
    assert g.players[1].cash == 1500 - 50 - 20 - 220
    check_invariants(g)


def test_a54_new_owner_may_lift_at_once_paying_principal_and_10_percent():
    g = game()
    own(g, 0, 39, mortgaged=True)
    trade(g, 0, 1, 39, cash=50, lift={39})
    assert not g.holdings[39].mortgaged and g.players[1].cash == 1500 - 50 - 220


def test_a54_refused_when_the_new_owner_cannot_pay_the_interest():
    g = game()
    own(g, 0, 39, mortgaged=True)
    g.bank += 1500 - 60
    g.players[1].cash = 60
    assert refused(g, lambda: trade(g, 0, 1, 39, cash=50))


def test_a49_trade_needs_two_players_and_own_deeds():
    g = game()
    own(g, 0, 39)
    assert refused(g, lambda: trade(g, 0, 0, 39))
    assert refused(g, lambda: trade(g, 1, 0, 39))
    assert refused(g, lambda: trade(g, 0, 1, 39, [39]))


def test_a29_jail_card_sale_needs_the_buyers_cash():
    g = game()
    g.players[0].jail_cards.append("CC15")
    g.decks["chest"].remove("CC15")
    assert refused(g, lambda: sell_jail_card(g, 0, 1, "CC15", 1501))


def test_a51_rent_paid_part_in_cash_part_in_property():
    g = game()
    own(g, 0, 39)
    own(g, 1, 1, 3)
    g.bank += g.players[1].cash - 100
    g.players[1].cash = 100
    charge(g, 1, 0, 2000)
    assert g.debts
    pay_in_kind(g, 1, [1, 3], cash=100)
    assert not g.debts and g.holdings[1].owner == g.holdings[3].owner == 0
    assert g.players[0].cash == 1600
    check_invariants(g)


def test_a51_only_debts_to_players_are_paid_in_kind():
    g = game()
    own(g, 1, 1)
    g.bank += g.players[1].cash
    g.players[1].cash = 0
    charge(g, 1, BANK, 200)
    assert refused(g, lambda: pay_in_kind(g, 1, [1]))


# Debts and bankruptcy (A57-A60)


def test_debt_paid_once_money_is_raised():
    g = game()
    own(g, 1, 39)
    g.bank += g.players[1].cash
    g.players[1].cash = 0
    charge(g, 1, 0, 150)
    assert refused(g, lambda: declare_bankrupt(g, 1))  # can still mortgage Mayfair
    mortgage(g, 1, 39)
    assert pay_debts(g, 1) == 0 and g.players[0].cash == 1650 and g.players[1].cash == 50
    check_invariants(g)


def test_a57_bankrupt_to_a_player_creditor_gets_everything():
    g = game(3)
    group(g, 1, "dark_blue", houses=2)
    own(g, 1, 5, mortgaged=True)
    g.players[1].jail_cards.append("CH16")
    g.decks["chance"].remove("CH16")
    assert raisable(g, 1) == 1500 + 4 * 100 + 175 + 200
    charge(g, 1, 0, 5000)
    declare_bankrupt(g, 1)
    p0 = g.players[0]
    assert p0.cash == 1500 + 1500 + 4 * 100 - 10  # cash + buildings at half - 10% on Kings X
    assert all(g.holdings[s].owner == 0 for s in (5, 37, 39)) and g.holdings[5].mortgaged
    assert g.houses == 32 and p0.jail_cards == ["CH16"] and g.players[1].bankrupt
    check_invariants(g)


def test_a57_creditor_may_lift_the_mortgages_at_once():
    g = game()
    own(g, 1, 5, mortgaged=True)
    charge(g, 1, 0, 5000)
    declare_bankrupt(g, 1, lift={5})
    assert not g.holdings[5].mortgaged and g.players[0].cash == 3000 - 110


def test_a58_a59_bankrupt_to_the_bank_auctions_deeds_buildings_back_cards_to_packs():
    g = game(3)
    group(g, 1, "dark_blue", houses=HOTEL)
    own(g, 1, 5, mortgaged=True)
    g.players[1].jail_cards.append("CC15")
    g.decks["chest"].remove("CC15")
    charge(g, 1, BANK, 9000)
    deeds = declare_bankrupt(g, 1)
    assert deeds == [5, 37, 39]
    assert all(g.holdings[s].owner is None and not g.holdings[s].mortgaged for s in deeds)
    assert g.hotels == 12 and g.decks["chest"][-1] == "CC15"
    assert g.players[0].cash == g.players[2].cash == 1500
    check_invariants(g)


def test_a57_a58_not_bankrupt_while_the_money_can_be_raised():
    g = game()
    group(g, 1, "brown", houses=1)
    charge(g, 1, BANK, 1600)
    assert refused(g, lambda: declare_bankrupt(g, 1))
    assert refused(g, lambda: declare_bankrupt(g, 0))  # owes nothing


def test_a60_the_last_player_left_wins():
    g = game(3)
    assert winner(g) is None
    for p in (0, 2):
        charge(g, p, BANK, 9999)
        declare_bankrupt(g, p)
    assert winner(g) == 1


# Valuation and the short game (A63, A64, A67)


def test_a63_valuation_cash_deeds_mortgaged_half_houses_at_cost_hotels_five_houses():
    g = game()
    group(g, 0, "dark_blue", houses=4)
    set_houses(g, 39, HOTEL)
    own(g, 0, 5, mortgaged=True)
    assert worth(g, 0) == 1500 + 350 + 400 + 4 * 200 + 5 * 200 + 100


def test_a63_short_game_deals_two_deeds_each_paid_at_once():
    g = game(3)
    deal_short_game(g, [39, 1, 5, 12, 37, 3, 6])
    assert [g.holdings[s].owner for s in (39, 1, 5, 12, 37, 3)] == [0, 1, 2, 0, 1, 2]
    assert [p.cash for p in g.players] == [1500 - 550, 1500 - 410, 1500 - 260]
    assert g.holdings[6].owner is None
    check_invariants(g)


def test_a63_short_game_deal_needs_two_free_deeds_each():
    g = game(3)
    assert refused(g, lambda: deal_short_game(g, [39, 1, 5, 12, 37]))
    assert refused(g, lambda: deal_short_game(g, [39, 39, 5, 12, 37, 3]))
    assert refused(g, lambda: deal_short_game(g, [0, 1, 5, 12, 37, 3]))


def test_a64_a67_richest_player_wins_at_time_up_or_caps_shift_space():
    g = game(3)
    own(g, 2, 39)
    assert richest(g) == [2]
    own(g, 1, 37)
    g.players[1].cash += 50
    g.bank -= 50
    assert richest(g) == [1, 2]


def test_short_names_fit_the_deeds():
    assert all(len(sq.short) <= 21 for sq in SQUARES)


def test_a4_the_bank_never_goes_bankrupt():
    g = game(6)
    assert g.bank == -6 * 1500  # it has paid out every starting fortune and can pay more
    for p in range(6):
        own(g, p, *[s for s in g.holdings if g.holdings[s].owner is None][:4])
        for s in [s for s, h in g.holdings.items() if h.owner == p]:
            mortgage(g, p, s)
    assert g.bank < -9000
    check_invariants(g)


def test_a41_booklet_c_houses_bought_and_sold_at_any_time_not_only_in_ones_turn():
    g = game(3)
    group(g, 2, "pink")
    assert g.current == 0
    build(g, 2, 11)
    sell_building(g, 2, 11)
    assert g.players[2].cash == 1450


def test_a57_debts_owed_to_the_bankrupt_pass_to_the_creditor():
    g = game(3)
    for p in (1, 2):
        g.bank += g.players[p].cash
        g.players[p].cash = 0
    g.players[0].cash, g.bank = 0, g.bank + 1500
    charge(g, 2, 1, 30)  # player 2 owes the bankrupt-to-be
    charge(g, 0, 1, 20)  # and so does the creditor: that debt lapses
    charge(g, 1, 0, 100)
    assert len(g.debts) == 3
    declare_bankrupt(g, 1)
    assert [(d.debtor, d.creditor, d.amount) for d in g.debts] == [(2, 0, 30)]
