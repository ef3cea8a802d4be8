"""The words of network play (issue 46, item 5): each message that was wrong or muddled,
said right."""

from __future__ import annotations

import asyncio

import pytest

from tests.net.helpers import QUICK, RawClient, run, start_game, title_machine
from zxmonopoly import images
from zxmonopoly.net import Host, JoinError, Peer
from zxmonopoly.net import protocol as p
from zxmonopoly.net.lockstep import TapeFile


def test_a_joiner_with_another_tape_is_told_both_tapes_and_the_host_why() -> None:
    """The joiner names the host's tape and its own, with their hashes; the host says the
    joiner gave up for that reason (not "BYE message out of order: AUTH was due")."""
    tape = TapeFile.read(images.game_tape_path())
    other = TapeFile("other.tap", tape.data + b"\x02\x00\xff\xff")

    async def game() -> tuple[str, list[str]]:
        host = Host(title_machine(), port=0, tape=tape, timeouts=QUICK)
        await host.start()
        peer = Peer(title_machine(), "127.0.0.1", host.port, host.code, tape=other,
                    timeouts=QUICK)
        with pytest.raises(JoinError) as refused:
            await peer.join()
        polls = 0
        while not any("wrong tape" in line for line in host.messages) and polls < 250:
            polls += 1  # the host reads the joiner's goodbye (a bound: 5 s)
            await asyncio.sleep(0.02)
        await host.close()
        return str(refused.value), host.messages

    said, host_lines = run(game())
    assert f"wrong tape: the host's is monopoly.tap (sha256 {tape.sha256.hex()[:16]}...)" in said
    assert f"this one's is other.tap (sha256 {other.sha256.hex()[:16]}...)" in said
    assert said.endswith("join with --tape and the host's file")
    refusal = [line for line in host_lines if "wrong tape" in line]
    assert refusal and "it gave up joining: wrong tape: the host's is monopoly.tap" in refusal[0]
    assert not any("out of order" in line for line in host_lines), host_lines


def test_a_voluntary_leave_is_a_leave_said_once_everywhere() -> None:
    """Player 2 leaves: the host says it left the game (not "dropped"), the other peer
    too (not "left (left (left the game))")."""

    async def game() -> tuple[Host, list[Peer]]:
        host, peers = await start_game(3, host_kwargs={"timeouts": QUICK})
        nodes = [host, *peers]
        await asyncio.gather(*(n.run(30) for n in nodes))
        await peers[0].close()
        await asyncio.gather(host.run(30), peers[1].run(30))
        await peers[1].close()
        await host.close()
        return host, peers

    host, peers = run(game())
    left = [line for line in host.messages if line.startswith("player 2 (BOB, ")
            and "joined" not in line]
    assert left and left[0].split(") ", 1)[1].startswith(
        "left the game; its keys are released from frame "), left
    other = [line for line in peers[1].messages if line.startswith("player 2 (BOB)")]
    assert other and other[0].startswith(
        "player 2 (BOB) left the game; its keys are released from frame "), other
    everything = host.messages + peers[1].messages
    assert not any("left (" in line or "dropped player 2" in line for line in everything)


def test_a_dropped_player_is_said_to_be_dropped_by_the_others() -> None:
    """A player killed (its connection gone): the host drops it, the other peer says it
    was dropped and why."""

    async def game() -> list[Peer]:
        host, peers = await start_game(3, host_kwargs={"timeouts": QUICK})
        await asyncio.gather(*(n.run(30) for n in [host, *peers]))
        peers[0].kill()
        await asyncio.gather(host.run(30), peers[1].run(30))
        await peers[1].close()
        await host.close()
        return peers

    peers = run(game())
    other = [line for line in peers[1].messages if line.startswith("player 2 (BOB)")]
    assert other and other[0].startswith("player 2 (BOB) was dropped: disconnected; its keys "
                                         "are released from frame "), other


def test_a_joiner_s_welcome_is_refused_from_its_header() -> None:
    """A joiner sends the header of a 1 MiB WELCOME (a message only the host sends): it is
    refused as out of order at once, not read whole and then taken for a bad input delay."""

    async def game() -> str:
        host = Host(title_machine(), port=0, timeouts=QUICK)
        await host.start()
        raw = await RawClient.connect(host.port)
        raw.send_bytes(p.HEADER.pack(p.Welcome.TYPE, 1 << 20))  # and not a byte more
        reason = await raw.bye()
        await host.close()
        return reason

    assert run(game()) == "dropped: WELCOME message out of order: a joiner never sends it"
