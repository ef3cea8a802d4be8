"""Hostile keystroke scripts: every problem is a failed result `file:line: message`, exit 1.

Each case is a defect found by fuzzing `zxmonopoly script` (tracebacks before); docs/harness.md
"Bad input" states the limits.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.spectrum.roms import COUNTER_ROM, rom
from zxmonopoly import cli
from zxmonopoly.harness.script import MAX_FRAMES, run_script


def write(tmp_path: Path, text: str | bytes, name: str = "s.zxs") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def failure(path: Path) -> str:
    """The report of a script that must fail (with no traceback), checked to name ``path``."""
    result = run_script(path, engine="jit")
    assert not result.passed
    report = result.report()
    assert "Traceback" not in report
    return report


@pytest.mark.parametrize(("text", "message"), [
    ("game\nwait " + "9" * 4301, "s.zxs:2: expected a number of frames, got a number of 4,301 "
                                 "characters ('999999999999'...): at most 12"),
    ("game\nwait 1000001", f"s.zxs:2: 1,000,001 frames is more than a step may run "
                           f"({MAX_FRAMES:,}, about 5.5 hours)"),
    ("game\nhold SPACE 99999999", "s.zxs:2: 99,999,999 frames is more than a step may run"),
    ('game\nwait for "X" within 2000000', "s.zxs:2: 2,000,000 frames is more than a step"),
    ("game\nexpect state player \u00b2 cash = 1", "s.zxs:2: the player number is 1-6, got "
                                                 "'\u00b2'"),
    ("game\nexpect state dice = \u00b2,\u00b3", "s.zxs:2: expected two dice like 3,4"),
    ("game\nexpect state square \u0664 owner = 1", "s.zxs:2: "),
    ("game\nexpect peek 0x4000 = 0x" + "F" * 5000, "s.zxs:2: expected a value, got a number "
                                                  "of 5,002 characters"),
    ("game\nseed 0x" + "F" * 40, "s.zxs:2: expected a seed (0-65535), got a number of 42 "
                                 "characters"),
    ("game\nexpect state player 1 cash = " + "1" * 400, "s.zxs:2: expected a number, got a "
                                                        "number of 400 characters"),
    ("game\ninclude a\x00b", "a\\x00b: cannot read: embedded null byte"),
    ("game\ninclude /dev/zero", "/dev/zero: cannot read: not a regular file"),
])
def test_malformed_lines(tmp_path: Path, text: str, message: str) -> None:
    assert message in failure(write(tmp_path, text))


def test_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    path = write(tmp_path, b"game\n# caf\xe9\nwait 1\n")
    assert f"{path}:2: not UTF-8: byte 0xe9 (scripts are UTF-8 text)" in failure(path)
    write(tmp_path, b"wait 1\n\n\xff\n", "inc.zxs")
    path = write(tmp_path, "game\ninclude inc.zxs\n")
    assert f"{tmp_path / 'inc.zxs'}:3: not UTF-8: byte 0xff" in failure(path)


def test_an_include_symlink_loop(tmp_path: Path) -> None:
    os.symlink(tmp_path / "loop.zxs", tmp_path / "loop.zxs")
    report = failure(write(tmp_path, "game\ninclude loop.zxs\n"))
    assert "loop.zxs: cannot read: " in report


@pytest.mark.parametrize(("header", "data", "message"), [
    ("snapshot missing.szx", None, "s.zxs:1: cannot set up the machine: "),
    ("snapshot short.z80", b"\0" * 10, "s.zxs:1: cannot set up the machine: "),
    ("snapshot wrong.dsk", b"\0" * 10, "unknown snapshot type '.dsk'"),
    ("snapshot nodir/x.sna", None, "s.zxs:1: cannot set up the machine: "),
    ("rom missing.rom", None, "s.zxs:1: cannot set up the machine: "),
    ("rom short.rom", b"\0" * 10, "a 48K ROM is 16,384 bytes, this is 10"),
])
def test_header_files_that_fail(tmp_path: Path, header: str, data: bytes | None,
                                message: str) -> None:
    if data is not None:
        (tmp_path / header.split()[1]).write_bytes(data)
    report = failure(write(tmp_path, f"{header}\nwait 1\n"))
    assert report.startswith(f"FAIL {tmp_path / 's.zxs'}:1: cannot set up the machine: ")
    assert message in report


@pytest.mark.parametrize("content", [
    "[1, 2]", '{"a": 5}', '{"a": {"value": "x"}}', '{"a": {"value": 1e400}}',
    '{"a": {"value": ' + "9" * 5000 + "}}", "not json", b"\xff\xfe",
])
def test_a_symbol_map_that_is_not_one(tmp_path: Path, content: str | bytes) -> None:
    (tmp_path / "counter.rom").write_bytes(rom(COUNTER_ROM))
    write(tmp_path, content, "bad.sym.json")
    report = failure(write(tmp_path, "rom counter.rom\nsymbols bad.sym.json\nwait 1\n"))
    assert f"{tmp_path / 's.zxs'}:2: cannot set up the machine: " in report
    assert "bad.sym.json: not a symbol map" in report


def test_a_snapshot_step_into_a_missing_directory(tmp_path: Path) -> None:
    (tmp_path / "counter.rom").write_bytes(rom(COUNTER_ROM))
    report = failure(write(tmp_path, "rom counter.rom\nwait 1\nsnapshot nodir/x.szx\n"))
    assert report.startswith(f"FAIL {tmp_path / 's.zxs'}:3: ")
    assert "cannot write" in report


def test_a_screenshot_step_that_cannot_write_names_the_file(tmp_path: Path) -> None:
    # It said "[Errno 28] No space left on device", without the file.
    (tmp_path / "counter.rom").write_bytes(rom(COUNTER_ROM))
    report = failure(write(tmp_path, "rom counter.rom\nwait 1\nscreenshot nodir/x.png\n"))
    assert report.startswith(f"FAIL {tmp_path / 's.zxs'}:3: {tmp_path / 'nodir' / 'x.png'}: "
                             "cannot write: No such file or directory\n")
    if Path("/dev/full").exists():
        os.symlink("/dev/full", tmp_path / "full.png")
        report = failure(write(tmp_path, "rom counter.rom\nwait 1\nscreenshot full.png\n"))
        assert report.startswith(f"FAIL {tmp_path / 's.zxs'}:3: {tmp_path / 'full.png'}: "
                                 "cannot write: No space left on device\n")


def test_the_command_exits_1_with_the_report(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = write(tmp_path, b"game\nwait \xff\n")
    assert cli.main(["script", "--engine", "python", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:2: not UTF-8" in out and "0 passed, 1 failed" in out
    json.dumps(out)  # plain text
