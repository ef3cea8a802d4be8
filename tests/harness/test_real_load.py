"""``Session.game(real_load=True)``: the load's frame budget follows from the tape's length
(the bundled tape, with its loading screen, plays for about 268 s, 13,389 frames with issue
45's close-up, record, type-ahead and refusals: more than any fixed budget we had)."""

from __future__ import annotations

import pytest

from zxmonopoly import images
from zxmonopoly.harness.session import GAME_LOAD_BUDGET, load_budget, tape_frames


def test_the_budget_follows_the_tape():
    tape = images.game_tape_path()
    frames = tape_frames(tape)
    assert 12600 <= frames <= 14200, "the bundled tape plays for about 268 s"
    assert load_budget(tape, fast=False) > frames
    assert load_budget(tape, fast=True) == GAME_LOAD_BUDGET[True]


@pytest.mark.slow
def test_a_real_load_reaches_the_title():
    from zxmonopoly.harness import Session

    s = Session.game(engine="jit", real_load=True)
    assert s.row(3).strip() == "M O N O P O L Y"
    assert s.state().phase == "title"
    assert s.frame >= tape_frames(images.game_tape_path())
