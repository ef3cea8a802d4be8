"""Hostile peers (issue 29): each is dropped with its one-line reason, and the host's machine
(and the honest peer's) goes on exactly as it would have without it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest

from tests.net.helpers import (
    QUICK,
    RawClient,
    Recorder,
    close,
    compare,
    run,
    start_game,
    wait_until,
)
from tests.net.helpers import title_machine as machine_at_title
from zxmonopoly.harness.words import max_players
from zxmonopoly.net import Host, NetError, machine_digest
from zxmonopoly.net import protocol as p
from zxmonopoly.net.lockstep import TapeFile

RELEASED = b"\xff" * 8
Attack = Callable[[Host], Awaitable[str]]


async def wrong_code(host: Host) -> str:
    raw = await RawClient.connect(host.port)
    answer = await raw.hello("ZZZZZ-ZZZZZ" if host.code != "ZZZZZ-ZZZZZ" else "YYYYY-YYYYY")
    assert isinstance(answer, p.Bye)
    return answer.reason


async def wrong_version(host: Host) -> str:
    raw = await RawClient.connect(host.port)
    answer = await raw.hello(host.code, version="9.9.9")
    assert isinstance(answer, p.Bye)
    return answer.reason


async def wrong_protocol(host: Host) -> str:
    raw = await RawClient.connect(host.port)
    answer = await raw.hello(host.code, protocol=99)
    assert isinstance(answer, p.Bye)
    return answer.reason


async def wrong_rom(host: Host) -> str:
    raw = await RawClient.connect(host.port)
    answer = await raw.hello(host.code, rom=b"\x01" * 32)
    assert isinstance(answer, p.Bye)
    return answer.reason


async def garbage(host: Host) -> str:
    raw = await RawClient.connect(host.port)
    raw.send_bytes(b"GET / HTTP/1.1\r\nHost: example\r\n\r\n" * 50)
    return await raw.bye()


async def oversized(host: Host) -> str:
    raw = await RawClient.connect(host.port)
    raw.send_bytes(p.HEADER.pack(p.Hello.TYPE, 0xFFFFFFFF) + b"\0" * 1000)
    return await raw.bye()


async def half_then_silence(host: Host) -> str:
    raw = await RawClient.connect(host.port)
    hello = p.Hello(p.PROTOCOL_VERSION, False, bytes(16), bytes(32), bytes(32), "0", "x")
    raw.send_bytes(hello.encode()[:40])
    return await raw.bye()


async def auth_first(host: Host) -> str:
    raw = await RawClient.connect(host.port)
    raw.send(p.Auth(bytes(32)))
    return await raw.bye()


async def _joined(host: Host, spectator: bool = False) -> tuple[RawClient, p.Welcome]:
    raw = await RawClient.connect(host.port)
    welcome = await raw.hello(host.code, spectator=spectator)
    assert isinstance(welcome, p.Welcome), welcome
    return raw, welcome


async def flood(host: Host) -> str:
    raw, welcome = await _joined(host)
    for frame in range(welcome.join, welcome.join + 500):
        raw.send(p.Input(frame, RELEASED, 0))
    return await raw.bye()


async def out_of_order(host: Host) -> str:
    raw, welcome = await _joined(host)
    raw.send(p.Input(welcome.join + 5, RELEASED, 0))
    return await raw.bye()


async def host_message(host: Host) -> str:
    raw, welcome = await _joined(host)
    raw.send(p.Delay(3))
    return await raw.bye()


async def joiner_pause(host: Host) -> str:
    """A joiner sends the host's own CONTROL (a pause): only the host pauses the game."""
    raw, welcome = await _joined(host)
    raw.send(p.Control(welcome.join + 1, p.PAUSE))
    return await raw.bye()


async def joiner_snapshot(host: Host) -> str:
    """A joiner sends a STATE (a snapshot to load everywhere): the host's control only."""
    raw, welcome = await _joined(host)
    raw.send(p.State(p.LOAD, welcome.state))
    return await raw.bye()


async def spectator_keys(host: Host) -> str:
    raw, _ = await _joined(host, spectator=True)
    raw.send(p.Input(0, RELEASED, 0))
    return await raw.bye()


async def silent(host: Host) -> str:
    # A spectator: a player that is silent sends no keys either, and the game's wait for
    # them (QUICK's stall, 2 s as the silence) could drop it first on a busy machine.
    raw, _ = await _joined(host, spectator=True)
    raw.writer.transport.pause_reading()  # reads nothing, answers no ping
    await wait_until(lambda: bool(host.dropped))  # the host's silence timeout (QUICK) drops it
    raw.writer.transport.resume_reading()
    return await raw.bye()


async def no_keys(host: Host) -> str:
    """Joins as a player, answers every ping, sends no keys: the game waits, then drops it."""
    raw, _ = await _joined(host)
    while True:
        message = await raw.receive(10)
        if isinstance(message, p.Ping):
            raw.send(p.Pong(message.stamp))
        elif isinstance(message, p.Bye):
            return message.reason


ATTACKS: list[tuple[Attack, str]] = [
    (wrong_code, "wrong join code"),
    (wrong_version, "wrong version: zxmonopoly 9.9.9, the host runs"),
    (wrong_protocol, f"wrong version: protocol 99, this host speaks {p.PROTOCOL_VERSION}"),
    (wrong_rom, "wrong ROM"),
    (garbage, "unknown message type 71"),
    (oversized, "HELLO message of 4,294,967,295 bytes: it is 89 to 153"),
    (half_then_silence, "stalled in the middle of a HELLO message"),
    (auth_first, "AUTH message out of order: a joiner starts with HELLO"),
    (flood, "a flood of keys: frame"),
    (out_of_order, "out of order: keys for frame"),
    (host_message, "DELAY message out of order: a joiner never sends it"),
    (joiner_pause, "CONTROL message out of order: a joiner never sends it"),
    (joiner_snapshot, "bytes: from a joiner it is 29 to 229"),
    (spectator_keys, "a spectator sent keys"),
    (silent, "silent for 2 s"),
    (no_keys, "no keys for frame"),
]


def reference_hashes(frames: int) -> dict[int, bytes]:
    """The machine's hash at every frame with no key pressed: the game without the attack."""
    machine = machine_at_title()
    hashes = {}
    for frame in range(1, frames + 1):
        machine.run_frames(1)
        hashes[frame] = machine_digest(machine)
    return hashes


@pytest.mark.parametrize("attack, reason", ATTACKS, ids=[a.__name__ for a, _ in ATTACKS])
def test_a_hostile_peer_is_dropped_and_changes_nothing(attack: Attack, reason: str) -> None:
    async def game() -> tuple[str, Host, list[Recorder]]:
        host, peers = await start_game(2, host_kwargs={"timeouts": QUICK})
        recorders = [Recorder(host), Recorder(peers[0])]
        done = asyncio.Event()
        told: list[str] = []

        async def attacker() -> None:
            try:
                told.append(await attack(host))
            finally:
                done.set()

        stop = time.perf_counter() + 20

        def until(_node: object) -> bool:
            return done.is_set() or time.perf_counter() > stop

        await asyncio.gather(attacker(), host.run(until=until), peers[0].run(until=until))
        await asyncio.gather(host.run(25), peers[0].run(25))  # the game goes on
        await close(host, peers)
        return told[0], host, recorders

    told, host, recorders = run(game())
    assert reason in told, told
    assert told.startswith("dropped: ")
    assert [r for _, r in host.dropped if reason in r], host.dropped
    assert any(reason in line for line in host.messages)
    assert compare(recorders) >= 25
    reference = reference_hashes(max(recorders[0].hashes))
    assert all(recorders[0].hashes[f] == reference[f] for f in recorders[0].hashes)
    assert host.ended is not None  # closed by the test, not by the attack


def test_a_joiner_with_another_tape_is_refused() -> None:
    """The host has a tape in its deck: a joiner must have the same one."""

    async def game() -> str:
        from zxmonopoly import images

        tape = TapeFile.read(images.game_tape_path())
        host = Host(machine_at_title(), port=0, tape=tape, timeouts=QUICK)
        await host.start()
        raw = await RawClient.connect(host.port)
        answer = await raw.hello(host.code)
        await host.close()
        assert isinstance(answer, p.Bye)
        return answer.reason

    assert run(game()).startswith("dropped: wrong tape: the host's is monopoly.tap")


def test_the_game_is_full_at_six_players() -> None:
    """The game's six players (the host and five; the window gives the host the game's own
    count): a seventh is turned away; a spectator may watch."""
    players = max_players()
    assert players == 6

    async def game() -> tuple[str, p.Message]:
        # The host's own timeouts: the raw players answer no ping, and QUICK's 2 s of silence
        # dropped some of them on a busy machine before the seventh came (room again).
        host = Host(machine_at_title(), port=0, players=players)
        await host.start()
        raws = []
        for _ in range(players - 1):
            raw, _ = await _joined(host)
            raws.append(raw)
        seventh = await RawClient.connect(host.port)
        refused = await seventh.hello(host.code)
        assert isinstance(refused, p.Bye)
        watcher = await RawClient.connect(host.port)
        watching = await watcher.hello(host.code, spectator=True)
        await host.close()
        return refused.reason, watching

    reason, watching = run(game())
    assert reason == f"dropped: the game is full: {players} players at most"
    assert isinstance(watching, p.Welcome) and watching.slot == p.NO_SLOT


def test_the_players_are_the_hosts_setting() -> None:
    """How many may play is what the host was given, within the wire's MAX_SLOTS: with three,
    a fourth is turned away; more slots than the messages carry, or one player, is refused."""

    async def game() -> str:
        host = Host(machine_at_title(), port=0, players=3, timeouts=QUICK)
        await host.start()
        raws = [await _joined(host) for _ in range(2)]  # kept open
        fourth = await RawClient.connect(host.port)
        refused = await fourth.hello(host.code)
        await host.close()
        assert isinstance(refused, p.Bye) and len(raws) == 2
        return refused.reason

    assert run(game()) == "dropped: the game is full: 3 players at most"
    for bad in (1, p.MAX_SLOTS + 1):
        with pytest.raises(NetError, match=f"2 to {p.MAX_SLOTS} players, not {bad}"):
            Host(machine_at_title(), port=0, players=bad)
    assert Host(machine_at_title(), port=0).max_players == p.MAX_SLOTS


def test_spectators_are_limited() -> None:
    """The host takes its stated number of spectators; one more is told there is no room."""

    async def game() -> str:
        host = Host(machine_at_title(), port=0, spectators=2)  # (the raws answer no ping)
        await host.start()
        watching = [await _joined(host, spectator=True) for _ in range(2)]  # kept open
        extra = await RawClient.connect(host.port)
        refused = await extra.hello(host.code, spectator=True)
        players = len([pl for pl in host.players.values() if pl.playing])
        assert len(host.conns) == len(watching)
        await host.close()
        assert isinstance(refused, p.Bye)
        assert players == 1  # spectators take no player's slot
        return refused.reason

    assert run(game()) == "dropped: no room: 2 spectators at most"
    assert Host(machine_at_title(), port=0).max_spectators == p.MAX_SPECTATORS == 8
