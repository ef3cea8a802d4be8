"""Watches: conditions on the machine checked while it runs, failing at the first violation.

``session.watch("pc in game")`` keeps the PC inside the game's program for as long as the
watch is on; ``"pc in ROM"``, ``"pc in 0x8000..0x9FFF"``, ``"sp in 0xFF00..0xFFFF"``,
``"v_houses_left <= 32"``, ``"word v_jackpot < 5000"`` and ``"invariants"`` are the other
forms (docs/harness.md, *Watches*). A violation raises :class:`WatchViolation` (a
HarnessError) with the frame, the PC, the SP and the screen, leaving the machine where it
was caught.

How each is checked:

* **PC watches are exact**: every address outside the allowed ranges is set in the CPU's
  breakpoint map, and the engines test that map after every instruction and interrupt
  acknowledge. A stop at one of them calls the machine's ``break_handlers``, where the watch
  raises. The first instruction fetched outside the range is caught, before it runs.
* **SP and value watches are exact too**: they are armed in the Spectrum engines
  (:meth:`~zxmonopoly.spectrum.Spectrum48.set_watches`), which check SP and the watched
  bytes or words after every instruction and interrupt acknowledge and stop at the first
  one broken; the machine's ``watch_handlers`` then raise here, with the PC at the
  instruction after the one that broke it. Up to 8 of them (an SP watch of several ranges
  is armed as the span of its ranges: a value in a gap between them is seen at the next
  frame end or stop). They are also checked at frame ends and breakpoint stops.
* **Invariant watches are sampled**: at every frame end and every stop at a breakpoint.

``monkey(session, frames, seed)`` presses random keys for ``frames`` frames (with whatever
watches are on); ``monkey FRAMES seed S`` in scripts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from zxmonopoly.harness import words
from zxmonopoly.harness.errors import HarnessError, format_screen
from zxmonopoly.harness.words import WordError
from zxmonopoly.spectrum.keyboard import KEYS
from zxmonopoly.z80.state import WATCH_ENTRIES

#: The Spectrum's ROM.
ROM_RANGE = (0x0000, 0x3FFF)


class WatchViolation(HarnessError):
    """A watch broken while the machine ran: the frame, PC, SP and the screen."""


@dataclass
class Watch:
    """One condition on the machine (parsed from its text by :func:`parse_watch`)."""

    text: str
    kind: str                                   # "pc", "sp", "value", "invariants"
    ranges: tuple = ()                          # pc/sp: ((lo, hi) | ("game",) | ...)
    name: str | int = ""                        # value: symbol or address
    width: int = 1                              # value: 1 or 2 bytes
    op: str = ""
    value: int | tuple[int, int] = 0
    _allowed: list[tuple[int, int]] = field(default_factory=list)
    _set_here: list[int] = field(default_factory=list)


def _range_word(word: str) -> tuple:
    """``ROM``, ``game``, ``A..B`` (numbers or symbols) -> a range spec."""
    low = word.lower()
    if low in ("rom", "game"):
        return (low,)
    if ".." not in word:
        raise WordError(f"expected ROM, game or A..B (numbers or symbols), got {word!r}")
    lo, hi = word.split("..", 1)
    return (words.address(lo), words.address(hi))


def parse_watch(text: str) -> Watch:
    """A watch from its text: ``pc in RANGE[, RANGE]``, ``sp in A..B``, ``[word] NAME OP V``
    (OP one of :data:`~zxmonopoly.harness.words.COMPARISONS`, or ``in A..B``); WordError
    when malformed or ``invariants``."""
    parts = text.replace(",", " ").split()
    if not parts:
        raise WordError("expected 'watch pc in ROM|game|A..B', 'watch sp in A..B', "
                        "'watch [word] NAME OP VALUE' or 'watch invariants'")
    low = [w.lower() for w in parts]
    if low == ["invariants"]:
        return Watch(text, "invariants")
    if low[0] in ("pc", "sp"):
        if len(parts) < 3 or low[1] != "in":
            raise WordError(f"expected '{low[0]} in RANGE', e.g. 'pc in game' or "
                            "'sp in 0xFF00..0xFFFF'")
        ranges = tuple(_range_word(w) for w in parts[2:])
        if low[0] == "sp" and any(len(r) == 1 for r in ranges):
            raise WordError("an SP watch takes A..B ranges (numbers or symbols)")
        return Watch(text, low[0], ranges)
    width = 1
    if low[0] in ("word", "byte"):
        width = 2 if low[0] == "word" else 1
        parts, low = parts[1:], low[1:]
    if len(parts) != 3:
        raise WordError("expected '[word] NAME OP VALUE', e.g. 'v_houses_left <= 32' or "
                        "'word v_jackpot in 0..5000'")
    name = words.address(parts[0])
    top = 0xFF if width == 1 else 0xFFFF
    what = f"a value that fits in a {'byte' if width == 1 else 'word'} (0-{top})"
    if low[1] == "in":
        lo, hi = parts[2].split("..", 1) if ".." in parts[2] else ("", "")
        if not lo:
            raise WordError(f"expected A..B after 'in', got {parts[2]!r}")
        bounds = (words.number(lo, what), words.number(hi, what))
        if max(bounds) > top:
            raise WordError(f"expected {what}, got {parts[2]!r}")
        return Watch(text, "value", name=name, width=width, op="in", value=bounds)
    op = words.comparison(parts[1])
    value = words.number(parts[2], what)
    if value > top:
        raise WordError(f"expected {what}, got {parts[2]!r}")
    return Watch(text, "value", name=name, width=width, op=op, value=value)


def parse_line(command: str, rest: str) -> tuple[str, tuple]:
    """A script's ``watch``, ``unwatch`` or ``monkey`` line -> (op, args)."""
    if command == "watch":
        return "watch", (parse_watch(rest).text,)
    if command == "unwatch":
        if rest.strip().lower() in ("", "all"):
            return "unwatch", (None,)
        return "unwatch", (parse_watch(rest).text,)
    parts = rest.lower().split()
    if len(parts) != 3 or parts[1] != "seed":
        raise WordError("expected 'monkey FRAMES seed S'")
    return "monkey", (words.frames(parts[0]), words.number(parts[2], "a seed"))


def run_step(session: Any, op: str, args: tuple) -> bool:
    """Run a script step of this module; False for another op."""
    if op == "watch":
        session.watch(args[0])
    elif op == "unwatch":
        session.unwatch(args[0])
    elif op == "monkey":
        monkey(session, args[0], args[1])
    else:
        return False
    return True


# -- the watcher ------------------------------------------------------------------------------


class Watcher:
    """The watches on one session: breakpoints for the PC ones, a break handler and a frame
    listener for all."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.watches: list[Watch] = []
        machine = session.machine
        machine.break_handlers.append(self._at_break)
        machine.watch_handlers.append(self._at_break)
        machine.frame_listeners.append(self._at_frame)

    def _resolve(self, where: int | str) -> int:
        return self.session.address(where)

    def _ranges(self, watch: Watch) -> list[tuple[int, int]]:
        """The allowed (lo, hi) address ranges, inclusive."""
        s = self.session.symbols
        out = []
        for spec in watch.ranges:
            if spec == ("rom",):
                out.append(ROM_RANGE)
            elif spec == ("game",):
                for name in ("GAME_ORIGIN", "program_end", "IM2_JUMP"):
                    if name not in s:
                        raise HarnessError(f"'pc in game' needs {name} in the symbol map "
                                           f"({s.source}): start with the game")
                out.append((s["GAME_ORIGIN"], s["program_end"] - 1))
                out.append((s["IM2_JUMP"], s["IM2_JUMP"]))   # the interrupt's JP isr
            else:
                lo, hi = self._resolve(spec[0]), self._resolve(spec[1])
                if lo > hi:
                    raise HarnessError(f"watch {watch.text!r}: range 0x{lo:04X}..0x{hi:04X} "
                                       "is empty")
                out.append((lo, hi))
        return out

    def add(self, text: str) -> Watch:
        """Turn a watch on (checked at once, then while the machine runs)."""
        watch = parse_watch(text)
        if watch.kind == "value" and isinstance(watch.name, str):
            self._resolve(watch.name)       # a KeyError naming the map now, not later
        if watch.kind in ("pc", "sp"):
            watch._allowed = self._ranges(watch)
        if watch.kind == "pc":
            bp = self.session.machine.cpu.breakpoints
            allowed = bytearray(0x10000)
            for lo, hi in watch._allowed:
                allowed[lo:hi + 1] = b"\1" * (hi - lo + 1)
            for address in range(0x10000):
                if not allowed[address] and not bp[address]:
                    bp[address] = 1
                    watch._set_here.append(address)
        self.watches.append(watch)
        try:
            self._arm()
        except HarnessError:
            self.watches.pop()
            raise
        self._check(watch)
        return watch

    def _arm(self) -> None:
        """Give the SP and value watches on to the engine, which checks them every instruction."""
        entries = []
        for watch in self.watches:
            if watch.kind == "sp":
                entries.append((-1, 2, min(lo for lo, _ in watch._allowed),
                                max(hi for _, hi in watch._allowed), True))
            elif watch.kind == "value":
                entries.append((self._resolve(watch.name), watch.width,
                                *_value_range(watch)))
        if len(entries) > WATCH_ENTRIES:
            raise HarnessError(f"{len(entries)} SP and value watches are on: the engines "
                               f"check {WATCH_ENTRIES} at most")
        self.session.machine.set_watches(entries)

    def remove(self, text: str | None = None) -> None:
        """Turn off the watch of that text (every watch when None)."""
        keep = []
        key = None if text is None else parse_watch(text).text.split()
        for watch in self.watches:
            if key is None or watch.text.split() == key:
                bp = self.session.machine.cpu.breakpoints
                for address in watch._set_here:
                    bp[address] = 0
            else:
                keep.append(watch)
        if key is not None and len(keep) == len(self.watches):
            raise HarnessError(f"no watch {text!r} is on (on: "
                               f"{', '.join(w.text for w in self.watches) or 'none'})")
        self.watches = keep
        self._arm()

    def _at_break(self, _machine) -> None:
        for watch in self.watches:
            self._check(watch)

    def _at_frame(self, _machine) -> None:
        for watch in self.watches:
            if watch.kind != "pc":
                self._check(watch)

    def _check(self, watch: Watch) -> None:
        cpu = self.session.machine.cpu
        if watch.kind in ("pc", "sp"):
            value = cpu.pc if watch.kind == "pc" else cpu.sp
            if not any(lo <= value <= hi for lo, hi in watch._allowed):
                shown = ", ".join(f"0x{lo:04X}..0x{hi:04X}" for lo, hi in watch._allowed)
                self._fail(watch, f"{watch.kind.upper()} 0x{value:04X} is outside {shown}")
        elif watch.kind == "value":
            at = self._resolve(watch.name)
            mem = self.session.machine.memory
            got = mem[at] if watch.width == 1 else mem[at] | mem[(at + 1) & 0xFFFF] << 8
            if watch.op == "in":
                lo, hi = watch.value  # type: ignore[misc]
                ok = lo <= got <= hi
            else:
                ok = words.COMPARISONS[watch.op](got, watch.value)
            if not ok:
                self._fail(watch, f"{watch.name} holds {got}")
        else:
            from zxmonopoly.harness.invariants import check_invariants

            # Money is conserved between two money moves, not inside one: a move is several
            # stores (the payer's cash, the payee's or the Bank's account, the record), and a
            # frame can end between them. Where the game waits (the CPU halted) no move is
            # half done, so money is checked there and the rest everywhere.
            problems = check_invariants(self.session, money=bool(cpu.halted))
            if problems:
                self._fail(watch, "; ".join(problems))

    def _fail(self, watch: Watch, why: str) -> None:
        session = self.session
        cpu = session.machine.cpu
        where = _symbol_near(session.symbols, cpu.pc)
        raise WatchViolation(
            f"watch {watch.text!r} broken: {why} (frame {session.frame}, T {cpu.tstates}, "
            f"PC 0x{cpu.pc:04X}{where}, SP 0x{cpu.sp:04X})\nscreen:\n"
            + format_screen(session.lines()))


def _value_range(watch: Watch) -> tuple[int, int, bool]:
    """A value watch as the engines check it: (lo, hi, inside) -> the value must be in
    lo..hi (inside) or outside it."""
    top = 0xFF if watch.width == 1 else 0xFFFF
    v = watch.value
    if watch.op == "in":
        return v[0], v[1], True  # type: ignore[index]
    assert isinstance(v, int)
    return {"==": (v, v, True), "=": (v, v, True), "!=": (v, v, False),
            "<": (0, v - 1, True), "<=": (0, v, True),
            ">": (v + 1, top, True), ">=": (v, top, True)}[watch.op]


def _symbol_near(symbols, address: int) -> str:
    """`` = name+offset`` for the closest symbol at or below ``address`` (within 256)."""
    best = None
    for name in symbols:
        value = symbols[name]
        if value <= address and address - value < 256 and (best is None or value > best[1]):
            best = (name, value)
    if best is None:
        return ""
    return f" = {best[0]}" + (f"+{address - best[1]}" if address != best[1] else "")


# -- the monkey -------------------------------------------------------------------------------

PLAIN = [k for k in KEYS if k not in ("CAPS SHIFT", "SYMBOL SHIFT")]
#: Keys the game listens for most: weighted up so that random play gets past the setup.
USEFUL = list("0123456789") + ["Y", "N", "D", "R", "M", "O", "C", "A", "H", "T", "P", "Q",
                              "ENTER", "SPACE"]


def random_combo(rng: random.Random) -> str:
    """A key or combination: mostly a useful key, else any key alone or with a shift,
    CAPS SHIFT+SPACE (BREAK) now and then, or two keys at once."""
    r = rng.random()
    if r < 0.45:
        return rng.choice(USEFUL)
    if r < 0.65:
        return rng.choice(PLAIN)
    if r < 0.78:
        return "CAPS SHIFT+" + rng.choice(PLAIN)
    if r < 0.88:
        return "SYMBOL SHIFT+" + rng.choice(PLAIN)
    if r < 0.92:
        return "CAPS SHIFT+SPACE"
    if r < 0.96:
        return "CAPS SHIFT+SYMBOL SHIFT"
    a, b = rng.sample(PLAIN, 2)
    return f"{a}+{b}"


def monkey(session: Any, frames: int, seed: int) -> list[tuple[str, int, int]]:
    """Press random keys (:func:`random_combo`, held 1-6 frames, then 0-20 frames up, now
    and then a long idle) for ``frames`` frames; the same seed presses the same keys.
    Returns the log of (keys, held, gap); the watches on stay checked throughout."""
    rng = random.Random(seed)
    end = session.frame + frames
    log: list[tuple[str, int, int]] = []
    while session.frame < end:
        left = end - session.frame
        if rng.random() < 0.02:
            idle = min(left, rng.choice((50, 100, 300, 1000)))
            log.append(("", 0, idle))
            session.wait(idle)
            continue
        combo = random_combo(rng)
        hold = min(left, rng.randint(1, 6))
        gap = min(left - hold, rng.choice((0, 1, 2, 3, 5, 8, 20)))
        log.append((combo, hold, gap))
        session.hold(combo, hold)
        if gap:
            session.wait(gap)
    session.release()
    return log


__all__ = ["Watch", "WordError", "WatchViolation", "Watcher", "monkey", "parse_watch",
           "random_combo"]
