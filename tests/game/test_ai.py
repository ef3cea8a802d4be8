"""Computer players (issue 11, src/game/ai.asm): their own trades, the building-shortage
auction, the fast setting, the Buyer baseline, and an all-computer game to its end.

Each test pokes a position into the state block and calls the game's own routines (GameRig);
after every action the invariants of test_houses hold (money conserved, 32 houses and 12
hotels, even building).
"""

from __future__ import annotations

import pytest

from tests.game.helpers import BUDGET, SITE_GROUPS, Estate
from zxmonopoly.harness.rig import RETURN_TRAP, GameRig


def pers(shared_rig: GameRig, name: str) -> int:
    return shared_rig.symbols[f"PERS_{name}"]


class Players(Estate):
    """Estate with personalities and a way to call a computer's own decisions."""

    def __init__(self, rig: GameRig, players: int = 2, computers: tuple[int, ...] = (),
                 personalities: dict[int, str] | None = None):
        super().__init__(rig, players=players, computers=computers)
        for p, name in (personalities or {}).items():
            rig.poke(rig.player_address(p + 1, "P_PERSONALITY"), pers(rig, name))
        for p in range(6):                          # no proposal made yet
            rig.poke16(rig.address("v_ai_trade_turn") + 2 * p, 0)

    def propose(self, p: int, keys: tuple[str, ...] = ()) -> None:
        """Computer ``p``'s trade proposal, as before its throw (ai_trade_propose)."""
        self.current(p)
        self.r.poke("ai_player", p)
        self.r.call("ai_trade_propose", budget=BUDGET, keys=keys,
                    ix=self.r.player_address(p + 1, "P_FLAGS"))

    def houses_total(self) -> int:
        return sum(self.level(s) for g in SITE_GROUPS for s in g if self.level(s) < 5)


# --- trades proposed by a computer ---------------------------------------------------------

def test_computer_offers_cash_for_the_site_that_completes_its_group(shared_rig):
    g = Players(shared_rig, computers=(0, 1),
                personalities={0: "RECKLESS", 1: "RECKLESS"})
    g.own(1, 0)                                     # Old Kent Road: brown needs Whitechapel
    g.own(3, 1)
    g.own(5, 0)                                     # a lone station worth more than the offer
    g.propose(0)
    # Reckless offers 150 % of £60: £90 in cash; the Reckless owner takes any gain
    assert g.owner(3) == 0 and g.owner(5) == 0
    assert g.cash(0) == 1500 - 90 and g.cash(1) == 1500 + 90
    assert "done" in g.messages()
    g.check()


def test_computer_offers_a_lone_property_and_cash(shared_rig):
    g = Players(shared_rig, computers=(0, 1),
                personalities={0: "ENTERPRISING", 1: "STEADY"})
    g.own(6, 0)
    g.own(8, 0)                                     # light blue: wants Pentonville Road
    g.own(9, 1)                                     # £120
    g.own(12, 0)                                    # Electric Company £150, its only utility
    g.own(1, 0)
    g.own(3, 0)                                     # brown is a group it keeps
    g.propose(0)
    # Entrepreneurial offers 160 % of £120 = £192: Electric Company and £42
    assert g.owner(9) == 0 and g.owner(12) == 1 and g.owner(1) == 0 and g.owner(3) == 0
    assert g.cash(0) == 1500 - 42 and g.cash(1) == 1500 + 42
    g.check()


def test_computer_owner_refuses_a_mean_offer_and_it_is_not_repeated_at_once(shared_rig):
    g = Players(shared_rig, computers=(0, 1), personalities={0: "MEAN", 1: "GREEDY"})
    g.own(1, 0)
    g.own(3, 1)
    g.propose(0)
    # Mean offers 110 % (£66); Greedy wants half as much again: declined
    assert g.owner(3) == 1 and g.cash(0) == 1500 and g.cash(1) == 1500
    assert "declines" in g.messages()
    stamp = shared_rig.peek16(shared_rig.address("v_ai_trade_turn"))
    assert stamp == shared_rig.peek16("v_turns") + shared_rig.symbols["AI_TRADE_WAIT"]
    shared_rig.call("msg_clear")
    g.propose(0)                                    # the same turn: no second proposal
    assert g.messages().strip() == "" and g.owner(3) == 1
    g.check()


def test_mortgaged_site_bought_with_its_interest(shared_rig):
    g = Players(shared_rig, computers=(0, 1),
                personalities={0: "RECKLESS", 1: "RECKLESS"})
    g.own(37, 0)
    g.own(39, 1, mortgaged=True)                    # Mayfair: £400, loan £200, interest £20
    g.propose(0)
    assert g.owner(39) == 0
    # £600 offered in cash, the 10 % interest, then the mortgage lifted for its principal
    assert g.cash(1) == 1500 + 600
    assert g.cash(0) == 1500 - 600 - 20 - 200 and not g.mortgaged(39)
    g.check()


@pytest.mark.parametrize("answer", ["y", "n"])
def test_computer_proposes_to_a_human_who_answers(shared_rig, answer):
    g = Players(shared_rig, computers=(0,), personalities={0: "STEADY"})
    g.own(1, 0)
    g.own(3, 1)                                     # the human owns Whitechapel Road
    g.propose(0, keys=(answer,))
    if answer == "y":                               # Steady offers 130 % of £60: £78
        assert g.owner(3) == 0 and g.cash(0) == 1500 - 78 and g.cash(1) == 1500 + 78
    else:
        assert g.owner(3) == 1 and g.cash(0) == 1500 and "refused" in g.messages()
    g.check()


def test_no_proposal_without_the_cash(shared_rig):
    g = Players(shared_rig, computers=(0, 1), personalities={0: "CAUTIOUS", 1: "RECKLESS"})
    g.own(1, 0)
    g.own(3, 1)
    g.set_cash(0, 100)                              # Cautious keeps £300
    g.propose(0)
    assert g.owner(3) == 1 and g.cash(0) == 100
    assert shared_rig.peek16(shared_rig.address("v_ai_trade_turn")) == 0
    g.check()


# --- the building-shortage auction ---------------------------------------------------------

def shortage_position(shared_rig: GameRig) -> Players:
    """Player 2 (a Cautious computer: four houses a site at most, so it orders houses) has
    three built-up groups; the Bank has one house."""
    g = Players(shared_rig, computers=(1,), personalities={1: "CAUTIOUS"})
    for s in (16, 18, 19, 21, 23, 24):
        g.own(s, 1, houses=4)                       # 24
    g.own(26, 1, houses=2)
    g.own(27, 1, houses=2)
    g.own(29, 1, houses=3)                          # 31: the Bank has one house
    g.own(1, 0)
    g.own(3, 0)
    g.check()
    return g


def test_computer_orders_and_wins_a_shortage_auction(shared_rig):
    g = shortage_position(shared_rig)
    keys = ("b",
            "1", "1", "ENTER", "ENTER",             # the human: one house, no hotel
            "ENTER",                                # all in: the computer orders for itself
            "ENTER",                                # after its opening bid: closed
            "Q")                                    # the human cannot build: none left
    shared_rig.call("houses_run", budget=BUDGET * 2, keys=keys)
    # Cautious opened at half the £150 cost and placed the house on the least built-up site
    assert g.level(26) == 3 and g.cash(1) == 1500 - 75 and g.stock() == (0, 12)
    assert g.level(1) == 0 and g.cash(0) == 1500
    g.check()


def test_computer_outbids_a_human_up_to_its_limit(shared_rig):
    g = shortage_position(shared_rig)
    shared_rig.start_call("houses_run")
    for key in ("b", "1", "1", "ENTER", "ENTER", "ENTER",
                "1", "1", "0", "0", "ENTER"):       # the human bids £100 after £75
        shared_rig.wait_input(BUDGET)
        shared_rig.tap(key)
    shared_rig.wait_input(BUDGET)
    assert "by 2 P2" in g.messages()                # the computer raised to £110
    assert shared_rig.peek16("houses_high") == 110
    for key in ("1", "1", "7", "0", "ENTER",        # £170: beyond its limit (110 % of £150)
                "ENTER",                            # closed: the human's
                "CAPS SHIFT+5", "ENTER"):           # placed on Old Kent Road
        shared_rig.wait_input(BUDGET)
        shared_rig.tap(key)
    shared_rig.finish_call(BUDGET * 2)
    assert g.level(1) == 1 and g.cash(0) == 1500 - 170 and g.cash(1) == 1500
    assert g.stock() == (0, 12)
    g.check()


def test_shortage_auction_between_computers_alone(shared_rig):
    g = Players(shared_rig, players=3, computers=(1, 2),
                personalities={1: "CAUTIOUS", 2: "RECKLESS"})
    for s in (16, 18, 19, 21, 23, 24):
        g.own(s, 1, houses=4)
    g.own(26, 1, houses=2)
    g.own(27, 1, houses=2)
    g.own(29, 1, houses=3)
    g.own(1, 2)
    g.own(3, 2)
    g.check()
    shared_rig.call("houses_run", budget=BUDGET * 2, keys=("b", "ENTER"))
    # both ordered.  Cautious opens at £75 (half the £150 yellow house), Reckless answers £85
    # (its limit: 200 % of its £50 brown house), Cautious £95; Reckless cannot go to £105
    assert [g.level(s) for s in (1, 3, 26, 27, 29)] == [0, 0, 3, 2, 3]
    assert g.cash(1) == 1500 - 95 and g.cash(2) == 1500 and g.stock() == (0, 12)
    assert "Leicester Square for \u00a395" in g.messages()
    g.check()


def test_computer_builds_its_whole_order_of_hotels(shared_rig):
    """ai_houses_develop builds an order over several passes, each with what the order still
    allows, and never writes into its own code (it once kept the mode in an instruction)."""
    g = Players(shared_rig, computers=(1,), personalities={1: "RECKLESS"})
    g.own(1, 1, houses=4)
    g.own(3, 1, houses=4)
    g.check()
    wants = shared_rig.address("houses_want_houses")
    players = shared_rig.symbols["MAX_PLAYERS"]
    shared_rig.poke(wants + 1, 0)                      # player 2: no houses...
    shared_rig.poke(wants + players + 1, 2)            # ...two hotels
    start = shared_rig.address("ai_houses_develop")
    end = shared_rig.address("ai_houses_bids")         # the routine after it
    code = bytes(shared_rig.machine.memory[start:end])
    shared_rig.call("ai_houses_develop", budget=BUDGET, a=1)
    assert bytes(shared_rig.machine.memory[start:end]) == code
    assert g.level(1) == 5 and g.level(3) == 5 and g.cash(1) == 1500 - 2 * 50
    assert shared_rig.peek(wants + players + 1) == 0
    g.check()


# --- the fast setting ----------------------------------------------------------------------

def computer_turn_frames(shared_rig: GameRig, speed: int) -> int:
    g = Players(shared_rig, computers=(0, 1), personalities={0: "MEAN", 1: "MEAN"})
    shared_rig.poke("v_speed", speed)
    g.roll(3, 4)                                    # to Chance ... the card's pause too
    start = shared_rig.frame
    shared_rig.call("turn_play", budget=BUDGET)
    return shared_rig.frame - start


def test_fast_setting_shortens_a_computer_turn(shared_rig):
    normal = computer_turn_frames(shared_rig, 0)
    fast = computer_turn_frames(shared_rig, shared_rig.symbols["AI_SPEED_FAST"])
    assert fast * 3 < normal, (fast, normal)
    shared_rig.poke("v_speed", 0)


def test_f_toggles_the_fast_setting(shared_rig):
    Players(shared_rig)
    shared_rig.poke("v_speed", 0)
    shared_rig.call("turn_menu", budget=BUDGET, keys=("f", "d"))
    assert shared_rig.peek("v_speed") == shared_rig.symbols["AI_SPEED_FAST"]
    shared_rig.call("turn_menu", budget=BUDGET, keys=("f", "d"))
    assert shared_rig.peek("v_speed") == 0


def rent_window(shared_rig: GameRig, speed: int, owner_computer: bool = False) -> Players:
    """Computer 1 has landed on Whitechapel Road of player 0 (a human unless told); computer
    2 is about to throw (turn_menu started, in its pause: the rent window, turn_rent_wait,
    when a human is owed, else the usual pause, keys_wait_frames)."""
    computers = (0, 1, 2) if owner_computer else (1, 2)
    g = Players(shared_rig, players=3, computers=computers,
                personalities={1: "MEAN", 2: "MEAN"})
    g.own(3, 0)
    g.put(1, 3)
    shared_rig.poke("v_rent_payer", 1)
    shared_rig.poke("v_rent_owner", 0)
    shared_rig.poke("v_rent_square", 3)
    shared_rig.poke("v_rent_dice", 3)
    g.current(2)
    shared_rig.poke("v_speed", speed)
    shared_rig.start_call("turn_menu")
    # a human owed rent gets the rent window (turn_rent_wait); otherwise the usual pause
    shared_rig.wait_pc("keys_wait_frames.loop" if owner_computer else "turn_rent_wait.loop")
    return g


@pytest.mark.parametrize("speed", [0, 1])
def test_human_owed_rent_has_the_whole_rent_window_at_either_speed(shared_rig, speed):
    assert shared_rig.symbols["AI_SPEED_FAST"] == 1
    rent_window(shared_rig, speed)
    start = shared_rig.frame
    lines = " ".join(shared_rig.row(r) for r in (21, 22, 23))
    assert "1 P1 may press R for £4 rent" in lines
    row, col = shared_rig.find("1 P1 may press R")
    assert row in (22, 23)
    token = shared_rig.symbols["graphics_glyphs"]             # player 0's piece: design 0
    cell = shared_rig.symbols["SCREEN"] + ((row & 0x18) << 8) + ((row & 7) << 5) + col - 2
    assert [shared_rig.peek(cell + 256 * i) for i in range(8)] == [
        shared_rig.peek(token + i) for i in range(8)]
    window = shared_rig.symbols["RENT_WINDOW_FRAMES"]
    assert window > shared_rig.symbols["COMPUTER_PAUSE"]
    shared_rig.finish_call(budget=window + 100)               # nobody claims: it throws
    assert shared_rig.frame - start >= window - 2
    shared_rig.poke("v_speed", 0)


@pytest.mark.parametrize("speed", [0, 1])
def test_human_claims_in_a_computers_pause_at_either_speed(shared_rig, speed):
    g = rent_window(shared_rig, speed)
    window = shared_rig.symbols["RENT_WINDOW_FRAMES"]
    shared_rig.wait(window - 20)        # late in the window: past a whole usual pause (60 frames)
    shared_rig.tap("r")
    shared_rig.finish_call(budget=window + 200)
    assert g.cash(0) == 1500 + 4 and g.cash(1) == 1500 - 4
    assert shared_rig.peek("v_rent_payer") == shared_rig.symbols["NO_PLAYER"]
    g.check()
    shared_rig.poke("v_speed", 0)


@pytest.mark.parametrize("case", ["computer owner", "no rent"])
def test_fast_pause_stays_short_without_a_human_owed(shared_rig, case):
    rent_window(shared_rig, 1, owner_computer=case == "computer owner")
    if case == "no rent":                                  # the same pause, nothing owed
        shared_rig.poke("v_rent_payer", shared_rig.symbols["NO_PLAYER"])
        shared_rig.start_call("turn_menu")
    start = shared_rig.frame
    shared_rig.finish_call(budget=200)
    assert shared_rig.frame - start < shared_rig.symbols["COMPUTER_PAUSE"] // 4
    assert "may press R" not in shared_rig.text()
    shared_rig.poke("v_speed", 0)


# --- the Buyer baseline --------------------------------------------------------------------

def test_buyer_buys_all_it_can_and_never_builds_or_trades(shared_rig):
    g = Players(shared_rig, computers=(0, 1), personalities={0: "BUYER", 1: "RECKLESS"})
    assert shared_rig.symbols["PERS_BUYER"] == 6
    g.set_cash(0, 60)
    shared_rig.call("ai_wants_to_buy", ix=shared_rig.player_address(1, "P_FLAGS"), a=1)
    assert shared_rig.machine.cpu.f & 1                # £60 for Old Kent Road: all it has
    g.set_cash(0, 59)
    shared_rig.call("ai_wants_to_buy", ix=shared_rig.player_address(1, "P_FLAGS"), a=1)
    assert not shared_rig.machine.cpu.f & 1
    g.set_cash(0, 1500)
    g.own(1, 0)
    g.own(3, 0)                                     # a whole group
    shared_rig.poke("ai_player", 0)
    shared_rig.call("ai_build", budget=BUDGET, ix=shared_rig.player_address(1, "P_FLAGS"))
    assert g.level(1) == 0 and g.level(3) == 0
    g.own(6, 0)
    g.own(8, 0)
    g.own(9, 1)
    g.propose(0)                                    # never proposes
    assert g.owner(9) == 1 and g.cash(0) == 1500
    g.check()


def test_buyer_refuses_every_trade(shared_rig):
    g = Players(shared_rig, computers=(0, 1), personalities={0: "RECKLESS", 1: "BUYER"})
    g.own(1, 0)
    g.own(3, 1)
    g.propose(0)                                    # £90 for a £60 site: still no
    assert g.owner(3) == 1 and "declines" in g.messages()
    g.check()


def test_buyer_bids_up_to_the_price(shared_rig):
    Players(shared_rig, computers=(0,), personalities={0: "BUYER"})
    shared_rig.call("ai_auction_bid", a=39, c=0, hl=390)
    assert shared_rig.machine.cpu.f & 1 and shared_rig.machine.cpu.hl == 400
    shared_rig.call("ai_auction_bid", a=39, c=0, hl=400)
    assert not shared_rig.machine.cpu.f & 1


# --- personalities differ ------------------------------------------------------------------

def test_set_completing_property_raises_the_bid_limit(shared_rig):
    g = Players(shared_rig, computers=(0,), personalities={0: "MEAN"})
    shared_rig.call("ai_auction_bid", a=3, c=0, hl=60)     # Mean: 90 % of £60 = £54
    assert not shared_rig.machine.cpu.f & 1
    g.own(1, 0)                                          # now it completes brown: 120 %
    shared_rig.call("ai_auction_bid", a=3, c=0, hl=60)
    assert shared_rig.machine.cpu.f & 1 and shared_rig.machine.cpu.hl == 70


def test_cautious_builds_four_houses_at_most(shared_rig):
    g = Players(shared_rig, computers=(0,), personalities={0: "CAUTIOUS"})
    g.own(1, 0)
    g.own(3, 0)
    for _ in range(3):
        shared_rig.poke("ai_player", 0)
        shared_rig.call("ai_build", budget=BUDGET * 2, ix=shared_rig.player_address(1, "P_FLAGS"))
        g.check()
    assert (g.level(1), g.level(3)) == (4, 4) and g.cash(0) == 1500 - 8 * 50


def test_reckless_builds_hotels_while_its_cash_lasts(shared_rig):
    g = Players(shared_rig, computers=(0,), personalities={0: "RECKLESS"})
    g.own(1, 0)
    g.own(3, 0)
    g.set_cash(0, 480)                              # eight houses and one hotel (£50 each)
    for _ in range(3):
        shared_rig.poke("ai_player", 0)
        shared_rig.call("ai_build", budget=BUDGET * 2, ix=shared_rig.player_address(1, "P_FLAGS"))
        g.check()
    assert sorted((g.level(1), g.level(3))) == [4, 5] and g.cash(0) == 480 - 450


# --- a whole all-computer game -------------------------------------------------------------

def test_all_computer_short_game_runs_to_its_end(shared_rig):
    g = Players(shared_rig, players=4, computers=(0, 1, 2, 3),
                personalities={0: "RECKLESS", 1: "GREEDY", 2: "STEADY", 3: "ENTERPRISING"})
    shared_rig.poke("v_speed", shared_rig.symbols["AI_SPEED_FAST"])
    shared_rig.poke("v_short_game", 1)
    shared_rig.poke16("v_clock_minutes", 20)
    shared_rig.poke16("v_seed", 4321)
    shared_rig.call("game_new")
    g.base = g.money()
    shared_rig.start_call("game_run")
    ended = False
    for _ in range(2000):
        ended = shared_rig.machine.run_until(pc=RETURN_TRAP, max_frames=50)
        if not ended and not g.conserved():         # (caught between a payment's halves)
            ended = shared_rig.machine.run_until(pc=RETURN_TRAP, max_frames=3)
        g.check()
        if ended:
            break
    assert ended
    shared_rig.poke("v_speed", 0)
