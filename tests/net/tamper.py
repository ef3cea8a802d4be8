"""A relay on loopback that passes network play's messages whole and does one thing to one
sealed message going one way: flips a bit of it, drops it, sends it twice, or sends it again
later (a replay). The tests of the seal put it between a host and a peer."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from zxmonopoly.net import protocol as p

ACTIONS = ("flip", "drop", "duplicate", "replay")
#: Messages after the one it copied that a replay is sent again.
REPLAY_AFTER = 5


@dataclass
class Tamper:
    """Forwards connections to 127.0.0.1:``target``; on the first connection, the ``nth``
    sealed message going ``up`` (peer to host) or down gets ``action``."""

    target: int
    up: bool
    action: str
    nth: int
    port: int = 0
    #: The counter of the sealed message it did its thing to (None: not yet).
    done: int | None = None
    _server: asyncio.Server | None = None
    _tasks: set[asyncio.Task] = field(default_factory=set)
    _writers: list[asyncio.StreamWriter] = field(default_factory=list)
    _first: bool = True

    async def start(self) -> int:
        """Listen; the port to connect to."""
        assert self.action in ACTIONS
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        """Stop, closing every connection."""
        if self._server is not None:
            self._server.close()
        for writer in self._writers:
            writer.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self._writers += [writer, up_writer]
        tamper, self._first = self._first, False
        for source, sink, going_up in ((reader, up_writer, True), (up_reader, writer, False)):
            task = asyncio.ensure_future(
                self._pump(source, sink, tamper and going_up == self.up))
            self._tasks.add(task)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter,
                    tamper: bool) -> None:
        sealed = 0
        copy: bytes | None = None
        since = 0
        try:
            while True:
                header = await source.readexactly(p.HEADER.size)
                msg_type, length = p.HEADER.unpack(header)
                data = header + await source.readexactly(length)
                if copy is not None:
                    since += 1
                    if since == REPLAY_AFTER:
                        sink.write(copy)
                        copy = None
                if tamper and msg_type == p.Sealed.TYPE:
                    sealed += 1
                    if sealed == self.nth:
                        self.done = int.from_bytes(data[5:13], "big")
                        if self.action == "flip":
                            data = data[:-1] + bytes([data[-1] ^ 0x01])
                        elif self.action == "drop":
                            continue
                        elif self.action == "duplicate":
                            sink.write(data)
                        else:
                            copy = data
                sink.write(data)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            sink.close()
