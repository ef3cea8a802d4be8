"""The key feeder: script, typed and held keys, one matrix a frame (zxmonopoly.spectrum.keyfeed)."""

from __future__ import annotations

import numpy as np

from zxmonopoly.spectrum import FrameInput, keystrokes
from zxmonopoly.spectrum.keyboard import KEYS, Keyboard, resolve
from zxmonopoly.spectrum.keyfeed import KeyFeed
from zxmonopoly.spectrum.keystrokes import KstateModel, Press


def pressed(rows: bytes) -> list[str]:
    """The keys down in 8 half-rows, by name, in matrix order."""
    keyboard = Keyboard()
    keyboard.rows[:] = np.frombuffer(rows, dtype=np.uint8)
    return keyboard.pressed()


def names(feed: KeyFeed) -> list[str]:
    """The keys down in the frame about to run, by name, in matrix order."""
    return pressed(feed.frame_input().rows)


def frames(feed: KeyFeed, count: int) -> list[list[str]]:
    """The keys of ``count`` frames, the feed advanced after each."""
    out = []
    for _ in range(count):
        feed.begin_frame()
        out.append(names(feed))
        feed.advance()
    return out


def test_held_keys_of_several_sources_add_up() -> None:
    feed = KeyFeed()
    assert names(feed) == [] and not feed.busy
    feed.hold("a", "A")
    feed.hold("shift", ("CAPS SHIFT",))
    assert names(feed) == ["CAPS SHIFT", "A"]
    feed.hold("a", resolve("S"))  # a source's new keys replace its old ones
    assert names(feed) == ["CAPS SHIFT", "S"]
    feed.let_go("shift")
    feed.let_go("nobody")
    assert names(feed) == ["S"]
    feed.let_go_all()
    assert names(feed) == []


def test_a_typed_combination_and_its_gap_are_alone_then_held_keys_come_back() -> None:
    feed = KeyFeed()
    feed.hold("pc", "Q")
    feed.type([Press(("SYMBOL SHIFT", "P"), 2, 3)])
    assert feed.typing and feed.typed_frames() == 5
    assert frames(feed, 6) == [["P", "SYMBOL SHIFT"]] * 2 + [[]] * 3 + [["Q"]]
    assert not feed.busy


def test_script_keys_come_first_and_typing_waits_for_them() -> None:
    feed = KeyFeed()
    feed.hold("pc", "Q")
    feed.script_wait(2)
    feed.script_keys([Press(("J",), 2, 1)])
    feed.type([Press(("M",), 1, 0)])
    # the script's wait presses nothing of its own: the typed M shows through, then the held
    # Q; the script's J is alone and holds the typing back; its gap lets the rest through
    assert frames(feed, 6) == [["M"], ["Q"], ["J"], ["J"], ["Q"], ["Q"]]
    assert not feed.scripting


def test_typing_paused_by_script_keys_goes_on_after_them() -> None:
    feed = KeyFeed()
    feed.type([Press(("A",), 3, 0)])
    feed.begin_frame()
    feed.advance()  # one frame of A
    feed.script_keys([Press(("J",), 2, 0)])
    assert frames(feed, 5) == [["J"], ["J"], ["A"], ["A"], []]


def test_script_actions_run_at_the_start_of_their_frame_and_may_add_keys_first() -> None:
    feed = KeyFeed()
    seen: list[str] = []
    feed.script_wait(1)
    feed.script_call(lambda: feed.script_next([Press(("ENTER",), 1, 1)]))
    feed.script_call(lambda: seen.append("after"))
    feed.script_call(lambda: seen.append("first"), first=True)
    assert feed.action_due  # "first", before the wait
    assert frames(feed, 1) == [[]] and seen == ["first"]
    assert feed.action_due  # the wait is over: the action that adds ENTER is next
    assert frames(feed, 1) == [["ENTER"]] and seen == ["first"]
    assert not feed.action_due  # ENTER's gap, then "after"
    assert frames(feed, 2) == [[], []] and seen == ["first", "after"]
    assert not feed.busy


def test_clear_forgets_script_and_typing_but_not_held_keys() -> None:
    feed = KeyFeed()
    feed.hold("pc", "Z")
    feed.script_keys([Press(("J",), 5, 0)])
    feed.type_keys(["A", "B"])
    feed.clear()
    assert not feed.busy and names(feed) == ["Z"]


def test_the_frame_input_is_the_matrix_and_the_joystick_given() -> None:
    feed = KeyFeed()
    feed.hold("pc", "CAPS SHIFT+SPACE")
    assert feed.frame_input() == FrameInput(bytes([0xFE] + [0xFF] * 6 + [0xFE]), 0)
    assert feed.frame_input(0x11).joystick == 0x11


def test_typed_keys_keep_the_kstate_rule_frame_by_frame() -> None:
    """What the feed gives frame by frame, read by the ROM's bookkeeping, types every key once:
    the same key twice, three different ones in a row, shifted and not."""
    combos = ["A", "A", "B", "C", "A", "SYMBOL SHIFT+P", "P", "ENTER"]
    feed = KeyFeed()
    feed.hold("pc", "Q")  # let go while typing
    feed.type_keys(combos)
    model = KstateModel()
    codes = []
    while feed.typing:
        got = model.interrupt(tuple(names(feed)))
        if got is not None:
            codes.append(got)
        feed.advance()
    assert codes == [keystrokes.kstate_key(tuple(c.split("+"))) for c in combos]


def test_a_machine_types_through_the_feed_and_keeps_held_keys(engine) -> None:
    from tests.spectrum.roms import COUNTER_ROM, rom
    from zxmonopoly.spectrum import Spectrum48

    m = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    seen: list[bytes] = []
    m.frame_listeners.append(lambda machine: seen.append(bytes(machine.keyboard.rows)))
    m.keyboard.press("M")
    start = m.frame
    m.type_keys(["A", "A"], hold=2, gap=1)
    taken = m.frame - start
    assert taken == keystrokes.frames_of(keystrokes.plan(["A", "A"], 2, 1))
    a_row, a_mask = KEYS["A"]
    down = [bool(~rows[a_row] & a_mask) for rows in seen]
    up = keystrokes.SAME_KEY_UP
    assert down[:2] == [True, True] and down[2:2 + up] == [False] * up
    assert all(rows[KEYS["M"][0]] == 0xFF for rows in seen)  # M let go meanwhile...
    assert m.keyboard.pressed() == ["M"]  # ... and held again after
