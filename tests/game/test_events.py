"""The game's record of events (issue 28): the ring, its words, and money that reconciles."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from zxmonopoly.harness import events, tournament
from zxmonopoly.harness.session import Session
from zxmonopoly.z80 import jit_available

#: All-computer games the default run plays (the slow test plays RECONCILE_SLOW_GAMES); odd
#: seeds start with the short game's deal of Title Deeds.
RECONCILE_GAMES = 2
RECONCILE_SLOW_GAMES = 100
#: The short game's minutes: long enough for builds, deals and bankruptcies to happen.
MINUTES = 3


def _reconciled_game(seed: int, engine: str) -> tuple[tournament.GameResult, int]:
    """Play a game checking, at each turn's start, every player's cash against 1,500 plus
    its money events; return the result and the number of turns checked."""
    checked = 0
    totals: Counter[int] = Counter()
    seen = 0

    def hook(session: Session) -> None:
        def at_frame(machine) -> None:
            nonlocal checked, seen
            record = session.events()
            for event in record[seen:]:
                assert event.kind != events.LOST, f"seed {seed}: {event}"
                assert event.kind != "unknown", f"seed {seed}: a money move with no cause: {event}"
                assert "no cause" not in event.text, f"seed {seed}: {event}"
                for player, delta in event.money().items():
                    totals[player] += delta
            fresh, seen = record[seen:], len(record)
            if fresh and fresh[-1].kind == "turn":
                state = session.state()
                for p in state.players:
                    assert p.cash == 1500 + totals[p.number], (
                        f"seed {seed}, {fresh[-1]}: player {p.number} has £{p.cash}, its money "
                        f"events say £{1500 + totals[p.number]}")
                checked += 1
        session.machine.frame_listeners.append(at_frame)

    players = [0, 1, 2, 3][: 2 + seed % 3]
    result = tournament.play_game(seed, players, minutes=MINUTES, engine=engine,
                                  deal=seed % 2 == 1, on_session=hook)
    kinds = Counter(e.kind for e in result.events)
    # the whole game is in the record: who goes first (each throw), the deal when chosen
    assert kinds["first_throw"] >= len(players) and kinds["first"] == 1, kinds
    assert kinds["dealt"] == (len(players) if seed % 2 else 0), kinds
    return result, checked


def test_record_reconciles_cash() -> None:
    """Every player's cash at each turn is 1,500 plus the sum of its money events."""
    # The JIT where numba is: a whole game on CPython is half a minute of the suite, and the
    # events are the same on both engines (test_record_is_the_same_on_both_engines).
    engine = os.environ.get("ZXMONOPOLY_ENGINE") or ("jit" if jit_available() else "python")
    for seed in range(RECONCILE_GAMES):
        result, checked = _reconciled_game(seed, engine)
        assert checked >= result.turns - 1 > 0
        kinds = Counter(e.kind for e in result.events)
        assert kinds["turn"] >= result.turns and kinds["game_end"] == 1, kinds


@pytest.mark.slow
def test_record_reconciles_cash_over_many_games() -> None:
    """The same over RECONCILE_SLOW_GAMES games, on the JIT."""
    kinds: Counter[str] = Counter()
    for seed in range(RECONCILE_SLOW_GAMES):
        result, checked = _reconciled_game(seed, "jit")
        assert checked >= result.turns - 1 > 0
        kinds.update(e.kind for e in result.events)
    money = [k for k in ("salary", "buy", "auction", "rent", "tax", "card", "build", "sell",
                         "mortgage", "trade_cash", "bankrupt_cash") if not kinds[k]]
    assert not money, f"no event of these kinds in {RECONCILE_SLOW_GAMES} games: {money}"


def test_record_is_the_same_on_both_engines() -> None:
    """One game on CPython and on the JIT: the same events at the same frames, word for word."""
    records = {}
    for engine in ("python", "jit"):
        result = tournament.play_game(4, [0, 1], minutes=1, engine=engine)
        records[engine] = [(e.frame, e.kind, e.a, e.b, e.square, e.amount, e.extra, e.text)
                           for e in result.events]
    assert len(records["python"]) > 20, "too short a game to compare"
    assert records["python"] == records["jit"]


def test_a_rare_reader_is_told_what_it_missed() -> None:
    """A reader that reads once, after 3,000 frames, gets the last EV_SLOTS - 1 records and a
    ``lost`` event counting the rest: the same records, with the same words, as a reader that
    read at every frame's end saw last; and reading writes nothing into the machine."""
    session = Session.game(engine="jit" if jit_available() else "python")  # 3,000 frames
    every_frame = session.events  # the session's own reader drains at every frame's end
    tournament.setup_computers(session, [0, 1], None, 7)
    session.wait(3000)
    s = session.symbols
    before = bytes(session.machine.memory)
    rare = events.EventDrain(s)
    record = rare.drain(session.machine.memory, session.frame)
    assert bytes(session.machine.memory) == before
    frequent = [e for e in every_frame() if e.kind != events.LOST]
    assert len(frequent) > 2 * s["EV_SLOTS"], "too few events to fill the ring"
    keep = s["EV_SLOTS"] - 1
    assert record[0].kind == events.LOST and record[0].amount == len(frequent) - keep
    assert [(e.kind, e.text) for e in record[1:]] == [(e.kind, e.text) for e in frequent[-keep:]]
    assert rare.drain(session.machine.memory, session.frame) == []  # nothing new since


def test_words_of_each_kind() -> None:
    """Every kind the game declares has its own sentence (none falls back to raw numbers)."""
    session = Session.game(engine="python")
    drain = events.EventDrain(session.symbols)
    names = {n: f"P{n}" for n in range(1, 7)}
    s = session.symbols
    for code, kind in drain.kinds.items():
        raw = bytearray(s["EV_SIZE"])
        raw[s["EV_KIND"]], raw[s["EV_A"]], raw[s["EV_B"]] = code, 0, 1
        text = drain.event(bytes(raw), 0, names).text
        assert not text.startswith(f"{kind}:"), (kind, text)
    assert {"rent", "throw", "bankrupt", "worth"} <= set(drain.kinds.values())


#: The count's modulus (v_event_count is a word) and how far before the wrap the test starts.
COUNT_MODULUS = 0x10000
BEFORE_WRAP = 20


class _EveryFrame:
    """A reader of its own at every frame's end (a frame listener), starting from ``count``."""

    def __init__(self, session: Session, count: int):
        self.drain = events.EventDrain(session.symbols)
        self.drain.read = count
        self.seen: list[events.Event] = []
        session.machine.frame_listeners.append(self.frame)

    def frame(self, machine) -> None:
        self.seen.extend(self.drain.drain(machine.memory, machine.frame))

    def words(self, since: int = 0) -> list[tuple[str, str]]:
        return [(e.kind, e.text) for e in self.seen[since:]]


def test_the_count_wraps_and_a_count_gone_back_is_a_restart(tmp_path) -> None:
    """v_event_count is a word: a game whose count starts BEFORE_WRAP short of 65,536 is read
    across the wrap, at every frame's end, without a loss and event for event as the same game
    counted from 0; a snapshot taken earlier loaded back (the count gone back) is a restart:
    nothing said lost, and the same events read again from there."""
    engine = "jit" if jit_available() else "python"
    readers = []
    for first in (0, COUNT_MODULUS - BEFORE_WRAP):
        session = Session.game(engine=engine)
        session.poke16("v_event_count", first)
        reader = _EveryFrame(session, first)
        tournament.setup_computers(session, [0, 1], None, 7)
        session.wait(2000)
        readers.append((session, reader))
    (_, plain), (session, wrapped) = readers
    assert len(plain.seen) > 2 * BEFORE_WRAP, "too few events to cross the wrap"
    assert wrapped.words() == plain.words()
    assert events.LOST not in {e.kind for e in wrapped.seen}
    count = wrapped.drain.written(session.machine.memory)
    assert count == len(plain.seen) - BEFORE_WRAP  # (gone round past 65,535)
    # Back to a snapshot: the count goes back; the reader goes on from there.
    session.save_snapshot(tmp_path / "back.szx")
    since = len(wrapped.seen)
    session.wait(1500)
    later = wrapped.words(since)
    assert later, "no events in 1,500 frames"
    session.machine.load_snapshot(tmp_path / "back.szx")
    again = len(wrapped.seen)
    session.wait(1500)
    assert wrapped.drain.restarts == 1
    assert wrapped.words(again) == later
    assert events.LOST not in {e.kind for e in wrapped.seen}
