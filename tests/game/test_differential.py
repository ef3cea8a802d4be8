"""Differential play (issue 12): the game's own routines against the rules model, seeded.

Each seed plays human players' decisions into the game and into ``zxmonopoly.rules`` and
compares the whole state after every action (see zxmonopoly.harness.differential). A few
seeds run in the normal suite; ``-m slow`` runs a hundred.
"""

from __future__ import annotations

import pytest

from zxmonopoly.harness import run_script
from zxmonopoly.harness.differential import DifferentialGame, Mismatch


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_game_and_model_agree(shared_rig, seed):
    game = DifferentialGame(seed, players=2 + seed % 3, rig=shared_rig)
    report = game.play(120)
    assert report.actions > 10, report.stopped


def test_a_difference_is_reported_with_seed_action_and_states(shared_rig, tmp_path):
    game = DifferentialGame(7, players=2, rig=shared_rig, script_dir=tmp_path)
    game.model.players[0].cash += 1           # the model now disagrees with the game
    with pytest.raises(Mismatch, match=r"(?s)seed 7, action 2 .*player 1 \(cash.*keystroke"):
        game.play(1)
    script = tmp_path / "differential-7.zxs"
    result = run_script(script, engine="jit")  # it replays, and fails where the model differs
    assert not result.passed and "expected player 1 cash" in result.message


def test_a_seeded_game_replays_as_a_keystroke_script_through_the_tape(shared_rig, tmp_path):
    game = DifferentialGame(5, players=4, rig=shared_rig)
    assert game.play(60).stopped == "60 actions"
    script = tmp_path / "seed5.zxs"
    script.write_text(game.script())
    result = run_script(script, engine="jit")  # title, setup keys, 60 throws and answers
    assert result.passed, result.report()


@pytest.mark.slow
def test_a_hundred_seeded_games_agree(shared_rig):
    actions = 0
    for seed in range(100, 200):
        actions += DifferentialGame(seed, players=2 + seed % 3, rig=shared_rig).play(200).actions
    assert actions > 5000
