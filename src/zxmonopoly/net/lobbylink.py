"""Network play through a lobby (net/lobby.py): the host's room and a member's connection.

The host connects out to the lobby and OPENs a room (:class:`LobbyRoom`); each member that
ARRIVES is served by the host as a joiner on a connection of its own (its bytes come from the
lobby's DATA, its replies go back in SENDs to it). A member connects out too and ENTERs the
room (:func:`member_conn`). Either way the bytes are network play's messages, sealed after
the handshake with a key the lobby never has. Where the lobby is: :func:`lobby_url`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from . import lobbywire as w
from . import protocol as p
from .conn import Conn, Feed, Pipe

#: Where the lobby's URL is looked for after ``--lobby``: this variable, then this file.
LOBBY_ENV = "ZXMONOPOLY_LOBBY"
#: A CA certificate (PEM) to trust for the lobby's TLS besides the system's (a self-signed
#: lobby's own certificate): ``--lobby-ca`` or this variable.
LOBBY_CA_ENV = "ZXMONOPOLY_LOBBY_CA"
#: Seconds between a host's tries to open its room again after losing the lobby.
REOPEN_EVERY = 2.0


def config_file() -> Path:
    """The user's file that may name the lobby: ``$XDG_CONFIG_HOME/zxmonopoly/lobby``
    (``~/.config/zxmonopoly/lobby``), its first line that is not a comment."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "zxmonopoly" / "lobby"


def lobby_url(option: str | None = None) -> str:
    """The lobby's URL: ``--lobby``, else $ZXMONOPOLY_LOBBY, else the config file; LobbyError
    naming all three when none says (no public lobby is assumed)."""
    if option:
        return check_url(option, "--lobby")
    env = os.environ.get(LOBBY_ENV, "").strip()
    if env:
        return check_url(env, LOBBY_ENV)
    path = config_file()
    with contextlib.suppress(OSError, UnicodeDecodeError):
        for line in path.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                return check_url(line, str(path))
    raise w.LobbyError(f"no lobby: give --lobby URL, or set {LOBBY_ENV}, or write the URL in "
                       f"{path} (wss://HOST[:PORT]; zxmonopoly lobby runs one)")


def check_url(url: str, where: str) -> str:
    """``url`` when it is a ws:// or wss:// URL, else LobbyError naming where it came from."""
    url = url.strip()
    if not url.startswith(("ws://", "wss://")) or len(url.split("://", 1)[1]) == 0:
        raise w.LobbyError(f"{where}: {url!r} is not a lobby's URL (wss://HOST[:PORT], or "
                           "ws:// without TLS)")
    return url.rstrip("/")


def client_tls(url: str, ca: str | None = None) -> ssl.SSLContext | None:
    """The TLS context of a wss:// lobby: the system's trust, and ``ca`` (or
    $ZXMONOPOLY_LOBBY_CA) too when given; None for ws://."""
    if not url.startswith("wss://"):
        return None
    ca = ca or os.environ.get(LOBBY_CA_ENV) or None
    context = ssl.create_default_context()
    if ca:
        try:
            context.load_verify_locations(cafile=ca)
        except (OSError, ssl.SSLError) as exc:
            raise w.LobbyError(f"the lobby's CA certificate {ca}: {exc}") from None
    return context


async def dial(url: str, path: str, ca: str | None, timeout: float) -> ClientConnection:
    """A WebSocket to the lobby at ``url``/``path``; LobbyError saying why not."""
    target = f"{url}/{path}"
    try:
        return await asyncio.wait_for(
            connect(target, ssl=client_tls(url, ca), compression=None,
                    max_size=w.MAX_MESSAGE, max_queue=64, open_timeout=None,
                    ping_interval=20, ping_timeout=20, close_timeout=2,
                    user_agent_header="zxmonopoly"), timeout)
    except TimeoutError:
        raise w.LobbyError(f"cannot reach the lobby at {url}: no answer in {timeout:g} s") \
            from None
    except ssl.SSLCertVerificationError as exc:
        raise w.LobbyError(f"the lobby at {url}: its certificate is not trusted "
                           f"({exc.verify_message}; --lobby-ca FILE trusts one)") from None
    except (OSError, InvalidHandshake, InvalidURI) as exc:
        raise w.LobbyError(f"cannot reach the lobby at {url}: "
                           f"{getattr(exc, 'strerror', None) or exc}") from None


class Outbox:
    """Messages to one WebSocket, sent in order by a task of their own (writes come from
    the loop at any time and never wait)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self._queue: deque[bytes] = deque()
        self.queued = 0
        self._wake = asyncio.Event()
        self._closing = False
        self.task = asyncio.ensure_future(self._pump())

    def put(self, data: bytes) -> None:
        """Queue one message."""
        if self._closing:
            return
        self._queue.append(data)
        self.queued += len(data)
        self._wake.set()

    def backlog(self) -> int:
        """Bytes waiting here and in the socket's buffer."""
        transport = self.ws.transport
        return self.queued + (transport.get_write_buffer_size() if transport else 0)

    def close(self) -> None:
        """Close the WebSocket once what is queued has been sent."""
        self._closing = True
        self._wake.set()

    async def _pump(self) -> None:
        try:
            while True:
                while not self._queue:
                    if self._closing:
                        await self.ws.close()
                        return
                    self._wake.clear()
                    await self._wake.wait()
                data = self._queue.popleft()
                self.queued -= len(data)
                await self.ws.send(data)
        except ConnectionClosed:
            pass


# -- a member ---------------------------------------------------------------------------------

class MemberPipe:
    """A member's connection to the host through the lobby, as a Pipe: each write is one
    SEND (the Conn writes everything it has queued at once)."""

    def __init__(self, ws: ClientConnection, room: str, url: str) -> None:
        self.outbox = Outbox(ws)
        self.address = f"room {room} at {url}"
        self.origin = self.address
        self.ended = False

    def write(self, data: bytes) -> None:
        self.outbox.put(w.send(data))

    def closing(self) -> bool:
        return self.ended

    def backlog(self) -> int:
        return self.outbox.backlog()

    def end(self, loop: asyncio.AbstractEventLoop) -> None:
        self.close()

    def close(self) -> None:
        self.ended = True
        self.outbox.close()

    def abort(self) -> None:
        self.ended = True
        transport = self.outbox.ws.transport
        if transport is not None:
            transport.abort()


async def first_answer(ws: ClientConnection, url: str, request: bytes, wanted: int,
                       timeout: float) -> w.LobbyMessage:
    """Send the first request (OPEN or ENTER) and read the lobby's answer, of kind
    ``wanted``; LobbyError (closing the connection) for a refusal, silence, a close or
    another answer."""
    try:
        await ws.send(request)
        answer = w.decode(await asyncio.wait_for(ws.recv(), timeout), host=wanted == w.ROOM)
    except TimeoutError:
        await ws.close()
        raise w.LobbyError(f"the lobby at {url} did not answer in {timeout:g} s") from None
    except ConnectionClosed:
        raise w.LobbyError(f"the lobby at {url} closed the connection") from None
    if answer.kind == w.REFUSED:
        await ws.close()
        raise w.LobbyError(f"the lobby refused: {answer.reason}")
    if answer.kind != wanted:
        await ws.close()
        raise w.LobbyError(f"the lobby answered {answer.name}, not {w.NAMES[wanted]}")
    return answer


async def member_conn(url: str, room: str, ca: str | None, timeout: float) -> Conn:
    """A member's connection to the host of ``room`` (ENTERED): network play's Conn over
    the lobby; LobbyError (the lobby's refusal, or why it cannot be reached)."""
    ws = await dial(url, room, ca, timeout)
    await first_answer(ws, url, w.enter(room), w.ENTERED, timeout)
    feed = Feed()
    pipe = MemberPipe(ws, room, url)
    conn = Conn(feed, pipe, asyncio.get_running_loop(), sender=p.HOST)

    async def read() -> None:
        try:
            async for raw in ws:
                message = w.decode(raw, host=False)
                if message.kind == w.DATA:
                    feed.feed(message.data)
                elif message.kind == w.REFUSED:
                    conn.lobby_said = message.reason  # type: ignore[attr-defined]
                    break
                else:
                    break
        except (ConnectionClosed, w.LobbyError):
            pass
        finally:
            feed.end()

    reader = asyncio.ensure_future(read())
    conn.lobby_task = reader  # type: ignore[attr-defined]  (kept alive with the Conn)
    return conn


# -- the host's room ------------------------------------------------------------------------

class RoomPipe:
    """One member of the host's room, as a Pipe: writes are SENDs to it; ending is a KICK."""

    def __init__(self, room: LobbyRoom, member: int, feed: Feed) -> None:
        self.room, self.member, self.feed = room, member, feed
        self.address = f"member {member} of room {room.name}"
        self.origin = self.address  # the lobby counts addresses; each member is its own here
        self.ended = False

    def write(self, data: bytes) -> None:
        self.room.put(w.send(data, self.member))

    def closing(self) -> bool:
        return self.ended or self.room.outbox is None

    def backlog(self) -> int:
        return self.room.outbox.backlog() if self.room.outbox is not None else 0

    def end(self, loop: asyncio.AbstractEventLoop) -> None:
        self.close()

    def close(self) -> None:
        if not self.ended:
            self.ended = True
            self.room.put(w.kick(self.member))
            self.room.members.pop(self.member, None)

    def abort(self) -> None:
        self.close()
        self.feed.end()


class LobbyRoom:
    """The host's room in the lobby at ``url``: :meth:`open` it; each member that arrives is
    served by ``serve(reader, pipe)`` (the host's joiner handling); ``note`` says what
    happens. If the lobby is lost, the room is opened again (the same name) while it can."""

    def __init__(self, url: str, serve: Callable[[Feed, Pipe], Awaitable[None]],
                 note: Callable[[str], None], *, ca: str | None = None,
                 timeout: float = p.HANDSHAKE_TIMEOUT, grace: float = 60.0) -> None:
        self.url, self.serve, self.note, self.ca = url, serve, note, ca
        self.timeout, self.grace = timeout, grace
        self.name = ""
        self.token = b""
        self.outbox: Outbox | None = None
        self.members: dict[int, RoomPipe] = {}
        self.closed = False
        self._tasks: set[asyncio.Task] = set()
        self._reader: asyncio.Task | None = None

    async def open(self) -> str:
        """Open the room (or open it again); its name. LobbyError when the lobby will not."""
        ws = await dial(self.url, "", self.ca, self.timeout)
        answer = await first_answer(ws, self.url, w.open_room(self.name, self.token), w.ROOM,
                                    self.timeout)
        self.name, self.token = answer.room, answer.token
        self.outbox = Outbox(ws)
        self._reader = self._spawn(self._read(ws))
        return self.name

    def _spawn(self, coro: Awaitable[None]) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def put(self, data: bytes) -> None:
        """A message to the lobby (lost if the lobby is: the members go with it)."""
        if self.outbox is not None:
            self.outbox.put(data)

    async def _read(self, ws: ClientConnection) -> None:
        why = "the lobby closed the connection"
        try:
            async for raw in ws:
                message = w.decode(raw, host=True)
                if message.kind == w.ARRIVED:
                    feed = Feed()
                    pipe = RoomPipe(self, message.member, feed)
                    self.members[message.member] = pipe
                    self._spawn(self.serve(feed, pipe))
                elif message.kind == w.DATA:
                    member = self.members.get(message.member)
                    if member is not None:
                        member.feed.feed(message.data)
                        if member.feed.buffered > p.MAX_BACKLOG:  # a flood the host cannot read
                            member.abort()
                elif message.kind == w.LEFT:
                    member = self.members.pop(message.member, None)
                    if member is not None:
                        member.ended = True
                        member.feed.end()
                elif message.kind == w.REFUSED:
                    why = f"the lobby let the room go: {message.reason}"
                    break
                else:
                    why = f"the lobby sent {message.name}"
                    break
        except w.LobbyError as exc:
            why = f"the lobby broke its protocol: {exc}"
        except ConnectionClosed:
            pass
        if self.outbox is not None:  # its task ends with the connection it wrote to
            self.outbox.close()
        self.outbox = None
        for member in list(self.members.values()):
            member.ended = True
            member.feed.end()
        self.members.clear()
        if not self.closed:
            self.note(f"lost the lobby ({why}): opening room {self.name} again")
            self._spawn(self._reopen())

    async def _reopen(self) -> None:
        """Open the room again while the lobby keeps its name for us."""
        loop = asyncio.get_running_loop()
        until = loop.time() + self.grace
        while not self.closed and loop.time() < until:
            try:
                await self.open()
            except w.LobbyError as exc:
                if "cannot be opened again" in str(exc):
                    break
                await asyncio.sleep(REOPEN_EVERY)
                continue
            self.note(f"room {self.name} is open again in the lobby")
            return
        if not self.closed:
            self.note(f"room {self.name} is lost: the lobby could not be reached for "
                      f"{self.grace:g} s")

    async def close(self) -> None:
        """Close the room (the host ends the game): the lobby tells the members."""
        self.closed = True
        outbox = self.outbox
        if outbox is not None:
            outbox.close()
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(outbox.task), 2)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
