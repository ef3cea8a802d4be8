"""The network play protocol: framed messages with a bound per type, the join code, HMAC proofs,
the seal (AES-GCM) every message travels in after the handshake.

Every message on the wire is a 5-byte header, ``type`` (1 byte) and ``length`` (4 bytes, big
endian), then ``length`` bytes of payload. Each type has a fixed length or a bound
(:data:`BOUNDS`); :func:`decode` turns a payload into a message (a frozen dataclass) or raises
:class:`ProtocolError`, and nothing else, whatever the bytes (tests/net/test_protocol.py fuzzes
it). Nothing received is ever unpickled or evaluated: the payloads are fixed ``struct`` layouts,
UTF-8 strings of bounded length and, in the state messages, a .szx image that goes through the
same reader as a file (``snapshot.read_szx``). After the handshake every message travels
sealed (:class:`Sealer`, :class:`Opener`): AES-256-GCM under a key of each direction derived
from the join code and both nonces (PBKDF2 and HKDF, SHA-256: what a browser's WebCrypto has,
so a browser can be a peer), with a counter per sender, so nothing can be read, changed,
replayed or reordered on the way. docs/network.md lists the messages.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import struct
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .errors import NetError

#: Bumped on any change to the messages: peers of another protocol version are refused.
#: 2: sealed after the handshake, the code's key by PBKDF2, the host's tape named.
#: 3: the browser seat (HELLO's browser roles, CLAIM, SEAT, ROSTER, SCREEN, TAKEN, KEY, ACK).
PROTOCOL_VERSION = 3
MAGIC = b"ZXNP"
#: The port ``play --host`` listens on unless ``--port`` says otherwise.
DEFAULT_PORT = 4848

# -- limits (docs/network.md, "Limits") -------------------------------------------------------

#: Player slots the messages carry at most, the host's included (a slot is a byte, and the
#: WELCOME message's bound counts them). How many players a hosted program takes is the
#: host's setting (``Host(players=...)``, at most this), given by whoever hosts it; raising
#: this bound changes the messages (PROTOCOL_VERSION).
MAX_SLOTS = 6
#: Spectators (``--watch``) at most.
MAX_SPECTATORS = 8
#: Connections still in their handshake at most (the door): past it the one waiting longest
#: is let go for the newcomer, so idle strangers cannot keep a real joiner out; and at most
#: MAX_PENDING_PER_ADDRESS from one address (more from it are refused at once).
MAX_PENDING = 32
MAX_PENDING_PER_ADDRESS = 4
#: The input delay in frames: its bounds (2 = 40 ms, 25 = 0.5 s) and its start.
MIN_DELAY, MAX_DELAY, START_DELAY = 2, 25, 4
#: An input may be for a frame at most this far ahead of the host's (a peer can run at most
#: the host's delay ahead of it, and sends its keys its own delay further on).
MAX_LEAD = 2 * MAX_DELAY + 10
#: Frames between machine hashes.
HASH_INTERVAL = 50
#: Seconds: the whole handshake; silence from a connected peer (or from the host); waiting on
#: one player's keys for a frame; the rest of a message once its first byte is in.
HANDSHAKE_TIMEOUT = 5.0
PEER_TIMEOUT = 10.0
STALL_TIMEOUT = 10.0
MESSAGE_TIMEOUT = 5.0
#: Bytes a second a message's rest must at least arrive at (so a large state gets more time).
MESSAGE_RATE = 64 * 1024
#: Seconds between the host's pings (round trip and keep-alive).
PING_INTERVAL = 0.25
#: Bytes waiting to be sent to one peer at most: past it, that peer is not reading; dropped.
MAX_BACKLOG = 8 * 1024 * 1024
#: A machine state (.szx) or a tape at most.
MAX_STATE = 1 << 20
MAX_TAPE = 1 << 20
MAX_NAME = 32
MAX_REASON = 200
MAX_VERSION = 32
HEADER = struct.Struct(">BI")
NONCE_SIZE = 16
MAC_SIZE = 32
HASH_SIZE = 32  # sha256 of the ROM and the tape
DIGEST_SIZE = 16  # the machine hash (blake2b)
NO_FRAME = 0xFFFFFFFF
NO_SLOT = 0xFF
#: The host's own slot; joiners take 1..MAX_SLOTS-1.
HOST_SLOT = 0


@dataclass(frozen=True)
class Timeouts:
    """The seconds a node waits (tests shorten them): see the constants above."""

    handshake: float = HANDSHAKE_TIMEOUT
    silence: float = PEER_TIMEOUT
    stall: float = STALL_TIMEOUT
    message: float = MESSAGE_TIMEOUT


#: The timeouts of a real game.
TIMEOUTS = Timeouts()


class ProtocolError(NetError):
    """A message that breaks the protocol; the text is the one-line reason a peer is dropped."""


class JoinCodeError(NetError, ValueError):
    """A join code that is not one (wrong length or letters; a ValueError too: a bad value
    typed)."""


# -- the join code ----------------------------------------------------------------------------

#: Crockford's base 32: no I, L, O or U, so a code read aloud or off a screen is not misread.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_BITS = 50
CODE_LENGTH = CODE_BITS // 5
_CODE_SPELLING = {"O": "0", "I": "1", "L": "1"}


def new_join_code() -> str:
    """A random join code of 50 bits, as ``XXXXX-XXXXX`` (10 base-32 characters)."""
    value = secrets.randbits(CODE_BITS)
    chars = "".join(CODE_ALPHABET[(value >> (5 * k)) & 31] for k in range(CODE_LENGTH))
    return f"{chars[:5]}-{chars[5:]}"


def normal_code(code: str) -> str:
    """The code's 10 characters in upper case (dashes and spaces dropped, O read as 0, I/L 1)."""
    chars = "".join(_CODE_SPELLING.get(c, c) for c in code.upper() if c not in "- ")
    if len(chars) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in chars):
        raise JoinCodeError(f"{code!r} is not a join code: it is {CODE_LENGTH} letters and "
                            "digits, as the host's window shows it (like 7K3QF-M2X9A)")
    return chars


#: PBKDF2-HMAC-SHA256's rounds for a join code's key: slow to try codes offline (0.14 s a
#: code here), and a browser's WebCrypto has PBKDF2 (it has no scrypt).
CODE_ROUNDS = 600_000


@lru_cache(maxsize=16)
def code_key(code: str) -> bytes:
    """The key of a join code (proofs and seals): PBKDF2 of it, so a code cannot be guessed
    fast offline from what a relay sees."""
    return hashlib.pbkdf2_hmac("sha256", normal_code(code).encode(), b"zxmonopoly join code",
                               CODE_ROUNDS, 32)


def peer_proof(key: bytes, host_nonce: bytes, peer_nonce: bytes) -> bytes:
    """What a joiner sends to prove it knows the code: HMAC-SHA256 over both nonces."""
    return hmac.new(key, b"peer" + host_nonce + peer_nonce, hashlib.sha256).digest()


def host_proof(key: bytes, host_nonce: bytes, peer_nonce: bytes) -> bytes:
    """What the host sends back to prove it knows the code too (the other way round)."""
    return hmac.new(key, b"host" + peer_nonce + host_nonce, hashlib.sha256).digest()


def proof_ok(expected: bytes, received: bytes) -> bool:
    """Compare two proofs in constant time."""
    return hmac.compare_digest(expected, received)


def session_keys(key: bytes, host_nonce: bytes, peer_nonce: bytes) -> tuple[bytes, bytes]:
    """The seal's keys of one connection, (host -> peer, peer -> host): HKDF-SHA256 of the
    code's key over both nonces, so each connection and each direction has keys of its own."""

    def derive(label: bytes) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=host_nonce + peer_nonce,
                    info=b"zxmonopoly seal " + label).derive(key)

    return derive(b"host to peer"), derive(b"peer to host")


#: AES-GCM's tag and the sealed message's counter, in bytes.
TAG_SIZE = 16
COUNTER_SIZE = 8


def _nonce(counter: int) -> bytes:
    """AES-GCM's 12-byte nonce: the sender's counter (a key seals in one direction only)."""
    return bytes(4) + counter.to_bytes(COUNTER_SIZE, "big")


class Sealer:
    """Seals one direction's messages: each gets the next counter, so the other side can
    tell a message lost, repeated or moved (AES-256-GCM; any thread, under the caller's lock)."""

    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)
        self.counter = 0

    def seal(self, data: bytes) -> bytes:
        """A whole encoded message as a SEALED message, ready to write."""
        counter = self.counter
        self.counter += 1
        return Sealed(counter, self._aead.encrypt(_nonce(counter), data, None)).encode()


class Opener:
    """Opens one direction's sealed messages in their order; ``sender`` names the other side
    in the reasons (``"the host"``, ``"player 2 (BOB)"``)."""

    def __init__(self, key: bytes, sender: str) -> None:
        self._aead = AESGCM(key)
        self.sender = sender
        self.next = 0
        #: Sealed messages that came again (replays, duplicates), ignored.
        self.repeats = 0

    def open(self, sealed: Sealed) -> bytes | None:
        """The message sealed inside (its encoded bytes); None for one that came before
        (a replay or a duplicate: ignored); ProtocolError for one changed or lost on the way."""
        counter = sealed.counter
        if counter < self.next:
            self.repeats += 1
            return None
        if counter > self.next:
            lost = counter - self.next
            raise ProtocolError(f"sealed message {counter:,} from {self.sender} came when "
                                f"{self.next:,} was due: {lost:,} lost or held back on the way")
        try:
            data = self._aead.decrypt(_nonce(counter), sealed.box, None)
        except InvalidTag:
            raise ProtocolError(f"sealed message {counter:,} from {self.sender} failed its "
                                "check: it was changed on the way") from None
        self.next += 1
        return data


# -- messages ---------------------------------------------------------------------------------

class _Reader:
    """Reads fields off a payload; any shortfall or bad text is a ProtocolError."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name, self.data, self.pos = name, data, 0

    def take(self, size: int) -> bytes:
        if self.pos + size > len(self.data):
            raise ProtocolError(f"{self.name} message cut short at byte {self.pos}")
        out = self.data[self.pos:self.pos + size]
        self.pos += size
        return out

    def unpack(self, layout: struct.Struct) -> tuple:
        return layout.unpack(self.take(layout.size))

    def text(self, limit: int, what: str) -> str:
        (size,) = self.unpack(_U8)
        if size > limit:
            raise ProtocolError(f"{self.name} message: {what} of {size} bytes (at most {limit})")
        return _text(self.take(size), self.name, what)

    def rest(self) -> bytes:
        out = self.data[self.pos:]
        self.pos = len(self.data)
        return out

    def end(self) -> None:
        if self.pos != len(self.data):
            raise ProtocolError(f"{self.name} message: {len(self.data) - self.pos} bytes left "
                                "over")


def _text(raw: bytes, name: str, what: str) -> str:
    """UTF-8 with no control characters (the text is shown in windows and logs)."""
    try:
        value = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(f"{name} message: {what} is not UTF-8") from None
    if any(not ch.isprintable() for ch in value):
        raise ProtocolError(f"{name} message: {what} holds control characters")
    return value


def clip(text: str, limit: int = MAX_REASON) -> str:
    """``text`` cut to at most ``limit`` bytes of UTF-8 (at a character's edge)."""
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")


def _pack_text(value: str, limit: int) -> bytes:
    raw = value.encode("utf-8")
    if len(raw) > limit:
        raise ValueError(f"{value!r} is longer than {limit} bytes")
    return bytes((len(raw),)) + raw


_U8 = struct.Struct(">B")
_FRAME = struct.Struct(">I")


@dataclass(frozen=True)
class Message:
    """A decoded message; each subclass has its type number, name and bounds."""

    TYPE: ClassVar[int] = 0
    NAME: ClassVar[str] = ""
    #: Payload length: exactly ``MIN`` when ``MAX`` equals it, else from ``MIN`` to ``MAX``.
    MIN: ClassVar[int] = 0
    MAX: ClassVar[int] = 0

    def payload(self) -> bytes:
        """The message's payload bytes."""
        raise NotImplementedError

    def encode(self) -> bytes:
        """Header and payload, ready to write."""
        body = self.payload()
        assert self.MIN <= len(body) <= self.MAX, (self.NAME, len(body))
        return HEADER.pack(self.TYPE, len(body)) + body

    @classmethod
    def parse(cls, r: _Reader) -> Message:
        """The message from its payload."""
        raise NotImplementedError


_HELLO = struct.Struct(">4sHB16s32s32s")
#: HELLO's role bit of a browser's page (bit 0: a spectator).
BROWSER_ROLE = 2


@dataclass(frozen=True)
class Hello(Message):
    """Joiner -> host, first: versions, role, a nonce, the hashes of its ROM and tape.
    ``browser``: a browser's page (a thin seat: no machine, so no ROM or tape of its own)."""

    TYPE: ClassVar[int] = 1
    NAME: ClassVar[str] = "HELLO"
    MIN: ClassVar[int] = _HELLO.size + 2
    MAX: ClassVar[int] = _HELLO.size + 2 + MAX_VERSION + MAX_NAME
    protocol: int
    spectator: bool
    nonce: bytes
    rom: bytes
    tape: bytes
    version: str
    name: str
    browser: bool = False

    def payload(self) -> bytes:
        role = int(self.spectator) | (BROWSER_ROLE if self.browser else 0)
        return (_HELLO.pack(MAGIC, self.protocol, role, self.nonce, self.rom, self.tape)
                + _pack_text(self.version, MAX_VERSION) + _pack_text(self.name, MAX_NAME))

    @classmethod
    def parse(cls, r: _Reader) -> Hello:
        magic, protocol, role, nonce, rom, tape = r.unpack(_HELLO)
        if magic != MAGIC:
            raise ProtocolError(f"not a zxmonopoly peer: it starts {magic!r}, not {MAGIC!r}")
        if role > 3:
            raise ProtocolError(f"HELLO message: role {role} (0 player, 1 spectator, 2 and 3 "
                                "the same in a browser)")
        return cls(protocol, bool(role & 1), nonce, rom, tape, r.text(MAX_VERSION, "version"),
                   r.text(MAX_NAME, "name"), bool(role & BROWSER_ROLE))


_CHALLENGE = struct.Struct(">4sH16s32s32s")


@dataclass(frozen=True)
class Challenge(Message):
    """Host -> joiner: its versions, the hashes of its ROM and tape (and the tape's name, so
    a joiner with another can be told which), the nonce to prove."""

    TYPE: ClassVar[int] = 2
    NAME: ClassVar[str] = "CHALLENGE"
    MIN: ClassVar[int] = _CHALLENGE.size + 2
    MAX: ClassVar[int] = _CHALLENGE.size + 2 + MAX_VERSION + MAX_REASON
    protocol: int
    nonce: bytes
    rom: bytes
    tape: bytes
    version: str
    tape_name: str = ""

    def payload(self) -> bytes:
        return (_CHALLENGE.pack(MAGIC, self.protocol, self.nonce, self.rom, self.tape)
                + _pack_text(self.version, MAX_VERSION)
                + _pack_text(clip(self.tape_name), MAX_REASON))

    @classmethod
    def parse(cls, r: _Reader) -> Challenge:
        magic, protocol, nonce, rom, tape = r.unpack(_CHALLENGE)
        if magic != MAGIC:
            raise ProtocolError(f"not a zxmonopoly host: it starts {magic!r}, not {MAGIC!r}")
        return cls(protocol, nonce, rom, tape, r.text(MAX_VERSION, "version"),
                   r.text(MAX_REASON, "tape name"))


@dataclass(frozen=True)
class Auth(Message):
    """Joiner -> host: the proof that it knows the join code (never the code itself)."""

    TYPE: ClassVar[int] = 3
    NAME: ClassVar[str] = "AUTH"
    MIN: ClassVar[int] = MAC_SIZE
    MAX: ClassVar[int] = MAC_SIZE
    mac: bytes

    def payload(self) -> bytes:
        return self.mac

    @classmethod
    def parse(cls, r: _Reader) -> Auth:
        return cls(r.take(MAC_SIZE))


@dataclass(frozen=True)
class Member:
    """A player in a WELCOME's roster: keys needed from ``join`` up to (not at) ``leave``."""

    slot: int
    join: int
    leave: int  # NO_FRAME: still playing
    name: str


_MEMBER = struct.Struct(">BII")


@dataclass(frozen=True)
class MachineState:
    """A machine at a frame boundary: the .szx, the machine's frame count, the tape deck."""

    frame: int  # the network frame: the next one to emulate
    machine_frame: int  # Spectrum48.frame (FLASH phase)
    tape_position: int  # T-states from the tape's start
    tape_playing: bool
    tape_fast: bool
    szx: bytes


_STATE = struct.Struct(">IIQB")


def _pack_state(state: MachineState) -> bytes:
    flags = (1 if state.tape_playing else 0) | (2 if state.tape_fast else 0)
    return _STATE.pack(state.frame, state.machine_frame, state.tape_position, flags) + state.szx


def _parse_state(r: _Reader) -> MachineState:
    frame, machine_frame, position, flags = r.unpack(_STATE)
    if flags > 3:
        raise ProtocolError(f"{r.name} message: tape flags {flags:#x}")
    szx = r.rest()
    if not szx:
        raise ProtocolError(f"{r.name} message: no machine state")
    return MachineState(frame, machine_frame, position, bool(flags & 1), bool(flags & 2), szx)


_WELCOME = struct.Struct(">32sBIBBB")


@dataclass(frozen=True)
class Welcome(Message):
    """Host -> joiner: its proof, the slot, the joiner's first frame, delay, speed, the
    roster and the machine state; the host's inputs and controls from that frame follow."""

    TYPE: ClassVar[int] = 4
    NAME: ClassVar[str] = "WELCOME"
    MIN: ClassVar[int] = _WELCOME.size + _STATE.size + 1
    MAX: ClassVar[int] = (_WELCOME.size + MAX_SLOTS * (_MEMBER.size + 1 + MAX_NAME)
                          + _STATE.size + MAX_STATE)
    mac: bytes
    slot: int  # NO_SLOT for a spectator
    join: int  # the frame the joiner's keys count from (NO_FRAME for a spectator)
    delay: int
    speed: int
    roster: tuple[Member, ...]
    state: MachineState

    def payload(self) -> bytes:
        out = bytearray(_WELCOME.pack(self.mac, self.slot, self.join, self.delay, self.speed,
                                      len(self.roster)))
        for m in self.roster:
            out += _MEMBER.pack(m.slot, m.join, m.leave) + _pack_text(m.name, MAX_NAME)
        return bytes(out) + _pack_state(self.state)

    @classmethod
    def parse(cls, r: _Reader) -> Welcome:
        mac, slot, join, delay, speed, count = r.unpack(_WELCOME)
        if slot != NO_SLOT and not 1 <= slot < MAX_SLOTS:
            raise ProtocolError(f"WELCOME message: slot {slot}")
        _check_delay(delay, "WELCOME")
        _check_speed(speed, "WELCOME")
        if count > MAX_SLOTS:
            raise ProtocolError(f"WELCOME message: {count} players (at most {MAX_SLOTS})")
        roster = []
        for _ in range(count):
            mslot, mjoin, mleave = r.unpack(_MEMBER)
            if mslot >= MAX_SLOTS:
                raise ProtocolError(f"WELCOME message: roster slot {mslot}")
            roster.append(Member(mslot, mjoin, mleave, r.text(MAX_NAME, "name")))
        for m in roster:
            if m.leave <= m.join:
                raise ProtocolError(f"WELCOME message: player {m.slot} leaves at frame "
                                    f"{m.leave}, not after joining at {m.join}")
        return cls(mac, slot, join, delay, speed, tuple(roster), _parse_state(r))


_INPUT = struct.Struct(">I8sB")


@dataclass(frozen=True)
class Input(Message):
    """Player -> host: its keyboard half-rows (0 = pressed) and Kempston bits for a frame."""

    TYPE: ClassVar[int] = 5
    NAME: ClassVar[str] = "INPUT"
    MIN: ClassVar[int] = _INPUT.size
    MAX: ClassVar[int] = _INPUT.size
    frame: int
    rows: bytes
    joystick: int

    def payload(self) -> bytes:
        return _INPUT.pack(self.frame, self.rows, self.joystick)

    @classmethod
    def parse(cls, r: _Reader) -> Input:
        return cls(*r.unpack(_INPUT))


_INPUTS = struct.Struct(">BI8sB")


@dataclass(frozen=True)
class Inputs(Message):
    """Host -> peers: one player's keys for a frame (the host's own, or forwarded)."""

    TYPE: ClassVar[int] = 6
    NAME: ClassVar[str] = "INPUTS"
    MIN: ClassVar[int] = _INPUTS.size
    MAX: ClassVar[int] = _INPUTS.size
    slot: int
    frame: int
    rows: bytes
    joystick: int

    def payload(self) -> bytes:
        return _INPUTS.pack(self.slot, self.frame, self.rows, self.joystick)

    @classmethod
    def parse(cls, r: _Reader) -> Inputs:
        slot, frame, rows, joystick = r.unpack(_INPUTS)
        if slot >= MAX_SLOTS:
            raise ProtocolError(f"INPUTS message: slot {slot} (at most {MAX_SLOTS - 1})")
        return cls(slot, frame, rows, joystick)


_SLOT_FRAME = struct.Struct(">BI")


@dataclass(frozen=True)
class Join(Message):
    """Host -> peers: a player's keys count from ``frame`` on."""

    TYPE: ClassVar[int] = 7
    NAME: ClassVar[str] = "JOIN"
    MIN: ClassVar[int] = _SLOT_FRAME.size + 1
    MAX: ClassVar[int] = _SLOT_FRAME.size + 1 + MAX_NAME
    slot: int
    frame: int
    name: str

    def payload(self) -> bytes:
        return _SLOT_FRAME.pack(self.slot, self.frame) + _pack_text(self.name, MAX_NAME)

    @classmethod
    def parse(cls, r: _Reader) -> Join:
        slot, frame = r.unpack(_SLOT_FRAME)
        if not 1 <= slot < MAX_SLOTS:
            raise ProtocolError(f"JOIN message: slot {slot}")
        return cls(slot, frame, r.text(MAX_NAME, "name"))


@dataclass(frozen=True)
class Leave(Message):
    """Host -> peers: a player is gone; its keys are released from ``frame`` on."""

    TYPE: ClassVar[int] = 8
    NAME: ClassVar[str] = "LEAVE"
    MIN: ClassVar[int] = _SLOT_FRAME.size + 1
    MAX: ClassVar[int] = _SLOT_FRAME.size + 1 + MAX_REASON
    slot: int
    frame: int
    reason: str

    def payload(self) -> bytes:
        return _SLOT_FRAME.pack(self.slot, self.frame) + _pack_text(self.reason, MAX_REASON)

    @classmethod
    def parse(cls, r: _Reader) -> Leave:
        slot, frame = r.unpack(_SLOT_FRAME)
        if not 1 <= slot < MAX_SLOTS:
            raise ProtocolError(f"LEAVE message: slot {slot}")
        return cls(slot, frame, r.text(MAX_REASON, "reason"))


#: CONTROL kinds: what the host does to every machine at a stated frame.
PAUSE, RESUME, SPEED, RESET, TAPE_PLAY, TAPE_STOP, TAPE_REWIND = range(7)
CONTROL_NAMES = ("pause", "resume", "speed", "reset", "tape play", "tape stop", "tape rewind")
#: SPEED's argument: 0 = as fast as possible (turbo), 1 = 100 %, 2 = 200 %.
SPEEDS = (0, 1, 2)
_CONTROL = struct.Struct(">IBB")


def _check_speed(speed: int, name: str) -> None:
    if speed not in SPEEDS:
        raise ProtocolError(f"{name} message: speed {speed} (0 max, 1 or 2)")


def _check_delay(delay: int, name: str) -> None:
    if not MIN_DELAY <= delay <= MAX_DELAY:
        raise ProtocolError(f"{name} message: input delay {delay} frames (from {MIN_DELAY} "
                            f"to {MAX_DELAY})")


@dataclass(frozen=True)
class Control(Message):
    """Host -> peers: pause, resume, speed, reset or the tape's keys, at ``frame``."""

    TYPE: ClassVar[int] = 9
    NAME: ClassVar[str] = "CONTROL"
    MIN: ClassVar[int] = _CONTROL.size
    MAX: ClassVar[int] = _CONTROL.size
    frame: int
    kind: int
    arg: int = 0

    def payload(self) -> bytes:
        return _CONTROL.pack(self.frame, self.kind, self.arg)

    @classmethod
    def parse(cls, r: _Reader) -> Control:
        frame, kind, arg = r.unpack(_CONTROL)
        if kind >= len(CONTROL_NAMES):
            raise ProtocolError(f"CONTROL message: kind {kind}")
        if kind == SPEED:
            _check_speed(arg, "CONTROL")
        elif arg:
            raise ProtocolError(f"CONTROL message: {CONTROL_NAMES[kind]} with argument {arg}")
        return cls(frame, kind, arg)


#: STATE kinds: a snapshot the host loads (every machine loads it at the frame), or the
#: repair of one peer's desync (that peer loads it at once, as the frame it names).
LOAD, RESYNC = 0, 1


@dataclass(frozen=True)
class State(Message):
    """Host -> peers: a machine state to load (a snapshot opened, or a desync repaired)."""

    TYPE: ClassVar[int] = 10
    NAME: ClassVar[str] = "STATE"
    MIN: ClassVar[int] = 1 + _STATE.size + 1
    MAX: ClassVar[int] = 1 + _STATE.size + MAX_STATE
    kind: int
    state: MachineState

    def payload(self) -> bytes:
        return bytes((self.kind,)) + _pack_state(self.state)

    @classmethod
    def parse(cls, r: _Reader) -> State:
        (kind,) = r.unpack(_U8)
        if kind not in (LOAD, RESYNC):
            raise ProtocolError(f"STATE message: kind {kind}")
        return cls(kind, _parse_state(r))


_TAPE = struct.Struct(">IB")


@dataclass(frozen=True)
class Tape(Message):
    """Host -> peers: a tape put in the deck at ``frame`` (its bytes, checked as a file)."""

    TYPE: ClassVar[int] = 11
    NAME: ClassVar[str] = "TAPE"
    MIN: ClassVar[int] = _TAPE.size + 2
    MAX: ClassVar[int] = _TAPE.size + 1 + MAX_REASON + MAX_TAPE
    frame: int
    fast: bool
    name: str
    data: bytes

    def payload(self) -> bytes:
        return (_TAPE.pack(self.frame, int(self.fast)) + _pack_text(self.name, MAX_REASON)
                + self.data)

    @classmethod
    def parse(cls, r: _Reader) -> Tape:
        frame, fast = r.unpack(_TAPE)
        if fast > 1:
            raise ProtocolError(f"TAPE message: fast flag {fast}")
        name = r.text(MAX_REASON, "name")
        data = r.rest()
        if not data:
            raise ProtocolError("TAPE message: no tape")
        return cls(frame, bool(fast), name, data)


_HASH = struct.Struct(">I16s")


@dataclass(frozen=True)
class Hash(Message):
    """Peer -> host: the hash of its machine at a frame (every HASH_INTERVAL frames)."""

    TYPE: ClassVar[int] = 12
    NAME: ClassVar[str] = "HASH"
    MIN: ClassVar[int] = _HASH.size
    MAX: ClassVar[int] = _HASH.size
    frame: int
    digest: bytes

    def payload(self) -> bytes:
        return _HASH.pack(self.frame, self.digest)

    @classmethod
    def parse(cls, r: _Reader) -> Hash:
        frame, digest = r.unpack(_HASH)
        if frame % HASH_INTERVAL:
            raise ProtocolError(f"HASH message: frame {frame} is not a multiple of "
                                f"{HASH_INTERVAL}")
        return cls(frame, digest)


_STAMP = struct.Struct(">Q")


@dataclass(frozen=True)
class Ping(Message):
    """Host -> peer: answer at once (round trip; keep-alive)."""

    TYPE: ClassVar[int] = 13
    NAME: ClassVar[str] = "PING"
    MIN: ClassVar[int] = _STAMP.size
    MAX: ClassVar[int] = _STAMP.size
    stamp: int

    def payload(self) -> bytes:
        return _STAMP.pack(self.stamp)

    @classmethod
    def parse(cls, r: _Reader) -> Ping:
        return cls(*r.unpack(_STAMP))


@dataclass(frozen=True)
class Pong(Message):
    """Peer -> host: the PING's stamp back."""

    TYPE: ClassVar[int] = 14
    NAME: ClassVar[str] = "PONG"
    MIN: ClassVar[int] = _STAMP.size
    MAX: ClassVar[int] = _STAMP.size
    stamp: int

    def payload(self) -> bytes:
        return _STAMP.pack(self.stamp)

    @classmethod
    def parse(cls, r: _Reader) -> Pong:
        return cls(*r.unpack(_STAMP))


@dataclass(frozen=True)
class Delay(Message):
    """Host -> player: schedule your keys this many frames ahead from now on."""

    TYPE: ClassVar[int] = 15
    NAME: ClassVar[str] = "DELAY"
    MIN: ClassVar[int] = 1
    MAX: ClassVar[int] = 1
    delay: int

    def payload(self) -> bytes:
        return bytes((self.delay,))

    @classmethod
    def parse(cls, r: _Reader) -> Delay:
        (delay,) = r.unpack(_U8)
        _check_delay(delay, "DELAY")
        return cls(delay)


@dataclass(frozen=True)
class Bye(Message):
    """Either way, last: why the connection ends (shown to the user)."""

    TYPE: ClassVar[int] = 16
    NAME: ClassVar[str] = "BYE"
    MIN: ClassVar[int] = 0
    MAX: ClassVar[int] = MAX_REASON
    reason: str

    def payload(self) -> bytes:
        return clip(self.reason).encode("utf-8")

    @classmethod
    def parse(cls, r: _Reader) -> Bye:
        return cls(_text(r.rest(), "BYE", "reason"))


# -- the browser seat (net/browser.py): a page that has no machine of its own ------------------

#: SEAT: the key labels of the hosted program (its keys marked on the page's keyboard).
MAX_LABELS = 40
MAX_KEY_NAME = 12
MAX_LABEL = 16
TOKEN_SIZE = 16
#: SCREEN: its compressed picture and sound at most (a whole picture and 4,096 speaker
#: changes compress to far less; a frame with more changes is cut to these).
MAX_SCREEN_DATA = 32 * 1024
#: SCREEN's flags: the speaker's EAR and MIC bits as the frame began; a change of the
#: picture is in the data (else the picture is the base frame's).
SCREEN_EAR, SCREEN_MIC, SCREEN_PICTURE = 1, 2, 4
#: KEY's kinds: a key went down, went up, or a character typed (its combination alone).
KEY_DOWN, KEY_UP, KEY_TYPED = 0, 1, 2
#: ROSTER's kinds of who is in the game: the host, a window, a browser.
HOST_KIND, WINDOW_KIND, BROWSER_KIND = 0, 1, 2
#: ROSTER's flags: the host has the game paused.
ROSTER_PAUSED = 1
NO_RTT = 0xFFFF


@dataclass(frozen=True)
class Claim(Message):
    """Browser -> host, sealed, after AUTH: the seat token its page kept from an earlier
    SEAT in this game (zeros: none), so that it takes its seat back."""

    TYPE: ClassVar[int] = 18
    NAME: ClassVar[str] = "CLAIM"
    MIN: ClassVar[int] = TOKEN_SIZE
    MAX: ClassVar[int] = TOKEN_SIZE
    token: bytes

    def payload(self) -> bytes:
        return self.token

    @classmethod
    def parse(cls, r: _Reader) -> Claim:
        return cls(r.take(TOKEN_SIZE))


_SEAT = struct.Struct(">32sBIB16s")


@dataclass(frozen=True)
class Seat(Message):
    """Host -> browser, instead of WELCOME: its proof, the slot (NO_SLOT: watching), the
    frame its keys count from, the frames ahead the host stamps its keys, the seat token to
    come back with, the name it plays as, the program's key labels (key name, label)."""

    TYPE: ClassVar[int] = 19
    NAME: ClassVar[str] = "SEAT"
    MIN: ClassVar[int] = _SEAT.size + 2
    MAX: ClassVar[int] = _SEAT.size + 2 + MAX_NAME + MAX_LABELS * (2 + MAX_KEY_NAME + MAX_LABEL)
    mac: bytes
    slot: int
    join: int
    delay: int
    token: bytes
    name: str
    labels: tuple[tuple[str, str], ...] = ()

    def payload(self) -> bytes:
        out = bytearray(_SEAT.pack(self.mac, self.slot, self.join, self.delay, self.token))
        out += _pack_text(self.name, MAX_NAME) + bytes((len(self.labels),))
        for key, label in self.labels:
            out += _pack_text(key, MAX_KEY_NAME) + _pack_text(label, MAX_LABEL)
        return bytes(out)

    @classmethod
    def parse(cls, r: _Reader) -> Seat:
        mac, slot, join, delay, token = r.unpack(_SEAT)
        if slot != NO_SLOT and not 1 <= slot < MAX_SLOTS:
            raise ProtocolError(f"SEAT message: slot {slot}")
        if delay > MAX_DELAY:
            raise ProtocolError(f"SEAT message: {delay} frames ahead (at most {MAX_DELAY})")
        name = r.text(MAX_NAME, "name")
        (count,) = r.unpack(_U8)
        if count > MAX_LABELS:
            raise ProtocolError(f"SEAT message: {count} key labels (at most {MAX_LABELS})")
        labels = tuple((r.text(MAX_KEY_NAME, "key name"), r.text(MAX_LABEL, "label"))
                       for _ in range(count))
        return cls(mac, slot, join, delay, token, name, labels)


@dataclass(frozen=True)
class Seated:
    """One in a ROSTER: a player's slot (NO_SLOT: watching), who it is (HOST_KIND,
    WINDOW_KIND, BROWSER_KIND), its input delay in frames, its round trip to the host in
    milliseconds (NO_RTT: not measured), its name."""

    slot: int
    kind: int
    delay: int
    rtt: int
    name: str


_ROSTER_ENTRY = struct.Struct(">BBBH")
_ROSTER = struct.Struct(">BB")
MAX_ROSTER = MAX_SLOTS + MAX_SPECTATORS


@dataclass(frozen=True)
class Roster(Message):
    """Host -> browsers: who plays and who watches, their delays, and whether the game is
    paused (sent when it changes, and every few seconds for the round trips)."""

    TYPE: ClassVar[int] = 20
    NAME: ClassVar[str] = "ROSTER"
    MIN: ClassVar[int] = 2
    MAX: ClassVar[int] = 2 + MAX_ROSTER * (_ROSTER_ENTRY.size + 1 + MAX_NAME)
    flags: int
    seated: tuple[Seated, ...]

    def payload(self) -> bytes:
        out = bytearray((self.flags, len(self.seated)))
        for e in self.seated:
            out += _ROSTER_ENTRY.pack(e.slot, e.kind, e.delay, e.rtt) + _pack_text(e.name,
                                                                                    MAX_NAME)
        return bytes(out)

    @classmethod
    def parse(cls, r: _Reader) -> Roster:
        flags, count = r.unpack(_ROSTER)
        if flags > ROSTER_PAUSED:
            raise ProtocolError(f"ROSTER message: flags {flags:#x}")
        if count > MAX_ROSTER:
            raise ProtocolError(f"ROSTER message: {count} entries (at most {MAX_ROSTER})")
        seated = []
        for _ in range(count):
            slot, kind, delay, rtt = r.unpack(_ROSTER_ENTRY)
            if slot != NO_SLOT and slot >= MAX_SLOTS or kind > BROWSER_KIND:
                raise ProtocolError(f"ROSTER message: slot {slot}, kind {kind}")
            seated.append(Seated(slot, kind, delay, rtt, r.text(MAX_NAME, "name")))
        return cls(flags, tuple(seated))


_SCREEN = struct.Struct(">IIB")


@dataclass(frozen=True)
class Screen(Message):
    """Host -> browser: the picture and sound of a frame the host emulated. ``data`` is
    zlib-compressed: the picture's change from the ``base`` frame's (bitmap, attributes,
    border per line, FLASH's phase, the bytes XORed; NO_FRAME: from a picture of zeros), when
    SCREEN_PICTURE says there is one, then the frame's speaker changes (net/screen.py)."""

    TYPE: ClassVar[int] = 21
    NAME: ClassVar[str] = "SCREEN"
    MIN: ClassVar[int] = _SCREEN.size
    MAX: ClassVar[int] = _SCREEN.size + MAX_SCREEN_DATA
    frame: int
    base: int
    flags: int
    data: bytes

    def payload(self) -> bytes:
        return _SCREEN.pack(self.frame, self.base, self.flags) + self.data

    @classmethod
    def parse(cls, r: _Reader) -> Screen:
        frame, base, flags = r.unpack(_SCREEN)
        if flags > 7:
            raise ProtocolError(f"SCREEN message: flags {flags:#x}")
        if base != NO_FRAME and base >= frame:
            raise ProtocolError(f"SCREEN message: frame {frame} against a later one, {base}")
        return cls(frame, base, flags, r.rest())


_TAKEN = struct.Struct(">II")


@dataclass(frozen=True)
class Taken(Message):
    """Host -> browser: its key ``event`` went down at ``frame`` on every machine."""

    TYPE: ClassVar[int] = 22
    NAME: ClassVar[str] = "TAKEN"
    MIN: ClassVar[int] = _TAKEN.size
    MAX: ClassVar[int] = _TAKEN.size
    event: int
    frame: int

    def payload(self) -> bytes:
        return _TAKEN.pack(self.event, self.frame)

    @classmethod
    def parse(cls, r: _Reader) -> Taken:
        return cls(*r.unpack(_TAKEN))


_KEY = struct.Struct(">IBB8sB")
#: A half-row's keys are its bits 0-4; the Kempston port's, bits 0-4.
_KEY_BITS = 0x1F


@dataclass(frozen=True)
class Key(Message):
    """Browser -> host: key ``event`` (numbered by the page): KEY_DOWN or KEY_UP of the
    page's key ``source``, or a character KEY_TYPED; ``keys`` the Spectrum keys it presses,
    a byte a half-row with a bit set for each key pressed (not the matrix's 0 = pressed), and
    Kempston bits."""

    TYPE: ClassVar[int] = 23
    NAME: ClassVar[str] = "KEY"
    MIN: ClassVar[int] = _KEY.size
    MAX: ClassVar[int] = _KEY.size
    event: int
    kind: int
    source: int
    keys: bytes
    joystick: int = 0

    def payload(self) -> bytes:
        return _KEY.pack(self.event, self.kind, self.source, self.keys, self.joystick)

    @classmethod
    def parse(cls, r: _Reader) -> Key:
        event, kind, source, keys, joystick = r.unpack(_KEY)
        if kind > KEY_TYPED:
            raise ProtocolError(f"KEY message: kind {kind}")
        if any(b & ~_KEY_BITS for b in keys) or joystick & ~_KEY_BITS:
            raise ProtocolError("KEY message: bits that are no key")
        return cls(event, kind, source, keys, joystick)


@dataclass(frozen=True)
class Ack(Message):
    """Browser -> host: the last frame its page has drawn."""

    TYPE: ClassVar[int] = 24
    NAME: ClassVar[str] = "ACK"
    MIN: ClassVar[int] = _FRAME.size
    MAX: ClassVar[int] = _FRAME.size
    frame: int

    def payload(self) -> bytes:
        return _FRAME.pack(self.frame)

    @classmethod
    def parse(cls, r: _Reader) -> Ack:
        return cls(*r.unpack(_FRAME))


_PLAIN: tuple[type[Message], ...] = (Hello, Challenge, Auth, Welcome, Input, Inputs, Join,
                                      Leave, Control, State, Tape, Hash, Ping, Pong, Delay, Bye,
                                      Claim, Seat, Roster, Screen, Taken, Key, Ack)
#: A sealed message's overhead: its counter and AES-GCM's tag around the inner message.
SEAL_OVERHEAD = COUNTER_SIZE + HEADER.size + TAG_SIZE


@dataclass(frozen=True)
class Sealed(Message):
    """Either way after the handshake: a whole message (header and payload) sealed with
    AES-256-GCM under the direction's key, the sender's counter its nonce (Sealer, Opener)."""

    TYPE: ClassVar[int] = 17
    NAME: ClassVar[str] = "SEALED"
    MIN: ClassVar[int] = SEAL_OVERHEAD
    MAX: ClassVar[int] = SEAL_OVERHEAD + max(cls.MAX for cls in _PLAIN)
    counter: int
    box: bytes  # the sealed message and the tag

    def payload(self) -> bytes:
        return self.counter.to_bytes(COUNTER_SIZE, "big") + self.box

    @classmethod
    def parse(cls, r: _Reader) -> Sealed:
        return cls(int.from_bytes(r.take(COUNTER_SIZE), "big"), r.rest())


MESSAGES: dict[int, type[Message]] = {cls.TYPE: cls for cls in (*_PLAIN, Sealed)}
#: Type number -> (least, most) payload bytes.
BOUNDS: dict[int, tuple[int, int]] = {t: (cls.MIN, cls.MAX) for t, cls in MESSAGES.items()}


@dataclass(frozen=True)
class Sender:
    """Who a connection's messages come from: the types it sends (others are refused from
    the header alone, before the payload is read) and so the longest sealed message."""

    name: str
    types: frozenset[int]

    @property
    def sealed_max(self) -> int:
        """The longest SEALED message this sender can have a reason to send."""
        return SEAL_OVERHEAD + max(MESSAGES[t].MAX for t in self.types)


#: What a joiner sends, and what the host sends.
JOINER = Sender("a joiner", frozenset(cls.TYPE for cls in (Hello, Auth, Input, Hash, Pong, Bye,
                                                           Claim, Key, Ack)))
HOST = Sender("the host", frozenset(cls.TYPE for cls in (
    Challenge, Welcome, Inputs, Join, Leave, Control, State, Tape, Ping, Delay, Bye,
    Seat, Roster, Screen, Taken)))


def check_header(msg_type: int, length: int, sender: Sender | None = None) -> type[Message]:
    """The message class of a header, or ProtocolError for an unknown type, a type this
    ``sender`` never sends, or a bad length."""
    cls = MESSAGES.get(msg_type)
    if cls is None:
        raise ProtocolError(f"unknown message type {msg_type}")
    if sender is not None:
        if cls is Sealed:
            if length > sender.sealed_max:
                raise ProtocolError(f"SEALED message of {length:,} bytes: from {sender.name} "
                                    f"it is {cls.MIN} to {sender.sealed_max:,}")
        elif msg_type not in sender.types:
            raise ProtocolError(f"{cls.NAME} message out of order: {sender.name} never "
                                "sends it")
    if cls.MIN == cls.MAX and length != cls.MIN:
        raise ProtocolError(f"{cls.NAME} message of {length:,} bytes: it is {cls.MIN}")
    if not cls.MIN <= length <= cls.MAX:
        raise ProtocolError(f"{cls.NAME} message of {length:,} bytes: it is {cls.MIN:,} to "
                            f"{cls.MAX:,}")
    return cls


def decode(msg_type: int, payload: bytes) -> Message:
    """The message of a type and payload; ProtocolError for anything that is not one."""
    cls = check_header(msg_type, len(payload))
    r = _Reader(cls.NAME, bytes(payload))
    try:
        message = cls.parse(r)
    except struct.error as exc:  # never expected: take() checks sizes first
        raise ProtocolError(f"{cls.NAME} message: {exc}") from None
    r.end()
    return message


def decode_sealed(data: bytes, sender: Sender | None = None) -> Message:
    """The one message a SEALED message held (its header and payload), checked as one read
    off the wire is; ProtocolError for anything else."""
    if len(data) < HEADER.size:
        raise ProtocolError(f"a sealed message of {len(data)} bytes holds no message")
    msg_type, length = HEADER.unpack_from(data)
    cls = check_header(msg_type, length, sender)
    if cls is Sealed:
        raise ProtocolError("a SEALED message inside a SEALED message")
    if HEADER.size + length != len(data):
        raise ProtocolError(f"a sealed {cls.NAME} message of {length:,} bytes holds "
                            f"{len(data) - HEADER.size:,}")
    return decode(msg_type, data[HEADER.size:])


def decode_stream(data: bytes) -> list[Message]:
    """Every message in a byte string (whole messages only, else ProtocolError)."""
    out = []
    pos = 0
    while pos < len(data):
        if pos + HEADER.size > len(data):
            raise ProtocolError(f"a message header cut short at byte {pos}")
        msg_type, length = HEADER.unpack_from(data, pos)
        check_header(msg_type, length)
        start = pos + HEADER.size
        if start + length > len(data):
            raise ProtocolError(f"a message cut short at byte {pos}: {length:,} bytes "
                                f"announced, {len(data) - start:,} there")
        out.append(decode(msg_type, data[start:start + length]))
        pos = start + length
    return out


async def read_message(reader: asyncio.StreamReader, idle: float | None,
                       stall: float = MESSAGE_TIMEOUT, sender: Sender | None = None) -> Message:
    """The next message: its first byte within ``idle`` seconds (None: wait for ever), the
    rest within ``stall`` seconds (more for a long one); ProtocolError (a type ``sender``
    never sends among them), TimeoutError (silent) or asyncio.IncompleteReadError (the
    connection closed)."""
    first = await asyncio.wait_for(reader.readexactly(1), idle)
    msg_type = first[0]
    try:
        rest = await asyncio.wait_for(reader.readexactly(HEADER.size - 1), stall)
    except TimeoutError:
        raise ProtocolError("stalled in the middle of a message header") from None
    length = int.from_bytes(rest, "big")
    cls = check_header(msg_type, length, sender)
    budget = stall + length / MESSAGE_RATE
    try:
        payload = await asyncio.wait_for(reader.readexactly(length), budget)
    except TimeoutError:
        raise ProtocolError(f"stalled in the middle of a {cls.NAME} message of {length:,} "
                            f"bytes (not in after {budget:.0f} s)") from None
    return decode(msg_type, payload)
