"""Keystroke scripts (``.zxs``): parse the whole file first, then run it step by step.

The format is described in ``docs/harness.md``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from zxmonopoly.harness.session import (
    DEFAULT_BUDGET,
    KEYWORD_KEYS,
    HarnessError,
    Session,
    format_screen,
)
from zxmonopoly.spectrum.keyboard import KEYS

HEADERS = ("rom", "tape", "snapshot", "symbols")

#: Game-state names ``expect`` accepts (read once the game's state block exists).
PLAYER_FIELDS = ("name", "cash", "square", "in jail", "jail turns", "get out of jail free cards",
                 "computer", "personality")
SQUARE_FIELDS = ("owner", "houses", "hotel", "mortgaged")
OTHER_STATE = ("current player", "last dice", "bank houses", "bank hotels", "clock")


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
    rom: str | None = None
    tape: str | None = None
    real_load: bool = False
    snapshot: str | None = None
    symbols: str | None = None
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

    def report(self) -> str:
        """A human-readable pass/fail report (with the screen on failure)."""
        if self.passed:
            return f"PASS {self.path} ({self.frames} frames)"
        where = self.step.where if self.step else self.path
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
    """A decimal, 0x.. or $.. number; _Problem otherwise."""
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
    """A frame count (a whole number)."""
    return parse_number(word, "a number of frames")


def _within(rest: str) -> int:
    """An optional ``within N`` clause (the frame budget)."""
    words = rest.split()
    if not words:
        return DEFAULT_BUDGET
    if len(words) == 2 and words[0].lower() == "within":
        return _frames(words[1])
    raise _Problem(f"expected nothing or 'within FRAMES' after the text, got {rest!r}")


def _state_name(words: list[str]) -> str:
    """A game-state name such as ``player 1 cash`` (checked against the known names)."""
    name = " ".join(w.lower() for w in words)
    m = re.match(r"^player ([1-6]) (.+)$", name)
    if m:
        if m.group(2) in PLAYER_FIELDS:
            return name
        raise _Problem(f"unknown player field {m.group(2)!r}; known: {', '.join(PLAYER_FIELDS)}")
    m = re.match(r"^square (.+) (" + "|".join(SQUARE_FIELDS) + ")$", name)
    if m or name in OTHER_STATE:
        return name
    raise _Problem(f"unknown game state {name!r}; expected 'player N FIELD', 'square NAME "
                   f"FIELD' or one of {', '.join(OTHER_STATE)}")


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
    if "=" not in rest:
        raise _Problem('expected \'expect "TEXT" [at row R]\' or \'expect NAME = VALUE\'')
    left, _, right = rest.partition("=")
    words = left.split()
    value_words = right.split()
    if len(value_words) != 1:
        raise _Problem(f"expected one value after '=', got {right.strip()!r}")
    if words and words[0].lower() == "state":
        words = words[1:]
    if not words:
        raise _Problem("expected a name before '='")
    if words[0].lower() in ("peek", "peek16"):
        if len(words) != 2:
            raise _Problem(f"expected '{words[0]} ADDRESS = VALUE'")
        width = 1 if words[0].lower() == "peek" else 2
        value = parse_number(value_words[0], "a value")
        if value >= 1 << (8 * width):
            raise _Problem(f"value {value} does not fit in {words[0].lower()}")
        return "expect_peek", (width, _address(words[1]), value)
    name = _state_name(words)
    return "expect_state", (name, value_words[0])


def _parse_line(text: str) -> tuple[str, tuple]:
    """One command line -> (op, args); _Problem when malformed."""
    command, _, rest = text.strip().partition(" ")
    command = command.lower()
    rest = rest.strip()
    words = rest.split()
    if command in ("rom", "snapshot", "symbols"):
        if len(words) != 1:
            raise _Problem(f"expected '{command} FILE'")
        return command, (words[0],)
    if command == "tape":
        if len(words) == 1 or (len(words) == 2 and words[1].lower() in ("fast", "real")):
            return "tape", (words[0], len(words) == 2 and words[1].lower() == "real")
        raise _Problem("expected 'tape FILE [fast|real]'")
    if command == "type":
        if not rest:
            raise _Problem("expected 'type TEXT'")
        text_to_type = text.strip()[5:]
        from zxmonopoly.spectrum.keyboard import KeyboardError, keys_for_text

        try:
            keys_for_text(text_to_type)
        except KeyboardError as exc:
            raise _Problem(str(exc)) from None
        return "type", (text_to_type,)
    if command == "keyword":
        name = " ".join(rest.upper().split())
        if name not in KEYWORD_KEYS:
            raise _Problem(f"unknown keyword {rest!r}; K-mode keywords: {', '.join(KEYWORD_KEYS)}")
        return "keyword", (name,)
    if command in ("press", "release"):
        if command == "release" and rest.lower() == "all":
            return "release", (None,)
        if not rest:
            raise _Problem(f"expected '{command} KEY[+KEY]'")
        return command, (_keys(rest),)
    if command in ("hold", "tap"):
        head, _, last = rest.rpartition(" ")
        if command == "tap" and (not head or not _NUMBER.match(last)):
            if not rest:
                raise _Problem("expected 'tap KEY[+KEY] [FRAMES]'")
            return "tap", (_keys(rest), None)
        if not head:
            raise _Problem("expected 'hold KEY[+KEY] FRAMES'")
        return command, (_keys(head), _frames(last))
    if command == "wait":
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
        raise _Problem('expected \'wait FRAMES\', \'wait for "TEXT" [within FRAMES]\' or '
                       "'wait for pc ADDRESS [within FRAMES]'")
    if command == "expect":
        return _parse_expect(rest)
    if command == "roll":
        if len(words) != 2:
            raise _Problem("expected 'roll D1 D2' (two dice, 1-6)")
        dice = tuple(parse_number(w, "a die (1-6)") for w in words)
        if not all(1 <= d <= 6 for d in dice):
            raise _Problem(f"dice must be 1-6, got {rest!r}")
        return "roll", dice
    if command in ("screenshot", "snapshot_save"):
        if len(words) != 1:
            raise _Problem(f"expected '{command} FILE'")
        return command, (words[0],)
    if command == "include":
        if len(words) != 1:
            raise _Problem("expected 'include FILE'")
        return "include", (words[0],)
    raise _Problem(f"unknown command {command!r}; expected one of: type, keyword, press, "
                   "release, hold, tap, wait, expect, roll, screenshot, snapshot, include")


def parse_script(path: str | os.PathLike[str]) -> Script:
    """Parse a script and its includes; ScriptError lists every malformed line."""
    script = Script(str(path))
    problems: list[str] = []
    _parse_into(Path(path), script, problems, [], top=True)
    if problems:
        raise ScriptError(f"{len(problems)} error(s) in {path}:\n" + "\n".join(problems))
    return script


def _parse_into(path: Path, script: Script, problems: list[str], stack: list[Path],
                top: bool) -> None:
    """Parse ``path`` into ``script``, following includes (``stack`` catches loops)."""
    resolved = path.resolve()
    if resolved in stack:
        chain = " -> ".join(str(p) for p in [*stack, resolved])
        problems.append(f"{path}: include loop: {chain}")
        return
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        problems.append(f"{path}: cannot read: {exc.strerror or exc}")
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
                file = str(path.parent / args[0])
                if op == "tape":
                    script.tape, script.real_load = file, args[1]
                else:
                    setattr(script, op, file)
                continue
            if op == "include":
                _parse_into(path.parent / args[0], script, problems, [*stack, resolved],
                            top=False)
                continue
            if op in ("screenshot", "snapshot_save"):
                args = (str(path.parent / args[0]),)
            script.steps.append(Step(str(path), number, source, op, args))
        except _Problem as exc:
            problems.append(f"{where}: {exc}\n    {stripped}")


# -- running ----------------------------------------------------------------------------------


def start_session(script: Script, engine: str | None = None) -> Session:
    """The session a script's header asks for (boot, snapshot and/or tape)."""
    if script.snapshot:
        session = Session.from_snapshot(script.snapshot, rom=script.rom, engine=engine,
                                        symbols=script.symbols)
    else:
        session = Session(script.rom, engine=engine, symbols=script.symbols)
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


def run_step(session: Session, step: Step) -> None:
    """Run one step; HarnessError when an expectation fails."""
    op, args = step.op, step.args
    if op == "type":
        session.type(args[0])
    elif op == "keyword":
        session.keyword(args[0])
    elif op == "press":
        session.press(args[0])
    elif op == "release":
        session.release(args[0])
    elif op == "hold":
        session.hold(args[0], args[1])
    elif op == "tap":
        session.tap(args[0]) if args[1] is None else session.tap(args[0], args[1])
    elif op == "wait":
        session.wait(args[0])
    elif op == "wait_text":
        session.wait_text(args[0], args[1])
    elif op == "wait_pc":
        session.wait_pc(args[0], args[1])
    elif op == "expect_text":
        text, row = args
        if row is None:
            if session.find(text) is None:
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
    elif op == "expect_state":
        raise session.fail(f"game state not available yet: cannot read {args[0]!r} (the game "
                           "and its state block are not written; use 'expect peek' for now)")
    elif op == "roll":
        raise session.fail(f"roll {args[0]} {args[1]}: rigging the dice needs the game's test "
                           "hook, which is not available yet")
    elif op == "screenshot":
        session.screenshot(args[0])
    elif op == "snapshot_save":
        session.save_snapshot(args[0])
    else:  # pragma: no cover - the parser makes only the ops above
        raise HarnessError(f"unknown step {op!r}")


def run_script(path: str | os.PathLike[str], engine: str | None = None) -> Result:
    """Parse then run a script; a malformed script gives a failed Result without running."""
    try:
        script = parse_script(path)
    except ScriptError as exc:
        return Result(str(path), False, message=str(exc))
    try:
        session = start_session(script, engine)
    except (OSError, ValueError, KeyError, HarnessError) as exc:
        return Result(str(path), False, message=f"cannot set up the machine: {exc}")
    problems = _check_symbols(script, session)
    if problems:
        return Result(str(path), False, message=f"{len(problems)} error(s) in {path}:\n"
                      + "\n".join(problems))
    start = session.frame
    for step in script.steps:
        try:
            run_step(session, step)
        except (HarnessError, ValueError, KeyError, OSError) as exc:
            message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            return Result(str(path), False, step, str(message), session.lines(),
                          session.frame - start)
    return Result(str(path), True, frames=session.frame - start)


def quote(text: str) -> str:
    """``text`` in the script's double quotes (for generated scripts)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


__all__ = ["Result", "Script", "ScriptError", "Step", "parse_script", "quote", "run_script",
           "run_step"]
