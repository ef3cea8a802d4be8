"""A TCP relay that delays and jitters what passes through it (``bench --net``, tests): a
stand-in for a long way between two machines, on loopback."""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque

from .conn import no_delay

CHUNK = 65536


class Relay:
    """Listens on 127.0.0.1 and forwards each connection to ``target``; every chunk is held
    ``one_way`` seconds plus a uniform 0..``jitter`` in each direction (in order: a chunk is
    never sent before the one read before it, as TCP keeps it)."""

    def __init__(self, target: tuple[str, int], rtt: float, jitter: float = 0.0,
                 seed: int = 1) -> None:
        self.target = target
        self.one_way = rtt / 2
        self.jitter = jitter
        self.random = random.Random(seed)
        self.port = 0
        self.server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self._writers: list[asyncio.StreamWriter] = []

    async def start(self) -> int:
        """Listen; the port to connect to."""
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        """Stop relaying and close every connection."""
        if self.server is not None:
            self.server.close()
        for writer in self._writers:
            writer.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        no_delay(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        no_delay(up_writer)
        self._writers += [writer, up_writer]
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.ensure_future(self._pump(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        """Read chunks as they come; a second task writes each at its time."""
        queue: deque[tuple[float, bytes]] = deque()
        ready = asyncio.Event()
        done = False

        async def send() -> None:
            while True:
                while not queue:
                    if done:
                        sink.close()
                        return
                    ready.clear()
                    await ready.wait()
                when, data = queue[0]
                wait = when - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                queue.popleft()
                if sink.is_closing():  # its side went away: what is left goes nowhere
                    return
                sink.write(data)

        sender = asyncio.ensure_future(send())
        self._tasks.add(sender)
        sender.add_done_callback(self._tasks.discard)
        last = 0.0
        try:
            while True:
                data = await source.read(CHUNK)
                if not data:
                    break
                when = time.perf_counter() + self.one_way + self.random.uniform(0, self.jitter)
                last = max(last, when)
                queue.append((last, data))
                ready.set()
        except (ConnectionError, OSError):
            pass
        finally:
            done = True
            ready.set()
