"""The typing schedule (zxmonopoly.spectrum.keystrokes) against the 48K's KSTATE rule."""

from __future__ import annotations

import pytest

from zxmonopoly.spectrum import keystrokes as ks
from zxmonopoly.spectrum.keyboard import KeyboardError, keys_for_text

SS = "SYMBOL SHIFT"


def _codes(schedule: list[ks.Press], repdel: int = 35) -> list[tuple[str, ...]]:
    return ks.KstateModel(repdel=repdel).run(schedule)


@pytest.mark.parametrize("text", ['p11\n', 'load ""\n', "aaa", "abab", "abcabc", '10 PRINT "x"\n',
                                  "Mississippi", "  ..", "1a1a1"])
def test_every_key_of_a_plan_gives_a_code_under_the_kstate_rule(text: str) -> None:
    schedule = ks.plan_text(text)
    expected = [ks.kstate_key(c) for c in keys_for_text(text)]
    assert _codes(schedule) == expected
    assert _codes(schedule, repdel=25) == expected  # OpenSE BASIC's REPDEL


def test_the_model_drops_what_the_48k_drops() -> None:
    # The old harness timing: 3 frames down, 3 up. The second " is the same key too soon.
    quick = [ks.Press(c, 3, 3) for c in ks.LOAD_QUOTED_K_MODE]
    assert _codes(quick) == [("J",), ("P",), ("ENTER",)]
    # Three different keys, no frame up between: the third finds both sets taken.
    assert _codes([ks.Press((k,), 2, 0) for k in "ABC"]) == [("A",), ("B",)]
    # Held past REPDEL: a repeat.
    assert _codes([ks.Press(("A",), 36, 0)]) == [("A",), ("A",)]


def test_the_same_key_waits_for_its_set_and_different_keys_do_not() -> None:
    schedule = ks.plan([("J",), (SS, "P"), (SS, "P"), ("ENTER",)])
    assert [s.keys for s in schedule] == [("J",), (SS, "P"), (SS, "P"), ("ENTER",)]
    assert [s.hold for s in schedule] == [ks.HOLD_FRAMES] * 4
    assert schedule[0].gap == ks.GAP_FRAMES                 # J then P: different keys
    assert schedule[1].gap == ks.SAME_KEY_UP                # P then P: freed, with the margin
    assert schedule[2].gap == ks.GAP_FRAMES
    assert schedule[3].gap >= ks.SAME_KEY_UP                # whatever is typed next


def test_shifts_do_not_make_a_key_different() -> None:
    assert ks.kstate_key((SS, "P")) == ks.kstate_key(("P",)) == ("P",)
    assert ks.kstate_key(("CAPS SHIFT", SS)) == ("CAPS SHIFT", SS)
    schedule = ks.plan(["P", f"{SS}+P", "CAPS SHIFT+P"])
    assert schedule[0].gap == schedule[1].gap == ks.SAME_KEY_UP


def test_a_third_key_waits_while_two_sets_are_taken() -> None:
    schedule = ks.plan(["A", "B", "C"], hold=2, gap=0)
    assert _codes(schedule) == [("A",), ("B",), ("C",)]
    assert schedule[1].gap > 0  # C had to wait for A's set


def test_holds_and_gaps_are_checked() -> None:
    with pytest.raises(KeyboardError, match="held 1 to 24 frames"):
        ks.plan(["A"], hold=ks.MIN_REPDEL)
    with pytest.raises(KeyboardError, match="held 1 to 24 frames"):
        ks.plan(["A"], hold=0)
    with pytest.raises(KeyboardError, match="0 frames or more"):
        ks.plan(["A"], gap=-1)
    with pytest.raises(KeyboardError, match="unknown key"):
        ks.plan(["NOKEY"])


def test_load_rest_follows_what_the_screen_shows() -> None:
    blank = [" " * 32] * 24
    k_mode = blank[:23] + ["LOAD " + " " * 27]
    assert [s.keys for s in ks.load_rest(k_mode)] == [(SS, "P"), (SS, "P"), ("ENTER",)]
    spelled = [s.keys for s in ks.load_rest(blank[:23] + ["j" + " " * 31])]
    assert spelled == [ks.DELETE, *keys_for_text(ks.LOAD_QUOTED_SPELLED)]
    assert ks.frames_of(ks.load_rest(k_mode)) > 0
