"""Tests of the side-by-side rows against SkoolKit (zxmonopoly.bench_skoolkit): the table, the
pairing of rounds, and that both sides end the benchmark programs in the same state."""

from __future__ import annotations

import argparse
import io

import pytest

from zxmonopoly import bench_skoolkit, bench_workload, benchmarks

needs_skoolkit = pytest.mark.skipif(bench_skoolkit.skoolkit_version() is None,
                                    reason="skoolkit (the bench extra) is not installed")


class _Counted(bench_skoolkit.Side):
    """A side whose slices are logged and cost a fixed sleep-free amount of work."""

    def __init__(self, name: str, log: list[str], work: int) -> None:
        self.name, self.log, self.work = name, log, work

    def slice(self) -> int:
        self.log.append(self.name)
        return self.work


def test_rounds_alternate_who_goes_first() -> None:
    log: list[str] = []
    ours, theirs = _Counted("ours", log, 3), _Counted("theirs", log, 1)
    our_speeds, their_speeds = bench_skoolkit.paired_rounds(ours, theirs, 4, 0.0)
    assert log == ["ours", "theirs", "theirs", "ours", "ours", "theirs", "theirs", "ours"]
    assert len(our_speeds) == len(their_speeds) == 4


def test_pairing_median_and_range_of_ratios() -> None:
    pairing = bench_skoolkit.Pairing("jit", "CSimulator", "T-states/s",
                                     (300e6, 100e6, 240e6), (100e6, 100e6, 120e6), "yes")
    assert pairing.ratios == (3.0, 1.0, 2.0)
    assert pairing.median == 2.0


def test_format_comparison() -> None:
    pairings = [
        bench_skoolkit.Pairing("jit", "CSimulator", "T-states/s", (300e6, 100e6, 240e6),
                               (100e6, 100e6, 120e6), "yes (CRC 0badf00d, 1,000 T)"),
        bench_skoolkit.Pairing("jit 48K", "CCMIOSimulator", "frames/s", (5000.0, 6000.0),
                               (2000.0, 2000.0), "NO: T 0x10 vs 0x11"),
    ]
    lines = bench_skoolkit.format_comparison(pairings, "10.1", 3, 0.4).splitlines()
    assert lines[0].startswith("Beside SkoolKit 10.1: 3 paired rounds of 0.4 s a side")
    assert lines[2].split() == "ours theirs unit ours theirs ratio identical".split()
    assert lines[3].split() == ["jit", "CSimulator", "M", "T/s", "240", "(100-300)",
                                "100", "(100-120)", "2.00x", "(1.00-3.00)", "yes", "(CRC",
                                "0badf00d,", "1,000", "T)"]
    assert lines[4].split() == ["jit", "48K", "CCMIOSimulator", "frames/s", "5.5e+03",
                                "(5e+03-6e+03)", "2e+03", "(2e+03-2e+03)", "2.75x",
                                "(2.50-3.00)", "NO:", "T", "0x10", "vs", "0x11"]


def test_difference_names_what_differs() -> None:
    ours = {"T": 100, "PC": 0x8010, "CRC": 7}
    assert bench_skoolkit._difference(ours, dict(ours)) == "yes (CRC 00000007, 100 T)"
    assert bench_skoolkit._difference(ours, {**ours, "PC": 0x8012}) == \
        "NO: PC 0x8010 vs 0x8012"


def test_bench_says_when_skoolkit_is_missing(monkeypatch) -> None:
    monkeypatch.setattr(bench_skoolkit, "skoolkit_version", lambda: None)
    out = io.StringIO()
    args = argparse.Namespace(rounds=9, round_seconds=0.4)
    benchmarks._beside_skoolkit(args, ["python"], machine=False, out=out)
    assert "SkoolKit: not installed" in out.getvalue()


def test_no_rounds_no_rows() -> None:
    out = io.StringIO()
    benchmarks._beside_skoolkit(argparse.Namespace(rounds=0), ["python"], False, out)
    assert out.getvalue() == ""


@needs_skoolkit
@pytest.mark.parametrize("kind", ["Python", "C"])
def test_bare_workload_ends_as_skoolkit_ends_it(engine, kind) -> None:
    assert bench_skoolkit.check_cpu(engine, kind).startswith("yes")


@needs_skoolkit
def test_busy_machine_ends_as_ccmiosimulator_ends_it(engine) -> None:
    assert bench_skoolkit.check_machine(engine).startswith("yes")


@needs_skoolkit
def test_a_changed_program_is_reported(monkeypatch) -> None:
    # The check compares, it does not just say yes: one side's memory changed is caught.
    real = bench_skoolkit._skoolkit_cpu

    def poked(kind, memory):
        sim = real(kind, memory)
        sim.memory[bench_workload.WORKLOAD_DATA + 3] ^= 0xFF
        return sim

    monkeypatch.setattr(bench_skoolkit, "_skoolkit_cpu", poked)
    assert bench_skoolkit.check_cpu("python", "Python").startswith("NO:")
