"""At the table (issue 45): a key pressed in reaction to a line is taken (type-ahead), a right
stays in view until it lapses (the rent reminder), and every refusal says why for at least
REFUSAL frames. Each test drives the bundled tape as a player does and reads the screen frame
by frame.
"""

from __future__ import annotations

import re

import pytest

from zxmonopoly import images
from zxmonopoly.harness.events import BANK
from zxmonopoly.harness.game import player_field_address
from zxmonopoly.harness.session import Session
from zxmonopoly.memory_map import ATTR_FILE
from zxmonopoly.spectrum.video import row_address
from zxmonopoly.z80 import default_engine

ENGINE = default_engine()
#: A refusal stays at least this many frames, at either speed (msg.asm REFUSAL_FRAMES).
REFUSAL = 50
#: The longest a reminder may be out of view while the message lines are reprinted.
REPRINT = 4


def keys(s: Session, *presses: str) -> None:
    """Each key when the game waits for one."""
    for k in presses:
        s.wait_input(3000)
        s.tap(k)


def game(*names: str, computers: tuple[int, ...] = (), fast: bool = False,
         seed: int = 1234, minutes: int = 0) -> Session:
    """A game of humans named ``names`` (1 ANNE first: she throws 6+5, the others 1+2 for who
    goes first), a short game of ``minutes`` if not 0 (no deeds dealt); then the players
    numbered in ``computers`` play by themselves, at the fast setting if ``fast``. Returns at
    ANNE's first prompt."""
    s = Session.game(engine=ENGINE)
    s.wait_input(500)
    s.tap("SPACE")
    s.seed(seed)
    for piece, name in enumerate(names, 1):
        keys(s, str(piece), "N")
        s.wait_input()
        s.type(name)
        keys(s, "ENTER")
    if minutes:
        keys(s, "ENTER", "Y", "ENTER")  # a short game: no hours, then its minutes
        s.wait_input()
        s.type(str(minutes))
        keys(s, "ENTER", "N", "N", "N", "N")  # no deeds dealt; the three options
    else:
        keys(s, "ENTER", "N", "N", "N", "N")
    for n in range(len(names)):
        s.wait_input()
        s.rig_dice(*((6, 5) if n == 0 else (1, 2)))
        s.tap("D")
    s.wait_input(500)
    sym = s.symbols
    for p in computers:
        flags = sym["v_players"] + (p - 1) * sym["PLAYER_RECORD"] + sym["P_FLAGS"]
        s.poke(flags, s.peek(flags) | 1 << sym["PF_COMPUTER"])
    s.poke("v_speed", sym["AI_SPEED_FAST"] if fast else 0)
    assert s.state().current == 1
    return s


def throws(s: Session, player: int, after: int = -1) -> list:
    """The throw events of ``player`` after frame ``after``."""
    return [e for e in s.events() if e.kind == "throw" and e.a == player and e.frame > after]


def wait_throw(s: Session, player: int, after: int, budget: int = 600) -> int:
    """The frame of ``player``'s first throw after ``after``."""
    s.wait_until(lambda x: bool(throws(x, player, after)), budget, f"player {player}'s throw")
    return throws(s, player, after)[0].frame


class Seen:
    """The frames at whose end ``text`` was in the message lines (a frame listener)."""

    def __init__(self, s: Session, text: str):
        self.s, self.text, self.frames = s, text, []
        s.machine.frame_listeners.append(self.frame)

    def frame(self, machine) -> None:
        if self.s.in_message(self.text):
            self.frames.append(machine.frame)

    def stop(self) -> int:
        """Stop looking; the longest run of frames it stayed."""
        self.s.machine.frame_listeners.remove(self.frame)
        return _longest_run(self.frames)


def _longest_run(frames: list[int]) -> int:
    """The longest run of consecutive frames in ``frames``."""
    best = run = 0
    for i, f in enumerate(frames):
        run = run + 1 if i and f == frames[i - 1] + 1 else 1
        best = max(best, run)
    return best


def _bob_lands_on_annes_station(fast: bool = False) -> Session:
    """ANNE and BOB (humans) and HAL (a computer), ANNE owning King's Cross: ANNE throws to
    Income Tax, BOB from GO onto King's Cross (£25 rent due to ANNE); HAL throws next."""
    s = game("ANNE", "BOB", "HAL", computers=(3,), fast=fast)
    with s.position() as pos:
        pos.own("King's Cross Station", 1)
    s.rig_dice(1, 3)  # ANNE to Income Tax
    s.tap("D")
    s.wait_input(400)
    s.rig_dice(2, 3)  # BOB from GO to King's Cross
    s.tap("D")
    return s


def _hal_lands_on_annes_station(fast: bool = False, minutes: int = 0) -> Session:
    """ANNE (human) and HAL (a computer), ANNE owning King's Cross: ANNE throws to Income Tax,
    and HAL's dice are rigged from GO onto King's Cross (£25 rent due to ANNE)."""
    s = game("ANNE", "HAL", computers=(2,), fast=fast, minutes=minutes)
    with s.position() as pos:
        pos.own("King's Cross Station", 1)
    s.rig_dice(1, 3)  # ANNE to Income Tax
    s.tap("D")
    wait_throw(s, 1, -1)
    s.rig_dice(2, 3)  # HAL from GO to King's Cross
    return s


def refused(s: Session, key: str, text: str, budget: int = 300) -> int:
    """Tap ``key``; ``text`` comes (within 20 frames) and stays REFUSAL frames at least.
    Returns the frames it stayed."""
    seen = Seen(s, text)
    start = s.frame
    s.tap(key)
    s.wait_until(lambda x: bool(seen.frames) and not x.in_message(text), budget,
                 f"{text!r} shown, then gone")
    stayed = seen.stop()
    assert seen.frames[0] - start <= 20, f"{text!r} came {seen.frames[0] - start} frames late"
    assert stayed >= REFUSAL, f"{text!r} stayed {stayed} frames (< {REFUSAL})"
    return stayed


# -- 1. type-ahead --------------------------------------------------------------------------


def test_d_pressed_after_throw_again_is_taken() -> None:
    """The issue's case: ANNE throws 2+2 onto Income Tax; D tapped the moment "Throw again." is
    complete is her next throw (before: ignored, and the prompt asked for D again)."""
    s = game("ANNE", "BOB")
    s.rig_dice(2, 2)
    s.tap("D")
    s.wait_until(lambda x: x.in_message("Income Tax: pay £200. Throw again."), 400,
                 "the tax line and Throw again.")
    s.rig_dice(3, 4)
    s.tap("D")
    s.wait_until(lambda x: x.state().player(1).square == 11, 400, "ANNE's second throw to 11")


def test_key_pressed_before_the_asking_line_is_not_kept() -> None:
    """D pressed while "Income Tax: pay £200." stands, before " Throw again." is added, answers
    nothing: the menu asks for D afresh and ANNE stays on Income Tax."""
    s = game("ANNE", "BOB")
    s.rig_dice(2, 2)
    s.tap("D")
    s.wait_until(lambda x: x.in_message("Income Tax: pay £200."), 400, "the tax line")
    assert not s.in_message("Throw again")
    s.tap("D", 2, 1)
    assert not s.in_message("Throw again"), "the tap came too late for this test"
    s.wait_input(400)
    assert s.in_message("Turn of 1 ANNE")
    s.wait(20)
    assert s.state().player(1).square == 4
    assert len(throws(s, 1)) == 1


def test_key_pressed_in_another_players_turn_is_not_kept() -> None:
    """D tapped while the computer HAL moves is not ANNE's throw when her turn comes."""
    s = game("ANNE", "HAL", computers=(2,))
    s.rig_dice(1, 3)  # ANNE to Income Tax
    s.tap("D")
    wait_throw(s, 1, -1)
    s.rig_dice(1, 2)  # HAL to Whitechapel Road: no double
    hal = wait_throw(s, 2, -1, 800)
    s.tap("D")  # while his token moves
    s.wait_until(lambda x: x.state().current == 1, 800, "ANNE's turn")
    s.wait_input(800)
    s.wait(30)
    assert not throws(s, 1, hal), "a key of HAL's turn threw for ANNE"
    assert s.in_message("Turn of 1 ANNE")


def test_a_digit_pressed_before_the_last_is_let_go_is_taken() -> None:
    """Typing a bid quickly: "5" goes down while the bidder's "1" is still held; both count
    (before: the 5 was lost waiting for every key to be up)."""
    s = game("ANNE", "BOB")
    s.rig_dice(1, 2)  # Whitechapel Road: ANNE declines, the Bank auctions it
    s.tap("D")
    keys(s, "N")
    s.wait_until(lambda x: x.in_message("AUCTION"), 300, "the auction")
    s.wait_input(300)
    s.press("1")
    s.wait(3)
    s.press("5")
    s.wait(3)
    s.release()
    s.wait(3)
    s.wait_input(100)
    s.type("0")
    s.wait_input(100)
    s.tap("ENTER")
    s.wait_until(lambda x: any(e.kind == "bid" for e in x.events()), 100, "the bid")
    bid = next(e for e in s.events() if e.kind == "bid")
    assert bid.a == 1 and bid.amount == 50, str(bid)


def test_a_raise_typed_quickly_is_taken_whole() -> None:
    """Tried in the window: ANNE's £50 is the highest bid; she raises at once, typing 1, 7, 0
    and ENTER as a person does (each 4 frames down, 2 up, none waiting for the prompt). The
    status filled the lines, so the bid's amount started a new part held 2 s and the 7, the 0
    and ENTER were lost ("0 is not a key here", the lot sold for £50): now the amount is asked
    on a line of its own ("1 ANNE bids £") and the raise is £70."""
    s = game("ANNE", "BOB")
    s.rig_dice(1, 2)  # Whitechapel Road: ANNE declines, the Bank auctions it
    s.tap("D")
    keys(s, "N")
    s.wait_until(lambda x: x.in_message("AUCTION"), 300, "the auction")
    keys(s, "1")
    s.wait_input(100)
    s.type("50")
    keys(s, "ENTER")
    s.wait_input(300)
    assert s.in_message("highest £50 by 1 ANNE. Bidder's number, or ENTER to sell:")
    for key in ("1", "7", "0", "ENTER"):
        s.tap(key, 4, 2)
    s.wait_input(300)
    bids = [(e.a, e.amount) for e in s.events() if e.kind == "bid"]
    assert bids == [(1, 50), (1, 70)], bids
    assert s.in_message("highest £70 by 1 ANNE"), s.message_rows()


def test_the_auctions_question_is_whole_on_the_lines_while_it_waits() -> None:
    """Tried in the window: "AUCTION: Fenchurch St. Station: highest £100 by 2 ROBOT. Bidder's
    number, or ENTER to" filled the lines and the game waited under "sell:" alone. With
    ten-letter names and Liverpool St. Station (the longest names) the status needs two parts:
    the question's keys come whole in the part the game waits under, and a bid goes on."""
    s = game("ANNEMARIEK", "BOBBYJONES")
    with s.position() as pos:
        pos.at(1, 32)  # Oxford Street
    s.rig_dice(1, 2)  # to Liverpool St. Station: ANNEMARIEK declines, the Bank auctions it
    s.tap("D")
    keys(s, "N")
    s.wait_until(lambda x: x.in_message("AUCTION: Liverpool St. Station"), 300, "the auction")
    keys(s, "2")
    s.wait_input(300)
    s.type("100")
    keys(s, "ENTER")
    s.wait_until(lambda x: x.in_message("highest £100"), 300, "the status with BOB's bid")
    s.wait_input(400)
    assert s.in_message("Bidder's number, or ENTER to sell:"), s.message_rows()
    keys(s, "1")
    s.wait_input(200)
    s.type("110")
    keys(s, "ENTER")
    s.wait_until(lambda x: any(e.kind == "bid" and e.amount == 110 for e in x.events()), 400,
                 "ANNEMARIEK's bid")


# -- 3. the rent reminder --------------------------------------------------------------------


def _reminder(owner: str, amount: int, payer: str) -> re.Pattern[str]:
    """Who may claim how much from whom, and the key: "1 ANNE ... R ... £25 ... 2 HAL"."""
    return re.compile(rf"{owner}\b.*\bR\b.*£{amount}\b.*\b{payer}\b")


def _watch_reminder(s: Session, pattern: re.Pattern[str], thrower: int, due: int,
                    budget: int) -> list[int]:
    """Frames from ``due`` to ``thrower``'s next throw (or ``budget`` frames) at whose end the
    reminder was NOT in the message lines."""
    missing: list[int] = []
    end = due + budget
    while s.frame < end and not throws(s, thrower, due):
        s.wait(1)
        if not pattern.search(s.message()):
            missing.append(s.frame)
    return missing


@pytest.mark.parametrize("fast", [False, True], ids=["normal", "fast"])
def test_rent_reminder_stays_while_a_human_is_to_throw(fast: bool) -> None:
    """HAL (a computer) lands on ANNE's King's Cross; ANNE (human) throws next. The line
    saying 1 ANNE may press R for £25 from 2 HAL stays in view until she throws (before: 54
    frames at the normal speed, 9 with F on)."""
    s = _hal_lands_on_annes_station(fast=fast)
    s.wait_until(lambda x: x.state().rent is not None, 800, "rent due to ANNE")
    due = s.frame
    missing = _watch_reminder(s, _reminder("1 ANNE", 25, "2 HAL"), 1, due, 600)
    assert _longest_run(missing) <= REPRINT, (
        f"the reminder was out of view {len(missing)} frames from {missing[:1]}: "
        f"{s.message()!r}")
    assert s.state().rent is not None
    s.tap("R")
    s.wait_until(lambda x: any(e.kind == "rent" for e in x.events()), 100, "the rent paid")


@pytest.mark.parametrize(("fast", "after"), [(False, 10), (False, 45), (False, 65), (True, 3)],
                         ids=["normal-10", "normal-45", "normal-65", "fast-3"])
def test_r_typed_while_the_reminder_stands_claims_the_rent(fast: bool, after: int) -> None:
    """HAL lands on ANNE's King's Cross; ANNE throws next. R tapped ``after`` frames after the
    reminder appeared, while it still stands and before her prompt, claims the rent (tried in
    the window: an R pressed 1.1 s after the line came was lost, and the prompt then said the
    rent was still due: from the start of her turn to her prompt the line's reading time ran
    out with no key kept)."""
    s = _hal_lands_on_annes_station(fast=fast)
    s.wait_until(lambda x: x.in_message("1 ANNE may press R for £25 rent from 2 HAL"), 800,
                 "the reminder")
    due = s.frame
    s.wait(after)
    assert not s.in_message("Turn of 1 ANNE"), "her prompt came before the tap"
    assert s.in_message("1 ANNE may press R for £25 rent from 2 HAL")
    s.tap("R")
    s.wait_until(lambda x: any(e.kind == "rent" for e in x.events()), 150, "the rent paid")
    paid = next(e for e in s.events() if e.kind == "rent")
    assert (paid.a, paid.b, paid.amount) == (2, 1, 25)
    assert paid.frame - due < 150
    assert not throws(s, 1, due)


@pytest.mark.parametrize("fast", [False, True], ids=["normal", "fast"])
def test_r_tapped_at_any_frame_before_the_next_prompt_claims_the_rent(tmp_path,
                                                                      fast: bool) -> None:
    """HAL lands on ANNE's King's Cross; ANNE throws next. R tapped (held 3 frames, as the
    window holds a tap) at every frame from the reminder's appearance to her "D to throw"
    prompt claims the rent, at either speed (tried: a tap inside the 4-5 frames of the
    turn's start, while the screen is redrawn and no hold looks at the keys, was lost)."""
    s = _hal_lands_on_annes_station(fast=fast)
    s.wait_until(lambda x: x.in_message("1 ANNE may press R for £25 rent from 2 HAL"), 800,
                 "the reminder")
    due = tmp_path / "due.szx"
    s.save_snapshot(due)
    thrown = len(throws(s, 1))  # (a session from the snapshot reads the events before it)
    start = s.frame
    s.wait_until(lambda x: x.in_message("Turn of 1 ANNE. D to throw."), 800, "her prompt")
    span = s.frame - start
    assert span > 10
    lost = []
    for offset in range(span + 1):
        t = Session.from_snapshot(due, engine=ENGINE, symbols=images.game_symbols_path())
        t.wait(offset)
        t.tap("R")
        t.wait(150)
        paid = [e for e in t.events() if e.kind == "rent"]
        if [(e.a, e.b, e.amount) for e in paid] != [(2, 1, 25)] or len(throws(t, 1)) != thrown:
            lost.append(offset)
    assert not lost, f"R tapped {lost} frames after the reminder came was lost (of {span})"


def test_a_key_other_than_r_in_the_rent_window_is_refused_and_the_reminder_comes_back() -> None:
    """BOB lands on ANNE's King's Cross; HAL (a computer) is about to throw with the rent
    window open: S is refused saying R claims the rent (before: ignored without a word), then
    the reminder is back in view until HAL throws, and R still claims."""
    s = _bob_lands_on_annes_station()
    s.wait_until(lambda x: x.in_message("Turn of 3 HAL"), 600, "HAL's prompt")
    s.rig_dice(1, 2)
    s.wait(30)
    refused(s, "S", "S is not a key here: R claims rent")
    pattern = _reminder("1 ANNE", 25, "2 BOB")
    s.wait(REPRINT)
    assert pattern.search(s.message()), s.message()
    assert not throws(s, 3), "HAL threw in the refusal"
    s.tap("R")
    s.wait_until(lambda x: any(e.kind == "rent" for e in x.events()), 100, "the rent paid")
    assert not throws(s, 3)


@pytest.mark.parametrize("fast", [False, True], ids=["normal", "fast"])
def test_rent_reminder_stays_while_a_computer_is_to_throw(fast: bool) -> None:
    """BOB (human) lands on ANNE's King's Cross; HAL (a computer) throws next: the reminder
    stays in view until HAL throws, at either speed, and the rent is then lost."""
    s = _bob_lands_on_annes_station(fast=fast)
    s.wait_until(lambda x: x.state().rent is not None, 400, "rent due to ANNE")
    due = s.frame
    s.rig_dice(1, 2)  # HAL's throw
    missing = _watch_reminder(s, _reminder("1 ANNE", 25, "2 BOB"), 3, due, 1500)
    assert throws(s, 3, due), "HAL never threw"
    assert _longest_run(missing) <= REPRINT, (
        f"the reminder was out of view {len(missing)} frames from {missing[:1]}")
    s.wait(5)
    assert [e for e in s.events() if e.kind == "rent_lost"]


def test_rent_reminder_stays_between_two_humans() -> None:
    """BOB lands on ANNE's King's Cross; ANNE throws next: the reminder stays at her prompt,
    also after she looks at her credit (C) and comes back."""
    s = game("ANNE", "BOB")
    with s.position() as pos:
        pos.own("King's Cross Station", 1)
    s.rig_dice(1, 3)
    s.tap("D")
    s.wait_input(400)
    s.rig_dice(2, 3)
    s.tap("D")
    s.wait_until(lambda x: x.state().rent is not None, 400, "rent due to ANNE")
    due = s.frame
    pattern = _reminder("1 ANNE", 25, "2 BOB")
    missing = _watch_reminder(s, pattern, 1, due, 400)
    assert _longest_run(missing) <= REPRINT, f"out of view from frame {missing[:1]}"
    s.wait_input()
    s.tap("C")
    keys(s, "SPACE")
    s.wait_input(200)
    assert pattern.search(s.message()), s.message()


def test_rent_reminder_fits_under_a_long_prompt() -> None:
    """Ten-letter names and the owner in jail: the prompt takes two rows, the reminder the
    third ("1 ANNEMARIEK: R for £25 rent."), nothing scrolled away."""
    s = game("ANNEMARIEK", "BOBBYJONES")
    with s.position() as pos:
        pos.own("King's Cross Station", 1)
        pos.jail(1)
        pos.turn(2)
    keys(s, "C", "SPACE")  # (the menu's prompt again, now BOB's)
    s.wait_input(200)
    assert s.in_message("Turn of 2 BOBBYJONES")
    s.rig_dice(2, 3)
    s.tap("D")
    s.wait_until(lambda x: x.state().rent is not None, 400, "rent due")
    s.wait_input(400)
    assert s.in_message("Turn of 1 ANNEMARIEK (in jail). D to throw."), s.message_rows()
    assert s.in_message("1 ANNEMARIEK: R for £25 rent."), s.message_rows()


# -- 4. refusals say why ----------------------------------------------------------------------


def test_r_with_no_rent_due_says_so() -> None:
    """R at ANNE's prompt with no rent due: a line says why, for at least REFUSAL frames
    (before: "No rent is due." for 25 frames)."""
    s = game("ANNE", "BOB")
    refused(s, "R", "No rent is due")
    s.wait_input(200)
    assert s.in_message("Turn of 1 ANNE")


def test_h_with_no_complete_group_says_so_at_once() -> None:
    """H when no player has a complete colour group: said at once (before: four prompts)."""
    s = game("ANNE", "BOB")
    refused(s, "H", "complete colour group")
    s.wait_input(200)
    assert s.in_message("Turn of 1 ANNE")


def test_houses_order_of_a_player_with_no_group_refused_at_once() -> None:
    """ANNE has the brown group, BOB nothing: BOB's number as a builder is refused at once,
    saying why, and the question comes back."""
    s = game("ANNE", "BOB")
    with s.position() as pos:
        pos.own("Old Kent Road", 1)
        pos.own("Whitechapel Road", 1)
    keys(s, "H", "B")
    s.wait_input(200)
    refused(s, "2", "2 BOB has no complete colour group")
    s.wait_input(200)
    assert s.in_message("who wants to build")


def test_houses_prompt_states_the_price() -> None:
    """The Houses order states what a house costs on each of the player's groups."""
    s = game("ANNE", "BOB")
    with s.position() as pos:
        for square in ("Old Kent Road", "Whitechapel Road", "Bow Street", "Marlborough Street",
                       "Vine Street"):
            pos.own(square, 1)
    keys(s, "H", "B", "1")
    s.wait_input(200)
    assert s.in_message("houses wanted")
    assert "£50 brown" in s.message() and "£100 orange" in s.message(), s.message()


def test_a_question_refuses_other_keys_saying_which() -> None:
    """ENTER at "Buy ...? (Y/N)": a line says Y or N, then the question is back."""
    s = game("ANNE", "BOB")
    s.rig_dice(1, 2)
    s.tap("D")
    s.wait_input(300)
    assert s.in_message("Buy Whitechapel Rd. for £60?")
    refused(s, "ENTER", "ENTER is not a key here: Y or N")
    s.wait_input(200)
    assert s.in_message("Buy Whitechapel Rd. for £60? (Y/N)")
    s.tap("Y")
    s.wait_until(lambda x: x.state().square(3).owner == 1, 100, "bought")


def _rows(s: Session, rows: range) -> bytes:
    """Rows of the screen: every pixel byte (a pixel line after another), then the colours."""
    mem = s.machine.memory
    pixels = b"".join(bytes(mem[row_address(y):row_address(y) + 32])
                      for y in range(8 * rows.start, 8 * rows.stop))
    return pixels + bytes(mem[ATTR_FILE + 32 * rows.start:ATTR_FILE + 32 * rows.stop])


def test_a_refusal_right_after_a_walk_gives_the_lines_back_exactly() -> None:
    """A refusal keeps the message lines under it in the close-up's picture (the message lines'
    offsets of its pages, refuse.asm), where the walk's close-ups were just drawn: after it the
    question's lines are back byte for byte, pixels and colours, the close-up's rows as they
    were, and the kept copy is where the picture's pages keep the message lines."""
    s = game("ANNE", "BOB")
    sym = s.symbols
    top, height, msg = sym["CLOSEUP_TOP"], sym["CLOSEUP_HEIGHT"], sym["MSG_TOP"]
    closeup, lines = range(top, top + height), range(msg, msg + sym["MSG_HEIGHT"])
    s.rig_dice(1, 2)
    s.tap("D")                                      # a walk of three squares, each close-up
    s.wait_input(300)
    assert s.in_message("Buy Whitechapel Rd. for £60? (Y/N)")
    question, picture = _rows(s, lines), _rows(s, closeup)
    refused(s, "ENTER", "ENTER is not a key here: Y or N")
    s.wait_input(200)
    assert _rows(s, lines) == question
    assert _rows(s, closeup) == picture
    mem, run = s.machine.memory, 32 * len(lines)
    for n in range(8):                              # pixel line n of each row: page n
        at = sym["CU_PICTURE"] + 256 * n + sym["CU_MSG_OFFSET"]
        assert bytes(mem[at:at + run]) == b"".join(
            question[32 * (8 * r + n):32 * (8 * r + n) + 32] for r in range(len(lines)))
    at = sym["CU_PICTURE_ATTRS"] + sym["CU_MSG_OFFSET"]
    assert bytes(mem[at:at + run]) == question[8 * run:]


def test_menu_refuses_a_key_it_does_not_know() -> None:
    """A letter that is no menu key says which keys are; X without the option says so."""
    s = game("ANNE", "BOB")
    refused(s, "S", "S is not a key here: D throws")
    s.wait_input(200)
    refused(s, "X", "retires a player only with that option")
    s.wait_input(200)
    assert s.in_message("Turn of 1 ANNE")


def test_a_players_number_not_in_the_game_is_refused() -> None:
    """Auction: a bidder's number of nobody in the game says so; the question is back."""
    s = game("ANNE", "BOB")
    s.rig_dice(1, 2)
    s.tap("D")
    keys(s, "N")
    s.wait_until(lambda x: x.in_message("AUCTION"), 300, "the auction")
    s.wait_input(200)
    refused(s, "5", "No player 5 in the game")
    s.wait_input(200)
    assert s.in_message("Bidder's number")


def test_the_cursor_refuses_other_keys_saying_which() -> None:
    """M's cursor: a key it does not take names the keys it does; the help is back after."""
    s = game("ANNE", "BOB")
    with s.position() as pos:
        pos.own("Old Kent Road", 1)
    keys(s, "M")
    s.wait_input(200)
    refused(s, "K", "K is not a key here: CAPS+5/8 move")
    s.wait_input(200)
    assert s.in_message("MORTGAGE: CAPS+5/8 move")
    keys(s, "Q")
    s.wait_input(200)
    assert s.in_message("Turn of 1 ANNE")


def test_m_with_no_property_says_so_at_once() -> None:
    """M when no human player owns property: said at once, not after the cursor."""
    s = game("ANNE", "BOB")
    refused(s, "M", "No human player owns property")


# -- tried as a player would (issue 45's last step) -------------------------------------------


def _hals_prompt() -> Session:
    """ANNE (human) throws to Income Tax; HAL (a computer) is about to throw, his dice rigged
    to 1+2."""
    s = game("ANNE", "HAL", computers=(2,))
    s.rig_dice(1, 3)  # ANNE to Income Tax
    s.tap("D")
    s.wait_until(lambda x: x.in_message("Turn of 2 HAL (computer) is about to throw."), 600,
                 "HAL's prompt")
    s.rig_dice(1, 2)
    return s


def test_a_computers_pause_refuses_a_key_it_does_not_know() -> None:
    """S pressed while HAL (a computer) is about to throw: a line says which keys the menu
    takes, as at a human's prompt (before: ignored without a word), then HAL's prompt is back
    and he throws."""
    s = _hals_prompt()
    s.wait(30)  # (within his pause of 60 frames; his prompt has stood most of its 50)
    refused(s, "S", "S is not a key here: D throws")
    s.wait_until(lambda x: x.in_message("Turn of 2 HAL (computer) is about to throw."), 100,
                 "HAL's prompt back")
    wait_throw(s, 2, -1, 400)


def test_rent_reminder_and_throw_again_with_long_names_read_whole() -> None:
    """Ten-letter names: BOBBYJONES throws 6+6 onto ANNEMARIEK's Electric Company. The
    reminder fills the three rows, " Throw again." does not fit after it: it comes whole in
    a part of its own, after the reminder was held (before: "Throw" ended the full rows and
    "again." stood alone 26 frames); the prompt then says it all again."""
    s = game("ANNEMARIEK", "BOBBYJONES")
    with s.position() as pos:
        pos.own("Electric Company", 1)
        pos.turn(2)
    keys(s, "C", "SPACE")  # (the menu's prompt again, now BOB's)
    s.wait_input(200)
    s.rig_dice(6, 6)
    s.tap("D")
    s.wait_until(lambda x: x.in_message("throws 6+6"), 100, "the throw")
    texts: list[str] = []
    reminder = Seen(s, "1 ANNEMARIEK may press R for £48 rent from 2 BOBBYJONES before the "
                    "next throw.")
    s.wait_until(lambda x: texts.append(x.message()) or x.in_message("Turn of 2 BOBBYJONES"),
                 800, "BOBBYJONES's prompt again")
    assert reminder.stop() >= 100, "the reminder was not held as a part"
    halves = [t for t in texts if "again" in t and "Throw again." not in t
              or t.endswith("Throw")]
    assert not halves, halves[:3]
    assert any(t == "Throw again." for t in texts), sorted(set(texts))
    s.wait_input(300)
    assert s.in_message("1 ANNEMARIEK: R for £48 rent."), s.message_rows()


@pytest.mark.parametrize("fast", [False, True], ids=["normal", "fast"])
def test_a_key_pressed_as_a_computers_prompt_comes_is_refused(fast: bool) -> None:
    """S tapped the moment "Turn of 2 HAL (computer) is about to throw." is complete: refused,
    saying which keys the menu takes (tried at 5 frames a second: such a key was swallowed
    while the pause waited for every key to be up, and HAL threw without a word)."""
    s = game("ANNE", "HAL", computers=(2,), fast=fast)
    s.rig_dice(1, 3)  # ANNE to Income Tax
    s.tap("D")
    s.wait_until(lambda x: x.in_message("Turn of 2 HAL (computer) is about to throw."), 600,
                 "HAL's prompt")
    s.rig_dice(1, 2)
    refused(s, "S", "S is not a key here: D throws")
    wait_throw(s, 2, -1, 400)


def test_a_key_typed_over_a_refusal_in_a_computers_pause_counts() -> None:
    """In HAL's pause, S is refused with the menu's keys; C typed while that line is shown is
    taken when it goes (HAL's credit), as at a human's prompt (tried in the window: a key
    pressed as the prompt came back was lost without a word)."""
    s = _hals_prompt()
    s.wait(30)
    s.tap("S")
    s.wait_until(lambda x: x.in_message("S is not a key here"), 40, "the refusal")
    s.wait(10)
    s.tap("C")
    assert s.in_message("S is not a key here"), "the refusal went before C was typed"
    s.wait_until(lambda x: x.in_message("Credit: £"), 100, "HAL's credit")
    assert not throws(s, 2)


# -- no key sequence holds a computer's throw off (issue 45's leftovers) -----------------------

#: A computer's pause before it throws, and the rent window when a human is owed rent
#: (turn.asm COMPUTER_PAUSE, RENT_WINDOW_FRAMES).
COMPUTER_PAUSE = 60
RENT_WINDOW = 200
#: From the pause's end to the throw's record: the last refusal's minimum, the prompt again,
#: the rattle and the dice tumbling (measured with a key tapped every 4 frames: 67 frames at
#: most, R with no rent due; with no key 17).
THROW_SLACK = REFUSAL + 30
#: A key tapped this often: held 2 frames, let go 2.
MASH_HOLD, MASH_GAP = 2, 2


def _mash_until_throw(s: Session, key: str, thrower: int, budget: int) -> int:
    """Tap ``key`` every few frames from now until ``thrower`` throws; the frames it took
    (AssertionError when ``budget`` frames go by without the throw)."""
    start = s.frame
    while not throws(s, thrower, start):
        assert s.frame - start < budget, (
            f"{key} tapped every {MASH_HOLD + MASH_GAP} frames held the throw off "
            f"{s.frame - start} frames: {s.message()!r}")
        s.tap(key, MASH_HOLD, MASH_GAP)
    return throws(s, thrower, start)[0].frame - start


@pytest.mark.parametrize("key", ["S", "R", "X", "ENTER", "F", "C", "B"])
def test_keys_mashed_in_a_computers_pause_do_not_hold_off_its_throw(key: str) -> None:
    """HAL (a computer) is about to throw; a key tapped every 4 frames for as long as it
    takes, one the pause refuses (S, R with no rent due, X without the retire option, ENTER)
    or one it takes (F the fast setting, on and off again; C his credit; B the other board):
    none begins the pause again or lengthens it, and HAL throws when his pause, begun with his
    prompt, is over, at the latest right after the refusal shown then (before: each refusal
    began the pause again, and HAL never threw)."""
    s = _hals_prompt()
    took = _mash_until_throw(s, key, 2, 3000)
    assert took <= COMPUTER_PAUSE + THROW_SLACK, took


#: F's line and its short pause, the prompt again, the rattle and the dice at the fast
#: setting: from F pressed to the throw's record (measured: 18 frames).
FAST_SLACK = 30


def _throw_after_prompt(fast_at: int | None) -> int:
    """HAL's prompt; F tapped ``fast_at`` frames after it (None: no key): the frames from the
    prompt to HAL's throw."""
    s = _hals_prompt()
    start = s.frame
    if fast_at is not None:
        s.wait(fast_at)
        assert not throws(s, 2, start), "HAL threw before F"
        s.tap("F")
        assert s.peek("v_speed") == s.symbols["AI_SPEED_FAST"]
    return wait_throw(s, 2, start) - start


@pytest.mark.parametrize("fast_at", [10, 30])
def test_f_in_a_computers_pause_brings_its_throw_forward(fast_at: int) -> None:
    """F pressed in HAL's pause (60 frames at the normal speed) makes the game fast now: the
    pause ends as if it had begun at the fast speed (an eighth: over already), so HAL throws
    right after F's line, sooner than with no key (77 frames after his prompt). Before, F
    applied only from the next pause: HAL threw 71 frames after his prompt, F or not."""
    without = _throw_after_prompt(None)
    with_f = _throw_after_prompt(fast_at)
    assert with_f <= fast_at + FAST_SLACK, (with_f, without)
    assert with_f < without, (with_f, without)


def test_a_key_mashed_in_the_rent_window_does_not_hold_off_the_throw() -> None:
    """BOB lands on ANNE's King's Cross; HAL (a computer) is about to throw with the rent
    window open. S tapped every 4 frames is refused (the reminder back after each refusal),
    but HAL throws when the window begun with his prompt closes, at the latest right after the
    last refusal's minimum (before: each refusal began the 200-frame window again: never)."""
    s = _bob_lands_on_annes_station()
    s.wait_until(lambda x: x.in_message("Turn of 3 HAL"), 600, "HAL's prompt")
    s.rig_dice(1, 2)
    seen = Seen(s, "S is not a key here: R claims rent")
    took = _mash_until_throw(s, "S", 3, 3000)
    assert seen.stop() >= REFUSAL, "the refusal did not keep its minimum"
    assert took <= RENT_WINDOW + THROW_SLACK, took
    s.wait(5)
    lost = [e for e in s.events() if e.kind == "rent_lost"]
    assert [(e.a, e.b) for e in lost] == [(2, 1)], lost
    assert "not claimed before the next throw" in lost[0].text


# -- the short game's end settles a rent still due (issue 45's leftovers) -----------------------


def _time_up_in(s: Session, frames: int) -> None:
    """Set the short game's clock to run out ``frames`` frames from now (its last minute
    nearly over)."""
    s.poke16("v_clock_minutes", 1)
    s.poke16("v_clock_frames", s.symbols["FRAMES_PER_MINUTE"] - frames)


def _the_end(s: Session) -> list:
    """Wait for the valuation; the record from the first rent event or rent_lost on."""
    s.wait_until(lambda x: any(e.kind == "winner" for e in x.events()), 1500, "the valuation")
    record = s.events()
    first = next(i for i, e in enumerate(record) if e.kind in ("rent", "rent_lost", "game_end"))
    return record[first:]


#: A money line's reading time (msg.asm PACE_MONEY_FRAMES).
PACE_MONEY = 75


def test_time_up_in_a_computer_owners_claim_pays_its_rent() -> None:
    """ANNE lands on HAL's King's Cross; HAL (a computer) claims his rent after its short
    pause, and the short game's time runs out in that pause. HAL's right had not lapsed (there
    is no next throw): the end settles it, ANNE pays him £25 before the valuation, its line
    read out before the table comes, and the record says so before the game's end (before:
    neither paid nor recorded lost)."""
    s = game("ANNE", "HAL", computers=(2,), minutes=1)
    with s.position() as pos:
        pos.own("King's Cross Station", 2)
    s.rig_dice(2, 3)  # ANNE from GO to King's Cross
    s.tap("D")
    s.wait_until(lambda x: x.state().rent is not None, 400, "rent due to HAL")
    assert s.state().rent.owner == 2 and not any(e.kind == "rent" for e in s.events())
    paid = Seen(s, "1 ANNE pays £25 rent to 2 HAL.")
    _time_up_in(s, 3)
    record = _the_end(s)
    assert paid.stop() >= PACE_MONEY, "the table came before the rent's line was read"
    kinds = [e.kind for e in record]
    assert kinds[:2] == ["rent", "game_end"], [str(e) for e in record]
    assert (record[0].a, record[0].b, record[0].amount) == (1, 2, 25)
    assert "time is up" in record[1].text
    assert "rent_lost" not in kinds
    worth = {e.a: e.amount for e in record if e.kind == "worth"}
    assert worth == {1: 1500 - 25, 2: 1500 + 25 + 200}, worth


@pytest.mark.parametrize("end", ["time", "break"])
def test_a_humans_rent_unclaimed_at_the_end_is_recorded_lost(end: str) -> None:
    """HAL (a computer) lands on ANNE's King's Cross; at ANNE's prompt, the reminder in view,
    the game ends (the short game's time, or CAPS SHIFT+SPACE and Y) before she presses R.
    She has not asked: the rent is lost, and the record says so with its cause, the game's
    end, before the end itself (before: no record of it at all)."""
    s = _hal_lands_on_annes_station(minutes=1)
    s.wait_until(lambda x: x.in_message("Turn of 1 ANNE"), 800, "ANNE's prompt")
    s.wait_input(200)
    assert s.state().rent is not None and s.state().rent.owner == 1
    if end == "time":
        _time_up_in(s, 3)
    else:
        s.tap("CAPS SHIFT+SPACE")
        keys(s, "Y")
    record = _the_end(s)
    kinds = [e.kind for e in record]
    assert kinds[:2] == ["rent_lost", "game_end"], [str(e) for e in record]
    lost = record[0]
    assert (lost.a, lost.b, lost.square) == (2, 1, 5)
    why = "the short game's time is up" if end == "time" else "ended by CAPS SHIFT+SPACE"
    assert lost.text == (f"2 HAL's rent to 1 ANNE for King's Cross Station is lost: not "
                         f"claimed before the game ended ({why})"), lost.text
    assert "rent" not in kinds


# -- the short game's end waits for a debt being paid (issue 45's leftovers) --------------------

#: The lines of a human payer's raising (houses_raise_human), owing a player.
RAISING = "Q: the computer chooses."


@pytest.mark.parametrize("how", ["ENTER", "Q"])
def test_time_up_while_a_human_raises_a_rent_waits_for_the_payment(how: str) -> None:
    """ANNE (£10) lands on HAL's King's Cross; HAL claims £25 at once and ANNE, short, is led
    through raising it. The short game's time runs out while she chooses: the end waits, the
    clock at 0:00, until she mortgages Old Kent Road herself (ENTER) or lets the computer
    choose (Q); she pays HAL, and only then "Time is up!" and the valuation. The record says
    it in order: the mortgage, the rent, the game's end (before: the game ended at once, the
    rent, marked claimed, neither paid nor recorded lost; ANNE worth £70, HAL £1700)."""
    s = game("ANNE", "HAL", computers=(2,), minutes=1)
    with s.position() as pos:
        pos.own("King's Cross Station", 2)
        pos.own("Old Kent Road", 1)
        pos.cash(1, 10)
    s.rig_dice(2, 3)  # ANNE from GO to King's Cross
    s.tap("D")
    _asked_when_time_is_up(s, what="ANNE raising the rent", kinds=("game_end", "rent"))
    if how == "ENTER":
        s.tap("CAPS SHIFT+5")  # GO -> Old Kent Road
        s.wait(10)
    s.tap(how)
    s.wait_until(lambda x: x.in_message("Time is up!"), 600, "the end after the payment")
    record = _the_end(s)
    start = next(i for i, e in enumerate(s.events()) if e.kind == "mortgage")
    kinds = [e.kind for e in s.events()[start:]]
    assert kinds[:3] == ["mortgage", "rent", "game_end"], [str(e) for e in s.events()[start:]]
    rent = record[0]
    assert (rent.a, rent.b, rent.amount, rent.square) == (1, 2, 25, 5)
    worth = {e.a: e.amount for e in record if e.kind == "worth"}
    assert worth == {1: 10 + 30 - 25 + 30, 2: 1500 + 25 + 200}, worth


def test_time_up_while_a_computer_raises_a_tax_waits_for_the_payment() -> None:
    """HAL (a computer, £10) lands on Income Tax (£200) and raises it himself: four houses
    sold, then three mortgages, each shown with its pause. The short game's time runs out in
    the first sale's pause: the end waits until he has raised it all and paid the tax (before:
    the game ended after a sale or two, the tax never paid)."""
    s = game("ANNE", "HAL", computers=(2,), minutes=1)
    with s.position() as pos:
        pos.own("Old Kent Road", 2, houses=2)
        pos.own("Whitechapel Road", 2, houses=2)
        pos.own("Mayfair", 2)
        pos.cash(2, 10)
    s.rig_dice(6, 4)  # ANNE from GO to Jail, just visiting
    s.tap("D")
    wait_throw(s, 1, -1)
    s.rig_dice(1, 3)  # HAL from GO to Income Tax
    s.wait_until(lambda x: any(e.kind == "sell" for e in x.events()), 1200, "HAL's first sale")
    _time_up_in(s, 3)
    _the_end(s)
    record = s.events()
    start = next(i for i, e in enumerate(record) if e.kind == "sell")
    kinds = [e.kind for e in record[start:]]
    assert kinds[:9] == ["sell"] * 4 + ["mortgage"] * 3 + ["tax", "game_end"], kinds
    tax = record[start + 7]
    assert (tax.a, tax.amount, tax.square) == (2, 200, 4), str(tax)
    worth = {e.a: e.amount for e in record if e.kind == "worth"}
    assert worth[2] == 10 + 4 * 25 + 30 + 30 + 200 - 200 + 30 + 30 + 200, worth


# -- the same for a card, the jail's fine and a bankruptcy ----------------------------------------


def _asked_when_time_is_up(s: Session, question: str = RAISING,
                           what: str = "the payer raising the debt",
                           kinds: tuple[str, ...] = ("game_end",)) -> None:
    """Wait for a human's question (a payer's raising by default), run the short game's time
    out while he chooses, and check that the end waits: 300 frames later the question still
    asked, 0:00 shown, none of ``kinds`` recorded."""
    s.wait_until(lambda x: x.in_message(question), 900, what)
    s.wait_input(200)
    _time_up_in(s, 3)
    s.wait(300)
    assert s.in_message(question), s.message_rows()
    assert "0:00" in s.text(), "the clock does not show the time is up"
    assert not any(e.kind in kinds for e in s.events()), [str(e) for e in s.events()[-5:]]


def _school_fees_when_time_is_up(s: Session, site: str) -> None:
    """ANNE, with £10 and ``site``, draws Chance "Pay school fees of £150" (CH10) and raises
    it; the time runs out while she chooses (the end waits: ``_asked_when_time_is_up``)."""
    with s.position() as pos:
        pos.own(site, 1)
        pos.cash(1, 10)
        pos.next_card("chance", "CH10")
    s.rig_dice(3, 4)  # ANNE from GO to Chance
    s.tap("D")
    _asked_when_time_is_up(s)


def _close_auction_when_time_is_up(s: Session, site: str) -> None:
    """Wait for a bankruptcy's auction of ``site`` (its short name) after the time is up, check
    the end waits for it (0:00 shown, no game_end), and close it with ENTER."""
    s.wait_until(lambda x: x.in_message(f"AUCTION: {site}: highest"), 1500,
                 f"the auction of {site}")
    s.wait_input(300)
    assert "0:00" in s.text() and not any(e.kind == "game_end" for e in s.events())
    s.tap("ENTER")


def _from(record: list, kind: str) -> list:
    """The record from the first event of ``kind`` on."""
    return record[next(i for i, e in enumerate(record) if e.kind == kind):]


def _worth(record: list) -> dict:
    """The valuation: each player's total by his number."""
    return {e.a: e.amount for e in record if e.kind == "worth"}


def _card_code(pack: int, card: str) -> int:
    """A card's code in the record (pack * 16 + its number: CH10 -> 9)."""
    return pack * 16 + int(card[2:]) - 1


def test_time_up_while_a_human_raises_a_cards_payment_waits_for_it() -> None:
    """ANNE (£10, Mayfair) draws Chance "Pay school fees of £150" and is led through raising
    it; the short game's time runs out while she chooses. The end waits until she mortgages
    Mayfair and pays the Bank; then the game ends at once: the record goes from the card's
    payment straight to the game's end (no turn of HAL's begun and never played), and ANNE is
    valued at her £60 and the mortgaged Mayfair (£200)."""
    s = game("ANNE", "HAL", computers=(2,), minutes=1)
    _school_fees_when_time_is_up(s, "Mayfair")
    assert not any(e.kind == "card" for e in s.events())
    s.tap("CAPS SHIFT+8")  # GO -> Mayfair
    s.wait(10)
    s.tap("ENTER")
    _the_end(s)
    record = _from(s.events(), "card_drawn")
    assert [e.kind for e in record[:4]] == ["card_drawn", "mortgage", "card", "game_end"], \
        [str(e) for e in record]
    drawn, mortgage, card, end = record[:4]
    assert drawn.square == _card_code(0, "CH10")
    assert (mortgage.a, mortgage.b, mortgage.square, mortgage.amount) == (BANK, 1, 39, 200)
    assert (card.a, card.b, card.square, card.amount) == (1, BANK, drawn.square, 150)
    assert card.text.endswith('Chance "Pay school fees of £150"'), card.text
    assert "time is up" in end.text
    assert _worth(record) == {1: 10 + 200 - 150 + 200, 2: 1500}, _worth(record)


def _mortgage_old_kent_road_to_the_end(s: Session) -> None:
    """At the raising's choice: the cursor from GO to Old Kent Road, ENTER mortgages it (the
    debt is paid), and the valuation follows."""
    s.tap("CAPS SHIFT+5")  # GO -> Old Kent Road
    s.wait(10)
    s.tap("ENTER")
    _the_end(s)

def test_time_up_while_a_birthdays_payers_raise_it_waits_for_them_all() -> None:
    """ANNE draws "It is your birthday. Collect £10 from each player"; BOB (a human) and HAL
    (a computer) each have £5 and a site. The time runs out while BOB chooses: the end waits
    for his payment (Old Kent Road mortgaged) and then for HAL's, who is short too and
    mortgages Whitechapel Road by himself after the time is up; both pay ANNE, each payment
    with the card as its cause, and only then the game ends."""
    s = game("ANNE", "BOB", "HAL", computers=(3,), minutes=1)
    with s.position() as pos:
        pos.at(1, "Northumberland Avenue")
        pos.own("Old Kent Road", 2)
        pos.cash(2, 5)
        pos.own("Whitechapel Road", 3)
        pos.cash(3, 5)
        pos.next_card("chest", "CC14")
    s.rig_dice(1, 2)  # ANNE from Northumberland Avenue to Community Chest
    s.tap("D")
    _asked_when_time_is_up(s)
    assert not any(e.kind in ("card", "mortgage") for e in s.events())
    _mortgage_old_kent_road_to_the_end(s)
    record = _from(s.events(), "card_drawn")
    kinds = [e.kind for e in record[:6]]
    assert kinds == ["card_drawn", "mortgage", "card", "mortgage", "card", "game_end"], \
        [str(e) for e in record]
    drawn = record[0]
    assert drawn.square == _card_code(1, "CC14")
    for mortgage, card, payer, site in ((record[1], record[2], 2, 1),
                                        (record[3], record[4], 3, 3)):
        assert (mortgage.a, mortgage.b, mortgage.square, mortgage.amount) == (BANK, payer,
                                                                              site, 30)
        assert (card.a, card.b, card.square, card.amount) == (payer, 1, drawn.square, 10)
        assert "It is your birthday" in card.text, card.text
    assert _worth(record) == {1: 1500 + 2 * 10, 2: 5 + 30 - 10 + 30, 3: 5 + 30 - 10 + 30}


#: The question of Community Chest "Pay a £10 fine or take a Chance" (cards.asm).
FINE_OR_CHANCE = "Take a Chance (N: pay the £10 fine)?"


@pytest.mark.parametrize("answer, chance", [("N", "CH12"), ("Y", "CH12"), ("Y", "CH06")])
def test_time_up_at_the_fine_or_chance_question_waits_for_the_answer(answer: str,
                                                                      chance: str) -> None:
    """ANNE draws Community Chest "Pay a £10 fine or take a Chance" and is asked whether she
    takes a Chance; the short game's time runs out while the question waits. The card must be
    obeyed and she is in play (booklet A: "allowed to complete his move, and any transactions
    in connection with it"), so the end waits for her answer, the clock at 0:00. N: she pays
    the £10 fine, then the game ends. Y: she draws the Chance card and it is carried out -
    "Speeding fine £15" paid, or "Advance to Mayfair" (HAL's: his £50 rent settled at the end)
    - then the game ends."""
    s = game("ANNE", "HAL", computers=(2,), minutes=1)
    with s.position() as pos:
        pos.at(1, "Northumberland Avenue")
        pos.own("Mayfair", 2)
        pos.next_card("chest", "CC16")
        pos.next_card("chance", chance)
    s.rig_dice(1, 2)  # ANNE from Northumberland Avenue to Community Chest
    s.tap("D")
    _asked_when_time_is_up(s, FINE_OR_CHANCE, "the card's question")
    s.tap(answer)
    _the_end(s)
    record = _from(s.events(), "card_drawn")
    kinds = [e.kind for e in record]
    drawn = record[0]
    assert drawn.square == _card_code(1, "CC16")
    if answer == "N":
        assert kinds[:3] == ["card_drawn", "fine_card", "game_end"], [str(e) for e in record]
        fine = record[1]
        assert (fine.a, fine.b, fine.square, fine.amount) == (1, BANK, drawn.square, 10)
        assert _worth(record) == {1: 1500 - 10, 2: 1500 + 400}, _worth(record)
    elif chance == "CH12":
        assert kinds[:4] == ["card_drawn", "card_drawn", "card", "game_end"], \
            [str(e) for e in record]
        taken, card = record[1:3]
        assert taken.square == _card_code(0, "CH12")
        assert (card.a, card.b, card.square, card.amount) == (1, BANK, taken.square, 15)
        assert _worth(record) == {1: 1500 - 15, 2: 1500 + 400}, _worth(record)
    else:
        assert kinds[:5] == ["card_drawn", "card_drawn", "move", "rent", "game_end"], \
            [str(e) for e in record]
        taken, move, rent = record[1:4]
        assert taken.square == _card_code(0, "CH06")
        assert (move.a, move.b, move.square) == (1, 17, 39)
        assert (rent.a, rent.b, rent.square, rent.amount) == (1, 2, 39, 50)
        assert _worth(record) == {1: 1500 - 50, 2: 1500 + 50 + 400}, _worth(record)
    assert "time is up" in record[kinds.index("game_end")].text


@pytest.mark.parametrize("personality", ["PERS_STEADY", "PERS_RECKLESS"])
def test_time_up_as_a_computer_draws_fine_or_chance_waits_for_its_choice(
        personality: str) -> None:
    """HAL (a computer) draws Community Chest "Pay a £10 fine or take a Chance", and the short
    game's time runs out while the card is shown. He is in play and the card must be obeyed:
    the end waits for his choice and what it brings - a steady player pays the £10 fine, a
    reckless one takes a Chance and pays its "Speeding fine £15" - then the game ends."""
    s = game("ANNE", "HAL", computers=(2,), minutes=1)
    with s.position() as pos:
        pos.at(2, "Northumberland Avenue")
        pos.next_card("chest", "CC16")
        pos.next_card("chance", "CH12")
    s.poke(player_field_address(s.symbols, 2, "P_PERSONALITY"), s.symbols[personality])
    s.rig_dice(6, 4)  # ANNE from GO to Jail, just visiting
    s.tap("D")
    wait_throw(s, 1, -1)
    s.rig_dice(1, 2)  # HAL from Northumberland Avenue to Community Chest
    s.wait_until(lambda x: any(e.kind == "card_drawn" for e in x.events()), 1200,
                 "HAL's card")
    _time_up_in(s, 3)
    _the_end(s)
    record = _from(s.events(), "card_drawn")
    kinds = [e.kind for e in record]
    drawn = record[0]
    assert (drawn.a, drawn.square) == (2, _card_code(1, "CC16"))
    if personality == "PERS_STEADY":
        assert kinds[:3] == ["card_drawn", "fine_card", "game_end"], [str(e) for e in record]
        fine = record[1]
        assert (fine.a, fine.b, fine.square, fine.amount) == (2, BANK, drawn.square, 10)
        assert _worth(record) == {1: 1500, 2: 1500 - 10}, _worth(record)
    else:
        assert kinds[:4] == ["card_drawn", "card_drawn", "card", "game_end"], \
            [str(e) for e in record]
        taken, card = record[1:3]
        assert (taken.a, taken.square) == (2, _card_code(0, "CH12"))
        assert (card.a, card.b, card.square, card.amount) == (2, BANK, taken.square, 15)
        assert _worth(record) == {1: 1500, 2: 1500 - 15}, _worth(record)


def test_time_up_while_a_human_raises_the_jail_fine_waits_for_it() -> None:
    """ANNE (£30, Old Kent Road) fails her third throw in jail and must pay the £50 fine and
    move; short, she raises it, and the time runs out while she chooses. The end waits until
    she mortgages Old Kent Road and pays; she leaves jail and completes her move by the throw
    (booklet A: "allowed to complete his move"), and the game ends before anything else."""
    s = game("ANNE", "HAL", computers=(2,), minutes=1)
    with s.position() as pos:
        pos.jail(1, 2)
        pos.cash(1, 30)
        pos.own("Old Kent Road", 1)
    s.rig_dice(1, 2)  # no double: the third failed throw
    s.tap("D")
    _asked_when_time_is_up(s)
    assert not any(e.kind in ("fine", "jail_out") for e in s.events())
    _mortgage_old_kent_road_to_the_end(s)
    record = _from(s.events(), "mortgage")
    assert [e.kind for e in record[:5]] == ["mortgage", "fine", "jail_out", "move", "game_end"], \
        [str(e) for e in record]
    mortgage, fine, out, move, _ = record[:5]
    assert (mortgage.b, mortgage.square, mortgage.amount) == (1, 1, 30)
    assert (fine.a, fine.b, fine.amount) == (1, BANK, 50)
    assert (out.a, out.extra) == (1, s.symbols["JAIL_OUT_FINE"])
    assert (move.a, move.b, move.square) == (1, 10, 13)
    assert _worth(record) == {1: 30 + 30 - 50 + 30, 2: 1500}, _worth(record)


def test_time_up_while_a_computer_raises_the_jail_fine_waits_for_it() -> None:
    """HAL (a computer, £10, Old Kent Road and Whitechapel Road) fails his third throw in jail
    and must pay the £50 fine and move (booklet A); short, he raises it himself, a mortgage at
    a time, each with its pause, and the short game's time runs out in the first one. The end
    waits until he has mortgaged both sites and paid the fine; he leaves jail and completes
    his move by the throw (to Free Parking: "allowed to complete his move"), and the game
    ends there, no turn of ANNE's begun after."""
    s = game("ANNE", "HAL", computers=(2,), minutes=1)
    with s.position() as pos:
        pos.jail(2, 2)
        pos.cash(2, 10)
        pos.own("Old Kent Road", 2)
        pos.own("Whitechapel Road", 2)
    s.rig_dice(6, 4)  # ANNE from GO to Jail, just visiting
    s.tap("D")
    wait_throw(s, 1, -1)
    s.rig_dice(4, 6)  # HAL's third throw in jail, no double: Free Parking once he has paid
    s.wait_until(lambda x: any(e.kind == "mortgage" for e in x.events()), 1200,
                 "HAL's first mortgage")
    assert not any(e.kind == "fine" for e in s.events())
    _time_up_in(s, 3)
    _the_end(s)
    record = _from(s.events(), "mortgage")
    assert [e.kind for e in record[:6]] == ["mortgage", "mortgage", "fine", "jail_out", "move",
                                            "game_end"], [str(e) for e in record]
    first, second, fine, out, move, end = record[:6]
    assert [(m.a, m.b, m.square, m.amount) for m in (first, second)] == [(BANK, 2, 1, 30),
                                                                         (BANK, 2, 3, 30)]
    assert (fine.a, fine.b, fine.amount) == (2, BANK, 50)
    assert (out.a, out.extra) == (2, s.symbols["JAIL_OUT_FINE"])
    assert (move.a, move.b, move.square) == (2, 10, 20)
    assert "time is up" in end.text
    assert not any(e.kind == "turn" for e in record), [str(e) for e in record]
    assert _worth(record) == {1: 1500, 2: 10 + 30 + 30 - 50 + 30 + 30}, _worth(record)


def test_time_up_while_a_human_cannot_raise_a_rent_ends_after_the_bankruptcy() -> None:
    """ANNE (£10, Old Kent Road) lands on HAL's King's Cross (HAL has two stations: £50);
    the time runs out while she raises it. Q: the computer mortgages Old Kent Road for her,
    £40 is still short, and she goes bankrupt to HAL: her cash and the mortgaged deed are his
    (he pays the 10 %). Then the game ends, BOB and HAL left, and HAL's total counts what he
    took over."""
    s = game("ANNE", "BOB", "HAL", computers=(3,), minutes=1)
    with s.position() as pos:
        pos.own("King's Cross Station", 3)
        pos.own("Marylebone Station", 3)
        pos.own("Old Kent Road", 1)
        pos.cash(1, 10)
    s.rig_dice(2, 3)  # ANNE from GO to King's Cross
    s.tap("D")
    _asked_when_time_is_up(s)
    s.tap("Q")
    _the_end(s)
    record = _from(s.events(), "mortgage")
    kinds = [e.kind for e in record[:6]]
    assert kinds == ["mortgage", "bankrupt", "bankrupt_cash", "deed", "interest", "game_end"], \
        [str(e) for e in record]
    _, bankrupt, cash, deed, interest, _ = record[:6]
    assert (bankrupt.a, bankrupt.b) == (1, 3)
    assert (cash.a, cash.b, cash.amount) == (1, 3, 10 + 30)
    assert (deed.a, deed.b, deed.square) == (1, 3, 1)
    assert (interest.a, interest.b, interest.square, interest.amount) == (3, BANK, 1, 3)
    assert "rent" not in [e.kind for e in record]
    assert _worth(record) == {2: 1500, 3: 1500 + 40 - 3 + 200 + 200 + 30}, _worth(record)


def test_time_up_while_a_human_cannot_raise_a_cards_payment_ends_after_the_auction() -> None:
    """ANNE (£10, Old Kent Road) draws Chance "Pay school fees of £150"; the time runs out
    while she raises it. Q: the computer mortgages Old Kent Road for her, £110 is still short,
    and she goes bankrupt to the Bank: her £40 goes to the Bank and Old Kent Road is auctioned
    (HAL bids; BOB closes the bidding with ENTER), 0:00 on the clock. Then the game ends, the
    card never paid; BOB and HAL are valued, HAL with the site he bought."""
    s = game("ANNE", "BOB", "HAL", computers=(3,), minutes=1)
    _school_fees_when_time_is_up(s, "Old Kent Road")
    s.tap("Q")
    _close_auction_when_time_is_up(s, "Old Kent Rd.")
    _the_end(s)
    record = _from(s.events(), "card_drawn")
    kinds = [e.kind for e in record[:7]]
    assert kinds == ["card_drawn", "mortgage", "bankrupt", "bankrupt_cash", "bid", "auction",
                     "game_end"], [str(e) for e in record]
    drawn, mortgage, bankrupt, cash, _, sale, _ = record[:7]
    assert drawn.square == _card_code(0, "CH10")
    assert (mortgage.a, mortgage.b, mortgage.square, mortgage.amount) == (BANK, 1, 1, 30)
    assert (bankrupt.a, bankrupt.b) == (1, BANK)
    assert (cash.a, cash.b, cash.amount) == (1, BANK, 10 + 30)
    assert (sale.a, sale.b, sale.square) == (3, BANK, 1), str(sale)
    assert "card" not in [e.kind for e in record]
    assert _worth(record) == {2: 1500, 3: 1500 - sale.amount + 60}, _worth(record)


def test_time_up_while_a_computer_goes_bankrupt_to_the_bank_waits_for_the_auctions() -> None:
    """BOB (a computer, £10, a house on each of the browns) lands on Income Tax; the time
    runs out in his first sale's pause. He sells and mortgages everything, is still short, and
    goes bankrupt to the Bank: his cash goes to the Bank and his two sites are auctioned in
    turn (HAL bids; ANNE closes each with ENTER), 0:00 on the clock. Then the game ends, and
    HAL's total counts the sites he bought."""
    s = game("ANNE", "BOB", "HAL", computers=(2, 3), minutes=1)
    with s.position() as pos:
        pos.own("Old Kent Road", 2, houses=1)
        pos.own("Whitechapel Road", 2, houses=1)
        pos.cash(2, 10)
    s.rig_dice(6, 4)  # ANNE from GO to Jail, just visiting
    s.tap("D")
    wait_throw(s, 1, -1)
    s.rig_dice(1, 3)  # BOB from GO to Income Tax
    s.wait_until(lambda x: any(e.kind == "sell" for e in x.events()), 1200, "BOB's first sale")
    _time_up_in(s, 3)
    for site in ("Old Kent Rd.", "Whitechapel Rd."):
        _close_auction_when_time_is_up(s, site)
    _the_end(s)
    record = _from(s.events(), "sell")
    kinds = [e.kind for e in record[:11]]
    assert kinds == (["sell"] * 2 + ["mortgage"] * 2 + ["bankrupt", "bankrupt_cash"]
                     + ["bid", "auction"] * 2 + ["game_end"]), [str(e) for e in record]
    bankrupt, cash = record[4:6]
    assert (bankrupt.a, bankrupt.b) == (2, BANK)
    assert (cash.a, cash.b, cash.amount) == (2, BANK, 10 + 2 * 25 + 2 * 30)
    paid = 0
    for sale, site in ((record[7], 1), (record[9], 3)):
        assert (sale.a, sale.b, sale.square) == (3, BANK, site), str(sale)
        paid += sale.amount
    assert "tax" not in [e.kind for e in record]
    assert _worth(record) == {1: 1500, 3: 1500 - paid + 60 + 60}, _worth(record)
