"""Lockstep: one Spectrum on every peer, stepped a frame at a time on everyone's keys.

A :class:`Node` (the host's or a peer's side) holds a :class:`~zxmonopoly.spectrum.Spectrum48`,
the keys every player sent for each frame, who plays from which frame to which, and the host's
controls stamped with their frames. It emulates frame ``f`` only when the keys of every player
in the game at ``f`` are in; the keys of a frame are the AND of the players' half-rows (0 =
pressed) and the OR of their Kempston bits, so the program sees one keyboard. Its own player's
keys go ``delay`` frames ahead. The network (host.py, peer.py) feeds it from another task or
thread: everything is done under :attr:`Node.lock`.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from zxmonopoly.files import read_regular
from zxmonopoly.snapshot import Snapshot, read_szx, write_szx
from zxmonopoly.spectrum import NO_INPUT, FrameInput, Spectrum48

from . import protocol as p
from .errors import NetError

log = logging.getLogger("zxmonopoly.net")

#: Frames of keys and controls kept behind the current frame (a desync repair may take a
#: peer back that far to run them again).
KEEP = 4 * p.MAX_LEAD
#: A peer whose host is further ahead than this (in frames: a minute) leaves: it cannot keep up.
MAX_BEHIND = 3000
#: Seconds a paced run may fall behind its 50 Hz schedule and make it up (a busy machine);
#: waits for keys are not made up (the schedule moves on: that is what aligns the peers).
MAX_LAG = 0.1
FPS = 50


class DesyncError(NetError):
    """A machine differs from the host's and ``strict`` says to fail rather than repair."""


#: How every desync line begins (the host's BYE of a strict game's end too, which a strict
#: peer takes as its own failure).
DESYNC = "desync: "


#: A player's keys for a frame are a frame's input: the machine's own type, which the node
#: hands the machine through its one seam (``Spectrum48.set_input``). ``Keys`` and
#: ``RELEASED`` are its names in the library's API (docs/network.md).
Keys = FrameInput
RELEASED = NO_INPUT
#: A node's own keys for its next frame to send (``node.next_local``).
LocalKeys = Callable[["Node"], FrameInput]


@dataclass(frozen=True)
class TapeFile:
    """A tape as the peers compare it: its name and bytes (sha256 of the bytes)."""

    name: str
    data: bytes

    @property
    def sha256(self) -> bytes:
        """The hash the handshake compares."""
        return hashlib.sha256(self.data).digest()

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> TapeFile:
        """A tape file read from disk (bounded: p.MAX_TAPE)."""
        try:
            data = read_regular(path, p.MAX_TAPE, "tape sent over the network")
        except OSError as exc:
            raise NetError(f"{path}: cannot read: {exc.strerror or exc}") from None
        return cls(Path(path).name, data)


NO_TAPE = bytes(p.HASH_SIZE)


def tape_hash(tape: TapeFile | None) -> bytes:
    """The tape's sha256, or 32 zero bytes for no tape."""
    return tape.sha256 if tape is not None else NO_TAPE


def rom_hash(machine: Spectrum48) -> bytes:
    """The sha256 of the machine's ROM."""
    return hashlib.sha256(machine.rom).digest()


def machine_digest(machine: Spectrum48) -> bytes:
    """A hash of everything that decides the machine's future: RAM, registers and the CPU's
    hidden state (settled as a .szx keeps it), the ULA's output, the tape deck's position."""
    snap = machine.to_snapshot().settled(keep_halted=True)
    h = hashlib.blake2b(digest_size=p.DIGEST_SIZE)
    h.update(snap.ram)
    values = [getattr(snap, name) for name in
              ("a", "f", "b", "c", "d", "e", "h", "l", "a_", "f_", "b_", "c_", "d_", "e_",
               "h_", "l_", "i", "r", "ix", "iy", "sp", "pc", "iff1", "iff2", "im", "border",
               "tstates", "mic_ear", "halted", "memptr", "q", "ei_last")]
    deck = machine.deck
    values += [deck.position(), int(deck.playing), int(deck.fast), *deck.block_counter(),
               machine.frame]
    h.update(np.array(values, dtype=np.int64).tobytes())
    return h.digest()


def capture(machine: Spectrum48, frame: int) -> p.MachineState:
    """The machine at a frame boundary, for a joiner or a repair."""
    deck = machine.deck
    return p.MachineState(frame, machine.frame & 0xFFFFFFFF, deck.position(), deck.playing,
                          deck.fast, write_szx(machine.to_snapshot()))


def restore(machine: Spectrum48, state: p.MachineState, name: str) -> None:
    """Put ``state`` in the machine; its .szx is read as a file is (SnapshotError)."""
    snap = read_szx(state.szx, name)
    machine.from_snapshot(snap)
    machine.frame = state.machine_frame
    deck = machine.deck
    deck.stop()
    deck.set_fast(state.tape_fast)
    if deck.name is not None:
        deck.seek(state.tape_position)
        if state.tape_playing:
            deck.play()


@dataclass
class Player:
    """A player's keys by frame and its spans in the game: ``[join, leave)`` each (a player
    who left and came back into the same slot has two)."""

    slot: int
    name: str
    spans: list[list[int]] = field(default_factory=list)
    keys: dict[int, FrameInput] = field(default_factory=dict)
    #: Host only: the next frame this player's keys must be for (they come in order).
    next: int = 0

    def plays(self, frame: int) -> bool:
        """Whether the player's keys count at ``frame``."""
        return any(join <= frame < leave for join, leave in self.spans)

    @property
    def playing(self) -> bool:
        """Whether the player's last span is open (it has not left)."""
        return bool(self.spans) and self.spans[-1][1] == p.NO_FRAME

    @property
    def join(self) -> int:
        """The frame its last span starts at."""
        return self.spans[-1][0] if self.spans else p.NO_FRAME


@dataclass(frozen=True)
class Event:
    """A host's action at a frame: a CONTROL kind, or a snapshot loaded, or a tape put in."""

    frame: int
    kind: int = -1  # a CONTROL kind (SPEED, RESET, TAPE_*), else -1
    arg: int = 0
    snapshot: Snapshot | None = None
    tape: TapeFile | None = None
    fast: bool = True
    #: The message that carried it (sent again to a joiner whose state is older).
    message: p.Message | None = None


def check_tape(data: bytes, name: str) -> None:
    """Raise NetError unless ``data`` reads as a tape (the checks a file gets)."""
    from zxmonopoly import tape as tapes

    try:
        tapes.signal_of(data, name)
    except tapes.TapeError as exc:
        raise NetError(str(exc)) from None


@dataclass
class Stats:
    """What a node counts: frames emulated, waits for keys, desyncs."""

    frames: int = 0
    stalls: int = 0  # times a due frame waited for keys
    stall_seconds: float = 0.0
    desyncs: int = 0  # found (host) or repaired (peer)
    hashes: int = 0


class Node:
    """What the host and a peer share: the machine, the keys by frame, the controls."""

    def __init__(self, machine: Spectrum48, *, strict: bool = False, name: str = "") -> None:
        self.machine = machine
        self.strict = strict
        self.name = name
        self.lock = threading.RLock()
        self.frame = 0  # the next frame to emulate
        self.delay = p.START_DELAY
        self.speed = 1  # 0 max, 1 = 50 frames/s, 2 = 100
        self.players: dict[int, Player] = {}
        self.slot: int | None = None  # this node's player slot (None: a spectator)
        self.next_local = 0  # the next frame this node's own keys are to be sent for
        self.events: dict[int, list[Event]] = {}  # the host's actions by frame
        self.pauses: set[int] = set()
        self.resumed_through = -1
        self.tape: TapeFile | None = None
        self.stats = Stats()
        #: Called after every frame emulated (with the node; under the lock).
        self.frame_listeners: list[Callable[[Node], None]] = []
        #: Called with each line the node logs (joins, drops, desyncs): a window shows them.
        self.message_listeners: list[Callable[[str], None]] = []
        #: Called with each quiet line (the door's counts): printed, not put in the title.
        self.quiet_listeners: list[Callable[[str], None]] = []
        self.messages: list[str] = []
        self.ended: str | None = None  # why the game is over for this node
        self.error: Exception | None = None  # a DesyncError in strict mode
        self._wake_async: asyncio.Event | None = None
        self._wake_thread = threading.Event()
        self._stall_frame = -1

    # -- reporting --------------------------------------------------------------------------

    def note(self, text: str, quiet: bool = False) -> None:
        """Log one line and tell the listeners (the window's title and message line);
        ``quiet`` lines (the door's: strangers turned away) go to the quiet listeners
        instead, which print them without taking the title from the game's own line."""
        line = f"{self.name}: {text}" if self.name else text
        log.info("%s", line)
        self.messages.append(text)
        del self.messages[:-200]
        for listener in self.quiet_listeners if quiet else self.message_listeners:
            listener(text)

    def wake(self) -> None:
        """Something arrived: a waiting run looks again."""
        self._wake_thread.set()
        if self._wake_async is not None:
            loop = self._wake_async_loop
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self._wake_async.set)

    # -- the timeline -----------------------------------------------------------------------

    @property
    def paused_at(self) -> int | None:
        """The frame the game stops before, while the host has it paused."""
        later = [f for f in self.pauses if f > self.resumed_through]
        return min(later) if later else None

    @property
    def paused(self) -> bool:
        """Whether the game waits at a pause (the host's)."""
        at = self.paused_at
        return at is not None and self.frame >= at

    def missing(self) -> list[int]:
        """The slots whose keys for the current frame are not in yet."""
        f = self.frame
        return [pl.slot for pl in self.players.values() if pl.plays(f) and f not in pl.keys]

    def ready(self) -> bool:
        """Whether the next frame can be emulated now."""
        return self.ended is None and not self.paused and not self.missing()

    def advance(self, local: FrameInput | LocalKeys = NO_INPUT) -> bool:
        """Send this node's keys as far ahead as the delay says, then emulate one frame if
        every player's keys for it are in; True when a frame was emulated. ``local`` is the
        keys, or a function of the node giving them, called once for each frame scheduled
        (its ``next_local`` is that frame), so a key feed moves on a frame at a time."""
        with self.lock:
            if self.ended is not None:
                return False
            if self.slot is not None and self.slot in self.players:
                self._schedule_local(local)
            if not self.ready():
                return False
            self._step()
            return True

    def _schedule_local(self, local: FrameInput | LocalKeys) -> None:
        """This node's keys for every frame up to ``frame + delay`` not yet sent."""
        player = self.players[self.slot]  # type: ignore[index]
        if not player.playing:
            return
        self.next_local = max(self.next_local, player.join)
        last = self.frame + self.delay
        while self.next_local <= last:
            keys = local if isinstance(local, FrameInput) else local(self)
            player.keys[self.next_local] = keys
            self._send_keys(self.next_local, keys)
            self.next_local += 1

    def _send_keys(self, frame: int, keys: FrameInput) -> None:
        """Send our keys for ``frame`` (the host to every peer, a peer to the host)."""
        raise NotImplementedError

    def _step(self) -> None:
        """Emulate the current frame on the players' keys (the controls at it first)."""
        f = self.frame
        for event in self.events.get(f, ()):
            self._apply(event)
        machine = self.machine
        machine.set_input(FrameInput.combined(
            player.keys[f] for player in self.players.values() if player.plays(f)))
        machine.run_frames(1)
        self.frame = f + 1
        self.stats.frames += 1
        for listener in self.frame_listeners:
            listener(self)
        if self.frame % p.HASH_INTERVAL == 0:
            self.stats.hashes += 1
            self._checkpoint(self.frame, machine_digest(machine))
        old = self.frame - KEEP
        for player in self.players.values():
            player.keys.pop(old, None)
            if len(player.spans) > 1 and player.spans[0][1] < old:
                del player.spans[0]
        self.events.pop(old, None)

    def _checkpoint(self, frame: int, digest: bytes) -> None:
        """The machine's hash at a checkpoint: the host keeps it, a peer sends it."""
        raise NotImplementedError

    def _apply(self, event: Event) -> None:
        """Do a control, load a snapshot or put a tape in, before the frame it is stamped with."""
        machine = self.machine
        if event.snapshot is not None:
            machine.from_snapshot(event.snapshot)
        elif event.tape is not None:
            machine.deck.set_fast(event.fast)
            machine.deck.insert(event.tape.data, event.tape.name)
            self.tape = event.tape
        elif event.kind == p.SPEED:
            self.speed = event.arg
        elif event.kind == p.RESET:
            machine.reset()
        elif event.kind == p.TAPE_PLAY:
            machine.deck.play()
        elif event.kind == p.TAPE_STOP:
            machine.deck.stop()
        elif event.kind == p.TAPE_REWIND:
            machine.deck.rewind()

    def _add_event(self, event: Event) -> None:
        self.events.setdefault(event.frame, []).append(event)

    # -- running without a window -----------------------------------------------------------

    async def run(self, frames: int | None = None, *, paced: bool = True,
                  local: FrameInput | LocalKeys = NO_INPUT,
                  until: Callable[[Node], bool] | None = None) -> None:
        """Emulate ``frames`` frames (None: until the game ends or ``until(node)`` holds),
        50 a second when ``paced`` (at the host's speed), else as fast as the keys come.
        ``local`` is this node's own keys (see :meth:`advance`)."""
        self._wake_async = asyncio.Event()
        self._wake_async_loop = asyncio.get_running_loop()
        done = 0
        deadline = time.perf_counter()
        while self.ended is None and (frames is None or done < frames):
            if until is not None and until(self):
                break
            speed = self.speed
            if paced and speed:
                wait = deadline - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
            if self.advance(local):
                done += 1
                if paced and speed:
                    deadline += 1 / (FPS * speed)
                    now = time.perf_counter()
                    if now - deadline > MAX_LAG:
                        deadline = now
                await asyncio.sleep(0)  # the network's turn
                continue
            waited = await self._wait_for_keys()
            deadline += waited  # not made up: the peers fall into step this way
        if self.error is not None:
            raise self.error

    async def _wait_for_keys(self) -> float:
        """Wait until something arrives (or a tenth of a second); the seconds waited."""
        start = time.perf_counter()
        stalled = not self.paused and self.ended is None
        assert self._wake_async is not None
        self._wake_async.clear()
        if not self.ready():
            try:
                await asyncio.wait_for(self._wake_async.wait(), 0.1)
            except TimeoutError:
                pass
        waited = time.perf_counter() - start
        if stalled:
            if self._stall_frame != self.frame:
                self._stall_frame = self.frame
                self.stats.stalls += 1
            self.stats.stall_seconds += waited
        return waited

    def advance_within(self, local: FrameInput | LocalKeys, timeout: float) -> bool:
        """:meth:`advance`, waiting up to ``timeout`` seconds for the keys it needs (a
        window's thread, between two of its ticks); True when a frame was emulated."""
        end = time.perf_counter() + timeout
        start = None
        try:
            while True:
                self._wake_thread.clear()
                if self.advance(local):
                    return True
                left = end - time.perf_counter()
                if left <= 0 or self.ended is not None or self.paused:
                    return False
                if start is None:
                    start = time.perf_counter()
                    if self._stall_frame != self.frame:
                        self._stall_frame = self.frame
                        self.stats.stalls += 1
                self._wake_thread.wait(left)
        finally:
            if start is not None:
                self.stats.stall_seconds += time.perf_counter() - start

    _wake_async_loop: asyncio.AbstractEventLoop | None = None
