"""Keystroke scripts (``.zxs``): parse the whole file first, then run it step by step.

The format is described in ``docs/harness.md``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from zxmonopoly import images
from zxmonopoly.files import read_regular
from zxmonopoly.harness.session import (
    DEFAULT_BUDGET,
    KEYWORD_KEYS,
    HarnessError,
    Session,
    Symbols,
    format_screen,
)
from zxmonopoly.spectrum.keyboard import KEYS

#: The most frames one step may run (``wait``, ``hold``, ``tap``, ``within``): about 5.5 hours
#: of Spectrum time, far more than any game takes.
MAX_FRAMES = 1_000_000
#: Numbers are written in at most this many characters (a 32-bit value in decimal is 10).
MAX_NUMBER_CHARS = 12
#: A script or an included file is at most this large.
MAX_SCRIPT_BYTES = 16 * 1024 * 1024

#: Kinds of value ``expect state`` reads (see docs/harness.md): int (numbers, every comparison),
#: int? (a number or none), bool (yes/no), str / str? (a word or "quoted", case ignored),
#: dice (3,4), cards (CH01,CH02,..), packs (chance,chest or a count), rent (none only).
#: A field's kind follows from its type in :mod:`zxmonopoly.harness.game`; these say how.
_KIND_OF_TYPE = {"int": "int", "int | None": "int?", "bool": "bool", "str": "str",
                 "str | None": "str?", "tuple[int, int]": "dice", "tuple[str, ...]": "cards",
                 "Rent | None": "rent", "tuple[Player, ...]": "int"}
#: Fields whose type alone does not say how scripts read them.
_KIND_OVERRIDES = {"jail_cards": "packs"}  # the packs the cards came from, not card ids
#: Values worked out from the state (see :func:`state_value`), after the dataclass's fields.
_DERIVED_FIELDS = {"chance_count": "int", "chest_count": "int", "chance_top": "str?",
                   "chest_top": "str?", "total_money": "int"}


def _schema(record: type, skip: tuple[str, ...] = (), optional: bool = False) -> dict[str, str]:
    """The readable fields of a game dataclass and their kinds (``optional``: all may be none,
    as a record that may be absent)."""
    from dataclasses import fields

    table = {}
    for f in fields(record):
        if f.name in skip:
            continue
        kind = _KIND_OVERRIDES.get(f.name) or _KIND_OF_TYPE[str(f.type)]
        table[f.name] = kind + "?" if optional and not kind.endswith("?") else kind
    return table


def _game_schema() -> tuple[dict[str, str], ...]:
    """(player, square, rent, option, game) fields of ``expect state``, from GameState."""
    from zxmonopoly.harness import game

    player = _schema(game.Player, skip=("number",))
    square = _schema(game.Square, skip=("index", "name", "ownable"))
    rent = _schema(game.Rent, skip=("square_name", "dice"), optional=True)  # no rent: none
    option = _schema(game.Options)
    state = {**_schema(game.GameState, skip=("squares", "options")), **_DERIVED_FIELDS}
    return player, square, rent, option, state


PLAYER_FIELDS, SQUARE_FIELDS, RENT_FIELDS, OPTION_FIELDS, GAME_FIELDS = _game_schema()
#: Other spellings accepted (words joined by _).
FIELD_ALIASES = {"current_player": "current", "last_dice": "dice", "bank_houses": "houses_left",
                 "bank_hotels": "hotels_left", "get_out_of_jail_free_cards": "jail_cards"}
_STR_VALUES = {("player", "personality"): ("Mean", "Reckless", "Greedy", "Steady", "Cautious",
                                            "Entrepreneurial"),
               ("player", "token"): ("Boot", "Car", "Dog", "Hat", "Iron", "Ship"),
               ("phase",): ("title", "setup", "first", "playing", "over")}


class ScriptError(ValueError):
    """A malformed script: every problem with its file and line, found before running."""


@dataclass(frozen=True)
class Step:
    """One command of a script, with where it was written."""

    file: str
    line: int
    source: str
    op: str
    args: tuple = ()

    @property
    def where(self) -> str:
        """``file:line`` of the step."""
        return f"{self.file}:{self.line}"


@dataclass
class Script:
    """A parsed script: its header settings and its steps (includes expanded)."""

    path: str
    header_lines: dict[str, int] = field(default_factory=dict)  # header -> its line
    rom: str | None = None
    tape: str | None = None
    real_load: bool = False
    snapshot: str | None = None
    symbols: str | None = None
    game: bool = False
    steps: list[Step] = field(default_factory=list)


@dataclass
class Result:
    """The outcome of a run: passed, or the failing step, the message and the screen."""

    path: str
    passed: bool
    step: Step | None = None
    message: str = ""
    screen: list[str] | None = None
    frames: int = 0
    line: int | None = None  # the header line a failed set-up names (no step then)

    def report(self) -> str:
        """A human-readable pass/fail report (with the screen on failure)."""
        if self.passed:
            return f"PASS {self.path} ({self.frames} frames)"
        where = self.step.where if self.step else \
            f"{self.path}:{self.line}" if self.line else self.path
        text = f"FAIL {where}: {self.message}"
        if self.step is not None:
            text += f"\n  line: {self.step.source.strip()}"
        if self.screen is not None and "screen:" not in self.message:
            text += "\nscreen:\n" + format_screen(self.screen)
        return text


# -- parsing ----------------------------------------------------------------------------------

_NUMBER = re.compile(r"^(?:0x[0-9a-f]+|\$[0-9a-f]+|[0-9]+)$", re.IGNORECASE)
_SYMBOL = re.compile(r"^[A-Za-z_.][A-Za-z0-9_.]*$")
_QUOTED = re.compile(r'^"((?:[^"\\]|\\.)*)"(.*)$')


class _Problem(Exception):
    """A parse problem of one line (turned into a ScriptError entry)."""


def parse_number(word: str, what: str = "a number") -> int:
    """A decimal, 0x.. or $.. number (ASCII digits, 12 characters at most); _Problem otherwise."""
    if len(word) > MAX_NUMBER_CHARS:
        raise _Problem(f"expected {what}, got a number of {len(word):,} characters "
                       f"({word[:12]!r}...): at most {MAX_NUMBER_CHARS}")
    if not _NUMBER.match(word):
        raise _Problem(f"expected {what} (decimal, 0x.. or $..), got {word!r}")
    if word[:2].lower() == "0x":
        return int(word[2:], 16)
    if word.startswith("$"):
        return int(word[1:], 16)
    return int(word)


def _address(word: str) -> int | str:
    """An address as a number, or a symbol name resolved when running."""
    if _NUMBER.match(word):
        value = parse_number(word)
        if value > 0xFFFF:
            raise _Problem(f"address {word} is beyond 0xFFFF")
        return value
    if _SYMBOL.match(word):
        return word
    raise _Problem(f"expected an address or symbol name, got {word!r}")


def _keys(text: str) -> str:
    """A key combination KEY[+KEY] checked against the matrix names."""
    parts = [" ".join(p.upper().split()) for p in text.split("+")]
    for part in parts:
        if part not in KEYS:
            raise _Problem(f"unknown key {part!r} in {text!r}; keys are A-Z, 0-9, ENTER, SPACE, "
                           "CAPS SHIFT, SYMBOL SHIFT")
    return "+".join(parts)


def _quoted(rest: str, what: str) -> tuple[str, str]:
    """A "quoted" string at the start of ``rest`` and what follows it."""
    m = _QUOTED.match(rest.strip())
    if not m:
        raise _Problem(f'expected {what} in double quotes, e.g. "OK", got {rest.strip()!r}')
    return re.sub(r"\\(.)", r"\1", m.group(1)), m.group(2).strip()


def _frames(word: str) -> int:
    """A frame count (a whole number up to :data:`MAX_FRAMES`)."""
    frames = parse_number(word, "a number of frames")
    if frames > MAX_FRAMES:
        raise _Problem(f"{frames:,} frames is more than a step may run ({MAX_FRAMES:,}, about "
                       "5.5 hours)")
    return frames


def _within(rest: str, after: str = "the text") -> int:
    """An optional ``within N`` clause (the frame budget)."""
    words = rest.split()
    if not words:
        return DEFAULT_BUDGET
    if len(words) == 2 and words[0].lower() == "within":
        return _frames(words[1])
    raise _Problem(f"expected nothing or 'within FRAMES' after {after}, got {rest!r}")


_STATE_TOKEN = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|(!=|<=|>=|=|<|>)|([^\s"=<>!]+))')


def _tokens(text: str) -> list[tuple[str, str]]:
    """Split an expectation into ("q", quoted text), ("op", comparison) and ("w", word)."""
    tokens, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _STATE_TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise _Problem(f"cannot read {text[pos:].strip()!r} (a lone '!' or an unclosed "
                           "quote?)")
        if m.group(1) is not None:
            tokens.append(("q", re.sub(r"\\(.)", r"\1", m.group(1))))
        elif m.group(2) is not None:
            tokens.append(("op", m.group(2)))
        else:
            tokens.append(("w", m.group(3)))
        pos = m.end()
    return tokens


def _field(words: list[str], table: dict[str, str], what: str) -> str:
    """A field name (words joined by _, aliases resolved) checked against ``table``."""
    name = "_".join(w.lower() for w in words)
    name = FIELD_ALIASES.get(name, name)
    if name not in table:
        raise _Problem(f"unknown {what} field {' '.join(words).lower()!r}; known: "
                       f"{', '.join(table)}")
    return name


def _state_path(tokens: list[tuple[str, str]]) -> tuple[tuple, str]:
    """The path of ``expect state`` (``player 1 cash`` -> ("player", 1, "cash")) and its kind."""
    from zxmonopoly.harness.game import square_index
    from zxmonopoly.rules.data import SQUARES
    from zxmonopoly.rules.records import Kind

    words = [text for _, text in tokens]
    if not words:
        raise _Problem("expected a game-state name before the comparison, e.g. "
                       "'player 1 cash', 'square Mayfair owner', 'houses_left'")
    head = words[0].lower()
    if head == "player":
        if len(words) < 3:
            raise _Problem("expected 'player N FIELD', e.g. 'player 1 cash'")
        if words[1] not in ("1", "2", "3", "4", "5", "6"):
            raise _Problem(f"the player number is 1-6, got {words[1]!r}")
        field = _field(words[2:], PLAYER_FIELDS, "player")
        return ("player", int(words[1]), field), PLAYER_FIELDS[field]
    if head == "square":
        if len(words) < 3:
            raise _Problem("expected 'square NAME FIELD' or 'square INDEX FIELD', e.g. "
                           "'square \"Mayfair\" owner' or 'square 39 houses'")
        field = _field(words[-1:], SQUARE_FIELDS, "square")
        ref = " ".join(words[1:-1])
        try:
            index = square_index(int(ref) if _NUMBER.match(ref) and len(ref) <= 3 else ref)
        except HarnessError as exc:
            raise _Problem(str(exc)) from None
        if SQUARES[index].kind not in (Kind.SITE, Kind.STATION, Kind.UTILITY):
            raise _Problem(f"square {index} ({SQUARES[index].name}) cannot be owned: it has no "
                           f"{field}")
        return ("square", index, field), SQUARE_FIELDS[field]
    if head == "rent" and len(words) > 1:
        field = _field(words[1:], RENT_FIELDS, "rent")
        return ("rent", field), RENT_FIELDS[field]
    if head in ("option", "options"):
        field = _field(words[1:], OPTION_FIELDS, "option")
        return ("option", field), OPTION_FIELDS[field]
    field = "_".join(w.lower() for w in words)
    field = FIELD_ALIASES.get(field, field)
    if field not in GAME_FIELDS:
        raise _Problem(f"unknown game state {' '.join(words).lower()!r}; expected 'player N "
                       "FIELD', 'square NAME FIELD', 'rent FIELD', 'option NAME' or one of "
                       f"{', '.join(GAME_FIELDS)}")
    return (field,), GAME_FIELDS[field]


def _state_value(path: tuple, kind: str, token: tuple[str, str]):
    """The value to compare with, read by the field's kind."""
    quoted, text = token[0] == "q", token[1]
    low = text.lower()
    if low == "none" and not quoted and (kind.endswith("?") or kind in ("rent", "packs")):
        return () if kind == "packs" else None
    if kind == "rent":
        raise _Problem(f"'rent' compares only with none (no rent due), got {text!r}; use "
                       "'rent payer', 'rent owner' or 'rent square' for more")
    if kind.startswith("int"):
        return parse_number(text.lstrip("£"), "a number" + (" or none" if kind == "int?" else ""))
    if kind == "bool":
        if low in ("yes", "true", "on"):
            return True
        if low in ("no", "false", "off"):
            return False
        raise _Problem(f"expected yes or no, got {text!r}")
    if kind == "dice":
        faces = [f for f in re.split(r"[,\s+]+", text.strip()) if f]
        if len(faces) != 2 or not all(f in ("0", "1", "2", "3", "4", "5", "6") for f in faces):
            raise _Problem(f"expected two dice like 3,4 (0,0 before any throw), got {text!r}")
        return (int(faces[0]), int(faces[1]))
    if kind == "packs":
        if _NUMBER.match(text):
            return parse_number(text)
        packs = tuple(sorted({p.lower() for p in re.split(r"[,\s]+", text.strip()) if p}))
        if not packs or not set(packs) <= {"chance", "chest"}:
            raise _Problem("expected a count or the packs (chance, chest, chance,chest or "
                           f"none), got {text!r}")
        return packs
    if kind == "cards" or path[-1] in ("last_card", "chance_top", "chest_top"):
        from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST

        ids = tuple(c.upper() for c in re.split(r"[,\s]+", text.strip()) if c)
        known = {card.id for card in CHANCE + COMMUNITY_CHEST}
        bad = [c for c in ids if c not in known]
        if bad or not ids:
            raise _Problem(f"unknown card {(bad or [text])[0]!r}; cards are CH01-CH16 and "
                           "CC01-CC16")
        if kind != "cards" and len(ids) != 1:
            raise _Problem(f"expected one card id, got {text!r}")
        return ids if kind == "cards" else ids[0]
    allowed = _STR_VALUES.get((path[0], path[2]) if path[0] == "player" else path)
    if allowed and low not in (a.lower() for a in allowed):
        raise _Problem(f"expected one of {', '.join(allowed)}, got {text!r}")
    return text


def _parse_state(tokens: list[tuple[str, str]]) -> tuple[str, tuple]:
    """``expect state PATH OP VALUE`` -> ("expect_state", (path, op, value, kind))."""
    ops = [i for i, (kind, _) in enumerate(tokens) if kind == "op"]
    if len(ops) != 1:
        raise _Problem("expected one comparison (=, !=, <, <=, >, >=) in 'expect state NAME OP "
                       "VALUE'")
    at = ops[0]
    path, kind = _state_path(tokens[:at])
    op = tokens[at][1]
    value_tokens = tokens[at + 1:]
    if len(value_tokens) != 1:
        shown = " ".join(text for _, text in value_tokens)
        raise _Problem(f"expected one value after '{op}', got {shown!r} (quote text with "
                       'spaces: "Park Lane")')
    if op not in ("=", "!=") and kind not in ("int", "int?") and not (
            kind == "packs" and _NUMBER.match(value_tokens[0][1])):
        raise _Problem(f"'{op}' compares numbers; {state_label(path)} takes only = or !=")
    value = _state_value(path, kind, value_tokens[0])
    if value is None and op not in ("=", "!="):
        raise _Problem(f"'{op} none' compares nothing; use = none or != none")
    return "expect_state", (path, op, value, kind)


def state_label(path: tuple) -> str:
    """A state path written as in scripts: ('player', 1, 'cash') -> 'player 1 cash'."""
    return " ".join(str(part) for part in path)


def _parse_expect(rest: str) -> tuple[str, tuple]:
    """The forms of ``expect``."""
    if rest.startswith('"'):
        text, after = _quoted(rest, "the text to expect")
        if not after:
            return "expect_text", (text, None)
        words = after.split()
        if len(words) == 3 and words[:2] == ["at", "row"]:
            row = parse_number(words[2], "a row number")
            if row > 23:
                raise _Problem(f"row {row} is off the screen (rows are 0-23)")
            return "expect_text", (text, row)
        raise _Problem(f"expected nothing or 'at row R' after the text, got {after!r}")
    tokens = _tokens(rest)
    if not any(kind == "op" for kind, _ in tokens):
        raise _Problem('expected \'expect "TEXT" [at row R]\', \'expect peek ADDRESS = VALUE\' '
                       "or 'expect state NAME OP VALUE'")
    if tokens[0][0] == "w" and tokens[0][1].lower() in ("peek", "peek16"):
        name = tokens[0][1].lower()
        if len(tokens) < 4 or tokens[1][0] != "w" or tokens[2] != ("op", "="):
            raise _Problem(f"expected '{name} ADDRESS = VALUE'")
        if len(tokens) != 4:
            raise _Problem("expected one value after '=', got "
                           f"{' '.join(text for _, text in tokens[3:])!r}")
        width = 1 if name == "peek" else 2
        value = parse_number(tokens[3][1], "a value")
        if value >= 1 << (8 * width):
            raise _Problem(f"value {value} does not fit in {name}")
        return "expect_peek", (width, _address(tokens[1][1]), value)
    if tokens[0][0] == "w" and tokens[0][1].lower() == "state":
        tokens = tokens[1:]
    return _parse_state(tokens)


# -- the commands: one entry each (name, syntax, doc line, parser, runner) ----------------------
#
# As an assembler's directive table: the parser looks a line's first word up here and the
# runner looks a step's op up in the ops the commands make, so a command is added in one place.

#: A parser: (command name lower case, the rest of the line stripped, the whole line) ->
#: (op, args); _Problem when malformed.
Parser = Callable[[str, str, str], tuple[str, tuple]]
#: A runner: runs one step of the command; HarnessError when an expectation fails.
Runner = Callable[[Session, Step], None]


@dataclass(frozen=True)
class Command:
    """One script command: its syntax as docs/harness.md writes it, a one-line doc, its parser,
    its runner (None for a header or ``include``, used while parsing) and the ops it makes."""

    name: str
    syntax: tuple[str, ...]
    doc: str
    parse: Parser
    run: Runner | None = None
    ops: tuple[str, ...] = ()
    header: bool = False
    shown: str = ""  # the name the list of commands gives (default: name)


def _parse_game(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``game``."""
    if rest.split():
        raise _Problem("expected 'game' alone (it loads the bundled game tape)")
    return "game", ()


def _parse_file(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``COMMAND FILE`` (rom, snapshot, symbols, screenshot, snapshot_save, include)."""
    words = rest.split()
    if len(words) != 1:
        raise _Problem(f"expected '{command} FILE'")
    return command, (words[0],)


def _parse_tape(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``tape FILE [fast|real]``."""
    words = rest.split()
    if len(words) == 1 or (len(words) == 2 and words[1].lower() in ("fast", "real")):
        return "tape", (words[0], len(words) == 2 and words[1].lower() == "real")
    raise _Problem("expected 'tape FILE [fast|real]'")


def _parse_type(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``type TEXT`` (the rest of the line as written)."""
    if not rest:
        raise _Problem("expected 'type TEXT'")
    text_to_type = text.strip()[5:]
    from zxmonopoly.spectrum.keyboard import KeyboardError, keys_for_text

    try:
        keys_for_text(text_to_type)
    except KeyboardError as exc:
        raise _Problem(str(exc)) from None
    return "type", (text_to_type,)


def _parse_keyword(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``keyword NAME``."""
    name = " ".join(rest.upper().split())
    if name not in KEYWORD_KEYS:
        raise _Problem(f"unknown keyword {rest!r}; K-mode keywords: {', '.join(KEYWORD_KEYS)}")
    return "keyword", (name,)


def _parse_press(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``press KEY[+KEY]``, ``release KEY[+KEY]`` or ``release all``."""
    if command == "release" and rest.lower() == "all":
        return "release", (None,)
    if not rest:
        raise _Problem(f"expected '{command} KEY[+KEY]'")
    return command, (_keys(rest),)


def _parse_hold(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``hold KEY[+KEY] FRAMES`` or ``tap KEY[+KEY] [FRAMES]``."""
    head, _, last = rest.rpartition(" ")
    if command == "tap" and (not head or not _NUMBER.match(last)):
        if not rest:
            raise _Problem("expected 'tap KEY[+KEY] [FRAMES]'")
        return "tap", (_keys(rest), None)
    if not head:
        raise _Problem("expected 'hold KEY[+KEY] FRAMES'")
    return command, (_keys(head), _frames(last))


def _parse_wait(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """The forms of ``wait``."""
    words = rest.split()
    if words and words[0].lower() == "input":
        return "wait_input", (_within(" ".join(words[1:]), "'wait input'"),)
    if len(words) == 1:
        return "wait", (_frames(words[0]),)
    if words and words[0].lower() == "for":
        after_for = rest[3:].strip()
        if after_for.lower().split()[:1] == ["pc"]:
            pc_words = after_for.split()
            if len(pc_words) < 2:
                raise _Problem("expected 'wait for pc ADDRESS [within FRAMES]'")
            return "wait_pc", (_address(pc_words[1]), _within(" ".join(pc_words[2:])))
        text_wanted, after = _quoted(after_for, "the text to wait for")
        return "wait_text", (text_wanted, _within(after))
    raise _Problem('expected \'wait FRAMES\', \'wait for "TEXT" [within FRAMES]\', '
                   "'wait for pc ADDRESS [within FRAMES]' or 'wait input [within FRAMES]'")


def _parse_roll(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``roll D1 D2``."""
    words = rest.split()
    if len(words) != 2:
        raise _Problem("expected 'roll D1 D2' (two dice, 1-6)")
    dice = tuple(parse_number(w, "a die (1-6)") for w in words)
    if not all(1 <= d <= 6 for d in dice):
        raise _Problem(f"dice must be 1-6, got {rest!r}")
    return "roll", dice


def _parse_seed(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``seed N``."""
    words = rest.split()
    if len(words) != 1:
        raise _Problem("expected 'seed N' (0-65535)")
    value = parse_number(words[0], "a seed (0-65535)")
    if value > 0xFFFF:
        raise _Problem(f"the seed is 16 bits (0-65535), got {value}")
    return "seed", (value,)


def _parse_position(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """A position line (``own``, ``cash``, ``at``, ``jail``, ``free``, ``next``, ``turn``)."""
    from zxmonopoly.harness import position

    try:
        return "position", tuple(position.parse_line(command, rest))
    except position.PositionSyntaxError as exc:
        raise _Problem(str(exc)) from None


def _parse_check(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``check invariants``."""
    if rest.lower().split() != ["invariants"]:
        raise _Problem("expected 'check invariants'")
    return "check_invariants", ()


def _parse_watch(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``watch ...``, ``unwatch ...`` or ``monkey FRAMES seed S``."""
    from zxmonopoly.harness import watch

    try:
        return watch.parse_line(command, rest)
    except watch.WatchSyntaxError as exc:
        raise _Problem(str(exc)) from None


def _parse_line(text: str) -> tuple[str, tuple]:
    """One command line -> (op, args) by its command's parser; _Problem when malformed."""
    command, _, rest = text.strip().partition(" ")
    command = command.lower()
    entry = COMMANDS.get(command)
    if entry is None:
        listed = [c.shown or c.name for c in COMMANDS.values() if not c.header]
        raise _Problem(f"unknown command {command!r}; expected one of: " + ", ".join(listed))
    return entry.parse(command, rest.strip(), text)


def _header_clash(script: Script, op: str) -> str | None:
    """Why header ``op`` cannot go with the headers already read (None when it can)."""
    if op == "game" and (script.rom or script.tape):
        return "'game' loads the bundled game on our ROM: it cannot go with 'rom' or 'tape'"
    if op in ("rom", "tape") and script.game:
        return f"'{op}' cannot go with 'game' (which loads the bundled game on our ROM)"
    return None


def parse_script(path: str | os.PathLike[str]) -> Script:
    """Parse a script and its includes; ScriptError lists every malformed line."""
    script = Script(str(path))
    problems: list[str] = []
    _parse_into(Path(path), script, problems, [], top=True)
    if problems:
        raise ScriptError(f"{len(problems)} error(s) in {path}:\n" + "\n".join(problems))
    script.steps = _group_positions(script.steps)
    return script


def _parse_into(path: Path, script: Script, problems: list[str], stack: list[Path],
                top: bool, included_at: str = "") -> None:
    """Parse ``path`` into ``script``, following includes (``stack`` catches loops);
    ``included_at`` is the ``file:line: `` of the include line, named when it cannot be read."""
    shown = included_at + repr(str(path))[1:-1]  # a NUL or a control character as an escape
    try:
        resolved = path.resolve()
        if resolved in stack:
            chain = " -> ".join(str(p) for p in [*stack, resolved])
            problems.append(f"{shown}: include loop: {chain}")
            return
        raw = read_regular(path, MAX_SCRIPT_BYTES, "script")
    except (OSError, ValueError, RuntimeError) as exc:
        # ValueError: a NUL in the name; RuntimeError: a symlink loop (before Python 3.13).
        problems.append(f"{shown}: cannot read: {getattr(exc, 'strerror', None) or exc}")
        return
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        problems.append(f"{shown}:{line}: not UTF-8: byte {raw[exc.start]:#04x} (scripts are "
                        "UTF-8 text)")
        return
    for number, source in enumerate(lines, 1):
        stripped = source.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{path}:{number}"
        try:
            first = stripped.split()[0].lower()
            if first == "snapshot" and (script.steps or not top):
                op, args = "snapshot_save", _parse_line("snapshot_save " + stripped[8:])[1]
            else:
                op, args = _parse_line(stripped)
            if op in HEADERS:
                if not top:
                    raise _Problem(f"'{op}' belongs in the header of the main script, "
                                   "not in an included file")
                if script.steps:
                    raise _Problem(f"'{op}' must come before the first command (it sets up "
                                   "the machine); to save a snapshot later write it after a "
                                   "command")
                clash = _header_clash(script, op)
                if clash:
                    raise _Problem(clash)
                script.header_lines[op] = number
                if op == "game":
                    script.game = True
                    continue
                file = str(path.parent / args[0])
                if op == "tape":
                    script.tape, script.real_load = file, args[1]
                else:
                    setattr(script, op, file)
                continue
            if op == "include":
                _parse_into(path.parent / args[0], script, problems, [*stack, resolved],
                            top=False, included_at=f"{where}: include ")
                continue
            if op in ("screenshot", "snapshot_save"):
                args = (str(path.parent / args[0]),)
            script.steps.append(Step(str(path), number, source, op, args))
        except _Problem as exc:
            problems.append(f"{where}: {exc}\n    {stripped}")


# -- running ----------------------------------------------------------------------------------


def start_session(script: Script, engine: str | None = None) -> Session:
    """The session a script's header asks for (game, boot, snapshot and/or tape).

    ``game`` starts at the bundled game's title screen (or from ``snapshot`` with the game's
    symbol map). A tape with a symbol map beside it (``NAME.sym.json`` for ``NAME.tap``) brings
    that map when no ``symbols`` line is given.
    """
    symbols = script.symbols
    if script.game:
        if not script.snapshot:
            session = Session.game(engine)
            if symbols:
                session.symbols = Symbols.load(symbols)
            return session
        symbols = symbols or str(images.game_symbols_path())
    elif script.tape and not symbols:
        beside = images.symbols_beside(script.tape)
        symbols = str(beside) if beside.is_file() else None
    if script.snapshot:
        session = Session.from_snapshot(script.snapshot, rom=script.rom, engine=engine,
                                        symbols=symbols)
    else:
        session = Session(script.rom, engine=engine, symbols=symbols)
    if script.tape:
        session.load_tape(script.tape, fast=not script.real_load)
    return session


def _check_symbols(script: Script, session: Session) -> list[str]:
    """Problems with symbol names the session's symbol map lacks."""
    problems = []
    for step in script.steps:
        names = [a for a in step.args if isinstance(a, str)] if step.op in (
            "wait_pc", "expect_peek") else []
        for name in names:
            if name not in session.symbols:
                problems.append(f"{step.where}: unknown symbol {name!r} in "
                                f"{session.symbols.source}\n    {step.source.strip()}")
    return problems


def state_value(state, path: tuple):
    """The value at a script's state path in a decoded GameState (HarnessError for a player
    not in the game)."""
    head = path[0]
    if head == "player":
        return getattr(state.player(path[1]), path[2])
    if head == "square":
        return getattr(state.squares[path[1]], path[2])
    if head == "rent":
        return None if state.rent is None else getattr(state.rent, path[1])
    if head == "option":
        return getattr(state.options, path[1])
    if head == "players":
        return len(state.players)
    if head in ("chance_count", "chest_count"):
        return len(getattr(state, head[:-6]))
    if head in ("chance_top", "chest_top"):
        pack = getattr(state, head[:-4])
        return pack[0] if pack else None
    if head == "total_money":
        return state.total_money()
    return getattr(state, head)


def _shown(value) -> str:
    """A state value as scripts write it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) if value else "none"
    if isinstance(value, str) and (not value or " " in value):
        return quote(value)
    return str(value)


_COMPARE = {"=": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _expect_state(session: Session, path: tuple, op: str, value, kind: str) -> None:
    """Check one ``expect state`` against the decoded state; HarnessError with the screen."""
    label = state_label(path)
    try:
        got = state_value(session.state(), path)
    except HarnessError as exc:
        raise session.fail(f"cannot read {label}: {exc}") from None
    compared, wanted = got, value
    if kind == "packs":
        compared = len(got) if isinstance(value, int) else tuple(sorted(got))
    elif kind in ("str", "str?"):
        compared = got.casefold() if isinstance(got, str) else got
        wanted = value.casefold() if isinstance(value, str) else value
    if compared is None and op not in ("=", "!="):
        ok = False
    else:
        ok = _COMPARE[op](compared, wanted)
    if not ok:
        count = f" ({len(got)} card(s))" if kind == "packs" and isinstance(value, int) else ""
        raise session.fail(f"expected {label} {op} {_shown(value)}, got {_shown(got)}{count}")


def _run_type(session: Session, step: Step) -> None:
    """``type``."""
    session.type(step.args[0])


def _run_keyword(session: Session, step: Step) -> None:
    """``keyword``."""
    session.keyword(step.args[0])


def _run_press(session: Session, step: Step) -> None:
    """``press``."""
    session.press(step.args[0])


def _run_release(session: Session, step: Step) -> None:
    """``release``."""
    session.release(step.args[0])


def _run_hold(session: Session, step: Step) -> None:
    """``hold``."""
    session.hold(step.args[0], step.args[1])


def _run_tap(session: Session, step: Step) -> None:
    """``tap`` (the session's default press time when no frames are given)."""
    keys, frames = step.args
    session.tap(keys) if frames is None else session.tap(keys, frames)


def _run_wait(session: Session, step: Step) -> None:
    """The forms of ``wait``."""
    op, args = step.op, step.args
    if op == "wait":
        session.wait(args[0])
    elif op == "wait_text":
        session.wait_text(args[0], args[1])
    elif op == "wait_pc":
        session.wait_pc(args[0], args[1])
    else:
        session.wait_input(args[0])


def _run_expect(session: Session, step: Step) -> None:
    """The forms of ``expect``."""
    op, args = step.op, step.args
    if op == "expect_text":
        text, row = args
        if row is None:
            if session.find(text) is None and not session.in_message(text):
                raise session.fail(f"expected {text!r} on the screen")
        elif text not in session.row(row):
            raise session.fail(f"expected {text!r} at row {row}, row {row} is "
                               f"{session.row(row).rstrip()!r}")
    elif op == "expect_peek":
        width, where, value = args
        got = session.peek(where) if width == 1 else session.peek16(where)
        if got != value:
            name = "peek" if width == 1 else "peek16"
            raise session.fail(f"expected {name} {where} = {value}, got {got} (0x{got:X})")
    else:
        _expect_state(session, *args)


def _run_roll(session: Session, step: Step) -> None:
    """``roll``."""
    args = step.args
    try:
        session.rig_dice(args[0], args[1])
    except HarnessError as exc:
        raise session.fail(f"roll {args[0]} {args[1]}: {exc}") from None


def _run_seed(session: Session, step: Step) -> None:
    """``seed``."""
    try:
        session.seed(step.args[0])
    except HarnessError as exc:
        raise session.fail(f"seed {step.args[0]}: {exc}") from None


def _run_screenshot(session: Session, step: Step) -> None:
    """``screenshot``."""
    try:
        session.screenshot(step.args[0])
    except OSError as exc:  # as a snapshot step says it (docs/harness.md, "Bad input")
        raise HarnessError(f"{step.args[0]}: cannot write: {exc.strerror or exc}") from None


def _run_snapshot(session: Session, step: Step) -> None:
    """A ``snapshot`` after the first command."""
    session.save_snapshot(step.args[0])


def _run_position(session: Session, step: Step) -> None:
    """Position lines (grouped into one step by :func:`_group_positions`)."""
    from zxmonopoly.harness.position import PositionError

    try:
        position = session.position()
        for where, edit in step.args:
            try:
                edit.apply_to(position)
            except PositionError as exc:
                raise PositionError(f"{where}: {exc}") from None
        position.apply()
    except HarnessError as exc:
        raise session.fail(str(exc).split("\n")[0]) from None


def _run_check(session: Session, step: Step) -> None:
    """``check invariants``."""
    from zxmonopoly.harness.invariants import check_invariants

    problems = check_invariants(session)
    if problems:
        raise session.fail("invariants broken: " + "; ".join(problems))


def _run_watch(session: Session, step: Step) -> None:
    """``watch``, ``unwatch`` and ``monkey``."""
    from zxmonopoly.harness import watch

    watch.run_step(session, step.op, step.args)


def run_step(session: Session, step: Step) -> None:
    """Run one step by its command's runner; HarnessError when an expectation fails."""
    runner = _RUNNERS.get(step.op)
    if runner is None:  # pragma: no cover - the parser makes only the registered ops
        raise HarnessError(f"unknown step {step.op!r}")
    runner(session, step)


def _user_errors() -> tuple[type[Exception], ...]:
    """The errors a script's files and steps can cause: each is a failed result, no traceback."""
    from zxmonopoly.snapshot import SnapshotError
    from zxmonopoly.spectrum.machine import SpectrumError

    return (HarnessError, ValueError, KeyError, OSError, SnapshotError, SpectrumError)


SETUP_ERRORS = STEP_ERRORS = _user_errors()


def _message(exc: Exception) -> str:
    """An error's text (a KeyError's without the quotes repr adds)."""
    return str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc)


def _setup_line(script: Script, exc: Exception) -> int:
    """The header line whose file or setting failed."""
    from zxmonopoly.snapshot import SnapshotError
    from zxmonopoly.spectrum.machine import SpectrumError
    from zxmonopoly.tape import TapeError

    if isinstance(exc, SnapshotError):
        header = "snapshot"
    elif isinstance(exc, SpectrumError):
        header = "rom"
    elif isinstance(exc, TapeError):
        header = "tape"
    elif isinstance(exc, HarnessError) and script.game:
        header = "game"
    else:
        header = "symbols" if script.symbols else "tape" if script.tape else "game"
    return script.header_lines.get(header) or min(script.header_lines.values(), default=1)


def run_script(path: str | os.PathLike[str], engine: str | None = None) -> Result:
    """Parse then run a script; a malformed script gives a failed Result without running."""
    try:
        script = parse_script(path)
    except ScriptError as exc:
        return Result(str(path), False, message=str(exc))
    try:
        session = start_session(script, engine)
    except SETUP_ERRORS as exc:
        return Result(str(path), False, message=f"cannot set up the machine: {_message(exc)}",
                      line=_setup_line(script, exc))
    problems = _check_symbols(script, session)
    if problems:
        return Result(str(path), False, message=f"{len(problems)} error(s) in {path}:\n"
                      + "\n".join(problems))
    start = session.frame
    for step in script.steps:
        try:
            run_step(session, step)
        except STEP_ERRORS as exc:
            return Result(str(path), False, step, _message(exc), session.lines(),
                          session.frame - start)
    return Result(str(path), True, frames=session.frame - start)


def _group_positions(steps: list[Step]) -> list[Step]:
    """Consecutive position lines joined into one step (named by its last line), so that they
    are checked together; each edit keeps its ``file:line``."""
    out: list[Step] = []
    for step in steps:
        if step.op != "position":
            out.append(step)
            continue
        edits = tuple((step.where, edit) for edit in step.args)
        if out and out[-1].op == "position":
            edits = out.pop().args + edits
        out.append(Step(step.file, step.line, step.source, "position", edits))
    return out


def quote(text: str) -> str:
    """``text`` in the script's double quotes (for generated scripts)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- the registry -----------------------------------------------------------------------------


def _registry(*commands: Command) -> dict[str, Command]:
    """The commands by name (a name registered twice is a mistake here)."""
    table: dict[str, Command] = {}
    for command in commands:
        assert command.name not in table, command.name
        table[command.name] = command
    return table


_POSITION_SYNTAX = {
    "own": ("own SQUARE[, SQUARE…] by P [N houses|1 house|hotel] [mortgaged]",),
    "cash": ("cash P = N",),
    "at": ("at P SQUARE",),
    "jail": ("jail P [turns N]", "jail cards P = chance|chest|chance,chest|none"),
    "free": ("free P",),
    "next": ("next chance CARD", "next chest CARD"),
    "turn": ("turn P",)}
_POSITION_DOC = {
    "own": "set who owns squares, their buildings and mortgage",
    "cash": "set a player's cash (the Bank pays or takes the difference)",
    "at": "put a player's token on a square",
    "jail": "put a player in jail, or set the Get Out of Jail Free cards held",
    "free": "take a player out of jail",
    "next": "put a card on top of its pack",
    "turn": "make it a player's turn"}

#: Every command of a script, in the order the list of commands names them (headers first).
COMMANDS: dict[str, Command] = _registry(
    Command("game", ("game",), "start the bundled game at its title screen", _parse_game,
            header=True),
    Command("rom", ("rom FILE",), "boot this 16 KB ROM image instead of ours", _parse_file,
            header=True),
    Command("snapshot", ("snapshot FILE",), "start from a snapshot instead of booting",
            _parse_file, header=True),
    Command("symbols", ("symbols FILE",), "the symbol map for names", _parse_file, header=True),
    Command("tape", ("tape FILE [fast|real]",), "put a tape in and type LOAD \"\"", _parse_tape,
            header=True),
    Command("type", ("type TEXT",), "type the rest of the line", _parse_type, _run_type),
    Command("keyword", ("keyword NAME",), "a BASIC keyword in K mode", _parse_keyword,
            _run_keyword),
    Command("press", ("press KEY[+KEY]",), "hold keys down until released", _parse_press,
            _run_press),
    Command("release", ("release KEY[+KEY]", "release all"), "let keys go", _parse_press,
            _run_release),
    Command("hold", ("hold KEY[+KEY] FRAMES",), "hold keys for some frames, then release",
            _parse_hold, _run_hold),
    Command("tap", ("tap KEY[+KEY] [FRAMES]",), "press, release, wait 3 frames", _parse_hold,
            _run_tap),
    Command("wait", ("wait FRAMES", 'wait for "TEXT" [within FRAMES]',
                     "wait for pc ADDRESS [within FRAMES]", "wait input [within FRAMES]"),
            "let time pass, or run until text, an address or the game's key wait",
            _parse_wait, _run_wait, ops=("wait", "wait_text", "wait_pc", "wait_input")),
    Command("expect", ('expect "TEXT" [at row R]', "expect peek ADDRESS = VALUE",
                       "expect peek16 ADDRESS = VALUE", "expect state NAME OP VALUE"),
            "check the screen, memory or the game's state", lambda c, rest, t: _parse_expect(rest),
            _run_expect, ops=("expect_text", "expect_peek", "expect_state")),
    Command("roll", ("roll D1 D2",), "rig the game's next throw", _parse_roll, _run_roll),
    Command("seed", ("seed N",), "write the game's random state", _parse_seed, _run_seed),
    Command("screenshot", ("screenshot FILE",), "save the screen as PNG", _parse_file,
            _run_screenshot),
    Command("snapshot_save", ("snapshot FILE",), "(after the first command) save a snapshot",
            _parse_file, _run_snapshot, shown="snapshot"),
    Command("include", ("include FILE",), "run the commands of another file here",
            _parse_file),
    *(Command(name, syntax, _POSITION_DOC[name], _parse_position, _run_position,
              ops=("position",)) for name, syntax in _POSITION_SYNTAX.items()),
    Command("check", ("check invariants",), "fail when the game breaks an invariant now",
            _parse_check, _run_check, ops=("check_invariants",)),
    Command("watch", ("watch pc in ROM|game|A..B[, …]", "watch sp in A..B",
                      "watch [word] NAME OP V", "watch [word] NAME in A..B", "watch invariants"),
            "check a condition after every frame from now on", _parse_watch, _run_watch),
    Command("unwatch", ("unwatch …", "unwatch all"), "turn a watch, or every watch, off",
            _parse_watch, _run_watch),
    Command("monkey", ("monkey FRAMES seed S",), "press random keys for some frames",
            _parse_watch, _run_watch))

#: Header (set-up) lines: they come before the first command of the main script.
HEADERS = tuple(name for name, command in COMMANDS.items() if command.header)
#: Each op a parser makes -> the runner of its command.
_RUNNERS: dict[str, Runner] = {op: command.run for command in COMMANDS.values()
                               if command.run is not None for op in command.ops or (command.name,)}


__all__ = ["COMMANDS", "GAME_FIELDS", "PLAYER_FIELDS", "SQUARE_FIELDS", "Command", "Result",
           "Script", "ScriptError", "Step", "parse_script", "quote", "run_script", "run_step",
           "state_label", "state_value"]
