"""Hostile sources: every one is a `file:line:col: message`, never a traceback, a hang or a flood.

Each case is a defect found by fuzzing `zxmonopoly asm`; docs/assembler.md "Bad input" states
the limits.
"""

from __future__ import annotations

import io
import os
import re
import signal
from pathlib import Path

import pytest

from zxmonopoly.asm import AsmError, assemble, cli
from zxmonopoly.asm.assembler import (
    MAX_ERRORS,
    MAX_EXPANSIONS,
    MAX_REPETITIONS,
    MAX_STATEMENTS,
)

HEAD = re.compile(r"^x\.asm:\d+:\d+: error: ")


def first_error(source: str) -> str:
    """The first diagnostic's heading line, after checking every diagnostic has the form."""
    with pytest.raises(AsmError) as info:
        assemble(source, "x.asm")
    lines = [d.format().splitlines()[0] for d in info.value.diagnostics]
    assert all(HEAD.match(line) for line in lines), lines[:3]
    return lines[0]


@pytest.mark.parametrize(("source", "message"), [
    ("  db " + "(" * 300 + "1" + ")" * 300,
     "x.asm:1:70: error: expression nested too deeply: more than 64 levels"),
    ("  db " + "-" * 3000 + "1", "x.asm:1:70: error: expression nested too deeply"),
    ("  db " + "+".join(["1"] * 3000), "x.asm:1:519: error: expression too long: more than "
                                       "256 operators"),
    ("  db 0x" + "F" * 5000, "x.asm:1:6: error: number '0xFFFFFFFFFFFFFFFFFFF...' is too long "
                             "(5,002 characters): the assembler's values are 32-bit"),
    ("  db " + "9" * 5000, "x.asm:1:6: error: number '999999999999999999999...' is too long"),
    ("  dw 0x1_0000_0000", "x.asm:1:6: error: number '0x1_0000_0000' does not fit in 32 bits"),
    ("  dw 1 << 40", "x.asm:1:8: error: value out of range: the assembler's values are 32-bit"),
    ("x defl 1\n rept 100\nx defl x*2\n endm\n db x", "x.asm:3:9: error: value out of range"),
    ("x defl 3\n rept 40\nx defl x*x\n endm", "x.asm:3:9: error: value out of range"),
    (" jr 0x" + "F" * 9, "x.asm:1:5: error: number '0xFFFFFFFFF' does not fit in 32 bits"),
    (" ld a,(ix+" + "7" * 4400 + ")", "x.asm:1:11: error: number '777777777777777777777...'"),
    (" ds 0xFFFFFFFF", "x.asm:1:5: error: DS 4294967295 runs past the end of memory"),
    (" org -0xFFFFFFFF\n nop", "x.asm:1:6: error: ORG address -4294967295 is outside"),
    (" rept 0x" + "1" * 60 + "\n nop\n endr", "x.asm:1:7: error: number '0x111"),
    (' include "a\\0b"', "x.asm:1:10: error: include file name 'a\\x00b' is unusable: "
                         "embedded null byte"),
    (' incbin "a\\0b"', "x.asm:1:9: error: INCBIN file name 'a\\x00b' is unusable"),
    (' include "' + "a" * 5000 + '"', "x.asm:1:10: error: include file name 'aaaa"),
])
def test_one_clear_error(source: str, message: str) -> None:
    assert first_error(source).startswith(message)


def test_a_macro_calling_itself_three_times_is_stopped_by_the_expansion_limit() -> None:
    with pytest.raises(AsmError) as info:
        assemble("mm macro\n mm\n mm\n mm\n endm\n mm", "x.asm")
    text = str(info.value)
    assert f"more than {MAX_EXPANSIONS:,} macro expansions in one pass" in text
    assert len(info.value.diagnostics) == MAX_ERRORS + 1 and info.value.dropped > 0


def test_nested_rept_is_stopped_by_the_statement_limit() -> None:
    with pytest.raises(AsmError) as info:
        assemble(" org 0\n rept 65536\n rept 65536\n nop\n endr\n endr", "x.asm")
    assert f"more than {MAX_STATEMENTS:,} statements assembled in one pass" in str(info.value)


class _TimedOut(Exception):
    """The assembler ran past the test's time limit."""


def _alarm(_signum, _frame) -> None:
    raise _TimedOut


def test_nested_empty_rept_is_refused_at_once() -> None:
    """The defect: two nested empty ``rept 65536`` (60 bytes) ran 2^32 repetitions, no
    statement at all, so the statement limit never came (hours). The repetition limit stops
    it (about 0.25 s here); the alarm fails the test rather than hang the suite."""
    source = " org 0\n rept 65536\n rept 65536\n endr\n endr\n"
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, 10)
    try:
        with pytest.raises(AsmError) as info:
            assemble(source, "x.asm")
    except _TimedOut:
        pytest.fail("the assembler was still repeating after 10 s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    (diag,) = info.value.diagnostics
    assert diag.format().splitlines()[0] == (
        f"x.asm:3:2: error: more than {MAX_REPETITIONS:,} REPT repetitions in one pass (nested "
        "REPT blocks?): stopping")


def test_an_error_in_a_rept_is_reported_100_times_and_counted(tmp_path: Path) -> None:
    # The defect: 589,824 messages, 634 MB from a 360-byte source.
    source = tmp_path / "x.asm"
    source.write_text(" rept 65536\n rept 9\n ld a,(ix+1000)\n endr\n endr\n")
    err = io.StringIO()
    status = cli.run(cli_args(source, tmp_path), err)
    out = err.getvalue()
    assert status == 1
    assert out.count("error: index offset 1000 is out of range") == MAX_ERRORS
    # 589,824 of them, and one for the code running past 0xFFFF.
    assert "... and 589,725 more errors not shown (only the first 100 are)" in out
    assert out.rstrip().endswith("589,825 errors")
    assert len(out) < 20_000


def cli_args(source: Path, tmp_path: Path, *extra: str):  # noqa: ANN201
    import argparse

    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return parser.parse_args([str(source), "-o", str(tmp_path / "x.bin"), *extra])


def run_cli(source: Path, tmp_path: Path, *extra: str) -> tuple[int, str]:
    err = io.StringIO()
    status = cli.run(cli_args(source, tmp_path, *extra), err)
    return status, err.getvalue()


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "x.asm"
    path.write_text(" org 8000h\nstart: ret\n")
    return path


def test_deep_expressions_on_the_command_line(source: Path, tmp_path: Path) -> None:
    status, err = run_cli(source, tmp_path, "-D", "X=" + "(" * 300 + "1" + ")" * 300)
    assert status == 2 and "expression nested too deeply" in err and "Traceback" not in err
    status, err = run_cli(source, tmp_path, "--entry=" + "-" * 3000 + "start")
    assert status == 1 and "--entry" in err and "nested too deeply" in err
    status, err = run_cli(source, tmp_path, "-D", "X=" + "9" * 5000)
    assert status == 2 and "is too long" in err


def test_a_symlink_loop_and_a_device_are_refused(tmp_path: Path) -> None:
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    path = tmp_path / "x.asm"
    path.write_text(' include "loop"\n incbin "/dev/zero"\n include "/dev/zero"\n')
    status, err = run_cli(path, tmp_path)
    assert status == 1 and "Traceback" not in err
    lines = [line for line in err.splitlines() if ": error: " in line]
    assert lines[0].startswith("x.asm:1:10: error: include file ") or \
        lines[0].startswith(f"{path}:1:10: error: include file ")
    assert "INCBIN" in lines[1] and "not a regular file" in lines[1]
    assert "not a regular file" in lines[2]


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.asm"
    path.write_bytes(b"\xef\xbb\xbf org 8000h\n nop\n")
    status, err = run_cli(path, tmp_path)
    assert status == 0, err
    assert (tmp_path / "x.bin").read_bytes() == b"\x00"


@pytest.mark.parametrize(("name", "message"), [
    ("ELEVENCHARS", "--name: tape name 'ELEVENCHARS' must be 1 to 10 characters, not 11"),
    ("", "--name: tape name '' must be 1 to 10 characters, not 0"),
    ("na\u20acme", "--name: tape name 'na\u20acme': '\u20ac' (U+20AC) is not a Latin-1 "
                  "character (a tape header holds one byte per character)"),
])
def test_bad_tape_names_are_a_bad_command_line(source: Path, tmp_path: Path, name: str,
                                               message: str) -> None:
    status, err = run_cli(source, tmp_path, "--tap", str(tmp_path / "x.tap"), "--name", name)
    assert status == 2
    assert err.strip() == f"zxmonopoly asm: error: {message}"


def test_a_non_latin1_file_name_makes_a_default_tape_name(tmp_path: Path) -> None:
    path = tmp_path / "\u20acuro.asm"
    path.write_text(" org 8000h\n ret\n")
    status, err = run_cli(path, tmp_path, "--tap", str(tmp_path / "x.tap"))
    assert status == 0, err
