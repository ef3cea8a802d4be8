"""A scripted player for network play without a window: it reads its own machine's screen and
types its own keys (tests/net, ``bench --net``), as a person at one window would."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from zxmonopoly.spectrum.keyboard import keys_for_character
from zxmonopoly.spectrum.keystrokes import HOLD_FRAMES

from .lockstep import RELEASED, Keys, Node

#: Where the game waits for a key with every key up (keys.asm: ``keys_wait.wait``, a HALT).
INPUT_WAIT = "keys_wait.wait"
#: The game's message lines (docs/game.md, "The screen").
MESSAGE_ROWS = (21, 22, 23)
PIECES = ("Boot", "Car", "Dog", "Hat", "Iron", "Ship")


@dataclass
class Rule:
    """When ``prompt`` (a regular expression) is in the message lines and the game waits for
    a key: type ``combos``, each when the game waits again. Fires again only after the
    prompt has gone (a tie's second throw)."""

    prompt: str
    combos: Sequence[tuple[str, ...]]
    armed: bool = True


def text_combos(text: str) -> list[tuple[str, ...]]:
    """Each character of ``text`` as the keys a player presses for it."""
    return [keys_for_character(ch) for ch in text]


@dataclass
class Typist:
    """A player's keys for :meth:`Node.advance`: called with the node for each frame the
    node sends keys for (``node.next_local``), it reads the node's own machine and answers."""

    symbols: Mapping[str, int]
    rules: list[Rule]
    hold: int = HOLD_FRAMES
    typed: list[str] = field(default_factory=list)  # prompts answered, for test messages
    _queue: list[tuple[str, ...]] = field(default_factory=list)
    _press: tuple[tuple[str, ...], int, int] | None = None  # keys, first frame, end frame
    _busy_until: int = 0

    def waiting(self, node: Node) -> bool:
        """Whether the game waits for a key now (halted at keys_wait.wait)."""
        cpu = node.machine.cpu
        return bool(cpu.halted) and cpu.pc == self.symbols[INPUT_WAIT]

    def message(self, node: Node) -> str:
        """The message lines as one line of single spaces."""
        lines = node.machine.screen_text()
        return " ".join(" ".join(lines[row].split()) for row in MESSAGE_ROWS).strip()

    def __call__(self, node: Node) -> Keys:
        target = node.next_local
        if self._press is not None:
            keys, start, end = self._press
            if target < end:
                return Keys.pressed(keys) if target >= start else RELEASED
            self._press = None
        if node.frame < self._busy_until or not self.waiting(node):
            return RELEASED
        if not self._queue:
            text = self.message(node)
            for rule in self.rules:
                found = re.search(rule.prompt, text) is not None
                if found and rule.armed:
                    rule.armed = False
                    self._queue = list(rule.combos)
                    self.typed.append(rule.prompt)
                    break
                if not found:
                    rule.armed = True
            if not self._queue:
                return RELEASED
        keys = self._queue.pop(0)
        self._press = (keys, target, target + self.hold)
        self._busy_until = target + self.hold + 2  # the game saw it, and every key up
        return Keys.pressed(keys)


def setup_typist(symbols: Mapping[str, int], number: int, name: str, *, host: bool,
                 players: int, piece: int | None = None) -> Typist:
    """The keys of player ``number`` (1..6) in the game's setup (docs/game.md, "Playing"):
    the host starts the title, every player takes its piece, says it is not a computer,
    types its name; the host says all are in and answers N to the short game and the three
    options; each player throws for who goes first."""
    piece = piece or number
    rules = []
    if host:
        rules.append(Rule("PRESS ANY KEY", [("SPACE",)]))
    rules.append(Rule(f"Player {number}: press a piece's number",
                      [(str(piece),), ("N",), *text_combos(name), ("ENTER",)]))
    if host:
        rules += [Rule(f"Player {players + 1}: press a piece's number", [("ENTER",)]),
                  Rule(r"Short game\? \(Y/N\)", [("N",)]),
                  Rule("Option: taxes and fines", [("N",)]),
                  Rule("Option: no auctions", [("N",)]),
                  Rule("Option: players may retire", [("N",)])]
    rules.append(Rule(f"{number} {re.escape(name)}: press D", [("D",)]))
    return Typist(symbols, rules)
