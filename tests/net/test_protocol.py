"""The protocol's messages, bounds, join code and proofs; a Hypothesis fuzz of the decoder."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz import mutated
from zxmonopoly.net import protocol as p

STATE = p.MachineState(1234, 99, 5_000_000, True, False, b"ZXST" + bytes(100))
EXAMPLES: list[p.Message] = [
    p.Hello(p.PROTOCOL_VERSION, False, bytes(range(16)), b"r" * 32, b"t" * 32, "0.1.0", "BOB"),
    p.Hello(p.PROTOCOL_VERSION, True, bytes(16), bytes(32), bytes(32), "", ""),
    p.Challenge(p.PROTOCOL_VERSION, b"n" * 16, b"r" * 32, bytes(32), "0.1.0"),
    p.Auth(b"m" * 32),
    p.Welcome(b"h" * 32, 2, 1300, 5, 1,
              (p.Member(0, 0, p.NO_FRAME, "ANNE"), p.Member(2, 1300, p.NO_FRAME, "Ünal")),
              STATE),
    p.Welcome(b"h" * 32, p.NO_SLOT, p.NO_FRAME, 2, 0, (), STATE),
    p.Input(77, bytes([0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]), 0x10),
    p.Inputs(3, 78, b"\xff" * 8, 0),
    p.Join(4, 500, "CAT"),
    p.Leave(4, 900, "disconnected"),
    p.Control(50, p.PAUSE),
    p.Control(60, p.SPEED, 2),
    p.Control(70, p.RESET),
    p.State(p.RESYNC, STATE),
    p.State(p.LOAD, STATE),
    p.Tape(80, True, "monopoly.tap", b"\x13\x00" + bytes(19)),
    p.Hash(150, b"d" * 16),
    p.Ping(123456789),
    p.Pong(123456789),
    p.Delay(7),
    p.Bye("dropped: wrong join code"),
    p.Bye(""),
    p.Hello(p.PROTOCOL_VERSION, False, bytes(16), bytes(32), bytes(32), "page", "WEB",
            browser=True),
    p.Hello(p.PROTOCOL_VERSION, True, bytes(16), bytes(32), bytes(32), "page", "", browser=True),
    p.Claim(b"t" * 16),
    p.Seat(b"h" * 32, 2, 1300, 0, b"t" * 16, "WEB", (("D", "Dice"), ("ENTER", "select"))),
    p.Seat(b"h" * 32, p.NO_SLOT, p.NO_FRAME, 4, bytes(16), "Ünal"),
    p.Roster(p.ROSTER_PAUSED, (p.Seated(0, p.HOST_KIND, 4, p.NO_RTT, "ANNE"),
                               p.Seated(p.NO_SLOT, p.BROWSER_KIND, 0, 35, "WEB"))),
    p.Screen(1301, 1300, p.SCREEN_EAR | p.SCREEN_PICTURE, b"x\x9c..."),
    p.Screen(1, p.NO_FRAME, 0, b""),
    p.Taken(7, 1302),
    p.Key(7, p.KEY_DOWN, 65, bytes([0, 0, 0, 0, 0, 0, 0, 1]), 0),
    p.Key(8, p.KEY_TYPED, 0, bytes([0, 0, 0, 0, 0, 0, 0, 2 | 1]), 0x10),
    p.Ack(1301),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: m.NAME)
def test_every_message_reads_back(message: p.Message) -> None:
    data = message.encode()
    assert p.HEADER.unpack_from(data)[0] == message.TYPE
    assert p.decode_stream(data) == [message]
    assert p.decode_stream(data + data) == [message, message]


def test_each_type_has_a_bound_and_the_bounds_are_stated() -> None:
    """An input is a few bytes, the state at most about 1 MiB; every type is bounded."""
    assert p.BOUNDS[p.Input.TYPE] == (13, 13)
    assert p.BOUNDS[p.Inputs.TYPE] == (14, 14)
    assert max(high for _, high in p.BOUNDS.values()) < 1.01 * (1 << 20) + 4096
    assert set(p.BOUNDS) == set(range(1, 25))


@pytest.mark.parametrize("msg_type, length, reason", [
    (0, 0, "unknown message type 0"),
    (200, 3, "unknown message type 200"),
    (p.Input.TYPE, 12, "INPUT message of 12 bytes: it is 13"),
    (p.Hello.TYPE, 0xFFFFFFFF, "HELLO message of 4,294,967,295 bytes: it is 89 to 153"),
    (p.State.TYPE, (1 << 20) + 100, "STATE message of 1,048,676 bytes"),
])
def test_a_bad_header_is_refused_before_its_payload(msg_type: int, length: int,
                                                    reason: str) -> None:
    with pytest.raises(p.ProtocolError, match=reason.replace("(", r"\(")):
        p.check_header(msg_type, length)


@pytest.mark.parametrize("data, reason", [
    (p.HEADER.pack(1, 89) + b"ZXNQ" + bytes(85), "not a zxmonopoly peer"),
    (p.HEADER.pack(15, 1) + b"\x1a", "input delay 26 frames"),
    (p.HEADER.pack(15, 1) + b"\x01", "input delay 1 frames"),
    (p.HEADER.pack(12, 20) + (151).to_bytes(4, "big") + bytes(16), "not a multiple of 50"),
    (p.HEADER.pack(16, 2) + b"\xff\xfe", "not UTF-8"),
    (p.HEADER.pack(16, 3) + b"a\nb", "control characters"),
    (p.HEADER.pack(9, 6) + (5).to_bytes(4, "big") + b"\x09\x00", "kind 9"),
    (p.HEADER.pack(9, 6) + (5).to_bytes(4, "big") + b"\x02\x05", "speed 5"),
    (p.HEADER.pack(6, 14) + b"\x06" + bytes(13), "slot 6"),
    (p.HEADER.pack(7, 6) + b"\x02" + bytes(4) + b"\x05", "cut short"),
    (p.Join(2, 5, "X").encode()[:-1], "cut short at byte 0"),
    (p.HEADER.pack(3, 32), "cut short"),
    (p.HEADER.pack(1, 89) + b"ZXNP\x00\x03\x04" + bytes(82), "role 4"),
    (p.HEADER.pack(23, 15) + bytes(6) + b"\x20" + bytes(8), "bits that are no key"),
    (p.HEADER.pack(23, 15) + bytes(4) + b"\x03" + bytes(10), "kind 3"),
    (p.HEADER.pack(21, 9) + (5).to_bytes(4, "big") + (5).to_bytes(4, "big") + b"\x00",
     "against a later one"),
    (p.HEADER.pack(21, 9) + (5).to_bytes(4, "big") + (4).to_bytes(4, "big") + b"\x08",
     "flags 0x8"),
    (p.HEADER.pack(20, 2) + b"\x00\x0f", "15 entries"),
    (p.Seat(b"h" * 32, 6, 0, 0, bytes(16), "X").encode(), "SEAT message: slot 6"),
])
def test_bad_payloads_name_the_problem(data: bytes, reason: str) -> None:
    with pytest.raises(p.ProtocolError, match=reason):
        p.decode_stream(data)


def test_left_over_bytes_are_refused() -> None:
    message = p.Join(2, 5, "X")
    body = message.payload() + b"!"
    with pytest.raises(p.ProtocolError, match="1 bytes left over"):
        p.decode(p.Join.TYPE, body)


def test_the_join_code_has_50_random_bits_and_reads_forgivingly() -> None:
    codes = {p.new_join_code() for _ in range(200)}
    assert len(codes) == 200
    code = codes.pop()
    assert len(code) == 11 and code[5] == "-"
    assert p.CODE_BITS >= 40
    normal = p.normal_code(code)
    assert p.normal_code(code.lower()) == normal
    assert p.normal_code(code.replace("-", " ")) == normal
    assert p.normal_code("0O1IL-ABCDE") == "00111ABCDE"
    for bad in ("", "ABCD-EFGH", "ABCDE-FGHJKM", "ABCDE-FGHJU"):
        with pytest.raises(p.JoinCodeError, match="is not a join code"):
            p.normal_code(bad)


def test_proofs_depend_on_the_code_and_both_nonces() -> None:
    key, other = p.code_key("AAAAA-AAAAA"), p.code_key("AAAAA-AAAAB")
    host_nonce, peer_nonce = b"h" * 16, b"p" * 16
    proof = p.peer_proof(key, host_nonce, peer_nonce)
    assert len(proof) == p.MAC_SIZE
    assert p.proof_ok(proof, p.peer_proof(p.code_key("aaaaa aaaaa"), host_nonce, peer_nonce))
    assert not p.proof_ok(proof, p.peer_proof(other, host_nonce, peer_nonce))
    assert not p.proof_ok(proof, p.peer_proof(key, peer_nonce, host_nonce))
    assert not p.proof_ok(proof, p.host_proof(key, host_nonce, peer_nonce))
    # The code itself is never on the wire: no message holds it or its key.
    stream = b"".join(m.encode() for m in EXAMPLES)
    assert b"AAAAAAAAAA" not in stream and key not in stream


def _feed(data: bytes, eof: bool = False) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    return reader


def test_read_message_gives_up_on_half_a_message() -> None:
    async def read() -> None:
        data = p.Hello(p.PROTOCOL_VERSION, False, bytes(16), bytes(32), bytes(32), "x",
                       "y").encode()
        await p.read_message(_feed(data[:30]), 1.0, 0.2)

    with pytest.raises(p.ProtocolError, match="stalled in the middle of a HELLO message"):
        asyncio.run(read())


def test_read_message_refuses_an_oversized_length_without_waiting_for_it() -> None:
    async def read() -> None:
        await p.read_message(_feed(p.HEADER.pack(p.Welcome.TYPE, 0x7FFFFFFF)), 1.0, 30.0)

    with pytest.raises(p.ProtocolError, match="WELCOME message of 2,147,483,647 bytes"):
        asyncio.run(asyncio.wait_for(read(), 2.0))


def test_read_message_reports_a_closed_stream_and_silence() -> None:
    async def closed() -> None:
        await p.read_message(_feed(b"", eof=True), 1.0)

    async def silent() -> None:
        await p.read_message(_feed(b""), 0.1)

    with pytest.raises(asyncio.IncompleteReadError):
        asyncio.run(closed())
    with pytest.raises(TimeoutError):
        asyncio.run(silent())


# -- fuzz -------------------------------------------------------------------------------------

SEEDS = [m.encode() for m in EXAMPLES] + [b"".join(m.encode() for m in EXAMPLES[6:12])]
STREAMS = st.binary(max_size=300) | mutated(SEEDS)
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def _check_stream(data: bytes) -> None:
    try:
        messages = p.decode_stream(data)
    except p.ProtocolError:
        return
    assert b"".join(m.encode() for m in messages) == data  # what reads, writes back the same


def _check_payload(msg_type: int, payload: bytes) -> None:
    try:
        message = p.decode(msg_type, payload)
    except p.ProtocolError:
        return
    assert message.payload() == payload


@settings(max_examples=300, deadline=None, suppress_health_check=HEALTH)
@given(STREAMS)
def test_fuzz_the_decoder(data: bytes) -> None:
    """Random and mutated byte streams: messages, or ProtocolError, never anything else."""
    _check_stream(data)


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=HEALTH)
@given(STREAMS)
def test_fuzz_the_decoder_long(data: bytes) -> None:
    """The same, 10,000 examples (``-m slow``)."""
    _check_stream(data)


@settings(max_examples=300, deadline=None, suppress_health_check=HEALTH)
@given(st.integers(0, 255), st.binary(max_size=200))
def test_fuzz_each_type(msg_type: int, payload: bytes) -> None:
    """Any type number with any payload: a message or ProtocolError."""
    _check_payload(msg_type, payload)


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=HEALTH)
@given(st.integers(0, 255), st.binary(max_size=200))
def test_fuzz_each_type_long(msg_type: int, payload: bytes) -> None:
    """The same, 10,000 examples (``-m slow``)."""
    _check_payload(msg_type, payload)
