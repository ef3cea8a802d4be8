"""Decoding the game's state block (zxmonopoly.harness.game): fields poked through the symbol
map into a GameRig, read back as dataclasses; the test hooks; Session.game() on the real tape.

Nothing here depends on the game's rules: only on the title screen and the state block's
layout as vars.asm documents it.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def rig(shared_rig):
    """conftest's ``rig`` as these tests use it, a GameRig whose state block is cleared (by the
    game's own state_clear), made from the module's ``shared_rig``: they read the state block
    only, so the rest of a fresh machine is not worth its start each time."""
    shared_rig.call("state_clear")
    return shared_rig


def sym(rig, name: str) -> int:
    return rig.symbols[name]


def poke_player(rig, number: int, *, flags=(), token="TOKEN_BOOT", square=0, cash=1500,
                jail_turns=0, jail_cards=(), personality="PERS_MEAN", name="") -> None:
    """Write player ``number``'s (1-6) record field by field, all by symbol."""
    bits = 0
    for flag in flags:
        bits |= 1 << sym(rig, flag)
    cards = 0
    for card in jail_cards:
        cards |= 1 << sym(rig, card)
    rig.poke(rig.player_address(number, "P_FLAGS"), bits)
    rig.poke(rig.player_address(number, "P_TOKEN"), sym(rig, token))
    rig.poke(rig.player_address(number, "P_SQUARE"), square)
    rig.poke16(rig.player_address(number, "P_CASH"), cash)
    rig.poke(rig.player_address(number, "P_JAIL_TURNS"), jail_turns)
    rig.poke(rig.player_address(number, "P_JAIL_CARDS"), cards)
    rig.poke(rig.player_address(number, "P_PERSONALITY"), sym(rig, personality))
    at = rig.player_address(number, "P_NAME")
    raw = name.encode("ascii")[:sym(rig, "NAME_LENGTH")] + b"\0"
    for i, byte in enumerate(raw):
        rig.poke(at + i, byte)


def square_byte(rig, owner: int | None = None, buildings: int = 0,
                mortgaged: bool = False) -> int:
    """A square byte built from SQ_* constants (owner a player number 1-6)."""
    value = 0 if owner is None else owner & sym(rig, "SQ_OWNER_MASK")
    value |= buildings << sym(rig, "SQ_BUILD_SHIFT")
    if mortgaged:
        value |= 1 << sym(rig, "SQ_MORTGAGED")
    return value


def test_cleared_state_block(rig) -> None:
    """After state_clear: the title phase, no players, every square the Bank's, nothing due."""
    state = rig.state()
    assert state.phase == "title"
    assert state.players == () and state.current is None
    assert len(state.squares) == 40
    assert [sq.index for sq in state.squares] == list(range(40))
    assert all(sq.owner is None and sq.houses == 0 and not sq.hotel and not sq.mortgaged
               for sq in state.squares)
    assert sum(sq.ownable for sq in state.squares) == 28
    assert state.rent is None and state.last_card is None
    assert state.chance == () and state.chest == ()
    assert state.clock is None and not state.short_game
    assert state.dice == (0, 0) and state.rig_dice == (0, 0)
    assert state.total_money == 0


def test_players(rig) -> None:
    """Every field of the player record, flags and bit sets decoded; numbered from 1."""
    rig.poke("v_num_players", 3)
    rig.poke("v_current", 1)
    rig.poke("v_phase", sym(rig, "PHASE_PLAYING"))
    poke_player(rig, 1, flags=("PF_PLAYING",), token="TOKEN_DOG", square=39, cash=1300,
                name="ALICE")
    poke_player(rig, 2, flags=("PF_PLAYING", "PF_COMPUTER", "PF_IN_JAIL"), token="TOKEN_SHIP",
                square=10, cash=65535, jail_turns=2, jail_cards=("JC_CHANCE", "JC_CHEST"),
                personality="PERS_ENTERPRISING", name="COMPUTER 2")
    poke_player(rig, 3, flags=("PF_BANKRUPT",), token="TOKEN_IRON", cash=0,
                jail_cards=("JC_CHEST",), personality="PERS_GREEDY", name="bob`")
    state = rig.state()
    assert state.phase == "playing"
    assert len(state.players) == 3 and state.current == 2
    alice, computer, bob = state.players
    assert (alice.number, alice.name, alice.cash, alice.square, alice.square_name) == (
        1, "ALICE", 1300, 39, "Mayfair")
    assert alice.playing and not alice.computer and not alice.in_jail and not alice.bankrupt
    assert alice.token == "Dog" and alice.personality is None and alice.jail_cards == ()
    assert computer.name == "COMPUTER 2" and computer.cash == 65535
    assert computer.in_jail and computer.jail_turns == 2 and computer.square_name.startswith(
        "Jail")
    assert computer.computer and computer.personality == "Entrepreneurial"
    assert computer.jail_cards == ("chance", "chest") and computer.token == "Ship"
    assert bob.bankrupt and not bob.playing and bob.name == "bob£"  # 60h is the pound sign
    assert bob.jail_cards == ("chest",) and bob.personality is None  # a human's is unused
    assert state.player(2) is computer and state.current_player is computer
    assert state.total_money == 1300 + 65535
    with pytest.raises(AssertionError, match=r"player 4 is not in the game \(3 player"):
        state.player(4)


@pytest.mark.parametrize(("constant", "name"), [
    ("PERS_MEAN", "Mean"), ("PERS_RECKLESS", "Reckless"), ("PERS_GREEDY", "Greedy"),
    ("PERS_STEADY", "Steady"), ("PERS_CAUTIOUS", "Cautious"),
    ("PERS_ENTERPRISING", "Entrepreneurial"),
])
def test_personalities(rig, constant, name) -> None:
    rig.poke("v_num_players", 1)
    poke_player(rig, 1, flags=("PF_COMPUTER",), personality=constant)
    assert rig.state().player(1).personality == name


@pytest.mark.parametrize("token", ["Boot", "Car", "Dog", "Hat", "Iron", "Ship"])
def test_tokens(rig, token) -> None:
    rig.poke("v_num_players", 1)
    poke_player(rig, 1, token=f"TOKEN_{token.upper()}")
    assert rig.state().player(1).token == token


def test_squares_owner_buildings_mortgage(rig) -> None:
    """Owner, houses 0-4, hotel and mortgage from the square bytes; lookup by name or index."""
    base = sym(rig, "v_squares")
    rig.poke(base + 39, square_byte(rig, owner=2, buildings=3))
    rig.poke(base + 37, square_byte(rig, owner=2, buildings=sym(rig, "SQ_HOTEL")))
    rig.poke(base + 5, square_byte(rig, owner=1, mortgaged=True))
    rig.poke(base + 1, square_byte(rig, owner=6, buildings=4))
    state = rig.state()
    mayfair = state.square("Mayfair")
    assert (mayfair.index, mayfair.owner, mayfair.houses, mayfair.hotel) == (39, 2, 3, False)
    assert state.square(39) is mayfair and state.square("mayfair") is mayfair
    park_lane = state.square("park lane")
    assert park_lane.hotel and park_lane.houses == 0 and park_lane.owner == 2
    kings_cross = state.square("Kings Cross")  # a unique part of "King's Cross Station"
    assert kings_cross.index == 5 and kings_cross.mortgaged and kings_cross.owner == 1
    assert state.square("Old Kent Rd.").houses == 4 and state.square(1).owner == 6
    assert [sq.index for sq in state.owned_by(2)] == [37, 39]
    assert len(state.owned_by(None)) == 28 - 4
    assert not state.square("GO").ownable


@pytest.mark.parametrize(("which", "message"), [
    ("Chance", "square 'Chance' is ambiguous: 7 (Chance), 22 (Chance), 36 (Chance)"),
    ("Mayfiar", "no square 'Mayfiar' on the board; did you mean Mayfair?"),
    (40, "square 40 is not on the board"),
])
def test_square_lookup_errors(rig, which, message) -> None:
    from zxmonopoly.harness import HarnessError

    with pytest.raises(HarnessError) as info:
        rig.state().square(which)
    assert message in str(info.value)


def test_packs_cards_rent_bank_clock_options(rig) -> None:
    """Pack order as card ids, the last card, pending rent, the Bank, the clock, options."""
    rig.poke("v_chance_count", 3)
    for i, number in enumerate((5, 0, 15)):
        rig.poke(sym(rig, "v_chance") + i, number)
    rig.poke("v_chest_count", 16)
    for i in range(16):
        rig.poke(sym(rig, "v_chest") + i, 15 - i)
    rig.poke("v_last_card", sym(rig, "JC_CHEST") << 4 | 2)
    rig.poke("v_num_players", 2)
    rig.poke("v_rent_payer", 1)
    rig.poke("v_rent_owner", 0)
    rig.poke("v_rent_square", 39)
    rig.poke("v_houses_left", 28)
    rig.poke("v_hotels_left", 11)
    rig.poke("v_dice", 3)
    rig.poke(sym(rig, "v_dice") + 1, 3)
    rig.poke("v_doubles", 1)
    rig.poke16("v_turns", 300)
    rig.poke16("v_jackpot", 250)
    rig.poke("v_short_game", 1)
    rig.poke16("v_clock_minutes", 45)
    rig.poke("v_options", 1 << sym(rig, "OPT_JACKPOT") | 1 << sym(rig, "OPT_RETIRE"))
    poke_player(rig, 1, cash=1000)
    poke_player(rig, 2, cash=500)
    state = rig.state()
    assert state.chance == ("CH06", "CH01", "CH16")
    assert state.chest[0] == "CC16" and state.chest[-1] == "CC01" and len(state.chest) == 16
    assert state.last_card == "CC03"
    assert state.rent is not None
    assert (state.rent.payer, state.rent.owner, state.rent.square) == (2, 1, 39)
    assert state.rent.square_name == "Mayfair"
    assert (state.houses_left, state.hotels_left) == (28, 11)
    assert state.dice == (3, 3) and state.doubles == 1 and state.turns == 300
    assert state.short_game and state.clock == 45
    assert state.options.jackpot and state.options.retire and not state.options.no_auction
    assert state.jackpot == 250 and state.total_money == 1750
    rig.poke("v_last_card", sym(rig, "JC_CHANCE") << 4 | 15)
    assert rig.state().last_card == "CH16"
    # Worked out by the state itself (what scripts read as chance_count, chest_top ...).
    assert (state.chance_count, state.chance_top) == (3, "CH06")
    assert (state.chest_count, state.chest_top) == (16, "CC16")
    from zxmonopoly.harness.game import read_variable

    memory = rig.machine.memory
    assert read_variable(memory, rig.symbols, "v_turns") == 300  # a word
    assert read_variable(memory, rig.symbols, "v_jackpot") == 250
    assert read_variable(memory, rig.symbols, "v_doubles") == 1  # a byte


def test_player_field_address_is_the_record_layout(rig) -> None:
    """One definition of a player's field address: v_players + (n-1) * PLAYER_RECORD + the
    field, players 1..MAX_PLAYERS; the rig's player_address is it."""
    from zxmonopoly.harness import HarnessError
    from zxmonopoly.harness.game import player_field_address

    s = rig.symbols
    assert player_field_address(s, 1, "P_FLAGS") == s["v_players"] + s["P_FLAGS"]
    assert player_field_address(s, 6, "P_CASH") == (s["v_players"] + 5 * s["PLAYER_RECORD"]
                                                     + s["P_CASH"])
    assert rig.player_address(3, "P_NAME") == player_field_address(s, 3, "P_NAME")
    for bad in (0, 7):
        with pytest.raises(HarnessError, match=f"player {bad} does not exist: players are 1-6"):
            player_field_address(s, bad, "P_CASH")


@pytest.mark.parametrize(("field", "offset", "value", "message"), [
    ("v_phase", 0, 9, "v_phase holds 9, no PHASE_* value"),
    ("v_num_players", 0, 7, "v_num_players holds 7, more than MAX_PLAYERS"),
    ("v_squares", 39, 0x60, "square 39 (Mayfair) holds buildings 6"),
    ("v_chance_count", 0, 17, "v_chance_count holds 17, more than 16 cards"),
])
def test_impossible_values_are_errors(rig, field, offset, value, message) -> None:
    from zxmonopoly.harness import HarnessError

    rig.poke(sym(rig, field) + offset, value)
    with pytest.raises(HarnessError) as info:
        rig.state()
    assert message in str(info.value)


def test_not_loaded_is_a_clear_error() -> None:
    """Our ROM alone: no state block in its symbol map; the game's map without the game in RAM:
    the game is not running."""
    from zxmonopoly.harness import HarnessError, Session, decode_state
    from zxmonopoly.harness.rig import game_symbols

    rom_only = Session(engine="python")
    with pytest.raises(HarnessError, match="the game's state block is not in .*rom.sym.json: "
                       "missing v_seed"):
        rom_only.state()
    with pytest.raises(HarnessError, match="the game is not running: no JP isr at IM2_JUMP"):
        decode_state(rom_only.machine.memory, game_symbols())


def test_hooks_write_the_state_block(rig) -> None:
    """rig_dice and seed write v_rig_dice and v_seed; the game takes the rigged throw once."""
    from zxmonopoly.harness import HarnessError

    rig.rig_dice(6, 5)
    rig.seed(0x1234)
    state = rig.state()
    assert state.rig_dice == (6, 5) and state.seed == 0x1234
    assert rig.peek("v_rig_dice") == 6 and rig.peek16("v_seed") == 0x1234
    rig.call("dice_throw")
    state = rig.state()
    assert state.dice == (6, 5) and state.rig_dice == (0, 0)
    for bad in ((0, 3), (7, 1)):
        with pytest.raises(HarnessError, match="dice must be 1-6"):
            rig.rig_dice(*bad)
    with pytest.raises(HarnessError, match="16-bit"):
        rig.seed(65536)


def test_session_game_loads_the_tape_to_the_title() -> None:
    """LOAD "" typed on our ROM loads the bundled tape; the title waits for a key."""
    from zxmonopoly.harness import Session

    game = Session.game(engine="python", cache=False)
    assert game.machine.cpu.pc == game.symbols["keys_wait.wait"]
    assert game.find("M O N O P O L Y") is not None
    assert game.find("PRESS ANY KEY") is not None
    assert game.state().phase == "title"
    assert game.wait_input() == 0  # it is waiting already


def test_session_game_from_the_cached_snapshot_is_the_same() -> None:
    """Cached sessions start alike to the byte and read the title with the game's font."""
    from zxmonopoly.harness import Session

    first, second = Session.game(engine="python"), Session.game(engine="python")
    assert first.machine.memory == second.machine.memory
    assert first.machine.cpu.pc == first.symbols["keys_wait.wait"]
    assert first.row(3).strip() == "M O N O P O L Y"
    assert "PRESS ANY KEY" in first.row(21)
    first.seed(4321)  # each session has its own machine
    assert second.state().seed != 4321 and first.state().seed == 4321
