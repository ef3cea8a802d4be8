"""The game's turn logic against the booklet: dice, GO, buying, auctions, rent, tax, jail, cards.

Each test calls the game's own Z80 routines (GameRig) on a state set up by poking the state
block, and checks the state block after; amounts come from the rules model's data.
"""

from __future__ import annotations

import random

import pytest

from tests.game.helpers import BUDGET, Game
from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST, SQUARES
from zxmonopoly.rules.rent import rent as model_rent
from zxmonopoly.rules.state import HOTEL, new_game


def test_packs_are_shuffled_permutations(shared_rig):
    g = Game(shared_rig)
    chance, chest = g.pack("chance"), g.pack("chest")
    assert sorted(chance) == list(range(16)) and sorted(chest) == list(range(16))
    assert chance != list(range(16)) and chest != chance
    shared_rig.poke16("v_seed", 999)
    shared_rig.call("cards_shuffle_all")
    assert g.pack("chance") != chance


def test_rent_matches_the_rules_model(shared_rig):
    g = Game(shared_rig, players=3)
    rng = random.Random(7)
    props = [sq.index for sq in SQUARES if sq.is_property]
    for _ in range(40):
        model = new_game(["a", "b", "c"])
        for s in props:
            owner = rng.choice([None, 0, 1, 1, 2])
            site = SQUARES[s].kind.name == "SITE"
            houses = rng.choice([0, 0, 0, 1, 2, 3, 4, HOTEL]) if site else 0
            mortgaged = owner is not None and houses == 0 and rng.random() < 0.2
            h = model.holdings[s]
            h.owner, h.houses, h.mortgaged = owner, (houses if owner is not None else 0), mortgaged
            g.own(s, h.owner, h.houses, h.mortgaged)
        for s in props:
            dice = rng.randint(2, 12)
            shared_rig.call("rent_amount", a=s, c=dice)
            assert shared_rig.machine.cpu.hl == model_rent(model, s, dice), SQUARES[s].name


def test_buying_a_property(shared_rig):
    g = Game(shared_rig)
    assert not g.throw(1, 2, ("y",))
    assert g.square(0) == 3 and g.owner(3) == 0 and g.cash(0) == 1500 - 60
    assert g.conserved()


def test_declined_property_is_auctioned_to_the_highest_bidder(shared_rig):
    g = Game(shared_rig)
    g.throw(2, 3, ("n", "2", "5", "5", "ENTER", "1", "6", "0", "ENTER", "ENTER"))
    assert g.owner(5) == 0 and g.cash(0) == 1500 - 60 and g.cash(1) == 1500
    assert g.conserved()


def test_a_bid_beyond_the_bidders_assets_voids_the_auction(shared_rig):
    g = Game(shared_rig)
    g.throw(2, 3, ("n", "2", "2", "0", "0", "0", "ENTER"))
    assert g.owner(5) is None and g.cash(1) == 1500 and "void" in g.messages()


def test_rent_claimed_with_r_before_the_next_throw(shared_rig):
    g = Game(shared_rig)
    g.own(3, 0)
    g.current(1)
    g.throw(1, 2)
    assert shared_rig.peek("v_rent_payer") == 1 and shared_rig.peek("v_rent_owner") == 0
    shared_rig.call("rent_claim")
    assert g.cash(0) == 1504 and g.cash(1) == 1496
    assert shared_rig.peek("v_rent_payer") == 0xFF
    assert g.conserved()


def test_rent_is_lost_after_the_next_throw(shared_rig):
    g = Game(shared_rig)
    g.own(3, 0)
    g.current(1)
    g.throw(1, 2)
    g.current(0)
    g.put(0, 20)
    g.own(24, 0)
    g.throw(1, 3)                     # to Trafalgar Square, player 1's own
    shared_rig.call("rent_claim")
    assert g.cash(1) == 1500 and "No rent" in g.messages()


def test_double_rent_on_a_whole_group_unless_mortgaged(shared_rig):
    g = Game(shared_rig)
    g.own(1, 0)
    g.own(3, 0)
    g.current(1)
    g.throw(1, 2)
    shared_rig.call("rent_claim")
    assert g.cash(1) == 1500 - 8
    g.own(1, 0, mortgaged=True)
    g.put(1, 0)
    g.throw(1, 2)
    shared_rig.call("rent_claim")
    assert g.cash(1) == 1500 - 8 - 4


def test_computer_owner_claims_at_once(shared_rig):
    g = Game(shared_rig, computers=(0,))
    g.own(3, 0, houses=2)
    g.current(1)
    g.throw(1, 2)
    assert g.cash(0) == 1560 and g.cash(1) == 1440
    assert shared_rig.peek("v_rent_payer") == 0xFF


def test_go_salary_when_passing(shared_rig):
    g = Game(shared_rig)
    g.put(0, 38)
    g.own(1, 1)
    g.throw(1, 2)
    assert g.square(0) == 1 and g.cash(0) == 1700
    assert g.conserved()


def test_income_tax(shared_rig):
    g = Game(shared_rig)
    g.throw(1, 3)
    assert g.cash(0) == 1300
    assert g.conserved()


def test_go_to_jail_square(shared_rig):
    g = Game(shared_rig)
    g.put(0, 25)
    g.own(25, 0)
    again = g.throw(2, 3)
    assert g.square(0) == 10 and g.in_jail(0) and not again and g.cash(0) == 1500


def test_three_doubles_go_to_jail(shared_rig):
    g = Game(shared_rig)
    g.own(13, 0)
    g.put(0, 11)
    assert g.throw(1, 1)              # a double: throw again
    assert shared_rig.peek("v_doubles") == 1
    shared_rig.poke("v_doubles", 2)
    again = g.throw(2, 2)
    assert not again and g.in_jail(0) and g.square(0) == 10


def test_jail_fine_paid_before_throwing(shared_rig):
    g = Game(shared_rig)
    g.put(0, 10)
    g.set_flags(0, "PF_PLAYING", "PF_IN_JAIL")
    g.own(13, 1)
    g.throw(1, 2, ("y",))
    assert not g.in_jail(0) and g.square(0) == 13 and g.cash(0) == 1450
    assert g.conserved()


def test_jail_double_gets_out_and_throws_again(shared_rig):
    g = Game(shared_rig)
    g.put(0, 10)
    g.set_flags(0, "PF_PLAYING", "PF_IN_JAIL")
    g.own(14, 1)
    again = g.throw(2, 2, ("n",))
    assert again and not g.in_jail(0) and g.square(0) == 14 and g.cash(0) == 1500


def test_third_failed_throw_pays_and_moves(shared_rig):
    g = Game(shared_rig)
    g.put(0, 10)
    g.set_flags(0, "PF_PLAYING", "PF_IN_JAIL")
    shared_rig.poke(shared_rig.player_address(1, "P_JAIL_TURNS"), 2)
    g.own(13, 1)
    again = g.throw(1, 2)
    assert not again and not g.in_jail(0) and g.square(0) == 13 and g.cash(0) == 1450
    assert g.conserved()


CHANCE_SQUARE_FROM = (4, 7)           # throw 1+2 from 4 lands on Chance at 7
CHEST_SQUARE_FROM = (14, 17)          # and from 14 on Community Chest at 17


def draw(g: Game, pack: str, card_id: str, keys: tuple[str, ...] = ()) -> None:
    """The current player (0) draws ``card_id`` from ``pack`` by a throw of 1+2."""
    g.top_card(pack, card_id)
    start, _ = CHANCE_SQUARE_FROM if pack == "chance" else CHEST_SQUARE_FROM
    g.put(0, start)
    g.throw(1, 2, keys)


@pytest.mark.parametrize("card", [c for c in CHANCE + COMMUNITY_CHEST
                                  if c.effect.name in ("PAY_BANK", "COLLECT_BANK")],
                         ids=lambda c: c.id)
def test_money_cards(shared_rig, card):
    g = Game(shared_rig)
    draw(g, "chance" if card.deck == "chance" else "chest", card.id)
    sign = -1 if card.effect.name == "PAY_BANK" else 1
    assert g.cash(0) == 1500 + sign * card.amount
    assert card.text.split()[0].strip('"') in g.messages()
    assert g.conserved()


@pytest.mark.parametrize("card", [c for c in CHANCE + COMMUNITY_CHEST
                                  if c.effect.name == "MOVE_TO"], ids=lambda c: c.id)
def test_advance_cards(shared_rig, card):
    g = Game(shared_rig)
    pack = "chance" if card.deck == "chance" else "chest"
    start = (CHANCE_SQUARE_FROM if pack == "chance" else CHEST_SQUARE_FROM)[1]
    g.own(card.dest, 0)
    draw(g, pack, card.id)
    passed_go = card.dest <= start
    assert g.square(0) == card.dest
    assert g.cash(0) == 1500 + (200 if passed_go and card.salary else 0)


def test_go_back_three_spaces_lands_on_income_tax(shared_rig):
    g = Game(shared_rig)
    draw(g, "chance", "CH07")
    assert g.square(0) == 4 and g.cash(0) == 1300


def test_go_back_to_old_kent_road_pays_no_salary(shared_rig):
    g = Game(shared_rig)
    g.own(1, 0)
    draw(g, "chest", "CC02")
    assert g.square(0) == 1 and g.cash(0) == 1500


@pytest.mark.parametrize("pack,card_id", [("chance", "CH02"), ("chest", "CC03")])
def test_go_to_jail_cards(shared_rig, pack, card_id):
    g = Game(shared_rig)
    draw(g, pack, card_id)
    assert g.square(0) == 10 and g.in_jail(0) and g.cash(0) == 1500


@pytest.mark.parametrize("card_id,bill", [("CH08", 2 * 25 + 100), ("CH09", 2 * 40 + 115)])
def test_repairs(shared_rig, card_id, bill):
    g = Game(shared_rig)
    g.own(1, 0, houses=2)
    g.own(3, 0, houses=HOTEL)
    g.own(6, 1, houses=3)
    draw(g, "chance", card_id)
    assert g.cash(0) == 1500 - bill
    assert g.conserved()


def test_birthday_collects_from_each_player(shared_rig):
    g = Game(shared_rig, players=3)
    draw(g, "chest", "CC14")
    assert (g.cash(0), g.cash(1), g.cash(2)) == (1520, 1490, 1490)
    assert g.conserved()


@pytest.mark.parametrize("pack,card_id,bit", [("chance", "CH16", 0), ("chest", "CC15", 1)])
def test_get_out_of_jail_free_is_kept_then_returned(shared_rig, pack, card_id, bit):
    g = Game(shared_rig)
    draw(g, pack, card_id)
    assert shared_rig.peek(shared_rig.player_address(1, "P_JAIL_CARDS")) == 1 << bit
    assert len(g.pack(pack)) == 15
    g.put(0, 10)
    g.set_flags(0, "PF_PLAYING", "PF_IN_JAIL")
    g.own(13, 0)
    g.throw(1, 2, ("y",))
    assert not g.in_jail(0) and g.square(0) == 13 and g.cash(0) == 1500
    assert shared_rig.peek(shared_rig.player_address(1, "P_JAIL_CARDS")) == 0
    assert len(g.pack(pack)) == 16


def test_fine_or_chance_paying_the_fine(shared_rig):
    g = Game(shared_rig)
    draw(g, "chest", "CC16", ("n",))
    assert g.cash(0) == 1490


def test_fine_or_chance_taking_a_chance(shared_rig):
    g = Game(shared_rig)
    g.top_card("chance", "CH15")
    draw(g, "chest", "CC16", ("y",))
    assert g.cash(0) == 1550
    assert g.conserved()


def test_mortgage_and_lift_with_interest(shared_rig):
    g = Game(shared_rig)
    g.own(39, 0)
    shared_rig.call("mortgage_toggle", a=39)
    assert g.mortgaged(39) and g.cash(0) == 1700
    shared_rig.call("mortgage_toggle", a=39)
    assert not g.mortgaged(39) and g.cash(0) == 1700 - 220
    assert g.conserved()


def test_short_payer_sells_houses_then_mortgages(shared_rig):
    g = Game(shared_rig, computers=(1,))           # (a computer chooses what to sell by itself)
    g.own(37, 1, houses=1)
    g.own(39, 1, houses=1)
    g.own(5, 1)
    g.own(1, 0, houses=HOTEL)
    g.own(3, 0, houses=HOTEL)
    g.set_cash(1, 20)
    g.current(1)
    g.put(1, 38)
    g.throw(2, 3)                     # GO +200 -> 220, Whitechapel with a hotel: 450
    shared_rig.call("rent_claim", budget=BUDGET)
    # two houses sold at 100 each (half of 200), then the smallest loan: King's Cross, 100
    assert g.cash(0) == 1500 + 450
    assert g.cash(1) == 220 + 200 + 100 - 450
    assert g.mortgaged(5) and g.byte(37) == 2 and g.byte(39) == 2
    assert shared_rig.peek("v_houses_left") == 32 + 2      # the two sold (the test poked them)
    assert g.conserved()


def test_bankrupt_to_a_player_hands_everything_over(shared_rig):
    g = Game(shared_rig)
    g.own(3, 0, houses=HOTEL)
    g.own(6, 1, mortgaged=True)
    shared_rig.poke(shared_rig.player_address(2, "P_JAIL_CARDS"), 1)
    g.set_cash(1, 100)
    g.current(1)
    g.throw(1, 2)
    shared_rig.call("rent_claim", budget=BUDGET)
    assert not g.flags(1) & g.mask("PF_PLAYING") and g.flags(1) & g.mask("PF_BANKRUPT")
    assert g.owner(6) == 0 and g.mortgaged(6)
    assert g.cash(1) == 0 and g.cash(0) == 1500 + 100 - 5      # + its cash, - 10 % of £50
    assert shared_rig.peek(shared_rig.player_address(1, "P_JAIL_CARDS")) == 1
    assert g.conserved()


def test_free_parking_jackpot_option(shared_rig):
    g = Game(shared_rig)
    shared_rig.poke("v_options", 1 << shared_rig.symbols["OPT_JACKPOT"])
    g.throw(1, 3)                     # Income Tax: £200 onto Free Parking
    assert g.cash(0) == 1300 and shared_rig.peek16("v_jackpot") == 200
    g.current(1)
    g.put(1, 17)
    g.throw(1, 2)                     # Free Parking
    assert g.cash(1) == 1700 and shared_rig.peek16("v_jackpot") == 0
    assert g.conserved()


def test_free_parking_pays_nothing_by_default(shared_rig):
    g = Game(shared_rig)
    g.throw(1, 3)
    g.current(1)
    g.put(1, 17)
    g.throw(1, 2)
    assert g.cash(1) == 1500 and shared_rig.peek16("v_jackpot") == 0
    assert g.conserved()


def test_no_auction_option_leaves_it_with_the_bank(shared_rig):
    g = Game(shared_rig)
    shared_rig.poke("v_options", 1 << shared_rig.symbols["OPT_NO_AUCTION"])
    g.throw(2, 3, ("n",))
    assert g.owner(5) is None and "stays with the Bank" in g.messages()


def test_bankrupt_to_the_bank_auctions_the_property_and_returns_the_cards(shared_rig):
    g = Game(shared_rig)
    g.own(6, 1, mortgaged=True)             # The Angel, Islington: auctioned unmortgaged
    g.own(39, 1, mortgaged=True)            # Mayfair: nothing left to raise money on
    chest_card = 1 << shared_rig.symbols["JC_CHEST"]
    shared_rig.poke(shared_rig.player_address(2, "P_JAIL_CARDS"), chest_card)
    shared_rig.poke("v_chest_count", 15)       # (the card is out of its pack while held)
    g.set_cash(1, 10)
    g.current(1)
    g.put(1, 1)
    # Income Tax (£200) bankrupts BOB, who has nothing left to sell or mortgage.
    g.throw(1, 2, ("1", "9", "0", "ENTER", "ENTER",      # The Angel to ANN for £90
                   "ENTER"))                            # Mayfair: no bids
    assert not g.flags(1) & g.mask("PF_PLAYING") and g.flags(1) & g.mask("PF_BANKRUPT")
    assert g.owner(6) == 0 and not g.mortgaged(6) and g.cash(0) == 1500 - 90
    assert g.owner(39) is None and not g.mortgaged(39)
    assert len(g.pack("chest")) == 16
    assert g.conserved()
