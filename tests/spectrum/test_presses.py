"""A person's presses laid on the frames (zxmonopoly.spectrum.presses, through the KeyFeed):
a tap between two frames held its frames, quick taps in order, the same key again after its
frames up, held keys unchanged; read by the ROM's KSTATE model and by the game's keys_wait."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from zxmonopoly.spectrum import keystrokes
from zxmonopoly.spectrum.keyboard import CAPS_SHIFT, SYMBOL_SHIFT, Keyboard, resolve
from zxmonopoly.spectrum.keyfeed import KeyFeed
from zxmonopoly.spectrum.keystrokes import GAP_FRAMES, HOLD_FRAMES, SAME_KEY_UP, KstateModel
from zxmonopoly.spectrum.presses import Presses

SHIFTS = (CAPS_SHIFT, SYMBOL_SHIFT)


def names(feed: KeyFeed) -> list[str]:
    """The keys down in the frame about to run, by name, in matrix order."""
    keyboard = Keyboard()
    keyboard.rows[:] = np.frombuffer(feed.frame_input().rows, dtype=np.uint8)
    return keyboard.pressed()


def run(feed: KeyFeed, count: int) -> list[list[str]]:
    """The keys of ``count`` frames, the feed advanced after each."""
    out = []
    for _ in range(count):
        feed.begin_frame()
        out.append(names(feed))
        feed.advance()
    return out


def tap(feed: KeyFeed, source: str, keys: str) -> None:
    """A press and its release between two frames."""
    feed.press(source, keys)
    feed.release(source)


class GameScan:
    """The game's keys_wait (src/game/keys.asm), once a frame: every key up, then a key (the
    last non-shift key of the matrix, with its shifts), and again."""

    def __init__(self) -> None:
        self.all_up = True  # waiting already, every key up
        self.taken: list[tuple[str, ...]] = []

    def frame(self, down: list[str]) -> None:
        if not self.all_up:
            self.all_up = not down
            return
        main = [k for k in down if k not in SHIFTS]
        if main:
            self.taken.append(tuple(sorted({main[-1], *(k for k in down if k in SHIFTS)})))
            self.all_up = False


def test_a_tap_between_two_frames_is_down_for_its_frames() -> None:
    feed = KeyFeed()
    tap(feed, "d", "D")
    assert run(feed, HOLD_FRAMES + 2) == [["D"]] * HOLD_FRAMES + [[]] * 2


def test_a_held_key_is_down_as_long_as_it_is_held_and_up_at_once_after() -> None:
    feed = KeyFeed()
    feed.press("d", "D")
    assert run(feed, 20) == [["D"]] * 20
    feed.release("d")
    assert run(feed, 2) == [[], []]


def test_a_short_press_over_a_frame_is_held_its_minimum() -> None:
    feed = KeyFeed()
    feed.press("d", "D")
    assert run(feed, 1) == [["D"]]
    feed.release("d")
    assert run(feed, HOLD_FRAMES) == [["D"]] * (HOLD_FRAMES - 1) + [[]]


def test_the_same_key_tapped_twice_between_two_frames_is_two_presses() -> None:
    feed = KeyFeed()
    tap(feed, "d", "D")
    tap(feed, "d", "D")
    frames = run(feed, 2 * HOLD_FRAMES + SAME_KEY_UP + 1)
    assert frames == ([["D"]] * HOLD_FRAMES + [[]] * SAME_KEY_UP + [["D"]] * HOLD_FRAMES
                      + [[]])
    model = KstateModel()
    assert [model.interrupt(tuple(f)) for f in frames].count(("D",)) == 2


def test_two_keys_tapped_between_two_frames_come_in_order_with_a_gap() -> None:
    feed = KeyFeed()
    tap(feed, "n", "N")
    tap(feed, "y", "Y")
    frames = run(feed, 2 * HOLD_FRAMES + GAP_FRAMES + 1)
    assert frames == [["N"]] * HOLD_FRAMES + [[]] * GAP_FRAMES + [["Y"]] * HOLD_FRAMES + [[]]


def test_shift_and_space_tapped_together_are_break_for_the_frames() -> None:
    feed = KeyFeed()
    feed.press("shift", (CAPS_SHIFT,))
    feed.press("space", ("SPACE",))
    feed.release("space")
    feed.release("shift")
    assert run(feed, HOLD_FRAMES + 1) == [[CAPS_SHIFT, "SPACE"]] * HOLD_FRAMES + [[]]


def test_a_key_pressed_while_another_is_held_goes_down_beside_it() -> None:
    """Rollover as before: N pressed with D held is down at once, both while both are held."""
    feed = KeyFeed()
    feed.press("d", "D")
    assert run(feed, 5) == [["D"]] * 5
    feed.press("n", "N")
    assert run(feed, 2) == [["D", "N"]] * 2
    feed.release("d")
    assert run(feed, 2) == [["N"]] * 2


def test_a_key_pressed_a_frame_after_another_went_up_waits_for_nothing() -> None:
    """At the normal frame rate a person's own gap is kept as it came: no frames added."""
    feed = KeyFeed()
    feed.press("d", "D")
    run(feed, 5)
    feed.release("d")
    assert run(feed, 1) == [[]]
    feed.press("n", "N")
    assert run(feed, 1) == [["N"]]


def test_a_key_pressed_as_another_is_let_go_comes_after_a_gap() -> None:
    feed = KeyFeed()
    feed.press("d", "D")
    run(feed, 5)
    feed.release("d")
    feed.press("n", "N")
    assert run(feed, GAP_FRAMES + 1) == [[]] * GAP_FRAMES + [["N"]]


def test_typed_punctuation_is_alone_and_in_order_with_taps() -> None:
    """A tap, then '"' typed (SYMBOL SHIFT+P alone), then another tap: each in its turn."""
    feed = KeyFeed()
    feed.press("shift", (CAPS_SHIFT,))  # held: the PC Shift that types '"' (hidden by it)
    tap(feed, "d", "D")
    feed.press("quote", resolve((SYMBOL_SHIFT, "P")), frames=4, alone=True, after=2)
    tap(feed, "n", "N")
    assert GAP_FRAMES >= 2  # the gap before the next tap: 2 frames of nothing, the rest shift
    frames = run(feed, HOLD_FRAMES + GAP_FRAMES + 4 + GAP_FRAMES + HOLD_FRAMES + 1)
    assert frames == ([[CAPS_SHIFT, "D"]] * HOLD_FRAMES + [[CAPS_SHIFT]] * GAP_FRAMES
                      + [["P", SYMBOL_SHIFT]] * 4 + [[]] * 2 + [[CAPS_SHIFT]] * (GAP_FRAMES - 2)
                      + [[CAPS_SHIFT, "N"]] * HOLD_FRAMES + [[CAPS_SHIFT]])


def test_a_tap_hidden_by_a_script_waits_and_is_shown_its_frames() -> None:
    """Frames a feed's script or typing hides the presses in do not count to their hold."""
    feed = KeyFeed()
    feed.script_keys([keystrokes.Press(("J",), 2, 0)])
    tap(feed, "d", "D")
    assert run(feed, 2 + HOLD_FRAMES + 1) == [["J"]] * 2 + [["D"]] * HOLD_FRAMES + [[]]
    feed.type([keystrokes.Press(("A",), 1, 1)])
    tap(feed, "n", "N")
    assert run(feed, 2 + HOLD_FRAMES + 1) == [["A"], []] + [["N"]] * HOLD_FRAMES + [[]]


def test_kempston_presses_and_letting_go_of_everything() -> None:
    feed = KeyFeed()
    feed.press("right", (), 0x01)
    feed.release("right")
    assert feed.frame_input().joystick == 0x01
    assert feed.frame_input(0x10).joystick == 0x11  # a pad's fire as well
    feed.hold("joystick", "7")
    tap(feed, "d", "D")
    feed.let_go_all()  # the menu opened: held keys and presses to come are let go
    assert names(feed) == [] and feed.frame_input().joystick == 0
    assert not feed.presses.pending


def test_the_same_key_down_again_without_an_up_is_one_press() -> None:
    presses = Presses()
    combo = resolve("D")
    presses.press("d", combo)
    presses.press("d", combo)  # an auto-repeat or a lost up
    presses.release("d")
    seen = []
    for _ in range(HOLD_FRAMES + 1):
        seen.append(presses.now()[0])
        presses.advance()
    assert seen == [combo] * HOLD_FRAMES + [()]


KEYS_TAPPED = ("A", "D", "N", "Y", "1", "ENTER", "SPACE", "CAPS SHIFT+5", "SYMBOL SHIFT+M")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(KEYS_TAPPED), st.integers(0, 10),
                          st.integers(0, 8)), min_size=1, max_size=8))
def test_every_press_in_order_is_one_keystroke_to_the_rom_and_one_key_to_the_game(
        taps: list[tuple[str, int, int]]) -> None:
    """Presses one after another, each let go before the next (``wait`` frames after the one
    before went up, ``held`` frames down; 0: between the same two frames, as when frames are
    slow): the ROM's KSTATE gives each one code, in order, and the game's keys_wait takes each
    one, in order."""
    events: dict[int, list[tuple[str, str, str]]] = {}
    now = 0
    for k, (keys, wait, held) in enumerate(taps):
        now += wait
        events.setdefault(now, []).append(("down", f"pc{k}", keys))
        now += held
        events.setdefault(now, []).append(("up", f"pc{k}", keys))
    feed = KeyFeed()
    model = KstateModel()
    game = GameScan()
    codes = []
    for frame in range(now + 30 * len(taps)):
        for kind, source, keys in events.get(frame, ()):
            if kind == "down":
                feed.press(source, keys)
            else:
                feed.release(source)
        down = names(feed)
        got = model.interrupt(tuple(down))
        if got is not None:
            codes.append(got)
        game.frame(down)
        feed.advance()
    combos = [tuple(keys.split("+")) for keys, _, _ in taps]
    assert codes == [keystrokes.kstate_key(c) for c in combos]
    assert game.taken == [tuple(sorted(c)) for c in combos]


def test_presses_waiting_for_frames_are_bounded() -> None:
    """While no frame runs (paused, a peer awaited), at most MAX_WAITING presses wait; the
    rest are not taken (nothing grows without end)."""
    from zxmonopoly.spectrum.presses import MAX_WAITING

    presses = Presses()
    for k in range(MAX_WAITING + 10):
        presses.press(k, resolve("D"))
        presses.release(k)
    downs = 0
    was = False
    for _ in range((MAX_WAITING + 10) * (HOLD_FRAMES + SAME_KEY_UP)):
        now = bool(presses.now()[0])
        downs += now and not was
        was = now
        presses.advance()
    assert downs == MAX_WAITING and not presses.pending
