"""worth.asm against the rules model (zxmonopoly.rules.money.worth / raisable; booklet part A
"Rules for playing the short game", seed_rules A63) and endgame_run's table and winner
(booklet part C "End game", "Short game"; A60, A64, A67)."""

from __future__ import annotations

import random

import pytest

BUDGET = 2000


def square_byte(r, owner: int | None, houses: int, mortgaged: bool) -> int:
    """vars.asm's square byte: owner + 1, the mortgage bit, buildings (5 = a hotel)."""
    value = 0 if owner is None else owner + 1
    if mortgaged:
        value |= 1 << r.symbols["SQ_MORTGAGED"]
    return value | houses << r.symbols["SQ_BUILD_SHIFT"]


def put_game(r, game) -> None:
    """Write a rules-model game's players and holdings into the state block."""
    r.poke("v_num_players", len(game.players))
    for p, player in enumerate(game.players):
        flags = 0 if player.bankrupt else 1 << r.symbols["PF_PLAYING"]
        if player.bankrupt:
            flags |= 1 << r.symbols["PF_BANKRUPT"]
        r.poke(r.player_address(p + 1, "P_FLAGS"), flags)
        r.poke(r.player_address(p + 1, "P_TOKEN"), p)
        r.poke16(r.player_address(p + 1, "P_CASH"), player.cash)
        name = r.player_address(p + 1, "P_NAME")
        for i, ch in enumerate(player.name.encode() + b"\0"):
            r.poke(name + i, ch)
    for square in range(40):
        holding = game.holdings.get(square)
        byte = 0 if holding is None else square_byte(r, holding.owner, holding.houses,
                                                      holding.mortgaged)
        r.poke(r.address("v_squares") + square, byte)


def random_game(seed: int):
    """A game with deeds, houses, hotels and mortgages dealt at random (not always legal:
    the valuation does not care)."""
    from zxmonopoly.rules import HOTEL, new_game
    from zxmonopoly.rules.data import SQUARES
    from zxmonopoly.rules.records import Kind

    rnd = random.Random(seed)
    game = new_game(["ANN", "BOB", "CY", "DI"])
    for player in game.players:
        player.cash = rnd.randrange(0, 3000)
    for square, holding in game.holdings.items():
        holding.owner = rnd.choice([None, 0, 1, 2, 3])
        if holding.owner is None:
            continue
        if SQUARES[square].kind is Kind.SITE and rnd.random() < 0.6:
            holding.houses = rnd.choice([1, 2, 3, 4, HOTEL])
        else:
            holding.mortgaged = rnd.random() < 0.4
    return game


@pytest.mark.parametrize("seed", range(4))
def test_worth_matches_the_rules_model(rig, seed):
    from zxmonopoly.rules.money import raisable, worth

    game = random_game(seed)
    put_game(rig, game)
    for p, player in enumerate(game.players):
        rig.call("worth_property", a=p)
        assert rig.machine.cpu.hl == worth(game, p) - player.cash, (seed, p)
        rig.call("worth_total", a=p)
        assert rig.machine.cpu.hl == worth(game, p), (seed, p)
        rig.call("worth_mortgage_value", a=p)
        assert rig.machine.cpu.hl == raisable(game, p) - player.cash, (seed, p)


def test_worth_of_a_hotel_houses_and_a_mortgage(rig):
    """Mayfair with a hotel (400 + 5 x 200), Park Lane with 3 houses (350 + 3 x 200),
    King's Cross mortgaged (half of 200)."""
    v = rig.address("v_squares")
    rig.poke(v + 39, square_byte(rig, 0, 5, False))
    rig.poke(v + 37, square_byte(rig, 0, 3, False))
    rig.poke(v + 5, square_byte(rig, 0, 0, True))
    rig.poke(v + 1, square_byte(rig, 1, 0, False))
    rig.poke16(rig.player_address(1, "P_CASH"), 1000)
    rig.call("worth_property", a=0)
    assert rig.machine.cpu.hl == 1400 + 950 + 100
    rig.call("worth_total", a=0)
    assert rig.machine.cpu.hl == 3450
    rig.call("worth_mortgage_value", a=0)
    assert rig.machine.cpu.hl == (200 + 500) + (175 + 300)
    rig.call("worth_property", a=1)
    assert rig.machine.cpu.hl == 60


def test_worth_total_saturates(rig):
    rig.poke(rig.address("v_squares") + 39, square_byte(rig, 0, 5, False))
    rig.poke16(rig.player_address(1, "P_CASH"), 65000)
    rig.call("worth_total", a=0)
    assert rig.machine.cpu.hl == 0xFFFF


def test_board_record(rig):
    rig.call("board_record", a=39)
    assert rig.machine.cpu.hl == rig.symbols["board_squares"] + 39 * rig.symbols["BOARD_RECORD"]
    assert rig.peek16(rig.machine.cpu.hl + rig.symbols["BOARD_PRICE"]) == 400


def run_endgame(r):
    r.start_call("endgame_run")
    r.wait_input(BUDGET)
    screen = r.text()
    messages = " ".join(r.row(n) for n in (21, 22, 23))
    r.tap("SPACE")
    r.finish_call(BUDGET)
    return screen, messages


def winner_row(r, player: int) -> bool:
    """Whether a player's table row has the winner's colours (yellow paper)."""
    return r.attributes(4 + 2 * player, 0).paper == r.symbols["YELLOW"]


def test_endgame_values_everyone_and_names_the_richest(rig):
    from tests.rules.helpers import own
    from zxmonopoly.rules import new_game
    from zxmonopoly.rules.money import worth
    from zxmonopoly.rules.turn import richest

    game = new_game(["ANNE", "BOB", "CAT"])
    own(game, 0, 5, mortgaged=True)
    own(game, 0, 12)
    own(game, 1, 39, houses=5)
    own(game, 1, 37, houses=3)
    game.players[0].cash, game.players[1].cash, game.players[2].cash = 1000, 200, 900
    put_game(rig, game)
    screen, messages = run_endgame(rig)
    assert rig.peek("v_phase") == rig.symbols["PHASE_OVER"]
    assert richest(game) == [1]
    lines = screen.splitlines()
    assert lines[4].split()[-3:] == ["£1000", "£250", f"£{worth(game, 0)}"]
    assert lines[6].split()[-3:] == ["£200", "£2350", f"£{worth(game, 1)}"]
    assert lines[8].split()[-3:] == ["£900", "£0", "£900"]
    assert "2 BOB wins, worth £2550." in messages
    assert "Press a key for a new game" in messages
    assert winner_row(rig, 1) and not winner_row(rig, 0) and not winner_row(rig, 2)


def test_endgame_announces_a_tie(rig):
    from tests.rules.helpers import own
    from zxmonopoly.rules import new_game
    from zxmonopoly.rules.turn import richest

    game = new_game(["ANNE", "BOB", "CAT"])
    own(game, 0, 39)                                # 400 + 1100 = 1500
    game.players[0].cash = 1100
    game.players[1].cash = 1500
    game.players[2].cash = 1499
    put_game(rig, game)
    _, messages = run_endgame(rig)
    assert richest(game) == [0, 1]
    assert "A tie at £1500: 1 ANNE, 2 BOB." in messages
    assert winner_row(rig, 0) and winner_row(rig, 1) and not winner_row(rig, 2)


def test_the_last_player_left_wins(rig):
    from zxmonopoly.rules import new_game
    from zxmonopoly.rules.turn import winner

    game = new_game(["ANNE", "BOB", "CAT"])
    game.players[0].bankrupt = True
    game.players[2].bankrupt = True
    game.players[0].cash = game.players[2].cash = 0
    game.players[1].cash = 10                       # poorer than nobody: still the winner
    put_game(rig, game)
    screen, messages = run_endgame(rig)
    assert winner(game) == 1
    assert "2 BOB wins: the last player left in the game." in messages
    assert screen.splitlines()[4].split()[-1] == "Bankrupt"
    assert winner_row(rig, 1)
