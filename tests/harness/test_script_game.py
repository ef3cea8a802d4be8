"""Keystroke scripts and the game: ``expect state``, ``roll``, ``seed``, ``wait input`` and the
``game`` header. Expectations are checked against state poked into a GameRig (no game rules
needed) and against the real tape's title screen."""

from __future__ import annotations

from pathlib import Path

import pytest


def _write(tmp_path: Path, text: str, name: str = "t.zxs") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("line", "args"), [
    ("expect state player 1 cash = 1300", (("player", 1, "cash"), "=", 1300, "int")),
    ("expect state player 2 square = 10", (("player", 2, "square"), "=", 10, "int")),
    ("expect state player 1 in_jail = yes", (("player", 1, "in_jail"), "=", True, "bool")),
    ("expect state player 1 in jail = no", (("player", 1, "in_jail"), "=", False, "bool")),
    ("expect state player 3 cash >= £200", (("player", 3, "cash"), ">=", 200, "int")),
    ('expect state player 1 name = "ALICE B"', (("player", 1, "name"), "=", "ALICE B", "str")),
    ("expect state player 2 personality = greedy",
     (("player", 2, "personality"), "=", "greedy", "str?")),
    ("expect state player 2 personality = none",
     (("player", 2, "personality"), "=", None, "str?")),
    ("expect state player 1 get out of jail free cards = 1",
     (("player", 1, "jail_cards"), "=", 1, "packs")),
    ("expect state player 1 jail_cards = chest,chance",
     (("player", 1, "jail_cards"), "=", ("chance", "chest"), "packs")),
    ('expect state square "Mayfair" owner = 2', (("square", 39, "owner"), "=", 2, "int?")),
    ("expect state square Old Kent Road owner = none",
     (("square", 1, "owner"), "=", None, "int?")),
    ("expect state square 39 houses = 3", (("square", 39, "houses"), "=", 3, "int")),
    ("expect state square \"King's Cross Station\" mortgaged = yes",
     (("square", 5, "mortgaged"), "=", True, "bool")),
    ("expect state houses_left = 28", (("houses_left",), "=", 28, "int")),
    ("expect state bank hotels < 12", (("hotels_left",), "<", 12, "int")),
    ("expect state current = 2", (("current",), "=", 2, "int?")),
    ("expect current player != 1", (("current",), "!=", 1, "int?")),
    ("expect state dice = 3,4", (("dice",), "=", (3, 4), "dice")),
    ('expect state last dice = "6 6"', (("dice",), "=", (6, 6), "dice")),
    ("expect state phase = playing", (("phase",), "=", "playing", "str")),
    ("expect state rent = none", (("rent",), "=", None, "rent")),
    ("expect state rent payer = 2", (("rent", "payer"), "=", 2, "int?")),
    ("expect state option jackpot = on", (("option", "jackpot"), "=", True, "bool")),
    ("expect state chance top = ch06", (("chance_top",), "=", "CH06", "card?")),
    ("expect state chest = CC01,CC02", (("chest",), "=", ("CC01", "CC02"), "cards")),
    ("expect state last_card = none", (("last_card",), "=", None, "card?")),
    ("expect state clock > 10", (("clock",), ">", 10, "int?")),
    ("expect state total money = 3000", (("total_money",), "=", 3000, "int")),
    # The seventh personality, refused while script.py kept its own list of six.
    ("expect state player 1 personality = Buyer",
     (("player", 1, "personality"), "=", "Buyer", "str?")),
    ("expect state players = 2", (("players",), "=", 2, "count")),
    ("expect state player 1 cash == 1300", (("player", 1, "cash"), "==", 1300, "int")),
    ("expect state square 0x27 owner = 1", (("square", 39, "owner"), "=", 1, "int?")),
    ("expect state player $2 cash = 1", (("player", 2, "cash"), "=", 1, "int")),
])
def test_state_expectations_parse(tmp_path, line, args) -> None:
    from zxmonopoly.harness import parse_script
    from zxmonopoly.harness.state_query import StateQuery

    step, = parse_script(_write(tmp_path, line + "\n")).steps
    assert (step.op, step.args) == ("expect_state", (StateQuery(*args),))


def test_game_commands_parse(tmp_path) -> None:
    from zxmonopoly.harness import parse_script

    script = parse_script(_write(tmp_path, "game\nwait input\nwait input within 40\n"
                                 "roll 1 6\nseed 0x1234\n"))
    assert script.game
    assert [(s.op, s.args) for s in script.steps] == [
        ("wait_input", (500,)), ("wait_input", (40,)), ("roll", (1, 6)), ("seed", (0x1234,))]


BAD_LINES = [
    ("expect state player 1 money = 3", "unknown player field 'money'; known: name, cash"),
    ("expect state player 0 cash = 3", "the player number is 1-6, got '0'"),
    ("expect state player cash = 3", "expected 'player N FIELD', e.g. 'player 1 cash'"),
    ("expect state player 1 = 3", "expected 'player N FIELD'"),
    ("expect state square Mayfiar owner = 2", "no square 'Mayfiar' on the board; did you mean "
     "Mayfair?"),
    ("expect state square Chance owner = 2", "square 'Chance' is ambiguous"),
    ("expect state square 40 owner = 2", "square 40 is not on the board"),
    ("expect state square GO owner = 1", "square 0 (GO) cannot be owned"),
    ("expect state square Mayfair colour = red", "unknown square field 'colour'"),
    ("expect state square Mayfair = 2", "expected 'square NAME FIELD'"),
    ("expect state housesleft = 3", "unknown game state 'housesleft'"),
    ("expect state = 3", "expected a game-state name before the comparison"),
    ("expect state player 1 in_jail = maybe", "expected yes or no, got 'maybe'"),
    ("expect state player 1 in_jail > yes", "'>' compares numbers; player 1 in_jail takes only"),
    ("expect state player 1 cash = lots", "expected a number"),
    ("expect state player 1 cash = none", "expected a number"),
    ("expect state current < none", "'< none' compares nothing"),
    ("expect state phase = lunch", "expected one of title, setup, first, playing, over"),
    ("expect state player 1 token = Thimble", "expected one of Boot, Car, Dog, Hat, Iron, Ship"),
    ("expect state dice = 7,1", "expected two dice like 3,4"),
    ("expect state last_card = CH17", "unknown card 'CH17'"),
    ("expect state rent = 3", "'rent' compares only with none"),
    ("expect state player 1 jail_cards = community", "expected a count or the packs"),
    ("expect state player 1 cash = 1 300", "expected one value after '=', got '1 300'"),
    ("expect state player 1 cash = 1 = 2", "expected one comparison"),
    # Unicode digits are digits to str.isdigit() and int(), not to the harness.
    ("expect state square ² owner = 1", "no square '²' on the board"),
    ("expect state player ² cash = 1", "the player number is 1-6, got '²'"),
    ("expect state player 1 cash = ٣", "expected a number (decimal, 0x.. or $..), got '٣'"),
    ("expect state player 1 cash = £", "expected a number (decimal, 0x.. or $..), got ''"),
    ("expect state player 1 cash ! 1300", "cannot read '! 1300'"),
    ('expect state player 1 name = "ALICE', "cannot read"),
    ("expect state player 1 cash", "expect state NAME OP VALUE"),
    ("seed", "expected 'seed N' (0-65535)"),
    ("seed 65536", "the seed is 16 bits"),
    ("seed x", "expected a seed"),
    ("wait input soon", "expected nothing or 'within FRAMES' after 'wait input'"),
    ("game now", "expected 'game' alone"),
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES)
def test_bad_state_lines_fail_before_running(tmp_path, line, message) -> None:
    """Each malformed game line is reported with file:line, what was expected and the line."""
    from zxmonopoly.harness import ScriptError, parse_script

    path = _write(tmp_path, f"wait 1\n\n{line}\n")
    with pytest.raises(ScriptError) as info:
        parse_script(path)
    text = str(info.value)
    assert f"{path}:3: " in text and line in text
    assert message in text


def test_game_header_clashes(tmp_path) -> None:
    from zxmonopoly.harness import ScriptError, parse_script

    path = _write(tmp_path, "rom x.rom\ngame\n")
    with pytest.raises(ScriptError, match=f"{path}:2: 'game' loads the bundled game on our ROM"):
        parse_script(path)
    path = _write(tmp_path, "game\ntape x.tap\n")
    with pytest.raises(ScriptError, match=f"{path}:2: 'tape' cannot go with 'game'"):
        parse_script(path)


# -- running against poked state --------------------------------------------------------------

POKED = '''# the state the test pokes in
expect state phase = playing
expect state players = 2
expect state current = 2
expect state current player = 2
expect state player 1 name = Alice
expect state player 1 cash = 1300
expect state player 1 cash >= 1000
expect state player 1 cash != 1299
expect state player 1 square = 39
expect state player 1 square_name = Mayfair
expect state player 1 in_jail = no
expect state player 1 personality = none
expect state player 1 token = Dog
expect state player 2 in jail = yes
expect state player 2 jail turns = 1
expect state player 2 computer = yes
expect state player 2 personality = Cautious
expect state player 2 jail_cards = chance
expect state player 2 get out of jail free cards = 1
expect state player 1 jail_cards = none
expect state square "Mayfair" owner = 1
expect state square 39 houses = 3
expect state square Mayfair hotel = no
expect state square Park Lane owner = none
expect state houses_left = 29
expect state bank hotels = 12
expect state dice = 5,5
expect state doubles = 1
expect state rent = none
expect state chance = CH02,CH01
expect state chance top = CH02
expect state chance_count = 2
expect state chest_count = 0
expect state chest top = none
expect state clock = none
expect state option no_auction = yes
expect state option jackpot = no
expect state total_money = 1800
roll 2 3
expect state rig_dice = 2,3
seed 99
expect state seed = 99
'''


@pytest.fixture(scope="module")
def poked_rig():
    """A GameRig with a small two-player state poked in by symbol."""
    from zxmonopoly.harness.rig import GameRig

    rig = GameRig(engine="python")
    s = rig.symbols
    rig.poke("v_phase", s["PHASE_PLAYING"])
    rig.poke("v_num_players", 2)
    rig.poke("v_current", 1)
    rig.poke("v_houses_left", 29)
    rig.poke("v_hotels_left", 12)
    rig.poke("v_dice", 5)
    rig.poke(s["v_dice"] + 1, 5)
    rig.poke("v_doubles", 1)
    rig.poke("v_options", 1 << s["OPT_NO_AUCTION"])
    rig.poke("v_chance_count", 2)
    rig.poke(s["v_chance"], 1)
    rig.poke(s["v_chance"] + 1, 0)
    rig.poke(s["v_squares"] + 39, 1 | 3 << s["SQ_BUILD_SHIFT"])
    for n, (flags, token, square, cash, turns, cards, pers, name) in enumerate([
        (["PF_PLAYING"], "TOKEN_DOG", 39, 1300, 0, 0, 0, b"Alice"),
        (["PF_PLAYING", "PF_COMPUTER", "PF_IN_JAIL"], "TOKEN_CAR", 10, 500, 1,
         1 << s["JC_CHANCE"], s["PERS_CAUTIOUS"], b"HAL"),
    ]):
        rig.poke(rig.player_address(n + 1, "P_FLAGS"), sum(1 << s[f] for f in flags))
        rig.poke(rig.player_address(n + 1, "P_TOKEN"), s[token])
        rig.poke(rig.player_address(n + 1, "P_SQUARE"), square)
        rig.poke16(rig.player_address(n + 1, "P_CASH"), cash)
        rig.poke(rig.player_address(n + 1, "P_JAIL_TURNS"), turns)
        rig.poke(rig.player_address(n + 1, "P_JAIL_CARDS"), cards)
        rig.poke(rig.player_address(n + 1, "P_PERSONALITY"), pers)
        for i, byte in enumerate(name + b"\0"):
            rig.poke(rig.player_address(n + 1, "P_NAME") + i, byte)
    return rig


def test_expectations_pass_on_poked_state(tmp_path, poked_rig) -> None:
    """Every line of POKED holds for the poked state (steps run on the rig's session)."""
    from zxmonopoly.harness import parse_script
    from zxmonopoly.harness.script import run_step

    for step in parse_script(_write(tmp_path, POKED)).steps:
        run_step(poked_rig, step)


@pytest.mark.parametrize(("line", "message"), [
    ("expect state player 1 cash = 1500", "expected player 1 cash = 1500, got 1300"),
    ("expect state player 1 cash < 1300", "expected player 1 cash < 1300, got 1300"),
    ("expect state player 2 in_jail = no", "expected player 2 in_jail = no, got yes"),
    ("expect state player 3 cash = 0", "cannot read player 3 cash: player 3 is not in the game "
     "(2 player(s) entered)"),
    ("expect state square Mayfair owner = 2", "expected square 39 owner = 2, got 1"),
    ("expect state square 37 owner != none", "expected square 37 owner != none, got none"),
    ("expect state player 2 jail_cards = 2", "expected player 2 jail_cards = 2, got chance "
     "(1 card(s))"),
    ("expect state player 1 name = Bob", "expected player 1 name = Bob, got Alice"),
    ("expect state dice = 6,6", "expected dice = 6,6, got 5,5"),
    ("expect state rent payer > 1", "expected rent payer > 1, got none"),
    ("expect state clock >= 0", "expected clock >= 0, got none"),
])
def test_expectation_failures_say_expected_and_got(tmp_path, poked_rig, line, message) -> None:
    from zxmonopoly.harness import HarnessError, parse_script
    from zxmonopoly.harness.script import run_step

    step, = parse_script(_write(tmp_path, line + "\n")).steps
    with pytest.raises(HarnessError) as info:
        run_step(poked_rig, step)
    assert str(info.value).startswith(message)
    assert "screen:" in str(info.value)


# -- running the real game ------------------------------------------------------------------

TITLE = '''# The bundled game, loaded with LOAD "" (once per process), at its title screen.
game
expect "M O N O P O L Y" at row 3
expect "PRESS ANY KEY"
wait input within 10
expect state phase = title
expect state players = 0
expect state current = none
expect state rent = none
seed 0x1234
expect state seed = 4660
roll 3 4
expect state rig_dice = 3,4
'''


def test_game_script_passes_at_the_title(tmp_path) -> None:
    from zxmonopoly.harness import run_script

    result = run_script(_write(tmp_path, TITLE), engine="python")
    assert result.passed, result.report()


def test_game_script_state_failure_report(tmp_path) -> None:
    """A wrong state expectation fails at its line with expected, got and the screen."""
    from zxmonopoly.harness import run_script

    path = _write(tmp_path, TITLE + "expect state houses_left = 32\nwait 1\n")
    result = run_script(path, engine="python")
    assert not result.passed and result.step is not None and result.step.line == 14
    report = result.report()
    assert report.startswith(f"FAIL {path}:14: expected houses_left = 32, got 0")
    assert "line: expect state houses_left = 32" in report
    assert "M O N O P O L Y" in report


def test_tape_header_brings_the_symbol_map_beside_it(tmp_path) -> None:
    """'tape' of the bundled game types LOAD ""; monopoly.sym.json beside it is the map."""
    from zxmonopoly import images
    from zxmonopoly.harness import run_script

    path = _write(tmp_path, f"tape {images.game_tape_path()}\nwait input within 200\n"
                  "expect state phase = title\nexpect \"PRESS ANY KEY\" at row 21\n")
    result = run_script(path, engine="python")
    assert result.passed, result.report()


def test_game_header_with_a_snapshot(tmp_path) -> None:
    """'game' with 'snapshot' starts from the snapshot with the game's symbol map."""
    from zxmonopoly.harness import Session, run_script

    game = Session.game(engine="python")
    game.seed(777)
    game.save_snapshot(tmp_path / "seeded.z80")
    path = _write(tmp_path, "game\nsnapshot seeded.z80\nexpect state seed = 777\n"
                  "wait input\n")
    result = run_script(path, engine="python")
    assert result.passed, result.report()


def test_readme_example_script_passes(tmp_path) -> None:
    """README.md's "Write a test" script, saved beside the scripts' includes as the README
    says, passes and prints what the README shows."""
    import re
    import shutil

    from zxmonopoly.harness.script import run_script

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Write a test"):]
    script, shown = re.findall(r"```\n(.*?)```", section, re.S)[:2]
    scripts = root / "tests" / "game" / "scripts"
    for include in re.findall(r"^include (\S+)$", script, re.M):
        shutil.copy(scripts / include, tmp_path / include)
    name = re.search(r"zxmonopoly script (\S+)", shown).group(1)
    path = _write(tmp_path, script, Path(name).name)
    result = run_script(path, engine="python")
    assert result.passed, result.report()
    frames = re.search(r"\((\d+) frames\)", shown).group(1)
    assert result.report() == f"PASS {path} ({frames} frames)"
