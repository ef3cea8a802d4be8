"""A tape as a stream of edges: the T-states, from the start of the tape, at which EAR flips.

The model follows the TZX 1.20 rules (``docs/tape.md`` gives them with the choices made here):

- Two levels are tracked: the signal's level ``s`` and the *current pulse level* ``c``, the level
  the next pulse will have. Both are low when the tape starts.
- A pulse of length L takes level ``c`` at its start (an edge only if ``s`` differs) and lasts L;
  then ``c`` is the opposite of the pulse's level, so the next pulse starts with an edge.
- A pause of N > 0 ms first brings the signal to ``c`` (the edge that ends the last pulse); if that
  is high it stays high 1 ms and then goes low. The pause lasts N ms from its start; after it both
  levels are low, so the next pulse (low) starts without an edge. A pause of 0 ms does nothing.
- A direct recording (0x15) sets the level of each sample outright; afterwards ``c`` is the last
  sample's level (the next pulse continues it). A CSW recording's pulses behave like pulses, and
  afterwards ``c`` is the level last played. Set signal level (0x2B) sets ``c``: the level is
  realised, with an edge only if it changes, when the next thing plays at that same T-state.
- Generalised data (0x19): a symbol's first pulse takes ``c`` (flag 0, an edge as usual), the
  level of the previous pulse (flag 1), low (2) or high (3); its other pulses alternate.
- A stop (pause 0, stop-if-48K: we are a 48K) and the end of the tape first end the last pulse
  (an edge to ``c`` if the signal differs), then the tape stops. Tape time does not run while it
  is stopped: a stop is a tape time, and playing on continues from it.
- Edges that coincide (zero-length pulses) cancel in pairs; an edge at time 0 is folded into
  ``initial_level``.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import numpy as np

from zxmonopoly.clock import CPU_HZ

from .blocks import (
    ONE,
    PILOT,
    SYNC1,
    SYNC2,
    TSTATES_PER_MS,
    ZERO,
    Block,
    CallSequence,
    CswRecording,
    DirectRecording,
    GeneralizedData,
    Jump,
    LoopEnd,
    LoopStart,
    Pause,
    PulseSequence,
    PureData,
    PureTone,
    Return,
    SetLevel,
    StandardData,
    StopIf48K,
    Symbol,
    Tape,
    TapeWarning,
    TurboData,
    block_id,
    pilot_pulses,
)
from .tap import Header, TapeError

#: Limits that keep a hostile file from exhausting memory or looping for ever.
MAX_EDGES = 16_000_000
MAX_PLAYED_BLOCKS = 200_000
MAX_CALL_DEPTH = 64  # calls, and loops (nesting neither is allowed by TZX)
@dataclass(frozen=True)
class BlockInfo:
    """One block as played: where it is in the file and in the signal, and its data if any.

    ``start``/``end`` are tape times (``end`` after the block's pause), ``data_end`` the time its
    pulses end; ``first_edge``/``end_edge`` the range of its edges in ``Signal.edges``. ``raw`` is
    the ROM-style block (flag, data, checksum) of a 0x10, 0x11 or 0x14 block.
    """

    index: int
    id: int
    description: str
    offset: int
    start: int
    data_end: int
    end: int
    first_edge: int
    end_edge: int
    raw: bytes | None = None

    @property
    def end_time(self) -> int:
        """The tape time at which the block (its pause included) ends: ``end``."""
        return self.end

    @property
    def flag(self) -> int | None:
        """The flag byte of a data block."""
        return self.raw[0] if self.raw else None

    @property
    def data(self) -> bytes | None:
        """The bytes between the flag and the checksum of a data block."""
        return None if self.raw is None else bytes(self.raw[1:-1])

    @property
    def checksum_ok(self) -> bool | None:
        """Whether flag, data and checksum XOR to 0 (None if not a data block of 2+ bytes)."""
        if self.raw is None or len(self.raw) < 2:
            return None
        value = 0
        for b in self.raw:
            value ^= b
        return value == 0

    @property
    def header(self) -> Header | None:
        """The ROM header a 19-byte flag-0 block holds: type, name, length, param1, param2."""
        if self.raw is None:
            return None
        return StandardData(self.raw).header


@dataclass(frozen=True, eq=False)
class Signal:
    """Edges (int64 tape times, strictly increasing), the level before them, and stop points.

    The level after k edges is ``initial_level ^ (k & 1)``. ``stops`` holds the tape times at
    which the tape stops by itself and ``stop_edges`` the number of edges played by then; ``end``
    is the tape time at the end of the last block.
    """

    edges: np.ndarray
    initial_level: int
    stops: np.ndarray
    stop_edges: np.ndarray
    end: int
    blocks: list[BlockInfo]
    warnings: list[TapeWarning] = field(default_factory=list)
    _starts: np.ndarray = field(init=False, repr=False)
    _data: np.ndarray = field(init=False, repr=False)
    _data_ends: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        """Index the blocks by time for ``block_at`` and ``next_data_block``."""
        data = [k for k, info in enumerate(self.blocks) if info.raw is not None]
        object.__setattr__(self, "_starts",
                           np.array([info.start for info in self.blocks], dtype=np.int64))
        object.__setattr__(self, "_data", np.array(data, dtype=np.int64))
        object.__setattr__(self, "_data_ends",
                           np.array([self.blocks[k].data_end for k in data], dtype=np.int64))

    def edges_before(self, t: int) -> int:
        """How many edges have happened by tape time ``t`` (an edge at ``t`` included)."""
        return int(np.searchsorted(self.edges, t, side="right"))

    def level_at(self, t: int) -> int:
        """The EAR level at tape time ``t``."""
        return self.initial_level ^ (self.edges_before(t) & 1)

    def block_at(self, t: int) -> int | None:
        """The index in ``blocks`` of the block playing at tape time ``t`` (None past the end)."""
        k = int(np.searchsorted(self._starts, t, side="right")) - 1
        return k if k >= 0 and self.blocks[k].end > t else None

    def next_data_block(self, t: int) -> int | None:
        """The index in ``blocks`` of the first data block whose pulses have not ended by ``t``."""
        k = int(np.searchsorted(self._data_ends, t, side="right"))
        return int(self._data[k]) if k < len(self._data) else None

    def pulses(self) -> tuple[np.ndarray, np.ndarray]:
        """The signal as (duration, level) pairs: the stretch before each edge, then the last."""
        tail = max(self.end, int(self.edges[-1])) if len(self.edges) else self.end
        bounds = np.concatenate(([0], self.edges, [tail]))
        durations = np.diff(bounds)
        levels = (self.initial_level ^ (np.arange(len(durations)) & 1)).astype(np.int8)
        return durations, levels


def stop_points(signal: Signal) -> list[tuple[int, int]]:
    """The stops as (edges played by then, tape time) pairs, in order."""
    return [(int(n), int(t)) for n, t in zip(signal.stop_edges, signal.stops, strict=True)]


def data_blocks(signal: Signal) -> list[BlockInfo]:
    """The played blocks that carry ROM-style bytes (0x10, 0x11, 0x14), in playing order."""
    return [info for info in signal.blocks if info.raw is not None]


def data_pulses(data: bytes, zero: int, one: int, used_bits: int = 8) -> np.ndarray:
    """The pulse lengths of data bytes, MSB first, two pulses per bit."""
    bits = np.unpackbits(np.frombuffer(bytes(data), dtype=np.uint8))
    if len(data) and used_bits < 8:
        bits = bits[:bits.size - (8 - used_bits)]
    return np.repeat(np.where(bits.astype(bool), one, zero).astype(np.int64), 2)


def rom_pulses(data: bytes, pilot: int = PILOT, pilot_count: int | None = None,
               sync1: int = SYNC1, sync2: int = SYNC2, zero: int = ZERO, one: int = ONE,
               used_bits: int = 8) -> np.ndarray:
    """The pulse lengths of a ROM-encoded block: pilot, two sync pulses, data."""
    count = pilot_pulses(data) if pilot_count is None else pilot_count
    return np.concatenate((np.full(count, pilot, dtype=np.int64),
                           np.array([sync1, sync2], dtype=np.int64),
                           data_pulses(data, zero, one, used_bits)))


class _Builder:
    """The running state: tape time, signal level, current pulse level, edges so far."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.t = 0
        self.s = 0
        self.c = 0
        self.count = 0
        self.chunks: list[np.ndarray] = []
        self.warnings: list[TapeWarning] = []
        self.index = 0
        self.offset = 0

    def warn(self, message: str) -> None:
        """Note a problem found while playing the current block."""
        self.warnings.append(TapeWarning(self.name, self.index, self.offset, message))

    def room(self, n: int) -> None:
        """Refuse a signal of more than ``MAX_EDGES`` edges or pulses before allocating it."""
        if self.count + n > MAX_EDGES:
            raise TapeError(self.name, self.index, self.offset,
                            f"the signal would exceed {MAX_EDGES:,} edges")

    def emit(self, times: np.ndarray) -> None:
        """Append edge times (non-decreasing, not before the last ones)."""
        if len(times):
            self.room(len(times))
            self.count += len(times)
            self.chunks.append(times.astype(np.int64, copy=False))

    def pulses(self, lengths: np.ndarray) -> None:
        """Pulses alternating from the current pulse level."""
        n = len(lengths)
        if n == 0:
            return
        self.room(n)
        ends = np.cumsum(lengths, dtype=np.int64)
        starts = np.empty(n, dtype=np.int64)
        starts[0] = 0
        starts[1:] = ends[:-1]
        starts += self.t
        self.emit(starts if self.s != self.c else starts[1:])
        self.s = self.c ^ ((n - 1) & 1)
        self.c = self.s ^ 1
        self.t += int(ends[-1])

    def shaped(self, lengths: np.ndarray, ops: np.ndarray) -> None:
        """Pulses whose levels come from ops: 0 toggle, 1 keep, 2 low, 3 high (0x19 data)."""
        n = len(lengths)
        if n == 0:
            return
        self.room(n)
        ops = ops.astype(np.int64)
        if ops[0] == 0:
            ops[0] = 2 + self.c
        is_set = ops >= 2
        toggles = np.cumsum(ops == 0)
        last = np.maximum.accumulate(np.where(is_set, np.arange(n), -1))
        has = last >= 0
        at = np.where(has, last, 0)
        base = np.where(has, ops[at] - 2, self.s)
        since = toggles - np.where(has, toggles[at], 0)
        level = base ^ (since & 1)
        prev = np.empty(n, dtype=np.int64)
        prev[0] = self.s
        prev[1:] = level[:-1]
        ends = np.cumsum(lengths, dtype=np.int64)
        starts = np.concatenate(([0], ends[:-1])) + self.t
        self.emit(starts[level != prev])
        self.s = int(level[-1])
        self.c = self.s ^ 1
        self.t += int(ends[-1])

    def samples(self, levels: np.ndarray, period: int) -> None:
        """Levels held ``period`` T-states each (direct recording); ``c`` becomes the last one."""
        n = len(levels)
        if n == 0 or period <= 0:
            return
        self.room(n)
        prev = np.empty(n, dtype=np.uint8)
        prev[0] = self.s
        prev[1:] = levels[:-1]
        self.emit(np.flatnonzero(levels != prev).astype(np.int64) * period + self.t)
        self.s = self.c = int(levels[-1])
        self.t += n * period

    def flush(self) -> None:
        """End the last pulse: bring the signal to the current pulse level."""
        if self.s != self.c:
            self.emit(np.array([self.t], dtype=np.int64))
            self.s = self.c

    def pause(self, ms: int) -> None:
        """Silence of ``ms`` milliseconds by the TZX rules (nothing if 0)."""
        if ms <= 0:
            return
        self.flush()
        if self.s:
            self.emit(np.array([self.t + TSTATES_PER_MS], dtype=np.int64))
            self.s = 0
        self.t += ms * TSTATES_PER_MS
        self.c = 0


def _csw_pulses(b: _Builder, block: CswRecording) -> np.ndarray:
    """The pulse lengths in T-states of a CSW recording (RLE, or Z-RLE inflated first)."""
    raw = block.data
    if block.compression == 2:
        inflate = zlib.decompressobj()
        try:
            raw = inflate.decompress(raw, MAX_EDGES * 5 + 1)
        except zlib.error as exc:
            b.warn(f"CSW recording: Z-RLE data does not inflate ({exc}): silent")
            return np.zeros(0, dtype=np.int64)
        if len(raw) > MAX_EDGES * 5:
            b.room(MAX_EDGES + 1)
    arr = np.frombuffer(raw, dtype=np.uint8)
    zeros = np.flatnonzero(arr == 0)
    parts: list[np.ndarray] = []
    pos = 0
    while True:
        k = int(np.searchsorted(zeros, pos))
        if k == len(zeros):
            parts.append(arr[pos:].astype(np.int64))
            break
        z = int(zeros[k])
        parts.append(arr[pos:z].astype(np.int64))
        if z + 5 > len(raw):
            b.warn("CSW recording: truncated long pulse at the end: dropped")
            break
        parts.append(np.array([int.from_bytes(raw[z + 1:z + 5], "little")], dtype=np.int64))
        pos = z + 5
    samples = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    b.room(len(samples))
    if block.pulses and len(samples) != block.pulses:
        b.warn(f"CSW recording: {len(samples)} pulses, the block says {block.pulses}")
    if not len(samples):
        return samples
    cum = np.cumsum(samples)
    if int(cum[-1]) > (2**62) // CPU_HZ:
        raise TapeError(b.name, b.index, b.offset, "CSW recording too long")
    times = (cum * CPU_HZ + block.sample_rate // 2) // block.sample_rate
    return np.diff(np.concatenate(([0], times)))


def _symbol_arrays(table: tuple[Symbol, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A symbol table as (pulse lengths padded to a rectangle, pulse counts, flags)."""
    width = max((len(p) for _, p in table), default=0)
    lengths = np.zeros((len(table), max(width, 1)), dtype=np.int64)
    for k, (_, pulses) in enumerate(table):
        lengths[k, :len(pulses)] = pulses
    counts = np.array([len(p) for _, p in table], dtype=np.int64)
    flags = np.array([f for f, _ in table], dtype=np.int64)
    return lengths, counts, flags


def _expand(b: _Builder, table: tuple[Symbol, ...], symbols: np.ndarray,
            ) -> tuple[np.ndarray, np.ndarray]:
    """The pulse lengths and level ops of a stream of symbols."""
    lengths, counts, flags = _symbol_arrays(table)
    width = lengths.shape[1]
    b.room(len(symbols) * width)
    mask = np.arange(width) < counts[symbols][:, None]
    pulses = lengths[symbols][mask]
    ops = np.zeros((len(symbols), width), dtype=np.int64)
    ops[:, 0] = flags[symbols]
    return pulses, ops[mask]


def _generalized(b: _Builder, block: GeneralizedData) -> None:
    """Play a generalised data block: pilot/sync runs, then the data symbols."""
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    if block.pilot_stream:
        stream = np.array(block.pilot_stream, dtype=np.int64)
        width = max((len(p) for _, p in block.pilot_symbols), default=1)
        b.room(int(stream[:, 1].sum()) * max(width, 1))
        parts.append(_expand(b, block.pilot_symbols, np.repeat(stream[:, 0], stream[:, 1])))
    if block.data_count:
        width = max((len(p) for _, p in block.data_symbols), default=1)
        b.room(block.data_count * max(width, 1))
        nb = (len(block.data_symbols) - 1).bit_length()
        if nb == 0:
            symbols = np.zeros(block.data_count, dtype=np.int64)
        else:
            bits = np.unpackbits(np.frombuffer(block.data, dtype=np.uint8))
            bits = bits[:nb * block.data_count].reshape(block.data_count, nb).astype(np.int64)
            symbols = bits @ (1 << np.arange(nb - 1, -1, -1, dtype=np.int64))
        bad = symbols >= len(block.data_symbols)
        if bad.any():
            b.warn(f"generalized data: {int(bad.sum())} data symbols past the alphabet of "
                   f"{len(block.data_symbols)}: dropped")
            symbols = symbols[~bad]
        parts.append(_expand(b, block.data_symbols, symbols))
    if parts:
        b.shaped(np.concatenate([p for p, _ in parts]), np.concatenate([o for _, o in parts]))


def _play(b: _Builder, block: Block) -> None:
    """The pulses of a block that makes sound (before its pause)."""
    if isinstance(block, StandardData):
        b.pulses(rom_pulses(block.data))
    elif isinstance(block, TurboData):
        b.pulses(rom_pulses(block.data, block.pilot, block.pilot_pulses, block.sync1,
                            block.sync2, block.zero, block.one, block.used_bits))
    elif isinstance(block, PureData):
        b.pulses(data_pulses(block.data, block.zero, block.one, block.used_bits))
    elif isinstance(block, PureTone):
        b.room(block.count)
        b.pulses(np.full(block.count, block.length, dtype=np.int64))
    elif isinstance(block, PulseSequence):
        b.pulses(np.array(block.lengths, dtype=np.int64))
    elif isinstance(block, DirectRecording):
        bits = np.unpackbits(np.frombuffer(block.data, dtype=np.uint8))
        if len(block.data) and block.used_bits < 8:
            bits = bits[:bits.size - (8 - block.used_bits)]
        b.samples(bits, block.tstates_per_sample)
    elif isinstance(block, CswRecording):
        b.pulses(_csw_pulses(b, block))
        b.c = b.s
    elif isinstance(block, GeneralizedData):
        _generalized(b, block)


_SOUNDING = (StandardData, TurboData, PureData, PureTone, PulseSequence, DirectRecording,
             CswRecording, GeneralizedData)
_RAW = (StandardData, TurboData, PureData)


def build_signal(tape: Tape) -> Signal:
    """The edges of a parsed tape, with loops, jumps and calls followed and stops marked."""
    b = _Builder(tape.name)
    blocks = tape.blocks
    played: list[tuple[int, int, int, int, int, int]] = []
    stops: list[tuple[int, int]] = []
    loops: list[list[int]] = []
    calls: list[list[int]] = []
    seen: set[tuple[object, ...]] = set()
    i = 0
    while i < len(blocks):
        if len(played) == MAX_PLAYED_BLOCKS:
            b.warn(f"more than {MAX_PLAYED_BLOCKS:,} blocks played: the tape ends here")
            break
        block = blocks[i]
        b.index, b.offset = i, block.offset
        start, first = b.t, b.count
        data_end = start
        nxt = i + 1
        if isinstance(block, _SOUNDING):
            _play(b, block)
            data_end = b.t
            b.pause(getattr(block, "pause", 0))
        elif isinstance(block, Pause) and block.ms:
            b.pause(block.ms)
        elif isinstance(block, (Pause, StopIf48K)):
            b.flush()
            stops.append((b.t, b.count))
        elif isinstance(block, SetLevel):
            b.c = block.level
        elif isinstance(block, Jump):
            state = (i, tuple(map(tuple, loops)), tuple(map(tuple, calls)))
            if state in seen:
                b.warn("the jump makes an endless loop: the tape ends here")
                break
            seen.add(state)
            nxt = i + block.jump
        elif isinstance(block, LoopStart):
            # Reaching a loop start again (by a jump) restarts that loop.
            while any(start == i + 1 for start, _ in loops):
                loops.pop()
            if len(loops) == MAX_CALL_DEPTH:
                b.warn(f"loops nested more than {MAX_CALL_DEPTH} deep: the tape ends here")
                break
            loops.append([i + 1, max(block.count, 1)])
        elif isinstance(block, LoopEnd):
            if not loops:
                b.warn("loop end without a loop start: ignored")
            else:
                loops[-1][1] -= 1
                if loops[-1][1] > 0:
                    nxt = loops[-1][0]
                else:
                    loops.pop()
        elif isinstance(block, CallSequence) and block.calls:
            if len(calls) == MAX_CALL_DEPTH:
                b.warn(f"calls nested more than {MAX_CALL_DEPTH} deep: the tape ends here")
                break
            calls.append([i, 1])
            nxt = i + block.calls[0]
        elif isinstance(block, Return):
            if not calls:
                b.warn("return without a call sequence: ignored")
            else:
                at, k = calls.pop()
                sequence = blocks[at].calls  # type: ignore[attr-defined]
                if k < len(sequence):
                    calls.append([at, k + 1])
                    nxt = at + sequence[k]
                else:
                    nxt = at + 1
        played.append((i, start, data_end, b.t, first, b.count))
        if not 0 <= nxt <= len(blocks):
            b.warn(f"jump to block {nxt}, outside the tape (0 to {len(blocks) - 1}): "
                   "the tape ends here")
            break
        i = nxt
    b.flush()
    return _finish(tape, b, played, stops)


def _finish(tape: Tape, b: _Builder, played: list[tuple[int, int, int, int, int, int]],
            stops: list[tuple[int, int]]) -> Signal:
    """Cancel coincident edges, fold an edge at time 0 into the initial level, index the blocks."""
    raw = np.concatenate(b.chunks) if b.chunks else np.zeros(0, dtype=np.int64)
    kept = np.ones(len(raw), dtype=bool)
    if len(raw) > 1 and bool((raw[1:] == raw[:-1]).any()):
        kept[:] = False
        run_start = np.flatnonzero(np.concatenate(([True], raw[1:] != raw[:-1])))
        run_len = np.diff(np.append(run_start, len(raw)))
        kept[run_start[run_len % 2 == 1]] = True
    initial = 0
    survivors = np.flatnonzero(kept)
    if len(survivors) and raw[survivors[0]] == 0:
        kept[survivors[0]] = False
        initial = 1
    index = np.concatenate(([0], np.cumsum(kept)))
    edges = raw[kept]
    descriptions: dict[int, str] = {}
    infos = []
    for i, start, data_end, end, first, last in played:
        block = tape.blocks[i]
        if i not in descriptions:
            descriptions[i] = block.summary()
        infos.append(BlockInfo(i, block_id(block), descriptions[i], block.offset, start, data_end,
                               end, int(index[first]), int(index[last]),
                               bytes(block.data) if isinstance(block, _RAW) else None))
    return Signal(edges, initial, np.array([t for t, _ in stops], dtype=np.int64),
                  np.array([int(index[n]) for _, n in stops], dtype=np.int64), b.t, infos,
                  list(tape.warnings) + b.warnings)
