"""Whole-game flows through the keys that the keystroke scripts cannot express well, and
the game bugs found so far, kept as regression tests. Every test drives the bundled tape as a
player does (jit engine, a few hundred frames).
"""

from __future__ import annotations

import pytest

from zxmonopoly.harness.invariants import bank_balance, check_invariants


@pytest.fixture
def g():
    from zxmonopoly.harness import Session

    return Session.game(engine="jit")


def keys(s, *presses: str) -> None:
    """Each key when the game waits for one."""
    for k in presses:
        s.wait_input(3000)
        s.tap(k)


def throw(s, a: int, b: int, *answers: str) -> None:
    """D with a rigged throw, then the answers to its questions; back at a key wait."""
    s.wait_input(3000)
    s.rig_dice(a, b)
    s.tap("D")
    keys(s, *answers)
    s.wait_input(3000)


def two_humans(s, seed: int) -> None:
    """tests/game/scripts/two_players.zxinc in Python: ANNE and BOB, ANNE first."""
    s.wait_input(500)
    s.tap("SPACE")
    s.seed(seed)
    keys(s, "1", "N")
    s.wait_input()
    s.type("ANNE")
    keys(s, "ENTER", "2", "N")
    s.wait_input()
    s.type("BOB")
    keys(s, "ENTER", "ENTER", "N", "N", "N", "N")
    s.wait_input()
    s.rig_dice(6, 5)
    s.tap("D")
    s.wait_input()
    s.rig_dice(1, 2)
    s.tap("D")
    s.wait_input(500)
    assert s.state().current == 1


def messages(s) -> str:
    """The three message lines joined by spaces, blanks squeezed."""
    return " ".join(" ".join(s.row(r).split()) for r in (21, 22, 23)).strip()


def test_fine_or_chance_n_pays_the_fine(g):
    # Seed 687: Community Chest CC14 (birthday) then CC16 (£10 fine or a Chance).
    two_humans(g, 687)
    throw(g, 1, 1)                    # ANNE: birthday, +£10 from BOB
    throw(g, 2, 3)                    # ANNE: Chance CH07, back to Income Tax
    throw(g, 1, 1, "N")               # BOB: CC16, N pays the fine
    st = g.state()
    assert st.last_card == "CC16"
    assert [p.cash for p in st.players] == [1310, 1480]
    assert not check_invariants(g)


def test_a_computer_player_plays_its_own_turn(g):
    # ANNE human, CPU a computer: after ANNE's throw the computer throws, buys, and hands
    # the dice back to ANNE without a key.
    g.wait_input(500)
    g.tap("SPACE")
    g.seed(1234)
    keys(g, "1", "N")
    g.wait_input()
    g.type("ANNE")
    keys(g, "ENTER", "2", "Y")
    g.wait_input()
    g.type("CPU")
    keys(g, "ENTER", "ENTER", "N", "N", "N", "N")
    g.wait_input()
    g.rig_dice(6, 5)
    g.tap("D")
    g.wait_text("2 CPU throws for who goes first", 200)
    g.rig_dice(1, 2)                  # the computer's throw: 3, ANNE starts
    throw(g, 1, 2, "N")               # ANNE declines Whitechapel Road: the auction
    assert g.find("highest £30 by 2 CPU") is not None   # it opened at half the price
    g.rig_dice(2, 4)                  # the computer's own throw: The Angel, Islington
    g.tap("ENTER")                    # no human bid: sold to the computer
    g.wait_until(lambda s: s.state().current == 1 and s.state().turns == 2, 2000,
                 "ANNE's turn again")
    g.wait_input(2000)
    st = g.state()
    assert st.square(3).owner == 2 and st.square(6).owner == 2
    assert st.player(2).square == 6
    assert st.player(2).cash == 1500 - 30 - 100
    assert not check_invariants(g)


def test_the_end_game_question_is_shown_alone(g):
    two_humans(g, 1234)
    g.tap("CAPS SHIFT+SPACE")
    g.wait_input()
    assert messages(g) == "End the game and value everyone's holdings? (Y/N)"


def test_the_fine_or_chance_question_is_shown_alone(g):
    two_humans(g, 687)
    throw(g, 1, 1)
    throw(g, 2, 3)
    g.rig_dice(1, 1)
    g.tap("D")
    g.wait_input(1000)
    assert messages(g) == "Take a Chance (N: pay the £10 fine)? (Y/N)"


def test_a_second_game_starts_with_a_clear_bank(g):
    two_humans(g, 1234)
    throw(g, 1, 3)                    # Income Tax: the Bank takes £200
    assert bank_balance(g.machine.memory, g.symbols) == 200
    g.tap("CAPS SHIFT+SPACE")
    keys(g, "Y")
    g.wait_input()
    assert g.state().phase == "over"
    g.tap("SPACE")
    two_humans(g, 99)
    assert bank_balance(g.machine.memory, g.symbols) == 0
    assert not check_invariants(g)
