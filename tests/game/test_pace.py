"""The reading pace of computer turns and the rent window (issue 28), measured frame by frame."""

from __future__ import annotations

import pytest

from zxmonopoly.harness import tournament
from zxmonopoly.harness.session import Session
from zxmonopoly.z80 import default_engine

#: Computer turns the default run watches (the slow test watches PACE_SLOW_TURNS).
PACE_TURNS = 24
PACE_SLOW_TURNS = 200
#: The minimums of issue 28, in frames: any line, a money result, a deal.
READ, MONEY, DEAL = 50, 75, 150
#: Frames the four-computer game is watched from the throws for who goes first.
FOUR_PLAYER_FRAMES = 4000
#: The rent window: a computer waits this long when a human is owed rent.
RENT_WINDOW = 200
#: $ZXMONOPOLY_ENGINE, else the JIT where numba imports: the suite compiles it once (under a
#: lock) and these games run four times faster there.
ENGINE = default_engine()


def _flat(rows: list[str]) -> str:
    """The message rows as one text (empty rows dropped)."""
    return " / ".join(row.strip() for row in rows if row.strip())


def _minimum(text: str) -> int:
    """What a text must stay: a deal 150 frames, a money result 75, any line 50."""
    if "offers" in text or "THE DEAL" in text:
        return DEAL
    if "£" in text or " buys " in text or "bankrupt" in text or " void" in text:
        return MONEY
    return READ


class Runs:
    """Each distinct text of the message rows and the frames it stayed, frame by frame.

    A text that grows (the rest of a line printed in the next frame, a line appended, the
    lines scrolled up by one) is the same text going on; a text seen for one frame and then
    replaced is the old one being erased or the new one half printed, not a text of its own.
    Growth after the text stood still ADDED frames is a line added to it (" Throw again."):
    the added line must stay READ frames of its own before anything replaces the text.
    """

    #: A text unchanged for this many frame ends, then grown, had a line added to it.
    ADDED = 3

    def __init__(self, session: Session, phases: tuple[str, ...] = ("PHASE_PLAYING",)):
        self.session = session
        self.runs: list[list] = []  # [text, first frame, last frame, frame of the last line added]
        self.rows = ["", "", ""]  # the message rows last seen
        self.changed = 0  # the frame the text last changed
        self.playing_at = session.symbols["v_phase"]
        self.phases = {session.symbols[p] for p in phases}
        self.started: int | None = None  # the first frame watched, if its text was older
        self.before: str | None = None  # the text of the last frame not watched
        self.watching = False
        self.blank = False  # the rows were blank at a frame end since the last text
        session.machine.frame_listeners.append(self.frame)

    def frame(self, machine) -> None:
        """Look at the rows at this frame's end, in the phases watched (by default from the
        first turn on: the throws for who goes first are no computer's turn)."""
        rows = self.session.message_rows()
        text = _flat(rows)
        if machine.memory[self.playing_at] not in self.phases:
            self.before = text
            return
        if not self.watching:  # the first frame watched: is its text new since then?
            self.watching = True
            fresh = self.before is not None and text != self.before
            self.started = None if fresh else machine.frame
        if not text:
            self.blank = True  # erased: what comes next is a new text, not the old one grown
            return
        rows = [row.strip() for row in rows]
        blank, self.blank = self.blank, False
        if self.runs:
            last = self.runs[-1]
            if text == last[0] and not blank:
                last[2] = machine.frame
                return
            # The same text going on: grown at its end, or with the same top row (a line
            # grown or appended), or scrolled up a row (the new top row was the second).
            top, was = rows[0], self.rows
            if not blank and (text.startswith(last[0].rstrip("? "))
                              or (top and top in (was[0], was[1]))):
                if machine.frame - self.changed >= self.ADDED:
                    last[3] = machine.frame  # a line added after the text stood still
                last[0], last[2], self.rows = text, machine.frame, rows
                self.changed = machine.frame
                return
            if last[2] == last[1]:  # one frame: erased or half printed
                self.runs.pop()
        self.runs.append([text, machine.frame, machine.frame, None])
        self.rows = rows
        self.changed = machine.frame

    def short(self) -> list[str]:
        """The texts replaced before their minimum, and the lines added to a text replaced
        before READ frames of their own (all but the text still shown)."""
        out = []  # (a text on the screen when the watch began: its start unknown, not measured)
        measured = [run for run in self.runs if run[1] != self.started]
        for (text, first, _last, added), (_next, replaced, _, _) in zip(measured, measured[1:],
                                                                          strict=False):
            if replaced - first < _minimum(text):
                out.append(f"{replaced - first} frames (< {_minimum(text)}): {text}")
            if added is not None and replaced - added < READ:
                out.append(f"{replaced - added} frames after a line was added (< {READ}): "
                           f"{text}")
        return out

    def added(self) -> int:
        """How many texts had a line added to them."""
        return sum(run[3] is not None for run in self.runs)


def _computer_game(seed: int, fast: bool, players: int = 3) -> Session:
    session = Session.game(engine=ENGINE)
    tournament.setup_computers(session, list(range(players)), None, seed, fast=fast)
    return session


def _watch_turns(seed: int, turns: int, fast: bool = False) -> Runs:
    session = _computer_game(seed, fast)
    runs = Runs(session)
    while session.state().turns < turns and session.state().phase != "over":
        session.wait(50)
    return runs


def test_computer_turns_keep_the_reading_pace() -> None:
    """At the normal speed no line of a computer's turn is replaced before its minimum."""
    runs = _watch_turns(11, PACE_TURNS)
    assert len(runs.runs) > 3 * PACE_TURNS
    assert not runs.short(), "\n".join(runs.short()[:20])


def test_added_lines_and_first_throws_keep_the_reading_pace() -> None:
    """Four computers at the normal speed, every row read each frame for FOUR_PLAYER_FRAMES from
    the throws for who goes first: each throw's line, each text and each line added to a text
    (" Throw again." after a purchase or the salary) stays its minimum (issue 45)."""
    session = Session.game(engine=ENGINE)
    watched = Runs(session, ("PHASE_FIRST", "PHASE_PLAYING"))  # (the setup is not watched)
    tournament.setup_computers(session, [0, 1, 2, 3], None, 11, fast=False)
    session.wait(FOUR_PLAYER_FRAMES)
    firsts = [run for run in watched.runs if "throws for who goes" in run[0]]
    assert len(firsts) >= 4, [run[0] for run in watched.runs[:6]]
    assert watched.added() >= 3, "too few lines added to measure"
    assert not watched.short(), "\n".join(watched.short()[:20])


@pytest.mark.slow
def test_computer_turns_keep_the_reading_pace_over_many_turns() -> None:
    """The same over PACE_SLOW_TURNS computer turns."""
    runs = _watch_turns(5, PACE_SLOW_TURNS)
    assert not runs.short(), "\n".join(runs.short()[:20])


def test_fast_setting_is_fast_and_shown() -> None:
    """F keeps its purpose (lines go by sooner than the pace) and the status line says FAST."""
    session = _computer_game(11, fast=True)
    runs = Runs(session)
    session.wait(200)
    assert session.row(session.symbols["STATUS_ROW"]).rstrip().endswith("FAST")
    while session.state().turns < 8:
        session.wait(50)
    assert runs.short(), "the fast setting kept every minimum: it is not fast"
    session.poke("v_speed", 0)  # (as F does; the status line is redrawn each turn)
    turns = session.state().turns
    session.wait_until(lambda x: x.state().turns > turns, 2000, "the next turn")
    session.wait(5)
    assert "FAST" not in session.row(session.symbols["STATUS_ROW"])


def _rent_due_to_anne(fast: bool) -> tuple[Session, int]:
    """1 ANNE (human) owns The Angel, Islington; 2 BOB (a computer) lands on it with a double
    and so throws next: returns the session and the frame the rent became due."""
    session = Session.game(engine=ENGINE)
    session.wait_input()
    session.tap("SPACE")
    session.seed(1234)
    for piece, name in ((1, "ANNE"), (2, "BOB")):
        for keys in (str(piece), "N"):
            session.wait_input()
            session.tap(keys)
        session.wait_input()
        session.type(name)
        session.wait_input()
        session.tap("ENTER")
    for keys in ("ENTER", "N", "N", "N", "N"):
        session.wait_input()
        session.tap(keys)
    for dice in ((6, 5), (1, 2)):  # who goes first: ANNE
        session.wait_input()
        session.rig_dice(*dice)
        session.tap("D")
    session.wait_input(200)
    s = session.symbols
    flags = s["v_players"] + s["PLAYER_RECORD"] + s["P_FLAGS"]
    session.poke(flags, session.peek(flags) | 1 << s["PF_COMPUTER"])  # BOB plays by himself
    session.poke("v_speed", s["AI_SPEED_FAST"] if fast else 0)
    session.rig_dice(3, 3)  # ANNE to The Angel, Islington: she buys it
    session.tap("D")
    session.wait_input(300)
    session.tap("Y")
    session.wait_input(300)
    session.rig_dice(1, 3)  # her double's throw: to Jail, just visiting
    session.tap("D")
    session.wait_until(lambda x: any(e.kind == "move" and e.square == 10 for e in x.events()),
                       300, "ANNE's move to Jail")
    session.rig_dice(3, 3)  # BOB's throw, in his pause
    session.wait_until(lambda x: x.state().rent is not None, 1000, "rent due to ANNE")
    assert session.state().rent.owner == 1 and session.state().rent.payer == 2
    session.rig_dice(1, 2)
    return session, session.frame


def _bob_throws_after(session: Session, frame: int) -> int:
    """The frame of BOB's first throw after ``frame`` (from the game's record)."""
    session.wait_until(lambda x: any(e.kind == "throw" and e.a == 2 and e.frame > frame
                                     for e in x.events()), 1000, "BOB's next throw")
    return min(e.frame for e in session.events()
               if e.kind == "throw" and e.a == 2 and e.frame > frame)


@pytest.mark.parametrize("fast", [False, True], ids=["normal", "fast"])
def test_rent_window_waits_and_the_rent_is_then_lost(fast: bool) -> None:
    """The computer throws no sooner than RENT_WINDOW frames after the rent became due, the
    line and ANNE's piece shown; unclaimed, the rent is lost (booklet: before the next throw)."""
    session, due = _rent_due_to_anne(fast)
    cash = session.state().player(1).cash
    session.wait_pc("turn_rent_wait.loop", 600)  # the window (after BOB's double's lines)
    window = session.frame
    session.wait(RENT_WINDOW // 2)
    assert session.in_message("1 ANNE may press R for £6 rent from 2 BOB")
    thrown = _bob_throws_after(session, due)
    assert thrown - window >= RENT_WINDOW - 2
    lost = [e for e in session.events() if e.kind == "rent_lost"]
    assert len(lost) == 1 and lost[0].a == 2 and lost[0].b == 1
    assert session.state().player(1).cash == cash
    assert session.state().rent is None


@pytest.mark.parametrize("fast", [False, True], ids=["normal", "fast"])
def test_rent_window_ends_at_once_on_r(fast: bool) -> None:
    """R from the owner in the window: the rent is paid at once, then the computer goes on."""
    session, due = _rent_due_to_anne(fast)
    session.wait_pc("turn_rent_wait.loop", 600)  # the window (after BOB's double's lines)
    session.wait(20)  # (past the prompt's first frames: R is taken at once all the same)
    pressed = session.frame
    session.tap("R")
    session.wait_until(lambda x: any(e.kind == "rent" for e in x.events()), 40, "the rent paid")
    paid = next(e for e in session.events() if e.kind == "rent")
    assert paid.a == 2 and paid.b == 1 and paid.amount == 6  # The Angel, Islington alone
    assert paid.frame - pressed < 40
    assert _bob_throws_after(session, due) > paid.frame


def test_a_humans_last_line_keeps_its_minimum() -> None:
    """ANNE (human) draws the repairs card at Chance: "Repairs cost £100." is the last line of
    her turn and stays a money result's minimum before "Turn of 2 BOB" replaces it (issue 45,
    tried as a player would: it stood 7 frames), and every text of her turn its minimum."""
    from tests.game.test_table import game

    s = game("ANNE", "BOB")
    with s.position() as pos:
        pos.own("Old Kent Road", 1, houses=2)
        pos.own("Whitechapel Road", 1, houses=2)
        pos.next_card("chance", "CH08")
    runs = Runs(s)
    s.rig_dice(3, 4)  # GO to Chance
    s.tap("D")
    s.wait_until(lambda x: x.in_message("Turn of 2 BOB"), 800, "BOB's turn")
    texts = [run[0] for run in runs.runs]
    assert "Repairs cost £100." in texts, texts
    assert not runs.short(), "\n".join(runs.short())
