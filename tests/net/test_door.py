"""The host's door (issue 46): a hundred idle sockets held open against it, from one address
or from a hundred, do not keep a real joiner out; the strangers it turns away are counted in
a few lines, not a line each."""

from __future__ import annotations

import asyncio

import pytest

from tests.net.helpers import run, title_machine
from zxmonopoly.net import Host, Peer
from zxmonopoly.net import protocol as p
from zxmonopoly.net.host import DOOR_LINES

IDLE = 100
#: Seconds a real joiner may take to get in while the idle sockets are held.
WITHIN = 5.0


@pytest.mark.parametrize("spread", [False, True], ids=["one-address", "a-hundred-addresses"])
def test_a_hundred_idle_sockets_do_not_keep_a_joiner_out(spread: bool) -> None:
    """A hundred connections that send nothing (from 127.0.0.2, or from 127.0.1.1 to
    127.0.1.100), held open; a real joiner from 127.0.0.1 is in within 5 s."""

    async def game() -> tuple[Host, list[str], int]:
        host = Host(title_machine(), port=0, name="ANNE")  # the real handshake deadline
        await host.start()
        idle = []
        for k in range(IDLE):
            source = f"127.0.1.{k + 1}" if spread else "127.0.0.2"
            idle.append(await asyncio.open_connection("127.0.0.1", host.port,
                                                      local_addr=(source, 0)))
        seen = 0
        while len(host.pending) + sum(host.door.total.values()) < IDLE and seen < 250:
            seen += 1  # the host sees them all (a bound: 5 s)
            await asyncio.sleep(0.02)
        waiting = len(host.pending)
        peer = Peer(title_machine(), "127.0.0.1", host.port, host.code, name="BOB")
        await asyncio.wait_for(peer.join(), WITHIN)
        await asyncio.gather(host.run(20), peer.run(20))
        joined = [c.who for c in host.conns]
        for _reader, writer in idle:
            writer.transport.abort()
        await peer.close()
        await host.close()
        return host, joined, waiting

    host, joined, waiting = run(game())
    assert len(joined) == 1 and joined[0].startswith("player 2 (BOB, 127.0.0.1:"), joined
    assert waiting <= (p.MAX_PENDING if spread else p.MAX_PENDING_PER_ADDRESS)
    refused = sum(host.door.total.values())
    if spread:  # each newcomer past 32 let the longest waiting go
        assert refused >= IDLE - p.MAX_PENDING
        assert any("let go for a newcomer" in r for r in host.door.total)
    else:  # 4 from one address at most: the other 96 refused at once
        assert host.door.total[f"{p.MAX_PENDING_PER_ADDRESS} others from 127.0.0.2 are "
                               "joining; try again"] == IDLE - p.MAX_PENDING_PER_ADDRESS
    lines = [line for line in host.messages if line.startswith("refused")]
    assert len(lines) <= DOOR_LINES + 1, lines  # a few, not one a stranger


def test_the_door_log_says_a_few_then_counts() -> None:
    """Three lines a period, then one line with the counts by reason."""
    from zxmonopoly.net.host import DoorLog

    said: list[str] = []
    door = DoorLog(said.append, period=0.0, lines=3)
    door.period = 3600.0
    for k in range(10):
        door.refused(f"joiner ({k})", "wrong join code")
    door.refused("joiner (x)", "the handshake took more than 5 s")
    assert said == [f"refused joiner ({k}): wrong join code" for k in range(3)]
    door.period = 0.0
    door.tick()
    assert said[3].startswith("refused 8 more connections in the last ")
    assert said[3].endswith(": 7 wrong join code, 1 the handshake took more than 5 s")
    assert sum(door.total.values()) == 11
