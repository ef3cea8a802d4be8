"""The game's state block decoded from RAM into dataclasses, through the symbol map.

Every address, record offset and bit number comes from the assembler's symbol map
(``monopoly.sym.json``: the ``v_*`` fields of ``src/game/vars.asm`` and its EQU constants such
as ``P_CASH``, ``PF_IN_JAIL``, ``SQ_BUILD_SHIFT``), never from numbers written here, so the
decoder follows the game when its layout changes. Names of squares and cards come from
:mod:`zxmonopoly.rules.data`.

Inside the program players are 0..5; here, as on the screen, they are numbered 1..6.

``decode_state(memory, symbols)`` reads a :class:`GameState`; ``rig_dice`` and ``seed`` write
the game's two test hooks; :func:`player_field_address` and :func:`read_variable` are where
everything else that reads or writes the block (the rig, positions, the tournament) finds a
player's field or a 16-bit variable. The words scripts compare the fields with are this
module's tables (:data:`PERSONALITIES`, :data:`TOKENS`, :data:`PHASES`), read by
:mod:`zxmonopoly.harness.state_query`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import ClassVar

from zxmonopoly.harness import words
from zxmonopoly.harness.errors import HarnessError
from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST, SQUARES
from zxmonopoly.rules.records import Kind
from zxmonopoly.spectrum.video import SPECTRUM_CHARACTERS

#: Personality names (the original's "Mean, Reckless, Greedy, Steady, Cautious and
#: Entrepreneurial") by the game's PERS_* constant.
PERSONALITY_SYMBOLS = {"PERS_MEAN": "Mean", "PERS_RECKLESS": "Reckless", "PERS_GREEDY": "Greedy",
                       "PERS_STEADY": "Steady", "PERS_CAUTIOUS": "Cautious",
                       "PERS_ENTERPRISING": "Entrepreneurial", "PERS_BUYER": "Buyer"}
#: Token names by the game's TOKEN_* constant.
TOKEN_SYMBOLS = {"TOKEN_BOOT": "Boot", "TOKEN_CAR": "Car", "TOKEN_DOG": "Dog",
                 "TOKEN_HAT": "Hat", "TOKEN_IRON": "Iron", "TOKEN_SHIP": "Ship"}
#: Phase names by the game's PHASE_* constant.
PHASE_SYMBOLS = {"PHASE_TITLE": "title", "PHASE_SETUP": "setup", "PHASE_FIRST": "first",
                 "PHASE_PLAYING": "playing", "PHASE_OVER": "over"}
#: Which pack a Get Out of Jail Free card (JC_* bit) or a drawn card (v_last_card's high
#: nibble, the same numbers) belongs to.
PACK_SYMBOLS = {"JC_CHANCE": "chance", "JC_CHEST": "chest"}
OPTION_SYMBOLS = {"OPT_JACKPOT": "jackpot", "OPT_NO_AUCTION": "no_auction",
                  "OPT_RETIRE": "retire", "OPT_DEAL": "deal"}
#: The personalities (a computer player's ``personality``), in PERS_* order.
PERSONALITIES = tuple(PERSONALITY_SYMBOLS.values())
#: Each personality's PERS_* symbol, by its name.
PERSONALITY_SYMBOL = {name: symbol for symbol, name in PERSONALITY_SYMBOLS.items()}
#: The tokens (a player's ``token``).
TOKENS = tuple(TOKEN_SYMBOLS.values())
#: The phases (``GameState.phase``).
PHASES = tuple(PHASE_SYMBOLS.values())
#: The 16-bit variables of the block (little-endian); every other ``v_*`` read is a byte.
WORD_FIELDS = ("v_seed", "v_frames", "v_turns", "v_jackpot", "v_clock_minutes")

_FIELDS = ("v_seed", "v_rig_dice", "v_frames", "v_phase", "v_options", "v_num_players",
           "v_current", "v_dice", "v_doubles", "v_turns", "v_houses_left", "v_hotels_left",
           "v_jackpot", "v_rent_payer", "v_rent_owner", "v_rent_square", "v_rent_dice",
           "v_short_game",
           "v_clock_minutes", "v_clock_frames", "v_chance",
           "v_chance_count", "v_chest", "v_chest_count", "v_last_card", "v_squares",
           "v_players")
_CONSTANTS = ("MAX_PLAYERS", "NAME_LENGTH", "NO_PLAYER", "PLAYER_RECORD", "P_FLAGS", "P_TOKEN",
              "P_SQUARE", "P_CASH", "P_JAIL_TURNS", "P_JAIL_CARDS", "P_PERSONALITY", "P_NAME",
              "PF_PLAYING", "PF_COMPUTER", "PF_IN_JAIL", "PF_BANKRUPT", "SQ_OWNER_MASK",
              "SQ_MORTGAGED", "SQ_BUILD_SHIFT", "SQ_BUILD_MASK", "SQ_HOTEL", "IM2_JUMP", "isr")
#: Every symbol the decoder needs.
REQUIRED_SYMBOLS = (_FIELDS + _CONSTANTS + tuple(PERSONALITY_SYMBOLS) + tuple(TOKEN_SYMBOLS)
                    + tuple(PHASE_SYMBOLS) + tuple(PACK_SYMBOLS) + tuple(OPTION_SYMBOLS))

#: The Spectrum's character set from 32 (0x60 is the pound sign, 0x7F the copyright sign).
_CHARACTERS = SPECTRUM_CHARACTERS
_JP = 0xC3
PACKS = {"chance": CHANCE, "chest": COMMUNITY_CHEST}


@dataclass(frozen=True)
class Player:
    """One player's record (``v_players``), numbered 1..6 as on the screen."""

    number: int
    name: str
    cash: int
    square: int
    square_name: str
    in_jail: bool
    jail_turns: int
    jail_cards: tuple[str, ...]     # the packs of the Get Out of Jail Free cards held
    computer: bool
    personality: str | None         # a computer player's; None for a human
    token: str
    playing: bool
    bankrupt: bool


@dataclass(frozen=True)
class Square:
    """One board square (``v_squares``): who owns it and what stands on it."""

    index: int
    name: str
    ownable: bool
    owner: int | None               # player number 1..6, None for the Bank / unownable
    houses: int                     # 0..4 (0 when a hotel stands there)
    hotel: bool
    mortgaged: bool


@dataclass(frozen=True)
class Rent:
    """Rent due for the last move, not yet claimed (``v_rent_*``)."""

    payer: int
    owner: int | None
    square: int
    square_name: str
    dice: int                       # the throw that brought the payer (v_rent_dice)


@dataclass(frozen=True)
class Options:
    """The game options chosen in the setup (``v_options``)."""

    jackpot: bool
    no_auction: bool
    retire: bool
    deal: bool                      # short game: two Title Deeds dealt to each player


@dataclass(frozen=True)
class GameState:
    """The whole state block at one moment.

    ``squares`` holds all 40 board squares (index = board position, 0 = GO); squares nobody
    can own have ``ownable`` False and ``owner`` None. ``players`` holds the
    ``v_num_players`` entered, in turn order (player 1 first).
    """

    phase: str
    players: tuple[Player, ...]
    squares: tuple[Square, ...]
    houses_left: int
    hotels_left: int
    current: int | None             # whose turn, 1..6 (None before any player is entered)
    dice: tuple[int, int]           # the last throw, (0, 0) before any
    doubles: int
    turns: int
    chance: tuple[str, ...]         # the Chance pack top first, as card ids (CH01..CH16)
    chest: tuple[str, ...]          # the Community Chest pack top first (CC01..CC16)
    last_card: str | None           # the card drawn last, or None
    rent: Rent | None               # rent pending, or None
    short_game: bool
    clock: int | None               # a short game's minutes left, None in a normal game
    options: Options
    jackpot: int                    # money on Free Parking
    seed: int
    rig_dice: tuple[int, int]       # the rigged next throw, (0, 0) for none
    frames: int = field(compare=False)  # v_frames: not compared (it runs on every frame)

    def player(self, number: int) -> Player:
        """Player ``number`` (1..6); HarnessError when not entered."""
        if not 1 <= number <= len(self.players):
            raise HarnessError(f"player {number} is not in the game "
                               f"({len(self.players)} player(s) entered)")
        return self.players[number - 1]

    def square(self, which: int | str) -> Square:
        """A square by board index (0..39) or name (full or short, case and punctuation
        ignored, or a unique part of one)."""
        return self.squares[words.square(which)]

    #: The properties below worked out from the fields, which scripts read as fields too.
    DERIVED: ClassVar[tuple[str, ...]] = ("chance_count", "chest_count", "chance_top",
                                          "chest_top", "total_money")

    def owned_by(self, number: int | None) -> tuple[Square, ...]:
        """The squares player ``number`` owns (None: the Bank's ownable squares)."""
        return tuple(sq for sq in self.squares if sq.ownable and sq.owner == number)

    @property
    def total_money(self) -> int:
        """All cash in play: every entered player's cash plus the jackpot on Free Parking."""
        return sum(p.cash for p in self.players) + self.jackpot

    @property
    def chance_count(self) -> int:
        """Cards in the Chance pack (fewer while a player holds its Get Out of Jail Free)."""
        return len(self.chance)

    @property
    def chest_count(self) -> int:
        """Cards in the Community Chest pack."""
        return len(self.chest)

    @property
    def chance_top(self) -> str | None:
        """The Chance card drawn next (None for an empty pack)."""
        return self.chance[0] if self.chance else None

    @property
    def chest_top(self) -> str | None:
        """The Community Chest card drawn next (None for an empty pack)."""
        return self.chest[0] if self.chest else None

    @property
    def current_player(self) -> Player | None:
        """The player whose turn it is."""
        return None if self.current is None else self.player(self.current)

    def diff(self, other: GameState) -> list[str]:
        """What differs from ``other`` (the frame counter aside), one line a field, named as
        in scripts: ``player 1 cash: 1500 -> 1300``, ``square Mayfair owner: none -> 2``."""
        out: list[str] = []
        for f in fields(self):
            if not f.compare:
                continue
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if mine == theirs:
                continue
            if f.name == "players":
                for number in range(1, max(len(mine), len(theirs)) + 1):
                    a = mine[number - 1] if number <= len(mine) else None
                    b = theirs[number - 1] if number <= len(theirs) else None
                    out += _record_diff(f"player {number}", a, b)
            elif f.name == "squares":
                for a, b in zip(mine, theirs, strict=True):
                    out += _record_diff(f"square {a.name}", a, b)
            elif f.name in ("rent", "options"):
                out += _record_diff(f.name, mine, theirs)
            else:
                out.append(f"{f.name}: {_shown(mine)} -> {_shown(theirs)}")
        return out


def _shown(value: object) -> str:
    """A value as a diff line shows it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(map(str, value)) or "none"
    return str(value)


def _record_diff(label: str, a: object, b: object) -> list[str]:
    """Field-by-field differences of two records of one kind (either may be None)."""
    if a is None or b is None:
        return [f"{label}: {'none' if a is None else 'present'} -> "
                f"{'none' if b is None else 'present'}"]
    return [f"{label} {f.name}: {_shown(getattr(a, f.name))} -> {_shown(getattr(b, f.name))}"
            for f in fields(a) if getattr(a, f.name) != getattr(b, f.name)]


# -- decoding ---------------------------------------------------------------------------------


def _check_symbols(symbols: Mapping[str, int]) -> None:
    missing = [name for name in REQUIRED_SYMBOLS if name not in symbols]
    if missing:
        source = getattr(symbols, "source", "the symbol map")
        raise HarnessError(
            f"the game's state block is not in {source}: missing {', '.join(missing[:8])}"
            + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
            + " (load the game with Session.game() or GameRig, or give its monopoly.sym.json)")


def player_field_address(symbols: Mapping[str, int], player: int, name: str) -> int:
    """The address of field ``name`` (``"P_CASH"``, ``"P_PERSONALITY"``...) of player
    ``player``'s record, players numbered 1..MAX_PLAYERS as on the screen (HarnessError
    otherwise)."""
    top = symbols["MAX_PLAYERS"]
    if not 1 <= player <= top:
        raise HarnessError(f"player {player} does not exist: players are 1-{top}")
    return symbols["v_players"] + (player - 1) * symbols["PLAYER_RECORD"] + symbols[name]


def read_variable(memory, symbols: Mapping[str, int], name: str) -> int:
    """The value of one variable of the block (``"v_turns"``): a word if it is one of
    :data:`WORD_FIELDS`, else a byte."""
    at = symbols[name]
    if name in WORD_FIELDS:
        return memory[at & 0xFFFF] | memory[(at + 1) & 0xFFFF] << 8
    return memory[at & 0xFFFF]


def _by_value(symbols: Mapping[str, int], table: Mapping[str, str]) -> dict[int, str]:
    return {symbols[name]: label for name, label in table.items()}


def _name(raw: bytes) -> str:
    text = []
    for byte in raw:
        if byte == 0:
            break
        text.append(_CHARACTERS[byte - 32] if 32 <= byte < 128 else "?")
    return "".join(text)


def game_running(memory, symbols: Mapping[str, int]) -> bool:
    """Whether the game's interrupt is installed (a ``JP isr`` at IM2_JUMP): the program is
    in RAM and has started."""
    jump = symbols["IM2_JUMP"]
    return (memory[jump] == _JP
            and memory[jump + 1] | memory[jump + 2] << 8 == symbols["isr"] & 0xFFFF)


def decode_state(memory, symbols: Mapping[str, int]) -> GameState:
    """Read the state block out of ``memory`` (64K, indexable) by ``symbols``.

    HarnessError when the symbol map lacks the state block, when the game is not running
    (no JP isr at IM2_JUMP) or when a field holds what the game never writes.
    """
    _check_symbols(symbols)
    s = symbols
    if not game_running(memory, s):
        raise HarnessError("the game is not running: no JP isr at IM2_JUMP "
                           f"(0x{s['IM2_JUMP']:04X}); load the tape (Session.game(), script "
                           "header 'game') or use GameRig")

    def byte(name: str, offset: int = 0) -> int:
        return memory[(s[name] + offset) & 0xFFFF]

    def word(name: str) -> int:
        return read_variable(memory, s, name)

    phases = _by_value(s, PHASE_SYMBOLS)
    phase_value = byte("v_phase")
    if phase_value not in phases:
        raise HarnessError(f"v_phase holds {phase_value}, no PHASE_* value "
                           f"({', '.join(f'{v} {n}' for v, n in sorted(phases.items()))})")
    count = byte("v_num_players")
    if count > s["MAX_PLAYERS"]:
        raise HarnessError(f"v_num_players holds {count}, more than MAX_PLAYERS "
                           f"({s['MAX_PLAYERS']})")

    tokens = _by_value(s, TOKEN_SYMBOLS)
    personalities = _by_value(s, PERSONALITY_SYMBOLS)
    packs = {1 << bit: name for bit, name in _by_value(s, PACK_SYMBOLS).items()}
    players = []
    for n in range(count):
        def field(name: str, offset: int = 0, number: int = n + 1) -> int:
            return memory[(player_field_address(s, number, name) + offset) & 0xFFFF]

        flags = field("P_FLAGS")
        computer = bool(flags >> s["PF_COMPUTER"] & 1)
        square = field("P_SQUARE")
        if square >= len(SQUARES):
            raise HarnessError(f"player {n + 1} stands on square {square} (P_SQUARE), off "
                               "the board")
        name_at = player_field_address(s, n + 1, "P_NAME")
        token = field("P_TOKEN")
        personality = field("P_PERSONALITY")
        cards = field("P_JAIL_CARDS")
        players.append(Player(
            number=n + 1,
            name=_name(bytes(memory[name_at:name_at + s["NAME_LENGTH"] + 1])),
            cash=field("P_CASH") | field("P_CASH", 1) << 8,
            square=square,
            square_name=SQUARES[square].name,
            in_jail=bool(flags >> s["PF_IN_JAIL"] & 1),
            jail_turns=field("P_JAIL_TURNS"),
            jail_cards=tuple(name for mask, name in sorted(packs.items()) if cards & mask),
            computer=computer,
            personality=(personalities.get(personality, f"?{personality}") if computer
                         else None),
            token=tokens.get(token, f"?{token}"),
            playing=bool(flags >> s["PF_PLAYING"] & 1),
            bankrupt=bool(flags >> s["PF_BANKRUPT"] & 1),
        ))

    squares = []
    for sq in SQUARES:
        raw = byte("v_squares", sq.index)
        owner = raw & s["SQ_OWNER_MASK"]
        build = (raw & s["SQ_BUILD_MASK"]) >> s["SQ_BUILD_SHIFT"]
        if build > s["SQ_HOTEL"]:
            raise HarnessError(f"square {sq.index} ({sq.name}) holds buildings {build} "
                               f"(byte 0x{raw:02X}): 0-4 houses or {s['SQ_HOTEL']} = a hotel")
        ownable = sq.kind in (Kind.SITE, Kind.STATION, Kind.UTILITY)
        squares.append(Square(
            index=sq.index, name=sq.name, ownable=ownable,
            owner=owner if owner else None,
            houses=build if build < s["SQ_HOTEL"] else 0,
            hotel=build == s["SQ_HOTEL"],
            mortgaged=bool(raw >> s["SQ_MORTGAGED"] & 1),
        ))

    def pack(name: str, cards: tuple) -> tuple[str, ...]:
        size = byte(f"{name}_count")
        if size > len(cards):
            raise HarnessError(f"{name}_count holds {size}, more than {len(cards)} cards")
        ids = []
        for i in range(size):
            number = byte(name, i)
            if number >= len(cards):
                raise HarnessError(f"{name}[{i}] holds card {number}, not 0..{len(cards) - 1}")
            ids.append(cards[number].id)
        return tuple(ids)

    last = byte("v_last_card")
    last_card = None
    if last != 0xFF:
        pack_name = _by_value(s, PACK_SYMBOLS).get(last >> 4)
        number = last & 0x0F
        if pack_name is None:
            raise HarnessError(f"v_last_card holds 0x{last:02X}: pack {last >> 4} is neither "
                               "JC_CHANCE nor JC_CHEST")
        last_card = PACKS[pack_name][number].id

    no_player = s["NO_PLAYER"]
    rent = None
    payer = byte("v_rent_payer")
    if payer != no_player:
        owner = byte("v_rent_owner")
        rent_square = byte("v_rent_square")
        rent = Rent(payer=payer + 1, owner=None if owner == no_player else owner + 1,
                    square=rent_square,
                    square_name=SQUARES[rent_square].name if rent_square < 40 else "?",
                    dice=byte("v_rent_dice"))

    options = byte("v_options")
    flags_by_name = {label: bool(options >> s[sym] & 1) for sym, label in OPTION_SYMBOLS.items()}
    short_game = bool(byte("v_short_game"))
    return GameState(
        phase=phases[phase_value],
        players=tuple(players),
        squares=tuple(squares),
        houses_left=byte("v_houses_left"),
        hotels_left=byte("v_hotels_left"),
        current=byte("v_current") + 1 if count else None,
        dice=(byte("v_dice"), byte("v_dice", 1)),
        doubles=byte("v_doubles"),
        turns=word("v_turns"),
        chance=pack("v_chance", CHANCE),
        chest=pack("v_chest", COMMUNITY_CHEST),
        last_card=last_card,
        rent=rent,
        short_game=short_game,
        clock=word("v_clock_minutes") if short_game else None,
        options=Options(**flags_by_name),
        jackpot=word("v_jackpot"),
        seed=word("v_seed"),
        rig_dice=(byte("v_rig_dice"), byte("v_rig_dice", 1)),
        frames=word("v_frames"),
    )


# -- test hooks -------------------------------------------------------------------------------


def rig_dice(memory, symbols: Mapping[str, int], a: int, b: int) -> None:
    """Choose the next throw (the game's v_rig_dice hook, used once and then cleared);
    ``0, 0`` cancels a rigged throw."""
    if (a, b) != (0, 0) and not (1 <= a <= 6 and 1 <= b <= 6):
        raise HarnessError(f"dice must be 1-6 (or 0, 0 to throw at random), got {a} {b}")
    if "v_rig_dice" not in symbols:
        raise HarnessError("the symbol map has no v_rig_dice: is the game loaded?")
    at = symbols["v_rig_dice"]
    memory[at] = a
    memory[at + 1] = b


def seed(memory, symbols: Mapping[str, int], value: int) -> None:
    """Write the random state (the game's v_seed hook). The title screen seeds it when its
    key is pressed, so write it after that and before the setup shuffles the packs."""
    if not 0 <= value <= 0xFFFF:
        raise HarnessError(f"the seed is a 16-bit number, not {value}")
    if "v_seed" not in symbols:
        raise HarnessError("the symbol map has no v_seed: is the game loaded?")
    at = symbols["v_seed"]
    memory[at] = value & 0xFF
    memory[at + 1] = value >> 8


__all__ = ["PERSONALITIES", "PHASES", "REQUIRED_SYMBOLS", "TOKENS", "WORD_FIELDS", "GameState",
           "Options", "Player", "Rent", "Square", "decode_state", "game_running",
           "player_field_address", "rig_dice", "seed", "read_variable"]
