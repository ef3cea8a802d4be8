"""The window's record of the game (ui/eventlog.py) and the tournament's logs, headless."""

from __future__ import annotations

from pathlib import Path

from zxmonopoly import images
from zxmonopoly.harness import tournament
from zxmonopoly.harness.session import Session
from zxmonopoly.ui.eventlog import PANEL_LINES, EventLog
from zxmonopoly.z80 import default_engine


def test_the_log_file_holds_every_event_as_it_comes(tmp_path: Path) -> None:
    """``play --log FILE``: the window's EventLog writes each event the game declares, in words,
    the same as the harness's record; it scrolls back no further than its first event."""
    session = Session.game(engine=default_engine())  # 1,500 frames of play: the JIT where it can
    session.machine.frame_listeners.remove(session._drain_events)  # the window's alone reads
    log = EventLog(session.machine, tmp_path / "game.txt", lambda: images.game_symbols_path())
    tournament.setup_computers(session, [0, 1], None, 3)
    session.wait(1500)
    record = log.events
    assert len(record) > 10 and {"turn", "throw", "move"} <= {e.kind for e in record}
    lines = (tmp_path / "game.txt").read_text(encoding="utf-8").splitlines()
    assert [line.split(None, 1)[1] for line in lines] == [e.text for e in record]
    assert [int(line.split(None, 1)[0]) for line in lines] == [e.frame for e in record]
    log.scroll_by(10_000)
    assert log.scroll == len(record) - PANEL_LINES
    log.close()


def test_tournament_log_writes_one_file_per_game(tmp_path: Path) -> None:
    """``tournament --log DIR``: one record per game, from the throws for who goes first
    (issue 45) to the winner."""
    results = tournament.run_tournament(1, 9, [0, 1], minutes=1, engine=default_engine(),
                                        log_dir=tmp_path)  # a whole game: the JIT's
    (path,) = tmp_path.iterdir()
    assert path.name == "game-0001-seed-9.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# game 1, seed 9")
    assert len(lines) == 1 + len(results[0].events)
    assert "for who goes first" in lines[1] and any("Turn 1:" in line for line in lines)
    assert "wins" in lines[-1] or "holdings" in lines[-1]
