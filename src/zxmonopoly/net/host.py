"""The host of a network game: it listens, admits peers that know the join code, relays
every player's keys, stamps its controls with frames, checks every machine's hash."""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections import deque

from zxmonopoly import __version__
from zxmonopoly.snapshot import Snapshot, read_szx, write_szx
from zxmonopoly.spectrum import FrameInput, Spectrum48

from . import protocol as p
from .conn import LINGER, Conn, no_delay
from .lockstep import (
    DESYNC,
    FPS,
    DesyncError,
    Event,
    NetError,
    Node,
    Player,
    TapeFile,
    capture,
    check_tape,
    rom_hash,
    tape_hash,
)

#: Frames added to the delay the round trips ask for (jitter, the frame's own time).
DELAY_MARGIN = 2
#: Seconds a lower delay must be enough before the delay is lowered (it is raised at once).
LOWER_AFTER = 2.0
#: Round-trip samples kept per peer (two seconds of pings): the delay covers the worst.
RTT_SAMPLES = 8
#: Machine hashes the host keeps to compare with late peers' (16 x 50 frames).
HASHES_KEPT = 16


class PeerConn(Conn):
    """A joiner's connection as the host sees it."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - Conn's
        super().__init__(*args, **kwargs)
        self.slot: int | None = None  # its player slot once admitted (None: spectator)
        self.admitted = False
        self.spectator = False
        self.name = ""
        self.rtts: deque[float] = deque(maxlen=RTT_SAMPLES)
        self.pending_hashes: dict[int, bytes] = {}
        self.ignore_hashes_through = -1
        self.last_input = time.monotonic()

    @property
    def who(self) -> str:
        """How the logs name it."""
        if self.slot is not None:
            return f"player {self.slot + 1} ({self.name}, {self.address})"
        kind = "spectator" if self.admitted else "joiner"
        return f"{kind} {self.name or ''} ({self.address})".replace("  ", " ")


class Host(Node):
    """Hosts a game on ``machine``: :meth:`start` listens on ``bind``:``port`` (127.0.0.1
    unless told otherwise); peers that know ``code`` join. The host plays too (slot 0);
    ``players`` is how many the hosted program takes, the host included (the caller knows its
    program: 2 to :data:`~.protocol.MAX_SLOTS`), ``spectators`` how many may watch."""

    def __init__(self, machine: Spectrum48, *, code: str | None = None,
                 bind: str = "127.0.0.1", port: int = p.DEFAULT_PORT,
                 tape: TapeFile | None = None, strict: bool = False, name: str = "host",
                 players: int = p.MAX_SLOTS, spectators: int = p.MAX_SPECTATORS,
                 timeouts: p.Timeouts = p.TIMEOUTS) -> None:
        if not 2 <= players <= p.MAX_SLOTS:
            raise NetError(f"a network game has 2 to {p.MAX_SLOTS} players, not {players}")
        super().__init__(machine, strict=strict, name=name)
        self.code = code if code is not None else p.new_join_code()
        self.key = p.code_key(self.code)
        self.bind, self.port = bind, port
        self.tape = tape
        self.max_players = players
        self.max_spectators = spectators
        self.timeouts = timeouts
        self.slot = p.HOST_SLOT
        self.players[p.HOST_SLOT] = Player(p.HOST_SLOT, name, [[0, p.NO_FRAME]])
        self.conns: list[PeerConn] = []
        self.pending = 0
        self.hashes: dict[int, bytes] = {}
        self.delays: dict[int, int] = {p.HOST_SLOT: self.delay}
        self._lower_since: dict[int, float] = {}
        #: (who, reason) of every connection dropped, for tests and the logs.
        self.dropped: list[tuple[str, str]] = []
        self.server: asyncio.Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task] = set()
        self._pinger: asyncio.Task | None = None
        self._rom = rom_hash(machine)

    # -- listening --------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen for joiners (NetError when the address cannot be had)."""
        self._loop = asyncio.get_running_loop()
        try:
            self.server = await asyncio.start_server(self._serve, self.bind, self.port)
        except OSError as exc:
            raise NetError(f"cannot listen on {self.bind}:{self.port}: "
                           f"{exc.strerror or exc}") from None
        self.port = self.server.sockets[0].getsockname()[1]
        self._pinger = self._spawn(self._ping_loop())
        self.note(f"hosting on {self.bind}:{self.port}; join code {self.code}")

    def _spawn(self, coro) -> asyncio.Task:  # noqa: ANN001 - a coroutine
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self, reason: str = "the host ended the game") -> None:
        """End the game for everyone (each is told ``reason``) and stop listening."""
        self.end(reason)
        if self.server is not None:
            self.server.close()
        readers = [t for t in self._tasks if t is not self._pinger]
        if readers:  # the peers read their BYE and close; then the readers end
            await asyncio.wait(readers, timeout=LINGER)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def end(self, reason: str) -> None:
        """The game is over: every peer is told why and let go (any thread)."""
        with self.lock:
            if self.ended is not None:
                return
            self.ended = reason
            for conn in list(self.conns):
                conn.send(p.Bye(reason))
                conn.close()
            self.conns.clear()
            self.note(reason)
        self.wake()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        no_delay(writer)
        assert self._loop is not None
        conn = PeerConn(reader, writer, self._loop, on_backlog=self._backlogged)
        task = asyncio.current_task()
        if task is not None:
            conn.task = task
            self._tasks.add(task)
        try:
            if self.ended is not None:
                raise p.ProtocolError(f"the game is over ({self.ended})")
            if self.pending >= p.MAX_PENDING:
                raise p.ProtocolError(f"{p.MAX_PENDING} others are joining; try again")
            self.pending += 1
            try:
                await asyncio.wait_for(self._handshake(conn), self.timeouts.handshake)
            except TimeoutError:
                raise p.ProtocolError(f"the handshake took more than "
                                      f"{self.timeouts.handshake:.0f} s") from None
            finally:
                self.pending -= 1
            while True:
                message = await p.read_message(reader, self.timeouts.silence,
                                               self.timeouts.message)
                conn.last_heard = time.monotonic()
                with self.lock:
                    self._on_message(conn, message)
                self.wake()
        except p.ProtocolError as exc:
            self.drop(conn, str(exc))
            await conn.drain()
        except TimeoutError:
            self.drop(conn, f"silent for {self.timeouts.silence:.0f} s")
            await conn.drain()
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self.drop(conn, "disconnected")
        except asyncio.CancelledError:
            self.drop(conn, self.ended or "the host stopped")
        finally:
            conn.finish()
            if task is not None:
                self._tasks.discard(task)

    def _backlogged(self, conn: Conn) -> None:
        assert isinstance(conn, PeerConn)
        self.drop(conn, f"not reading: more than {p.MAX_BACKLOG:,} bytes wait to be sent")

    # -- the handshake ----------------------------------------------------------------------

    async def _handshake(self, conn: PeerConn) -> None:
        """HELLO, CHALLENGE, AUTH; then WELCOME (with the state) and the backlog."""
        idle, stall = self.timeouts.handshake, self.timeouts.message
        hello = await p.read_message(conn.reader, idle, stall)
        if not isinstance(hello, p.Hello):
            raise p.ProtocolError(f"{hello.NAME} message out of order: a joiner starts with "
                                  "HELLO")
        conn.name = hello.name
        if hello.protocol != p.PROTOCOL_VERSION:
            raise p.ProtocolError(f"wrong version: protocol {hello.protocol}, this host speaks "
                                  f"{p.PROTOCOL_VERSION}")
        if hello.version != __version__:
            raise p.ProtocolError(f"wrong version: zxmonopoly {hello.version}, the host runs "
                                  f"{__version__}")
        nonce = secrets.token_bytes(p.NONCE_SIZE)
        sent = time.monotonic()
        conn.send(p.Challenge(p.PROTOCOL_VERSION, nonce, self._rom, tape_hash(self.tape),
                              __version__))
        auth = await p.read_message(conn.reader, idle, stall)
        if not isinstance(auth, p.Auth):
            raise p.ProtocolError(f"{auth.NAME} message out of order: AUTH was due")
        rtt = time.monotonic() - sent
        if not p.proof_ok(p.peer_proof(self.key, nonce, hello.nonce), auth.mac):
            raise p.ProtocolError("wrong join code")
        if hello.rom != self._rom:
            raise p.ProtocolError(f"wrong ROM: the joiner's sha256 is {hello.rom.hex()[:16]}..., "
                                  f"the host's {self._rom.hex()[:16]}...")
        if self.tape is not None and hello.tape != self.tape.sha256:
            raise p.ProtocolError(f"wrong tape: the host's is {self.tape.name} (sha256 "
                                  f"{self.tape.sha256.hex()[:16]}...): join with --tape "
                                  "and that file")
        with self.lock:
            self._admit(conn, hello, nonce, rtt)

    def _admit(self, conn: PeerConn, hello: p.Hello, nonce: bytes, rtt: float) -> None:
        """Give the joiner the machine at the current frame and all that follows it."""
        if self.ended is not None:
            raise p.ProtocolError(f"the game is over ({self.ended})")
        h = self.frame
        slot = None
        join = p.NO_FRAME
        if hello.spectator:
            watching = sum(1 for c in self.conns if c.slot is None)
            if watching >= self.max_spectators:
                raise p.ProtocolError(f"no room: {self.max_spectators} spectators at most")
        else:
            free = [s for s in range(1, self.max_players)
                    if s not in self.players or not self.players[s].playing]
            if not free:
                raise p.ProtocolError(f"the game is full: {self.max_players} players at most")
            slot = free[0]
            join = max(self.next_local, h)
        conn.slot, conn.spectator = slot, hello.spectator
        conn.rtts.append(rtt)
        conn.last_input = time.monotonic()
        name = hello.name or (f"player {slot + 1}" if slot is not None else "spectator")
        name = p.clip(name, p.MAX_NAME)
        conn.name = name
        if slot is not None:
            player = self.players.get(slot) or Player(slot, name)
            player.name = name
            player.spans.append([join, p.NO_FRAME])
            player.next = join
            self.players[slot] = player
        delay = self._delay_wanted(slot, extra=conn) if slot is not None else p.START_DELAY
        if slot is not None:
            self.delays[slot] = delay
        roster = tuple(p.Member(pl.slot, max(j, 0), leave, pl.name)
                       for pl in self.players.values() for j, leave in pl.spans if leave > h)
        conn.send(p.Welcome(p.host_proof(self.key, nonce, hello.nonce),
                            p.NO_SLOT if slot is None else slot, join, delay, self.speed,
                            roster, capture(self.machine, h)))
        for frame in sorted(self.events):
            if frame >= h:
                for event in self.events[frame]:
                    assert event.message is not None
                    conn.send(event.message)
        for frame in sorted(self.pauses):
            if frame > self.resumed_through and frame >= h:
                conn.send(p.Control(frame, p.PAUSE))
        for pl in self.players.values():
            for frame in sorted(f for f in pl.keys if f >= h):
                keys = pl.keys[frame]
                conn.send(p.Inputs(pl.slot, frame, keys.rows, keys.joystick))
        if slot is not None:
            for other in self.conns:
                other.send(p.Join(slot, join, name))
        conn.admitted = True
        self.conns.append(conn)
        if slot is not None:
            self.note(f"{conn.who} joined: its keys count from frame {join} (the machine "
                      f"sent at frame {h})")
        else:
            self.note(f"{conn.who} is watching from frame {h}")
        self._update_delays()

    # -- messages from peers ----------------------------------------------------------------

    def _on_message(self, conn: PeerConn, message: p.Message) -> None:
        if conn.closed:
            return
        if isinstance(message, p.Input):
            self._on_input(conn, message)
        elif isinstance(message, p.Hash):
            self._on_hash(conn, message)
        elif isinstance(message, p.Pong):
            sample = (time.monotonic_ns() - message.stamp) / 1e9
            if 0 <= sample < 60:
                conn.rtts.append(sample)
                self._update_delays()
        elif isinstance(message, p.Bye):
            self.drop(conn, f"left ({message.reason})" if message.reason else "left")
        else:
            raise p.ProtocolError(f"{message.NAME} message out of order: not one a joined "
                                  "peer sends")

    def _on_input(self, conn: PeerConn, message: p.Input) -> None:
        if conn.slot is None:
            raise p.ProtocolError("a spectator sent keys")
        player = self.players[conn.slot]
        if message.frame != player.next:
            raise p.ProtocolError(f"out of order: keys for frame {message.frame}, expected "
                                  f"frame {player.next}")
        if message.frame > self.frame + p.MAX_LEAD:
            raise p.ProtocolError(f"a flood of keys: frame {message.frame} is "
                                  f"{message.frame - self.frame} frames ahead of the host's "
                                  f"(at most {p.MAX_LEAD})")
        keys = FrameInput(message.rows, message.joystick)
        player.keys[message.frame] = keys
        player.next += 1
        conn.last_input = time.monotonic()
        forward = p.Inputs(conn.slot, message.frame, message.rows, message.joystick)
        for other in self.conns:
            if other is not conn:
                other.send(forward)

    def _on_hash(self, conn: PeerConn, message: p.Hash) -> None:
        if message.frame <= conn.ignore_hashes_through:
            return  # made before the repair it was sent arrived
        if message.frame > self.frame + p.MAX_LEAD:
            raise p.ProtocolError(f"a hash for frame {message.frame}, "
                                  f"{message.frame - self.frame} frames ahead of the host's")
        if message.frame in self.hashes:
            self._compare(conn, message.frame, message.digest)
        elif message.frame > self.frame:
            conn.pending_hashes[message.frame] = message.digest

    def _checkpoint(self, frame: int, digest: bytes) -> None:
        self.hashes[frame] = digest
        while len(self.hashes) > HASHES_KEPT:
            del self.hashes[min(self.hashes)]
        for conn in list(self.conns):
            theirs = conn.pending_hashes.pop(frame, None)
            if theirs is not None:
                self._compare(conn, frame, theirs)

    def _compare(self, conn: PeerConn, frame: int, digest: bytes) -> None:
        """A peer's hash against ours: a difference is a desync, repaired (or fatal)."""
        if digest == self.hashes[frame]:
            return
        self.stats.desyncs += 1
        text = f"{DESYNC}{conn.who}'s machine differs from the host's at frame {frame}"
        if self.strict:
            self.error = DesyncError(text)
            self.end(f"{text} (strict mode: the game ends)")
            return
        conn.send(p.State(p.RESYNC, capture(self.machine, self.frame)))
        conn.ignore_hashes_through = self.frame + p.MAX_LEAD
        self.note(f"{text}; sent it the host's machine at frame {self.frame}")

    def drop(self, conn: PeerConn, reason: str) -> None:
        """Let a connection go with a one-line reason; a player's keys are released from
        the first frame it has not sent keys for (any thread)."""
        with self.lock:
            if conn.closed:
                return
            text = f"dropped {conn.who}: {reason}"
            if conn in self.conns:
                self.conns.remove(conn)
            if conn.admitted and conn.slot is not None:
                player = self.players[conn.slot]
                leave = player.next
                player.spans[-1][1] = leave
                for other in self.conns:
                    other.send(p.Leave(conn.slot, leave, p.clip(reason)))
                self.delays.pop(conn.slot, None)
                text += f"; its keys are released from frame {leave}"
            self.dropped.append((conn.who, reason))
            self.note(text)
            conn.send(p.Bye(f"dropped: {reason}"))
            conn.close()
        self.wake()

    # -- keys, hashes, delays ---------------------------------------------------------------

    def _send_keys(self, frame: int, keys: FrameInput) -> None:
        message = p.Inputs(p.HOST_SLOT, frame, keys.rows, keys.joystick)
        for conn in self.conns:
            conn.send(message)

    def _delay_wanted(self, slot: int, extra: PeerConn | None = None) -> int:
        """The delay a player's keys need to reach every other peer in time: half its round
        trip to the host and half the longest other one's, in frames, plus the margin."""
        half = {p.HOST_SLOT: 0.0}
        for conn in [*self.conns, *([extra] if extra is not None else [])]:
            if conn.slot is not None and conn.rtts:
                half[conn.slot] = max(conn.rtts) / 2
        mine = half.get(slot, 0.0)
        others = max((v for k, v in half.items() if k != slot), default=0.0)
        frames = math.ceil((mine + others) * FPS - 1e-9) + DELAY_MARGIN
        return max(p.MIN_DELAY, min(p.MAX_DELAY, frames))

    def _update_delays(self) -> None:
        """Raise a player's delay at once when its round trips ask for more; lower it when
        less has been enough for LOWER_AFTER seconds."""
        now = time.monotonic()
        slots = [p.HOST_SLOT] + [c.slot for c in self.conns if c.slot is not None]
        for slot in slots:
            want = self._delay_wanted(slot)
            have = self.delays.get(slot, p.START_DELAY)
            if want < have:
                since = self._lower_since.setdefault(slot, now)
                if now - since < LOWER_AFTER:
                    continue
            self._lower_since.pop(slot, None)
            if want == have:
                continue
            self.delays[slot] = want
            if slot == p.HOST_SLOT:
                self.delay = want
            else:
                for conn in self.conns:
                    if conn.slot == slot:
                        conn.send(p.Delay(want))

    async def _ping_loop(self) -> None:
        """Ping every peer (round trips, keep-alive); drop a player whose keys the game has
        waited on for the stall timeout."""
        while self.ended is None:
            await asyncio.sleep(p.PING_INTERVAL)
            now = time.monotonic()
            with self.lock:
                missing = set(self.missing()) if not self.paused else set()
                for conn in list(self.conns):
                    conn.send(p.Ping(time.monotonic_ns()))
                    if (conn.slot in missing
                            and now - conn.last_input > self.timeouts.stall):
                        self.drop(conn, f"no keys for frame {self.frame} in "
                                        f"{self.timeouts.stall:.0f} s")

    # -- the host's controls (any thread) ---------------------------------------------------

    def _stamp(self) -> int:
        """The first frame no peer can have emulated yet: the host has not sent its keys."""
        return max(self.next_local, self.frame)

    def _broadcast(self, message: p.Message) -> None:
        for conn in self.conns:
            conn.send(message)

    def control(self, kind: int, arg: int = 0) -> int | None:
        """Pause, resume, speed, reset or a tape key on every machine; the frame it takes
        effect at (None: nothing to do)."""
        with self.lock:
            if self.ended is not None:
                return None
            if kind == p.RESUME:
                frame = self.paused_at
                if frame is None:
                    return None
                self.resumed_through = frame
                self._broadcast(p.Control(frame, p.RESUME))
            else:
                frame = self._stamp()
                message = p.Control(frame, kind, arg)
                if kind == p.PAUSE:
                    self.pauses.add(frame)
                else:
                    self._add_event(Event(frame, kind, arg, message=message))
                self._broadcast(message)
            what = p.CONTROL_NAMES[kind] + (f" {arg}" if kind == p.SPEED else "")
            self.note(f"{what} at frame {frame}")
        self.wake()
        return frame

    def pause(self) -> int | None:
        """Pause every machine (at a frame no one has reached)."""
        return self.control(p.PAUSE)

    def resume(self) -> int | None:
        """Go on after a pause."""
        return self.control(p.RESUME)

    def set_speed(self, speed: int) -> int | None:
        """0 (as fast as the slowest peer goes), 1 (50 frames/s) or 2 (100)."""
        return self.control(p.SPEED, speed)

    def reset(self) -> int | None:
        """Power every machine off and on at the same frame."""
        return self.control(p.RESET)

    def load_snapshot(self, snapshot: Snapshot) -> int | None:
        """Every machine loads ``snapshot`` at the same frame (sent as a .szx)."""
        szx = write_szx(snapshot)
        if len(szx) > p.MAX_STATE:
            raise NetError(f"the snapshot is {len(szx):,} bytes; {p.MAX_STATE:,} at most")
        with self.lock:
            if self.ended is not None:
                return None
            frame = self._stamp()
            message = p.State(p.LOAD, p.MachineState(frame, 0, 0, False, True, szx))
            # The host loads what the peers load: the snapshot as the .szx gives it back.
            self._add_event(Event(frame, snapshot=read_szx(szx, "snapshot"), message=message))
            self._broadcast(message)
            self.note(f"snapshot loaded at frame {frame}")
        self.wake()
        return frame

    def insert_tape(self, tape: TapeFile, fast: bool = True) -> int | None:
        """Every machine puts ``tape`` in its deck at the same frame (its bytes are sent)."""
        if len(tape.data) > p.MAX_TAPE:
            raise NetError(f"{tape.name}: {len(tape.data):,} bytes; a tape sent to the peers "
                           f"is {p.MAX_TAPE:,} at most")
        check_tape(tape.data, tape.name)
        name = p.clip(tape.name)
        tape = TapeFile(name, tape.data)
        with self.lock:
            if self.ended is not None:
                return None
            frame = self._stamp()
            message = p.Tape(frame, fast, name, tape.data)
            self._add_event(Event(frame, tape=tape, fast=fast, message=message))
            self._broadcast(message)
            self.note(f"tape {name} put in at frame {frame}")
        self.wake()
        return frame
