"""Headless network games on loopback for the tests: machines at the game's title, nodes
run side by side in one event loop, every frame's machine hash recorded, raw clients."""

from __future__ import annotations

import asyncio
import functools
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from zxmonopoly import __version__
from zxmonopoly.harness.scripted import setup_typist
from zxmonopoly.net import Host, Node, Peer, Timeouts, machine_digest
from zxmonopoly.net import protocol as p
from zxmonopoly.net.lockstep import rom_hash
from zxmonopoly.spectrum import FrameInput

#: Short waits, so a test of a timeout takes a second or two.
QUICK = Timeouts(handshake=3.0, silence=2.0, stall=2.0, message=0.5)
NAMES = ("ANNE", "BOB", "CAT", "DAN", "EVE", "FAY")


def title_machine(frames: int = 0, engine: str = "python"):  # noqa: ANN201 - a Spectrum48
    """A fresh machine with the game at its title (python engine unless told), ``frames``
    on from it."""
    from zxmonopoly.harness import Session

    session = Session.game(engine=engine)
    if frames:
        session.machine.run_frames(frames)
    return session.machine


@functools.cache
def game_symbols():  # noqa: ANN201 - the Symbols map
    """The game's symbol map (read once a process)."""
    from zxmonopoly.harness import Session

    return Session.game(engine="python").symbols


def run(coro: Awaitable[Any], timeout: float = 120.0) -> Any:
    """Run a coroutine to its end in a new event loop, failing after ``timeout`` seconds."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def wait_until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (an event: a frame reached, a line logged), looking again at
    each turn of the event loop; :func:`run`'s timeout bounds the wait."""
    while not condition():
        await asyncio.sleep(0.005)


def step_until(step: Callable[[], object], done: Callable[[], bool], what: str) -> None:
    """Call ``step`` (links stepped as windows' loops step them) until ``done()``: an event
    that waits on the network's threads, so waited for however busy the machine is; a
    minute bounds it (a hang, not a speed)."""
    end = time.monotonic() + 60
    while not done():
        assert time.monotonic() < end, f"{what}: not so after 60 s"
        step()


async def turns(count: int) -> None:
    """Let the event loop go round ``count`` times (the nodes' tasks each get their turn)."""
    for _ in range(count):
        await asyncio.sleep(0)


class Recorder:
    """Every frame's machine hash of one node: ``hashes[frame]`` (frame = the next one)."""

    def __init__(self, node: Node) -> None:
        self.hashes: dict[int, bytes] = {}
        node.frame_listeners.append(self)

    def __call__(self, node: Node) -> None:
        self.hashes[node.frame] = machine_digest(node.machine)


def compare(recorders: list[Recorder], since: int = 0) -> int:
    """Assert the nodes' machines were alike at every frame from ``since`` that all emulated;
    the number of frames compared."""
    common = set.intersection(*(set(r.hashes) for r in recorders))
    common = {f for f in common if f >= since}
    for frame in sorted(common):
        digests = {r.hashes[frame] for r in recorders}
        assert len(digests) == 1, f"the machines differ at frame {frame}"
    return len(common)


async def start_game(players: int, *, host_kwargs: dict | None = None,
                     via: Callable[[int], Awaitable[int]] | None = None,
                     spectators: int = 0, engine: str = "python") -> tuple[Host, list[Peer]]:
    """A host and ``players - 1`` joined peers (and spectators), each on its own machine at
    the title (the peers' a few frames apart, so the join must bring them into line)."""
    host = Host(title_machine(engine=engine), port=0, name=NAMES[0], **(host_kwargs or {}))
    await host.start()
    port = host.port if via is None else await via(host.port)
    peers = []
    for k in range(1, players):
        peer = Peer(title_machine(frames=7 * k, engine=engine), "127.0.0.1", port, host.code,
                    name=NAMES[k])
        await peer.join()
        peers.append(peer)
    for _ in range(spectators):
        watcher = Peer(title_machine(frames=3, engine=engine), "127.0.0.1", port, host.code,
                       spectator=True)
        await watcher.join()
        peers.append(watcher)
    return host, peers


def typists(players: int) -> list[Callable[[Node], FrameInput]]:
    """Each player's keys through the game's setup (player 1 is the host)."""
    symbols = game_symbols()
    return [setup_typist(symbols, k + 1, NAMES[k], host=k == 0, players=players)
            for k in range(players)]


async def close(host: Host, peers: list[Peer]) -> None:
    """Everyone leaves."""
    for peer in peers:
        await peer.close()
    await host.close()


class RawClient:
    """A joiner written by hand from the protocol's pieces: hostile tests send what they like.
    After its AUTH it seals what it sends and opens what it gets, as a peer does."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.sealer: p.Sealer | None = None
        self.opener: p.Opener | None = None

    @classmethod
    async def connect(cls, port: int, source: str | None = None) -> RawClient:
        """A TCP connection to the host (from the address ``source``, if given)."""
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=(source, 0) if source is not None else None)
        return cls(reader, writer)

    def send(self, message: p.Message) -> None:
        """Write one message (sealed, once the handshake has sealed the connection)."""
        data = message.encode()
        self.writer.write(data if self.sealer is None else self.sealer.seal(data))

    def send_bytes(self, data: bytes) -> None:
        """Write raw bytes."""
        self.writer.write(data)

    async def receive(self, timeout: float = 5.0) -> p.Message:
        """The next message from the host (opened, once sealed; a BYE may come unsealed)."""
        while True:
            message = await p.read_message(self.reader, timeout, timeout)
            if self.opener is None or not isinstance(message, p.Sealed):
                return message
            data = self.opener.open(message)
            if data is not None:
                return p.decode_sealed(data)

    async def hello(self, code: str, *, version: str = __version__,
                    protocol: int = p.PROTOCOL_VERSION, rom: bytes | None = None,
                    spectator: bool = False) -> p.Message:
        """HELLO, and AUTH when a CHALLENGE comes; the host's last answer (WELCOME or BYE)."""
        nonce = secrets.token_bytes(p.NONCE_SIZE)
        self.send(p.Hello(protocol, spectator, nonce, rom or rom_hash(title_machine()),
                          bytes(p.HASH_SIZE), version, "raw"))
        answer = await self.receive()
        if not isinstance(answer, p.Challenge):
            return answer
        key = p.code_key(code)
        self.send(p.Auth(p.peer_proof(key, answer.nonce, nonce)))
        to_peer, to_host = p.session_keys(key, answer.nonce, nonce)
        self.sealer, self.opener = p.Sealer(to_host), p.Opener(to_peer, "the host")
        return await self.receive()

    async def bye(self, timeout: float = 10.0) -> str:
        """Read until the host's BYE (skipping the rest); its reason ('' on a bare close)."""
        while True:
            try:
                message = await self.receive(timeout)
            except (asyncio.IncompleteReadError, ConnectionError):
                return ""
            if isinstance(message, p.Bye):
                return message.reason

    def close(self) -> None:
        """Close the connection."""
        self.writer.transport.abort()
