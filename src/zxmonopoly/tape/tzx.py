"""TZX 1.20 reader: the file header, then blocks each introduced by an ID byte.

Facts: ``shared/reference/spectrum_facts.md`` §4.4 (block layouts), checked against the TZX 1.20
specification (worldofspectrum.org/TZXformat.html). Written here from the layouts; ``docs/tape.md``
lists what is a warning (the block is kept or skipped) and what is a ``TapeError``.
"""

from __future__ import annotations

from collections.abc import Callable

from .blocks import (
    ArchiveInfo,
    Block,
    CallSequence,
    CswRecording,
    CustomInfo,
    DirectRecording,
    GeneralizedData,
    Glue,
    GroupEnd,
    GroupStart,
    Hardware,
    Jump,
    LoopEnd,
    LoopStart,
    Message,
    Pause,
    PulseSequence,
    PureData,
    PureTone,
    Return,
    Select,
    SetLevel,
    Skipped,
    StandardData,
    StopIf48K,
    Symbol,
    Tape,
    TapeWarning,
    Text,
    TurboData,
    text_of,
)
from .tap import TapeError

SIGNATURE = b"ZXTape!\x1a"
HEADER_SIZE = 10
MAJOR = 1
MINOR = 20

#: Deprecated blocks of fixed layout: ID -> (fixed bytes, then a length of this many bytes).
_DEPRECATED = {0x16: (0, 4), 0x17: (0, 4), 0x34: (8, 0), 0x40: (1, 3)}


class _Cursor:
    """Reads one block's fields; running out of bytes is a ``TapeError`` naming the block."""

    def __init__(self, image: bytes, name: str, index: int, offset: int) -> None:
        self.image = image
        self.name = name
        self.index = index
        self.offset = offset
        self.pos = offset + 1
        self.warnings: list[TapeWarning] = []

    def error(self, message: str) -> TapeError:
        """An error about this block."""
        return TapeError(self.name, self.index, self.offset, message)

    def warn(self, message: str) -> None:
        """Note something wrong but playable about this block."""
        self.warnings.append(TapeWarning(self.name, self.index, self.offset, message))

    def take(self, n: int, what: str) -> bytes:
        """The next ``n`` bytes, which hold ``what``."""
        left = len(self.image) - self.pos
        if n > left:
            raise self.error(f"truncated block: {what} needs {n} bytes, {left} left in the file")
        raw = self.image[self.pos:self.pos + n]
        self.pos += n
        return raw

    def int(self, size: int, what: str) -> int:
        """A little-endian unsigned number of ``size`` bytes."""
        return int.from_bytes(self.take(size, what), "little")

    def signed(self, what: str) -> int:
        """A little-endian signed 16-bit number."""
        return int.from_bytes(self.take(2, what), "little", signed=True)

    def body(self, size: int, what: str = "block length") -> bytes:
        """The block's body of ``size`` bytes given by its length field."""
        left = len(self.image) - self.pos
        if size > left:
            raise self.error(f"{what} {size} runs past the end of the file ({left} bytes left)")
        return self.take(size, what)


class _Body:
    """Reads fields inside a block whose length is known; running out is a ``ValueError``."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.pos = 0

    def take(self, n: int, what: str) -> bytes:
        """The next ``n`` bytes, which hold ``what``."""
        if self.pos + n > len(self.raw):
            raise ValueError(f"{what} runs past the block's length {len(self.raw)}")
        raw = self.raw[self.pos:self.pos + n]
        self.pos += n
        return raw

    def int(self, size: int, what: str) -> int:
        """A little-endian unsigned number of ``size`` bytes."""
        return int.from_bytes(self.take(size, what), "little")


def _used_bits(c: _Cursor, value: int) -> int:
    """The used bits of the last byte (1-8); anything else is read as 8 with a warning."""
    if 1 <= value <= 8:
        return value
    c.warn(f"used bits in the last byte is {value} (expected 1 to 8): read as 8")
    return 8


def _check_data(c: _Cursor, data: bytes, used_bits: int = 8) -> None:
    """Warn about an empty block or a bad checksum (the block is still played)."""
    if len(data) < 2:
        c.warn(f"data block of {len(data)} bytes has no room for a flag and a checksum")
        return
    if used_bits != 8:
        return
    value = 0
    for b in data[:-1]:
        value ^= b
    if value != data[-1]:
        c.warn(f"bad checksum: stored 0x{data[-1]:02X}, computed 0x{value:02X} "
               "(the block is still played)")


def _standard(c: _Cursor) -> Block:
    pause = c.int(2, "pause")
    data = c.body(c.int(2, "data length"), "data length")
    _check_data(c, data)
    return StandardData(data, pause, offset=c.offset)


def _turbo(c: _Cursor) -> Block:
    pilot, sync1, sync2, zero, one, count = (c.int(2, "timings") for _ in range(6))
    used = _used_bits(c, c.int(1, "used bits"))
    pause = c.int(2, "pause")
    data = c.body(c.int(3, "data length"), "data length")
    _check_data(c, data, used)
    return TurboData(data, pause, pilot, sync1, sync2, zero, one, count, used, offset=c.offset)


def _tone(c: _Cursor) -> Block:
    return PureTone(c.int(2, "pulse length"), c.int(2, "pulse count"), offset=c.offset)


def _pulses(c: _Cursor) -> Block:
    n = c.int(1, "pulse count")
    raw = c.take(2 * n, f"{n} pulse lengths")
    return PulseSequence(tuple(raw[i] | raw[i + 1] << 8 for i in range(0, 2 * n, 2)),
                         offset=c.offset)


def _pure(c: _Cursor) -> Block:
    zero, one = c.int(2, "bit-0 pulse"), c.int(2, "bit-1 pulse")
    used = _used_bits(c, c.int(1, "used bits"))
    pause = c.int(2, "pause")
    data = c.body(c.int(3, "data length"), "data length")
    return PureData(data, pause, zero, one, used, offset=c.offset)


def _direct(c: _Cursor) -> Block:
    tps, pause = c.int(2, "T-states per sample"), c.int(2, "pause")
    used = _used_bits(c, c.int(1, "used bits"))
    data = c.body(c.int(3, "data length"), "data length")
    if tps == 0:
        c.warn("0 T-states per sample: the recording is silent")
    return DirectRecording(data, tps, pause, used, offset=c.offset)


def _csw(c: _Cursor) -> Block:
    body = _Body(c.body(c.int(4, "block length")))
    try:
        pause, rate = body.int(2, "pause"), body.int(3, "sample rate")
        compression, pulses = body.int(1, "compression"), body.int(4, "pulse count")
    except ValueError as exc:
        c.warn(f"CSW recording: {exc}: skipped")
        return Skipped(0x18, body.raw, offset=c.offset)
    data = body.raw[body.pos:]
    if compression not in (1, 2) or rate == 0:
        c.warn(f"CSW recording with compression {compression}, rate {rate} Hz cannot be played:"
               " skipped")
        return Skipped(0x18, body.raw, offset=c.offset)
    return CswRecording(data, rate, compression, pulses, pause, offset=c.offset)


def _symbols(body: _Body, count: int, max_pulses: int, what: str) -> tuple[Symbol, ...]:
    """``count`` symbol definitions: flags, then ``max_pulses`` lengths ended early by a zero."""
    table = []
    for _ in range(count):
        flags = body.int(1, what)
        raw = body.take(2 * max_pulses, what)
        pulses = []
        for i in range(0, len(raw), 2):
            length = raw[i] | raw[i + 1] << 8
            if length == 0:
                break
            pulses.append(length)
        table.append((flags & 3, tuple(pulses)))
    return tuple(table)


def _generalized(c: _Cursor) -> Block:
    body = _Body(c.body(c.int(4, "block length")))
    try:
        pause, totp = body.int(2, "pause"), body.int(4, "pilot symbol count")
        npp, asp = body.int(1, "pulses per pilot symbol"), body.int(1, "pilot alphabet")
        totd = body.int(4, "data symbol count")
        npd, asd = body.int(1, "pulses per data symbol"), body.int(1, "data alphabet")
        asp, asd = asp or 256, asd or 256
        pilot_symbols: tuple[Symbol, ...] = ()
        stream: list[tuple[int, int]] = []
        if totp:
            pilot_symbols = _symbols(body, asp, npp, "pilot/sync symbol table")
            raw = body.take(3 * totp, "pilot/sync stream")
            stream = [(raw[i], raw[i + 1] | raw[i + 2] << 8) for i in range(0, len(raw), 3)]
            bad = [s for s, _ in stream if s >= asp]
            if bad:
                raise ValueError(f"pilot/sync stream uses symbol {bad[0]} of {asp}")
        data_symbols: tuple[Symbol, ...] = ()
        data = b""
        if totd:
            data_symbols = _symbols(body, asd, npd, "data symbol table")
            bits = (asd - 1).bit_length()
            data = body.take((bits * totd + 7) // 8, "data stream")
    except ValueError as exc:
        c.warn(f"generalized data: {exc}: skipped")
        return Skipped(0x19, body.raw, offset=c.offset)
    if body.pos != len(body.raw):
        c.warn(f"generalized data: {len(body.raw) - body.pos} bytes after the data stream")
    return GeneralizedData(pause, pilot_symbols, tuple(stream), data_symbols, totd, data,
                           offset=c.offset)


def _pause(c: _Cursor) -> Block:
    return Pause(c.int(2, "pause"), offset=c.offset)


def _group_start(c: _Cursor) -> Block:
    n = c.int(1, "name length")
    return GroupStart(text_of(c.take(n, "group name")), offset=c.offset)


def _jump(c: _Cursor) -> Block:
    return Jump(c.signed("jump offset"), offset=c.offset)


def _loop_start(c: _Cursor) -> Block:
    count = c.int(2, "repetitions")
    if count < 2:
        c.warn(f"loop of {count} repetitions (expected 2 or more): played once")
    return LoopStart(count, offset=c.offset)


def _call(c: _Cursor) -> Block:
    n = c.int(2, "call count")
    return CallSequence(tuple(c.signed("call offsets") for _ in range(n)), offset=c.offset)


def _select(c: _Cursor) -> Block:
    body = _Body(c.body(c.int(2, "block length")))
    items: list[tuple[int, str]] = []
    try:
        for _ in range(body.int(1, "selection count")):
            off = int.from_bytes(body.take(2, "selection offset"), "little", signed=True)
            items.append((off, text_of(body.take(body.int(1, "text length"), "selection text"))))
    except ValueError as exc:
        c.warn(f"select block: {exc}")
    return Select(tuple(items), offset=c.offset)


def _stop48(c: _Cursor) -> Block:
    length = c.int(4, "block length")
    c.body(length)
    if length:
        c.warn(f"stop-if-48K block has length {length} (expected 0)")
    return StopIf48K(offset=c.offset)


def _level(c: _Cursor) -> Block:
    body = c.body(c.int(4, "block length"))
    if len(body) != 1:
        c.warn(f"set-signal-level block has length {len(body)} (expected 1)")
    if not body:
        return Skipped(0x2B, body, offset=c.offset)
    if body[0] > 1:
        c.warn(f"signal level {body[0]} (expected 0 or 1): read as high")
    return SetLevel(1 if body[0] else 0, offset=c.offset)


def _text(c: _Cursor) -> Block:
    n = c.int(1, "text length")
    return Text(text_of(c.take(n, "text")), offset=c.offset)


def _message(c: _Cursor) -> Block:
    seconds, n = c.int(1, "display time"), c.int(1, "text length")
    return Message(seconds, text_of(c.take(n, "message")), offset=c.offset)


def _archive(c: _Cursor) -> Block:
    body = _Body(c.body(c.int(2, "block length")))
    items: list[tuple[int, str]] = []
    try:
        for _ in range(body.int(1, "string count")):
            ident = body.int(1, "text ID")
            items.append((ident, text_of(body.take(body.int(1, "text length"), "text"))))
    except ValueError as exc:
        c.warn(f"archive info: {exc}")
    return ArchiveInfo(tuple(items), offset=c.offset)


def _hardware(c: _Cursor) -> Block:
    n = c.int(1, "entry count")
    raw = c.take(3 * n, f"{n} hardware entries")
    return Hardware(tuple((raw[i], raw[i + 1], raw[i + 2]) for i in range(0, 3 * n, 3)),
                    offset=c.offset)


def _custom(c: _Cursor) -> Block:
    ident = text_of(c.take(16, "custom info ID"))
    length = c.int(4, "custom info length")
    return CustomInfo(ident, c.body(length, "custom info length"), offset=c.offset)


def _glue(c: _Cursor) -> Block:
    raw = c.take(9, "glue block")
    if raw[:7] != SIGNATURE[1:]:
        c.warn("glue block without the 'XTape!' signature")
    return Glue(raw[7], raw[8], offset=c.offset)


_READERS: dict[int, Callable[[_Cursor], Block]] = {
    0x10: _standard, 0x11: _turbo, 0x12: _tone, 0x13: _pulses, 0x14: _pure, 0x15: _direct,
    0x18: _csw, 0x19: _generalized, 0x20: _pause, 0x21: _group_start,
    0x22: lambda c: GroupEnd(offset=c.offset), 0x23: _jump, 0x24: _loop_start,
    0x25: lambda c: LoopEnd(offset=c.offset), 0x26: _call,
    0x27: lambda c: Return(offset=c.offset), 0x28: _select, 0x2A: _stop48, 0x2B: _level,
    0x30: _text, 0x31: _message, 0x32: _archive, 0x33: _hardware, 0x35: _custom, 0x5A: _glue,
}


def _skip(c: _Cursor, ident: int) -> Block:
    """A deprecated block of known layout, or an unknown one by the extension rule: skipped."""
    if ident in _DEPRECATED:
        fixed, size = _DEPRECATED[ident]
        head = c.take(fixed, f"block 0x{ident:02X}")
        length = c.int(size, "block length") if size else 0
        c.warn(f"deprecated block 0x{ident:02X} skipped")
        return Skipped(ident, head + c.body(length), offset=c.offset)
    left = len(c.image) - c.pos
    if left < 4:
        raise c.error(f"unknown block ID 0x{ident:02X} with no room for a length field")
    length = c.int(4, "block length")
    if length > left - 4:
        raise c.error(f"unknown block ID 0x{ident:02X}: its length {length} runs past the end "
                      f"of the file ({left - 4} bytes left); not a block, or a corrupt file")
    c.warn(f"unknown block ID 0x{ident:02X}: skipped {length} bytes (TZX extension rule)")
    return Skipped(ident, c.body(length), offset=c.offset)


def read_tzx(image: bytes, name: str = "<tzx>") -> Tape:
    """The blocks of a TZX image; what is wrong but playable goes to ``Tape.warnings``."""
    image = bytes(image)
    head = image[:len(SIGNATURE)]
    if not image:
        raise TapeError(name, None, 0, "empty file")
    if head != SIGNATURE[:len(head)]:
        raise TapeError(name, None, 0, "not a TZX file (no 'ZXTape!' signature)")
    if len(image) < HEADER_SIZE:
        raise TapeError(name, None, 0, f"truncated TZX header ({len(image)} of 10 bytes)")
    major, minor = image[8], image[9]
    if major != MAJOR:
        raise TapeError(name, None, 8, f"TZX version {major}.{minor:02d} is not supported "
                                       f"(major version {MAJOR} only)")
    tape = Tape(name, "tzx", [], (major, minor))
    if minor > MINOR:
        tape.warnings.append(TapeWarning(name, None, 9, f"TZX version {major}.{minor:02d} is "
                                         f"newer than {MAJOR}.{MINOR}: unknown blocks skipped"))
    offset = HEADER_SIZE
    while offset < len(image):
        index = len(tape.blocks)
        c = _Cursor(image, name, index, offset)
        ident = image[offset]
        reader = _READERS.get(ident)
        block = reader(c) if reader else _skip(c, ident)
        tape.blocks.append(block)
        tape.warnings.extend(c.warnings)
        offset = c.pos
    return tape
