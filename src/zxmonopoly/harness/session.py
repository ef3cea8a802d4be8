"""A scripted Spectrum session: boot, keys, waits with frame budgets, screen and RAM reading."""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from zxmonopoly import images
from zxmonopoly.basic import K_MODE_KEYWORDS
from zxmonopoly.harness import game
from zxmonopoly.harness.errors import HarnessError, SymbolError, SymbolMapError, format_screen
from zxmonopoly.memory_map import ATTR_FILE, ROM_SIZE
from zxmonopoly.snapshot.rzx import load_rzx, save_rzx
from zxmonopoly.spectrum import Spectrum48, boot, keystrokes, video
from zxmonopoly.spectrum.rzx import RzxPlayer, RzxRecorder
from zxmonopoly.spectrum.timing import BOOT_FRAMES, FRAME_TSTATES

#: The symbol map of our ROM, written by the ROM build.
ROM_SYMBOLS = images.DATA_DIR / images.ROM_SYMBOLS
#: Default frames a key is held down and then left up by :meth:`Session.tap` and (at least)
#: by :meth:`Session.type`, which leaves the same key up longer (``keystrokes.plan``).
HOLD_FRAMES = keystrokes.HOLD_FRAMES
GAP_FRAMES = keystrokes.GAP_FRAMES
#: Default frame budget of the waits.
DEFAULT_BUDGET = 500
#: Where the game waits for a key once every key is up (keys.asm): a key pressed before the
#: game gets there would be taken for one still held from the last question.
INPUT_WAIT = "keys_wait.wait"
#: Frames allowed from typing LOAD "" to the title screen's wait for a key with a fast load;
#: a real load is allowed the tape's own length (:func:`tape_frames`) and REAL_LOAD_MARGIN.
GAME_LOAD_BUDGET = {True: 500}
#: Beyond the tape's length, a real load may take this share longer (the ROM's pauses between
#: blocks, the program starting) plus the fast load's budget.
REAL_LOAD_MARGIN = 0.1

#: The keywords of K mode (the start of a BASIC line) and the letter key that gives each.
KEYWORD_KEYS: dict[str, str] = {word: letter for letter, word in K_MODE_KEYWORDS.items()}


class Attributes(NamedTuple):
    """The colours of one character cell."""

    ink: int
    paper: int
    bright: bool
    flash: bool


class Symbols(Mapping[str, int]):
    """A symbol map (name -> address) read from the assembler's ``.sym.json``."""

    def __init__(self, entries: Mapping[str, Mapping[str, object]], source: str = "<symbols>"):
        self.entries = dict(entries)
        self.source = source

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Symbols:
        """Read a symbol map file ({name: {"value", "file", "line"}}).

        A file that is not one (bad JSON or UTF-8, not an object of {"value": number}
        entries, over 64 MiB, a device) raises SymbolMapError or OSError naming the file.
        """
        from zxmonopoly.files import read_regular

        raw = read_regular(path, 64 * 1024 * 1024, "symbol map")
        try:
            entries = json.loads(raw.decode("utf-8"))
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise SymbolMapError(f"{path}: not a symbol map: {exc}") from None
        if not isinstance(entries, dict):
            raise SymbolMapError(f"{path}: not a symbol map: expected a JSON object "
                             '{"name": {"value": number, ...}, ...}')
        for name, entry in entries.items():
            value = entry.get("value") if isinstance(entry, dict) else None
            if type(value) is not int or not -(1 << 32) < value < 1 << 32:
                raise SymbolMapError(f"{path}: not a symbol map: {name[:40]!r} has no 32-bit "
                                 'number as its "value"')
        return cls(entries, str(path))

    def __getitem__(self, name: str) -> int:
        """The value of ``name``; a SymbolError (a KeyError) names the map and close names."""
        try:
            return int(self.entries[name]["value"])  # type: ignore[call-overload]
        except KeyError:
            close = [n for n in self.entries if name.upper() in n.upper()][:5]
            hint = f"; similar: {', '.join(close)}" if close else ""
            raise SymbolError(f"no symbol {name!r} in {self.source}{hint}") from None

    def __iter__(self):
        """Symbol names."""
        return iter(self.entries)

    def __len__(self) -> int:
        """Number of symbols."""
        return len(self.entries)


class Session:
    """One Spectrum driven by frames: deterministic, no wall-clock anywhere."""

    def __init__(self, rom: bytes | str | os.PathLike[str] | None = None, *,
                 engine: str | None = None, symbols: str | os.PathLike[str] | None = None,
                 boot: bool = True, boot_frames: int = BOOT_FRAMES,
                 font: int | str | None = None):
        self.machine = Spectrum48(rom=rom, engine=engine)
        self.boot_frames = boot_frames
        if symbols is not None:
            self.symbols = Symbols.load(symbols)
        elif rom is None:
            self.symbols = Symbols.load(ROM_SYMBOLS)
        else:
            self.symbols = Symbols({}, "<no symbol map>")
        self.font = font
        self._record: list = []     # the game's events read so far (:meth:`events`)
        self._drain = None
        self.machine.frame_listeners.append(self._drain_events)
        self.rzx_player: RzxPlayer | None = None  # the player of a session from_rzx
        if boot:
            self.machine.run_frames(boot_frames)

    @classmethod
    def game(cls, engine: str | None = None, *, cache: bool = True, real_load: bool = False,
             rom: bytes | str | os.PathLike[str] | None = None) -> Session:
        """The bundled game as a user starts it: boot, LOAD "" typed, the tape loaded, run until
        the title screen waits for a key (PC = ``keys_wait.wait``).

        The session has the game's symbol map and reads the screen with the game's font (the
        game points CHARS at it). With ``cache`` (the default, fast load on our ROM only) the
        tape is loaded once per process and saved as a .szx; every session then starts from
        that snapshot, so all of them are alike to the T-state and none loads the tape again.
        """
        try:
            tape, symbols = images.game_tape_path(), images.game_symbols_path()
        except images.ImageMissing as exc:
            raise HarnessError(f"the game is not built: {exc}") from None
        if cache and not real_load and rom is None:
            snapshot = _game_snapshot(tape, symbols, engine)
            return cls.from_snapshot(snapshot, engine=engine, symbols=symbols)
        return _loaded_game(cls(rom, engine=engine, symbols=symbols, boot=False), tape,
                            real_load)

    @classmethod
    def from_snapshot(cls, path: str | os.PathLike[str], **kwargs) -> Session:
        """A session started from a .szx, .z80 or .sna snapshot instead of a boot."""
        session = cls(boot=False, **kwargs)
        session.machine.load_snapshot(path)
        return session

    @classmethod
    def from_rzx(cls, path: str | os.PathLike[str], *, frames: int | None = None,
                 rom: bytes | str | os.PathLike[str] | None = None, **kwargs) -> Session:
        """A session at the end of an RZX recording (or ``frames`` into it), played frame by
        frame from its snapshot on its ROM (Fuse's custom ROM; else ``rom``, else ours).

        The player stays as ``rzx_player`` (its ``closing`` snapshot, its frames left). A bad
        file raises ``RzxError``; a replay out of step with it, ``RzxDesync`` (the frame).
        """
        recording = load_rzx(path)
        start_rom = recording.start.rom
        session = cls(start_rom if start_rom is not None else rom, boot=False, **kwargs)
        session.rzx_player = RzxPlayer(recording, session.machine, os.fspath(path))
        session.rzx_player.play(frames)
        return session

    @contextmanager
    def record_rzx(self, path: str | os.PathLike[str],
                   suffix: str = ".szx") -> Iterator[RzxRecorder]:
        """Record what runs inside the ``with`` to an RZX file: a snapshot block (``suffix``:
        .szx with the ROM in it, or .z80) now, a frame per frame run, the closing snapshot."""
        recorder = RzxRecorder(self.machine, suffix)
        try:
            yield recorder
        finally:
            save_rzx(path, recorder.stop())

    # -- machine ----------------------------------------------------------------------------

    @property
    def frame(self) -> int:
        """Frames run since power-on (or since the snapshot's load)."""
        return self.machine.frame

    def reset(self) -> None:
        """Power-cycle and boot again; every key released."""
        self.machine.keyboard.release_all()
        self.machine.reset()
        self.machine.run_frames(self.boot_frames)

    def load_tape(self, path: str | os.PathLike[str], fast: bool = True) -> None:
        """Insert a tape and type LOAD "" as a user does; real loads also press PLAY (the
        boot-and-load recipe, ``spectrum/boot.py``, with the boot already run)."""
        boot.insert_tape(self.machine, path, real_load=not fast)
        boot.load_quoted(self.machine, real_load=not fast)

    def save_snapshot(self, path: str | os.PathLike[str]) -> None:
        """Save the machine as .szx, .z80 or .sna (by suffix; .szx is exact)."""
        self.machine.save_snapshot(path)

    def address(self, where: int | str) -> int:
        """An address given as a number or a symbol name of the symbol map."""
        if isinstance(where, int):
            return where & 0xFFFF
        return self.symbols[where] & 0xFFFF

    # -- keys -------------------------------------------------------------------------------

    def press(self, keys: str | Iterable[str]) -> None:
        """Hold down a key or combination (``"CAPS SHIFT+SPACE"``) until released."""
        self.machine.keyboard.press(keys)

    def release(self, keys: str | Iterable[str] | None = None) -> None:
        """Release a key or combination; every key when ``keys`` is None."""
        if keys is None:
            self.machine.keyboard.release_all()
        else:
            self.machine.keyboard.release(keys)

    def hold(self, keys: str | Iterable[str], frames: int) -> None:
        """Hold a key or combination for ``frames`` frames, then release it."""
        self.machine.keyboard.press(keys)
        self.machine.run_frames(frames)
        self.machine.keyboard.release(keys)

    def tap(self, keys: str | Iterable[str], frames: int = HOLD_FRAMES,
            gap: int = GAP_FRAMES) -> None:
        """Press for ``frames`` frames, release for ``gap`` frames."""
        self.machine.tap(keys, frames, gap)

    def type(self, text: str, frames: int = HOLD_FRAMES, gap: int = GAP_FRAMES) -> None:
        """Type text with the right shift per character (L mode; ``"\\n"`` is ENTER), timed
        as any 48K ROM takes it (``keystrokes.plan``)."""
        self.machine.type_text(text, frames, gap)

    def keyword(self, name: str) -> None:
        """Enter a K-mode keyword (``"PRINT"`` is P) as the ROM editor expects."""
        key = " ".join(name.upper().split())
        if key not in KEYWORD_KEYS:
            raise HarnessError(f"unknown K-mode keyword {name!r}; known: "
                               + ", ".join(KEYWORD_KEYS))
        self.machine.type_keys([KEYWORD_KEYS[key]])

    def load_quoted_empty(self) -> None:
        """Type LOAD "" and ENTER as the running ROM takes it (``boot.load_quoted``: J, SYMBOL
        SHIFT+P twice, ENTER in K mode; spelled on a ROM without it)."""
        boot.load_quoted(self.machine)

    # -- waits ------------------------------------------------------------------------------

    def wait(self, frames: int) -> None:
        """Run ``frames`` whole frames."""
        self.machine.run_frames(frames)

    def fail(self, message: str) -> HarnessError:
        """A HarnessError with ``message``, the frame and the screen as text."""
        return HarnessError(f"{message} (at frame {self.frame})\nscreen:\n"
                            + format_screen(self.lines()))

    def wait_until(self, predicate: Callable[[Session], bool], budget: int = DEFAULT_BUDGET,
                   what: str | None = None) -> int:
        """Run frames until ``predicate(self)`` holds; return the frames it took."""
        start = self.frame
        if self.machine.run_until(condition=lambda _m: predicate(self), max_frames=budget):
            return self.frame - start
        name = what or getattr(predicate, "__name__", "condition")
        raise self.fail(f"waited for {name} for {budget} frames in vain")

    def wait_text(self, text: str, budget: int = DEFAULT_BUDGET) -> int:
        """Run frames until ``text`` is on the screen (within a line, or in the game's message
        lines as they flow: :meth:`in_message`); return the frames taken."""
        return self.wait_until(lambda s: s.find(text) is not None or s.in_message(text),
                               budget, f"text {text!r} on the screen")

    def wait_input(self, budget: int = DEFAULT_BUDGET) -> int:
        """Run until the game waits for a key with all keys up (PC = ``keys_wait.wait``);
        return the frames taken (0 when it is there already)."""
        return self.wait_pc(INPUT_WAIT, budget)

    def wait_pc(self, where: int | str, budget: int = DEFAULT_BUDGET) -> int:
        """Run until the PC reaches an address or symbol; return the frames taken."""
        addr = self.address(where)
        start = self.frame
        if self.machine.run_until(pc=addr, max_frames=budget):
            return self.frame - start
        name = f"{where} (0x{addr:04X})" if isinstance(where, str) else f"0x{addr:04X}"
        raise self.fail(f"waited for PC = {name} for {budget} frames in vain")

    # -- reading ----------------------------------------------------------------------------

    def charset(self) -> bytes:
        """The 768 bytes of glyphs 32..127 used to read the screen."""
        if self.font is None:
            return video.charset_from_memory(self.machine.memory)
        base = self.address(self.font)
        return bytes(self.machine.memory[(base + i) & 0xFFFF] for i in range(768))

    def lines(self) -> list[str]:
        """The screen as 24 strings of 32 characters (unknown cells '?')."""
        return video.screen_text(self.machine.memory, self.charset())

    def text(self) -> str:
        """The screen as one string of 24 lines."""
        return "\n".join(self.lines())

    def row(self, n: int) -> str:
        """Screen line ``n`` (0–23)."""
        if not 0 <= n < 24:
            raise IndexError(f"screen row {n} is not in 0..23")
        return self.lines()[n]

    def find(self, text: str) -> tuple[int, int] | None:
        """(row, column) of the first occurrence of ``text`` within a line, or None."""
        for n, line in enumerate(self.lines()):
            col = line.find(text)
            if col >= 0:
                return n, col
        return None

    def message_rows(self) -> list[str]:
        """The game's message lines (``MSG_TOP`` .. ``MSG_TOP + MSG_HEIGHT - 1`` of the symbol
        map; none without them) with their trailing spaces cut."""
        if "MSG_TOP" not in self.symbols or "MSG_HEIGHT" not in self.symbols:
            return []
        top, height = self.symbols["MSG_TOP"], self.symbols["MSG_HEIGHT"]
        return [line.rstrip() for line in self.lines()[top:top + height]]

    def message(self) -> str:
        """The message lines as one text, as the game flowed it (msg.asm's msg_print): a line
        break is a space between words; empty lines dropped."""
        return " ".join(row.strip() for row in self.message_rows() if row.strip())

    def in_message(self, text: str) -> bool:
        """Whether ``text`` is in the message lines read across their breaks: the game wraps
        at word boundaries (dropping a space at a line's start) and breaks a word longer than
        a line anywhere, so a break may stand for a space of ``text`` or for nothing between
        two characters."""
        rows = self.message_rows()
        if len(rows) < 2 or not text.strip():
            return False
        return _flowed(text).search("\n".join(rows)) is not None

    def attributes(self, row: int, col: int) -> Attributes:
        """Ink, paper, bright and flash of the cell at (row, col)."""
        if not (0 <= row < 24 and 0 <= col < 32):
            raise IndexError(f"cell ({row}, {col}) is off the 24x32 screen")
        byte = self.machine.memory[ATTR_FILE + 32 * row + col]
        return Attributes(byte & 7, byte >> 3 & 7, bool(byte & 0x40), bool(byte & 0x80))

    def screenshot(self, path: str | os.PathLike[str]) -> None:
        """Save the last frame as PNG."""
        self.machine.screenshot(path)

    def peek(self, where: int | str) -> int:
        """The byte at an address or symbol."""
        return self.machine.memory[self.address(where)]

    def peek16(self, where: int | str) -> int:
        """The little-endian word at an address or symbol."""
        addr = self.address(where)
        mem = self.machine.memory
        return mem[addr] | mem[(addr + 1) & 0xFFFF] << 8

    def poke(self, where: int | str, value: int) -> None:
        """Write a byte to RAM (writes to the ROM are refused)."""
        addr = self.address(where)
        if addr < ROM_SIZE:
            raise HarnessError(f"cannot poke the ROM at 0x{addr:04X}")
        self.machine.memory[addr] = value & 0xFF

    def poke16(self, where: int | str, value: int) -> None:
        """Write a little-endian word."""
        addr = self.address(where)
        self.poke(addr, value & 0xFF)
        self.poke((addr + 1) & 0xFFFF, (value >> 8) & 0xFF)

    # -- the game ---------------------------------------------------------------------------

    def state(self):
        """The game's state block decoded (:class:`zxmonopoly.harness.game.GameState`);
        HarnessError when the game is not loaded or its symbol map is not the session's."""
        return game.decode_state(self.machine.memory, self.symbols)

    def events(self):
        """Every event the game has declared since the session began
        (:class:`zxmonopoly.harness.events.Event`, in words), oldest first: the ring is
        read at every frame's end and once more now (read only: nothing is written back)."""
        self._drain_events(self.machine)
        return list(self._record)

    def _drain_events(self, machine) -> None:
        """The frame listener that reads what is new in the game's event ring (nothing
        without the game)."""
        from zxmonopoly.harness import events

        drain = self._drain
        if drain is None or drain.symbols is not self.symbols:
            if not events.has_record(self.symbols):
                return
            drain = self._drain = events.EventDrain(self.symbols)
        self._record.extend(drain.drain(machine.memory, machine.frame))

    def rig_dice(self, a: int, b: int) -> None:
        """Choose the game's next throw (the v_rig_dice hook; used once)."""
        game.rig_dice(self.machine.memory, self.symbols, a, b)

    def seed(self, value: int) -> None:
        """Write the game's random state (the v_seed hook; after the title's key, before the
        setup shuffles the packs)."""
        game.seed(self.machine.memory, self.symbols, value)

    def watch(self, condition: str):
        """Turn on a watch (``"pc in game"``, ``"sp in 0xFF00..0xFFFF"``, ``"v_phase <= 4"``,
        ``"invariants"``: :mod:`zxmonopoly.harness.watch`), checked at once and while the
        machine runs; WatchViolation at the first violation. Returns the Watch."""
        from zxmonopoly.harness.watch import Watcher

        if getattr(self, "_watcher", None) is None:
            self._watcher = Watcher(self)
        return self._watcher.add(condition)

    def unwatch(self, condition: str | None = None) -> None:
        """Turn off the watch written ``condition`` (every watch when None)."""
        if getattr(self, "_watcher", None) is not None:
            self._watcher.remove(condition)
        elif condition is not None:
            raise HarnessError(f"no watch {condition!r} is on")

    def position(self):
        """A :class:`zxmonopoly.harness.position.Position` of the running game: edits of the
        state block checked together and written by ``apply()`` (or at the end of a ``with``
        block); PositionError when the game could not reach the position."""
        from zxmonopoly.harness.position import Position

        return Position(self)


def tape_frames(path: str | os.PathLike[str]) -> int:
    """How many frames a tape plays for (its signal's length, pauses included)."""
    from zxmonopoly.tape import signal_of

    return -(-int(signal_of(Path(path)).end) // FRAME_TSTATES)


def load_budget(path: str | os.PathLike[str], fast: bool = True) -> int:
    """Frames allowed from typing LOAD "" to the game's first wait for a key: the fast
    load's budget, and for a real load the tape's length and REAL_LOAD_MARGIN more."""
    if fast:
        return GAME_LOAD_BUDGET[True]
    return int(tape_frames(path) * (1 + REAL_LOAD_MARGIN)) + GAME_LOAD_BUDGET[True]


def _flowed(text: str) -> re.Pattern[str]:
    """A pattern finding ``text`` in message lines joined by newlines: each run of spaces
    may be spaces or a line break (with spaces either side), and a line break may fall
    between any two other characters."""
    parts: list[str] = []
    for word in re.split(r"( +)", text):
        if not word:
            continue
        if word.startswith(" "):
            parts.append(r"(?: +| *\n *)")
        else:
            parts.append(r"\n?".join(re.escape(ch) for ch in word))
    return re.compile("".join(parts))


def _loaded_game(session: Session, tape: Path, real_load: bool) -> Session:
    """A session not booted yet, taken through the boot-and-load recipe (``spectrum/boot.py``:
    the boot's frames, LOAD "" typed, PLAY for a real load) to the title's wait for a key."""
    boot.boot_and_load(session.machine, tape, boot_frames=session.boot_frames,
                       real_load=real_load)
    session.wait_input(load_budget(tape, fast=not real_load))
    return session


_game_cache: dict[str, Path] = {}


def _game_snapshot(tape: Path, symbols: Path, engine: str | None) -> Path:
    """The .szx of the game at its title screen, made once per process per build."""
    digest = hashlib.sha1(tape.read_bytes() + symbols.read_bytes()).hexdigest()
    path = _game_cache.get(digest)
    if path is not None and path.is_file():
        return path
    directory = Path(tempfile.mkdtemp(prefix="zxmonopoly-game-"))
    atexit.register(shutil.rmtree, directory, True)
    session = _loaded_game(Session(engine=engine, symbols=symbols, boot=False), tape, False)
    path = directory / f"title-{digest[:12]}.szx"
    session.save_snapshot(path)
    _game_cache[digest] = path
    return path
