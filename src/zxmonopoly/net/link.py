"""A window's side of network play, without pygame: what ``play --host``/``--join``/``--watch``
asked for (checked), the node on its network thread, host-only controls refused on a joiner,
the lines the window shows (the join code, joins, drops, the end of the game)."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from zxmonopoly.snapshot import Snapshot
from zxmonopoly.spectrum import FrameInput, Spectrum48

from . import protocol as p
from .host import Host
from .lobbywire import room_code
from .lockstep import LocalKeys, NetError, TapeFile
from .peer import JoinError, Peer, parse_address
from .thread import NetThread

#: The roles a window plays: hosting, joining as a player, joining as a spectator.
HOST, JOIN, WATCH = "host", "join", "watch"


class NetOptionsError(NetError, ValueError):
    """The network options do not go together, or one is malformed (one line; a ValueError
    too: options are values given)."""


@dataclass(frozen=True)
class NetOptions:
    """What the command line (or the menu) asked for: ``role`` and where."""

    role: str  # HOST, JOIN or WATCH
    address: str = "127.0.0.1"  # hosting: the address listened on; joining: the host's
    port: int = p.DEFAULT_PORT
    code: str = ""  # joining: the join code (normalised); hosting: "" (a new one is made)
    name: str = ""
    strict: bool = False  # a desync fails the game instead of being repaired (tests)
    #: Online: the lobby's URL (hosting: a room is opened there; joining: the room's host is
    #: reached through it), the room joined, a CA certificate to trust for its TLS.
    lobby: str = ""
    room: str = ""
    lobby_ca: str | None = None
    #: Hosting online: listen on ``address``:``port`` as well (else only the room).
    listen: bool = True
    #: Hosting: how many players the hosted program takes (the window gives its game's count).
    players: int = p.MAX_SLOTS
    #: Hosting: the program's keys marked on a browser's keyboard ((key, what it does) each).
    labels: tuple[tuple[str, str], ...] = ()

    @property
    def hosting(self) -> bool:
        """Whether this window hosts the game."""
        return self.role == HOST

    @property
    def online(self) -> bool:
        """Whether the game goes through a lobby."""
        return bool(self.lobby)


def check_port(port: int, option: str = "--port") -> int:
    """``port`` when it is one TCP has (0 for hosting: any free one), else NetOptionsError."""
    if not 0 <= port <= 65535:
        raise NetOptionsError(f"{option} must be 0 to 65535, not {port}")
    return port


def net_options(*, host: bool = False, join: str | None = None, watch: bool = False,
                code: str | None = None, port: int | None = None, bind: str | None = None,
                name: str = "", strict: bool = False, online: bool = False,
                lobby: str | None = None, lobby_ca: str | None = None) -> NetOptions | None:
    """The network options of ``play`` checked and put together (None: no network play).
    ``--join`` takes a host's address (with ``--code``) or a room code (through a lobby)."""
    from .lobbylink import lobby_url
    from .lobbywire import LobbyError, is_room_code, split_room_code

    def the_lobby() -> str:
        try:
            return lobby_url(lobby)
        except LobbyError as exc:
            raise NetOptionsError(str(exc)) from None

    if host and join is not None:
        raise NetOptionsError("--host and --join do not go together: one window hosts, the "
                              "others join it")
    if watch and join is None:
        raise NetOptionsError("--watch goes with --join (HOST[:PORT] --code CODE, or a room "
                              "code): a spectator joins a hosted game")
    if online and not host:
        raise NetOptionsError("--online is for --host (joiners give the room code to --join)")
    if host:
        if code is not None:
            raise NetOptionsError("--code is for --join: the host makes a new join code and "
                                  "shows it")
        if bind is not None and not bind.strip():
            raise NetOptionsError("--bind needs an address (127.0.0.1, 0.0.0.0, ...)")
        if lobby is not None and not online:
            raise NetOptionsError("--lobby goes with --host --online (or --join ROOM-CODE)")
        return NetOptions(HOST, (bind or "127.0.0.1").strip(),
                          check_port(p.DEFAULT_PORT if port is None else port), "", name, strict,
                          lobby=the_lobby() if online else "", lobby_ca=lobby_ca,
                          listen=not online or bind is not None or port is not None)
    if bind is not None or port is not None:
        option = "--bind" if bind is not None else "--port"
        raise NetOptionsError(f"{option} is for --host (joining, the port goes in --join "
                              "HOST:PORT)")
    if join is None:
        if code is not None:
            raise NetOptionsError("--code goes with --join HOST[:PORT]")
        if strict:
            raise NetOptionsError("--strict is for a network game (--host, or --join "
                                  "HOST[:PORT] --code CODE)")
        if lobby is not None:
            raise NetOptionsError("--lobby goes with --host --online or --join ROOM-CODE")
        return None
    role = WATCH if watch else JOIN
    if code is None and is_room_code(join):
        room, join_code = split_room_code(join)
        return NetOptions(role, "", 0, join_code, name, strict, lobby=the_lobby(), room=room,
                          lobby_ca=lobby_ca)
    if lobby is not None:
        raise NetOptionsError(f"--lobby goes with a room code: --join {join!r} is a host's "
                              "address")
    try:
        address, join_port = parse_address(join)
    except ValueError as exc:
        raise NetOptionsError(f"--join {exc}") from None
    if code is None:
        raise NetOptionsError("--join needs --code CODE: the join code the host's window "
                              "shows (or give --join the room code of an online game)")
    try:
        code = p.normal_code(code)
    except p.JoinCodeError as exc:
        raise NetOptionsError(f"--code: {exc}") from None
    return NetOptions(role, address, join_port, code, name, strict)


def lan_address() -> str:
    """This machine's address on its local network (the one its default route leaves by),
    for the others to join; "this machine's address" when it has none. Nothing is sent."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address: only the route is asked
            return str(probe.getsockname()[0])
    except OSError:
        return "this machine's address"


def spaced_code(code: str) -> str:
    """A join code as people read it out: ``XXXXX-XXXXX``."""
    chars = p.normal_code(code)
    return f"{chars[:5]}-{chars[5:]}"


class NetLink:
    """One window's node (a :class:`Host` or a :class:`Peer`) on a :class:`NetThread`, with
    the lines it logs kept for the window to show."""

    def __init__(self, options: NetOptions, thread: NetThread, node: Host | Peer) -> None:
        self.options = options
        self.thread = thread
        self.node = node
        self._lines_lock = threading.Lock()
        with node.lock:  # what it logged while starting (the join code, the join), then on
            self._lines: deque[str] = deque(node.messages, maxlen=50)
            self._quiet: deque[str] = deque(maxlen=50)
            node.message_listeners.append(self._heard)
            node.quiet_listeners.append(self._quiet.append)
        self.closed = False

    @classmethod
    def start(cls, machine: Spectrum48, options: NetOptions, *, tape: TapeFile | None = None,
              timeouts: p.Timeouts = p.TIMEOUTS) -> NetLink:
        """Host, or join, on ``machine``; NetError (JoinError) with the reason when it cannot.
        ``tape`` is the tape in the host's deck (joiners: the tape this peer has); with
        ``options.strict`` a desync ends the game as a failure (:attr:`failure`)."""
        strict = options.strict
        thread = NetThread()
        try:
            if options.hosting:
                node: Host | Peer = thread.host(
                    machine, bind=options.address if options.listen else None,
                    port=options.port, tape=tape, strict=strict, name=options.name or "host",
                    players=options.players, timeouts=timeouts, lobby=options.lobby or None,
                    lobby_ca=options.lobby_ca, labels=options.labels)
            elif options.online:
                node = thread.join_online(
                    machine, options.lobby, room_code(options.room, options.code),
                    spectator=options.role == WATCH, name=options.name, tape=tape,
                    strict=strict, timeouts=timeouts, lobby_ca=options.lobby_ca)
            else:
                node = thread.join(machine, options.address, options.port, options.code,
                                   spectator=options.role == WATCH, name=options.name,
                                   tape=tape, strict=strict, timeouts=timeouts)
        except BaseException:
            thread.close()
            raise
        return cls(options, thread, node)

    # -- what the window shows --------------------------------------------------------------

    def _heard(self, line: str) -> None:
        with self._lines_lock:
            self._lines.append(line)

    def lines(self) -> list[str]:
        """The lines the node logged since the last call (joins, drops, desyncs, the end)."""
        with self._lines_lock:
            lines = list(self._lines)
            self._lines.clear()
        return lines

    def quiet_lines(self) -> list[str]:
        """The quiet lines since the last call (the door's counts: printed, not shown)."""
        with self._lines_lock:
            lines = list(self._quiet)
            self._quiet.clear()
        return lines

    @property
    def hosting(self) -> bool:
        """Whether this window is the host."""
        return isinstance(self.node, Host)

    @property
    def code(self) -> str:
        """The code to give the others: an online game's room code, else the join code (the
        host's own; a joiner's as given)."""
        if isinstance(self.node, Host):
            return self.node.room_code or spaced_code(self.node.code)
        if self.options.online:
            return room_code(self.options.room, self.options.code)
        return spaced_code(self.options.code)

    @property
    def page_link(self) -> str | None:
        """The host's link for a browser (online only; None otherwise)."""
        return self.node.page_link() if isinstance(self.node, Host) else None

    @property
    def rejoining(self) -> str | None:
        """Why this joiner lost the host, while it joins again by itself (else None)."""
        return getattr(self.node, "rejoining", None)

    def players(self) -> int:
        """How many players are in the game now."""
        return sum(1 for pl in self.node.players.values() if pl.playing)

    def status(self) -> str:
        """The lasting words of the title bar: the role, the address, the join code."""
        node = self.node
        if node.ended is not None:
            return f"game over: {node.ended}"
        if isinstance(node, Peer) and node.rejoining is not None:
            tries = f" (try {node.rejoin_tries})" if node.rejoin_tries > 1 else ""
            return f"connection lost: joining again{tries}"
        count = self.players()
        players = f"{count} player{'s' if count != 1 else ''}"
        if isinstance(node, Host):
            where = (f"room code {self.code}" if node.room_code else
                     f"hosting on {node.bind}:{node.port}, join code {self.code}")
            return f"{where}, {players}, delay {node.delay}"
        where = (f"room {self.options.room}" if self.options.online
                 else f"{self.options.address}:{self.options.port}")
        if node.slot is None:
            return f"watching {where}, {players}"
        return f"player {node.slot + 1} at {where}, {players}, delay {node.delay}"

    @property
    def ended(self) -> str | None:
        """Why the game is over for this window (None: it goes on)."""
        return self.node.ended

    @property
    def failure(self) -> str | None:
        """In strict mode, the desync that ended the game (None: no failure)."""
        error = self.node.error
        return None if error is None else str(error)

    @property
    def paused(self) -> bool:
        """Whether the host has the game paused (every window waits at the same frame)."""
        return self.node.paused

    @property
    def speed(self) -> int:
        """The host's speed: 0 (as fast as the slowest peer), 1 (50 frames/s) or 2."""
        return self.node.speed

    # -- frames -----------------------------------------------------------------------------

    def step(self, local: FrameInput | LocalKeys, timeout: float) -> bool:
        """Send this window's keys and emulate the next frame when every player's keys are
        in, waiting at most ``timeout`` seconds; True when a frame was emulated."""
        return self.node.advance_within(local, timeout)

    # -- the host's controls ----------------------------------------------------------------

    def refusal(self, what: str) -> str | None:
        """None on the host's window; on a joiner's, why ``what`` is not done."""
        if self.hosting:
            return None
        return f"{what}: only the host can do that in a network game"

    def _host_call(self, what: str, action: Callable[[Host], int | None]) -> str:
        """Do a host-only control; the line the window shows."""
        refused = self.refusal(what)
        if refused is not None:
            return refused
        assert isinstance(self.node, Host)
        try:
            frame = action(self.node)
        except NetError as exc:
            return f"{what}: {exc}"
        if frame is None:
            return f"{what}: nothing to do (the game is over, or not paused)"
        return f"{what} at frame {frame} on every machine"

    def pause(self, on: bool) -> str:
        """Pause every machine, or go on."""
        if on:
            return self._host_call("pause", Host.pause)
        return self._host_call("resume", Host.resume)

    def set_speed(self, speed: int) -> str:
        """The host's speed for every machine (0 max, 1 100 %, 2 200 %)."""
        return self._host_call("speed", lambda host: host.set_speed(speed))

    def reset(self) -> str:
        """Power every machine off and on at one frame."""
        return self._host_call("reset", Host.reset)

    def tape(self, kind: int) -> str:
        """Play, stop or rewind every machine's tape (p.TAPE_PLAY, TAPE_STOP, TAPE_REWIND)."""
        return self._host_call(p.CONTROL_NAMES[kind], lambda host: host.control(kind))

    def load_snapshot(self, snapshot: Snapshot) -> str:
        """Every machine loads ``snapshot`` at one frame."""
        return self._host_call("snapshot", lambda host: host.load_snapshot(snapshot))

    def insert_tape(self, tape: TapeFile, fast: bool = True) -> str:
        """Every machine puts ``tape`` in its deck at one frame."""
        return self._host_call(f"tape {tape.name}", lambda host: host.insert_tape(tape, fast))

    def close(self, reason: str | None = None) -> None:
        """Leave (a joiner) or end the game for everyone (the host); stop the thread."""
        if self.closed:
            return
        self.closed = True
        self.thread.close(self.node, reason)


__all__ = ["HOST", "JOIN", "WATCH", "JoinError", "NetLink", "NetOptions", "NetOptionsError",
           "check_port", "lan_address", "net_options", "spaced_code"]
