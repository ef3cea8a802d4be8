"""Network play from a window's thread: the network on a thread of its own (net/thread.py),
frames stepped from the caller's loop with ``advance_within``."""

from __future__ import annotations

import pytest

from tests.net.helpers import NAMES, game_symbols, title_machine, typists
from zxmonopoly.harness import decode_state
from zxmonopoly.net import JoinError, machine_digest
from zxmonopoly.net.thread import NetThread


def test_two_windows_loops_play_alike() -> None:
    hosting, joining = NetThread(), NetThread()
    host = hosting.host(title_machine(), port=0, name=NAMES[0])
    peer = joining.join(title_machine(frames=5), "127.0.0.1", host.port, host.code,
                        name=NAMES[1])
    try:
        keys = typists(2)
        seen: list[dict[int, bytes]] = [{}, {}]
        for node, table in zip((host, peer), seen, strict=True):
            node.frame_listeners.append(
                lambda n, table=table: table.__setitem__(n.frame, machine_digest(n.machine)))
        while host.frame < 1200 or peer.frame < 1200:
            if host.frame < 1200:
                host.advance_within(keys[0], 0.02)
            if peer.frame < 1200:
                peer.advance_within(keys[1], 0.02)
        common = set(seen[0]) & set(seen[1])
        assert len(common) >= 1190
        assert all(seen[0][f] == seen[1][f] for f in common)
        state = decode_state(peer.machine.memory, game_symbols())
        assert [pl.name for pl in state.players] == ["ANNE", "BOB"]
    finally:
        joining.close(peer)
        hosting.close(host)
    assert peer.ended == "left the game"


def test_a_join_that_fails_says_why() -> None:
    hosting, joining = NetThread(), NetThread()
    host = hosting.host(title_machine(), port=0)
    try:
        with pytest.raises(JoinError, match="the host refused: dropped: wrong join code"):
            joining.join(title_machine(), "127.0.0.1", host.port,
                         "22222-22222" if host.code != "22222-22222" else "33333-33333")
        with pytest.raises(JoinError, match="cannot reach 127.0.0.1:1: nobody is listening there"):
            joining.join(title_machine(), "127.0.0.1", 1, host.code)
    finally:
        joining.close()
        hosting.close(host)
