"""``zxmonopoly bench --lobby``: many rooms of headless players through one lobby process:
rooms, messages a second, the delay through the lobby (median and 99th percentile) and the
lobby's CPU.

The lobby is ``zxmonopoly lobby`` in a process of its own, pinned to one core (the first);
the players are in worker processes (on the other cores). Each room is a host and members,
each a WebSocket from a loopback address of its own room (127.2.x.y, as players from their
own homes). Every 20 ms (50 frames a second) each member sends the host one message the size
of a sealed INPUT and the host sends each member one message the size of the sealed INPUTS of
the room's other players (the host's traffic at a frame); they do not emulate or seal (the
lobby cannot tell: it relays opaque bytes). Each message carries its send time (the system's
monotonic clock, common to the processes); the receiver takes the difference: the delay
through the lobby, the clients' own scheduling included (an upper bound of what the lobby adds).
"""

from __future__ import annotations

import asyncio
import json
import os
import struct
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from . import lobbywire as w
from . import protocol as p

FPS = 50
WARMUP = 3.0
#: The rooms' frames start at this many moments spread over a frame's 20 ms.
PHASES = 10
#: Messages sent in the last TAIL seconds are not counted (their answers may be after the end).
TAIL = 0.3
#: A member's message: a sealed INPUT; the host's to a member: the sealed INPUTS of the others.
MEMBER_BYTES = p.SEAL_OVERHEAD + p.Input.MIN
HOST_BYTES_EACH = p.SEAL_OVERHEAD + p.Inputs.MIN
_STAMP = struct.Struct(">Q")
ROOM_COUNTS = (10, 50, 100)


@dataclass(frozen=True)
class LobbyRow:
    """One run's figures."""

    rooms: int
    players: int
    fps: float  # frames a second each player sent, on average
    messages: float  # messages a second the lobby relayed (counted by the receivers)
    p50: float  # seconds
    p99: float
    cpu: float  # the lobby's CPU, in cores (1.0: one core, whole)
    lost: int  # messages sent and not received
    sent: int = 0  # messages sent in the seconds counted (each its own stamp)
    received: int = 0  # and of them received
    players_cpu: float = 0.0  # the players' worker processes' CPU, in cores
    load: float = 0.0  # the machine's load average (1 minute) at the end of the run
    waited: float = 0.0  # the time the lobby waited for a CPU while ready to run, a second
    players_waited: float = 0.0  # and the players' processes (added up)

    @property
    def per_message(self) -> float:
        """The lobby's CPU seconds a message relayed."""
        return self.cpu / self.messages if self.messages else 0.0


def _address(room: int) -> str:
    return f"127.2.{room // 200}.{room % 200 + 1}"


class RawWs(asyncio.Protocol):
    """A bench player's WebSocket, framed by hand (the players must not be the bench's
    bottleneck: websockets' client costs several times the lobby's own work a message).
    Frames to the lobby are masked with a zero key (RFC 6455 allows any key; the lobby
    relays opaque bytes); the lobby's frames come unmasked."""

    def __init__(self, on_message) -> None:  # noqa: ANN001 - a callable of (bytes, offset)
        self.on_message = on_message
        self.replies: list[bytes] = []  # the lobby's own messages (not DATA)
        self.buffer = bytearray()
        self.open = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        if not self.open.done():
            self.buffer += data
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.buffer.startswith(b"HTTP/1.1 101"):
                self.open.set_exception(RuntimeError(bytes(self.buffer[:80]).decode()))
                return
            data = bytes(self.buffer[end + 4:])
            self.buffer.clear()
            self.open.set_result(None)
        elif self.buffer:
            self.buffer += data
            data = bytes(self.buffer)
            self.buffer.clear()
        at, total = 0, len(data)
        while total - at >= 2:
            size, head = data[at + 1] & 0x7F, 2
            if size == 126:
                if total - at < 4:
                    break
                size, head = int.from_bytes(data[at + 2:at + 4], "big"), 4
            elif size == 127:
                if total - at < 10:
                    break
                size, head = int.from_bytes(data[at + 2:at + 10], "big"), 10
            if total - at < head + size:
                break
            if data[at] & 0x0F == 2:  # a binary message (pings and closes: not here)
                if data[at + head] == w.DATA:
                    self.on_message(data, at + head)
                else:
                    self.replies.append(data[at + head:at + head + size])
            at += head + size
        if at < total:
            self.buffer += data[at:]

    def send(self, data: bytes) -> None:
        """One binary message, masked with a zero key."""
        size = len(data)
        if size < 126:
            head = bytes((0x82, 0x80 | size))
        else:
            head = bytes((0x82, 0x80 | 126)) + size.to_bytes(2, "big")
        assert self.transport is not None
        self.transport.write(head + bytes(4) + data)


async def _dial(url: str, path: str, source: str, on_message) -> RawWs:  # noqa: ANN001
    host, port = url.split("://", 1)[1].rsplit(":", 1)
    loop = asyncio.get_running_loop()
    _, ws = await loop.create_connection(lambda: RawWs(on_message), host, int(port),
                                         local_addr=(source, 0))
    assert ws.transport is not None
    ws.transport.write(f"GET /{path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket"
                       "\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                       "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                       .encode())
    await asyncio.wait_for(ws.open, 30)
    return ws


async def _worker(url: str, rooms: range, players: int, start: float, seconds: float) -> dict:
    """Run ``rooms`` from ``start`` (monotonic) for WARMUP + ``seconds``; the samples."""
    measure_from = start + WARMUP
    end = measure_from + seconds
    delays: list[int] = []
    counts = {"sent": 0, "received": 0, "frames": 0, "cpu": 0.0, "waited": 0.0}
    # Messages sent in [first, last) are counted, each by its stamp, sent and received.
    first = int(measure_from * 1e9)
    last = int((end - TAIL) * 1e9)
    unpack = _STAMP.unpack_from
    clock = time.monotonic_ns

    def receiver(skip: int):  # noqa: ANN202 - a callable of (bytes, offset)
        def got(raw: bytes, at: int) -> None:
            now = clock()
            stamp = unpack(raw, at + skip)[0]
            if first <= stamp < last:
                delays.append(now - stamp)
        return got

    async def reply(ws: RawWs) -> bytes:
        while not ws.replies:
            await asyncio.sleep(0.001)
        return ws.replies.pop(0)

    # The rooms' frames are spread over the 20 ms of a frame, PHASES apart (rooms of real
    # games do not start their frames at the same moment).
    phases: list[list[tuple[RawWs, list[tuple[RawWs, int]]]]] = [[] for _ in range(PHASES)]
    for room in rooms:
        source = _address(room)
        host = await _dial(url, "", source, receiver(3))  # DATA, the member's number
        host.send(w.open_room())
        name = w.decode(await reply(host), host=True).room
        members = []
        for _ in range(players - 1):
            ws = await _dial(url, name, source, receiver(1))
            ws.send(w.enter(name))
            members.append((ws, w.decode(await reply(ws), host=False).member))
        phases[room % PHASES].append((host, members))
    member_head = bytes((w.SEND,))
    member_pad = bytes(MEMBER_BYTES - _STAMP.size)
    host_pad = bytes(HOST_BYTES_EACH * (players - 1) - _STAMP.size)
    pack = _STAMP.pack
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    frame = 0
    cpu0: float | None = None
    waited0 = 0.0
    while True:
        now = time.monotonic()
        if now >= end:
            break
        measured = measure_from <= now < end
        if measured and cpu0 is None:
            cpu0, waited0 = time.process_time(), _waited_seconds(os.getpid())
        for phase, group in enumerate(phases):
            due = start + (frame + phase / PHASES) / FPS
            now = time.monotonic()
            if due > now:
                await asyncio.sleep(due - now)
            for host, members in group:
                for ws, number in members:
                    stamp = clock()
                    ws.send(member_head + pack(stamp) + member_pad)
                    host.send(w.send(pack(clock()) + host_pad, number))
                    if first <= stamp < last:
                        counts["sent"] += 2
        if measured:
            counts["frames"] += 1
        frame += 1
        if start + frame / FPS < time.monotonic() - 0.1:  # far behind: skip, not burst
            frame = int((time.monotonic() - start) * FPS) + 1
    if cpu0 is not None:
        counts["cpu"] = time.process_time() - cpu0
        counts["waited"] = _waited_seconds(os.getpid()) - waited0
    await asyncio.sleep(TAIL)
    counts["received"] = len(delays)
    for phase in phases:  # no closing handshakes: the lobby sees them go
        for host, members in phase:
            for ws, _ in members:
                assert ws.transport is not None
                ws.transport.abort()
            assert host.transport is not None
            host.transport.abort()
    return {"delays": delays, **counts}


def _cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _waited_seconds(pid: int) -> float:
    """The seconds a process has waited for a CPU while it was ready to run (its run queue
    wait, from /proc/PID/schedstat; 0 where the kernel does not keep it): the machine's
    load, as the process felt it."""
    try:
        return int(open(f"/proc/{pid}/schedstat").read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _pinned(cores: set[int]):  # noqa: ANN202 - a preexec function
    def pin() -> None:
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, cores)
    return pin


def _cores() -> list[int]:
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]


def measure(rooms: int, players: int = 4, seconds: float = 10.0, workers: int | None = None,
            tls: bool = False) -> LobbyRow:
    """One lobby process and ``rooms`` rooms of ``players`` for ``seconds`` after WARMUP.
    The lobby is pinned to the first core, the players' ``workers`` (one for each other core
    by default) to the others (so that they take nothing from the lobby's core)."""
    env = dict(os.environ)
    cores = _cores()
    lobby_core = {cores[0]}
    player_cores = set(cores[1:]) or lobby_core
    if workers is None:
        workers = len(player_cores)
    lobby = subprocess.Popen([sys.executable, "-m", "zxmonopoly.cli", "lobby", "--port", "0"],
                             stdout=subprocess.PIPE, text=True, env=env,
                             preexec_fn=_pinned(lobby_core))
    try:
        assert lobby.stdout is not None
        line = lobby.stdout.readline()
        url = line.rsplit(" ", 1)[-1].strip()
        if not url.startswith("ws"):
            raise RuntimeError(f"the lobby did not start: {line!r}")
        start = time.monotonic() + 2.0 + rooms * players * 0.004
        shares = [range(k, rooms, workers) for k in range(workers)]
        procs = [subprocess.Popen(
            [sys.executable, "-m", "zxmonopoly.net.lobbybench", url, str(share.start),
             str(share.step), str(rooms), str(players), repr(start), repr(seconds)],
            stdout=subprocess.PIPE, text=True, env=env, preexec_fn=_pinned(player_cores))
            for share in shares if len(share)]
        time.sleep(max(0.0, start + WARMUP - time.monotonic()))
        cpu0, waited0 = _cpu_seconds(lobby.pid), _waited_seconds(lobby.pid)
        time.sleep(seconds)
        cpu = (_cpu_seconds(lobby.pid) - cpu0) / seconds
        waited = (_waited_seconds(lobby.pid) - waited0) / seconds
        results = []
        for proc in procs:
            out, _ = proc.communicate(timeout=120 + rooms)
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        lobby.terminate()
        lobby.communicate(timeout=10)
    delays = sorted(d for r in results for d in r["delays"])
    sent = sum(r["sent"] for r in results)
    received = sum(r["received"] for r in results)
    frames = sum(r["frames"] for r in results) / len(results)
    counted = seconds - TAIL  # the seconds whose messages are counted

    def percentile(q: float) -> float:
        return delays[min(len(delays) - 1, int(q * len(delays)))] / 1e9 if delays else 0.0

    return LobbyRow(rooms, rooms * players, frames / seconds, received / counted,
                    percentile(0.5), percentile(0.99), cpu, sent - received, sent, received,
                    players_cpu=sum(r["cpu"] for r in results) / seconds,
                    load=os.getloadavg()[0], waited=waited,
                    players_waited=sum(r["waited"] for r in results) / seconds)


def format_table(rows: Sequence[LobbyRow], seconds: float) -> str:
    """The figures as a table."""
    lines = [f"lobby: one lobby process (ws://, pinned to one core), players in worker "
             f"processes on the other cores, 50 frames/s, {seconds:g} s measured after "
             f"{WARMUP:g} s",
             f"{'rooms':>5} {'players':>7} {'frames/s':>8} {'messages/s':>10} {'p50':>8} "
             f"{'p99':>8} {'lost':>5} {'lobby CPU':>9} {'a message':>9} {'waited':>6} "
             f"{'players CPU':>11} {'waited':>6} {'load':>5}"]
    for r in rows:
        lines.append(f"{r.rooms:>5} {r.players:>7} {r.fps:>8.1f} {r.messages:>10,.0f} "
                     f"{r.p50 * 1000:>6.1f}ms {r.p99 * 1000:>6.1f}ms {r.lost:>5} "
                     f"{r.cpu * 100:>8.0f}% {r.per_message * 1e6:>7.1f}us "
                     f"{r.waited * 100:>5.0f}% {r.players_cpu * 100:>10.0f}% "
                     f"{r.players_waited * 100:>5.0f}% {r.load:>5.1f}")
    lines.append("frames/s: each player's messages a second; p50, p99: the delay one way, sender "
                 "to receiver through the lobby (the players' own scheduling included); lost: "
                 "sent and not received; lobby CPU: of one core, and its CPU time a message "
                 "relayed; waited: the time the lobby was ready to run and waited for its core "
                 "(other processes' load); players CPU, waited: the same of the players' "
                 "processes; load: the machine's load average (1 min) at the end")
    return "\n".join(lines)


def run_from_args(seconds: float, rooms: Sequence[int], players: int, out: TextIO) -> int:
    """``zxmonopoly bench --lobby``: a row for each number of rooms."""
    rows = []
    for count in rooms:
        print(f"measuring {count} rooms of {players} through one lobby (load average "
              f"{os.getloadavg()[0]:.1f}) ...", file=sys.stderr, flush=True)
        rows.append(measure(count, players, seconds))
    print(format_table(rows, seconds), file=out)
    return 0


if __name__ == "__main__":  # a worker: URL FIRST STEP ROOMS PLAYERS START SECONDS
    url, first, step, total, players_, start_, seconds_ = sys.argv[1:8]
    result = asyncio.run(_worker(url, range(int(first), int(total), int(step)), int(players_),
                                 float(start_), float(seconds_)))
    print(json.dumps(result))
