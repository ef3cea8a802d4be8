"""A browser's page written in Python (tests, ``zxmonopoly bench --browser``): it speaks to
the host what the page of net/web/ speaks, through the lobby, and keeps the picture it gets.

:class:`PageClient` joins a room as a page (HELLO with the browser's role, AUTH, CLAIM),
takes its SEAT, and then, on a task of its own, applies each SCREEN to its picture
(net/screen.py's Decoder) and acknowledges it, keeps the ROSTER, the frames its keys went
down at (TAKEN) and answers the host's pings. Its keys go as the page's do (KEY).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Iterable

from zxmonopoly.spectrum.keyboard import resolve

from . import protocol as p
from .conn import Conn
from .errors import NetError
from .peer import JoinError
from .screen import Decoder

#: What a page says it runs (HELLO's version: the host compares a program's only).
PAGE_VERSION = "browser page"


def key_bytes(names: str | Iterable[str]) -> bytes:
    """Spectrum keys (``"CAPS SHIFT+5"``, ``("SYMBOL SHIFT", "P")``) as a KEY's 8 bytes."""
    rows = bytearray(8)
    for row, mask in resolve(names):
        rows[row] |= mask
    return bytes(rows)


class PageClient:
    """A page in the room ``room`` of the lobby at ``lobby`` (its ws:// or wss:// URL) with
    the join (or watching) ``code``: a player unless ``watch``. ``token``: a seat token kept
    from an earlier SEAT (zeros: none). ``ack``: acknowledge each frame (False: none, a page
    that stopped reading: the host holds back after WINDOW frames)."""

    def __init__(self, lobby: str, room: str, code: str, *, name: str = "", watch: bool = False,
                 token: bytes = bytes(p.TOKEN_SIZE), ca: str | None = None,
                 timeouts: p.Timeouts = p.TIMEOUTS, ack: bool = True) -> None:
        self.lobby, self.room, self.code = lobby, room, code
        self.name, self.watch, self.token, self.ca = name, watch, token, ca
        self.timeouts = timeouts
        self.ack = ack
        self.conn: Conn | None = None
        self.seat: p.Seat | None = None
        self.roster: p.Roster | None = None
        self.decoder = Decoder()
        #: The frame each key event went down at, by the event's number.
        self.taken: dict[int, int] = {}
        #: When each frame's SCREEN came (perf_counter), the last few hundred.
        self.arrived: dict[int, float] = {}
        self.screens = 0
        self.ended: str | None = None
        #: Called with the client after each SCREEN applied.
        self.screen_listeners: list[Callable[[PageClient], None]] = []
        self._event = 0
        self._reader: asyncio.Task | None = None

    @property
    def frame(self) -> int:
        """The frame of the picture it has (NO_FRAME: none yet)."""
        return self.decoder.frame

    @property
    def received(self) -> int:
        """Bytes that came from the lobby to it (its DATA)."""
        return self.conn.reader.total if self.conn is not None else 0  # type: ignore[attr-defined]

    async def join(self) -> p.Seat:
        """Enter the room, prove the code, take the seat; JoinError (one line) if not."""
        from .lobbylink import member_conn

        try:
            conn = await member_conn(self.lobby, self.room, self.ca, self.timeouts.handshake)
        except NetError as exc:
            raise JoinError(str(exc)) from None
        nonce = secrets.token_bytes(p.NONCE_SIZE)
        idle, stall = self.timeouts.handshake, self.timeouts.message
        key = p.code_key(self.code)
        try:
            conn.send(p.Hello(p.PROTOCOL_VERSION, self.watch, nonce, bytes(p.HASH_SIZE),
                              bytes(p.HASH_SIZE), PAGE_VERSION, self.name, browser=True))
            challenge = await conn.read(idle, stall)
            if isinstance(challenge, p.Bye):
                raise JoinError(f"the host refused: {challenge.reason}")
            if not isinstance(challenge, p.Challenge):
                raise JoinError(f"{challenge.NAME} message out of order: CHALLENGE was due")
            conn.send(p.Auth(p.peer_proof(key, challenge.nonce, nonce)))
            to_peer, to_host = p.session_keys(key, challenge.nonce, nonce)
            conn.seal(to_host, to_peer, "the host")
            conn.send(p.Claim(self.token))
            seat = await conn.read(idle, stall, clear_bye=True)
        except (p.ProtocolError, asyncio.IncompleteReadError, TimeoutError) as exc:
            conn.abort()
            raise JoinError(f"room {self.room}: {exc or 'closed during the handshake'}") \
                from None
        if isinstance(seat, p.Bye):
            conn.close()
            raise JoinError(f"the host refused: {seat.reason}")
        if not isinstance(seat, p.Seat):
            conn.abort()
            raise JoinError(f"{seat.NAME} message out of order: SEAT was due")
        if not p.proof_ok(p.host_proof(key, challenge.nonce, nonce), seat.mac):
            conn.abort()
            raise JoinError("the host does not know the join code (its proof is wrong)")
        self.conn, self.seat, self.token = conn, seat, seat.token
        self._reader = asyncio.ensure_future(self._read_loop())
        return seat

    async def _read_loop(self) -> None:
        conn = self.conn
        assert conn is not None
        try:
            while True:
                message = await conn.read(self.timeouts.silence, self.timeouts.message)
                if isinstance(message, p.Screen):
                    self.decoder.apply(message)
                    self.screens += 1
                    self.arrived[message.frame] = time.perf_counter()
                    self.arrived.pop(message.frame - 500, None)
                    if self.ack:
                        conn.send(p.Ack(message.frame))
                    for listener in self.screen_listeners:
                        listener(self)
                elif isinstance(message, p.Ping):
                    conn.send(p.Pong(message.stamp))
                elif isinstance(message, p.Roster):
                    self.roster = message
                elif isinstance(message, p.Taken):
                    self.taken[message.event] = message.frame
                elif isinstance(message, p.Bye):
                    self.ended = message.reason
                    return
                else:
                    raise p.ProtocolError(f"{message.NAME} message: not one a page is sent")
        except (p.ProtocolError, NetError) as exc:
            self.ended = f"the host broke the protocol ({exc})"
        except TimeoutError:
            self.ended = f"the host has been silent for {self.timeouts.silence:g} s"
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self.ended = "the connection to the host was lost"
        finally:
            conn.finish()

    def send_key(self, kind: int, source: int, names: str | Iterable[str] = ()) -> int:
        """A KEY (p.KEY_DOWN, KEY_UP, KEY_TYPED) of the page's key ``source``; its number."""
        assert self.conn is not None
        self._event += 1
        keys = key_bytes(names) if names else bytes(8)
        self.conn.send(p.Key(self._event, kind, source, keys))
        return self._event

    def tap(self, source: int, names: str | Iterable[str]) -> int:
        """A key down and up at once (a tap: the host holds it its frames); the down's number."""
        event = self.send_key(p.KEY_DOWN, source, names)
        self.send_key(p.KEY_UP, source)
        return event

    async def close(self) -> None:
        """Leave (a BYE, then the connection closed)."""
        conn = self.conn
        if conn is None:
            return
        if self.ended is None:
            conn.send(p.Bye("left the game"))
        conn.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 2)
            except (TimeoutError, asyncio.CancelledError):
                self._reader.cancel()
