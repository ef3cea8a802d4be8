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
from zxmonopoly.harness import state_query, words
from zxmonopoly.harness.session import (
    DEFAULT_BUDGET,
    KEYWORD_KEYS,
    HarnessError,
    Session,
    Symbols,
    format_screen,
)
from zxmonopoly.harness.words import MAX_FRAMES, MAX_NUMBER_CHARS, WordError, quote
from zxmonopoly.spectrum.keyboard import KEYS

#: A script or an included file is at most this large.
MAX_SCRIPT_BYTES = 16 * 1024 * 1024


class ScriptError(HarnessError, ValueError):
    """A malformed script: every problem with its file and line, found before running (a
    ValueError too: the script is a bad value)."""


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

# A parse problem of one line is a WordError (words.py's, which every reader of the harness's
# words raises), turned into a ScriptError entry with its file:line.
_QUOTED = re.compile(words.QUOTED + r"(.*)\Z", re.DOTALL)


def _keys(text: str) -> str:
    """A key combination KEY[+KEY] checked against the matrix names."""
    parts = [" ".join(p.upper().split()) for p in text.split("+")]
    for part in parts:
        if part not in KEYS:
            raise WordError(f"unknown key {part!r} in {text!r}; keys are A-Z, 0-9, ENTER, SPACE, "
                           "CAPS SHIFT, SYMBOL SHIFT")
    return "+".join(parts)


def _quoted(rest: str, what: str) -> tuple[str, str]:
    """A "quoted" string at the start of ``rest`` and what follows it."""
    m = _QUOTED.match(rest.strip())
    if not m:
        raise WordError(f'expected {what} in double quotes, e.g. "OK", got {rest.strip()!r}')
    return words.unquote(m.group(1)), m.group(2).strip()


def _within(rest: str, after: str = "the text") -> int:
    """An optional ``within N`` clause (the frame budget)."""
    parts = rest.split()
    if not parts:
        return DEFAULT_BUDGET
    if len(parts) == 2 and parts[0].lower() == "within":
        return words.frames(parts[1])
    raise WordError(f"expected nothing or 'within FRAMES' after {after}, got {rest!r}")


def _parse_expect(rest: str) -> tuple[str, tuple]:
    """The forms of ``expect``."""
    if rest.startswith('"'):
        text, after = _quoted(rest, "the text to expect")
        if not after:
            return "expect_text", (text, None)
        parts = after.split()
        if len(parts) == 3 and parts[:2] == ["at", "row"]:
            row = words.number(parts[2], "a row number")
            if row > 23:
                raise WordError(f"row {row} is off the screen (rows are 0-23)")
            return "expect_text", (text, row)
        raise WordError(f"expected nothing or 'at row R' after the text, got {after!r}")
    first = rest.split(None, 1)
    if first and first[0].lower() == "event":
        return "expect_event", _parse_event(first[1] if len(first) > 1 else "")
    tokens = state_query.tokens(rest)
    if not any(kind == "op" for kind, _ in tokens):
        raise WordError('expected \'expect "TEXT" [at row R]\', \'expect peek ADDRESS = VALUE\' '
                        "or 'expect state NAME OP VALUE'")
    if tokens[0][0] == "w" and tokens[0][1].lower() in ("peek", "peek16"):
        name = tokens[0][1].lower()
        if len(tokens) < 4 or tokens[1][0] != "w" or tokens[2] != ("op", "="):
            raise WordError(f"expected '{name} ADDRESS = VALUE'")
        if len(tokens) != 4:
            raise WordError("expected one value after '=', got "
                            f"{' '.join(text for _, text in tokens[3:])!r}")
        width = 1 if name == "peek" else 2
        value = words.number(tokens[3][1], "a value")
        if value >= 1 << (8 * width):
            raise WordError(f"value {value} does not fit in {name}")
        return "expect_peek", (width, words.address(tokens[1][1]), value)
    if tokens[0][0] == "w" and tokens[0][1].lower() == "state":
        tokens = tokens[1:]
    return "expect_state", (state_query.parse(tokens),)


def _parse_event(rest: str) -> tuple[str | None, str | None]:
    """``expect event [KIND] ["TEXT"]``: the kind (a word) and/or words of the event."""
    kind = text = None
    rest = rest.strip()
    if rest and not rest.startswith('"'):
        kind, _, rest = rest.partition(" ")
        kind, rest = kind.lower(), rest.strip()
    if rest:
        text, after = _quoted(rest, "the event's words")
        if after:
            raise WordError(f"expected nothing after the event's words, got {after!r}")
    if kind is None and text is None:
        raise WordError('expected \'expect event KIND ["TEXT"]\' or \'expect event "TEXT"\'')
    return kind, text


def _expect_event(session: Session, kind: str | None, text: str | None) -> None:
    """The next event of ``kind`` whose words hold ``text``, after the one the last ``expect
    event`` matched; HarnessError listing the events seen."""
    events = session.events()
    start = getattr(session, "_event_cursor", 0)
    for i in range(start, len(events)):
        event = events[i]
        if (kind is None or event.kind == kind) and (text is None or text in event.text):
            session._event_cursor = i + 1
            return
    seen = "\n".join(f"  {e.kind}: {e.text}" for e in events[start:][-12:]) or "  (none)"
    want = " ".join(part for part in (kind, repr(text) if text else None) if part)
    raise session.fail(f"expected an event {want}; the events since the last match "
                       f"(the last 12):\n{seen}")


# -- the commands: one entry each (name, syntax, doc line, parser, runner) ----------------------
#
# As an assembler's directive table: the parser looks a line's first word up here and the
# runner looks a step's op up in the ops the commands make, so a command is added in one place.

#: A parser: (command name lower case, the rest of the line stripped, the whole line) ->
#: (op, args); WordError when malformed.
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
        raise WordError("expected 'game' alone (it loads the bundled game tape)")
    return "game", ()


def _parse_file(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``COMMAND FILE`` (rom, snapshot, symbols, screenshot, snapshot_save, include)."""
    parts = rest.split()
    if len(parts) != 1:
        raise WordError(f"expected '{command} FILE'")
    return command, (parts[0],)


def _parse_tape(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``tape FILE [fast|real]``."""
    parts = rest.split()
    if len(parts) == 1 or (len(parts) == 2 and parts[1].lower() in ("fast", "real")):
        return "tape", (parts[0], len(parts) == 2 and parts[1].lower() == "real")
    raise WordError("expected 'tape FILE [fast|real]'")


def _parse_type(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``type TEXT`` (the rest of the line as written)."""
    if not rest:
        raise WordError("expected 'type TEXT'")
    text_to_type = text.strip()[5:]
    from zxmonopoly.spectrum.keyboard import KeyboardError, keys_for_text

    try:
        keys_for_text(text_to_type)
    except KeyboardError as exc:
        raise WordError(str(exc)) from None
    return "type", (text_to_type,)


def _parse_keyword(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``keyword NAME``."""
    name = " ".join(rest.upper().split())
    if name not in KEYWORD_KEYS:
        raise WordError(f"unknown keyword {rest!r}; K-mode keywords: {', '.join(KEYWORD_KEYS)}")
    return "keyword", (name,)


def _parse_press(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``press KEY[+KEY]``, ``release KEY[+KEY]`` or ``release all``."""
    if command == "release" and rest.lower() == "all":
        return "release", (None,)
    if not rest:
        raise WordError(f"expected '{command} KEY[+KEY]'")
    return command, (_keys(rest),)


def _parse_hold(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``hold KEY[+KEY] FRAMES`` or ``tap KEY[+KEY] [FRAMES]``."""
    head, _, last = rest.rpartition(" ")
    if command == "tap" and (not head or not words.is_number(last)):
        if not rest:
            raise WordError("expected 'tap KEY[+KEY] [FRAMES]'")
        return "tap", (_keys(rest), None)
    if not head:
        raise WordError("expected 'hold KEY[+KEY] FRAMES'")
    return command, (_keys(head), words.frames(last))


def _parse_wait(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """The forms of ``wait``."""
    parts = rest.split()
    if parts and parts[0].lower() == "input":
        return "wait_input", (_within(" ".join(parts[1:]), "'wait input'"),)
    if len(parts) == 1:
        return "wait", (words.frames(parts[0]),)
    if parts and parts[0].lower() == "for":
        after_for = rest[3:].strip()
        if after_for.lower().split()[:1] == ["pc"]:
            pc_words = after_for.split()
            if len(pc_words) < 2:
                raise WordError("expected 'wait for pc ADDRESS [within FRAMES]'")
            return "wait_pc", (words.address(pc_words[1]), _within(" ".join(pc_words[2:])))
        text_wanted, after = _quoted(after_for, "the text to wait for")
        return "wait_text", (text_wanted, _within(after))
    raise WordError('expected \'wait FRAMES\', \'wait for "TEXT" [within FRAMES]\', '
                    "'wait for pc ADDRESS [within FRAMES]' or 'wait input [within FRAMES]'")


def _parse_roll(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``roll D1 D2``."""
    parts = rest.split()
    if len(parts) != 2:
        raise WordError("expected 'roll D1 D2' (two dice, 1-6)")
    dice = tuple(words.number(w, "a die (1-6)") for w in parts)
    if not all(1 <= d <= 6 for d in dice):
        raise WordError(f"dice must be 1-6, got {rest!r}")
    return "roll", dice


def _parse_seed(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``seed N``."""
    parts = rest.split()
    if len(parts) != 1:
        raise WordError("expected 'seed N' (0-65535)")
    value = words.number(parts[0], "a seed (0-65535)")
    if value > 0xFFFF:
        raise WordError(f"the seed is 16 bits (0-65535), got {value}")
    return "seed", (value,)


def _parse_position(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """A position line (``own``, ``cash``, ``at``, ``jail``, ``free``, ``next``, ``turn``)."""
    from zxmonopoly.harness import position

    return "position", tuple(position.parse_line(command, rest))


def _parse_check(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``check invariants``."""
    if rest.lower().split() != ["invariants"]:
        raise WordError("expected 'check invariants'")
    return "check_invariants", ()


def _parse_watch(command: str, rest: str, text: str) -> tuple[str, tuple]:
    """``watch ...``, ``unwatch ...`` or ``monkey FRAMES seed S``."""
    from zxmonopoly.harness import watch

    return watch.parse_line(command, rest)


def _parse_line(text: str) -> tuple[str, tuple]:
    """One command line -> (op, args) by its command's parser; WordError when malformed."""
    command, _, rest = text.strip().partition(" ")
    command = command.lower()
    entry = COMMANDS.get(command)
    if entry is None:
        listed = [c.shown or c.name for c in COMMANDS.values() if not c.header]
        raise WordError(f"unknown command {command!r}; expected one of: " + ", ".join(listed))
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
                    raise WordError(f"'{op}' belongs in the header of the main script, "
                                   "not in an included file")
                if script.steps:
                    raise WordError(f"'{op}' must come before the first command (it sets up "
                                   "the machine); to save a snapshot later write it after a "
                                   "command")
                clash = _header_clash(script, op)
                if clash:
                    raise WordError(clash)
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
        except WordError as exc:
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


def _expect_state(session: Session, query: state_query.StateQuery) -> None:
    """Check one ``expect state`` against the decoded state; HarnessError with the screen."""
    try:
        failure = query.failure(session.state())
    except HarnessError as exc:
        raise session.fail(f"cannot read {query.label}: {exc}") from None
    if failure is not None:
        raise session.fail(failure)


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
    elif op == "expect_event":
        _expect_event(session, *args)
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
    """The errors a script's files and steps can cause, by their packages' roots (a file
    unread, a ROM, a snapshot, a tape, the harness's own: a symbol missing, a symbol map
    that is not one, a wait that failed): each is a failed result, no traceback."""
    from zxmonopoly.snapshot import SnapshotError
    from zxmonopoly.spectrum import SpectrumError
    from zxmonopoly.tape import TapeError

    return (HarnessError, SpectrumError, SnapshotError, TapeError, OSError)


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
                       "expect peek16 ADDRESS = VALUE", "expect state NAME OP VALUE",
                       'expect event [KIND] ["TEXT"]'),
            "check the screen, memory, the game's state or its record of events",
            lambda c, rest, t: _parse_expect(rest),
            _run_expect, ops=("expect_text", "expect_peek", "expect_state", "expect_event")),
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


__all__ = ["COMMANDS", "MAX_FRAMES", "MAX_NUMBER_CHARS", "Command", "Result", "Script",
           "ScriptError", "Step", "parse_script", "quote", "run_script", "run_step"]
