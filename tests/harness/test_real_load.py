"""``Session.game(real_load=True)``: the load's frame budget follows from the tape's length
(the bundled tape, with its loading screen, plays for about 235 s, 11,800 frames: more than
any fixed budget we had)."""

from __future__ import annotations

import pytest

from tests import core_present
from zxmonopoly.asm.build import GAME, image_path
from zxmonopoly.harness.session import GAME_LOAD_BUDGET, load_budget, tape_frames


def test_the_budget_follows_the_tape():
    tape = image_path(GAME)
    frames = tape_frames(tape)
    assert 11600 <= frames <= 12000, "the bundled tape plays for about 235 s"
    assert load_budget(tape, fast=False) > frames
    assert load_budget(tape, fast=True) == GAME_LOAD_BUDGET[True]


@pytest.mark.slow
@pytest.mark.skipif(not core_present(), reason="the Z80 core is not there yet")
def test_a_real_load_reaches_the_title():
    from zxmonopoly.harness import Session

    s = Session.game(engine="jit", real_load=True)
    assert s.row(3).strip() == "M O N O P O L Y"
    assert s.state().phase == "title"
    assert s.frame >= tape_frames(image_path(GAME))
