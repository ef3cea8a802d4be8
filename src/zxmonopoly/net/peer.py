"""A peer of a network game: it joins a host with the join code, gets the host's machine, and
from then on sends its keys and emulates on everyone's (or watches, as a spectator)."""

from __future__ import annotations

import asyncio
import secrets
import socket

from zxmonopoly import __version__
from zxmonopoly.snapshot import SnapshotError, read_szx
from zxmonopoly.spectrum import FrameInput, Spectrum48

from . import protocol as p
from .conn import LINGER, Conn, no_delay, repeat_line
from .lockstep import (
    DESYNC,
    KEEP,
    MAX_BEHIND,
    NO_TAPE,
    DesyncError,
    Event,
    NetError,
    Node,
    Player,
    TapeFile,
    check_tape,
    restore,
    rom_hash,
    tape_hash,
)


class JoinError(NetError):
    """Joining failed; the text says why (the host's reason when it refused). ``final``: no
    use trying again (the host refused, nobody is listening, no such room)."""

    def __init__(self, text: str, final: bool = False) -> None:
        super().__init__(text)
        self.final = final


#: Seconds between a lost peer's tries to join again, and how long it keeps trying.
REJOIN_EVERY = 2.0
REJOIN_FOR = 600.0
#: The host's reasons for dropping a peer that coming back mends (it was away or its link
#: was bad: a laptop asleep, a network gone for a minute, a relay that changed a message).
COMEBACK = ("silent for", "no keys for frame", "not reading", "sealed message")


def parse_address(text: str, default_port: int = p.DEFAULT_PORT) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT`` or ``[IPv6]:PORT`` as (host, port); ValueError when bad."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
        if rest and not rest.startswith(":"):
            raise ValueError(f"{text!r}: expected [ADDRESS]:PORT")
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, ""
    if not host:
        raise ValueError(f"{text!r}: no host name or address")
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"{text!r}: the port is a number from 1 to 65535")
    return host, int(port_text)


def wrong_tape(challenge: p.Challenge, own: TapeFile | None) -> str:
    """Why a joiner with another tape than the host's cannot join: both named, with hashes."""
    host = (f"{challenge.tape_name or 'a tape'} (sha256 {challenge.tape.hex()[:16]}...)")
    mine = ("none" if own is None
            else f"{own.name} (sha256 {own.sha256.hex()[:16]}...)")
    return (f"wrong tape: the host's is {host}, this one's is {mine}: join with --tape and "
            "the host's file")


class Peer(Node):
    """Joins the game hosted at ``address``:``port`` with ``code``; a player unless
    ``spectator``. ``tape`` is the tape this peer has (it must be the host's, if the host
    has one in its deck)."""

    def __init__(self, machine: Spectrum48, address: str, port: int, code: str, *,
                 spectator: bool = False, name: str = "", tape: TapeFile | None = None,
                 strict: bool = False, timeouts: p.Timeouts = p.TIMEOUTS,
                 lobby_ca: str | None = None) -> None:
        super().__init__(machine, strict=strict, name=name or ("watcher" if spectator
                                                                 else "peer"))
        self.address, self.port = address, port
        #: Through a lobby: its URL and the room (``online``); else None.
        self.lobby: str | None = None
        self.room = ""
        self.lobby_ca = lobby_ca
        #: Whether a lost connection is joined again by itself (else the game is over).
        self.comeback = True
        #: Why the connection was lost, while this peer tries to join again (else None).
        self.rejoining: str | None = None
        self.rejoin_tries = 0
        #: Why the last try failed (shown while it tries again).
        self.rejoin_failed = ""
        self._rejoin_task: asyncio.Task | None = None
        self.key = p.code_key(code)
        self.spectator = spectator
        self.player_name = p.clip(name, p.MAX_NAME)
        self.own_tape = tape
        self.timeouts = timeouts
        self.conn: Conn | None = None
        self._reader_task: asyncio.Task | None = None

    @classmethod
    def online(cls, machine: Spectrum48, lobby: str, code: str, **kwargs: object) -> Peer:
        """A peer that joins through the lobby at ``lobby`` (its URL) by the room code the
        host's window shows (``ROOM-XXXXX-XXXXX``); LobbyError if it is not one."""
        from .lobbywire import split_room_code

        room, join_code = split_room_code(code)
        peer = cls(machine, lobby, 0, join_code, **kwargs)  # type: ignore[arg-type]
        peer.lobby, peer.room = lobby, room
        return peer

    @property
    def where(self) -> str:
        """How the messages name the host: its address (or the room, through a lobby)."""
        if self.lobby is not None:
            return f"room {self.room} at {self.lobby}"
        return f"{self.address}:{self.port}"

    async def _connect(self) -> Conn:
        """A connection to the host (JoinError when there is none)."""
        where = self.where
        if self.lobby is not None:
            from .lobbylink import member_conn

            try:
                conn = await member_conn(self.lobby, self.room, self.lobby_ca,
                                         self.timeouts.handshake)
            except NetError as exc:
                raise JoinError(str(exc), final="the lobby refused: no room" in str(exc)) \
                    from None
            return self._watched(conn)
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.address, self.port), self.timeouts.handshake)
        except TimeoutError:
            raise JoinError(f"cannot reach {where}: no answer in "
                            f"{self.timeouts.handshake:g} s") from None
        except ConnectionRefusedError:
            raise JoinError(f"cannot reach {where}: nobody is listening there (is the game "
                            "hosted, on that port?)", final=True) from None
        except socket.gaierror as exc:
            raise JoinError(f"cannot reach {where}: unknown host ({exc.strerror})") from None
        except OSError as exc:
            raise JoinError(f"cannot reach {where}: {exc.strerror or exc}") from None
        no_delay(writer)
        return self._watched(Conn.tcp(reader, writer, asyncio.get_running_loop(),
                                      sender=p.HOST))

    def _watched(self, conn: Conn) -> Conn:
        """A new connection to the host, its repeated sealed messages said."""

        def repeated(c: Conn, counter: int) -> None:
            line = repeat_line(c, counter)
            if line is not None:
                self.note(line)

        conn.on_repeat = repeated
        return conn

    async def join(self) -> None:
        """Connect, prove the code, check versions, ROM and tape, load the host's machine;
        JoinError (one line) when any of it fails."""
        where = self.where
        # self.conn becomes this one only with the host's machine (_handshake, under the
        # lock): a window's thread sending keys meanwhile sends them on the old one, lost.
        conn = await self._connect()
        try:
            await asyncio.wait_for(self._handshake(conn), self.timeouts.handshake)
        except TimeoutError:
            conn.abort()
            raise JoinError(f"{where} did not finish the handshake in "
                            f"{self.timeouts.handshake:g} s") from None
        except p.ProtocolError as exc:
            conn.send(p.Bye(str(exc)))
            conn.close()
            raise JoinError(f"{where}: {exc}") from None
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            conn.abort()
            raise JoinError(f"{where} closed the connection during the handshake") from None
        except JoinError:
            conn.close()
            raise
        self._reader_task = asyncio.ensure_future(self._read_loop())

    async def _handshake(self, conn: Conn) -> None:
        nonce = secrets.token_bytes(p.NONCE_SIZE)
        own_tape = tape_hash(self.own_tape)
        conn.send(p.Hello(p.PROTOCOL_VERSION, self.spectator, nonce, rom_hash(self.machine),
                          own_tape, __version__, self.player_name))
        idle, stall = self.timeouts.handshake, self.timeouts.message
        challenge = await conn.read(idle, stall)
        if isinstance(challenge, p.Bye):
            raise JoinError(f"the host refused: {challenge.reason}",
                            final="try again" not in challenge.reason)
        if not isinstance(challenge, p.Challenge):
            raise p.ProtocolError(f"{challenge.NAME} message out of order: CHALLENGE was due")
        if challenge.protocol != p.PROTOCOL_VERSION or challenge.version != __version__:
            raise p.ProtocolError(f"wrong version: the host runs zxmonopoly {challenge.version}"
                                  f" (protocol {challenge.protocol}), this is {__version__} "
                                  f"(protocol {p.PROTOCOL_VERSION})")
        if challenge.rom != rom_hash(self.machine):
            raise p.ProtocolError("wrong ROM: the host runs another ROM (give the same one "
                                  "with --rom, or neither of you)")
        if challenge.tape != NO_TAPE and challenge.tape != own_tape:
            raise p.ProtocolError(wrong_tape(challenge, self.own_tape))
        conn.send(p.Auth(p.peer_proof(self.key, challenge.nonce, nonce)))
        to_peer, to_host = p.session_keys(self.key, challenge.nonce, nonce)
        conn.seal(to_host, to_peer, "the host")
        # A wrong code is refused in a BYE the host cannot seal (it has not our key).
        welcome = await conn.read(idle, stall, clear_bye=True)
        if isinstance(welcome, p.Bye):
            raise JoinError(f"the host refused: {welcome.reason}",
                            final="try again" not in welcome.reason)
        if not isinstance(welcome, p.Welcome):
            raise p.ProtocolError(f"{welcome.NAME} message out of order: WELCOME was due")
        if not p.proof_ok(p.host_proof(self.key, challenge.nonce, nonce), welcome.mac):
            raise p.ProtocolError("the host does not know the join code (its proof is wrong)")
        with self.lock:
            self._welcome(welcome, challenge.tape != NO_TAPE)
            self.conn = conn

    def _welcome(self, welcome: p.Welcome, tape: bool) -> None:
        """Load the host's machine and roster (all that was before is the host's past: a
        peer joining again starts from what the host says now)."""
        self.players.clear()
        self.events.clear()
        self.pauses.clear()
        self.resumed_through = -1
        machine = self.machine
        if tape and self.own_tape is not None:
            machine.deck.insert(self.own_tape.data, self.own_tape.name)
            self.tape = self.own_tape
        try:
            restore(machine, welcome.state, "the host's machine")
        except SnapshotError as exc:
            raise p.ProtocolError(str(exc)) from None
        self.frame = welcome.state.frame
        self.delay, self.speed = welcome.delay, welcome.speed
        for member in welcome.roster:
            player = self.players.setdefault(member.slot, Player(member.slot, member.name))
            player.spans.append([member.join, member.leave])
        if welcome.slot == p.NO_SLOT:
            self.slot = None
            self.note(f"watching from frame {self.frame}")
        else:
            self.slot = welcome.slot
            self.next_local = welcome.join
            self.players.setdefault(welcome.slot, Player(welcome.slot, self.player_name,
                                                         [[welcome.join, p.NO_FRAME]]))
            self.note(f"joined as player {welcome.slot + 1} at frame {self.frame} (keys from "
                      f"frame {welcome.join}, delay {self.delay})")

    # -- after joining ----------------------------------------------------------------------

    async def _read_loop(self) -> None:
        conn = self.conn
        assert conn is not None
        try:
            while True:
                message = await conn.read(self.timeouts.silence, self.timeouts.message)
                if self.ended is not None or self.rejoining is not None:
                    continue  # read to the host's end, so that nothing is reset
                with self.lock:
                    self._on_message(message)
                self.wake()
        except p.ProtocolError as exc:
            if self.conn is not conn:  # a connection this peer has already replaced
                return
            if "sealed message" in str(exc):  # the way, not the host: come back
                self._lost(f"the host's messages were changed on the way ({exc})", tell=str(exc))
            else:
                self._leave(f"left: the host broke the protocol ({exc})", tell=str(exc))
        except DesyncError as exc:
            self.error = exc
            self._leave(str(exc), tell=str(exc))
        except TimeoutError:
            if self.conn is conn:
                self._lost(f"the host has been silent for {self.timeouts.silence:g} s")
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            if self.conn is not conn:
                return
            said = getattr(conn, "lobby_said", None)
            self._lost(f"the connection to the host was lost ({said})" if said
                       else "the connection to the host was lost")
        except asyncio.CancelledError:
            pass
        finally:
            conn.finish()

    def _lost(self, why: str, tell: str | None = None) -> None:
        """The connection is gone but the game may not be: join again by ourselves (a
        laptop asleep, a network away for a minute), unless told not to or strict."""
        with self.lock:
            if self.ended is not None or self.rejoining is not None:
                return
            if not self.comeback or self.strict:
                self._leave(f"{why}: the game is over", tell=tell)
                return
            self.rejoining = why
            self.rejoin_tries = 0
            self.rejoin_failed = ""
            self.note(f"{why}; joining again when the host answers")
            if self.conn is not None:
                if tell is not None:
                    self.conn.send(p.Bye(tell))
                self.conn.close()
        self._rejoin_task = asyncio.ensure_future(self._rejoin())
        self.wake()

    async def _rejoin(self) -> None:
        """Join again every REJOIN_EVERY seconds until it works, the host refuses, or
        REJOIN_FOR seconds have gone."""
        loop = asyncio.get_running_loop()
        until = loop.time() + REJOIN_FOR
        while self.ended is None and self.rejoining is not None:
            self.rejoin_tries += 1
            try:
                await self.join()
            except JoinError as exc:
                self.rejoin_failed = str(exc)
                self.note(f"joining again: try {self.rejoin_tries} failed: {exc}", quiet=True)
                if exc.final or loop.time() > until:
                    with self.lock:
                        why, self.rejoining = self.rejoining, None
                    gone = ("nobody is listening" in str(exc)
                            or "the lobby refused: no room" in str(exc))
                    self._leave("the host left: the game is over" if gone else
                                f"{why}; joining again failed: {exc}: the game is over")
                    return
                await asyncio.sleep(REJOIN_EVERY)
                continue
            with self.lock:
                self.note(f"joined again after {self.rejoin_tries} "
                          f"tr{'ies' if self.rejoin_tries > 1 else 'y'}")
                self.rejoining = None
            self.wake()
            return

    def _leave(self, reason: str, tell: str | None = None) -> None:
        with self.lock:
            if self.ended is None:
                self.ended = reason
                self.note(reason)
            if self.conn is not None:
                if tell is not None:
                    self.conn.send(p.Bye(tell))
                self.conn.close()
        self.wake()

    def _check_frame(self, message: p.Message, frame: int) -> None:
        if frame < self.frame:
            raise p.ProtocolError(f"{message.NAME} for frame {frame}, which this peer has "
                                  f"emulated (it is at {self.frame})")
        if frame > self.frame + MAX_BEHIND:
            raise p.ProtocolError(f"{message.NAME} for frame {frame}: this peer is more than "
                                  f"{MAX_BEHIND} frames behind the host")

    def _on_message(self, message: p.Message) -> None:
        if self.ended is not None:
            return
        if isinstance(message, p.Inputs):
            player = self.players.get(message.slot)
            # Its own slot's keys come only for frames before this peer's keys start: its
            # earlier seat's, which the host sends a peer that joins again behind them.
            if player is None or (message.slot == self.slot
                                  and message.frame >= player.join):
                raise p.ProtocolError(f"keys for slot {message.slot}, not another player's")
            if message.frame > self.frame + MAX_BEHIND:
                raise p.ProtocolError(f"keys for frame {message.frame}: this peer is more "
                                      f"than {MAX_BEHIND} frames behind the host")
            if message.frame >= self.frame - KEEP:
                player.keys[message.frame] = FrameInput(message.rows, message.joystick)
        elif isinstance(message, p.Ping):
            assert self.conn is not None
            self.conn.send(p.Pong(message.stamp))
        elif isinstance(message, p.Join):
            self._check_frame(message, message.frame)
            player = self.players.setdefault(message.slot, Player(message.slot, message.name))
            if player.playing:
                raise p.ProtocolError(f"JOIN of slot {message.slot}, which is playing")
            player.name = message.name
            player.spans.append([message.frame, p.NO_FRAME])
            self.note(f"player {message.slot + 1} ({message.name}) joined: keys from frame "
                      f"{message.frame}")
        elif isinstance(message, p.Leave):
            self._check_frame(message, message.frame)
            player = self.players.get(message.slot)
            if player is None or not player.playing:
                raise p.ProtocolError(f"LEAVE of slot {message.slot}, which is not playing")
            player.spans[-1][1] = message.frame
            # The reason says how: "left the game", "was dropped: silent for 10 s".
            self.note(f"player {message.slot + 1} ({player.name}) {message.reason}; its keys "
                      f"are released from frame {message.frame}")
        elif isinstance(message, p.Control):
            if message.kind == p.RESUME:
                self.resumed_through = max(self.resumed_through, message.frame)
                return
            self._check_frame(message, message.frame)
            if message.kind == p.PAUSE:
                self.pauses.add(message.frame)
            else:
                self._add_event(Event(message.frame, message.kind, message.arg,
                                      message=message))
        elif isinstance(message, p.State):
            self._on_state(message)
        elif isinstance(message, p.Tape):
            self._check_frame(message, message.frame)
            try:
                check_tape(message.data, message.name)
            except NetError as exc:
                raise p.ProtocolError(f"the host's tape: {exc}") from None
            self._add_event(Event(message.frame, tape=TapeFile(message.name, message.data),
                                  fast=message.fast, message=message))
        elif isinstance(message, p.Delay):
            self.delay = message.delay
        elif isinstance(message, p.Bye):
            dropped = message.reason.removeprefix("dropped: ")
            if message.reason.startswith("dropped: ") and dropped.startswith(COMEBACK):
                # Dropped for being away (asleep, a network gone): it can come back.
                self._lost(f"the host dropped this peer ({dropped})")
                return
            if self.strict and message.reason.startswith(DESYNC):
                # A strict host found the desync and ended the game: it fails here as well.
                self.error = DesyncError(f"the host: {message.reason}")
            self._leave(f"the host: {message.reason}")
        else:
            raise p.ProtocolError(f"{message.NAME} message out of order: not one the host "
                                  "sends after WELCOME")

    def _on_state(self, message: p.State) -> None:
        state = message.state
        if message.kind == p.LOAD:
            self._check_frame(message, state.frame)
            try:
                snapshot = read_szx(state.szx, "the host's snapshot")
            except SnapshotError as exc:
                raise p.ProtocolError(str(exc)) from None
            self._add_event(Event(state.frame, snapshot=snapshot, message=message))
            return
        self.stats.desyncs += 1
        text = (f"{DESYNC}this machine differed from the host's; the host's machine at frame "
                f"{state.frame} ")
        if self.strict:
            raise DesyncError(text + "came, and strict mode fails")
        if state.frame > self.frame + MAX_BEHIND or state.frame < self.frame - KEEP // 2:
            raise p.ProtocolError(f"a repair for frame {state.frame}, too far from this peer's "
                                  f"{self.frame}")
        try:
            restore(self.machine, state, "the host's machine")
        except SnapshotError as exc:
            raise p.ProtocolError(str(exc)) from None
        self.frame = state.frame
        self.note(text + "is loaded")

    def _send_keys(self, frame: int, keys: FrameInput) -> None:
        assert self.conn is not None
        self.conn.send(p.Input(frame, keys.rows, keys.joystick))

    def _checkpoint(self, frame: int, digest: bytes) -> None:
        assert self.conn is not None
        self.conn.send(p.Hash(frame, digest))

    async def close(self, reason: str = "left the game") -> None:
        """Leave the game (the host is told)."""
        self.rejoining = None
        if self._rejoin_task is not None:
            self._rejoin_task.cancel()
            await asyncio.gather(self._rejoin_task, return_exceptions=True)
        self._leave(reason, tell=reason)
        if self._reader_task is not None:
            await asyncio.wait([self._reader_task], timeout=LINGER)  # the host closes
            self._reader_task.cancel()
            await asyncio.gather(self._reader_task, return_exceptions=True)

    def kill(self) -> None:
        """Drop the connection at once with no goodbye, as a crash would (tests)."""
        with self.lock:
            self.ended = "killed"
            if self._rejoin_task is not None:
                self._rejoin_task.cancel()
            if self.conn is not None:
                self.conn.abort()
        if self._reader_task is not None:
            self._reader_task.cancel()
