"""Command lines and files a hostile user tries: one line and a status, never a hang or a trace.

Each case is a defect found by trying every command (issue 20); docs/spectrum.md and the
"Bad input" sections of docs/ state the rules.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.spectrum.roms import COUNTER_ROM, rom
from zxmonopoly import cli, tape
from zxmonopoly.tape.tap import TapBlock, program_blocks, write_tap

HEADER_NAME = "\x1b]0;pwned\x07"


def test_tape_info_escapes_control_characters(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = tmp_path / "evil.tap"
    blocks = program_blocks(HEADER_NAME[:10], b"\x00\x0a\x01\x00\x0d")
    path.write_bytes(write_tap(blocks))
    assert cli.main(["tape", "info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b]0;pwned\\x07" in out


def test_printable_keeps_text_and_escapes_c0_del_c1() -> None:
    from zxmonopoly.tape.image import printable

    assert printable("Caf\u00e9 \u00a3 ok") == "Caf\u00e9 \u00a3 ok"
    assert printable("\x00\x1f\x7f\x9b") == "\\x00\\x1f\\x7f\\x9b"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("argv", [
    ["tape", "info", "/dev/zero"],
    ["run", "--engine", "python", "--tape", "/dev/zero", "--frames", "0"],
    ["cpm", "/dev/zero"],
    ["run", "--engine", "python", "--snapshot", "/dev/zero.szx", "--frames", "0"],
    # --rom read /dev/zero until the process was killed for its memory.
    ["run", "--engine", "python", "--rom", "/dev/zero", "--frames", "0"],
])
def test_special_files_are_refused_in_one_line(argv: list[str], capsys) -> None:  # noqa: ANN001
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("zxmonopoly: error: ")
    assert "/dev/zero" in err[0]


def test_an_oversized_rom_is_refused_before_reading(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = tmp_path / "huge.rom"
    with path.open("wb") as f:
        f.truncate(1 << 40)  # sparse: no disk used; read whole, it would exhaust memory
    assert cli.main(["run", "--engine", "python", "--rom", str(path), "--frames", "0"]) == 2
    assert capsys.readouterr().err == (f"zxmonopoly: error: {path}: cannot read the ROM: "
                                       "1,099,511,627,776 bytes is too large for a ROM image "
                                       "(at most 1,048,576)\n")


def test_an_oversized_tape_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.tap"
    with path.open("wb") as f:
        f.truncate(tape.image.MAX_TAPE_BYTES + 1)  # sparse: no disk used
    with pytest.raises(tape.TapeError, match="is too large for a tape"):
        tape.read(path)


@pytest.mark.parametrize(("argv", "message"), [
    (["cpm", "x.com", "--max-tstates", "-1"], "--max-tstates must be 0 (no limit) or more"),
    (["bench", "--seconds", "0"], "--seconds must be more than 0 and at most 3,600, not 0"),
    (["bench", "--seconds", "-1"], "--seconds must be more than 0 and at most 3,600, not -1"),
    (["bench", "--seconds", "nan"], "--seconds must be more than 0 and at most 3,600, not nan"),
    # inf ran without end.
    (["bench", "--seconds", "inf"], "--seconds must be more than 0 and at most 3,600, not inf"),
    (["bench", "--rounds", "-1"], "--rounds must be 0 to 1000, not -1"),
    (["bench", "--round-seconds", "nan"], "--round-seconds must be more than 0 and at most "
     "3,600, not nan"),
    (["run", "--autoload"], "--autoload loads a tape: give one with --tape FILE"),
    (["run", "--real-load"], "--real-load loads a tape: give one with --tape FILE"),
    (["run", "--screenshot", "x.jpg"], "--screenshot x.jpg: screenshots are PNG"),
    (["play", "--screenshot", "x.bmp"], "--screenshot x.bmp: screenshots are PNG"),
    (["play", "--scale", "0"], "--scale must be 1 to 16, not 0"),
    # SDL said "Cannot set negative sized display mode".
    (["play", "--scale", "99999999999"], "--scale must be 1 to 16, not 99999999999"),
    (["play", "--exit-after-frames", "-1"], "--exit-after-frames must be 0 or more, not -1"),
    (["run", "--frames", "-5"], "--frames must be 0 to 1,000,000 (about 5.5 hours of Spectrum "
     "time), not -5"),
    # A huge count ran without end.
    (["run", "--frames", "99999999999999999999999"], "--frames must be 0 to 1,000,000"),
    (["run", "--until-text", "x", "--max-frames", "1000001"],
     "--max-frames must be 0 to 1,000,000 (about 5.5 hours of Spectrum time), not 1000001"),
])
def test_options_out_of_range(argv: list[str], message: str, capsys) -> None:  # noqa: ANN001
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["--games", "0"], "--games must be 1 to 65,536 (one game for each seed), not 0"),
    (["--games", "-1"], "--games must be 1 to 65,536 (one game for each seed), not -1"),
    (["--short", "1440"], "--short must be 0 (a normal game) to 1439 minutes"),
    (["--short", "-5"], "--short must be 0 (a normal game) to 1439 minutes"),
    (["--games", "65537"], "--games must be 1 to 65,536 (one game for each seed), not 65537"),
    (["--jobs", "0"], "--jobs must be 1 to 256, not 0"),
    # A huge count crashed the process pool's semaphore with a traceback.
    (["--jobs", "99999999999999"], "--jobs must be 1 to 256, not 99999999999999"),
    (["--players", "Foo"], "error: unknown personality 'Foo'"),
])
def test_tournament_options(argv: list[str], message: str, capsys) -> None:  # noqa: ANN001
    assert cli.main(["tournament", *argv]) == 2
    assert message in capsys.readouterr().err


def test_autoload_runs_the_load_within_max_frames(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    # The README's example: --max-frames is the load's budget, so the screenshot shows the
    # loaded program (it saved a blank screen: --frames ran before LOAD "" was typed).
    from zxmonopoly.asm import assemble
    from zxmonopoly.asm.output import tape_image

    program = assemble(" org 8000h\n ld a,2\n out (254),a\nloop: jr loop\n", "red.asm")
    path = tmp_path / "red.tap"
    path.write_bytes(tape_image(program, "red"))
    shot, state = tmp_path / "load.png", tmp_path / "after.szx"
    status = cli.main(["run", "--engine", "jit", "--tape", str(path), "--autoload",
                       "--real-load", "--max-frames", "1500", "--screenshot", str(shot),
                       "--save-snapshot", str(state)])
    assert status == 0, capsys.readouterr().err
    from zxmonopoly import snapshot

    after = snapshot.load(state)
    assert after.border == 2 and after.pc == 0x8004  # loaded and running: the red border
    assert shot.stat().st_size > 0


def test_autoload_reports_a_load_that_does_not_finish(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = tmp_path / "data.tap"
    path.write_bytes(write_tap([TapBlock(0xFF, bytes(5000))]))
    rom_path = tmp_path / "counter.rom"
    rom_path.write_bytes(rom(COUNTER_ROM))  # no LOAD there: the tape never plays
    status = cli.main(["run", "--engine", "python", "--rom", str(rom_path), "--tape",
                       str(path), "--autoload", "--real-load", "--frames", "0",
                       "--max-frames", "5"])
    assert status == 1
    assert "the tape was still loading after 5 frames (--max-frames)" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "data", "problem"), [
    # The tape's name was printed twice ("t.tap: t.tap: block 1 ...").
    ("t.tap", b"\x13\x00" + bytes(5), "block 0 at offset 0: block length 19 runs past the end"),
    # A bad snapshot printed a "cannot load" line, then "cannot load the snapshot".
    ("s.szx", b"ZXST\x01\x04\x01\x00ZX", "truncated block header at offset 8"),
    # A directory was "no such file".
    ("d.tap", None, "is a directory, not a file"),
])
def test_play_refuses_a_bad_file_in_one_line(tmp_path: Path, capsys, name: str,  # noqa: ANN001
                                             data: bytes | None, problem: str) -> None:
    path = tmp_path / name
    if data is None:
        path.mkdir()
    else:
        path.write_bytes(data)
    assert cli.main([str(path), "--engine", "python", "--mute"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("zxmonopoly: error: ")
    assert err.count(str(path)) == 1 and problem in err, err


def test_a_screenshot_that_cannot_be_written_names_the_file(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    # A full disk: "zxmonopoly: error: No space left on device", without the file.
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    shot = tmp_path / "full.png"
    os.symlink("/dev/full", shot)
    assert cli.main(["run", "--engine", "python", "--frames", "1", "--screenshot", str(shot)]) == 2
    assert capsys.readouterr().err == f"zxmonopoly: error: {shot}: No space left on device\n"
