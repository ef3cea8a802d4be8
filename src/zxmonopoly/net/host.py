"""The host of a network game: it listens, admits peers that know the join code, relays
every player's keys, stamps its controls with frames, checks every machine's hash."""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from zxmonopoly import __version__
from zxmonopoly.snapshot import Snapshot, read_szx, write_szx
from zxmonopoly.spectrum import FrameInput, Spectrum48

from . import protocol as p
from .browser import ROSTER_EVERY, Browsers, Page
from .conn import LINGER, Conn, Pipe, Reader, TcpPipe, no_delay, repeat_line
from .lockstep import (
    DESYNC,
    FPS,
    DesyncError,
    Event,
    LocalKeys,
    NetError,
    Node,
    Player,
    TapeFile,
    capture,
    check_tape,
    rom_hash,
    tape_hash,
)

if TYPE_CHECKING:
    from .lobbylink import LobbyRoom

#: Frames added to the delay the round trips ask for (jitter, the frame's own time).
DELAY_MARGIN = 2
#: Seconds a lower delay must be enough before the delay is lowered (it is raised at once).
LOWER_AFTER = 2.0
#: Round-trip samples kept per peer (two seconds of pings): the delay covers the worst.
RTT_SAMPLES = 8
#: Machine hashes the host keeps to compare with late peers' (16 x 50 frames).
HASHES_KEPT = 16
#: Seconds of the door's log: the first DOOR_LINES strangers turned away in a period get a
#: line each, the rest one line of counts at its end (a flood is not a line a connection).
DOOR_PERIOD = 10.0
DOOR_LINES = 3


class DoorLog:
    """Strangers turned away (never admitted), counted: a few lines a period, then one
    summary line with the counts by reason (``note`` writes a line)."""

    def __init__(self, note: Callable[[str], None], period: float = DOOR_PERIOD,
                 lines: int = DOOR_LINES) -> None:
        self._note, self.period, self.lines = note, period, lines
        self._start = time.monotonic()
        self._said = 0
        self.counts: Counter[str] = Counter()
        #: Every refusal ever, by reason (tests).
        self.total: Counter[str] = Counter()

    def refused(self, who: str, reason: str) -> None:
        """One stranger turned away."""
        self.tick()
        self.total[reason] += 1
        if self._said < self.lines:
            self._said += 1
            self._note(f"refused {who}: {reason}")
        else:
            self.counts[reason] += 1

    def tick(self) -> None:
        """At a period's end: the summary line of what was not said, if anything."""
        now = time.monotonic()
        if now - self._start < self.period:
            return
        if self.counts:
            total = sum(self.counts.values())
            parts = ", ".join(f"{n:,} {reason}" for reason, n in self.counts.most_common(4))
            more = len(self.counts) - 4
            self._note(f"refused {total:,} more connection{'s' if total != 1 else ''} in the "
                       f"last {now - self._start:.0f} s: {parts}"
                       + (f" and {more} other reasons" if more > 0 else ""))
        self._start, self._said = now, 0
        self.counts.clear()


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
        #: Why the door let it go while it was still joining (to make room for another).
        self.evicted: str | None = None
        #: A browser's page (net/browser.py): its seat, keys and picture; None: a peer that
        #: runs a machine.
        self.browser: Page | None = None
        #: Other players' keys held until this peer can use them (Host.forward): sent
        #: together, one write (one lobby message) a frame instead of one a player.
        self.held: list[p.Message] = []

    def send(self, message: p.Message) -> None:
        """Queue a message; keys held for this peer go before it (the order of everything
        but a PING, which only measures the round trip, is the order it was sent in)."""
        if self.held and not isinstance(message, p.Ping):
            self.release()
        super().send(message)

    def release(self) -> None:
        """Send the keys held for this peer."""
        held, self.held = self.held, []
        self.send_many(held)

    @property
    def who(self) -> str:
        """How the logs name it."""
        if self.slot is not None:
            return f"player {self.slot + 1} ({self.name}, {self.address})"
        kind = "spectator" if self.admitted else "joiner"
        name = self.name if self.name not in ("", kind) else ""
        return f"{kind} {name} ({self.address})".replace("  ", " ")


class Host(Node):
    """Hosts a game on ``machine``: :meth:`start` listens on ``bind``:``port`` (127.0.0.1
    unless told otherwise; ``bind=None``: not at all, a room in a lobby only); peers that
    know ``code`` join. The host plays too (slot 0); ``players`` is how many the hosted
    program takes, the host included (the caller knows its program: 2 to
    :data:`~.protocol.MAX_SLOTS`), ``spectators`` how many may watch. ``labels`` are the
    program's keys marked on a browser's keyboard ((key name, what it does) each)."""

    def __init__(self, machine: Spectrum48, *, code: str | None = None,
                 bind: str | None = "127.0.0.1", port: int = p.DEFAULT_PORT,
                 tape: TapeFile | None = None, strict: bool = False, name: str = "host",
                 players: int = p.MAX_SLOTS, spectators: int = p.MAX_SPECTATORS,
                 timeouts: p.Timeouts = p.TIMEOUTS, lobby: str | None = None,
                 lobby_ca: str | None = None, labels: Sequence[tuple[str, str]] = ()) -> None:
        if not 2 <= players <= p.MAX_SLOTS:
            raise NetError(f"a network game has 2 to {p.MAX_SLOTS} players, not {players}")
        super().__init__(machine, strict=strict, name=name)
        self.code = code if code is not None else p.new_join_code()
        self.key = p.code_key(self.code)
        #: A second code that lets its holder watch only (a watching link); its key is made
        #: the first time a proof is not the join code's (PBKDF2 takes a moment).
        self.watch_code = p.new_join_code()
        self._watch_key: asyncio.Future[bytes] | None = None
        self.bind, self.port = bind, port
        self.tape = tape
        self.max_players = players
        self.max_spectators = spectators
        self.timeouts = timeouts
        self.slot = p.HOST_SLOT
        self.players[p.HOST_SLOT] = Player(p.HOST_SLOT, name, [[0, p.NO_FRAME]])
        self.conns: list[PeerConn] = []
        #: Connections in their handshake, the longest waiting first (the door).
        self.pending: deque[PeerConn] = deque()
        self.door = DoorLog(lambda line: self.note(line, quiet=True))
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
        #: The lobby to open a room in (its URL), and the room once open.
        self.lobby, self.lobby_ca = lobby, lobby_ca
        self.room: LobbyRoom | None = None
        self.room_code = ""
        #: The browsers' pages (net/browser.py).
        self.browsers = Browsers(self, labels)

    # -- listening --------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen for joiners (NetError when the address cannot be had)."""
        self._loop = asyncio.get_running_loop()
        if self.bind is not None:
            try:
                self.server = await asyncio.start_server(self._serve_tcp, self.bind,
                                                         self.port)
            except OSError as exc:
                raise NetError(f"cannot listen on {self.bind}:{self.port}: "
                               f"{exc.strerror or exc}") from None
            self.port = self.server.sockets[0].getsockname()[1]
            self.note(f"hosting on {self.bind}:{self.port}; join code {self.code}")
        if self.lobby is not None:
            from .lobbylink import LobbyRoom
            from .lobbywire import room_code

            self.room = LobbyRoom(self.lobby, self.serve, self.note, ca=self.lobby_ca,
                                  timeout=self.timeouts.handshake)
            try:
                name = await self.room.open()
            except NetError:
                if self.server is not None:
                    self.server.close()
                raise
            self.room_code = room_code(name, self.code)
            self.note(f"room open in the lobby at {self.lobby}; room code {self.room_code}")
            self.note(f"the others join with: zxmonopoly play --join {self.room_code} "
                      f"--lobby {self.lobby}")
            self.note(f"or in a browser: {self.page_link()}")
            self.note(f"to watch in a browser: {self.page_link(watch=True)}")
        self._pinger = self._spawn(self._ping_loop())

    def page_link(self, watch: bool = False) -> str | None:
        """The link a browser plays (or with ``watch``, only watches) by: the lobby's page,
        the room in its path, the code in its fragment; None without a room in a lobby."""
        from .lobbywire import page_link

        if self.room is None or not self.room.name or self.lobby is None:
            return None
        return page_link(self.lobby, self.room.name,
                         self.watch_code if watch else self.code, watch=watch)

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
        if self.room is not None:
            await self.room.close()
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

    async def _serve_tcp(self, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> None:
        no_delay(writer)
        await self.serve(reader, TcpPipe(writer))

    async def serve(self, reader: Reader, pipe: Pipe) -> None:
        """One joiner's connection, from its first byte to its end (a TCP stream, or a
        member of the host's room in a lobby)."""
        assert self._loop is not None
        conn = PeerConn(reader, pipe, self._loop, on_backlog=self._backlogged,
                        sender=p.JOINER)
        conn.on_repeat = lambda c, counter: self._repeated(c, repeat_line(c, counter))
        task = asyncio.current_task()
        if task is not None:
            conn.task = task
            self._tasks.add(task)
        try:
            if self.ended is not None:
                raise p.ProtocolError(f"the game is over ({self.ended})")
            self._enter_door(conn)
            try:
                await asyncio.wait_for(self._handshake(conn), self.timeouts.handshake)
            except TimeoutError:
                raise p.ProtocolError(f"the handshake took more than "
                                      f"{self.timeouts.handshake:g} s") from None
            finally:
                if conn in self.pending:
                    self.pending.remove(conn)
            while True:
                message = await conn.read(self.timeouts.silence, self.timeouts.message)
                conn.last_heard = time.monotonic()
                with self.lock:
                    self._on_message(conn, message)
                self.wake()
        except p.ProtocolError as exc:
            self.drop(conn, str(exc))
            await conn.drain()
        except TimeoutError:
            self.drop(conn, f"silent for {self.timeouts.silence:g} s")
            await conn.drain()
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            if conn.browser is not None:  # a page closed: as a player leaves
                self.drop(conn, "left: its page closed (or lost its connection)", left=True)
            else:
                self.drop(conn, conn.evicted or "disconnected")
        except asyncio.CancelledError:
            self.drop(conn, self.ended or "the host stopped")
        finally:
            conn.finish()
            if task is not None:
                self._tasks.discard(task)

    def _enter_door(self, conn: PeerConn) -> None:
        """Admission to the handshake: at most MAX_PENDING_PER_ADDRESS joining from one
        address (more are refused); at most MAX_PENDING in all, the one waiting longest let
        go for a newcomer (so idle strangers cannot keep a real joiner out)."""
        same = sum(1 for c in self.pending if c.pipe.origin == conn.pipe.origin)
        if same >= p.MAX_PENDING_PER_ADDRESS:
            raise p.ProtocolError(f"{same} others from {conn.pipe.origin} are joining; try "
                                  "again")
        while len(self.pending) >= p.MAX_PENDING:
            oldest = self.pending.popleft()
            waited = time.monotonic() - oldest.last_heard
            oldest.evicted = (f"let go for a newcomer after {waited:.1f} s of its handshake "
                              f"({p.MAX_PENDING} at most at once)")
            oldest.pipe.abort()  # its reader ends; drop() counts it
        self.pending.append(conn)

    def _repeated(self, conn: PeerConn, line: str | None) -> None:
        if line is not None:
            self.note(line.replace("from the peer", f"from {conn.who}"))

    def _backlogged(self, conn: Conn) -> None:
        assert isinstance(conn, PeerConn)
        self.drop(conn, f"not reading: more than {p.MAX_BACKLOG:,} bytes wait to be sent")

    # -- the handshake ----------------------------------------------------------------------

    async def _handshake(self, conn: PeerConn) -> None:
        """HELLO, CHALLENGE, AUTH; then the seal, WELCOME (with the state) and the backlog."""
        idle, stall = self.timeouts.handshake, self.timeouts.message
        hello = await conn.read(idle, stall)
        if isinstance(hello, p.Bye):
            raise p.ProtocolError(f"it gave up joining: {hello.reason or 'no reason'}")
        if not isinstance(hello, p.Hello):
            raise p.ProtocolError(f"{hello.NAME} message out of order: a joiner starts with "
                                  "HELLO")
        conn.name = hello.name
        if hello.protocol != p.PROTOCOL_VERSION:
            raise p.ProtocolError(f"wrong version: protocol {hello.protocol}, this host speaks "
                                  f"{p.PROTOCOL_VERSION}")
        if hello.version != __version__ and not hello.browser:  # a page runs no program
            raise p.ProtocolError(f"wrong version: zxmonopoly {hello.version}, the host runs "
                                  f"{__version__}")
        nonce = secrets.token_bytes(p.NONCE_SIZE)
        sent = time.monotonic()
        conn.send(p.Challenge(p.PROTOCOL_VERSION, nonce, self._rom, tape_hash(self.tape),
                              __version__, self.tape.name if self.tape is not None else ""))
        auth = await conn.read(idle, stall)
        if isinstance(auth, p.Bye):  # it found our versions, ROM or tape not its own
            raise p.ProtocolError(f"it gave up joining: {auth.reason or 'no reason'}")
        if not isinstance(auth, p.Auth):
            raise p.ProtocolError(f"{auth.NAME} message out of order: AUTH was due")
        rtt = time.monotonic() - sent
        key = self.key
        if not p.proof_ok(p.peer_proof(key, nonce, hello.nonce), auth.mac):
            key = await self.watch_key()
            if not p.proof_ok(p.peer_proof(key, nonce, hello.nonce), auth.mac):
                raise p.ProtocolError("wrong join code")
            if not hello.spectator:
                raise p.ProtocolError("a watching link's code: it can only watch")
        # It knows the code: from here on everything either way is sealed.
        to_peer, to_host = p.session_keys(key, nonce, hello.nonce)
        conn.seal(to_peer, to_host, "the peer")
        if hello.browser:  # a page: no machine, so no ROM or tape of its own to compare
            await self.browsers.handshake(conn, hello, nonce, rtt, key)
            return
        if hello.rom != self._rom:
            raise p.ProtocolError(f"wrong ROM: the joiner's sha256 is {hello.rom.hex()[:16]}..., "
                                  f"the host's {self._rom.hex()[:16]}...")
        if self.tape is not None and hello.tape != self.tape.sha256:
            raise p.ProtocolError(f"wrong tape: the host's is {self.tape.name} (sha256 "
                                  f"{self.tape.sha256.hex()[:16]}...): join with --tape "
                                  "and that file")
        with self.lock:
            self._admit(conn, hello, nonce, rtt, key)

    async def watch_key(self) -> bytes:
        """The watching code's key (made once, in a thread: PBKDF2 takes a moment)."""
        if self._watch_key is None:
            loop = asyncio.get_running_loop()
            self._watch_key = loop.run_in_executor(None, p.code_key, self.watch_code)
        return await asyncio.shield(self._watch_key)

    def machine_peers(self) -> list[PeerConn]:
        """The connections that run a machine (every peer but the browsers' pages)."""
        return [conn for conn in self.conns if conn.browser is None]

    def free_slots(self) -> list[int]:
        """The player slots free for a joiner, those a browser's page that left keeps last."""
        kept = self.browsers.reserved()
        free = [s for s in range(1, self.max_players)
                if s not in self.players or not self.players[s].playing]
        return sorted(free, key=lambda s: s in kept)

    def _admit(self, conn: PeerConn, hello: p.Hello, nonce: bytes, rtt: float,
               key: bytes) -> None:
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
            free = self.free_slots()
            if not free:
                raise p.ProtocolError(f"the game is full: {self.max_players} players at most")
            slot = free[0]
            join = max(self.next_local, h)
        # The pages' keys up to the host's own: this peer gets every player's keys from h.
        self.browsers.schedule(self.next_local - 1)
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
        conn.send(p.Welcome(p.host_proof(key, nonce, hello.nonce),
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
            for other in self.machine_peers():
                other.send(p.Join(slot, join, name))
        conn.admitted = True
        self.conns.append(conn)
        if slot is not None:
            self.note(f"{conn.who} joined: its keys count from frame {join} (the machine "
                      f"sent at frame {h})")
        else:
            self.note(f"{conn.who} is watching from frame {h}")
        self._update_delays()
        self.browsers.roster()

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
            self.drop(conn, message.reason or "left the game", left=True)
        elif isinstance(message, p.Key | p.Ack) and conn.browser is not None:
            self.browsers.on_message(conn, message)
        else:
            raise p.ProtocolError(f"{message.NAME} message out of order: not one a joined "
                                  "peer sends")

    def _on_input(self, conn: PeerConn, message: p.Input) -> None:
        if conn.slot is None:
            raise p.ProtocolError("a spectator sent keys")
        if conn.browser is not None:
            raise p.ProtocolError("INPUT message from a browser: its keys come as KEY")
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
        for other in self.machine_peers():
            if other is not conn:
                self.forward(other, forward)

    def forward(self, conn: PeerConn, message: p.Inputs) -> None:
        """A player's keys to ``conn``: held until every other player's keys for that frame
        are in (before, the peer cannot emulate the frame: its keys would wait there as
        well), then sent with whatever else is held, so a peer gets a frame's keys in one
        write (through a lobby, one message a frame instead of one a player; "The lobby's
        figures" in docs/network.md). Keys come in frame order from each player, so a frame
        that can be used releases everything before it too."""
        conn.held.append(message)
        frame = message.frame
        for player in self.players.values():
            if (player.slot != conn.slot and frame not in player.keys
                    and player.plays(frame)):
                return
        conn.release()

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

    def drop(self, conn: PeerConn, reason: str, left: bool = False) -> None:
        """Let a connection go with a one-line reason (``left``: its own, it said goodbye);
        a player's keys are released from the first frame it has not sent keys for (any
        thread). A stranger turned away before it was admitted is counted by the door's
        log, not given a line of its own."""
        with self.lock:
            if conn.closed:
                return
            if conn in self.pending:
                self.pending.remove(conn)
            gone = reason if reason.startswith("left") else f"left: {reason}"
            text = f"{conn.who} {gone}" if left else f"dropped {conn.who}: {reason}"
            if conn in self.conns:
                self.conns.remove(conn)
            if conn.admitted and conn.slot is not None:
                player = self.players[conn.slot]
                leave = player.next
                if leave > player.spans[-1][0]:
                    player.spans[-1][1] = leave
                else:  # gone before its first frame: a span of none is no span
                    player.spans.pop()
                why = gone if left else f"was dropped: {reason}"
                for other in self.machine_peers():
                    other.send(p.Leave(conn.slot, leave, p.clip(why)))
                self.delays.pop(conn.slot, None)
                text += f"; its keys are released from frame {leave}"
            self.dropped.append((conn.who, reason))
            if conn.admitted or left:
                self.note(text)
            else:
                self.door.refused(conn.who, reason)
            if not left:
                conn.send(p.Bye(f"dropped: {reason}"))
            conn.close()
            if conn.admitted:
                self.browsers.gone(conn)
        self.wake()

    # -- keys, hashes, delays ---------------------------------------------------------------

    def _send_keys(self, frame: int, keys: FrameInput) -> None:
        message = p.Inputs(p.HOST_SLOT, frame, keys.rows, keys.joystick)
        for conn in self.machine_peers():
            self.forward(conn, message)

    def _schedule_local(self, local: FrameInput | LocalKeys) -> None:
        """The host's keys as a node's, then the browsers' pages' keys: as far as the host's
        when a peer runs a machine (it needs them in time), else for the frame emulated next
        only (nobody waits for them: a page's key is taken the sooner)."""
        super()._schedule_local(local)
        peers = any(conn.browser is None for conn in self.conns)
        self.browsers.schedule(self.next_local - 1 if peers else self.frame)

    def _delay_wanted(self, slot: int, extra: PeerConn | None = None) -> int:
        """The delay a player's keys need to reach every other peer in time: half its round
        trip to the host and half the longest other one's, in frames, plus the margin."""
        half = {p.HOST_SLOT: 0.0}
        for conn in [*self.machine_peers(), *([extra] if extra is not None else [])]:
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
        slots = [p.HOST_SLOT] + [c.slot for c in self.machine_peers() if c.slot is not None]
        changed = False
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
            changed = True
            if slot == p.HOST_SLOT:
                self.delay = want
            else:
                for conn in self.machine_peers():
                    if conn.slot == slot:
                        conn.send(p.Delay(want))
        if changed:
            self.browsers.roster()

    async def _ping_loop(self) -> None:
        """Ping every peer (round trips, keep-alive); drop a player whose keys the game has
        waited on for the stall timeout."""
        pings = 0
        while self.ended is None:
            await asyncio.sleep(p.PING_INTERVAL)
            now = time.monotonic()
            self.door.tick()
            pings += 1
            with self.lock:
                missing = set(self.missing()) if not self.paused else set()
                for conn in list(self.conns):
                    conn.send(p.Ping(time.monotonic_ns()))
                    if (conn.slot in missing and conn.browser is None
                            and now - conn.last_input > self.timeouts.stall):
                        self.drop(conn, f"no keys for frame {self.frame} in "
                                        f"{self.timeouts.stall:.0f} s")
                if pings % ROSTER_EVERY == 0:
                    self.browsers.roster()

    # -- the host's controls (any thread) ---------------------------------------------------

    def _stamp(self) -> int:
        """The first frame no peer can have emulated yet: the host has not sent its keys."""
        return max(self.next_local, self.frame)

    def _broadcast(self, message: p.Message) -> None:
        for conn in self.machine_peers():
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
            if kind in (p.PAUSE, p.RESUME):
                self.browsers.roster()
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
