"""``zxmonopoly lobby``: the service hosts and joiners both connect *out* to, so that nobody
needs an open port (docs/network.md, "Playing online: the lobby").

It speaks WebSocket (over TLS with ``--tls-cert``/``--tls-key``, or behind a TLS proxy such
as nginx or Caddy), so it passes wherever HTTPS does and a browser can reach it. It keeps
rooms: a host opens one and is told its name; members enter it by the name; from then on the
lobby relays the room's messages between the host and each member (net/lobbywire.py). What
it relays is sealed end to end with a key from the join code, which the lobby never receives:
it can neither read the game nor change it. Everything is bounded: connections per address
and those that have not said what they want, rooms per address and in all, members per room,
each message's size, each connection's rate of messages and bytes, what waits to be sent to
a slow reader; a room closes when its host leaves or nothing passes for ROOM_IDLE.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import ssl
import struct
import sys
import time
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode, apply_mask
from websockets.http11 import Request, Response
from websockets.protocol import OPEN

from . import lobbywire as w
from .host import DoorLog
from .lockstep import NetError
from .webfiles import WebFiles

log = logging.getLogger("zxmonopoly.lobby")

DEFAULT_LOBBY_PORT = 4849


@dataclass(frozen=True)
class Limits:
    """What the lobby allows (docs/network.md, "The lobby's limits"); tests shorten some."""

    #: Connections open at once in all, and from one address.
    connections: int = 4096
    per_address: int = 64
    #: Connections that have not yet said what they want (OPEN or ENTER): past it the one
    #: waiting longest is let go for a newcomer; and the seconds each has to say it.
    waiting: int = 256
    first_message: float = 5.0
    #: Rooms in all and opened from one address.
    rooms: int = 1000
    rooms_per_address: int = 4
    #: Messages and bytes a second (sustained, and the burst) of a host and of a member.
    host_rate: tuple[float, float] = (6000.0, 12000.0)
    host_bytes: tuple[float, float] = (4.0 * 2**20, 8.0 * 2**20)
    member_rate: tuple[float, float] = (300.0, 600.0)
    member_bytes: tuple[float, float] = (64.0 * 2**10, 256.0 * 2**10)
    #: Bytes waiting to be sent to one connection, and in all: past them, the slow reader (the
    #: one with the most waiting) is let go.
    outbox: int = 2 * 2**20
    outboxes: int = 64 * 2**20
    #: Seconds a room may pass nothing before it is closed; a room's name (and the host's
    #: token) is kept this long after its host left, so that the host can open it again.
    room_idle: float = 1800.0
    host_grace: float = 60.0


LIMITS = Limits()


class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` at once."""

    __slots__ = ("rate", "burst", "level", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.level = rate, burst, burst
        self.stamp = time.monotonic()

    def take(self, amount: float, now: float) -> bool:
        """Whether ``amount`` may pass now (it is taken if so)."""
        level = self.level + (now - self.stamp) * self.rate
        if level > self.burst:
            level = self.burst
        self.stamp = now
        if level < amount:
            self.level = level
            return False
        self.level = level - amount
        return True


@dataclass(eq=False)
class Client:
    """One WebSocket connection: who it is in which room, what waits to be sent to it."""

    ws: ServerConnection
    address: str
    since: float
    room: Room | None = None
    member: int | None = None  # None: the room's host (or not in a room yet)
    host: bool = False
    rate: Bucket | None = None
    volume: Bucket | None = None
    #: Messages to it relayed in this turn of the event loop, written together at its end.
    pending: list[bytes] = field(default_factory=list)
    #: Messages waiting their turn behind a full socket (written by the client's task).
    outbox: deque[bytes] = field(default_factory=deque)
    queued: int = 0
    #: A member's messages reach the host as DATA from it: the bytes before the data.
    head: bytes = b""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: Why it is being let go (after what waits has been sent), or None.
    closing: str | None = None
    #: Whether it is counted in by_address under ``address`` (not a proxy's own address).
    counted: bool = False
    #: Whether its task is sending a message from the outbox (then nothing is written past it).
    sending: bool = False

    @property
    def who(self) -> str:
        """How the lobby's log names it."""
        if self.room is None:
            return f"a connection from {self.address}"
        role = "the host" if self.host else f"member {self.member}"
        return f"{role} of room {self.room.name} ({self.address})"


@dataclass(eq=False)
class Room:
    """A room: its host, its members by number, when something last passed."""

    name: str
    token: bytes
    host: Client
    address: str
    members: dict[int, Client] = field(default_factory=dict)
    next_member: int = 1
    active: float = field(default_factory=time.monotonic)


class LobbyConnection(ServerConnection):
    """A WebSocket connection that the lobby counts from its first byte (the door). Once its
    client is in a room its frames are read here (the fast path, "The lobby's figures"): a
    whole binary frame is unmasked and relayed at once; any other frame (a ping, a pong, a
    close, text, a fragment) is handed whole to websockets, which also answers for anything
    wrong in a frame's header (unmasked, reserved bits, too long: from the header alone) and
    fails the connection as it would have."""

    lobby: Lobby
    #: The client in a room (set by the handler): its frames are read here from then on.
    relaying: Client | None = None
    #: Whole messages handed to websockets' own queue and not yet taken by the handler: while
    #: any wait, later ones wait behind them (their order is the seal's).
    queued: int = 0
    #: Whether frames are read here (True once relaying and websockets is between frames).
    fast: bool = False
    #: The fast path is over for good: websockets reads everything (it is closing).
    no_fast: bool = False
    #: The start of a frame not yet whole, and how long it must be before it is read again.
    partial: bytearray | None = None
    need: int = 0
    #: A fragmented message is under way (its frames are websockets').
    fragments: bool = False

    def process_event(self, event: object) -> None:
        if isinstance(event, Frame) and event.fin and event.opcode in (
                Opcode.BINARY, Opcode.TEXT, Opcode.CONT):
            self.queued += 1
        super().process_event(event)  # type: ignore[arg-type]

    def data_received(self, data: bytes) -> None:
        if self.fast:
            self._frames(data)
            return
        super().data_received(data)
        protocol = self.protocol
        if (self.relaying is not None and not self.no_fast and protocol.state is OPEN
                and not protocol.reader.buffer and protocol.current_size is None):
            self.fast = True  # websockets is between frames: the next bytes begin one

    def _frames(self, data: bytes) -> None:
        """Read the frames in ``data`` (after any begun before)."""
        partial = self.partial
        if partial is not None:
            partial += data
            if len(partial) < self.need:
                return
            data = bytes(partial)
            self.partial = None
        client = self.relaying
        assert client is not None
        relay = self.lobby._relay_now
        size = len(data)
        at = 0
        while True:
            left = size - at
            if left < 2:
                need = 2
                break
            first, second = data[at], data[at + 1]
            length = second & 0x7F
            head = 6  # two bytes, and the four of the mask
            if length == 126:
                head = 8
                if left < 4:
                    need = 4
                    break
                length = (data[at + 2] << 8) | data[at + 3]
            elif length == 127:
                head = 14
                if left < 10:
                    need = 10
                    break
                length = int.from_bytes(data[at + 2:at + 10], "big")
            opcode = first & 0x0F
            longest = self.protocol.max_message_size if opcode < 8 else 125
            if (not second & 0x80 or first & 0x70 or opcode not in _OPCODES
                    or (longest is not None and length > longest)):
                # Not a frame the lobby takes (unmasked, reserved bits, an unknown kind, too
                # long): websockets fails the connection from this header, before the rest.
                self._hand_over(data[at:])
                return
            end = at + head + length
            if end > size:
                need = head + length
                break
            if (first == _BINARY_FIN and not self.queued and not self.fragments
                    and client.closing is None and client.room is not None):
                relay(client, apply_mask(data[at + head:end], data[at + head - 4:at + head]))
            else:
                if opcode < 8:
                    self.fragments = not first & 0x80
                super().data_received(data[at:end])
                if self.protocol.state is not OPEN:  # a close, or a fault websockets found
                    self._hand_over(data[end:])
                    return
            at = end
        if at < size:
            self.partial = bytearray(data[at:])
            self.need = need

    def _hand_over(self, rest: bytes) -> None:
        """websockets reads everything from here on (it is failing or closing)."""
        self.fast, self.no_fast, self.partial = False, True, None
        if rest:
            super().data_received(rest)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self.lobby._arrive(self, transport):
            transport.abort()
            return
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lobby._depart(self)
        super().connection_lost(exc)


#: The first byte of a whole binary frame (FIN, no reserved bits, opcode 2).
_BINARY_FIN = 0x82
#: Frame kinds (RFC 6455): continuation, text, binary; close, ping, pong.
_OPCODES = frozenset((0, 1, 2, 8, 9, 10))
_DATA = bytes((w.DATA,))
_HEAD16 = struct.Struct(">BBH")
_HEAD64 = struct.Struct(">BBQ")


def _framed(data: bytes) -> bytes:
    """A server's frame header for one binary message of ``data``."""
    size = len(data)
    if size < 126:
        return bytes((_BINARY_FIN, size))
    if size < 65536:
        return _HEAD16.pack(_BINARY_FIN, 126, size)
    return _HEAD64.pack(_BINARY_FIN, 127, size)


class Lobby:
    """The lobby service on ``bind``:``port`` (WebSocket; TLS when ``tls`` is given). Rooms'
    names start with ``shard`` (a letter) when several lobbies share one address."""

    def __init__(self, bind: str = "127.0.0.1", port: int = DEFAULT_LOBBY_PORT, *,
                 tls: ssl.SSLContext | None = None, shard: str = "",
                 limits: Limits = LIMITS, out: TextIO | None = None,
                 proxies: frozenset[str] = frozenset()) -> None:
        if shard and (len(shard) != 1 or shard not in w.p.CODE_ALPHABET):
            raise NetError(f"--shard {shard!r}: one letter or digit of "
                           f"{w.p.CODE_ALPHABET} (not I, L, O or U)")
        self.bind, self.port, self.tls, self.shard = bind, port, tls, shard
        self.limits = limits
        self.out = out
        #: Addresses of TLS proxies in front (nginx, Caddy): a connection from one is counted
        #: under the address its X-Forwarded-For header gives, once its request is in.
        self.proxies = proxies
        self.rooms: dict[str, Room] = {}
        #: Names of rooms whose host left, kept a while for it: name -> (token, until).
        self.reserved: dict[str, tuple[bytes, float]] = {}
        self.clients: dict[ServerConnection, Client] = {}
        self.by_address: Counter[str] = Counter()
        self.rooms_by_address: Counter[str] = Counter()
        self.waiting: deque[ServerConnection] = deque()
        self.queued = 0  # bytes in every outbox
        #: Counts: rooms opened and closed, members entered; messages and bytes relayed.
        self.counts: Counter[str] = Counter()
        self.relayed = 0
        self.relayed_bytes = 0
        #: Clients with messages relayed in this turn of the event loop (written at its end).
        self._dirty: list[Client] = []
        self.door = DoorLog(self.say, period=60.0, lines=5)
        self.server: Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self._sweeper: asyncio.Task | None = None
        #: The browser's page and its files (read once).
        self.web = WebFiles()

    # -- the log ------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """One line of the lobby's log (and its output, if it has one)."""
        log.info("%s", text)
        if self.out is not None:
            print(f"zxmonopoly lobby: {text}", file=self.out, flush=True)

    # -- starting and stopping ----------------------------------------------------------------

    @property
    def url(self) -> str:
        """The address to give hosts and joiners (as this lobby sees itself)."""
        scheme = "wss" if self.tls is not None else "ws"
        host = f"[{self.bind}]" if ":" in self.bind else self.bind
        return f"{scheme}://{host}:{self.port}"

    async def start(self) -> None:
        """Listen (NetError when the address cannot be had)."""
        lobby = self

        class Connection(LobbyConnection):
            pass

        Connection.lobby = lobby
        try:
            self.server = await serve(
                self._handler, self.bind, self.port, ssl=self.tls, compression=None,
                max_size=w.MAX_MEMBER_MESSAGE, max_queue=4, open_timeout=self.limits.first_message,
                ping_interval=20, ping_timeout=20, close_timeout=2,
                process_request=self._http, create_connection=Connection,
                server_header="zxmonopoly lobby")
        except OSError as exc:
            raise NetError(f"cannot listen on {self.bind}:{self.port}: "
                           f"{exc.strerror or exc}") from None
        self.port = next(iter(self.server.sockets)).getsockname()[1]
        self._sweeper = asyncio.ensure_future(self._sweep())
        self.say(f"listening on {self.url}" + (f" (rooms {self.shard}...)" if self.shard
                                                else ""))

    async def close(self) -> None:
        """Close every room and connection and stop listening."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.server.wait_closed(), 5)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """A plain HTTP request (no WebSocket upgrade): a browser's page or one of its files
        (net/webfiles.py), else one line of what this is (a proxy's health check reads it)."""
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        page = self.web.answer(request)
        if page is not None:
            self.counts["pages served"] += 1
            return page
        body = (f"zxmonopoly lobby: {len(self.rooms)} rooms; join with "
                f"zxmonopoly play --join ROOM-CODE --lobby URL\n").encode()
        return Response(200, "OK", Headers([("Content-Type", "text/plain; charset=utf-8"),
                                            ("Content-Length", str(len(body)))]), body)

    # -- the door -------------------------------------------------------------------------------

    def _arrive(self, connection: ServerConnection, transport: asyncio.BaseTransport) -> bool:
        """A TCP connection: counted, or refused at once (too many from its address, or in
        all); past the waiting limit, the connection waiting longest is let go."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        limits = self.limits
        proxied = address in self.proxies
        if not proxied and self.by_address[address] >= limits.per_address:
            self.door.refused(f"a connection from {address}",
                              f"more than {limits.per_address} connections from one address")
            return False
        if len(self.clients) >= limits.connections:
            self.door.refused(f"a connection from {address}",
                              f"the lobby is full ({limits.connections} connections)")
            return False
        while len(self.waiting) >= limits.waiting:
            oldest = self.waiting.popleft()
            old = self.clients.get(oldest)
            self.door.refused(old.who if old else "a connection",
                              f"let go for a newcomer ({limits.waiting} waiting at most)")
            if oldest.transport is not None:
                oldest.transport.abort()
        client = Client(connection, address, time.monotonic(), counted=not proxied)
        self.clients[connection] = client
        if not proxied:
            self.by_address[address] += 1
        self.waiting.append(connection)
        return True

    def _behind_proxy(self, client: Client) -> None:
        """A connection through a proxy: counted under the address the proxy says it is from
        (the last of X-Forwarded-For, which the proxy itself wrote)."""
        request = client.ws.request
        forwarded = request.headers.get("X-Forwarded-For", "") if request is not None else ""
        real = forwarded.split(",")[-1].strip() or client.address
        if self.by_address[real] >= self.limits.per_address:
            raise w.LobbyError(f"more than {self.limits.per_address} connections from one "
                               "address")
        client.address, client.counted = real, True
        self.by_address[real] += 1

    def _depart(self, connection: ServerConnection) -> None:
        client = self.clients.pop(connection, None)
        if client is None:
            return
        if client.counted:
            self.by_address[client.address] -= 1
            if self.by_address[client.address] <= 0:
                del self.by_address[client.address]
        with contextlib.suppress(ValueError):
            self.waiting.remove(connection)
        self._leave(client)

    # -- a connection's life --------------------------------------------------------------------

    async def _handler(self, ws: ServerConnection) -> None:
        client = self.clients.get(ws)
        if client is None:  # let go before its handshake ended
            return
        sender = asyncio.ensure_future(self._pump(client))
        self._tasks.add(sender)
        sender.add_done_callback(self._tasks.discard)
        try:
            if not client.counted:
                self._behind_proxy(client)
            try:
                first = await asyncio.wait_for(ws.recv(), self._first_deadline(client))
            except TimeoutError:
                raise w.LobbyError(f"said nothing in {self.limits.first_message:g} s") from None
            self._taken(ws)
            with contextlib.suppress(ValueError):
                self.waiting.remove(ws)
            self._first(client, w.decode(first, host=None))
            if isinstance(ws, LobbyConnection):
                ws.relaying = client  # from now on, messages as they are parsed
            async for raw in ws:  # those queued before, and any that wait behind them
                self._taken(ws)
                if client.closing is not None:
                    break
                self._relay(client, raw)
        except w.LobbyError as exc:
            self._refuse(client, str(exc))
        except ConnectionClosed:
            pass
        finally:
            if client.closing is not None:
                # Read on (and throw away) while our close goes out: with its messages
                # unread the other side's answer to the close would never be seen.
                discard = asyncio.ensure_future(self._discard(ws))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(sender, 2)
                discard.cancel()
            sender.cancel()
            self._leave(client)

    @staticmethod
    async def _discard(ws: ServerConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for _ in ws:
                pass

    @staticmethod
    def _taken(ws: ServerConnection) -> None:
        if isinstance(ws, LobbyConnection) and ws.queued > 0:
            ws.queued -= 1

    def _relay_now(self, client: Client, raw: bytes) -> None:
        """A message relayed as it is parsed; a fault lets its client go."""
        try:
            self._relay(client, raw)
        except w.LobbyError as exc:
            self._refuse(client, str(exc))

    def _first_deadline(self, client: Client) -> float:
        return max(0.0, client.since + self.limits.first_message - time.monotonic())

    def _first(self, client: Client, message: w.LobbyMessage) -> None:
        """OPEN (a host) or ENTER (a member)."""
        limits = self.limits
        now = time.monotonic()
        if message.kind == w.OPEN:
            if self.rooms_by_address[client.address] >= limits.rooms_per_address:
                raise w.LobbyError(f"{limits.rooms_per_address} rooms are open from this "
                                   "address already")
            if len(self.rooms) >= limits.rooms:
                raise w.LobbyError(f"the lobby is full ({limits.rooms} rooms)")
            name, token = self._room_name(message)
            room = Room(name, token, client, client.address)
            self.rooms[name] = room
            self.rooms_by_address[client.address] += 1
            client.room, client.host = room, True
            client.rate = Bucket(*limits.host_rate)
            client.volume = Bucket(*limits.host_bytes)
            client.ws.protocol.max_message_size = w.MAX_MESSAGE  # its WELCOMEs, tapes
            self.counts["rooms opened"] += 1
            self._queue(client, w.room_message(name, token))
        elif message.kind == w.ENTER:
            room = self.rooms.get(message.room)
            if room is None and message.room in self.reserved:
                raise w.LobbyError(f"the host of room {message.room} is away; try again")
            if room is None:
                raise w.LobbyError(f"no room {message.room} in this lobby (the game is over, "
                                   "or the code is mistyped)")
            if len(room.members) >= w.MAX_MEMBERS:
                raise w.LobbyError(f"room {room.name} is full ({w.MAX_MEMBERS} at once)")
            member = room.next_member
            room.next_member = room.next_member % 0xFFFF + 1
            room.members[member] = client
            room.active = now
            client.room, client.member = room, member
            client.head = w.data_message(b"", member)
            client.rate = Bucket(*limits.member_rate)
            client.volume = Bucket(*limits.member_bytes)
            self.counts["members entered"] += 1
            self._queue(client, w.member_message(w.ENTERED, member))
            self._queue(room.host, w.member_message(w.ARRIVED, member))
        else:
            raise w.LobbyError(f"{message.name} message first: a connection starts with OPEN "
                               "or ENTER")

    def _room_name(self, message: w.LobbyMessage) -> tuple[str, bytes]:
        """A new room's name and token; or the host's own room again, by its token."""
        now = time.monotonic()
        for name, (_token, until) in list(self.reserved.items()):
            if until < now:
                del self.reserved[name]
        if message.room:
            kept = self.reserved.get(message.room)
            if kept is None or not secrets.compare_digest(kept[0], message.token):
                raise w.LobbyError(f"room {message.room} cannot be opened again (its host "
                                   f"left more than {self.limits.host_grace:g} s ago)")
            del self.reserved[message.room]
            return message.room, message.token
        for _ in range(100):
            name = w.new_room(self.shard)
            if name not in self.rooms and name not in self.reserved:
                return name, secrets.token_bytes(w.TOKEN_SIZE)
        raise w.LobbyError("no free room name: try again")

    def _relay(self, client: Client, raw: bytes | str) -> None:
        """One message of a room's host or member, passed on (a SEND straight; anything else
        decoded by lobbywire, which names what is wrong with it)."""
        now = time.monotonic()
        size = len(raw)
        rate, volume = client.rate, client.volume
        assert rate is not None and volume is not None
        if not rate.take(1, now):
            raise w.LobbyError(f"more than {rate.rate:,.0f} messages a second")
        if not volume.take(size, now):
            raise w.LobbyError(f"more than {volume.rate:,.0f} bytes a second")
        room = client.room
        assert room is not None
        kind = raw[0] if size and isinstance(raw, bytes) else None
        if client.host:
            if kind == w.SEND and size >= 3:
                member = room.members.get((raw[1] << 8) | raw[2])
                if member is not None:  # one that left meanwhile: dropped
                    self._queue(member, _DATA + raw[3:])
            else:
                message = w.decode(raw, host=True)
                if message.kind != w.KICK:
                    raise w.LobbyError(f"{message.name} message from a room's host")
                member = room.members.get(message.member)
                if member is not None and member.closing is None:
                    member.closing = "the host let it go"
                    member.wake.set()
        elif kind == w.SEND:
            self._queue(room.host, client.head + raw[1:])
        else:
            message = w.decode(raw, host=False)
            raise w.LobbyError(f"{message.name} message from a room's member")
        room.active = now
        self.relayed += 1
        self.relayed_bytes += size

    def _queue(self, client: Client, data: bytes) -> None:
        """``data`` to be sent to ``client``: written with the others of this turn of the event
        loop, at its end (one write a connection a turn); behind a full socket it waits in
        the outbox, and a reader that lets too much wait is let go."""
        if client.closing is not None:
            return
        if client.outbox or client.sending:
            self._backlog(client, data)
            return
        if not client.pending:
            if not self._dirty:
                asyncio.get_running_loop().call_soon(self._flush)
            self._dirty.append(client)
        client.pending.append(data)

    def _flush(self) -> None:
        """The end of a turn: what was relayed to each client, written."""
        dirty, self._dirty = self._dirty, []
        for client in dirty:
            self._write(client)

    def _write(self, client: Client) -> None:
        """``client``'s pending messages in one write, if its socket takes them now; else
        into its outbox."""
        pending = client.pending
        if not pending:
            return
        client.pending = []
        ws = client.ws
        transport = ws.transport
        if transport is None or transport.is_closing():
            return
        if (transport.get_write_buffer_size() >= WRITE_NOW_BELOW
                or ws.protocol.state is not OPEN):
            for data in pending:
                if transport.is_closing():  # let go as a slow reader
                    break
                self._backlog(client, data)
            return
        if len(pending) == 1:
            data = pending[0]
            transport.write(_framed(data) + data)
        else:
            transport.write(b"".join([part for data in pending
                                      for part in (_framed(data), data)]))

    def _backlog(self, client: Client, data: bytes) -> None:
        client.outbox.append(data)
        client.queued += len(data)
        self.queued += len(data)
        client.wake.set()
        if client.queued > self.limits.outbox:
            self._slow(client)
        elif self.queued > self.limits.outboxes:
            self._slow(max(self.clients.values(), key=lambda c: c.queued))

    def _slow(self, client: Client) -> None:
        reason = f"not reading: more than {client.queued:,} bytes wait for it"
        self.door.refused(client.who, reason)
        self._drop_outbox(client)
        client.closing = reason
        client.ws.transport.abort()

    def _drop_outbox(self, client: Client) -> None:
        self.queued -= client.queued
        client.queued = 0
        client.outbox.clear()
        client.pending.clear()

    async def _pump(self, client: Client) -> None:
        """Send what waits for ``client``, in order; then, if it is being let go, close."""
        ws = client.ws
        try:
            while True:
                while not client.outbox:
                    if client.closing is not None:
                        self._write(client)  # its last words (a REFUSED) first
                        if client.outbox:  # behind a full socket: they wait their turn
                            break
                        await ws.close(1000, client.closing[:120])
                        return
                    client.wake.clear()
                    await client.wake.wait()
                data = client.outbox.popleft()
                client.queued -= len(data)
                self.queued -= len(data)
                client.sending = True
                try:
                    await ws.send(data)
                finally:
                    client.sending = False
        except ConnectionClosed:
            pass

    def _refuse(self, client: Client, reason: str) -> None:
        """Tell a connection why it is let go, then close it (its fault, a limit)."""
        if client.room is None:
            self.door.refused(client.who, reason)
        else:
            self.say(f"let go {client.who}: {reason}")
        self._drop_outbox(client)
        self._queue(client, w.refused(reason))
        client.closing = reason
        client.wake.set()

    def _leave(self, client: Client) -> None:
        """A connection is over: out of its room (its host: the room closes)."""
        room = client.room
        if room is None:
            return
        client.room = None
        if client.host:
            if self.rooms.get(room.name) is room:
                del self.rooms[room.name]
                self.rooms_by_address[room.address] -= 1
                if self.rooms_by_address[room.address] <= 0:
                    del self.rooms_by_address[room.address]
                self.reserved[room.name] = (room.token,
                                            time.monotonic() + self.limits.host_grace)
                self.counts["rooms closed"] += 1
            for member in list(room.members.values()):
                self._queue(member, w.refused(f"the host left room {room.name}"))
                member.closing = "the host left"
                member.wake.set()
            room.members.clear()
        elif client.member is not None and room.members.get(client.member) is client:
            del room.members[client.member]
            self._queue(room.host, w.member_message(w.LEFT, client.member))

    async def _sweep(self) -> None:
        """Every 10 s: rooms idle too long closed; every minute, a line of what passed."""
        last = time.monotonic()
        said = Counter(self.counts)
        relayed = self.relayed
        while True:
            await asyncio.sleep(10)
            now = time.monotonic()
            for room in list(self.rooms.values()):
                if now - room.active > self.limits.room_idle:
                    self._refuse(room.host, f"room {room.name} was idle for "
                                            f"{self.limits.room_idle / 60:g} minutes")
            self.door.tick()
            if now - last >= 60:
                delta = self.counts - said
                self.say(f"{len(self.rooms)} rooms, {len(self.clients)} connections; in the "
                         f"last {now - last:.0f} s: {delta['rooms opened']} rooms opened, "
                         f"{delta['rooms closed']} closed, {delta['members entered']} members "
                         f"entered, {self.relayed - relayed:,} messages relayed")
                last, said, relayed = now, Counter(self.counts), self.relayed


#: Bytes in a socket's buffer below which messages are written at the end of the turn (else
#: they wait their turn in the outbox, written by the connection's task as the socket drains).
WRITE_NOW_BELOW = 64 * 1024


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    """A server's TLS context from a certificate chain and its key (PEM); NetError if not."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as exc:
        raise NetError(f"--tls-cert {cert} --tls-key {key}: {exc}") from None
    return context


def run_from_args(bind: str, port: int, cert: str | None, key: str | None, shard: str,
                  proxies: Sequence[str] = (), out: TextIO = sys.stdout) -> int:
    """``zxmonopoly lobby``: serve until interrupted."""
    if (cert is None) != (key is None):
        raise NetError("--tls-cert and --tls-key go together")
    tls = tls_context(cert, key) if cert is not None and key is not None else None

    async def main() -> None:
        lobby = Lobby(bind, port, tls=tls, shard=shard, out=out, proxies=frozenset(proxies))
        await lobby.start()
        try:
            await asyncio.Event().wait()
        finally:
            await lobby.close()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    return 0
