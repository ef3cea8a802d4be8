"""The tape model shared by TAP and TZX: one dataclass per TZX block type, the tape, its warnings.

Facts: ``shared/reference/spectrum_facts.md`` §4 (ROM timings, block and header layout, TZX block
layouts). A TAP file reads as a list of ``StandardData`` blocks with the TAP pause of 1000 ms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from zxmonopoly.memory_map import DISPLAY_FILE, SCREEN_SIZE

from .tap import CHARACTER_ARRAY, CODE, FLAG_HEADER, HEADER_LENGTH, NUMBER_ARRAY, PROGRAM, Header

#: ROM-standard signal, in T-states at 3.5 MHz (§4.1).
PILOT = 2168
PILOT_HEADER = 8063
PILOT_DATA = 3223
SYNC1 = 667
SYNC2 = 735
ZERO = 855
ONE = 1710
#: T-states in one millisecond, and the pause after each TAP block.
TSTATES_PER_MS = 3500
TAP_PAUSE_MS = 1000

#: Hardware types of the TZX 0x33 block, for descriptions.
HARDWARE_TYPES = ("computer", "storage", "memory", "sound", "joystick", "mouse", "controller",
                  "serial port", "parallel port", "printer", "modem", "digitiser",
                  "network adapter", "keyboard/keypad", "AD/DA converter", "EPROM programmer",
                  "graphics")
#: Text IDs of the TZX 0x32 archive-info block.
ARCHIVE_FIELDS = {0x00: "Title", 0x01: "Publisher", 0x02: "Author", 0x03: "Year",
                  0x04: "Language", 0x05: "Type", 0x06: "Price", 0x07: "Loader", 0x08: "Origin",
                  0xFF: "Comment"}


@dataclass(frozen=True)
class TapeWarning:
    """Something wrong but playable in a tape image, with the block index and byte offset."""

    name: str
    block: int | None
    offset: int
    message: str

    def __str__(self) -> str:
        """The warning as ``file: block N at offset O: message``."""
        where = f"offset {self.offset}" if self.block is None else (
            f"block {self.block} at offset {self.offset}")
        return f"{self.name}: {where}: {self.message}"


def pilot_pulses(data: bytes) -> int:
    """The ROM pilot length for a block: 8063 pulses if the flag is below 128, else 3223."""
    return PILOT_HEADER if data and data[0] < 0x80 else PILOT_DATA


def header_text(header: Header) -> str:
    """A header as tzxlist names it: ``Program: "name" LINE 10``, ``Bytes: "name" CODE 32768,3``."""
    name = f'"{header.name}"'
    if header.type == PROGRAM:
        line = f" LINE {header.param1}" if header.param1 < 0x8000 else ""
        return f"Program: {name}{line}"
    if header.type in (NUMBER_ARRAY, CHARACTER_ARRAY):
        letter = chr(0x60 + ((header.param1 >> 8) & 0x1F))
        kind = "Number array" if header.type == NUMBER_ARRAY else "Character array"
        dollar = "" if header.type == NUMBER_ARRAY else "$"
        return f"{kind}: {name} DATA {letter}{dollar}()"
    if header.type == CODE:
        if (header.param1, header.length) == (DISPLAY_FILE, SCREEN_SIZE):
            return f"Bytes: {name} SCREEN$"
        return f"Bytes: {name} CODE {header.param1},{header.length}"
    return f"Header type {header.type}: {name}"


@dataclass(frozen=True, kw_only=True)
class Block:
    """One tape block; ``offset`` is where it starts in the file (its ID byte in a TZX)."""

    ID: ClassVar[int] = -1
    NAME: ClassVar[str] = "Block"
    offset: int = field(default=0, compare=False)

    def summary(self) -> str:
        """One line describing the block, in the manner of tzxlist."""
        details = self.details()
        return f"{self.NAME}: {details}" if details else self.NAME

    def details(self) -> str:
        """What the block holds, after its name."""
        return ""


class _Bytes:
    """Properties of a block whose ``data`` is a ROM-style block: flag, data, checksum."""

    data: bytes
    pause: int

    @property
    def flag(self) -> int | None:
        """The flag byte (the first byte), or None for an empty block."""
        return self.data[0] if self.data else None

    @property
    def payload(self) -> bytes:
        """The bytes between the flag and the checksum."""
        return bytes(self.data[1:-1])

    @property
    def checksum_ok(self) -> bool | None:
        """Whether the XOR of flag, data and checksum is 0 (None if shorter than 2 bytes)."""
        if len(self.data) < 2:
            return None
        value = 0
        for b in self.data:
            value ^= b
        return value == 0

    @property
    def header(self) -> Header | None:
        """The 17-byte ROM header this block holds, if it is one (flag 0x00, 19 bytes)."""
        d = self.data
        if len(d) != HEADER_LENGTH + 2 or d[0] != FLAG_HEADER:
            return None
        p = d[1:-1]
        return Header(p[0], p[1:11].decode("latin-1"), p[11] | p[12] << 8, p[13] | p[14] << 8,
                      p[15] | p[16] << 8)

    def data_text(self) -> str:
        """Header or length, flag and checksum, as tzxlist shows them."""
        if not self.data:
            return "empty"
        header = self.header
        what = (f"{header_text(header)}, length {header.length}" if header
                else f"{len(self.data) - 2} bytes of data")
        if len(self.data) < 2:
            what = "1 byte (flag only)"
        ok = self.checksum_ok
        check = "" if ok is None else f", checksum 0x{self.data[-1]:02X} {'OK' if ok else 'BAD'}"
        return f"{what}; flag 0x{self.data[0]:02X}{check}"

    def pause_text(self) -> str:
        """The pause after the block."""
        return f"; pause {self.pause} ms" if self.pause else "; no pause"


@dataclass(frozen=True)
class StandardData(_Bytes, Block):
    """0x10 (and every TAP block): ROM timings; ``data`` is flag, data, checksum."""

    ID: ClassVar[int] = 0x10
    NAME: ClassVar[str] = "Standard Speed Data"
    data: bytes
    pause: int = TAP_PAUSE_MS

    def details(self) -> str:
        """Header or length, flag, checksum, pause."""
        return self.data_text() + self.pause_text()


@dataclass(frozen=True)
class TurboData(_Bytes, Block):
    """0x11: the ROM's encoding with its own pulse lengths and pilot count."""

    ID: ClassVar[int] = 0x11
    NAME: ClassVar[str] = "Turbo Speed Data"
    data: bytes
    pause: int = TAP_PAUSE_MS
    pilot: int = PILOT
    sync1: int = SYNC1
    sync2: int = SYNC2
    zero: int = ZERO
    one: int = ONE
    pilot_pulses: int = PILOT_DATA
    used_bits: int = 8

    def details(self) -> str:
        """Header or length, flag, checksum, timings, pause."""
        return (f"{self.data_text()}; pilot {self.pilot_pulses} x {self.pilot}, sync "
                f"{self.sync1}/{self.sync2}, bits {self.zero}/{self.one}" + self.pause_text())


@dataclass(frozen=True)
class PureTone(Block):
    """0x12: ``count`` pulses of ``length`` T-states."""

    ID: ClassVar[int] = 0x12
    NAME: ClassVar[str] = "Pure Tone"
    length: int
    count: int

    def details(self) -> str:
        """Count and length."""
        return f"{self.count} pulses of {self.length} T-states"


@dataclass(frozen=True)
class PulseSequence(Block):
    """0x13: pulses of the given lengths."""

    ID: ClassVar[int] = 0x13
    NAME: ClassVar[str] = "Pulse Sequence"
    lengths: tuple[int, ...]

    def details(self) -> str:
        """The pulse lengths."""
        return f"{len(self.lengths)} pulses: " + " ".join(str(n) for n in self.lengths)


@dataclass(frozen=True)
class PureData(_Bytes, Block):
    """0x14: data bits only (no pilot, no sync)."""

    ID: ClassVar[int] = 0x14
    NAME: ClassVar[str] = "Pure Data"
    data: bytes
    pause: int = TAP_PAUSE_MS
    zero: int = ZERO
    one: int = ONE
    used_bits: int = 8

    def details(self) -> str:
        """Length, bits, pause."""
        return (f"{len(self.data)} bytes ({self.used_bits} bits in the last); bits "
                f"{self.zero}/{self.one}" + self.pause_text())


@dataclass(frozen=True)
class DirectRecording(Block):
    """0x15: one bit per sample, MSB first, 1 = high."""

    ID: ClassVar[int] = 0x15
    NAME: ClassVar[str] = "Direct Recording"
    data: bytes
    tstates_per_sample: int = 79
    pause: int = 0
    used_bits: int = 8

    def details(self) -> str:
        """Samples, sample length, pause."""
        samples = max(0, len(self.data) * 8 - (8 - self.used_bits)) if self.data else 0
        pause = f"; pause {self.pause} ms" if self.pause else "; no pause"
        return f"{samples} samples of {self.tstates_per_sample} T-states" + pause


@dataclass(frozen=True)
class CswRecording(Block):
    """0x18: pulses compressed as CSW v2 (1 = RLE, 2 = Z-RLE)."""

    ID: ClassVar[int] = 0x18
    NAME: ClassVar[str] = "CSW Recording"
    data: bytes
    sample_rate: int
    compression: int = 1
    pulses: int = 0
    pause: int = 0

    def details(self) -> str:
        """Pulses, rate, compression, pause."""
        kind = {1: "RLE", 2: "Z-RLE"}.get(self.compression, f"compression {self.compression}")
        pause = f"; pause {self.pause} ms" if self.pause else "; no pause"
        return f"{self.pulses} pulses at {self.sample_rate} Hz, {kind}" + pause


#: A generalised-data symbol: polarity flags (bits 0-1) and its pulse lengths (no zeros).
Symbol = tuple[int, tuple[int, ...]]


@dataclass(frozen=True)
class GeneralizedData(Block):
    """0x19: pilot/sync symbols run-length coded, then data symbols of ceil(log2(ASD)) bits."""

    ID: ClassVar[int] = 0x19
    NAME: ClassVar[str] = "Generalized Data"
    pause: int
    pilot_symbols: tuple[Symbol, ...]
    pilot_stream: tuple[tuple[int, int], ...]
    data_symbols: tuple[Symbol, ...]
    data_count: int
    data: bytes

    def details(self) -> str:
        """Symbol counts and pause."""
        pause = f"; pause {self.pause} ms" if self.pause else "; no pause"
        return (f"{len(self.pilot_stream)} pilot/sync runs of {len(self.pilot_symbols)} symbols,"
                f" {self.data_count} data symbols of {len(self.data_symbols)}" + pause)


@dataclass(frozen=True)
class Pause(Block):
    """0x20: silence (low) for ``ms``; 0 stops the tape."""

    ID: ClassVar[int] = 0x20
    NAME: ClassVar[str] = "Pause"
    ms: int

    def summary(self) -> str:
        """``Pause: N ms`` or ``Stop the tape``."""
        return f"Pause: {self.ms} ms" if self.ms else "Stop the tape"


@dataclass(frozen=True)
class GroupStart(Block):
    """0x21: the start of a named group of blocks."""

    ID: ClassVar[int] = 0x21
    NAME: ClassVar[str] = "Group Start"
    name: str

    def details(self) -> str:
        """The group name."""
        return repr(self.name)


@dataclass(frozen=True)
class GroupEnd(Block):
    """0x22: the end of a group."""

    ID: ClassVar[int] = 0x22
    NAME: ClassVar[str] = "Group End"


@dataclass(frozen=True)
class Jump(Block):
    """0x23: continue at the block ``offset`` blocks away (1 = the next)."""

    ID: ClassVar[int] = 0x23
    NAME: ClassVar[str] = "Jump"
    jump: int

    def details(self) -> str:
        """The relative offset."""
        return f"{self.jump:+d} blocks"


@dataclass(frozen=True)
class LoopStart(Block):
    """0x24: play the blocks up to the loop end ``count`` times."""

    ID: ClassVar[int] = 0x24
    NAME: ClassVar[str] = "Loop Start"
    count: int

    def details(self) -> str:
        """The repetitions."""
        return f"{self.count} times"


@dataclass(frozen=True)
class LoopEnd(Block):
    """0x25: the end of a loop."""

    ID: ClassVar[int] = 0x25
    NAME: ClassVar[str] = "Loop End"


@dataclass(frozen=True)
class CallSequence(Block):
    """0x26: play the sequences at these relative offsets, each up to a return block."""

    ID: ClassVar[int] = 0x26
    NAME: ClassVar[str] = "Call Sequence"
    calls: tuple[int, ...]

    def details(self) -> str:
        """The relative offsets."""
        return " ".join(f"{c:+d}" for c in self.calls) or "none"


@dataclass(frozen=True)
class Return(Block):
    """0x27: return from a called sequence."""

    ID: ClassVar[int] = 0x27
    NAME: ClassVar[str] = "Return from Sequence"


@dataclass(frozen=True)
class Select(Block):
    """0x28: a menu of (relative offset, text) entries; playback does not use it."""

    ID: ClassVar[int] = 0x28
    NAME: ClassVar[str] = "Select Block"
    items: tuple[tuple[int, str], ...]

    def details(self) -> str:
        """The entries."""
        return "; ".join(f"{o:+d} {t!r}" for o, t in self.items) or "no entries"


@dataclass(frozen=True)
class StopIf48K(Block):
    """0x2A: stop the tape on a 48K machine (always, for us)."""

    ID: ClassVar[int] = 0x2A
    NAME: ClassVar[str] = "Stop the Tape if in 48K Mode"


@dataclass(frozen=True)
class SetLevel(Block):
    """0x2B: set the current pulse level (0 low, 1 high)."""

    ID: ClassVar[int] = 0x2B
    NAME: ClassVar[str] = "Set Signal Level"
    level: int

    def details(self) -> str:
        """Low or high."""
        return "high" if self.level else "low"


@dataclass(frozen=True)
class Text(Block):
    """0x30: a text description."""

    ID: ClassVar[int] = 0x30
    NAME: ClassVar[str] = "Text Description"
    text: str

    def details(self) -> str:
        """The text."""
        return repr(self.text.replace("\r", " / "))


@dataclass(frozen=True)
class Message(Block):
    """0x31: a message to show for ``seconds`` (0: until a key)."""

    ID: ClassVar[int] = 0x31
    NAME: ClassVar[str] = "Message"
    seconds: int
    text: str

    def details(self) -> str:
        """Time and text."""
        return f"{self.seconds} s {self.text.replace(chr(13), ' / ')!r}"


@dataclass(frozen=True)
class ArchiveInfo(Block):
    """0x32: (text ID, text) pairs: title, publisher, author, year..."""

    ID: ClassVar[int] = 0x32
    NAME: ClassVar[str] = "Archive Info"
    items: tuple[tuple[int, str], ...]

    def details(self) -> str:
        """The fields."""
        return "; ".join(f"{ARCHIVE_FIELDS.get(i, f'0x{i:02X}')}: {t.replace(chr(13), ' / ')}"
                         for i, t in self.items) or "empty"


@dataclass(frozen=True)
class Hardware(Block):
    """0x33: (hardware type, hardware id, information) triples."""

    ID: ClassVar[int] = 0x33
    NAME: ClassVar[str] = "Hardware Type"
    items: tuple[tuple[int, int, int], ...]

    def details(self) -> str:
        """The entries."""
        def one(t: int, i: int, info: int) -> str:
            kind = HARDWARE_TYPES[t] if t < len(HARDWARE_TYPES) else f"type 0x{t:02X}"
            return f"{kind} 0x{i:02X} ({info})"
        return "; ".join(one(*item) for item in self.items) or "empty"


@dataclass(frozen=True)
class CustomInfo(Block):
    """0x35: custom information: a 16-character ID and its bytes."""

    ID: ClassVar[int] = 0x35
    NAME: ClassVar[str] = "Custom Info"
    ident: str
    data: bytes

    def details(self) -> str:
        """ID and length."""
        return f"{self.ident.rstrip()!r}, {len(self.data)} bytes"


@dataclass(frozen=True)
class Glue(Block):
    """0x5A: the header of a second TZX file joined to the first."""

    ID: ClassVar[int] = 0x5A
    NAME: ClassVar[str] = "Glue"
    major: int = 1
    minor: int = 20

    def details(self) -> str:
        """The joined file's version."""
        return f"version {self.major}.{self.minor:02d}"


@dataclass(frozen=True)
class Skipped(Block):
    """A block kept but not played: deprecated (0x16, 0x17, 0x34, 0x40) or unknown."""

    NAME: ClassVar[str] = "Skipped"
    id: int
    body: bytes

    def summary(self) -> str:
        """ID and length."""
        return f"Skipped block 0x{self.id:02X}: {len(self.body)} bytes"


@dataclass
class Tape:
    """A parsed tape image: its blocks in file order and what was wrong but playable."""

    name: str
    format: str
    blocks: list[Block]
    version: tuple[int, int] | None = None
    warnings: list[TapeWarning] = field(default_factory=list)


def block_id(block: Block) -> int:
    """The TZX ID of a block (a skipped block keeps the ID it had in the file)."""
    return block.id if isinstance(block, Skipped) else block.ID


def text_of(raw: bytes) -> str:
    """TZX text bytes as a string (ISO 8859-1)."""
    return raw.decode("latin-1")


__all__ = ["ARCHIVE_FIELDS", "ArchiveInfo", "Block", "CallSequence", "CswRecording", "CustomInfo",
           "DirectRecording", "GeneralizedData", "Glue", "GroupEnd", "GroupStart", "Hardware",
           "Jump", "LoopEnd", "LoopStart", "Message", "ONE", "PILOT", "PILOT_DATA", "PILOT_HEADER",
           "Pause", "PulseSequence", "PureData", "PureTone", "Return", "SYNC1", "SYNC2", "Select",
           "SetLevel", "Skipped", "StandardData", "StopIf48K", "Symbol", "TAP_PAUSE_MS",
           "TSTATES_PER_MS", "Tape", "TapeWarning", "Text", "TurboData", "ZERO", "block_id",
           "header_text", "pilot_pulses", "text_of"]
