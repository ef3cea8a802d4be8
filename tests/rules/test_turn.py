"""Turns: who starts, order, dice, doubles, GO, rent claims, tax, Free Parking, jail (A6-A37)."""

from __future__ import annotations

import pytest

from tests.rules.helpers import check_invariants, game, own, refused
from zxmonopoly.rules import (
    build,
    buy,
    claim_rent,
    declare_bankrupt,
    decline,
    end_turn,
    first_player_round,
    pay_fine,
    throw,
    trade,
    use_jail_card,
)
from zxmonopoly.rules.data import JAIL_SQUARE


def at(g, square, player=None):
    """Put the current (or given) player's token on a square."""
    g.players[g.current if player is None else player].square = square
    return g


# Who starts, turn order (A2, A6, A7)


def test_a2_two_to_six_players():
    for n in (2, 6):
        assert len(game(n).players) == n
    for n in (1, 7):
        with pytest.raises(Exception, match="2-6"):
            game(n)


def test_a6_highest_throw_starts():
    assert first_player_round({0: 7, 1: 11, 2: 5}) == [1]


def test_a6_booklet_c_ties_for_the_highest_throw_again():
    assert first_player_round({0: 9, 1: 4, 2: 9}) == [0, 2]


def test_a7_play_passes_in_the_order_names_were_entered_skipping_the_bankrupt():
    g = game(4)
    order = []
    g.players[2].bankrupt = True
    for _ in range(4):
        order.append(g.current)
        g.players[g.current].square = 20
        throw(g, 1, 2)  # Free Parking -> 23 Fleet Street, declined without bids
        decline(g)
        end_turn(g)
    assert order == [0, 1, 3, 0]


# Movement and doubles (A8, A9)


def test_a8_token_moves_forward_by_the_dice_total():
    g = at(game(), 20)
    throw(g, 3, 4)
    assert g.players[0].square == 27 and g.offer == 27


def test_a8_several_tokens_may_share_a_square():
    g = game(3)
    for _ in range(3):
        at(g, 20)
        throw(g, 1, 2)
        decline(g)
        end_turn(g)
    assert [p.square for p in g.players] == [23, 23, 23]


def test_a9_doubles_throw_again():
    g = at(game(), 20)
    throw(g, 2, 2)
    decline(g)
    assert g.to_throw and g.doubles == 1
    assert refused(g, lambda: end_turn(g))


def test_a9_no_double_no_second_throw():
    g = at(game(), 20)
    throw(g, 2, 3)
    decline(g)
    assert not g.to_throw
    assert refused(g, lambda: throw(g, 1, 2))
    end_turn(g)
    assert g.current == 1


def test_a9_three_doubles_go_to_jail_without_moving_and_the_turn_ends():
    g = at(game(), 20)
    throw(g, 1, 1)  # 22 Chance: first card CH01 "Advance to Go" -> 0 with salary
    throw(g, 2, 2)  # 0 -> 4 Income Tax
    cash = g.players[0].cash
    throw(g, 3, 3)
    p = g.players[0]
    assert p.square == JAIL_SQUARE and p.in_jail and not g.to_throw and p.cash == cash
    end_turn(g)
    assert g.current == 1 and g.doubles == 0


def test_a9_doubles_count_restarts_each_turn():
    g = at(game(), 20)
    throw(g, 5, 5)  # 30 Go To Jail: the turn ends
    assert g.players[0].in_jail and g.doubles == 0


# GO salary (A10-A12)


def test_a10_passing_go_pays_200():
    g = at(game(), 38)
    throw(g, 1, 2)  # 38 -> 1 Old Kent Road
    assert g.players[0].cash == 1700 and g.players[0].square == 1


def test_a10_landing_on_go_pays_200():
    g = at(game(), 35)
    throw(g, 2, 3)
    assert g.players[0].cash == 1700 and g.players[0].square == 0


def test_a10_the_start_on_go_pays_nothing():
    g = game()
    throw(g, 1, 2)
    assert g.players[0].cash == 1500


def test_a11_two_salaries_in_one_move_pass_go_then_advance_to_go():
    g = at(game(), 38)  # Chance pack in printed order: CH01 "Advance to Go" on top
    throw(g, 4, 5)  # passes GO, lands on Chance 7, advances to GO
    assert g.players[0].square == 0 and g.players[0].cash == 1900


def test_a12_no_salary_when_sent_to_jail_from_go_to_jail():
    g = at(game(), 27)
    throw(g, 1, 2)
    assert g.players[0].square == JAIL_SQUARE and g.players[0].cash == 1500


# Rent claims (A23, A26; B1.8)


def test_a23_owner_claims_rent_with_r_before_the_next_throw():
    g = game()
    own(g, 0, 3)
    g.current = 1
    throw(g, 1, 2)
    assert claim_rent(g, 0) == 4 and g.players[1].cash == 1496 and g.players[0].cash == 1504


def test_a23_rent_may_be_claimed_after_the_turn_ends_until_the_next_throw():
    g = game()
    own(g, 1, 3)
    throw(g, 1, 2)
    end_turn(g)
    assert claim_rent(g, 1) == 4


def test_a23_rent_not_claimed_before_the_next_throw_is_lost():
    g = game()
    own(g, 1, 3)
    throw(g, 1, 2)
    end_turn(g)
    g.players[1].square = 20
    throw(g, 1, 2)
    decline(g)
    assert refused(g, lambda: claim_rent(g, 1))
    assert g.players[0].cash == 1500


def test_a23_rent_lost_when_the_lander_throws_again_after_doubles():
    g = at(game(), 4)
    own(g, 1, 6)
    throw(g, 1, 1)  # 4 -> 6 The Angel, a double: rent due, and a throw to come
    assert g.rent_due is not None and g.rent_due.square == 6
    throw(g, 2, 3)  # 6 -> 11 Pall Mall: the rent on The Angel is gone
    decline(g)
    assert refused(g, lambda: claim_rent(g, 1))
    assert g.players[0].cash == 1500


def test_a23_only_the_owner_may_claim():
    g = game(3)
    own(g, 1, 3)
    throw(g, 1, 2)
    assert refused(g, lambda: claim_rent(g, 2))


def test_a23_no_rent_on_own_property():
    g = game()
    own(g, 0, 3)
    throw(g, 1, 2)
    assert g.rent_due is None and g.offer is None


# Tax, Free Parking, Just Visiting (A31, A32, A34)


@pytest.mark.parametrize("start,square,amount", [(1, 4, 200), (35, 38, 100)])
def test_a31_tax_is_paid_to_the_bank(start, square, amount):
    g = at(game(), start)
    throw(g, 1, 2)
    assert g.players[0].square == square and g.players[0].cash == 1500 - amount
    check_invariants(g)


def test_a32_free_parking_gives_and_takes_nothing():
    g = at(game(), 17)
    throw(g, 1, 2)
    assert g.players[0].square == 20 and g.players[0].cash == 1500
    assert g.offer is None and g.rent_due is None and not g.debts


def test_a34_landing_on_jail_is_just_visiting():
    g = at(game(), 7)
    throw(g, 1, 2)
    p = g.players[0]
    assert p.square == JAIL_SQUARE and not p.in_jail and p.cash == 1500
    end_turn(g)
    at(g, 17)
    throw(g, 1, 2)
    end_turn(g)
    throw(g, 1, 2)
    assert p.square == 13


# Jail (A33, A35-A37)


def jailed(turns: int = 0):
    g = game()
    p = g.players[0]
    p.square, p.in_jail, p.jail_turns = JAIL_SQUARE, True, turns
    return g


def test_a33_go_to_jail_square_ends_the_turn_even_after_a_double():
    g = at(game(), 26)
    throw(g, 2, 2)
    assert g.players[0].in_jail and not g.to_throw


def test_a35a_doubles_in_jail_move_by_that_throw_and_throw_again():
    g = jailed()
    throw(g, 3, 3)
    p = g.players[0]
    assert not p.in_jail and p.square == 16 and g.to_throw and p.cash == 1500


def test_a35a_no_double_stays_in_jail_and_the_turn_ends():
    g = jailed()
    throw(g, 1, 2)
    p = g.players[0]
    assert p.in_jail and p.square == JAIL_SQUARE and p.jail_turns == 1 and not g.to_throw


def test_a35b_get_out_of_jail_free_card_then_throw():
    g = jailed()
    g.players[0].jail_cards.append("CH16")
    g.decks["chance"].remove("CH16")
    use_jail_card(g)
    assert not g.players[0].in_jail and g.decks["chance"][-1] == "CH16"
    throw(g, 1, 2)
    assert g.players[0].square == 13 and g.players[0].cash == 1500


def test_a35b_the_chance_card_goes_first_when_both_are_held():
    g = jailed()
    for card, deck in (("CC15", "chest"), ("CH16", "chance")):
        g.players[0].jail_cards.append(card)
        g.decks[deck].remove(card)
    use_jail_card(g)
    assert g.players[0].jail_cards == ["CC15"] and g.decks["chance"][-1] == "CH16"


def test_a35b_no_card_no_use():
    g = jailed()
    assert refused(g, lambda: use_jail_card(g))


@pytest.mark.parametrize("turns", [0, 1])
def test_a35c_a36_fine_before_throwing_on_the_next_or_succeeding_turn(turns):
    g = jailed(turns)
    pay_fine(g)
    assert not g.players[0].in_jail and g.players[0].cash == 1450
    throw(g, 1, 2)
    assert g.players[0].square == 13


def test_a36_booklet_no_voluntary_fine_on_the_third_turn():
    g = jailed(2)
    assert refused(g, lambda: pay_fine(g))


def test_a35c_no_fine_after_throwing():
    g = jailed()
    throw(g, 1, 2)
    assert refused(g, lambda: pay_fine(g))


def test_a35d_third_failed_throw_pays_50_and_moves_by_it():
    g = jailed(2)
    throw(g, 1, 2)
    p = g.players[0]
    assert not p.in_jail and p.square == 13 and p.cash == 1450 and not g.to_throw


def test_a35d_booklet_three_turns_in_jail_at_most():
    g = jailed()
    for turn in range(3):
        g.current, g.to_throw = 0, True
        throw(g, 1, 2)
        assert g.players[0].in_jail == (turn < 2)
    assert g.players[0].cash == 1450


def test_a35d_third_turn_double_goes_free():
    g = jailed(2)
    throw(g, 2, 2)
    assert not g.players[0].in_jail and g.players[0].cash == 1500 and g.to_throw


def test_a35d_fine_owed_when_cash_is_short_becomes_a_debt():
    g = jailed(2)
    g.bank += g.players[0].cash - 20
    g.players[0].cash = 20
    throw(g, 1, 2)
    assert g.debts and g.debts[0].amount == 50 and g.debts[0].creditor is None
    assert refused(g, lambda: end_turn(g))


def test_a37_a_jailed_player_may_buy_houses_trade_and_collect_rent():
    g = jailed()
    own(g, 0, 37, 39, 5)
    g.current = 1
    build(g, 0, 39)
    trade(g, 0, 1, 5, cash=150)
    at(g, 34)
    throw(g, 2, 3)
    assert claim_rent(g, 0) == 200


def test_bankrupt_current_player_passes_the_turn():
    g = game(3)
    g.players[0].cash, g.bank = 0, g.bank + 1500
    at(g, 1)
    throw(g, 1, 2)  # Income Tax with no money: a debt to the Bank
    declare_bankrupt(g, 0)
    assert g.current == 1 and g.to_throw and g.players[0].bankrupt
    check_invariants(g)


def test_buy_after_landing():
    g = at(game(), 36)
    throw(g, 1, 2)
    buy(g)
    assert g.holdings[39].owner == 0 and g.players[0].cash == 1100


def test_a33_go_to_jail_card_after_a_double_ends_the_turn():
    g = at(game(chance=["CH02"] + [f"CH{i:02d}" for i in range(1, 17) if i != 2]), 5)
    throw(g, 1, 1)
    assert g.players[0].in_jail and not g.to_throw and g.players[0].cash == 1500


def test_a23_rent_is_reckoned_when_claimed():
    """The computer "checks for property sets and mortgaged properties" when R is pressed."""
    g = game()
    own(g, 1, 37, 39)
    at(g, 34)
    throw(g, 2, 3)
    build(g, 1, 39)  # "Houses ... may be bought ... at any time" (booklet C)
    assert claim_rent(g, 1) == 200
