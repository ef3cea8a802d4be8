"""``bench --lobby`` measured once, small: its table has a row of figures that add up."""

from __future__ import annotations

from zxmonopoly.net.lobbybench import format_table, measure


def test_the_lobby_bench_measures_rooms_through_one_lobby() -> None:
    row = measure(rooms=3, players=3, seconds=1.0, workers=1)
    assert row.rooms == 3 and row.players == 9
    assert row.messages > 0 and 0 < row.p50 <= row.p99
    assert row.cpu > 0
    table = format_table([row], 1.0)
    assert table.splitlines()[2].split()[:2] == ["3", "9"]
