"""Tests of the Z80 benchmark (zxmonopoly.benchmarks) and its workload (bench_workload)."""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess

import pytest

from zxmonopoly import bench_workload, benchmarks


def test_workload_addresses_follow_on() -> None:
    address = bench_workload.WORKLOAD_ORG
    for at, data, text in bench_workload.WORKLOAD:
        assert at == address, text
        address += len(data)
    assert address < bench_workload.WORKLOAD_DATA


@pytest.mark.skipif(shutil.which("pasmo") is None, reason="pasmo is not installed")
def test_workload_bytes_match_pasmo(tmp_path) -> None:
    source = tmp_path / "workload.asm"
    binary = tmp_path / "workload.bin"
    source.write_text(bench_workload.workload_source())
    subprocess.run(["pasmo", str(source), str(binary)], check=True, capture_output=True)
    assert binary.read_bytes() == bench_workload.workload_code()


def test_workload_loops_forever(engine) -> None:
    memory = bench_workload.workload_memory()
    src, dst = bench_workload.WORKLOAD_SRC, bench_workload.WORKLOAD_DST
    block = bytes(memory[src : src + 32])
    assert memory[dst : dst + 32] != block
    cpu = bench_workload.make_cpu(engine, memory)
    cpu.run(200_000)
    assert cpu.tstates >= 200_000
    code_end = bench_workload.WORKLOAD_ORG + len(bench_workload.workload_code())
    assert bench_workload.WORKLOAD_ORG <= cpu.pc < code_end
    assert bench_workload.WORKLOAD_STACK - 6 <= cpu.sp <= bench_workload.WORKLOAD_STACK
    assert not cpu.halted
    assert memory[dst : dst + 32] == block  # LDIR copied the block


def test_format_table() -> None:
    speeds = [
        benchmarks.Speed("python", 3_494_400, 1.0),
        benchmarks.Speed("jit", 349_440_000, 2.0),
    ]
    table = benchmarks.format_table(speeds, {"jit": (12.5, 0.75)}, 3.0)
    lines = table.splitlines()
    assert lines[2].split() == "engine T-states/s x real time cold start warm start".split()
    assert lines[3].split() == ["python", "3,494,400", "1.00x", "-", "-"]
    assert lines[4].split() == ["jit", "174,720,000", "50.00x", "12.50", "s", "0.75", "s"]
    assert "a new Z80" not in table


def test_format_table_gives_the_new_cpu_figures_in_milliseconds() -> None:
    speeds = [benchmarks.Speed("jit", 349_440_000, 2.0)]
    table = benchmarks.format_table(speeds, {}, 3.0, {"jit": (0.000014, 0.000012, 0.00007)})
    assert table.splitlines()[-1].split() == ["jit", "0.014", "ms", "(0.012-0.070)"]
    assert f"median of {benchmarks.NEW_CPU_ROUNDS}" in table


def test_new_cpu_seconds_are_ordered_and_the_cpu_runs() -> None:
    median, low, high = benchmarks.new_cpu_seconds("python", rounds=5)
    assert 0 < low <= median <= high


@pytest.mark.bench
def test_bench_runs(engine) -> None:
    out = io.StringIO()
    args = argparse.Namespace(engine=engine, seconds=0.5, no_startup=True)
    assert benchmarks.run_from_args(args, out=out) == 0
    assert engine in out.getvalue()


def test_engines_agree_on_the_workload() -> None:
    from zxmonopoly.z80 import jit_available

    if not jit_available():
        pytest.skip("numba cannot be imported: no jit engine")
    states = []
    for engine in ("python", "jit"):
        memory = bench_workload.workload_memory()
        cpu = bench_workload.make_cpu(engine, memory)
        cpu.run(1_000_000)
        registers = [getattr(cpu, n) for n in ("af", "bc", "de", "hl", "ix", "sp", "pc", "r")]
        states.append((registers, cpu.tstates, bytes(memory)))
    assert states[0] == states[1]


def _window_startup_row() -> list[str]:
    """``bench --startup``'s window row (python engine), split into words."""
    pytest.importorskip("pygame")
    args = argparse.Namespace(engine="python", seconds=0.5, no_startup=False, startup=True)
    out = io.StringIO()
    assert benchmarks.run_from_args(args, out) == 0
    lines = out.getvalue().splitlines()
    return next(line for line in lines if line.startswith('window: LOAD "" typed')).split()


def test_startup_of_the_window_is_measured_in_a_new_process() -> None:
    row = _window_startup_row()
    assert float(row[4]) > 0  # a figure in seconds
    assert row[-1] == "-"  # no warm figure without the JIT


@pytest.mark.bench
def test_startup_of_the_window_takes_real_seconds() -> None:
    """Wall clock, so a benchmark: 73 frames at 50 a second at least, under a minute."""
    cold = float(_window_startup_row()[4])
    assert 1.4 < cold < 60


def test_format_startup_table() -> None:
    text = benchmarks.format_startup_table([("Spectrum JIT: first frame", 95.25, 1.5)])
    assert "Spectrum JIT: first frame       95.2 s     1.5 s" in text.splitlines()


@pytest.mark.parametrize(("code", "forbidden"), [
    ("from zxmonopoly import bench_workload, benchmarks; bench_workload.busy_rom(); "
     "benchmarks._window_load_frames()",
     ("zxmonopoly.asm", "zxmonopoly.ui")),
    ("from zxmonopoly import cli; cli.build_parser()", ("zxmonopoly.ui",)),
])
def test_the_benchmarks_and_the_cli_read_images_and_timing_not_the_window(
        code: str, forbidden: tuple[str, ...]) -> None:
    """The busy ROM is a shipped image (src/bench/busy.asm, built by tools/build.py) and the
    window's boot frames come from spectrum/timing: neither the assembler nor ui is imported."""
    import sys
    from pathlib import Path

    src = Path(benchmarks.__file__).resolve().parents[1]
    probe = (f"import sys; {code}; "
             f"print(sorted(m for m in sys.modules if m.startswith({forbidden!r})))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"}, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_the_busy_rom_is_the_shipped_image() -> None:
    from zxmonopoly import images

    rom = bench_workload.busy_rom()
    assert rom == (images.DATA_DIR / images.BUSY_ROM_IMAGE).read_bytes() and len(rom) == 16_384
    assert rom[0x38] == 0xF5  # the interrupt routine starts with PUSH AF
