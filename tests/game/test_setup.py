"""setup_run (booklet part C "Piece selection", "Short game", "Who goes first?"; seed_rules
B1.2-B1.4, A6): pieces, computer players, names, the short game, options, the first throw."""

from __future__ import annotations

import pytest

from zxmonopoly.memory_map import DISPLAY_FILE

PIECES = ("Boot", "Car", "Dog", "Hat", "Iron", "Ship")
PERSONALITIES = ("Mean", "Reckless", "Greedy", "Steady", "Cautious", "Entrepreneurial")
BUDGET = 2000


@pytest.fixture
def rig(rig):
    """The fresh rig of conftest with a known seed."""
    rig.poke16("v_seed", 0x1234)
    return rig


def messages(r) -> str:
    """The three message lines as one string."""
    return " ".join(r.row(n) for n in (21, 22, 23))


def key(r, k: str) -> None:
    """Tap a key once the game waits for one."""
    r.wait_input(BUDGET)
    r.tap(k)


def typed(r, text: str) -> None:
    """Type text a key at a time, each when the game waits."""
    for ch in text:
        key(r, ch)


def rig_dice(r, a: int, b: int) -> None:
    """The next throw's faces (rng.asm's test hook)."""
    r.poke("v_rig_dice", a)
    r.poke(r.address("v_rig_dice") + 1, b)


def human_throw(r, a: int, b: int) -> None:
    """A human's who-goes-first throw: wait for the prompt, rig the dice, press D."""
    r.wait_input(BUDGET)
    assert "press D" in messages(r)
    rig_dice(r, a, b)
    r.type("d")


def computer_throw(r, a: int, b: int) -> None:
    """A computer player's throw: it throws by itself; rig it when the throw starts."""
    r.wait_pc("setup_throw", BUDGET)
    rig_dice(r, a, b)
    r.wait(1)


def piece_row(n: int) -> int:
    """The screen row of piece n (1-6) in the setup's list: three rows a piece."""
    return 3 + 3 * (n - 1)


def cell_pixels(r, row: int, col: int) -> bytes:
    """The 8 pixel bytes of a character cell (the display file's thirds, spectrum_facts 2.2)."""
    base = DISPLAY_FILE + (row & 0x18) * 256 + (row & 7) * 32 + col
    return bytes(r.peek(base + 256 * line) for line in range(8))


def add_player(r, piece: int, computer: bool, name: str) -> None:
    """A piece's number, Y/N, the name, ENTER."""
    key(r, str(piece))
    key(r, "y" if computer else "n")
    typed(r, name)
    key(r, "ENTER")


def no_short_game_no_options(r) -> None:
    for answer in "nnnn":
        key(r, answer)


def name_of(r, player: int) -> str:
    addr = r.player_address(player + 1, "P_NAME")
    raw = bytes(r.peek(addr + i) for i in range(r.symbols["NAME_LENGTH"] + 1))
    assert 0 in raw, "the name is 0-terminated"
    return raw[:raw.index(0)].decode()


def test_menu_shows_the_six_pieces_numbered(rig):
    rig.start_call("setup_run")
    rig.wait_input(BUDGET)
    for n, piece in enumerate(PIECES, 1):
        row = piece_row(n)
        text = rig.row(row)
        assert text[1] == str(n) and text[5:5 + len(piece)] == piece, text
        glyph = rig.symbols["graphics_glyphs"] + 8 * (n - 1)  # CH_TOKEN + n - 1
        assert cell_pixels(rig, row, 3) == bytes(rig.peek(glyph + i) for i in range(8))
    assert rig.peek("v_phase") == rig.symbols["PHASE_SETUP"]
    assert "press a piece's number" in messages(rig)


def test_two_players_computer_names_short_game_options_and_a_tie(rig):
    r = rig
    r.start_call("setup_run")
    # Player 1 takes the Car, human; the name typed with a slip mended by DELETE.
    key(r, "2")
    r.wait_input(BUDGET)
    assert "takes the Car" in messages(r)
    key(r, "n")
    typed(r, "anne")
    key(r, "CAPS SHIFT+0")
    typed(r, "a")
    key(r, "ENTER")
    # ENTER with one player is refused; the Car is taken.
    key(r, "ENTER")
    r.wait_input(BUDGET)
    assert "At least two players" in messages(r)
    key(r, "2")
    r.wait_input(BUDGET)
    assert "taken" in messages(r)
    assert r.peek("v_num_players") == 1
    # Player 2: the Iron, a computer player.
    add_player(r, 5, True, "hal")
    key(r, "ENTER")                                 # all are in
    # Short game: 1 hour 30.
    key(r, "y")
    key(r, "1")
    key(r, "ENTER")
    typed(r, "30")
    key(r, "ENTER")
    key(r, "n")                                     # no Title Deeds dealt
    # Options: jackpot yes, no-auction no, retire yes.
    for answer in "yny":
        key(r, answer)
    # Who goes first: 7 against 7, a tie; then 12 against 2.
    human_throw(r, 3, 4)
    computer_throw(r, 6, 1)
    r.wait_text("A tie", BUDGET)
    human_throw(r, 6, 6)
    computer_throw(r, 1, 1)
    r.finish_call(BUDGET)

    assert r.peek("v_num_players") == 2
    playing = 1 << r.symbols["PF_PLAYING"]
    computer = 1 << r.symbols["PF_COMPUTER"]
    assert r.peek(r.player_address(1, "P_FLAGS")) == playing
    assert r.peek(r.player_address(2, "P_FLAGS")) == playing | computer
    assert r.peek(r.player_address(1, "P_TOKEN")) == 1
    assert r.peek(r.player_address(2, "P_TOKEN")) == 4
    assert name_of(r, 0) == "anna"
    assert name_of(r, 1) == "hal"
    personality = r.peek(r.player_address(2, "P_PERSONALITY"))
    assert 0 <= personality < 6
    assert f"Computer: {PERSONALITIES[personality]}" in r.text()
    for p in range(2, 6):
        assert r.peek(r.player_address(p + 1, "P_FLAGS")) == 0
    assert r.peek("v_short_game") == 1
    assert r.peek16("v_clock_minutes") == 90
    opts = r.peek("v_options")
    assert opts == (1 << r.symbols["OPT_JACKPOT"]) | (1 << r.symbols["OPT_RETIRE"])
    assert r.peek("v_current") == 0
    assert r.peek("v_phase") == r.symbols["PHASE_FIRST"]
    assert "1 anna goes first" in messages(r)
    assert "=12" in r.text()


def test_only_the_tied_throw_again(rig):
    r = rig
    r.start_call("setup_run")
    for piece, name in ((1, "ann"), (3, "bob"), (6, "cy")):
        add_player(r, piece, False, name)
    key(r, "ENTER")
    no_short_game_no_options(r)
    assert r.peek("v_short_game") == 0 and r.peek("v_options") == 0
    human_throw(r, 3, 4)                            # 1 ann: 7
    human_throw(r, 6, 1)                            # 2 bob: 7
    human_throw(r, 2, 2)                            # 3 cy: 4
    r.wait_input(BUDGET)
    assert messages(r).startswith("1 ann: press D")  # ann and bob again, not cy
    rig_dice(r, 1, 1)
    r.type("d")
    r.wait_input(BUDGET)
    assert messages(r).startswith("2 bob: press D")
    rig_dice(r, 5, 5)
    r.type("d")
    r.finish_call(BUDGET)                           # cy is not asked again
    assert r.peek("v_current") == 1
    assert "2 bob goes first" in messages(r)


def test_the_sixth_player_ends_the_entry_by_itself(rig):
    r = rig
    r.start_call("setup_run")
    for piece in (6, 5, 4, 3, 2, 1):
        add_player(r, piece, True, f"c{piece}")
    r.wait_input(BUDGET)
    assert "Short game" in messages(r)              # no ENTER needed after the sixth
    assert r.peek("v_num_players") == 6
    tokens = [r.peek(r.player_address(p + 1, "P_TOKEN")) for p in range(6)]
    assert tokens == [5, 4, 3, 2, 1, 0]
    assert [name_of(r, p) for p in range(6)] == [f"c{n}" for n in (6, 5, 4, 3, 2, 1)]


def test_short_game_length_is_checked(rig):
    r = rig
    r.start_call("setup_run")
    add_player(r, 1, False, "a")
    add_player(r, 2, False, "b")
    key(r, "ENTER")
    key(r, "y")
    typed(r, "0")                                   # no time at all: refused
    key(r, "ENTER")
    key(r, "ENTER")
    r.wait_input(BUDGET)
    assert "From 1 minute" in messages(r)
    typed(r, "24")                                  # too many hours: refused
    key(r, "ENTER")
    r.wait_input(BUDGET)
    assert "From 1 minute" in messages(r)
    key(r, "ENTER")                                 # no hours, 45 minutes
    typed(r, "45")
    key(r, "ENTER")
    for answer in "nnyn":                           # no deeds dealt; the three options
        key(r, answer)
    human_throw(r, 6, 5)
    human_throw(r, 1, 2)
    r.finish_call(BUDGET)
    assert r.peek("v_short_game") == 1
    assert r.peek16("v_clock_minutes") == 45
    assert r.peek("v_options") == 1 << r.symbols["OPT_NO_AUCTION"]
    assert r.peek("v_current") == 0
