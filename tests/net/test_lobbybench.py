"""``bench --lobby`` measured once, small: its row adds up and its table names every figure
the lead needs to compare runs (rooms, players, frames/s, messages/s, p50, p99, the lobby's
CPU and CPU a message, the waits for a core, the load average)."""

from __future__ import annotations

from zxmonopoly.net.lobbybench import FPS, TAIL, format_table, measure


def test_the_lobby_bench_measures_rooms_through_one_lobby() -> None:
    seconds = 1.0
    row = measure(rooms=3, players=3, seconds=seconds, workers=1)
    assert row.rooms == 3 and row.players == 9
    # Each of the 6 members sends one message a frame and is sent one: at most that many
    # in the seconds counted, every one received or counted lost.
    assert 0 < row.sent <= 6 * 2 * (FPS + 1) * (seconds - TAIL)
    assert row.received + row.lost == row.sent
    assert row.received > 0 and 0 < row.p50 <= row.p99
    assert row.cpu > 0 and row.per_message == row.cpu / row.messages
    assert row.players_cpu > 0 and row.waited >= 0 and row.players_waited >= 0
    table = format_table([row], seconds).splitlines()
    assert table[1].split() == ["rooms", "players", "frames/s", "messages/s", "p50", "p99",
                                "lost", "lobby", "CPU", "a", "message", "waited", "players",
                                "CPU", "waited", "load"]
    assert table[2].split()[:2] == ["3", "9"] and len(table[2].split()) == 13
