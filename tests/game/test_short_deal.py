"""The short game's deal (booklet A "Rules for playing the short game"; issue 28 item 8): with Y
the Banker deals two Title Deeds to each player, who pays the Bank their price at once; with N
nobody is dealt any."""

from __future__ import annotations

import pytest

from zxmonopoly.harness.session import Session
from zxmonopoly.rules import new_game
from zxmonopoly.rules.data import SQUARES, STARTING_CASH
from zxmonopoly.rules.turn import deal_short_game

PLAYERS = (("ANNE", False), ("HAL", True), ("BOB", False))


def start_short_game(deal: bool, seed: int) -> Session:
    """Three players (one a computer), a 30-minute short game, the deal answered, no
    options; ANNE throws first.  Returns the session at the first turn."""
    s = Session.game(engine="python")
    s.wait_input()
    s.tap("SPACE")
    s.seed(seed)
    for piece, (name, computer) in enumerate(PLAYERS, 1):
        s.wait_input()
        s.tap(str(piece))
        s.wait_input()
        s.tap("Y" if computer else "N")
        s.wait_input()
        s.type(name)
        s.wait_input()
        s.tap("ENTER")
    s.wait_input()
    s.tap("ENTER")
    for key in ("Y", "0", "ENTER", "3", "0", "ENTER"):
        s.wait_input()
        s.tap(key)
    s.wait_input()
    assert "Deal each player two Title Deeds, paid for at their price? (Y/N)" in s.message()
    s.tap("Y" if deal else "N")
    for _option in range(3):
        s.wait_input()
        s.tap("N")
    s.wait_input()
    s.rig_dice(6, 5)
    s.tap("D")
    s.wait_pc("setup_throw")   # HAL throws by itself
    s.rig_dice(1, 2)
    s.wait_input(2000)
    s.rig_dice(2, 2)
    s.tap("D")
    s.wait_input(2000)
    return s


@pytest.mark.parametrize("seed", [1234, 77])
def test_y_deals_two_deeds_to_each_player_who_pays_their_price(seed: int) -> None:
    s = start_short_game(True, seed)
    state = s.state()
    assert state.phase == "playing" and state.options.deal and state.short_game
    dealt: dict[int, list[int]] = {p.number: [] for p in state.players[:len(PLAYERS)]}
    for square in state.squares:
        if square.owner is not None:
            dealt[square.owner].append(square.index)
            assert not square.mortgaged and square.houses == 0 and not square.hotel
    for player in state.players[:len(PLAYERS)]:
        deeds = dealt[player.number]
        assert len(deeds) == 2 and len(set(deeds)) == 2, (player.name, deeds)
        price = sum(SQUARES[i].price for i in deeds)
        assert player.cash == STARTING_CASH - price, (player.name, deeds, player.cash)
    # The rules model's deal of the same deeds (its hand goes round the players) agrees.
    model = new_game([name for name, _ in PLAYERS])
    hand = [dealt[n][k] for k in range(2) for n in range(1, len(PLAYERS) + 1)]
    deal_short_game(model, hand)
    assert [p.cash for p in model.players] == [p.cash for p in state.players[:len(PLAYERS)]]
    assert {sq: h.owner + 1 for sq, h in model.holdings.items() if h.owner is not None} == {
        sq.index: sq.owner for sq in state.squares if sq.owner is not None}


def test_the_deal_differs_with_the_seed() -> None:
    owned = []
    for seed in (1234, 77):
        state = start_short_game(True, seed).state()
        owned.append({sq.index: sq.owner for sq in state.squares if sq.owner is not None})
    assert owned[0] != owned[1]


def test_n_deals_none() -> None:
    state = start_short_game(False, 1234).state()
    assert not state.options.deal and state.short_game
    assert all(square.owner is None for square in state.squares)
    assert all(p.cash == STARTING_CASH for p in state.players[:len(PLAYERS)])


def test_the_record_names_the_deeds_dealt_and_the_throws_for_who_goes_first() -> None:
    """Issue 45, item 8: the deal is recorded with the deeds and what was paid (not as a
    payment with no cause), and so are the throws for who goes first and the starter."""
    s = start_short_game(True, 1234)
    record = s.events()
    assert not [e.text for e in record if e.kind == "unknown" or "no cause" in e.text]
    first = [e.text for e in record if e.kind in ("first_throw", "first")]
    assert first == ["1 ANNE throws 6+5 for who goes first", "2 HAL throws 1+2 for who goes first",
                     "3 BOB throws 2+2 for who goes first", "1 ANNE goes first"]
    state = s.state()
    dealt = [e for e in record if e.kind == "dealt"]
    assert len(dealt) == len(PLAYERS)
    for event, player in zip(dealt, state.players[:len(PLAYERS)], strict=True):
        deeds = sorted(sq.index for sq in state.squares if sq.owner == player.number)
        assert sorted((event.square, event.extra)) == deeds
        price = sum(SQUARES[i].price for i in deeds)
        assert event.text == (f"{player.number} {player.name} is dealt {SQUARES[event.square].name}"
                              f" and {SQUARES[event.extra].name}, paying £{price}")
        assert event.money() == {player.number: -price}
