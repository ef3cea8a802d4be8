"""``zxmonopoly run``: the Spectrum headless from the command line, with small ROMs of our own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.spectrum.roms import COUNTER_ROM, rom
from tests.spectrum.textrom import DEMO_ROM, READY_FRAME
from zxmonopoly import cli
from zxmonopoly.spectrum import video


@pytest.fixture
def demo_rom(tmp_path: Path) -> Path:
    """DEMO_ROM as a file: HELLO FROM OUR ROM, READY at frame 150, keys echoed from row 4."""
    path = tmp_path / "demo.rom"
    path.write_bytes(DEMO_ROM)
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """``zxmonopoly run ARGV``: (exit status, stdout, stderr)."""
    status = cli.main(["run", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def screen_of(out: str) -> list[str]:
    """The 24 lines of 32 characters that --screen-text printed."""
    lines = out.splitlines()
    assert len(lines) >= 24, out
    return lines[-24:]


def test_screen_text_shows_what_our_rom_printed(capsys, demo_rom, engine):
    status, out, err = run(capsys, "--rom", str(demo_rom), "--engine", engine, "--frames", "5",
                           "--screen-text")
    assert status == 0, err
    screen = screen_of(out)
    assert all(len(line) == 32 for line in screen)
    assert screen[0].startswith("HELLO FROM OUR ROM")
    assert "READY" not in out


def test_until_text_found_exits_0(capsys, demo_rom, engine):
    status, out, err = run(capsys, "--rom", str(demo_rom), "--engine", engine, "--frames", "10",
                           "--until-text", "READY", "--max-frames", str(READY_FRAME + 10))
    assert status == 0, err
    assert out == ""  # nothing asked to be printed


def test_until_text_not_found_exits_1_and_prints_the_screen(capsys, demo_rom, engine):
    status, out, err = run(capsys, "--rom", str(demo_rom), "--engine", engine, "--frames", "10",
                           "--until-text", "READY", "--max-frames", "20")
    assert status == 1
    assert "'READY' did not appear within 20 frames" in err
    assert screen_of(out)[0].startswith("HELLO FROM OUR ROM")


def test_screenshot_writes_a_png(capsys, demo_rom, tmp_path, engine):
    shot = tmp_path / "shot.png"
    status, _, err = run(capsys, "--rom", str(demo_rom), "--engine", engine, "--frames", "3",
                         "--screenshot", str(shot))
    assert status == 0, err
    rgb = video.read_png(shot)
    assert rgb.shape == (256, 320, 3)
    assert (rgb[0, 0] == video.PALETTE[7]).all()  # white border: the ROM never set one
    assert (rgb[32:40, 32:288] == video.PALETTE[0]).any()  # black ink of the first line


def test_type_reaches_the_keyboard(capsys, demo_rom, engine):
    status, out, err = run(capsys, "--rom", str(demo_rom), "--engine", engine, "--frames", "2",
                           "--type", "Spectrum 48", "--screen-text")
    assert status == 0, err
    assert screen_of(out)[4].startswith("SPECTRUM 48 ")  # the ROM echoes capitals


def test_save_snapshot_then_resume_from_it(capsys, demo_rom, tmp_path, engine):
    saved = tmp_path / "state.z80"
    status, _, err = run(capsys, "--rom", str(demo_rom), "--engine", engine, "--frames", "2",
                         "--type", "AB", "--save-snapshot", str(saved))
    assert status == 0, err
    assert saved.stat().st_size > 30
    status, out, err = run(capsys, "--rom", str(demo_rom), "--engine", engine, "--snapshot",
                           str(saved), "--frames", "1", "--type", "C", "--screen-text")
    assert status == 0, err
    screen = screen_of(out)
    assert screen[0].startswith("HELLO FROM OUR ROM")  # the screen came back with the RAM
    assert screen[4].startswith("ABC ")  # and the echo ROM went on where it stopped


def test_sna_snapshot_round_trip(capsys, demo_rom, tmp_path, engine):
    saved = tmp_path / "state.sna"
    assert run(capsys, "--rom", str(demo_rom), "--engine", engine, "--frames", "2", "--type",
               "Q", "--save-snapshot", str(saved))[0] == 0
    status, out, err = run(capsys, "--rom", str(demo_rom), "--engine", engine, "--snapshot",
                           str(saved), "--frames", "1", "--type", "7", "--screen-text")
    assert status == 0, err
    assert screen_of(out)[4].startswith("Q7 ")


# -- errors: one line, exit 2, no traceback -----------------------------------------------------


def assert_error(status: int, err: str, *fragments: str) -> None:
    assert status == 2
    assert err.startswith("zxmonopoly: error: "), err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    for fragment in fragments:
        assert fragment in err, err


def test_missing_rom(capsys, tmp_path):
    missing = tmp_path / "nothing.rom"
    status, out, err = run(capsys, "--rom", str(missing), "--engine", "python")
    assert_error(status, err, str(missing), "cannot read the ROM")
    assert out == ""


def test_rom_of_the_wrong_size(capsys, tmp_path):
    small = tmp_path / "small.rom"
    small.write_bytes(bytes(8192))
    status, _, err = run(capsys, "--rom", str(small), "--engine", "python")
    assert_error(status, err, str(small), "16,384 bytes", "8,192")


def test_rom_that_is_a_directory(capsys, tmp_path):
    status, _, err = run(capsys, "--rom", str(tmp_path), "--engine", "python")
    assert_error(status, err, str(tmp_path), "cannot read the ROM")


@pytest.mark.parametrize("name,data,problem", [
    ("broken.z80", b"\0" * 10, "short header"),
    ("broken.sna", b"\0" * 100, "bad length"),
    ("big.sna", bytes(131_103), "128K"),
    ("state.szx", b"ZXST", "short header: 4 bytes, a .szx has at least 8"),
    ("state.dsk", b"ZXST", "unknown snapshot type"),
])
def test_bad_snapshot(capsys, tmp_path, name, data, problem):
    path = tmp_path / name
    path.write_bytes(data)
    rom_path = tmp_path / "counter.rom"
    rom_path.write_bytes(rom(COUNTER_ROM))
    status, _, err = run(capsys, "--rom", str(rom_path), "--engine", "python", "--snapshot",
                         str(path))
    assert_error(status, err, str(path), problem)


def test_missing_snapshot(capsys, tmp_path, demo_rom):
    path = tmp_path / "gone.z80"
    status, _, err = run(capsys, "--rom", str(demo_rom), "--engine", "python", "--snapshot",
                         str(path))
    assert_error(status, err, str(path), "cannot read")


def test_save_snapshot_of_unknown_type(capsys, tmp_path, demo_rom):
    status, _, err = run(capsys, "--rom", str(demo_rom), "--engine", "python", "--frames", "1",
                         "--save-snapshot", str(tmp_path / "state.txt"))
    assert_error(status, err, "state.txt", "unknown snapshot type")


def test_screenshot_into_a_missing_directory(capsys, tmp_path, demo_rom):
    shot = tmp_path / "no" / "such" / "dir.png"
    status, _, err = run(capsys, "--rom", str(demo_rom), "--engine", "python", "--frames", "1",
                         "--screenshot", str(shot))
    assert_error(status, err, str(shot))


def test_untypable_text(capsys, demo_rom):
    status, _, err = run(capsys, "--rom", str(demo_rom), "--engine", "python", "--frames", "1",
                         "--type", "a~b")
    assert_error(status, err, "'~' needs E mode")


@pytest.mark.parametrize("option", ["--frames", "--max-frames"])
def test_negative_frame_counts(capsys, demo_rom, option):
    status, _, err = run(capsys, "--rom", str(demo_rom), "--engine", "python", option, "-1")
    assert_error(status, err, option, "-1")


def test_bad_engine_variable(capsys, demo_rom, monkeypatch):
    monkeypatch.setenv("ZXMONOPOLY_ENGINE", "turbo")
    status, _, err = run(capsys, "--rom", str(demo_rom), "--frames", "1")
    assert_error(status, err, "ZXMONOPOLY_ENGINE='turbo'")


def test_default_rom_not_built_yet(capsys, monkeypatch):
    from zxmonopoly.spectrum import SpectrumError, machine

    def no_rom() -> bytes:
        raise SpectrumError("our ROM is not built")

    monkeypatch.setattr(machine, "default_rom", no_rom)
    status, _, err = run(capsys, "--engine", "python", "--frames", "1")
    assert_error(status, err, "our ROM is not built")


# -- the bundled game ---------------------------------------------------------------------------


def test_game_loads_the_bundled_tape_to_the_title(capsys, engine):
    """--game boots our ROM, types LOAD "" and loads the game; --frames then run the game."""
    status, out, err = run(capsys, "--game", "--engine", engine, "--frames", "300",
                           "--screen-text")
    assert status == 0, err
    screen = screen_of(out)
    assert screen[3].strip() == "M O N O P O L Y"
    assert screen[21].strip() == "PRESS ANY KEY"


def test_game_until_text(capsys):
    status, out, err = run(capsys, "--game", "--engine", "python", "--frames", "0",
                           "--until-text", "PRESS ANY KEY", "--max-frames", "100")
    assert status == 0, err
    assert out == ""


@pytest.mark.parametrize("option", ["--tape", "--snapshot"])
def test_game_with_tape_or_snapshot_is_an_error(capsys, tmp_path, option):
    status, _, err = run(capsys, "--game", option, str(tmp_path / "x"), "--engine", "python")
    assert_error(status, err, "--game loads the bundled game tape", option)


def test_game_not_built(capsys, tmp_path, monkeypatch):
    from zxmonopoly import images

    monkeypatch.setattr(images, "DATA_DIR", tmp_path)
    status, _, err = run(capsys, "--game", "--engine", "python")
    assert_error(status, err, "the game is not built", "tools/build.py")


def test_a_program_saving_too_much_does_not_stop_run(capsys, tmp_path, monkeypatch):
    from tests.spectrum.roms import TAPE_ROM, save_loop
    from zxmonopoly import snapshot

    monkeypatch.chdir(tmp_path)
    rom_path = tmp_path / "tape.rom"
    rom_path.write_bytes(rom(TAPE_ROM))
    ram = bytearray(0xC000)
    code = save_loop(0xFFFF)
    ram[0x4000:0x4000 + len(code)] = code
    snapshot.save(tmp_path / "saver.szx", snapshot.Snapshot(pc=0x8000, sp=0xFF00, ram=ram))
    status, _, err = run(capsys, "--rom", str(rom_path), "--engine", "python", "--snapshot",
                         "saver.szx", "--frames", "3")
    assert status == 0
    assert "zxmonopoly: SAVE of 65,535 bytes from 0x4000 (flag 0xff) not written" in err
    assert "Traceback" not in err and not list(tmp_path.glob("*.tap"))


def test_readme_hello_tape(capsys, tmp_path, monkeypatch):
    """README.md's "Load a tape": its hello.asm, assembled to a tape as shown, loads with
    --autoload and prints HELLO."""
    import re

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Load a tape"):]
    source = re.search(r"```\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    Path("hello.asm").write_text(source, encoding="utf-8")
    assert cli.main(["asm", "hello.asm", "-o", "hello.bin", "--tap", "hello.tap"]) == 0
    status, out, err = run(capsys, "--engine", "python", "--tape", "hello.tap", "--autoload",
                           "--until-text", "HELLO", "--screen-text")
    assert status == 0, err
    assert any(line.startswith("HELLO") for line in screen_of(out)), out


def test_tape_warnings_are_printed(capsys, tmp_path):
    """An empty tape or a bad checksum: run warns as tape info does (it said nothing)."""
    from zxmonopoly.tape.tap import TapBlock, write_tap

    empty, bad = tmp_path / "empty.tap", tmp_path / "bad.tap"
    empty.write_bytes(b"")
    image = bytearray(write_tap([TapBlock(0xFF, bytes(4))]))
    image[-1] ^= 1  # the checksum
    bad.write_bytes(image)
    status, _, err = run(capsys, "--engine", "python", "--tape", str(empty), "--autoload")
    assert status == 0
    assert err == f"zxmonopoly: warning: {empty}: offset 0: the tape has no blocks\n"
    status, _, err = run(capsys, "--engine", "python", "--tape", str(bad), "--frames", "0")
    assert status == 0
    assert err.startswith(f"zxmonopoly: warning: {bad}: block 0 at offset 0: bad checksum")
