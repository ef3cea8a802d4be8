"""A node's network side on an event loop in a thread of its own, for a window: the window's
loop calls ``node.advance_within`` between its ticks; messages come and go meanwhile."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from zxmonopoly.spectrum import Spectrum48

from .host import Host
from .peer import Peer

T = TypeVar("T")
#: Seconds a call into the network thread may take (a join's handshake has its own bound).
CALL_TIMEOUT = 30.0


class NetThread:
    """An asyncio loop running in a daemon thread; hosts and joins on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="zxmonopoly-net",
                                       daemon=True)
        self.thread.start()

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = CALL_TIMEOUT) -> T:
        """Run a coroutine on the network thread and wait for its result (or its error)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def host(self, machine: Spectrum48, **kwargs: Any) -> Host:
        """A started :class:`Host` (NetError when it cannot listen)."""

        async def start() -> Host:
            host = Host(machine, **kwargs)
            await host.start()
            return host

        return self.call(start())

    def join(self, machine: Spectrum48, address: str, port: int, code: str,
             **kwargs: Any) -> Peer:
        """A joined :class:`Peer` (JoinError with the reason when it cannot join)."""

        async def join() -> Peer:
            peer = Peer(machine, address, port, code, **kwargs)
            await peer.join()
            return peer

        return self.call(join())

    def join_online(self, machine: Spectrum48, lobby: str, code: str,
                    **kwargs: Any) -> Peer:
        """A :class:`Peer` joined through the lobby at ``lobby`` by the room code ``code``."""

        async def join() -> Peer:
            peer = Peer.online(machine, lobby, code, **kwargs)
            await peer.join()
            return peer

        return self.call(join())

    def close(self, node: Host | Peer | None = None, reason: str | None = None) -> None:
        """Leave (or end) the game, then stop the thread."""
        if node is not None and self.loop.is_running():
            try:
                if reason is None:
                    self.call(node.close(), timeout=5)
                else:
                    self.call(node.close(reason), timeout=5)
            except (TimeoutError, RuntimeError):
                pass
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        if not self.thread.is_alive():
            self.loop.close()
