"""Trade (T) and retiring a player (X with OPT_RETIRE), against the booklet (part C "Trade",
A46-A50, A54) and the rules model (zxmonopoly.rules.estate.trade).

The trade dialogue is driven with keys as a user types them; after every action the
invariants of test_houses hold (money, the 32 houses and 12 hotels, even building).
"""

from __future__ import annotations

from tests.game.helpers import BUDGET, LEFT, RIGHT, Estate
from zxmonopoly.harness.rig import GameRig
from zxmonopoly.rules import estate
from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST
from zxmonopoly.rules.state import HOTEL


def take_jail_card(g: Estate, p: int, pack: str) -> None:
    """Player ``p`` draws and keeps ``pack``'s Get Out of Jail Free card (out of the pack)."""
    cards = CHANCE if pack == "chance" else COMMUNITY_CHEST
    card = [c.effect.name for c in cards].index("JAIL_FREE")
    rest = [c for c in g.pack(pack) if c != card]
    for n, c in enumerate(rest):
        g.r.poke(g.r.address(f"v_{pack}") + n, c)
    g.r.poke(f"v_{pack}_count", len(rest))
    bit = g.r.symbols["JC_CHANCE" if pack == "chance" else "JC_CHEST"]
    g.r.poke(g.r.player_address(p + 1, "P_JAIL_CARDS"), g.jail_cards(p) | 1 << bit)


def trade(shared_rig: GameRig, keys: tuple[str, ...]) -> None:
    shared_rig.call("trade_run", budget=BUDGET, keys=keys)


def test_trade_with_cash(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 0)
    g.own(6, 1)
    model = g.model()
    trade(shared_rig, ("1", "2",                     # player 1 trades with player 2
                    RIGHT, "ENTER",               # gives Old Kent Road
                    "y", *[RIGHT] * 5, "ENTER",   # wants The Angel, Islington (the cursor
                                                  # stays where it was: on Old Kent Road)
                    "n",                          # no more
                    "y", "1", "5", "0", "ENTER",  # £50 to player 1
                    "y"))                         # player 2 agrees
    estate.trade(model, 0, 1, 1, [6], cash=50)
    assert g.owner(1) == 1 and g.owner(6) == 0
    assert g.cash(0) == 1550 and g.cash(1) == 1450
    assert "done" in g.messages()
    g.same_as(model)
    g.check()


def test_trade_refused_by_the_other_player(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 0)
    g.own(6, 1)
    trade(shared_rig, ("1", "2", RIGHT, "ENTER", "y", *[RIGHT] * 5, "ENTER", "n", "n", "n"))
    assert g.owner(1) == 0 and g.owner(6) == 1 and "refused" in g.messages()
    g.check()


def test_mortgaged_property_traded_with_interest_and_lifted(shared_rig):
    g = Estate(shared_rig)
    g.own(39, 0, mortgaged=True)                  # Mayfair: loan £200, interest £20
    g.own(37, 1)
    model = g.model()
    trade(shared_rig, ("1", "2", LEFT, "ENTER",           # gives Mayfair (GO anticlockwise: 39)
                    "y", LEFT, LEFT, "ENTER",     # wants Park Lane (from Mayfair)
                    "n", "n",                     # no cash
                    "y",                          # agreed
                    "y"))                         # player 2 lifts the mortgage at once
    estate.trade(model, 0, 1, 39, [37], lift=[39])
    assert g.owner(39) == 1 and not g.mortgaged(39)
    assert g.cash(1) == 1500 - 20 - 200
    g.same_as(model)
    g.check()


def test_mortgaged_property_traded_and_kept_mortgaged(shared_rig):
    g = Estate(shared_rig)
    g.own(39, 0, mortgaged=True)
    g.own(37, 1)
    trade(shared_rig, ("1", "2", LEFT, "ENTER", "y", LEFT, LEFT, "ENTER", "n", "n", "y",
                    "n"))                         # not lifted: 10 % only
    assert g.owner(39) == 1 and g.mortgaged(39) and g.cash(1) == 1480
    g.check()
    shared_rig.call("mortgage_toggle", a=39)         # lifting later: the loan + 10 % again
    assert not g.mortgaged(39) and g.cash(1) == 1480 - 220
    g.check()


def test_trade_refused_while_the_group_has_buildings(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 0)
    g.own(3, 0, houses=1)
    g.own(6, 1)
    g.own(8, 1, houses=0)
    shared_rig.start_call("trade_run")
    shared_rig.wait_input(BUDGET)
    for key in ("1", "2", RIGHT):
        shared_rig.tap(key)
        shared_rig.wait_input(BUDGET)
    shared_rig.tap("ENTER")                          # Old Kent Road: Whitechapel has a house
    shared_rig.wait_input(BUDGET)                    # the cursor again, the reason in view
    assert "colour group has buildings" in g.messages()
    shared_rig.tap("Q")                              # give up
    shared_rig.finish_call(BUDGET)
    assert g.owner(1) == 0 and g.owner(6) == 1
    g.check()


def test_wanted_site_refused_while_its_group_has_buildings(shared_rig):
    g = Estate(shared_rig)
    g.own(5, 0)
    for s in (6, 8, 9):
        g.own(s, 1, houses=1)
    shared_rig.start_call("trade_run")
    for key in ("1", "2", *[RIGHT] * 5, "ENTER", "y", RIGHT, "ENTER"):
        shared_rig.wait_input(BUDGET)
        shared_rig.tap(key)
    shared_rig.wait_input(BUDGET)                 # the cursor again, the reason in view
    assert "colour group has buildings" in g.messages()
    for key in ("Q", "n", "n", "n"):              # none after all; no more; no cash; refused
        shared_rig.wait_input(BUDGET)
        shared_rig.tap(key)
    shared_rig.finish_call(BUDGET)
    assert g.owner(5) == 0 and g.owner(6) == 1
    g.check()


def test_get_out_of_jail_free_card_traded(shared_rig):
    g = Estate(shared_rig)
    g.own(1, 0)
    g.own(3, 1)
    take_jail_card(g, 0, "chance")
    trade(shared_rig, ("1", "2", RIGHT, "ENTER", "y", *[RIGHT] * 2, "ENTER", "n",
                    "y",                          # player 1 adds his card
                    "n", "y"))                    # no cash; agreed
    assert g.owner(1) == 1 and g.owner(3) == 0
    assert g.jail_cards(0) == 0 and g.jail_cards(1) == 1
    g.check()


def test_computer_accepts_a_good_deal_and_declines_a_bad_one(shared_rig):
    g = Estate(shared_rig, computers=(1,))
    g.own(39, 0)                                  # Mayfair, £400
    g.own(1, 1)                                   # Old Kent Road, £60
    trade(shared_rig, ("1", "2", LEFT, "ENTER", "y", RIGHT, RIGHT, "ENTER", "n", "n"))
    assert g.owner(39) == 1 and g.owner(1) == 0
    g.check()
    trade(shared_rig, ("1", "2", RIGHT, "ENTER", "y", LEFT, LEFT, "ENTER", "n", "n"))
    assert g.owner(39) == 1 and g.owner(1) == 0 and "declines" in g.messages()
    g.check()


def test_computer_weighs_cash(shared_rig):
    g = Estate(shared_rig, computers=(1,))
    g.own(1, 0)
    g.own(3, 1)
    # Old Kent Road for Whitechapel Road and £100 from the computer: it gives more than it gets
    trade(shared_rig, ("1", "2", RIGHT, "ENTER", "y", *[RIGHT] * 2, "ENTER", "n",
                    "y", "1", "1", "0", "0", "ENTER"))
    assert g.owner(1) == 0 and "declines" in g.messages()
    # ... and with £100 to the computer it gains
    trade(shared_rig, ("1", "2", RIGHT, "ENTER", "y", *[RIGHT] * 2, "ENTER", "n",
                    "y", "2", "1", "0", "0", "ENTER"))
    assert g.owner(1) == 1 and g.owner(3) == 0 and g.cash(1) == 1600
    g.check()


def test_retire_a_player(shared_rig):
    g = Estate(shared_rig, players=3)
    g.own(1, 1, houses=2)
    g.own(3, 1, houses=2)
    g.own(5, 1, mortgaged=True)
    g.own(6, 0)
    take_jail_card(g, 1, "chest")
    chest_before = shared_rig.peek("v_chest_count")
    g.check()
    shared_rig.call("trade_retire", budget=BUDGET)  # the option is off: nothing asked, nothing done
    assert g.flags(1) & g.mask("PF_PLAYING")
    shared_rig.poke("v_options", 1 << shared_rig.symbols["OPT_RETIRE"])
    shared_rig.call("trade_retire", budget=BUDGET, keys=("2", "y"))
    assert not g.flags(1) & g.mask("PF_PLAYING") and not g.flags(1) & g.mask("PF_BANKRUPT")
    assert [g.byte(s) for s in (1, 3, 5)] == [0, 0, 0] and g.owner(6) == 0
    assert g.cash(1) == 0 and g.stock() == (32, 12)
    assert g.jail_cards(1) == 0 and shared_rig.peek("v_chest_count") == chest_before + 1 == 16
    g.check()


def test_retiring_current_player_ends_the_turn(shared_rig):
    g = Estate(shared_rig, players=3)
    shared_rig.poke("v_options", 1 << shared_rig.symbols["OPT_RETIRE"])
    shared_rig.call("turn_menu", budget=BUDGET, keys=("x", "1", "y"))
    assert not g.flags(0) & g.mask("PF_PLAYING") and g.flags(1) & g.mask("PF_PLAYING")
    g.check()


def test_hotel_counts_in_retirement(shared_rig):
    g = Estate(shared_rig)
    g.own(37, 1, houses=HOTEL)
    g.own(39, 1, houses=4)
    shared_rig.poke("v_options", 1 << shared_rig.symbols["OPT_RETIRE"])
    shared_rig.call("trade_retire", budget=BUDGET, keys=("2", "y"))
    assert g.stock() == (32, 12) and g.owner(37) is None
    g.check()


# -- the order of the questions (issue 45, item 7) -------------------------------------------

def answer(rig: GameRig, keys: tuple[str, ...]) -> None:
    """Each key tapped once the game waits for one."""
    for key in keys:
        rig.wait_input(BUDGET)
        rig.tap(key)


def test_trade_asks_whom_before_what(shared_rig):
    """Booklet C: "The program will ask who is trading"; the partner comes next, then the one
    property given, then what is wanted from the partner (named in the question)."""
    g = Estate(shared_rig, players=3)
    g.own(1, 0)
    g.own(6, 2)
    shared_rig.start_call("trade_run")
    answer(shared_rig, ("1",))
    shared_rig.wait_input(BUDGET)
    assert "Trading with whom?" in g.messages()
    answer(shared_rig, ("3",))
    shared_rig.wait_input(BUDGET)
    assert "the ONE property you give" in g.messages()
    answer(shared_rig, (RIGHT, "ENTER"))          # gives Old Kent Road
    shared_rig.wait_input(BUDGET)
    assert "Add a property wanted from 3 P3?" in g.messages()
    answer(shared_rig, ("y", *[RIGHT] * 5, "ENTER", "n", "n", "y"))
    shared_rig.finish_call(BUDGET)
    assert g.owner(1) == 2 and g.owner(6) == 0 and "done" in g.messages()
    g.check()


def test_trade_refuses_property_of_a_third_player_saying_whose_it_must_be(shared_rig):
    g = Estate(shared_rig, players=3)
    g.own(1, 0)
    g.own(6, 1)
    shared_rig.start_call("trade_run")
    answer(shared_rig, ("1", "3", RIGHT, "ENTER", "y", *[RIGHT] * 5, "ENTER"))
    shared_rig.wait_input(BUDGET)
    assert "That is not 3 P3's property." in g.messages()
    answer(shared_rig, ("Q", "n", "n", "n"))      # none after all; no more; no cash; refused
    shared_rig.finish_call(BUDGET)
    assert g.owner(1) == 0 and g.owner(6) == 1
    g.check()


def test_trade_with_himself_is_refused_saying_why(shared_rig):
    g = Estate(shared_rig)
    shared_rig.start_call("trade_run")
    answer(shared_rig, ("1", "1"))
    shared_rig.wait_input(BUDGET)                 # the reason asks again
    assert "A trade is between two players. Trading with whom?" in g.messages()
    answer(shared_rig, ("ENTER",))                # nobody after all
    shared_rig.finish_call(BUDGET)


# -- a refused choice says why, and the reason stays (issue 45, item 4) ----------------------

def test_a_built_up_site_refused_says_why_until_the_next_key(shared_rig):
    """Choosing a site of a built-up group, as the property given or as one wanted: the
    reason is on the message lines from the choice until the player's next key, however long
    he takes (before, it went after 50 frames for the same prompt as before: "Choosing a
    built-up site in Trade does nothing")."""
    g = Estate(shared_rig)
    g.own(1, 0, houses=1)
    g.own(3, 0, houses=1)                         # ANNE's browns, built
    g.own(6, 1, houses=1)
    g.own(8, 1, houses=1)
    g.own(9, 1, houses=1)                         # BOB's light blues, built
    g.own(11, 0)
    why = "No trade while its colour group has buildings: sell them to the Bank first."
    shared_rig.start_call("trade_run")
    answer(shared_rig, ("1", "2", RIGHT, "ENTER"))  # gives Old Kent Road: refused
    shared_rig.wait_input(BUDGET)
    shown_at = shared_rig.frame
    shared_rig.wait(500)
    assert why in " ".join(g.messages().split()), g.messages()
    assert shared_rig.frame - shown_at >= 500
    answer(shared_rig, (*[RIGHT] * 10, "ENTER",   # gives Pall Mall instead
                        "y", LEFT, LEFT, LEFT, LEFT, LEFT, "ENTER"))  # wants The Angel: refused
    shared_rig.wait_input(BUDGET)
    shared_rig.wait(500)
    assert why in " ".join(g.messages().split()), g.messages()
    answer(shared_rig, ("Q", "n", "n", "n"))      # none after all; no more; no cash; refused
    shared_rig.finish_call(BUDGET)
    assert g.owner(11) == 0 and g.owner(6) == 1 and "refused" in g.messages()
    g.check()
