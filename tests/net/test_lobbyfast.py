"""The lobby's fast path (net/lobby.py, ``LobbyConnection``): a room's frames read by the lobby
itself once its client is in a room. A raw WebSocket client (framed by hand here, so that a
frame can be cut anywhere, masked or not, announced too long) against a live lobby: frames
split across reads and several in one, every length form, masked with any key, a ping and a
fragmented message among them in their order, and what is not a frame the lobby takes (no
mask, a length over the limit from the header alone, text, reserved bits) failed as the
WebSocket layer fails it."""

from __future__ import annotations

import asyncio
import base64
import os
import struct

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.net.helpers import run
from zxmonopoly.net import lobbywire as w
from zxmonopoly.net.lobby import LIMITS, Limits, Lobby, LobbyConnection

WITHIN = 5.0

BINARY, TEXT, CONT, CLOSE, PING, PONG = 2, 1, 0, 8, 9, 10


def frame(opcode: int, payload: bytes, *, fin: bool = True, mask: bytes | None = None,
          rsv: int = 0, length: int | None = None) -> bytes:
    """One client frame: masked with ``mask`` (four bytes; None: not masked); ``length``
    announced in the header (the payload's own unless told)."""
    size = len(payload) if length is None else length
    first = (0x80 if fin else 0) | rsv << 4 | opcode
    bit = 0x80 if mask is not None else 0
    if size < 126:
        head = bytes((first, bit | size))
    elif size < 65536:
        head = struct.pack(">BBH", first, bit | 126, size)
    else:
        head = struct.pack(">BBQ", first, bit | 127, size)
    if mask is None:
        return head + payload
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class RawMember:
    """A member of a room on a TCP stream of its own, its frames made by hand."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def enter(cls, lobby: Lobby, room: str) -> tuple[RawMember, int]:
        reader, writer = await asyncio.open_connection(lobby.bind, lobby.port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(f"GET /{room} HTTP/1.1\r\nHost: {lobby.bind}\r\nUpgrade: websocket\r\n"
                     f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WITHIN)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        member = cls(reader, writer)
        member.write(frame(BINARY, w.enter(room), mask=os.urandom(4)))
        opcode, payload = await member.read()
        entered = w.decode(payload, host=False)
        assert (opcode, entered.kind) == (BINARY, w.ENTERED), entered
        return member, entered.member

    def write(self, data: bytes) -> None:
        self.writer.write(data)

    async def write_in_pieces(self, data: bytes, cuts: list[int],
                              conn: LobbyConnection) -> None:
        """One frame, ``data``, in pieces cut at ``cuts``: each written once the lobby's
        connection ``conn`` holds the ones before as the start of a frame (so each comes in
        a read of its own)."""
        start = 0
        for cut in cuts:
            self.writer.write(data[start:cut])
            while len(conn.partial or b"") < cut:
                await asyncio.sleep(0.001)
            assert bytes(conn.partial or b"") == data[:cut]
            start = cut
        self.writer.write(data[start:])

    async def read(self) -> tuple[int, bytes]:
        """The lobby's next frame: its opcode and payload (unmasked, as a server's are)."""
        head = await asyncio.wait_for(self.reader.readexactly(2), WITHIN)
        assert not head[1] & 0x80, "a server's frame is not masked"
        size = head[1] & 0x7F
        if size == 126:
            size = struct.unpack(">H", await self.reader.readexactly(2))[0]
        elif size == 127:
            size = struct.unpack(">Q", await self.reader.readexactly(8))[0]
        return head[0] & 0x0F, await self.reader.readexactly(size)

    async def closed_with(self) -> int:
        """The close code the lobby sends (read past anything else)."""
        while True:
            opcode, payload = await self.read()
            if opcode == CLOSE:
                return struct.unpack(">H", payload[:2])[0]


async def open_room(lobby: Lobby) -> tuple[ClientConnection, str]:
    host = await connect(f"{lobby.url}/", compression=None, max_size=w.MAX_MESSAGE)
    await host.send(w.open_room())
    return host, w.decode(await host.recv(), host=True).room


async def from_member(host: ClientConnection, number: int) -> bytes:
    """The next DATA the host gets from member ``number`` (past ARRIVED and the like)."""
    while True:
        message = w.decode(await asyncio.wait_for(host.recv(), WITHIN), host=True)
        if message.kind == w.DATA and message.member == number:
            return message.data


def fast(lobby: Lobby, host: bool = False) -> list[bool]:
    """Whether each of the lobby's members' connections (or its hosts') is read by the fast
    path."""
    return [isinstance(c.ws, LobbyConnection) and c.ws.fast for c in lobby.clients.values()
            if c.room is not None and c.host == host]


def connection(lobby: Lobby, number: int) -> LobbyConnection:
    """The lobby's connection of member ``number``."""
    (ws,) = [c.ws for c in lobby.clients.values() if c.member == number]
    assert isinstance(ws, LobbyConnection)
    return ws


def room_test(body, limits: Limits = LIMITS):  # noqa: ANN001, ANN201 - a coroutine function
    """Run ``body`` against a fresh lobby (with ``limits``) with a room open in it; what it
    returns."""

    async def game():  # noqa: ANN202
        lobby = Lobby("127.0.0.1", 0, limits=limits)
        await lobby.start()
        try:
            host, room = await open_room(lobby)
            return await body(lobby, host, room)
        finally:
            await lobby.close()

    return run(game(), timeout=60)


def test_frames_cut_anywhere_and_run_together_are_relayed_whole_and_in_order() -> None:
    """Every length form (7 bits, 16, 64 from the host), any mask (zeros too), a frame cut
    inside its header, its mask and its data, and three frames in one write: the host gets
    each message exactly, in order, and the connection is read by the fast path."""

    async def body(lobby: Lobby, host: ClientConnection, room: str) -> list[bytes]:
        member, number = await RawMember.enter(lobby, room)
        datas = [b"k" * 20, os.urandom(300), os.urandom(4000), b"", b"x"]
        frames = [frame(BINARY, w.send(d), mask=m) for d, m in
                  zip(datas, [os.urandom(4), bytes(4), b"\xff" * 4, os.urandom(4),
                              os.urandom(4)], strict=True)]
        got = []
        member.write(frames[0])
        got.append(await from_member(host, number))
        assert all(fast(lobby)), "the member's connection is not on the fast path"
        # Cut inside the 16-bit length, inside the mask, inside the data.
        conn = connection(lobby, number)
        await member.write_in_pieces(frames[1], [1, 3, 6, 100], conn)
        got.append(await from_member(host, number))
        await member.write_in_pieces(frames[2], [2, 5, 2000, 3999], conn)
        got.append(await from_member(host, number))
        member.write(frames[3] + frames[4] + frames[0])  # three in one write
        got += [await from_member(host, number) for _ in range(3)]
        # The host's way: a message of 70,000 bytes (a 64-bit length) to the member.
        for big in (os.urandom(200), os.urandom(70_000)):
            await host.send(w.send(big, number))
            opcode, payload = await member.read()
            assert (opcode, payload) == (BINARY, w.data_message(big))
        assert fast(lobby, host=True) == [True]
        return got

    got = room_test(body)
    assert [len(d) for d in got] == [20, 300, 4000, 0, 1, 20]
    assert got[0] == b"k" * 20 and got[4] == b"x"


def test_a_ping_and_a_fragmented_message_among_the_frames_keep_their_order() -> None:
    """A ping between two messages is answered (its pong, same payload); a message in three
    fragments with a ping inside it (websockets' to read) reaches the host whole, after the
    message before it and before the one after it (read by the fast path again)."""

    async def body(lobby: Lobby, host: ClientConnection, room: str) -> tuple[list, bytes]:
        member, number = await RawMember.enter(lobby, room)
        mask = os.urandom(4)
        member.write(frame(BINARY, w.send(b"first"), mask=mask)
                     + frame(PING, b"are you there", mask=mask)
                     + frame(BINARY, w.send(b"second"), mask=mask))
        pong = await member.read()
        whole = w.send(b"one-two-three")
        member.write(frame(BINARY, whole[:4], fin=False, mask=mask)
                     + frame(CONT, whole[4:8], fin=False, mask=mask)
                     + frame(PING, b"again", mask=mask)
                     + frame(CONT, whole[8:], mask=mask)
                     + frame(BINARY, w.send(b"after"), mask=mask))
        got = [await from_member(host, number) for _ in range(4)]
        assert await member.read() == (PONG, b"again")
        conn = connection(lobby, number)
        while conn.queued:  # the handler takes the fragmented one from websockets
            await asyncio.sleep(0.001)
        member.write(frame(BINARY, w.send(b"last"), mask=mask))
        got.append(await from_member(host, number))
        assert all(fast(lobby))
        return got, pong

    got, pong = room_test(body)
    assert pong == (PONG, b"are you there")
    assert got == [b"first", b"second", b"one-two-three", b"after", b"last"]


@pytest.mark.parametrize("fault, code", [
    ("no mask", 1002), ("too long", 1009), ("reserved bits", 1002), ("unknown opcode", 1002),
    ("a whole message inside a fragmented one", 1002)])
def test_what_is_not_a_frame_the_lobby_takes_is_failed_from_its_header(fault: str,
                                                                       code: int) -> None:
    """A member's frame without a mask, with reserved bits, of an unknown kind, announcing
    more than a member may send (4 KiB; only its header sent), or a whole message where a
    fragmented one's next fragment is due: the lobby closes the
    connection with the WebSocket layer's code for it, and the host hears the member LEFT;
    another member's messages still pass."""

    async def body(lobby: Lobby, host: ClientConnection, room: str) -> tuple[int, int]:
        member, number = await RawMember.enter(lobby, room)
        other, other_number = await RawMember.enter(lobby, room)
        mask = os.urandom(4)
        member.write(frame(BINARY, w.send(b"fine"), mask=mask))
        assert await from_member(host, number) == b"fine"
        if fault == "no mask":
            member.write(frame(BINARY, w.send(b"bare"), mask=None))
        elif fault == "too long":  # the header alone: nothing of the megabyte is sent
            member.write(frame(BINARY, b"", mask=mask, length=1 << 20))
        elif fault == "a whole message inside a fragmented one":
            member.write(frame(BINARY, w.send(b"begun")[:3], fin=False, mask=mask)
                         + frame(BINARY, w.send(b"whole"), mask=mask))
        elif fault == "reserved bits":
            member.write(frame(BINARY, w.send(b"rsv"), mask=mask, rsv=4))
        else:
            member.write(frame(3, w.send(b"what"), mask=mask))
        closed = await member.closed_with()
        member.writer.close()  # as a client does on a close (else the lobby's ping times out)
        while True:
            message = w.decode(await asyncio.wait_for(host.recv(), WITHIN), host=True)
            if message.kind == w.LEFT:
                assert message.member == number
                break
        other.write(frame(BINARY, w.send(b"still"), mask=mask))
        assert await from_member(host, other_number) == b"still"
        return closed, lobby.queued

    closed, queued = room_test(body)
    assert closed == code
    assert queued == 0


def test_text_and_a_close_from_a_member_on_the_fast_path() -> None:
    """A text frame is refused with its reason (the lobby speaks binary); a close frame is
    answered with a close and the host hears the member LEFT."""

    async def body(lobby: Lobby, host: ClientConnection, room: str) -> tuple[str, int]:
        talker, _ = await RawMember.enter(lobby, room)
        mask = os.urandom(4)
        talker.write(frame(TEXT, b"hello", mask=mask))
        while True:
            opcode, payload = await talker.read()
            if opcode == BINARY:
                refused = w.decode(payload, host=False)
                break
        leaver, number = await RawMember.enter(lobby, room)
        leaver.write(frame(CLOSE, struct.pack(">H", 1000) + b"bye", mask=mask))
        code = await leaver.closed_with()
        leaver.writer.close()
        while True:
            message = w.decode(await asyncio.wait_for(host.recv(), WITHIN), host=True)
            if message.kind == w.LEFT and message.member == number:
                return refused.reason, code

    reason, code = room_test(body)
    assert reason.startswith("a text message"), reason
    assert code == 1000


#: A member's rate for the flood test: its burst as by default, its sustained rate so low that
#: no message more is let through however long a loaded machine takes to read the flood (at
#: the default 300 a second, 10 ms of reading let 3 more through: 603 seen under load).
SLOW_MEMBER = Limits(member_rate=(1.0, LIMITS.member_rate[1]))


def test_a_member_over_its_rate_on_the_fast_path_is_let_go() -> None:
    """The limits hold on the fast path: a member sending 1,000 messages at once (its burst
    is 600) is refused `more than 1 messages a second` (its sustained rate); the host got at
    most the burst (and the one message a second that refills it)."""

    async def body(lobby: Lobby, host: ClientConnection, room: str) -> tuple[str, int]:
        member, number = await RawMember.enter(lobby, room)
        mask = os.urandom(4)
        member.write(b"".join(frame(BINARY, w.send(b"%d" % k), mask=mask)
                              for k in range(1000)))
        while True:
            opcode, payload = await member.read()
            if opcode == BINARY:
                reason = w.decode(payload, host=False).reason
                break
        got = 0
        try:
            while True:
                message = w.decode(await asyncio.wait_for(host.recv(), 1.0), host=True)
                if message.kind == w.DATA and message.member == number:
                    got += 1
                if message.kind == w.LEFT:
                    break
        except (TimeoutError, ConnectionClosed):
            pass
        return reason, got

    reason, got = room_test(body, SLOW_MEMBER)
    assert reason.startswith("more than 1 messages a second"), reason
    assert 500 <= got <= 601, got
