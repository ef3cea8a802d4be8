"""Positions set through the state block (``Session.position()`` and the script lines): the
books the game keeps follow (the Bank's houses, hotels and account), unreachable positions
are refused naming the rule, and GameState compares without the frame counter."""

from __future__ import annotations

from pathlib import Path

import pytest

from zxmonopoly.harness import HarnessError
from zxmonopoly.harness.invariants import bank_balance, check_invariants
from zxmonopoly.harness.script import ScriptError, parse_script, run_script, run_step

SCRIPTS = Path(__file__).resolve().parents[1] / "game" / "scripts"
PRELUDE = f"""game
include {SCRIPTS / 'title.zxinc'}
seed 1234
include {SCRIPTS / 'two_players.zxinc'}
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.zxs"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def playing(tmp_path_factory):
    """A two-player game (1 ANNE, 2 BOB) at ANNE's first turn, python engine; a snapshot
    path so that each test starts alike."""
    from zxmonopoly.harness.script import start_session

    directory = tmp_path_factory.mktemp("position")
    script = parse_script(_write(directory, PRELUDE))
    session = start_session(script, "python")
    for step in script.steps:
        run_step(session, step)
    path = directory / "playing.z80"
    session.save_snapshot(path)
    return path


def _session(path):
    from zxmonopoly import images
    from zxmonopoly.harness import Session

    return Session.from_snapshot(path, engine="python",
                                 symbols=images.game_symbols_path())


def test_position_keeps_the_books(playing):
    s = _session(playing)
    before = s.state()
    bank = bank_balance(s.machine.memory, s.symbols)
    with s.position() as pos:
        pos.own("Mayfair", 1, hotel=True)
        pos.own("Park Lane", 1, houses=4)
        pos.own("Kings Cross", 2, mortgaged=True)
        pos.cash(2, 2500)
        pos.at(1, "Park Lane")
        pos.jail(2, turns=1)
        pos.jail_cards(1, ["chance"])
        pos.next_card("chest", "CC14")
        pos.turn(2)
    st = s.state()
    assert st.square("Mayfair").hotel and st.square("Mayfair").owner == 1
    assert st.square("Park Lane").houses == 4
    assert st.square("King's Cross Station").mortgaged
    assert (st.houses_left, st.hotels_left) == (before.houses_left - 4, before.hotels_left - 1)
    assert st.player(2).cash == 2500
    assert bank_balance(s.machine.memory, s.symbols) == bank - 1000
    assert st.player(1).square == 37
    assert st.player(2).in_jail and st.player(2).square == 10 and st.player(2).jail_turns == 1
    assert st.player(1).jail_cards == ("chance",)
    assert "CH16" not in st.chance and len(st.chance) == 15
    assert st.chest[0] == "CC14" and sorted(st.chest) == sorted(before.chest)
    assert st.current == 2
    assert check_invariants(s) == []
    changes = before.diff(st)
    assert "player 2 cash: 1500 -> 2500" in changes
    assert "square Mayfair owner: none -> 1" in changes
    assert "current: 1 -> 2" in changes
    # Giving the card back puts it at the bottom of its pack.
    with s.position() as pos:
        pos.jail_cards(1, [])
    assert s.state().chance[-1] == "CH16"


@pytest.mark.parametrize(("edit", "rule"), [
    (lambda p: p.own("Mayfair", 1, hotel=True).own("Park Lane", 1, houses=2), "uneven building"),
    (lambda p: p.own("Mayfair", 1, houses=1), "not owned wholly by one player"),
    (lambda p: p.own("Mayfair", 1, houses=1).own("Park Lane", 1, houses=1, mortgaged=True),
     "on Park Lane, which is mortgaged"),
    (lambda p: p.own("Kings Cross", 1, houses=1), "only sites take houses"),
    (lambda p: p.own("Mayfair", 3), "player 3 is not in the game"),
    (lambda p: p.next_card("chance", "CH16").jail_cards(1, ["chance"]), None),
])
def test_unreachable_positions_are_refused(playing, edit, rule):
    s = _session(playing)
    before = s.state()
    if rule is None:  # both edits are fine: the card leaves the top of the pack
        with s.position() as pos:
            edit(pos)
        assert s.state().player(1).jail_cards == ("chance",)
        return
    with pytest.raises(HarnessError, match=rule):
        with s.position() as pos:
            edit(pos)
    assert s.state() == before, "nothing is written when the position is refused"


def test_more_than_32_houses_are_refused(playing):
    s = _session(playing)
    groups = ["Old Kent Road", "Whitechapel", "The Angel", "Euston", "Pentonville",
              "Pall Mall", "Whitehall", "Northumberland", "Bow Street", "Marlborough",
              "Vine Street"]
    pos = s.position()
    for name in groups[:8]:
        pos.own(name, 1, houses=4)          # 32 houses: the whole stock
    pos.apply()
    assert s.state().houses_left == 0
    pos = s.position()
    for name in groups[8:]:
        pos.own(name, 2, houses=1)
    with pytest.raises(HarnessError, match="the Bank has only 32 houses"):
        pos.apply()


def test_position_lines_in_a_script(tmp_path):
    path = _write(tmp_path, PRELUDE + """
# Checked together: the hotel may come before the rest of its group.
own "Mayfair" by 1 hotel
own "Park Lane" by 1 4 houses
own "Kings Cross", "Marylebone" by 2 mortgaged
cash 2 = £2500
at 2 "Park Lane"
jail cards 2 = chest
next chance CH07
turn 2
expect state houses_left = 28
expect state hotels_left = 11
expect state square Marylebone mortgaged = yes
expect state player 2 square_name = "Park Lane"
expect state player 2 jail_cards = chest
expect state chance top = CH07
expect state current = 2
check invariants
""")
    result = run_script(path, engine="python")
    assert result.passed, result.report()


def test_a_refused_script_position_names_the_rule_and_the_line(tmp_path):
    path = _write(tmp_path, PRELUDE + """
own "Mayfair" by 1 hotel
own "Park Lane" by 1 2 houses
""")
    result = run_script(path, engine="python")
    assert not result.passed
    assert "uneven building on the dark_blue group" in result.message
    assert result.step is not None and result.step.line == PRELUDE.count("\n") + 3


@pytest.mark.parametrize(("line", "problem"), [
    ("own Mayfair by 7", "player number is 1-6"),
    ("own Mayfair by 1 5 houses", "0-4 houses"),
    ("own Mayfair 1", "expected 'own SQUARE"),
    ("own Nowhere by 1", "no square 'Nowhere'"),
    ("cash 2 2500", "expected 'cash PLAYER = AMOUNT'"),
    ("cash 2 = 70000", "0-65535"),
    ("next chance CC01", "no card 'CC01' in the chance pack"),
    ("jail 1 turns 3", "0-2"),
    ("jail cards 1 = hat", "expected chance, chest"),
    ("check everything", "expected 'check invariants'"),
])
def test_malformed_position_lines(tmp_path, line, problem):
    with pytest.raises(ScriptError, match=problem):
        parse_script(_write(tmp_path, f"game\n{line}\n"))


def test_states_compare_without_the_frame_counter(playing):
    s = _session(playing)
    a = s.state()
    s.wait(20)                      # the game waits for ANNE's key: only v_frames moves
    b = s.state()
    assert a.frames != b.frames
    assert a == b and a.diff(b) == []
    s.poke16(s.symbols["v_players"] + s.symbols["P_CASH"], 1499)
    assert s.state() != b and b.diff(s.state()) == ["player 1 cash: 1500 -> 1499"]


def test_a_bare_mortgaged_site_beside_a_built_one_is_a_position(playing):
    """Booklet A52: only the mortgaged site itself must be bare (reachable: build one house on
    each, sell Park Lane's back, mortgage Park Lane)."""
    s = _session(playing)
    with s.position() as pos:
        pos.own("Mayfair", 1, houses=1).own("Park Lane", 1, mortgaged=True)
    assert check_invariants(s) == []
    assert s.state().square("Park Lane").mortgaged
