"""The game's record of events: the ring of event records in its state block, read by the
host (never written) and put in words.

The game declares each event itself (``src/game/events.asm``): a record of ``EV_SIZE`` bytes
at ``v_event_ring`` + (n mod ``EV_SLOTS``) * ``EV_SIZE`` for the event numbered n (from 0),
published by the store of ``v_event_count`` (the events written, modulo 65,536: one word, one
instruction). The ring overwrites its oldest record. A reader (:class:`EventDrain`) keeps its
own count of what it has read, takes the difference to the game's count modulo 65,536, reads
the records it has not read yet (at most ``EV_SLOTS`` - 1) and, when more went by between two
reads, says how many in a ``lost`` event, so that a loss is never silent. It must read at least
once every 32,767 events (:data:`COUNT_HALF` - 1) to count what it missed: a difference of
32,768 or more is the count gone back (a snapshot loaded, the program started again), and the
reader goes on from there. It writes nothing into the machine: an observer must not change
what it observes (issue 44). Every number here (offsets, kinds, parties) comes from the symbol
map, the harness's contract.

Money events (kinds up to ``EVK_MONEY_LAST``) say that party A paid party B an amount, and why;
:meth:`Event.money` gives what each player's cash gained or lost by it, so a player's cash is
always 1,500 plus the sum of its money events (``tests/game/test_events.py`` checks it).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from zxmonopoly.harness import game
from zxmonopoly.harness.errors import HarnessError
from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST, SQUARES

#: Symbols the record needs in the map (besides the kinds, ``EVK_*``).
REQUIRED = ("v_event_count", "v_event_ring", "EV_SLOTS", "EV_SIZE", "EV_KIND", "EV_A", "EV_B",
            "EV_SQUARE", "EV_AMOUNT", "EV_EXTRA", "EV_BANK", "EV_PARKING", "EVK_MONEY_LAST")
#: The game's count of events is a word: differences are taken modulo this ...
COUNT_MODULUS = 0x10000
#: ... and one of this or more is the count gone back, not events written.
COUNT_HALF = COUNT_MODULUS // 2
#: The kind given to the events a reader missed: more than the ring holds went by unread.
LOST = "lost"
#: A party to a money move: a player 1..6, or one of these.
BANK = "the Bank"
PARKING = "Free Parking"
PACKS = ("Chance", "Community Chest")
PACK_CARDS = (CHANCE, COMMUNITY_CHEST)
JAIL_IN = {"JAIL_BY_SQUARE": "the Go to Jail square", "JAIL_BY_CARD": "a card",
           "JAIL_BY_DOUBLES": "three doubles in a row"}
JAIL_OUT = {"JAIL_OUT_DOUBLE": "threw a double", "JAIL_OUT_CARD": "used a Get Out of Jail Free "
            "card", "JAIL_OUT_FINE": "paid the £50 fine"}
GAME_END = {"END_LAST_PLAYER": "one player is left", "END_BREAK": "ended by CAPS SHIFT+SPACE",
            "END_TIME_UP": "the short game's time is up"}
VOID = {"VOID_ASSETS": "beyond the bidder's cash and property"}
#: Kinds whose EV_B is a byte of data, not a party (the first die).
DATA_B = ("throw", "move", "first_throw")


@dataclass(frozen=True)
class Event:
    """One event of the game, as the game declared it, with its words.

    ``a`` and ``b`` are parties (a player numbered 1..6 as on the screen, :data:`BANK` or
    :data:`PARKING`) or, for kinds that carry data there (``throw`` and ``first_throw``: ``b``
    is the first die; ``move``: ``b`` is the square left), that byte. ``square`` is a square
    0..39 or the kind's byte (a card: pack * 16 + number); ``frame`` the frame at whose end the
    host read it.
    """

    kind: str
    a: int | str | None
    b: int | str | None
    square: int
    amount: int
    extra: int
    frame: int
    text: str
    money_kind: bool = False

    def money(self) -> dict[int, int]:
        """What each player's cash changed by (players 1..6; empty for other kinds)."""
        if not self.money_kind:
            return {}
        out: dict[int, int] = {}
        if isinstance(self.a, int):
            out[self.a] = out.get(self.a, 0) - self.amount
        if isinstance(self.b, int):
            out[self.b] = out.get(self.b, 0) + self.amount
        return out

    def __str__(self) -> str:
        """The event in words."""
        return self.text


def kind_names(symbols: Mapping[str, int]) -> dict[int, str]:
    """The kinds by value: ``EVK_RENT`` -> ``"rent"``."""
    return {symbols[name]: name[4:].lower() for name in symbols
            if name.startswith("EVK_") and name != "EVK_MONEY_LAST"}


def has_record(symbols: Mapping[str, int]) -> bool:
    """Whether a symbol map has the event ring (a game built with the record)."""
    return all(name in symbols for name in REQUIRED)


class EventDrain:
    """Reads the ring out of a machine's memory, and gives each record its words; one reader,
    with its own count of what it has read. It only reads the machine."""

    def __init__(self, symbols: Mapping[str, int]):
        if not has_record(symbols):
            raise HarnessError("the symbol map has no event ring (v_event_ring, EV_*)")
        self.symbols = symbols
        self.kinds = kind_names(symbols)
        self.read = 0  # the game's count of events written (v_event_count), at the last drain
        self.restarts = 0  # times the count went back (a snapshot loaded, a restart)

    def written(self, memory) -> int:
        """The game's count of the events written since the program started, modulo 65,536
        (``v_event_count``: 0 at the start)."""
        at = self.symbols["v_event_count"]
        return memory[at] | memory[at + 1] << 8

    def _slot(self, count: int) -> int:
        s = self.symbols
        return s["v_event_ring"] + (count % s["EV_SLOTS"]) * s["EV_SIZE"]

    def drain(self, memory, frame: int) -> list[Event]:
        """The records the game has published since the last drain, oldest first, after a
        ``lost`` event when more than the ring holds went by unread; [] while the game is not
        running, and when the count went back (then on from there). Reads only."""
        s = self.symbols
        if not game.game_running(memory, s):
            return []
        written = self.written(memory)
        unread = (written - self.read) % COUNT_MODULUS
        if unread >= COUNT_HALF:  # the machine went back (a snapshot, a restart): on from here
            self.read, unread = written, 0
            self.restarts += 1
        keep = min(unread, s["EV_SLOTS"] - 1)  # the slot at the count is the next overwritten
        out: list[Event] = []
        if unread > keep:
            missed = unread - keep
            out.append(Event(LOST, None, None, 0, missed, 0, frame,
                             f"{missed} event(s) not read: more than the ring's "
                             f"{keep} went by between two reads"))
        names = _player_names(memory, s)
        size = s["EV_SIZE"]
        for number in range(written - keep, written):
            at = self._slot(number)
            out.append(self.event(bytes(memory[at:at + size]), frame, names))
        self.read = written
        return out

    def event(self, raw: bytes, frame: int, names: Mapping[int, str]) -> Event:
        """One record decoded and put in words."""
        s = self.symbols
        kind_code = raw[s["EV_KIND"]]
        kind = self.kinds.get(kind_code, f"kind {kind_code}")
        a, b = raw[s["EV_A"]], raw[s["EV_B"]]
        square, extra = raw[s["EV_SQUARE"]], raw[s["EV_EXTRA"]]
        amount = raw[s["EV_AMOUNT"]] | raw[s["EV_AMOUNT"] + 1] << 8
        money = kind_code <= s["EVK_MONEY_LAST"]
        party_a = self.party(a)
        party_b = b if kind in DATA_B else self.party(b)
        words = _Words(self, names)
        text = words.text(kind, party_a, party_b, square, amount, extra, money)
        return Event(kind, party_a, party_b, square, amount, extra, frame, text, money)

    def party(self, value: int) -> int | str:
        """A party's byte: a player 0..5 as 1..6, the Bank or Free Parking."""
        if value == self.symbols["EV_BANK"]:
            return BANK
        if value == self.symbols["EV_PARKING"]:
            return PARKING
        return value + 1

    def constant(self, table: Mapping[str, str], value: int) -> str:
        """The words for one of the game's constants (JAIL_BY_* ...) by its value."""
        for name, words in table.items():
            if self.symbols.get(name) == value:
                return words
        return f"#{value}"


def _player_names(memory, symbols: Mapping[str, int]) -> dict[int, str]:
    out = {}
    for n in range(1, symbols["MAX_PLAYERS"] + 1):
        at = game.player_field_address(symbols, n, "P_NAME")
        out[n] = game._name(bytes(memory[at:at + symbols["NAME_LENGTH"] + 1]))
    return out


def square_name(index: int) -> str:
    """A square's name (its index when it is no square)."""
    return SQUARES[index].name if 0 <= index < len(SQUARES) else f"square {index}"


def card_words(code: int) -> str:
    """A card (pack * 16 + number) as its pack and text."""
    pack, number = code >> 4, code & 0x0F
    if pack >= len(PACKS) or number >= len(PACK_CARDS[pack]):
        return f"card {code:#04x}"
    return f'{PACKS[pack]} "{PACK_CARDS[pack][number].text}"'


class _Words:
    """The sentence of each kind."""

    def __init__(self, drain: EventDrain, names: Mapping[int, str]):
        self.drain, self.names = drain, names

    def who(self, party: int | str | None) -> str:
        if isinstance(party, int):
            name = self.names.get(party, "")
            return f"{party} {name}".rstrip()
        return party or "nobody"

    def text(self, kind: str, a, b, square: int, amount: int, extra: int,
             money: bool) -> str:
        if money and kind == "dealt":
            return (f"{self.who(a)} is dealt {square_name(square)} and {square_name(extra)}, "
                    f"paying £{amount}")
        if money:
            return (f"{self.who(a)} pays {self.who(b)} £{amount}: "
                    f"{self.cause(kind, square, extra)}")
        sq = square_name(square)
        d = self.drain
        match kind:
            case "turn":
                return f"Turn {amount + 1}: {self.who(a)}"
            case "throw":
                double = " (a double)" if b == extra else ""
                return f"{self.who(a)} throws {b}+{extra}{double} from {sq}"
            case "move":
                way = " backwards" if extra else ""
                return f"{self.who(a)} moves{way} from {square_name(b)} to {sq}"
            case "card_drawn":
                return f"{self.who(a)} draws {card_words(square)}"
            case "jail_in":
                return f"{self.who(a)} goes to jail: {d.constant(JAIL_IN, extra)}"
            case "jail_out":
                return f"{self.who(a)} leaves jail: {d.constant(JAIL_OUT, extra)}"
            case "bid":
                return f"{self.who(a)} bids £{amount} for {sq}"
            case "auction_void":
                return (f"{self.who(a)}'s bid of £{amount} for {sq} voids the auction: "
                        f"{d.constant(VOID, extra)}; it stays with the Bank")
            case "auction_none":
                return f"No bid for {sq}: it stays with the Bank"
            case "rent_lost":
                if extra == d.symbols.get("RENT_LOST_THROW", 0):
                    why = "the next throw"
                else:  # the game ended before the owner asked (END_*)
                    why = f"the game ended ({d.constant(GAME_END, extra)})"
                return (f"{self.who(a)}'s rent to {self.who(b)} for {sq} is lost: not claimed "
                        f"before {why}")
            case "deed":
                return f"{sq} passes from {self.who(a)} to {self.who(b)}"
            case "trade":
                return f"{self.who(a)} and {self.who(b)} agree a deal"
            case "jail_card":
                pack = PACKS[0] if extra == 1 else PACKS[1]
                return (f"A {pack} Get Out of Jail Free card passes from {self.who(a)} to "
                        f"{self.who(b)}")
            case "bankrupt":
                return f"{self.who(a)} is bankrupt to {self.who(b)}"
            case "retire":
                return f"{self.who(a)} retires"
            case "game_end":
                return f"The game ends: {d.constant(GAME_END, extra)}"
            case "worth":
                return f"{self.who(a)}'s holdings are valued at £{amount}"
            case "winner":
                tie = " (tied for the highest total)" if extra else ""
                return f"{self.who(a)} wins with £{amount}{tie}"
            case "first_throw":
                return f"{self.who(a)} throws {b}+{extra} for who goes first"
            case "first":
                return f"{self.who(a)} goes first"
            case "decline":
                if extra == d.symbols.get("DECLINE_CASH"):
                    return f"{self.who(a)} cannot afford {sq} (£{amount}): not bought"
                return f"{self.who(a)} declines to buy {sq} for £{amount}"
        return f"{kind}: {a} {b} {square} {amount} {extra}"

    def cause(self, kind: str, square: int, extra: int) -> str:
        sq = square_name(square)
        building = "a hotel" if extra == 5 else "a house"
        return {
            "unknown": "no cause declared",
            "salary": "salary at GO",
            "buy": f"buys {sq}",
            "auction": f"wins the auction for {sq}",
            "rent": f"rent for {sq}",
            "tax": sq,
            "card": card_words(square),
            "fine": "the fine to leave jail",
            "build": f"{building} on {sq}",
            "sell": f"a building on {sq} sold back ({extra} left there)"
                    if extra < 5 else f"a building on {sq} sold back",
            "mortgage": f"mortgage on {sq}",
            "lift": f"lifts the mortgage on {sq} (£{extra} of it the 10% interest)",
            "interest": f"10% interest on mortgaged {sq}",
            "trade_cash": "cash in a deal",
            "shortage": f"{building} on {sq}, won in a shortage auction",
            "bankrupt_cash": "bankrupt: all its cash",
            "retire_cash": "retires: all its cash",
            "jackpot": "the Free Parking jackpot",
            "fine_card": f"the fine rather than a Chance ({card_words(square)})",
            "dealt": f"dealt {sq} and {square_name(extra)}",
        }.get(kind, kind)


def write_log(path: str | os.PathLike[str], record: Iterable[Event], title: str = "") -> None:
    """A record written to a file: a title line, then one event a line after its frame."""
    with open(path, "w", encoding="utf-8") as out:
        if title:
            out.write(f"# {title}\n")
        for event in record:
            out.write(f"{event.frame:8d}  {event.text}\n")
