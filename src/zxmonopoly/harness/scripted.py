"""Scripted players for network play without a window: each reads its own machine's screen and
types its own keys, as a person at one window would, through the setup (:func:`setup_typist`:
tests/net, ``bench --net``) or a whole game (:func:`game_typist`: tests/net/test_whole_game.py).

A typist is a lockstep node's ``local`` keys (docs/network.md, "The library"): called with the
node for each frame the node schedules, it gives that frame's
:class:`~zxmonopoly.spectrum.frameinput.FrameInput`. It knows the game (its prompts, its wait
for a key, its message lines, by the symbol map); the network knows nothing of it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from zxmonopoly.spectrum import NO_INPUT, FrameInput, Spectrum48
from zxmonopoly.spectrum.keyboard import keys_for_character
from zxmonopoly.spectrum.keystrokes import HOLD_FRAMES

from .session import INPUT_WAIT

if TYPE_CHECKING:
    from .game import GameState

#: The pound sign as the screen reads it (the game's CH_POUND, character 0x60 of its font).
POUND = "£"
#: Frames a player holds back a key another player may be about to press: the current
#: player's D while someone else's rent is due (the owner presses R), his ENTER that closes
#: an auction (others may bid). About a second: well past any input delay (at most 25).
HOLD_BACK = 50
#: Frames a typist waits, once its keys are all up, before it presses a prompt's answer again
#: when the game still waits at the very same lines: as a person does when his key was not
#: taken (another player's key went down with it, and one keyboard reads one key: lockstep
#: gives every player's keys to the one machine, docs/network.md). Two seconds.
RETRY = 100
#: Cash a game typist keeps in hand: it buys, bids and pays fines only out of the rest.
KEEP = 150


class Stepping(Protocol):
    """What a typist reads of the node it types for (a ``net.lockstep.Node`` is one)."""

    machine: Spectrum48
    #: The next frame the node emulates.
    frame: int
    #: The frame the keys asked for now are for.
    next_local: int


def message_rows(symbols: Mapping[str, int]) -> range:
    """The screen rows of the game's message lines (``MSG_TOP``, ``MSG_HEIGHT``)."""
    return range(symbols["MSG_TOP"], symbols["MSG_TOP"] + symbols["MSG_HEIGHT"])


def message_of(machine: Spectrum48, symbols: Mapping[str, int]) -> str:
    """The game's message lines on ``machine``'s screen as one line of single spaces."""
    lines = machine.screen_text()
    return " ".join(" ".join(lines[row].split()) for row in message_rows(symbols)).strip()


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
    """A player's keys for a lockstep node's ``advance``: called with the node for each frame
    the node sends keys for (``node.next_local``), it reads the node's own machine and
    answers."""

    symbols: Mapping[str, int]
    rules: list[Rule]
    hold: int = HOLD_FRAMES
    typed: list[str] = field(default_factory=list)  # prompts answered, for test messages
    _queue: list[tuple[str, ...]] = field(default_factory=list)
    _press: tuple[tuple[str, ...], int, int] | None = None  # keys, first frame, end frame
    _busy_until: int = 0
    _wait_since: int | None = None  # the frame the game's present wait for a key was seen from
    _asked: tuple[str, list[tuple[str, ...]]] | None = None  # the last rule's lines, answer

    def waiting(self, node: Stepping) -> bool:
        """Whether the game waits for a key now (halted at keys_wait.wait)."""
        cpu = node.machine.cpu
        return bool(cpu.halted) and cpu.pc == self.symbols[INPUT_WAIT]

    def waited(self, node: Stepping) -> int:
        """Frames the game has waited for a key at its present prompt (0: it does not)."""
        return 0 if self._wait_since is None else node.frame - self._wait_since

    def message(self, node: Stepping) -> str:
        """The message lines as one line of single spaces."""
        return message_of(node.machine, self.symbols)

    def __call__(self, node: Stepping) -> FrameInput:
        target = node.next_local
        waiting = self.waiting(node)
        if not waiting:
            self._wait_since = None
        elif self._wait_since is None:
            self._wait_since = node.frame
        if self._press is not None:
            keys, start, end = self._press
            if target < end:
                return FrameInput.pressed(keys) if target >= start else NO_INPUT
            self._press = None
        if node.frame < self._busy_until or not waiting:
            return NO_INPUT
        if not self._queue:
            self._queue = self._again(node) or list(self.answer(node))
            if not self._queue:
                return NO_INPUT
        keys = self._queue.pop(0)
        self._press = (keys, target, target + self.hold)
        self._busy_until = target + self.hold + 2  # the game saw it, and every key up
        return FrameInput.pressed(keys)

    def _again(self, node: Stepping) -> list[tuple[str, ...]]:
        """The last rule's answer once more if the game still waits at the very lines it
        answered ``RETRY`` frames after its keys went up (its key was not taken)."""
        if self._asked is None or node.frame < self._busy_until + RETRY:
            return []
        lines, combos = self._asked
        if self.message(node) != lines:
            return []
        self.typed.append(f"again: {lines}")
        return list(combos)

    def answer(self, node: Stepping) -> Sequence[tuple[str, ...]]:
        """The keys for the prompt the game waits at now (none: not ours): the first rule
        whose prompt is shown, if it is armed."""
        text = self.message(node)
        for rule in self.rules:
            found = re.search(rule.prompt, text) is not None
            if found and rule.armed:
                rule.armed = False
                self.typed.append(rule.prompt)
                self._asked = (text, list(rule.combos))
                return rule.combos
            if not found:
                rule.armed = True
        return ()


def setup_rules(number: int, name: str, *, host: bool, players: int,
                piece: int | None = None, minutes: int | None = None,
                deal: bool = False) -> list[Rule]:
    """The rules of player ``number`` (1..6) in the game's setup (docs/game.md, "Playing"):
    the host starts the title, every player takes its piece, says it is not a computer,
    types its name; the host says all are in, answers the short game (N, or Y and a length
    of ``minutes``, and whether the Banker deals the deeds) and N to the three options; each
    player throws for who goes first."""
    piece = piece or number
    rules = []
    if host:
        rules.append(Rule("PRESS ANY KEY", [("SPACE",)]))
    rules.append(Rule(f"Player {number}: press a piece's number",
                      [(str(piece),), ("N",), *text_combos(name), ("ENTER",)]))
    if host:
        rules.append(Rule(f"Player {players + 1}: press a piece's number", [("ENTER",)]))
        if minutes is None:
            rules.append(Rule(r"Short game\? \(Y/N\)", [("N",)]))
        else:
            hours, rest = divmod(minutes, 60)
            rules += [Rule(r"Short game\? \(Y/N\)",
                           [("Y",), *text_combos(str(hours) if hours else ""), ("ENTER",),
                            *text_combos(str(rest)), ("ENTER",)]),
                      Rule(r"Deal each player two Title Deeds", [("Y",) if deal else ("N",)])]
        rules += [Rule("Option: taxes and fines", [("N",)]),
                  Rule("Option: no auctions", [("N",)]),
                  Rule("Option: players may retire", [("N",)])]
    rules.append(Rule(f"{number} {re.escape(name)}: press D", [("D",)]))
    return rules


def setup_typist(symbols: Mapping[str, int], number: int, name: str, *, host: bool,
                 players: int, piece: int | None = None) -> Typist:
    """The keys of player ``number`` (1..6) in the game's setup, N to the short game
    (:func:`setup_rules`)."""
    return Typist(symbols, setup_rules(number, name, host=host, players=players, piece=piece))


#: The game's own questions in a turn, each asked of the current player (src/game/*.asm).
_BUY = re.compile(rf"Buy (.+?) for {POUND}(\d+)\? \(Y/N\)")
_TURN = re.compile(r"Turn of (\d) ")
#: An auction's status (its start may have scrolled off the three lines: the square's name).
_AUCTION = re.compile(r"Bidder's number, or ENTER to (?:close|sell):")
_AUCTION_SQUARE = re.compile(r"AUCTION: (.+?):")
_HIGHEST = re.compile(rf"highest {POUND}(\d+) by (\d) ")
#: A human bidder's amount being typed: the whole message is his number and name ("1 ANNE
#: bids £", auction.asm shows it alone: issue 45), then the field (digits, then dots). A name
#: may hold any character the game's name field takes (letters, digits, punctuation).
_BIDDING = re.compile(rf"^(\d) .+ bids {POUND} ?(\d*)\.*$")
_OWES = re.compile(r"(\d) \S+ owes .*Q: the computer chooses")
#: A mortgaged property handed over (a bankruptcy's): its new owner may lift the mortgage.
_LIFT = re.compile(rf"(\d) \S+ pays the Bank 10% interest, .* Lift it now for {POUND}(\d+)\? "
                   r"\(Y/N\)")


@dataclass
class GameTypist(Typist):
    """A human player at his own window through a whole game: the setup's rules, then in
    the game he answers only what his player is asked, from the screen (the player a
    message names, else the current player, from the game's state block in RAM): D on his
    turn, R when the rent is his, Y to buy what leaves him ``keep`` in cash, bids at an
    auction up to the price and his cash less ``keep``, ENTER to close his own auction
    when nobody bids, his Get Out of Jail Free card, a fine he can spare, Q to let the
    computer raise money he is short of, Y to lift a mortgage handed to him if he can spare
    the loan. What he did is counted for test messages. (Names may hold digits and
    punctuation; a name with a space is not read where a pattern takes it as one word.)"""

    number: int = 1
    name: str = ""
    keep: int = KEEP
    hold_back: int = HOLD_BACK
    #: Each answer given in the game: (frame, what, detail).
    answers: list[tuple[int, str, str]] = field(default_factory=list)
    #: Prompts seen in the game that this typist left to others (or does not know), each
    #: (frame, text) once as it came: for the message of a test that found nobody answering.
    unanswered: list[tuple[int, str]] = field(default_factory=list)
    _claimed: set[tuple[int, int, int]] = field(default_factory=set)
    _bid: int | None = None
    _auctioned: str = ""  # the square at auction, as its status last showed it

    def count(self, what: str) -> int:
        """How many answers of a kind (``"throw"``, ``"buy"``, ``"rent"``, ``"bid"``...)."""
        return sum(1 for _frame, kind, _detail in self.answers if kind == what)

    def answer(self, node: Stepping) -> Sequence[tuple[str, ...]]:
        """The setup's rules before the game; in it, what this player is asked (none: not
        his prompt, or one he does not know)."""
        from .game import decode_state  # (not needed by setup typists)

        state = decode_state(node.machine.memory, self.symbols)
        if state.phase == "over":
            return ()
        if state.phase != "playing":
            return super().answer(node)
        text = self.message(node)
        keys = self._play(node, state, text)
        if keys:
            return keys
        if not self.unanswered or self.unanswered[-1][1] != text:
            self.unanswered.append((node.frame, text))
            del self.unanswered[:-20]
        return ()

    def _said(self, node: Stepping, what: str, detail: str, *keys: tuple[str, ...]
              ) -> Sequence[tuple[str, ...]]:
        """``keys``, the answer noted."""
        self.answers.append((node.frame, what, detail))
        return keys

    def _play(self, node: Stepping, state: GameState, text: str) -> Sequence[tuple[str, ...]]:
        me = self.number
        mine = state.current == me
        cash = state.players[me - 1].cash
        turn = _TURN.search(text)
        if turn:
            rent = state.rent
            if rent is not None and rent.owner == me:
                claim = (rent.payer, rent.square, state.turns)
                if claim not in self._claimed:  # once: "No rent is due" must not loop
                    self._claimed.add(claim)
                    return self._said(node, "rent", rent.square_name, ("R",))
            if int(turn.group(1)) != me:
                return ()
            if rent is not None and rent.owner != me and self.waited(node) < self.hold_back:
                return ()  # the owner's R first: two keys at once would be one keyboard's
            return self._said(node, "throw", text, ("D",))
        if _BIDDING.search(text) or _AUCTION.search(text):
            return self._auction(node, state, text, cash)
        if mine and (buy := _BUY.search(text)):
            price = int(buy.group(2))
            if cash - price >= self.keep:
                return self._said(node, "buy", buy.group(1), ("Y",))
            return self._said(node, "decline", buy.group(1), ("N",))
        if mine and "Get Out of Jail Free card?" in text:
            return self._said(node, "card", "", ("Y",))
        if mine and "fine and leave jail?" in text:
            pay = cash - 50 >= self.keep
            return self._said(node, "jail fine" if pay else "jail stay", "",
                              ("Y",) if pay else ("N",))
        if mine and text.startswith("Take a Chance"):
            fine = cash - 10 >= self.keep
            return self._said(node, "card fine" if fine else "chance", "",
                              ("N",) if fine else ("Y",))
        owes = _OWES.search(text)
        if owes:
            if int(owes.group(1)) != me:
                return ()
            return self._said(node, "raise", text, ("Q",))
        lift = _LIFT.search(text)
        if lift:
            if int(lift.group(1)) != me:
                return ()
            pay = cash - int(lift.group(2)) >= self.keep
            return self._said(node, "lift" if pay else "keep mortgaged", text,
                              ("Y",) if pay else ("N",))
        if mine and text.endswith(". Press a key"):
            return self._said(node, "key", text, ("SPACE",))
        return ()

    def _auction(self, node: Stepping, state: GameState, text: str, cash: int
                 ) -> Sequence[tuple[str, ...]]:
        """An auction: his bid typed digit by digit as the field shows it, or his number to
        bid, or ENTER to close it (the current player, once nobody has bid for a while)."""
        me = self.number
        bidding = _BIDDING.search(text)
        if bidding:  # someone typed his number: only he types the amount
            if int(bidding.group(1)) != me or self._bid is None:
                return ()
            want, typed = str(self._bid), bidding.group(2)
            if typed == want:
                return self._said(node, "bid", want, ("ENTER",))
            if want.startswith(typed):
                return (keys_for_character(want[len(typed)]),)
            return (("CAPS SHIFT", "0"),)  # DELETE
        named = _AUCTION_SQUARE.search(text)
        if named:
            self._auctioned = named.group(1)
        highest = _HIGHEST.search(text)
        high, leader = (int(highest.group(1)), int(highest.group(2))) if highest else (0, 0)
        price = _price(self._auctioned)
        limit = min(price, cash - self.keep)
        offer = high + max(10, price // 10) if high else max(10, price // 2 // 10 * 10)
        if leader != me and offer <= limit:
            self._bid = offer
            return (keys_for_character(str(me)),)
        self._bid = None
        if state.current == me and self.waited(node) >= self.hold_back:
            return self._said(node, "close", self._auctioned, ("ENTER",))
        return ()


def _price(name: str) -> int:
    """The printed price of a square by the name the game shows (its name or short one)."""
    from zxmonopoly.rules.data import SQUARES

    for square in SQUARES:
        if name in (square.name, square.short):
            return square.price
    return 0


def game_typist(symbols: Mapping[str, int], number: int, name: str, *, host: bool,
                players: int, minutes: int, deal: bool = True, keep: int = KEEP,
                piece: int | None = None) -> GameTypist:
    """Player ``number``'s keys through a whole short game of ``minutes`` (the host sets it
    up, with the Banker's deal of two deeds each when ``deal``): :class:`GameTypist`."""
    rules = setup_rules(number, name, host=host, players=players, piece=piece,
                        minutes=minutes, deal=deal)
    return GameTypist(symbols, rules, number=number, name=name, keep=keep)
