"""``zxmonopoly bench --net``: one round trip measured for real, the table, the dispatch."""

from __future__ import annotations

import argparse
import io

import pytest

from zxmonopoly import bench_net as bench
from zxmonopoly import benchmarks


def test_one_round_trip_is_measured() -> None:
    row = bench.measure(0.05, seconds=1.5)
    assert row.differ == 0 and row.compared > 0
    assert row.desyncs == 0
    assert row.measured >= 0.05
    # At least what 50 ms asks; how much more follows the round trips a busy machine makes.
    assert row.peer_delay >= 3 and row.host_delay == row.peer_delay
    table = bench.format_table([row], 1.5, "python")
    assert "RTT set" in table and "frames alike" in table
    assert f"{row.compared}/{row.compared}" in table


@pytest.mark.bench
def test_one_round_trip_holds_fifty_frames_a_second() -> None:
    """The figure itself (wall time: a benchmark, a busy machine holds less)."""
    row = bench.measure(0.05, seconds=3)
    assert row.host_fps > 40 and row.peer_fps > 40, row


def test_bench_net_runs_the_network_bench(monkeypatch) -> None:  # noqa: ANN001
    seen = []
    monkeypatch.setattr(bench, "run_from_args",
                        lambda seconds, engine, out: seen.append((seconds, engine)) or 0)
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine")
    benchmarks.add_arguments(parser)
    args = parser.parse_args(["--net", "--seconds", "4"])
    assert benchmarks.run_from_args(args, io.StringIO()) == 0
    assert seen == [(4.0, None)]
