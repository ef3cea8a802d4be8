"""The lobby's messages (docs/network.md, "The lobby"): one WebSocket binary message each,
a kind byte and its fields, so a browser can speak them as well as ``zxmonopoly play``.

A host OPENs a room and is told its ROOM; a member ENTERs a room by its name and is told it
ENTERED (the host is told a member ARRIVED). After that the lobby only relays: a member's
SEND reaches the host as DATA from it, the host's SEND to a member reaches that member as
DATA; the host may KICK a member; the host hears when a member has LEFT. The data relayed is
network play's own messages, sealed end to end: the lobby cannot read or change them. Room
names are 4 characters of the join code's alphabet; the room code a host reads out is the
room and the join code (``K7QF-7K3QF-M2X9A``): the lobby is given only the room.
"""

from __future__ import annotations

import secrets
import struct
from dataclasses import dataclass

from . import protocol as p
from .lockstep import NetError

#: Bumped on any change to these messages.
LOBBY_VERSION = 1
#: A room's name: this many characters of the join code's alphabet (about a million rooms).
ROOM_LENGTH = 4
TOKEN_SIZE = 16

# Kinds: client to lobby, then lobby to client.
OPEN, ENTER, SEND, KICK = 1, 2, 3, 4
ROOM, ENTERED, ARRIVED, DATA, LEFT, REFUSED = 0x81, 0x82, 0x83, 0x84, 0x85, 0x86
NAMES = {OPEN: "OPEN", ENTER: "ENTER", SEND: "SEND", KICK: "KICK", ROOM: "ROOM",
         ENTERED: "ENTERED", ARRIVED: "ARRIVED", DATA: "DATA", LEFT: "LEFT",
         REFUSED: "REFUSED"}
_MEMBER = struct.Struct(">H")
#: Members a room has at once at most (the players and spectators, and some joining).
MAX_MEMBERS = 24
#: The longest lobby message: a host's SEND of the longest sealed message, and its header.
MAX_MESSAGE = 1 + _MEMBER.size + p.Sealed.MAX + p.HEADER.size
#: The longest message from a member: what a joiner sends, sealed (keys, hashes), a few at once.
MAX_MEMBER_MESSAGE = 4096


class LobbyError(NetError):
    """The lobby refused, or broke its protocol, or cannot be reached (one line)."""


def new_room(shard: str = "") -> str:
    """A random room name (starting with ``shard``, a lobby's letter, when it has one)."""
    alphabet = p.CODE_ALPHABET
    rest = "".join(secrets.choice(alphabet) for _ in range(ROOM_LENGTH - len(shard)))
    return shard + rest


def check_room(room: str) -> str:
    """``room`` when it is a room's name, else LobbyError."""
    if len(room) != ROOM_LENGTH or any(c not in p.CODE_ALPHABET for c in room):
        raise LobbyError(f"{room!r} is not a room: {ROOM_LENGTH} letters and digits")
    return room


# -- the room code: the room (the lobby sees it) and the join code (it never does) ------------

def room_code(room: str, code: str) -> str:
    """The code a host reads out: ``ROOM-XXXXX-XXXXX``."""
    chars = p.normal_code(code)
    return f"{room}-{chars[:5]}-{chars[5:]}"


def is_room_code(text: str) -> bool:
    """Whether ``text`` reads as a room code (and not as a host's address)."""
    try:
        split_room_code(text)
    except (LobbyError, p.JoinCodeError):
        return False
    return True


def split_room_code(text: str) -> tuple[str, str]:
    """(room, join code) of a room code as a person types it (dashes and spaces as they
    like, O read as 0 and I, L as 1); LobbyError when it is not one."""
    spelling = {"O": "0", "I": "1", "L": "1"}
    chars = "".join(spelling.get(c, c) for c in text.upper() if c not in "- ")
    if (len(chars) != ROOM_LENGTH + p.CODE_LENGTH
            or any(c not in p.CODE_ALPHABET for c in chars)):
        raise LobbyError(f"{text!r} is not a room code: it is {ROOM_LENGTH + p.CODE_LENGTH} "
                         "letters and digits, as the host's window shows it (like "
                         "K7QF-7K3QF-M2X9A)")
    return chars[:ROOM_LENGTH], p.normal_code(chars[ROOM_LENGTH:])


#: A page's link: the room in its path, the code in its fragment (a browser sends no
#: fragment to any server: the lobby never learns it); a watching link's code after this.
PAGE_PATH = "/r/"
WATCH_PREFIX = "watch-"


def page_link(lobby: str, room: str, code: str, *, watch: bool = False) -> str:
    """The link a browser joins by: ``https://LOBBY/r/ROOM#CODE`` (``ws://`` gives
    ``http://``), or with ``watch`` the watching code's ``#watch-CODE``."""
    base = "https://" + lobby[len("wss://"):] if lobby.startswith("wss://") else \
        "http://" + lobby.split("://", 1)[-1]
    chars = p.normal_code(code)
    secret = f"{chars[:5]}-{chars[5:]}"
    return f"{base.rstrip('/')}{PAGE_PATH}{check_room(room)}#" + (
        WATCH_PREFIX if watch else "") + secret


def split_page_link(link: str) -> tuple[str, str, str, bool]:
    """(the lobby's ws:// or wss:// URL, room, join code, watching) of a page's link;
    LobbyError when it is not one."""
    scheme, _, rest = link.partition("://")
    if scheme not in ("http", "https") or PAGE_PATH not in rest or "#" not in rest:
        raise LobbyError(f"{link!r} is not a page's link (https://LOBBY/r/ROOM#CODE)")
    where, _, tail = rest.partition(PAGE_PATH)
    room, _, secret = tail.partition("#")
    watch = secret.startswith(WATCH_PREFIX)
    try:
        code = p.normal_code(secret[len(WATCH_PREFIX):] if watch else secret)
    except p.JoinCodeError as exc:
        raise LobbyError(f"{link!r}: {exc}") from None
    return f"{'wss' if scheme == 'https' else 'ws'}://{where}", check_room(room), code, watch


# -- messages ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class LobbyMessage:
    """A lobby message decoded: its kind and fields (only those the kind has)."""

    kind: int
    room: str = ""
    token: bytes = b""
    member: int = 0
    data: bytes = b""
    reason: str = ""
    version: int = LOBBY_VERSION

    @property
    def name(self) -> str:
        """The kind's name."""
        return NAMES.get(self.kind, f"kind {self.kind}")


def open_room(room: str = "", token: bytes = b"") -> bytes:
    """OPEN: a new room, or the host's own again (its name and token) after a break."""
    return bytes((OPEN, LOBBY_VERSION)) + room.encode() + token


def enter(room: str) -> bytes:
    """ENTER a room by its name."""
    return bytes((ENTER, LOBBY_VERSION)) + room.encode()


def send(data: bytes, member: int | None = None) -> bytes:
    """SEND data: a member's to the host, or the host's to ``member``."""
    head = bytes((SEND,)) if member is None else bytes((SEND,)) + _MEMBER.pack(member)
    return head + data


def kick(member: int) -> bytes:
    """KICK: the host lets a member go (after what it was sent)."""
    return bytes((KICK,)) + _MEMBER.pack(member)


def room_message(room: str, token: bytes) -> bytes:
    """ROOM: the room opened and the token to open it again."""
    return bytes((ROOM,)) + room.encode() + token


def member_message(kind: int, member: int) -> bytes:
    """ENTERED, ARRIVED or LEFT, of a member."""
    return bytes((kind,)) + _MEMBER.pack(member)


def data_message(data: bytes, member: int | None = None) -> bytes:
    """DATA: to the host from ``member``, or to a member."""
    head = bytes((DATA,)) if member is None else bytes((DATA,)) + _MEMBER.pack(member)
    return head + data


def refused(reason: str) -> bytes:
    """REFUSED: why the lobby will not go on with this connection (then it closes)."""
    return bytes((REFUSED,)) + p.clip(reason).encode()


def decode(raw: bytes | str, *, host: bool | None) -> LobbyMessage:
    """A lobby message; ``host`` says whose it is (True: a room's host, False: a member,
    None: not yet known, first message) for the kinds that differ. LobbyError for anything
    that is not one."""
    if isinstance(raw, str):
        raise LobbyError("a text message (the lobby speaks in binary messages)")
    if not raw:
        raise LobbyError("an empty message")
    kind, body = raw[0], raw[1:]
    name = NAMES.get(kind, f"kind {kind}")
    if kind in (OPEN, ENTER):
        if not body:
            raise LobbyError(f"{name} message without its version")
        version, rest = body[0], body[1:]
        if version != LOBBY_VERSION:
            raise LobbyError(f"lobby protocol {version}, this lobby speaks {LOBBY_VERSION}")
        if kind == ENTER:
            if len(rest) != ROOM_LENGTH:
                raise LobbyError(f"ENTER message of {len(raw)} bytes")
            return LobbyMessage(ENTER, room=check_room(_ascii(rest)), version=version)
        if rest and len(rest) != ROOM_LENGTH + TOKEN_SIZE:
            raise LobbyError(f"OPEN message of {len(raw)} bytes")
        if not rest:
            return LobbyMessage(OPEN, version=version)
        return LobbyMessage(OPEN, room=check_room(_ascii(rest[:ROOM_LENGTH])),
                            token=rest[ROOM_LENGTH:], version=version)
    if kind in (SEND, DATA):
        if host:  # the host's SEND names a member; DATA to the host names one too
            if len(body) < _MEMBER.size:
                raise LobbyError(f"{name} message without its member")
            (member,) = _MEMBER.unpack_from(body)
            return LobbyMessage(kind, member=member, data=body[_MEMBER.size:])
        return LobbyMessage(kind, data=body)
    if kind in (KICK, ENTERED, ARRIVED, LEFT):
        if len(body) != _MEMBER.size:
            raise LobbyError(f"{name} message of {len(raw)} bytes")
        return LobbyMessage(kind, member=_MEMBER.unpack(body)[0])
    if kind == ROOM:
        if len(body) != ROOM_LENGTH + TOKEN_SIZE:
            raise LobbyError(f"ROOM message of {len(raw)} bytes")
        return LobbyMessage(ROOM, room=check_room(_ascii(body[:ROOM_LENGTH])),
                            token=body[ROOM_LENGTH:])
    if kind == REFUSED:
        try:
            return LobbyMessage(REFUSED, reason=p._text(body[:p.MAX_REASON], "REFUSED",
                                                        "reason"))
        except p.ProtocolError as exc:
            raise LobbyError(str(exc)) from None
    raise LobbyError(f"unknown lobby message kind {kind}")


def _ascii(raw: bytes) -> str:
    try:
        return raw.decode("ascii")
    except UnicodeDecodeError:
        raise LobbyError("a room's name that is not ASCII") from None
