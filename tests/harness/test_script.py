"""Tests of keystroke scripts: parsing (each error), passing and failing runs, the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from zxmonopoly.harness.state_query import StateQuery

GOOD = '''# comment
wait for "zxmonopoly ROM" within 200
keyword PRINT
type 1+2
tap ENTER
wait for "0 OK"
expect "3" at row 0
expect peek ERR_NR = 255
'''


def _write(tmp_path: Path, text: str, name: str = "t.zxs") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_parse_good_script(tmp_path) -> None:
    """Every command form parses into steps with file and line."""
    from zxmonopoly.harness import parse_script

    (tmp_path / "lib.zxinc").write_text("wait 5\n")
    path = _write(tmp_path, """rom my.rom
tape game.tap real
symbols game.sym.json
# the game
type hello world
keyword go to
press CAPS SHIFT+SPACE
release caps shift+space
release all
hold symbol shift+p 10
tap ENTER
tap Y 4
wait 50
wait for "PLAYER 1" within 100
wait for pc MAIN_LOOP within 20
expect "OK" at row 23
expect "Park Lane"
expect peek 0x5C3A = 255
expect peek16 FRAMES = $10
expect state player 1 cash = 1300
expect player 2 in jail = yes
expect square Mayfair houses = 2
expect current player = 3
roll 6 6
screenshot out.png
snapshot out.z80
include lib.zxinc
""")
    script = parse_script(path)
    assert script.rom == str(tmp_path / "my.rom")
    assert script.tape == str(tmp_path / "game.tap") and script.real_load
    ops = [(s.op, s.args) for s in script.steps]
    assert ops[0] == ("type", ("hello world",))
    assert ops[1] == ("keyword", ("GO TO",))
    assert ops[2] == ("press", ("CAPS SHIFT+SPACE",))
    assert ops[4] == ("release", (None,))
    assert ops[5] == ("hold", ("SYMBOL SHIFT+P", 10))
    assert ops[6] == ("tap", ("ENTER", None)) and ops[7] == ("tap", ("Y", 4))
    assert ops[9] == ("wait_text", ("PLAYER 1", 100))
    assert ops[10] == ("wait_pc", ("MAIN_LOOP", 20))
    assert ops[11] == ("expect_text", ("OK", 23))
    assert ops[13] == ("expect_peek", (1, 0x5C3A, 255))
    assert ops[14] == ("expect_peek", (2, "FRAMES", 16))
    assert ops[15] == ("expect_state", (StateQuery(("player", 1, "cash"), "=", 1300, "int"),))
    assert ops[16] == ("expect_state", (StateQuery(("player", 2, "in_jail"), "=", True, "bool"),))
    assert ops[17] == ("expect_state", (StateQuery(("square", 39, "houses"), "=", 2, "int"),))
    assert ops[18] == ("expect_state", (StateQuery(("current",), "=", 3, "int?"),))
    assert ops[19] == ("roll", (6, 6))
    assert ops[21] == ("snapshot_save", (str(tmp_path / "out.z80"),))
    assert ops[22] == ("wait", (5,))
    assert script.steps[22].file.endswith("lib.zxinc") and script.steps[22].line == 1
    assert script.steps[0].where == f"{path}:5"


BAD_LINES = [
    ("jump 3", "unknown command 'jump'"),
    ("wait soon", "expected a number of frames"),
    ("wait for PLAYER", "expected the text to wait for in double quotes"),
    ('wait for "X" in 5', "expected nothing or 'within FRAMES'"),
    ("press", "expected 'press KEY[+KEY]'"),
    ("press CTRL+C", "unknown key 'CTRL'"),
    ("hold P", "expected 'hold KEY[+KEY] FRAMES'"),
    ("hold P many", "expected a number of frames"),
    ("tap", "expected 'tap KEY[+KEY] [FRAMES]'"),
    ("type", "expected 'type TEXT'"),
    ("type a~b", "needs E mode"),
    ("keyword JUMP", "unknown keyword 'JUMP'"),
    ("expect OK", "expected 'expect \"TEXT\" [at row R]'"),
    ('expect "OK" at row 24', "row 24 is off the screen"),
    ('expect "OK" on row 2', "expected nothing or 'at row R'"),
    ("expect peek = 3", "expected 'peek ADDRESS = VALUE'"),
    ("expect peek 0x10000 = 3", "beyond 0xFFFF"),
    ("expect peek FRAMES = 256", "does not fit in peek"),
    ("expect peek16 FRAMES = lots", "expected a value"),
    ("expect player 1 money = 3", "unknown player field 'money'"),
    ("expect player 9 cash = 3", "the player number is 1-6, got '9'"),
    ("expect player 1 cash = 1 300", "expected one value after '='"),
    ("roll 7 1", "dice must be 1-6"),
    ("roll 3", "expected 'roll D1 D2'"),
    ("screenshot", "expected 'screenshot FILE'"),
    ("include", "expected 'include FILE'"),
    ("include missing.zxinc", "cannot read"),
    ("wait for pc", "expected 'wait for pc ADDRESS [within FRAMES]'"),
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES)
def test_bad_line_error_names_file_line_and_expectation(tmp_path, line, message) -> None:
    """Each malformed line is reported with file:line, what was expected and the line."""
    from zxmonopoly.harness import ScriptError, parse_script

    path = _write(tmp_path, f"# header\nwait 1\n{line}\n")
    with pytest.raises(ScriptError) as info:
        parse_script(path)
    text = str(info.value)
    assert message in text
    assert f"{path}:3: " in text  # an include that cannot be read names its line too
    if "cannot read" not in message:
        assert line in text


def test_header_after_command_and_in_include(tmp_path) -> None:
    """rom/tape lines after the first command or inside an include are errors; all are listed."""
    from zxmonopoly.harness import ScriptError, parse_script

    (tmp_path / "inc.zxinc").write_text("rom x.rom\n")
    path = _write(tmp_path, "wait 1\ntape game.tap\ninclude inc.zxinc\nwait x\n")
    with pytest.raises(ScriptError) as info:
        parse_script(path)
    text = str(info.value)
    assert text.startswith(f"3 error(s) in {path}")
    assert f"{path}:2: 'tape' must come before the first command" in text
    assert "inc.zxinc:1: 'rom' belongs in the header of the main script" in text
    assert f"{path}:4: expected a number of frames" in text


def test_include_loop(tmp_path) -> None:
    """A file that includes itself is an error, not a hang."""
    from zxmonopoly.harness import ScriptError, parse_script

    path = _write(tmp_path, "include t.zxs\n")
    with pytest.raises(ScriptError, match="include loop"):
        parse_script(path)


def test_malformed_script_runs_nothing(tmp_path) -> None:
    """A bad line at the end stops the script before the machine is even made."""
    from zxmonopoly.harness import run_script

    shot = tmp_path / "early.png"
    path = _write(tmp_path, f"screenshot {shot.name}\nwait 1\nwiat 2\n")
    result = run_script(path, engine="python")
    assert not result.passed and result.step is None
    assert f"{path}:3: unknown command 'wiat'" in result.message
    assert not shot.exists()


def test_passing_script(tmp_path) -> None:
    """A script that should pass does, and saves its screenshot."""
    from zxmonopoly.harness import run_script

    path = _write(tmp_path, GOOD + "screenshot shot.png\n")
    result = run_script(path, engine="python")
    assert result.passed, result.report()
    assert (tmp_path / "shot.png").exists()
    assert result.report().startswith(f"PASS {path}")


def test_failing_script_reports_line_expected_and_screen(tmp_path) -> None:
    """A wrong expectation fails at its file:line, says expected vs found, shows the screen."""
    from zxmonopoly.harness import run_script

    path = _write(tmp_path, GOOD + 'expect "4" at row 0\nwait 1\n')
    result = run_script(path, engine="python")
    assert not result.passed
    assert result.step is not None and result.step.line == 9
    report = result.report()
    assert report.startswith(f"FAIL {path}:9: expected '4' at row 0, row 0 is '3'")
    assert 'line: expect "4" at row 0' in report
    assert "  0 |3 " in report and "0 OK, 0:1" in report


@pytest.mark.parametrize(("line", "message"), [
    ("expect player 1 cash = 1300", "cannot read player 1 cash: the game's state block is not "
     "in"),
    ("roll 3 4", "roll 3 4: the symbol map has no v_rig_dice: is the game loaded?"),
    ("seed 7", "seed 7: the symbol map has no v_seed"),
    ("expect peek NO_SUCH = 1", "unknown symbol 'NO_SUCH'"),
    ('wait for "Mayfair" within 7', "waited for text 'Mayfair' on the screen for 7 frames"),
    ("expect peek16 FRAMES = 0", "expected peek16 FRAMES = 0, got"),
])
def test_state_commands_without_the_game(tmp_path, line, message) -> None:
    """Game state and hooks without the game, unknown symbols and timeouts fail clearly."""
    from zxmonopoly.harness import run_script

    path = _write(tmp_path, f"wait 1\n{line}\n")
    result = run_script(path, engine="python")
    assert not result.passed
    assert message in result.message
    assert f"{path}:2" in result.report()


def test_cli_script_pass_and_fail(tmp_path, capsys) -> None:
    """``zxmonopoly script`` prints PASS/FAIL per script and exits 1 when one failed."""
    from zxmonopoly.cli import main

    good = _write(tmp_path, GOOD, "good.zxs")
    bad = _write(tmp_path, GOOD + 'expect "Free Parking"\n', "bad.zxs")
    assert main(["script", "--engine", "python", str(good)]) == 0
    assert main(["script", "--engine", "python", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"PASS {good}" in out
    assert f"FAIL {bad}:9: expected 'Free Parking' on the screen" in out
    assert "1 passed, 1 failed" in out


def test_the_worked_example_reports_what_the_docs_show(tmp_path, monkeypatch) -> None:
    """docs/harness.md's worked example: boot_print.zxs passes with the frames shown, and
    with row 0 expected as "4" fails with the line the page shows."""
    import re

    from zxmonopoly.harness import run_script

    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "harness.md").read_text(encoding="utf-8")
    passed = re.search(r"^PASS tests/game/scripts/boot_print\.zxs .*$", page, re.M).group(0)
    failed = re.search(r"^FAIL tests/game/scripts/boot_print\.zxs:7: .*$", page, re.M).group(0)
    monkeypatch.chdir(root)
    name = "tests/game/scripts/boot_print.zxs"
    assert run_script(name, engine="python").report() == passed
    wrong = tmp_path / "boot_print.zxs"
    wrong.write_text((root / name).read_text().replace('expect "3" at row 0',
                                                         'expect "4" at row 0'))
    first = run_script(wrong, engine="python").report().splitlines()[0]
    assert first == failed.replace(name, str(wrong))
