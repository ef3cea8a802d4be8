"""The asm command line (zxmonopoly.asm.cli.main)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from zxmonopoly.asm import cli
from zxmonopoly.tape import tap

SOURCE = """\
        org 8000h
start:  ld a,LEVEL
        ret
"""


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "prog.asm"
    path.write_text(SOURCE)
    return path


def test_writes_every_output(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.bin"
    status = cli.main([str(source), "-o", str(out), "--sym", str(tmp_path / "p.json"),
                       "--lst", str(tmp_path / "p.lst"), "--tap", str(tmp_path / "p.tap"),
                       "--name", "prog", "-D", "LEVEL=7"])
    assert status == 0
    assert out.read_bytes() == bytes([0x3E, 7, 0xC9])
    assert json.loads((tmp_path / "p.json").read_text())["start"]["value"] == 0x8000
    assert "3E 07" in (tmp_path / "p.lst").read_text()
    blocks = tap.read_tap((tmp_path / "p.tap").read_bytes())
    assert blocks[3].data == bytes([0x3E, 7, 0xC9])


def test_default_output_name_and_entry(source: Path, tmp_path: Path) -> None:
    assert cli.main([str(source), "-D", "LEVEL", "--tap", str(tmp_path / "p.tap"),
                     "--entry", "start+2"]) == 0
    assert (tmp_path / "prog.bin").read_bytes() == bytes([0x3E, 1, 0xC9])
    header = tap.Header.from_block(tap.read_tap((tmp_path / "p.tap").read_bytes())[0])
    assert header is not None and header.name == "prog      "


def test_errors_give_status_1_and_every_diagnostic(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.asm"
    bad.write_text(" ld a,nothing\n jr nowhere\n")
    assert cli.main([str(bad), "-o", str(tmp_path / "bad.bin")]) == 1
    err = capsys.readouterr().err
    assert "bad.asm:1:7: error: undefined symbol 'nothing'" in err
    assert "bad.asm:2:5: error: undefined symbol 'nowhere'" in err
    assert err.rstrip().endswith("2 errors")
    assert not (tmp_path / "bad.bin").exists()


def test_bad_entry_and_missing_file(source: Path, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([str(source), "-D", "LEVEL", "--tap", str(tmp_path / "t.tap"),
                     "--entry", "nolabel"]) == 1
    assert "--entry nolabel: undefined symbol 'nolabel'" in capsys.readouterr().err
    assert cli.main([str(tmp_path / "none.asm")]) == 1
    assert "none.asm" in capsys.readouterr().err


def test_subcommand_registration() -> None:
    parser = argparse.ArgumentParser(prog="zxmonopoly")
    sub = parser.add_subparsers(dest="command")
    cli.add_asm_subcommand(sub)
    args = parser.parse_args(["asm", "x.asm", "-o", "x.bin", "--tap", "x.tap", "--name", "X"])
    assert args.handler is cli.run and args.name == "X"


@pytest.mark.parametrize(("argv", "message"), [
    # -o prog.asm overwrote the source with the binary.
    (["-o", "{src}"], "-o {src}: that is a file the program is read from; give another name"),
    (["-o", "{inc}"], "-o {inc}: that is a file the program is read from"),
    (["--lst", "{src}"], "--lst {src}: that is a file the program is read from"),
    (["-o", "{out}", "--sym", "{out}"], "--sym {out}: -o names the same file"),
])
def test_an_output_that_would_overwrite_an_input_is_refused(
        tmp_path: Path, capsys, argv: list[str], message: str) -> None:  # noqa: ANN001
    src, inc, out = tmp_path / "prog.asm", tmp_path / "inc.asm", tmp_path / "out.bin"
    src.write_text(' include "inc.asm"\n nop\n')
    inc.write_text(" ret\n")
    names = {"src": src, "inc": inc, "out": out}
    status = cli.main([str(src), *(a.format(**names) for a in argv)])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith(f"zxmonopoly asm: error: {message.format(**names)}") and \
        err.count("\n") == 1, err
    assert src.read_text() == ' include "inc.asm"\n nop\n' and inc.read_text() == " ret\n"
    assert not out.exists()


@pytest.mark.parametrize("define", ["1abc", "ld", "x y", "", "=3", "HL=2"])
def test_a_define_that_no_source_could_use_is_refused(source: Path, tmp_path: Path, capsys,
                                                      define: str) -> None:  # noqa: ANN001
    # -D 1abc and -D ld=3 were taken in silence: constants no line can name.
    out = tmp_path / "out.bin"
    assert cli.main([str(source), "-o", str(out), "-D", define]) == 2
    err = capsys.readouterr().err
    assert err.startswith("zxmonopoly asm: error: -D '") and "cannot name a symbol" in err
    assert not out.exists()


def test_a_failed_write_names_the_file(source: Path, tmp_path: Path, capsys) -> None:  # noqa: ANN001
    # A write that fails on an open file has no filename: it said "None: No space left".
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    status = cli.main([str(source), "-D", "LEVEL", "-o", str(tmp_path / "p.bin"),
                       "--tap", "/dev/full"])
    assert status == 1
    assert capsys.readouterr().err == "zxmonopoly asm: error: /dev/full: No space left on device\n"
    # All or nothing: the outputs before the one that failed are not left behind either.
    assert list(tmp_path.iterdir()) == [source]
    assert Path("/dev/full").is_char_device()
