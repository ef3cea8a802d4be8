"""One connection of network play: ordered sends from any thread, a bounded backlog, the seal.

A :class:`Conn` reads and writes framed messages over a :class:`Pipe`: a TCP stream
(:class:`TcpPipe`) or one member of a room through the lobby (net/lobbylink.py). After the
handshake both sides :meth:`Conn.seal` it: from then on every message goes out sealed and
only sealed messages, in their order, are taken in (protocol.Sealer, protocol.Opener).
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Protocol

from . import protocol as p

#: Seconds a connection we have ended waits for the other side to close before it is closed.
LINGER = 2.0


def no_delay(writer: asyncio.StreamWriter) -> None:
    """Turn Nagle's delay off (asyncio does for TCP; said here so it stays so)."""
    sock = writer.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def repeat_line(conn: Conn, counter: int) -> str | None:
    """What a node says of a sealed message that came again (None: nothing): the first
    time, then at the 10th, the 100th... (a flood of replays is not a line each)."""
    count = conn.opener.repeats if conn.opener is not None else 1
    if str(count).rstrip("0") != "1":
        return None
    sender = conn.opener.sender if conn.opener is not None else "the other side"
    return (f"a sealed message from {sender} came again (number {counter:,}, already taken): "
            "a replay or a duplicate on the way, ignored"
            + (f" ({count:,} so far)" if count > 1 else ""))


class Reader(Protocol):
    """What a connection reads from (an asyncio.StreamReader, or a lobby member's feed)."""

    async def readexactly(self, n: int) -> bytes: ...
    async def read(self, n: int = -1) -> bytes: ...


class Pipe(Protocol):
    """Where a connection's bytes go: written in order from the event loop."""

    #: How the logs name the other end (``ADDRESS:PORT``, ``lobby member 3``).
    address: str
    #: Who the door counts it as (an IP address; each lobby member is its own).
    origin: str

    def write(self, data: bytes) -> None: ...
    def closing(self) -> bool: ...
    def backlog(self) -> int: ...
    def end(self, loop: asyncio.AbstractEventLoop) -> None: ...
    def close(self) -> None: ...
    def abort(self) -> None: ...


class TcpPipe:
    """A TCP stream's writing side as a Pipe."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.origin = str(peer[0]) if isinstance(peer, tuple) else str(peer)

    def write(self, data: bytes) -> None:
        self.writer.transport.write(data)

    def closing(self) -> bool:
        return self.writer.transport.is_closing()

    def backlog(self) -> int:
        return self.writer.transport.get_write_buffer_size()

    def end(self, loop: asyncio.AbstractEventLoop) -> None:
        """A FIN after the data, not a close, which with the other side's messages unread
        would reset the connection and lose the data (a BYE among it). The reader's end, or
        LINGER seconds, closes the socket."""
        transport = self.writer.transport
        if self.writer.can_write_eof():
            try:
                self.writer.write_eof()
            except OSError:
                transport.abort()
                return
            loop.call_later(LINGER, transport.close)
        else:
            self.writer.close()

    def close(self) -> None:
        self.writer.close()

    def abort(self) -> None:
        self.writer.transport.abort()


class Conn:
    """A connection: messages queued in order (from the loop or a window's thread) and
    written by the loop; ``on_backlog`` is called when the other side stops reading.
    ``sender`` is what the other side sends (p.JOINER or p.HOST): other types are refused
    from their header."""

    def __init__(self, reader: Reader, pipe: Pipe, loop: asyncio.AbstractEventLoop,
                 on_backlog: Callable[[Conn], None] | None = None,
                 sender: p.Sender | None = None) -> None:
        self.reader, self.pipe, self.loop = reader, pipe, loop
        self.address = pipe.address
        self.on_backlog = on_backlog
        self.sender = sender
        self.closed = False
        self.last_heard = time.monotonic()
        self.task: asyncio.Task | None = None
        self.sealer: p.Sealer | None = None
        self.opener: p.Opener | None = None
        #: Called with a sealed message's counter when it comes again (a replay, a
        #: duplicate: skipped), so the node can say so.
        self.on_repeat: Callable[[Conn, int], None] | None = None
        #: Bytes queued to be sent (sealed, with their headers): the benchmark's count.
        self.sent_bytes = 0
        self._out: deque[bytes] = deque()
        self._lock = threading.Lock()

    @classmethod
    def tcp(cls, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
            loop: asyncio.AbstractEventLoop, **kwargs: object) -> Conn:
        """A connection over a TCP stream."""
        return cls(reader, TcpPipe(writer), loop, **kwargs)  # type: ignore[arg-type]

    @property
    def sealed(self) -> bool:
        """Whether the handshake has sealed the connection."""
        return self.opener is not None

    def seal(self, send_key: bytes, receive_key: bytes, sender: str) -> None:
        """From now on: every message sent sealed, only sealed ones taken (``sender`` names
        the other side in the reasons)."""
        with self._lock:
            self.sealer = p.Sealer(send_key)
            self.opener = p.Opener(receive_key, sender)

    def send(self, message: p.Message) -> None:
        """Queue a message (any thread); the loop writes queued messages in order."""
        self.send_many((message,))

    def send_many(self, messages: Sequence[p.Message]) -> None:
        """Queue messages in their order, written together (any thread)."""
        if self.closed or not messages:
            return
        with self._lock:
            for message in messages:
                data = message.encode()
                if self.sealer is not None:
                    data = self.sealer.seal(data)
                self._out.append(data)
                self.sent_bytes += len(data)
        try:
            self.loop.call_soon_threadsafe(self._flush)
        except RuntimeError:  # the loop is closed: nobody to send to
            self.closed = True

    def _flush(self) -> None:
        pipe = self.pipe
        with self._lock:
            # One write of everything queued: through the lobby that is one message.
            data = b"".join(self._out)
            self._out.clear()
        if data and not pipe.closing():
            pipe.write(data)
        if (not pipe.closing() and pipe.backlog() > p.MAX_BACKLOG
                and self.on_backlog is not None):
            self.on_backlog(self)

    async def read(self, idle: float | None, stall: float, *,
                   clear_bye: bool = False) -> p.Message:
        """The next message (opened, once sealed): see protocol.read_message. A repeated
        sealed message is skipped (the opener counts it); ``clear_bye``: a BYE not sealed is
        taken too (the host's refusal of a wrong code, which it cannot seal)."""
        while True:
            message = await p.read_message(self.reader, idle, stall, self.sender)
            opener = self.opener
            if opener is None:
                if isinstance(message, p.Sealed):
                    raise p.ProtocolError("a SEALED message before the handshake")
                return message
            if not isinstance(message, p.Sealed):
                if clear_bye and isinstance(message, p.Bye):
                    return message
                raise p.ProtocolError(f"a {message.NAME} message not sealed, after the "
                                      f"handshake: not from {opener.sender}, or changed on "
                                      "the way")
            data = opener.open(message)
            if data is not None:
                return p.decode_sealed(data, self.sender)
            if self.on_repeat is not None:
                self.on_repeat(self, message.counter)

    def close(self) -> None:
        """Close once everything queued has been written (any thread)."""
        self.closed = True
        try:
            self.loop.call_soon_threadsafe(self._close)
        except RuntimeError:
            pass

    def _close(self) -> None:
        """Write what is queued, then end our side (the other side reads it to the end)."""
        self._flush()
        if not self.pipe.closing():
            self.pipe.end(self.loop)

    async def drain(self) -> None:
        """After our BYE: discard what the other side still sends until it closes (or
        LINGER seconds), so that closing does not reset the connection before it reads."""
        deadline = self.loop.time() + LINGER
        try:
            while (left := deadline - self.loop.time()) > 0:
                if not await asyncio.wait_for(self.reader.read(65536), left):
                    return
        except (TimeoutError, ConnectionError, OSError):
            return

    def finish(self) -> None:
        """The reader is done (the other side closed, or we gave up): close the socket."""
        self.closed = True
        self.pipe.close()

    def abort(self) -> None:
        """Drop the connection at once, unsent messages and all (a crash, in tests)."""
        self.closed = True
        self.pipe.abort()


class Feed:
    """A Reader fed whole chunks by someone else (a lobby member's messages): readexactly and
    read as an asyncio.StreamReader's, ``buffered`` bytes waiting, ``end()`` for its end."""

    def __init__(self) -> None:
        self._data = bytearray()
        #: Bytes fed since it began (what came through the lobby: the benchmark's count).
        self.total = 0
        self._eof = False
        self._waiter: asyncio.Future[None] | None = None

    @property
    def buffered(self) -> int:
        """Bytes fed and not yet read."""
        return len(self._data)

    def feed(self, data: bytes) -> None:
        """More bytes (on the event loop)."""
        self._data += data
        self.total += len(data)
        self._wake()

    def end(self) -> None:
        """No more bytes will come."""
        self._eof = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def _wait(self) -> None:
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

    async def readexactly(self, n: int) -> bytes:
        """``n`` bytes; asyncio.IncompleteReadError if the feed ends first."""
        while len(self._data) < n:
            if self._eof:
                partial = bytes(self._data)
                self._data.clear()
                raise asyncio.IncompleteReadError(partial, n)
            await self._wait()
        out = bytes(self._data[:n])
        del self._data[:n]
        return out

    async def read(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes as soon as there are any (b"" at the end)."""
        while not self._data and not self._eof:
            await self._wait()
        size = len(self._data) if n < 0 else min(n, len(self._data))
        out = bytes(self._data[:size])
        del self._data[:size]
        return out
