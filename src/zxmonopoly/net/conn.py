"""One TCP connection of network play: ordered sends from any thread, a bounded backlog."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections import deque
from collections.abc import Callable

from . import protocol as p

#: Seconds a connection we have ended waits for the other side to close before it is closed.
LINGER = 2.0


def no_delay(writer: asyncio.StreamWriter) -> None:
    """Turn Nagle's delay off (asyncio does for TCP; said here so it stays so)."""
    sock = writer.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class Conn:
    """A stream pair: messages queued in order (from the loop or a window's thread) and
    written by the loop; ``on_backlog`` is called when the other side stops reading."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 loop: asyncio.AbstractEventLoop,
                 on_backlog: Callable[[Conn], None] | None = None) -> None:
        self.reader, self.writer, self.loop = reader, writer, loop
        peer = writer.get_extra_info("peername")
        self.address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.on_backlog = on_backlog
        self.closed = False
        self.last_heard = time.monotonic()
        self.task: asyncio.Task | None = None
        self._out: deque[bytes] = deque()
        self._lock = threading.Lock()

    def send(self, message: p.Message) -> None:
        """Queue a message (any thread); the loop writes queued messages in order."""
        if self.closed:
            return
        self._out.append(message.encode())
        try:
            self.loop.call_soon_threadsafe(self._flush)
        except RuntimeError:  # the loop is closed: nobody to send to
            self.closed = True

    def _flush(self) -> None:
        transport = self.writer.transport
        with self._lock:
            while self._out:
                data = self._out.popleft()
                if not transport.is_closing():
                    transport.write(data)
        if (not transport.is_closing() and transport.get_write_buffer_size() > p.MAX_BACKLOG
                and self.on_backlog is not None):
            self.on_backlog(self)

    def close(self) -> None:
        """Close once everything queued has been written (any thread)."""
        self.closed = True
        try:
            self.loop.call_soon_threadsafe(self._close)
        except RuntimeError:
            pass

    def _close(self) -> None:
        """Write what is queued, then end our side: a FIN after the data, not a close, which
        with the other side's messages unread would reset the connection and lose the data
        (a BYE among it). The reader's end, or LINGER seconds, closes the socket."""
        self._flush()
        transport = self.writer.transport
        if transport.is_closing():
            return
        if self.writer.can_write_eof():
            try:
                self.writer.write_eof()
            except OSError:
                transport.abort()
                return
            self.loop.call_later(LINGER, transport.close)
        else:
            self.writer.close()

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
        self.writer.close()

    def abort(self) -> None:
        """Drop the connection at once, unsent messages and all (a crash, in tests)."""
        self.closed = True
        self.writer.transport.abort()
