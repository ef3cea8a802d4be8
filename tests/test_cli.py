"""Tests of the zxmonopoly command line (zxmonopoly.cli)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zxmonopoly import cli, cpm
from zxmonopoly.memory_map import ROM_SIZE


def _com(tmp_path: Path, code: bytes, name: str = "prog.com") -> Path:
    path = tmp_path / name
    path.write_bytes(code)
    return path


# Prints "Hello, CP/M" with function 9 and "!" with function 2, then jumps to 0x0000.
HELLO = bytes(
    [
        0x0E, 0x09,  # 0100 LD C,9
        0x11, 0x12, 0x01,  # 0102 LD DE,msg
        0xCD, 0x05, 0x00,  # 0105 CALL 5
        0x0E, 0x02,  # 0108 LD C,2
        0x1E, 0x21,  # 010A LD E,'!'
        0xCD, 0x05, 0x00,  # 010C CALL 5
        0xC3, 0x00, 0x00,  # 010F JP 0
    ]
) + b"Hello, CP/M$"  # 0112 msg  # fmt: skip

# Like zexdoc: takes its stack from the BDOS address at 0x0006 and prints 'A'; then restores the
# stack it was given and returns, which ends the run at 0x0000.
TOP_OF_MEMORY = bytes(
    [
        0x2A, 0x06, 0x00,  # 0100 LD HL,(6)
        0xED, 0x73, 0x20, 0x01,  # 0103 LD (0120h),SP
        0xF9,  # 0107 LD SP,HL
        0x0E, 0x02,  # 0108 LD C,2
        0x1E, 0x41,  # 010A LD E,'A'
        0xCD, 0x05, 0x00,  # 010C CALL 5
        0xED, 0x7B, 0x20, 0x01,  # 010F LD SP,(0120h)
        0xC9,  # 0113 RET
    ]
)  # fmt: skip


def test_engine_choices_match_core() -> None:
    from zxmonopoly.z80 import ENGINES

    assert set(cli.ENGINE_CHOICES) == set(ENGINES)


def test_one_engine_check_for_cpu_machine_and_cli(tmp_path, capsys, monkeypatch) -> None:
    """Without numba, ``jit`` is refused by the one check (z80.cpu.check_engine): the bare
    CPU, the Spectrum and the command line all say the same."""
    from zxmonopoly.spectrum import Spectrum48
    from zxmonopoly.z80 import Z80, Z80Error, cpu

    monkeypatch.setattr(cpu, "jit_available", lambda: False)
    with pytest.raises(Z80Error, match="needs numba"):
        Z80(bytearray(65536), engine="jit")
    with pytest.raises(Z80Error, match="needs numba"):
        Spectrum48(rom=bytes(ROM_SIZE), engine="jit")
    status = cli.main(["cpm", str(_com(tmp_path, HELLO)), "--engine", "jit"])
    err = capsys.readouterr().err
    assert status == 2 and "engine 'jit' needs numba" in err and "--engine python" in err


def test_cpm_prints_and_exits(tmp_path, capsys, engine) -> None:
    status = cli.main(["cpm", str(_com(tmp_path, HELLO)), "--engine", engine, "-v"])
    captured = capsys.readouterr()
    assert status == 0
    # -v ends the program's unfinished last line, so the count on stderr is not glued to it.
    assert captured.out == "Hello, CP/M!\n"
    # 205 T-states reach 0x0000; the warm boot's OUT (3),A takes 11 more.
    # (stderr may also hold the jit engine's compile notice)
    line = next(line for line in captured.err.splitlines() if line.endswith(" T-states"))
    assert 205 <= int(line.split()[0]) <= 216, captured.err


def test_cpm_ret_to_zero_and_top_of_memory(tmp_path, capsys, engine) -> None:
    path = _com(tmp_path, TOP_OF_MEMORY)
    status = cli.main(["cpm", str(path), "--engine", engine, "--max-tstates", "1000000"])
    assert status == 0
    assert capsys.readouterr().out == "A"


def test_cpm_gives_up_after_max_tstates(tmp_path, capsys, engine) -> None:
    path = _com(tmp_path, bytes([0x18, 0xFE]))  # JR $
    status = cli.main(["cpm", str(path), "--engine", engine, "--max-tstates", "100000"])
    assert status == 2
    assert "still running" in capsys.readouterr().err


def test_cpm_unsupported_bdos_function(tmp_path, capsys, engine) -> None:
    code = bytes([0x0E, 0x0B, 0xCD, 0x05, 0x00, 0xC3, 0x00, 0x00])  # LD C,11; CALL 5; JP 0
    status = cli.main(["cpm", str(_com(tmp_path, code)), "--engine", engine])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("zxmonopoly: error: ")
    assert "BDOS function 11" in err


def test_cpm_missing_file(tmp_path, capsys) -> None:
    path = tmp_path / "nothing.com"
    assert cli.main(["cpm", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"zxmonopoly: error: {path}: no such file\n"


def test_cpm_oversize_file(tmp_path, capsys) -> None:
    path = _com(tmp_path, bytes(cpm.CPM_MAX_SIZE + 1), "big.com")
    assert cli.main(["cpm", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"zxmonopoly: error: {path}: {cpm.CPM_MAX_SIZE + 1} bytes is too large")
    assert str(cpm.CPM_MAX_SIZE) in err


def test_cpm_empty_file(tmp_path, capsys) -> None:
    path = _com(tmp_path, b"", "empty.com")
    assert cli.main(["cpm", str(path)]) == 2
    assert "empty" in capsys.readouterr().err


def test_no_command_plays(monkeypatch) -> None:
    """``zxmonopoly`` alone is ``zxmonopoly play`` (the window), with play's defaults."""
    seen = []
    monkeypatch.setattr(cli, "_cmd_play", lambda args: seen.append(args) or 0)
    assert cli.main([]) == 0
    assert len(seen) == 1 and seen[0].command == "play"


def test_help_lists_the_commands(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "usage: zxmonopoly" in out and "play" in out and "run" in out


def test_unknown_engine_is_a_usage_error(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["cpm", str(tmp_path / "x.com"), "--engine", "turbo"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_bench_command(capsys, engine) -> None:
    # One short paired round: the table and its SkoolKit rows, not a measurement.
    argv = ["bench", "--engine", engine, "--seconds", "0.05", "--no-startup", "--rounds", "1",
            "--round-seconds", "0.05"]
    assert cli.main(argv) == 0
    table = capsys.readouterr().out.splitlines()
    row = next(line for line in table if line.startswith(engine))
    assert float(row.split()[1].replace(",", "")) > 0


def test_bad_engine_variable(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("ZXMONOPOLY_ENGINE", "turbo")
    assert cli.main(["cpm", str(_com(tmp_path, HELLO))]) == 2
    assert "ZXMONOPOLY_ENGINE='turbo'" in capsys.readouterr().err


def test_a_closed_pipe_is_no_traceback(tmp_path) -> None:
    """``zxmonopoly script F | head -1``: the reader leaves early; no BrokenPipeError traceback."""
    import os
    import subprocess
    import sys

    script = tmp_path / "s.zxs"
    script.write_text("wait 1\nexpect \"never\"\n", encoding="utf-8")  # fails: prints a screen
    src = str(Path(cli.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (src, os.environ.get("PYTHONPATH")) if p)}
    read, write = os.pipe()
    os.close(read)  # nobody reads: the first write that reaches the pipe fails with EPIPE
    with os.fdopen(write, "wb") as out:
        done = subprocess.run([sys.executable, "-m", "zxmonopoly.cli", "script", "--engine",
                               "python", str(script)], stdout=out, stderr=subprocess.PIPE,
                              env=env, timeout=120)
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr and b"BrokenPipe" not in done.stderr, done.stderr


def test_play_help_says_what_the_window_does_with_no_engine(capsys) -> None:
    """The window starts on CPython and moves to the JIT when compiled (issue 28, item 7)."""
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "python at once, then jit when a background process has compiled it" in out
    assert "jit when numba imports" not in out
