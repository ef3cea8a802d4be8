"""A browser's seat at the host (docs/network.md, "A browser's seat"): a page that has no
machine of its own plays or watches the host's.

A page joins through the lobby as any member does (HELLO, CHALLENGE, AUTH, with the join
code's key: a browser's WebCrypto has PBKDF2, HKDF and AES-GCM), says it is a browser in its
HELLO, and sends a CLAIM (its seat token, sealed). The host answers SEAT instead of WELCOME:
no machine travels. From then on:

- **The picture and the sound.** After every frame the host emulates, each page gets a
  SCREEN: the frame's change from the last one sent to it (net/screen.py), one delta made a
  frame for all the pages that have that base. A page acknowledges (ACK) the frames it drew;
  one more than :data:`WINDOW` frames behind is sent nothing until it catches up (its next
  SCREEN is against the last one it was sent, so nothing is lost but the frames between).
- **Keys.** A playing page is a player slot whose keys the host stamps: the page's key
  events (KEY: down, up, a character typed) go into a key feed of its own with the window's
  rules (spectrum/presses.py: a tap held its frames, in order), and the host takes the
  seat's keys for each frame when it takes its own, sends them to every other peer as that
  player's keys (INPUTS), and tells the page the frame each press went down at (TAKEN). With
  no peer that runs a machine, nobody needs the keys ahead: the host takes them for the frame
  it emulates next (0 frames ahead); else its own delay ahead. A watching page's KEY is a
  fault (``a spectator sent keys``).
- **Its seat.** SEAT gives the page a token; a page that comes back (closed and opened
  again, or its connection lost) with that token, or with the same name as a page that left,
  takes the slot back while it is free (other joiners take other slots first).
- **Who is there.** ROSTER: the players and watchers, their delays and round trips, the
  pause; sent when it changes and every ROSTER_EVERY pings (2 s).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from zxmonopoly.spectrum.keyboard import Combo
from zxmonopoly.spectrum.keyfeed import KeyFeed
from zxmonopoly.spectrum.presses import TYPED_GAP, TYPED_HOLD, Press

from . import protocol as p
from . import screen
from .lockstep import Node, Player


class PageConn(Protocol):
    """What a page's seat reads and sets of its connection (host.py's PeerConn is one)."""

    slot: int | None
    spectator: bool
    admitted: bool
    name: str
    rtts: deque[float]
    last_input: float
    browser: Page | None

    @property
    def who(self) -> str: ...
    def send(self, message: p.Message) -> None: ...
    async def read(self, idle: float | None, stall: float) -> p.Message: ...


class SeatHost(Protocol):
    """What the pages' seats read and do of the host (host.py's Host is one; a protocol, so
    that this module does not import the host)."""

    lock: threading.RLock
    conns: list  # the PeerConns
    players: dict[int, Player]
    timeouts: p.Timeouts
    ended: str | None
    max_players: int
    max_spectators: int
    next_local: int
    frame: int
    delay: int
    delays: dict[int, int]
    frame_listeners: list[Callable[[Node], None]]

    @property
    def paused_at(self) -> int | None: ...
    def note(self, text: str, quiet: bool = False) -> None: ...
    def machine_peers(self) -> list: ...
    def free_slots(self) -> list[int]: ...
    def _update_delays(self) -> None: ...

#: Frames a page may be behind the host's picture (its last ACK) before it is sent no more
#: until it catches up: a second.
WINDOW = 50
#: Key events waiting for the frame they go down at, a page, at most.
MAX_PENDING = 64
#: A ROSTER every so many of the host's pings (2 s), for the round trips.
ROSTER_EVERY = 8
#: Seconds a page that left keeps its slot from other joiners (while others are free).
KEEP_SEAT = 600.0
NO_TOKEN = bytes(p.TOKEN_SIZE)


def combo_of(keys: bytes) -> Combo:
    """A KEY's bytes (a bit set for each key of a half-row pressed) as the key feed's
    combination of (half-row, mask) pairs."""
    return tuple((row, 1 << bit) for row in range(8) for bit in range(5) if keys[row] >> bit & 1)


@dataclass
class SeatRecord:
    """A playing page's seat as the host keeps it: its slot, name, token, when it left."""

    slot: int
    name: str
    token: bytes
    left: float | None = None


@dataclass(eq=False)
class Page:
    """One page at the host: its connection, its key feed (a player's), its picture."""

    conn: PageConn
    record: SeatRecord | None  # None: watching
    feed: KeyFeed = field(default_factory=KeyFeed)
    #: Key events waiting to go down: (the page's number, the press).
    pending: deque[tuple[int, Press]] = field(default_factory=deque)
    sent: int = p.NO_FRAME
    sent_picture: bytes = screen.ZERO_PICTURE
    acked: int = 0
    #: Frames not sent because the page was WINDOW behind.
    skipped: int = 0
    #: SCREEN messages and their bytes (sealed) sent.
    screens: int = 0
    keys: int = 0
    #: Frames the feed has counted when its frames began (the first frame it was asked for).
    first: int | None = None

    @property
    def slot(self) -> int | None:
        """The player slot (None: watching)."""
        return self.conn.slot


class Browsers:
    """The pages at a host: admitted after their handshake, their keys stamped, their
    pictures sent. ``labels`` are the hosted program's keys marked on the page's keyboard
    ((Spectrum key name, what it does) each: the caller knows its program)."""

    def __init__(self, host: SeatHost, labels: Sequence[tuple[str, str]] = ()) -> None:
        self.host = host
        self.labels = tuple((p.clip(k, p.MAX_KEY_NAME), p.clip(v, p.MAX_LABEL))
                            for k, v in labels)[:p.MAX_LABELS]
        self.pages: list[Page] = []
        self.records: dict[bytes, SeatRecord] = {}
        self.sound = screen.Sound()
        host.frame_listeners.append(self._frame)

    # -- joining ----------------------------------------------------------------------------

    async def handshake(self, conn: PageConn, hello: p.Hello, nonce: bytes, rtt: float,
                        key: bytes) -> None:
        """After AUTH: the page's CLAIM, then its seat."""
        host = self.host
        claim = await conn.read(host.timeouts.handshake, host.timeouts.message)
        if isinstance(claim, p.Bye):
            raise p.ProtocolError(f"it gave up joining: {claim.reason or 'no reason'}")
        if not isinstance(claim, p.Claim):
            raise p.ProtocolError(f"{claim.NAME} message out of order: a browser's CLAIM was "
                                  "due")
        with host.lock:
            self._admit(conn, hello, nonce, rtt, claim.token, key)

    def reserved(self) -> set[int]:
        """Slots of pages that left, kept for them a while (others join elsewhere first)."""
        now = time.monotonic()
        return {r.slot for r in self.records.values()
                if r.left is not None and now - r.left < KEEP_SEAT}

    def _record(self, token: bytes, name: str) -> SeatRecord | None:
        """The seat a page comes back to: by its token, else a page's that left by its name."""
        if token != NO_TOKEN and token in self.records:
            return self.records[token]
        left = [r for r in self.records.values() if r.left is not None and r.name == name]
        return max(left, key=lambda r: r.left or 0.0) if left else None

    def _admit(self, conn: PageConn, hello: p.Hello, nonce: bytes, rtt: float, token: bytes,
               key: bytes) -> None:
        host = self.host
        if host.ended is not None:
            raise p.ProtocolError(f"the game is over ({host.ended})")
        name = p.clip(hello.name or ("spectator" if hello.spectator else "browser"), p.MAX_NAME)
        conn.name = name
        conn.rtts.append(rtt)
        conn.last_input = time.monotonic()
        record = None
        back = False
        if hello.spectator:
            watching = sum(1 for c in host.conns if c.slot is None)
            if watching >= host.max_spectators:
                raise p.ProtocolError(f"no room: {host.max_spectators} spectators at most")
            slot, join = None, p.NO_FRAME
        else:
            free = host.free_slots()
            record = self._record(token, name)
            if not free:
                raise p.ProtocolError(f"the game is full: {host.max_players} players at most")
            if record is not None and record.slot in free and record.left is not None:
                slot, back = record.slot, True
                record.left = None
                record.name = name
            else:
                slot = free[0]
                record = SeatRecord(slot, name, secrets.token_bytes(p.TOKEN_SIZE))
                self.records[record.token] = record
            join = max(host.next_local, host.frame)
            player = host.players.get(slot) or Player(slot, name)
            player.name = name
            player.spans.append([join, p.NO_FRAME])
            player.next = join
            host.players[slot] = player
        conn.slot, conn.spectator = slot, hello.spectator
        page = Page(conn, record, acked=host.frame)
        conn.browser = page
        conn.send(p.Seat(p.host_proof(key, nonce, hello.nonce),
                         p.NO_SLOT if slot is None else slot, join, self.ahead(),
                         record.token if record is not None else NO_TOKEN, name, self.labels))
        if slot is not None:
            for other in host.machine_peers():
                other.send(p.Join(slot, join, name))
        conn.admitted = True
        host.conns.append(conn)
        self.pages.append(page)
        if slot is not None:
            again = " took its seat back" if back else " joined"
            host.note(f"{conn.who}{again} from a browser: its keys count from frame {join}")
        else:
            host.note(f"{conn.who} is watching from a browser from frame {host.frame}")
        host._update_delays()
        self.roster()

    def ahead(self) -> int:
        """Frames ahead of the one emulated next that the pages' keys are taken for: the
        host's own delay when a peer runs a machine (it needs them in time), else none."""
        host = self.host
        return host.delay if host.machine_peers() else 0

    def gone(self, conn: PageConn) -> None:
        """A page's connection ended (under the host's lock): its seat kept for it a while."""
        page = conn.browser
        if page is None:
            return
        if page in self.pages:
            self.pages.remove(page)
        if page.record is not None:
            page.record.left = time.monotonic()
        self.roster()

    # -- keys -------------------------------------------------------------------------------

    def on_message(self, conn: PageConn, message: p.Message) -> None:
        """A page's KEY or ACK (under the host's lock)."""
        page = conn.browser
        assert page is not None
        if isinstance(message, p.Ack):
            if page.sent == p.NO_FRAME or message.frame > page.sent:
                raise p.ProtocolError(f"an ACK of frame {message.frame}, which it was not sent")
            page.acked = max(page.acked, message.frame)
            return
        assert isinstance(message, p.Key)
        if page.record is None or conn.slot is None:
            raise p.ProtocolError("a spectator sent keys")
        page.keys += 1
        combo = combo_of(message.keys)
        feed = page.feed
        if message.kind == p.KEY_UP:
            feed.release(("key", message.source))
            return
        if message.kind == p.KEY_TYPED:
            press = feed.press(("typed", message.event), combo, message.joystick,
                               frames=TYPED_HOLD, alone=True, after=TYPED_GAP)
        else:
            press = feed.press(("key", message.source), combo, message.joystick)
        if press is not None:
            if len(page.pending) >= MAX_PENDING:
                page.pending.popleft()
            page.pending.append((message.event, press))

    def schedule(self, last: int) -> None:
        """Take each playing page's keys for every frame up to ``last`` not yet taken; send
        them to the peers as that player's (under the host's lock)."""
        host = self.host
        peers = None
        for page in self.pages:
            slot = page.slot
            if slot is None:
                continue
            player = host.players[slot]
            if not player.playing:
                continue
            feed = page.feed
            while player.next <= last:
                frame = player.next
                feed.begin_frame()
                keys = feed.frame_input()
                down_at = feed.presses.frame
                while page.pending and page.pending[0][1].down_at is not None:
                    event, press = page.pending.popleft()
                    page.conn.send(p.Taken(event, frame - down_at + press.down_at))
                feed.advance()
                player.keys[frame] = keys
                player.next = frame + 1
                if peers is None:
                    peers = host.machine_peers()
                message = p.Inputs(slot, frame, keys.rows, keys.joystick)
                for other in peers:
                    host.forward(other, message)

    # -- the picture ------------------------------------------------------------------------

    def _frame(self, host: Node) -> None:
        """After each frame: each page's SCREEN (a delta made once for each base)."""
        if not self.pages:
            return
        frame = screen.capture(host.machine, host.frame, self.sound)
        made: dict[int, p.Screen] = {}
        for page in self.pages:
            if frame.number - page.acked > WINDOW:
                page.skipped += 1
                continue
            message = made.get(page.sent)
            if message is None:
                message = screen.encode(frame, page.sent, page.sent_picture)
                made[page.sent] = message
            page.conn.send(message)
            page.sent, page.sent_picture = frame.number, frame.picture
            page.screens += 1

    def roster(self) -> None:
        """Who is in the game, to every page (under the host's lock)."""
        if not self.pages:
            return
        host = self.host
        ahead = self.ahead()
        seated = [p.Seated(p.HOST_SLOT, p.HOST_KIND, host.delay, p.NO_RTT,
                           host.players[p.HOST_SLOT].name)]
        for conn in host.conns:
            rtt = min(p.NO_RTT - 1, round(max(conn.rtts) * 1000)) if conn.rtts else p.NO_RTT
            if conn.browser is not None:
                kind, delay = p.BROWSER_KIND, ahead if conn.slot is not None else 0
            else:
                kind = p.WINDOW_KIND
                delay = host.delays.get(conn.slot, 0) if conn.slot is not None else 0
            seated.append(p.Seated(p.NO_SLOT if conn.slot is None else conn.slot, kind,
                                   min(delay, 255), rtt, conn.name))
        message = p.Roster(p.ROSTER_PAUSED if host.paused_at is not None else 0,
                           tuple(seated[:p.MAX_ROSTER]))
        for page in self.pages:
            page.conn.send(message)
