"""The seal (issue 46): after the handshake every message is sealed (AES-256-GCM, a key a
direction from the join code and both nonces, a counter a sender); a relay that flips, drops,
duplicates or replays one sealed message is found out and named, and no machine changes
because of it."""

from __future__ import annotations

import asyncio
import time

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

from tests.net.helpers import QUICK, Recorder, compare, run, title_machine
from tests.net.tamper import Tamper
from tests.net.test_hostile import reference_hashes
from zxmonopoly.net import Host, Peer
from zxmonopoly.net import protocol as p


def test_a_sealed_message_opens_once_in_its_order_and_not_changed() -> None:
    key = bytes(range(32))
    sealer, opener = p.Sealer(key), p.Opener(key, "the host")
    messages = [p.Input(k, b"\xff" * 8, 0).encode() for k in range(3)]
    sealed = [p.decode_stream(sealer.seal(m))[0] for m in messages]
    assert all(isinstance(s, p.Sealed) for s in sealed)
    assert [s.counter for s in sealed] == [0, 1, 2]  # type: ignore[attr-defined]
    assert messages[0] not in sealed[0].encode()  # the keys cannot be read on the way
    assert opener.open(sealed[0]) == messages[0]  # type: ignore[arg-type]
    assert opener.open(sealed[0]) is None and opener.repeats == 1  # type: ignore[arg-type]
    with pytest.raises(p.ProtocolError, match="sealed message 2 from the host came when 1 "
                                              "was due: 1 lost or held back on the way"):
        opener.open(sealed[2])  # type: ignore[arg-type]
    box = sealed[1].box  # type: ignore[attr-defined]
    changed = p.Sealed(1, box[:3] + bytes([box[3] ^ 0x80]) + box[4:])
    with pytest.raises(p.ProtocolError, match="sealed message 1 from the host failed its "
                                              "check: it was changed on the way"):
        opener.open(changed)
    assert opener.open(sealed[1]) == messages[1]  # type: ignore[arg-type]
    other = p.Opener(bytes(32), "the host")  # another key: nothing opens
    with pytest.raises(p.ProtocolError, match="failed its check"):
        other.open(sealed[0])  # type: ignore[arg-type]


def test_the_keys_are_a_browsers_and_differ_by_direction_and_connection() -> None:
    """PBKDF2-SHA256 and HKDF-SHA256 (both in WebCrypto): the code's key is PBKDF2's as
    another implementation computes it; each direction and each pair of nonces its own key."""
    other = PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=b"zxmonopoly join code",
                       iterations=p.CODE_ROUNDS).derive(b"7K3QFM2X9A")
    key = p.code_key("7k3qf-m2x9a")
    assert key == other
    down, up = p.session_keys(key, b"h" * 16, b"j" * 16)
    again = p.session_keys(key, b"h" * 16, b"k" * 16)
    assert len({down, up, *again}) == 4


def test_the_handshake_seals_the_connection() -> None:
    """Host and peer, then every message after AUTH sealed both ways (a raw look at the
    bytes through the relay: no INPUT or INPUTS in the clear)."""

    async def game() -> tuple[Host, Peer]:
        host = Host(title_machine(), port=0, timeouts=QUICK)
        await host.start()
        peer = Peer(title_machine(), "127.0.0.1", host.port, host.code, timeouts=QUICK)
        await peer.join()
        await asyncio.gather(host.run(60), peer.run(60))
        assert host.conns[0].sealed and peer.conn is not None and peer.conn.sealed
        sent = host.conns[0].sealer.counter  # type: ignore[union-attr]
        await peer.close()
        await host.close()
        assert sent >= 60  # WELCOME, 60 frames of the host's keys, pings: all sealed
        return host, peer

    run(game())


CASES = [
    # (direction up (peer to host), action, what the host's drop or note says)
    (True, "flip", "failed its check: it was changed on the way"),
    (True, "drop", "was due: 1 lost or held back on the way"),
    (True, "duplicate", "came again"),
    (True, "replay", "came again"),
    (False, "flip", "failed its check: it was changed on the way"),
    (False, "replay", "came again"),
]


@pytest.mark.parametrize("up, action, said", CASES,
                         ids=[f"{'up' if u else 'down'}-{a}" for u, a, _ in CASES])
def test_a_relay_that_tampers_is_found_out(up: bool, action: str, said: str) -> None:
    """The 80th sealed message one way is tampered with: a change or a loss drops the peer
    with the reason named (the host's machine goes on as with no peer); a repeat is named
    and ignored, and the game goes on alike on both."""

    async def game() -> tuple[Host, Peer, list[Recorder], Tamper]:
        host = Host(title_machine(), port=0, name="ANNE", timeouts=QUICK)
        await host.start()
        tamper = Tamper(host.port, up, action, nth=80)
        port = await tamper.start()
        peer = Peer(title_machine(frames=5), "127.0.0.1", port, host.code, name="BOB",
                    timeouts=QUICK)
        await peer.join()
        recorders = [Recorder(host), Recorder(peer)]
        stop = time.perf_counter() + 20

        def until(_node: object) -> bool:
            heard = any(said in line for line in host.messages + peer.messages)
            return (heard and host.frame > 200) or time.perf_counter() > stop

        await asyncio.gather(host.run(until=until), peer.run(until=until))
        await asyncio.gather(host.run(25), peer.run(25))  # the game goes on
        await peer.close()
        await host.close()
        await tamper.close()
        return host, peer, recorders, tamper

    host, peer, recorders, tamper = run(game())
    assert tamper.done is not None
    lines = host.messages + peer.messages
    assert any(said in line and f"{tamper.done:,}" in line for line in lines), lines
    assert compare(recorders) >= (50 if action in ("flip", "drop") else 200)
    assert host.stats.desyncs == peer.stats.desyncs == 0
    if action in ("flip", "drop"):  # the stream cannot be trusted: that connection goes
        if up:
            assert [r for _, r in host.dropped if said in r], host.dropped
        else:  # the host's messages changed on the way: the peer comes back by itself
            assert any(line.startswith("the host's messages were changed on the way")
                       for line in peer.messages), peer.messages
            assert any(line.startswith("joined again after") for line in peer.messages), \
                peer.messages
        reference = reference_hashes(max(recorders[0].hashes))
        assert all(recorders[0].hashes[f] == reference[f] for f in recorders[0].hashes)
    else:  # ignored: the peer played on to the end
        assert not [r for _, r in host.dropped if r != "left the game"], host.dropped
        assert peer.frame > 200
