"""A 48K ROM that is not ours: OpenSE BASIC (Debian's opense-basic, GPL). It boots in our
machine, takes typed text (it spells keywords letter by letter: no K mode) and loads the game
tape to its title, fast and at the real speed. Skipped when the ROM is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from zxmonopoly.harness.session import Session
from zxmonopoly.spectrum import Spectrum48, keystrokes
from zxmonopoly.z80 import jit_available

OPENSE = Path("/usr/share/spectrum-roms/opense.rom")
BOOT_FRAMES = 150

pytestmark = pytest.mark.skipif(
    not OPENSE.is_file(),
    reason=f"{OPENSE} is not installed (apt-get install opense-basic; .ci/run does)")


def _jit() -> str:
    if not jit_available():
        pytest.skip("numba cannot be imported: the game loads need the jit engine")
    return "jit"


@pytest.fixture
def opense() -> Spectrum48:
    m = Spectrum48(rom=OPENSE, engine="python")
    m.run_frames(BOOT_FRAMES)
    return m


def test_it_boots_to_its_editor(opense: Spectrum48) -> None:
    assert opense.rom == OPENSE.read_bytes()
    lines = opense.screen_text()
    assert "1981" in lines[23]  # its copyright line, in its own font
    assert opense.memory[23561] == 25  # REPDEL: the typing must hold keys for fewer frames


def test_typed_text_arrives_doubled_characters_and_quotes_included(opense: Spectrum48) -> None:
    opense.type_text('print "aa11", 1+1\n')
    opense.run_frames(20)
    lines = opense.screen_text()
    assert lines[0].startswith("aa11") and lines[0].rstrip().endswith("2"), lines[0]
    assert lines[23].startswith("OK"), lines[23]


def test_the_load_command_is_spelled_on_a_rom_without_k_mode(opense: Spectrum48) -> None:
    opense.type_keys(keystrokes.LOAD_PROBE)
    assert not keystrokes.shows_keyword(opense.screen_text())  # J came out as "j"
    *typing, enter = keystrokes.load_rest(opense.screen_text())
    for step in typing:
        opense.tap(step.keys, step.hold, step.gap)
    assert opense.screen_text()[23].startswith('load ""')
    assert enter.keys == ("ENTER",)
    opense.keyboard.press("ENTER")
    assert opense.run_until(pc=0x0556, max_frames=20)  # LD-BYTES for the header
    cpu = opense.cpu
    assert cpu.de == 17 and cpu.a == 0 and cpu.f & 1


def test_the_game_loads_to_its_title_fast() -> None:
    session = Session.game(engine=_jit(), rom=OPENSE)
    assert session.find("M O N O P O L Y") is not None
    assert session.frame < 500  # booted, typed and loaded at once


def test_the_game_loads_to_its_title_at_the_real_speed() -> None:
    """About 11,900 frames of tape: the jit engine plays them in seconds."""
    session = Session.game(engine=_jit(), rom=OPENSE, real_load=True)
    assert session.find("M O N O P O L Y") is not None
    assert session.frame > 5000  # it did play the tape


def test_cli_autoload_of_a_tape_under_it(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from zxmonopoly import cli
    from zxmonopoly.basic import tokenise
    from zxmonopoly.tape import write_tap
    from zxmonopoly.tape.tap import program_blocks

    tape = tmp_path / "hello.tap"
    tape.write_bytes(write_tap(program_blocks("hello", tokenise('10 PRINT "HELLO TAPE"\n'), 10)))
    status = cli.main(["run", "--rom", str(OPENSE), "--engine", "python", "--frames",
                       str(BOOT_FRAMES), "--tape", str(tape), "--autoload", "--until-text",
                       "HELLO TAPE", "--max-frames", "300"])
    assert status == 0, capsys.readouterr().err


def test_cli_game_under_it(capsys: pytest.CaptureFixture[str]) -> None:
    from zxmonopoly import cli

    status = cli.main(["run", "--rom", str(OPENSE), "--engine", _jit(), "--game", "--frames",
                       "200", "--screen-text"])
    assert status == 0
    assert "M O N O P O L Y" in capsys.readouterr().out
