"""zxmonopoly tournament: all-computer games headless, per-personality figures, invariants."""

from __future__ import annotations

import pytest

from zxmonopoly.harness import tournament as t


def test_parse_players():
    assert t.parse_players(None) == [0, 1, 2, 3, 4, 5]
    assert t.parse_players("mean, Greedy,ent") == [0, 2, 5]
    assert t.parse_players("Steady,Steady") == [3, 3]
    for bad in ("Mean", "Mean,Nobody", "X,Mean", ",".join(["Mean"] * 7), "Mean,,Greedy",
                "Mean,Greedy,"):
        with pytest.raises(ValueError):
            t.parse_players(bad)


def test_a_small_tournament_plays_to_the_end_and_counts():
    results = t.run_tournament(2, 7, t.parse_players("Mean,Reckless,Greedy"), minutes=2)
    assert len(results) == 2
    for game in results:
        assert game.turns > 10 and game.frames >= 2 * 3000
        assert sum(p.won for p in game.players) + sum(p.tied for p in game.players) >= 1
        assert sum(p.bought for p in game.players) > 0
        assert all(p.worth > 0 or p.bankrupt for p in game.players)
    # seating rotates: game 2 starts with the second personality
    assert [p.personality for p in results[1].players] == ["Reckless", "Greedy", "Mean"]
    table = t.format_table(results)
    assert table.splitlines()[0].split()[:3] == ["personality", "games", "wins"]
    assert {line.split()[0] for line in table.splitlines()[1:4]} == {"Mean", "Reckless",
                                                                      "Greedy"}
    assert "turns min" in table


def test_the_same_seed_plays_the_same_game():
    a = t.play_game(5, [0, 3], minutes=1)
    b = t.play_game(5, [0, 3], minutes=1)
    assert (a.turns, a.frames, [p.worth for p in a.players]) == \
           (b.turns, b.frames, [p.worth for p in b.players])


def test_the_invariants_catch_a_broken_state():
    from zxmonopoly.harness import Session

    s = Session.game(engine="jit")
    t.setup_computers(s, [0, 1], 1, 3)
    s.wait_until(lambda s: s.state().phase == "playing", 2000, "the game")
    assert t.check_invariants(s) == []
    cash = s.symbols["v_players"] + s.symbols["P_CASH"]
    s.poke16(cash, s.peek16(cash) + 1)
    assert any("money not conserved" in p for p in t.check_invariants(s))
    s.poke16(cash, s.peek16(cash) - 1)
    s.poke("v_houses_left", 31)
    assert any("houses:" in p for p in t.check_invariants(s))
    s.poke("v_houses_left", 32)
    # two houses on Old Kent Road, none on Whitechapel Road, both player 1's: uneven
    sq = s.symbols["v_squares"]
    s.poke(sq + 1, 1 | 2 << s.symbols["SQ_BUILD_SHIFT"])
    s.poke(sq + 3, 1)
    s.poke("v_houses_left", 30)
    problems = t.check_invariants(s)
    assert any("uneven building on the brown group" in p for p in problems)


def test_the_command_prints_the_table(capsys):
    from zxmonopoly.cli import main

    assert main(["tournament", "--games", "1", "--seed", "3", "--players", "Steady,Cautious",
                 "--short", "1", "--engine", "jit"]) == 0
    out = capsys.readouterr().out
    assert "game 1 seed 3:" in out
    assert "Steady" in out and "Cautious" in out and "avg worth" in out


def test_the_command_refuses_a_bad_spec(capsys):
    from zxmonopoly.cli import main

    assert main(["tournament", "--players", "Mean"]) == 2
    assert "zxmonopoly tournament: error: --players needs 2 to 6" in capsys.readouterr().err


@pytest.mark.slow
def test_a_large_tournament_keeps_every_invariant():
    results = t.run_tournament(24, 1000, t.parse_players(None), minutes=20)
    assert len(results) == 24
    assert sum(g.turns for g in results) > 24 * 50


def test_wilson_interval():
    assert t.wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert t.wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert t.wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    low, high = t.wilson_interval(30, 100)
    assert low < 0.3 < high and high - low < 0.2


def test_significant_differences_are_holm_corrected():
    strong = {"Steady": t.Tally(games=100, wins=40), "Cautious": t.Tally(games=100, wins=10),
              "Mean": t.Tally(games=100, wins=30)}
    found = t.significant_differences(strong)
    assert ("Steady", "Cautious") == found[0][:2] and found[0][2] < 0.001
    assert not any({a, b} == {"Steady", "Mean"} for a, b, _p in found)
    assert t.significant_differences({"A": t.Tally(games=5, wins=2),
                                      "B": t.Tally(games=5, wins=1)}) == []


def _same(results):
    """The results without the wall-clock seconds."""
    import dataclasses

    return [dataclasses.replace(r, seconds=0.0) for r in results]


def test_jobs_play_the_same_games_as_one_process():
    players = t.parse_players("Mean,Greedy,Steady")
    one = t.run_tournament(2, 3, players, minutes=1)
    two = t.run_tournament(2, 3, players, minutes=1, jobs=2)
    assert _same(one) == _same(two)
    assert t.format_table(one) == t.format_table(two)


def test_a_dask_cluster_plays_the_same_games(monkeypatch):
    """The work units on a LocalCluster (two worker processes on loopback)."""
    import os
    from pathlib import Path

    distributed = pytest.importorskip("distributed")
    src = str(Path(t.__file__).resolve().parents[1])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (src, os.environ.get("PYTHONPATH")) if p))
    players = t.parse_players("Mean,Greedy")
    one = t.run_tournament(2, 11, players, minutes=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        remote = t.run_tournament(2, 11, players, minutes=1, scheduler=cluster.scheduler_address)
    assert _same(one) == _same(remote)


def test_a_bad_scheduler_address_is_one_line(capsys):
    # It printed Dask's traceback (ValueError: missing port number).
    pytest.importorskip("distributed")
    from zxmonopoly.cli import main

    assert main(["tournament", "--games", "1", "--scheduler", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert err == ("zxmonopoly tournament: error: --scheduler nonsense: missing port number "
                   "in address 'nonsense'\n")
