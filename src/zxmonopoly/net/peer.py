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
from .conn import LINGER, Conn, no_delay
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
    """Joining failed; the text says why (the host's reason when it refused)."""


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


class Peer(Node):
    """Joins the game hosted at ``address``:``port`` with ``code``; a player unless
    ``spectator``. ``tape`` is the tape this peer has (it must be the host's, if the host
    has one in its deck)."""

    def __init__(self, machine: Spectrum48, address: str, port: int, code: str, *,
                 spectator: bool = False, name: str = "", tape: TapeFile | None = None,
                 strict: bool = False, timeouts: p.Timeouts = p.TIMEOUTS) -> None:
        super().__init__(machine, strict=strict, name=name or ("watcher" if spectator
                                                                 else "peer"))
        self.address, self.port = address, port
        self.key = p.code_key(code)
        self.spectator = spectator
        self.player_name = p.clip(name, p.MAX_NAME)
        self.own_tape = tape
        self.timeouts = timeouts
        self.conn: Conn | None = None
        self._reader_task: asyncio.Task | None = None

    async def join(self) -> None:
        """Connect, prove the code, check versions, ROM and tape, load the host's machine;
        JoinError (one line) when any of it fails."""
        where = f"{self.address}:{self.port}"
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.address, self.port), self.timeouts.handshake)
        except TimeoutError:
            raise JoinError(f"cannot reach {where}: no answer in "
                            f"{self.timeouts.handshake:.0f} s") from None
        except ConnectionRefusedError:
            raise JoinError(f"cannot reach {where}: nobody is listening there (is the game "
                            "hosted, on that port?)") from None
        except socket.gaierror as exc:
            raise JoinError(f"cannot reach {where}: unknown host ({exc.strerror})") from None
        except OSError as exc:
            raise JoinError(f"cannot reach {where}: {exc.strerror or exc}") from None
        no_delay(writer)
        self.conn = conn = Conn(reader, writer, asyncio.get_running_loop())
        try:
            await asyncio.wait_for(self._handshake(conn), self.timeouts.handshake)
        except TimeoutError:
            conn.abort()
            raise JoinError(f"{where} did not finish the handshake in "
                            f"{self.timeouts.handshake:.0f} s") from None
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
        challenge = await p.read_message(conn.reader, idle, stall)
        if isinstance(challenge, p.Bye):
            raise JoinError(f"the host refused: {challenge.reason}")
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
            raise p.ProtocolError("wrong tape: the host's tape is another (give the same file "
                                  "with --tape)")
        conn.send(p.Auth(p.peer_proof(self.key, challenge.nonce, nonce)))
        welcome = await p.read_message(conn.reader, idle, stall)
        if isinstance(welcome, p.Bye):
            raise JoinError(f"the host refused: {welcome.reason}")
        if not isinstance(welcome, p.Welcome):
            raise p.ProtocolError(f"{welcome.NAME} message out of order: WELCOME was due")
        if not p.proof_ok(p.host_proof(self.key, challenge.nonce, nonce), welcome.mac):
            raise p.ProtocolError("the host does not know the join code (its proof is wrong)")
        with self.lock:
            self._welcome(welcome, challenge.tape != NO_TAPE)

    def _welcome(self, welcome: p.Welcome, tape: bool) -> None:
        """Load the host's machine and roster."""
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
                message = await p.read_message(conn.reader, self.timeouts.silence,
                                               self.timeouts.message)
                if self.ended is not None:
                    continue  # read to the host's end, so that nothing is reset
                with self.lock:
                    self._on_message(message)
                self.wake()
        except p.ProtocolError as exc:
            self._leave(f"left: the host broke the protocol ({exc})", tell=str(exc))
        except DesyncError as exc:
            self.error = exc
            self._leave(str(exc), tell=str(exc))
        except TimeoutError:
            self._leave(f"the host has been silent for {self.timeouts.silence:.0f} s: the "
                        "game is over")
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self._leave("the host left: the game is over")
        except asyncio.CancelledError:
            pass
        finally:
            conn.finish()

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
            if player is None or message.slot == self.slot:
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
            self.note(f"player {message.slot + 1} ({player.name}) left ({message.reason}): "
                      f"its keys are released from frame {message.frame}")
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
        self._leave(reason, tell=reason)
        if self._reader_task is not None:
            await asyncio.wait([self._reader_task], timeout=LINGER)  # the host closes
            self._reader_task.cancel()
            await asyncio.gather(self._reader_task, return_exceptions=True)

    def kill(self) -> None:
        """Drop the connection at once with no goodbye, as a crash would (tests)."""
        with self.lock:
            self.ended = "killed"
            if self.conn is not None:
                self.conn.abort()
        if self._reader_task is not None:
            self._reader_task.cancel()
