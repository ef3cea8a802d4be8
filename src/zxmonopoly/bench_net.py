"""``zxmonopoly bench --net``: two peers on loopback through a relay that delays and jitters,
at several round trips: the input delay chosen, the frames per second held, stalls, desyncs.

Each round trip is a new game: the host (player 1) and a peer (player 2) on machines at the
game's title, each typing its own player's setup (harness/scripted.py), both paced at 50
frames a second. The first WARMUP seconds (the join, the delay settling) are not counted.
Beside ``benchmarks.py`` rather than in ``net/``: it plays the game (the harness), which the
network knows nothing of.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from zxmonopoly.harness.scripted import setup_typist
from zxmonopoly.net.host import Host
from zxmonopoly.net.lockstep import machine_digest
from zxmonopoly.net.peer import Peer
from zxmonopoly.net.relay import Relay

ROUND_TRIPS = (0.0, 0.05, 0.1, 0.15, 0.25)
#: Each direction adds a uniform 0..JITTER seconds to the relay's half of the round trip.
JITTER = 0.01
WARMUP = 2.0


@dataclass(frozen=True)
class NetRow:
    """One round trip's figures."""

    rtt: float  # set on the relay, seconds
    measured: float  # the host's worst sample of the last two seconds, seconds
    host_delay: int
    peer_delay: int
    host_fps: float
    peer_fps: float
    stalls: int  # both peers, after the warm-up
    stall_seconds: float
    desyncs: int
    compared: int  # frames whose machine hash was compared between the two
    differ: int  # ... and found different


async def _measure(rtt: float, seconds: float, engine: str, jitter: float) -> NetRow:
    from zxmonopoly.harness import Session

    host_session = Session.game(engine=engine)
    symbols = host_session.symbols
    host = Host(host_session.machine, port=0, name="ANNE")
    await host.start()
    relay = Relay(("127.0.0.1", host.port), rtt, jitter)
    port = await relay.start()
    peer = Peer(Session.game(engine=engine).machine, "127.0.0.1", port, host.code, name="BOB")
    await peer.join()
    hashes: list[dict[int, bytes]] = [{}, {}]
    for node, table in zip((host, peer), hashes, strict=True):
        node.frame_listeners.append(
            lambda n, table=table: table.__setitem__(n.frame, machine_digest(n.machine)))
    keys = [setup_typist(symbols, 1, "ANNE", host=True, players=2),
            setup_typist(symbols, 2, "BOB", host=False, players=2)]
    start = time.perf_counter()
    mark: list[tuple[float, int, int, int, float]] = []

    def until(_node: object) -> bool:
        now = time.perf_counter()
        if not mark and now - start >= WARMUP:
            mark.append((now, host.stats.frames, peer.stats.frames,
                         host.stats.stalls + peer.stats.stalls,
                         host.stats.stall_seconds + peer.stats.stall_seconds))
        return now - start >= WARMUP + seconds

    await asyncio.gather(host.run(local=keys[0], until=until),
                         peer.run(local=keys[1], until=until))
    elapsed = time.perf_counter() - mark[0][0]
    conn = host.conns[0] if host.conns else None
    measured = max(conn.rtts) if conn is not None and conn.rtts else float("nan")
    common = set(hashes[0]) & set(hashes[1])
    row = NetRow(rtt, measured, host.delay, peer.delay,
                 (host.stats.frames - mark[0][1]) / elapsed,
                 (peer.stats.frames - mark[0][2]) / elapsed,
                 host.stats.stalls + peer.stats.stalls - mark[0][3],
                 host.stats.stall_seconds + peer.stats.stall_seconds - mark[0][4],
                 host.stats.desyncs + peer.stats.desyncs, len(common),
                 sum(1 for f in common if hashes[0][f] != hashes[1][f]))
    await peer.close()
    await host.close()
    await relay.close()
    return row


def measure(rtt: float, seconds: float = 10.0, engine: str = "python",
            jitter: float = JITTER) -> NetRow:
    """One game through a relay of round trip ``rtt`` seconds, ``seconds`` measured."""
    return asyncio.run(_measure(rtt, seconds, engine, jitter))


def format_table(rows: Sequence[NetRow], seconds: float, engine: str) -> str:
    """The figures as a table."""
    lines = [f"network play: host and peer on loopback through a relay (0-{JITTER * 1000:.0f} "
             f"ms jitter each way), {engine} engine, paced at 50 frames/s, {seconds:g} s "
             f"measured after {WARMUP:g} s",
             f"{'RTT set':>8} {'RTT seen':>9} {'delay':>9} {'host fps':>9} {'peer fps':>9} "
             f"{'stalls':>7} {'stalled':>8} {'desyncs':>8} {'frames alike':>13}"]
    for r in rows:
        lines.append(
            f"{r.rtt * 1000:>6.0f}ms {r.measured * 1000:>7.0f}ms "
            f"{f'{r.host_delay}/{r.peer_delay} fr':>9} {r.host_fps:>9.2f} {r.peer_fps:>9.2f} "
            f"{r.stalls:>7} {r.stall_seconds * 1000:>6.0f}ms {r.desyncs:>8} "
            f"{f'{r.compared - r.differ}/{r.compared}':>13}")
    lines.append("delay: frames the host's / the peer's keys are scheduled ahead; stalls: "
                 "frames that waited for keys")
    return "\n".join(lines)


def run_from_args(seconds: float, engine: str | None, out: TextIO) -> int:
    """``zxmonopoly bench --net``: every round trip of ROUND_TRIPS, the table to ``out``."""
    import sys

    engine = engine or "python"
    rows = []
    for rtt in ROUND_TRIPS:
        print(f"measuring network play at {rtt * 1000:.0f} ms round trip ...", file=sys.stderr,
              flush=True)
        rows.append(measure(rtt, seconds, engine))
    print(format_table(rows, seconds, engine), file=out)
    return 0 if all(r.differ == 0 for r in rows) else 1
