"""RZX input recordings (versions 0.12 and 0.13), read and written; nothing of the emulator.

Facts: the RZX format description (Ramsoft, revision 0.13), checked against the files Fuse 1.6
writes and ``rzxdump`` (fuse-emulator-utils) reads. A file is a 10-byte header (``RZX!``,
major, minor, a flags word) and blocks ``id (1) | length (4, the 5 header bytes included) |
payload``: the creator (0x10), security information and signature (0x20, 0x21: skipped with a
note), a snapshot (0x30: an embedded .z80, .sna or .szx, zlib-compressed or not) and input
recordings (0x80: frames, each the opcode fetches before the frame's interrupt and the values
of its port reads; an IN count of 0xFFFF repeats the last frame's values). Fuse puts its ROM in
the .szx when it runs a ROM file of the user's (the ``ROM`` block, :func:`szx_rom`), and closes
a recording with a second snapshot: its state at the end. docs/recordings.md has the rest.
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from zxmonopoly.files import read_regular
from zxmonopoly.memory_map import ROM_SIZE

from .sna import read_sna, write_sna
from .state import Snapshot, SnapshotError
from .szx import read_szx, szx_rom, write_szx
from .z80 import read_z80, write_z80

MAGIC = b"RZX!"
HEADER = struct.Struct("<4sBBI")
BLOCK_HEADER = struct.Struct("<BI")
#: The versions this reader knows (major, minor); it writes the newer.
VERSIONS = ((0, 12), (0, 13))
WRITE_VERSION = (0, 13)
FLAG_SIGNED = 0x01  # header: the file carries a security signature

CREATOR_ID = 0x10
SECURITY_INFO_ID = 0x20
SECURITY_SIGNATURE_ID = 0x21
SNAPSHOT_ID = 0x30
INPUT_ID = 0x80
BLOCK_NAMES = {CREATOR_ID: "creator", SECURITY_INFO_ID: "security information",
               SECURITY_SIGNATURE_ID: "security signature", SNAPSHOT_ID: "snapshot",
               INPUT_ID: "input recording"}

CREATOR = struct.Struct("<20sHH")
SNAPSHOT = struct.Struct("<I4sI")  # flags, extension (ASCIIZ), uncompressed length
SNAPSHOT_EXTERNAL = 0x01  # a descriptor of a file elsewhere, not the snapshot itself
SNAPSHOT_COMPRESSED = 0x02
INPUT = struct.Struct("<IBII")  # frames, reserved (an obsolete frame length), T-states, flags
INPUT_PROTECTED = 0x01  # encrypted with the signer's key: unreadable without it
INPUT_COMPRESSED = 0x02
FRAME = struct.Struct("<HH")  # fetch count, IN count
REPEAT = 0xFFFF  # an IN count meaning "the same values as the frame before"
MAX_INS = REPEAT - 1

#: Larger files are refused before reading: an hour of play is a few megabytes.
MAX_FILE_SIZE = 64 << 20
#: A compressed block may expand to at most this much (a bound against zlib bombs).
MAX_EXPANDED = 256 << 20
#: The snapshot formats an RZX may embed, by the extension its snapshot block names.
SNAPSHOT_SUFFIXES = (".szx", ".z80", ".sna")


class RzxError(SnapshotError):
    """An RZX file that cannot be read or written: the file, the block and the problem."""


@dataclass(frozen=True)
class Frame:
    """One frame of input: opcode fetches before its interrupt, and its port reads' values."""

    fetches: int
    inputs: bytes = b""


@dataclass
class SnapshotBlock:
    """An embedded snapshot: its file's bytes, what they hold, and Fuse's custom ROM if any."""

    suffix: str
    data: bytes = field(repr=False)
    snapshot: Snapshot = field(repr=False)
    rom: bytes | None = field(default=None, repr=False)


@dataclass
class InputBlock:
    """A run of frames, and the T-state of the frame the first of them starts at."""

    frames: list[Frame]
    tstates: int = 0


@dataclass
class Recording:
    """An RZX file: who made it, its snapshot and input blocks in order, and what was skipped."""

    blocks: list[SnapshotBlock | InputBlock]
    creator: str = "zxmonopoly"
    creator_version: tuple[int, int] = (0, 1)
    creator_data: bytes = b""
    version: tuple[int, int] = WRITE_VERSION
    notes: list[str] = field(default_factory=list)

    @property
    def start(self) -> SnapshotBlock:
        """The snapshot the recording starts from (the first block must be one)."""
        first = self.blocks[0] if self.blocks else None
        if not isinstance(first, SnapshotBlock):
            raise RzxError("recording", "it does not start with a snapshot block")
        return first

    @property
    def closing(self) -> SnapshotBlock | None:
        """The snapshot after the last input block (Fuse's state at the end), if there is one."""
        last = self.blocks[-1] if self.blocks else None
        if isinstance(last, SnapshotBlock) and any(isinstance(b, InputBlock)
                                                   for b in self.blocks):
            return last
        return None

    @property
    def frames(self) -> list[Frame]:
        """Every frame of every input block, in order."""
        return [frame for block in self.blocks if isinstance(block, InputBlock)
                for frame in block.frames]


# -- reading ----------------------------------------------------------------------------------


def _inflate(data: bytes, name: str, where: str, limit: int = MAX_EXPANDED) -> bytes:
    """A whole zlib stream, expanded to at most ``limit`` bytes."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as exc:
        raise RzxError(name, f"{where}: bad compressed data: {exc}") from None
    if len(out) > limit:
        raise RzxError(name, f"{where}: the compressed data expands past {limit:,} bytes")
    if not inflater.eof:
        raise RzxError(name, f"{where}: the compressed data is cut short")
    return out


def read_embedded(data: bytes, suffix: str, name: str) -> Snapshot:
    """An embedded snapshot's bytes as a :class:`Snapshot`, by its format's suffix."""
    if suffix == ".szx":
        return read_szx(data, name)
    return read_z80(data, name) if suffix == ".z80" else read_sna(data, name)


def _read_snapshot(payload: bytes, name: str, where: str) -> SnapshotBlock:
    if len(payload) < SNAPSHOT.size:
        raise RzxError(name, f"{where}: {len(payload)} bytes, too short for its header "
                             f"({SNAPSHOT.size})")
    flags, ext, length = SNAPSHOT.unpack_from(payload)
    if flags & SNAPSHOT_EXTERNAL:
        raise RzxError(name, f"{where}: it names a snapshot file outside the recording, "
                             "which is not read")
    suffix = "." + ext.split(b"\0")[0].decode("latin-1").lower()
    if suffix not in SNAPSHOT_SUFFIXES:
        raise RzxError(name, f"{where}: snapshot type {suffix!r} is not read (expected szx, "
                             "z80 or sna)")
    body = payload[SNAPSHOT.size:]
    if flags & SNAPSHOT_COMPRESSED:
        body = _inflate(body, name, where, min(length, MAX_EXPANDED))
    if len(body) != length:
        raise RzxError(name, f"{where}: the snapshot is {len(body):,} bytes, its header "
                             f"says {length:,}")
    inner = f"{name} ({where})"
    try:
        snap = read_embedded(body, suffix, inner)
        rom = szx_rom(body, inner) if suffix == ".szx" else None
    except RzxError:
        raise
    except SnapshotError as exc:
        raise RzxError(name, f"{where}: {exc.problem}") from None
    return SnapshotBlock(suffix, body, snap, rom)


def _read_input(payload: bytes, name: str, where: str) -> InputBlock:
    if len(payload) < INPUT.size:
        raise RzxError(name, f"{where}: {len(payload)} bytes, too short for its header "
                             f"({INPUT.size})")
    count, _reserved, tstates, flags = INPUT.unpack_from(payload)
    if flags & INPUT_PROTECTED:
        raise RzxError(name, f"{where}: its frames are encrypted (a protected recording), "
                             "which is not read")
    body = payload[INPUT.size:]
    if flags & INPUT_COMPRESSED:
        body = _inflate(body, name, where)
    # Each frame takes at least 4 bytes: a count past that cannot fit (and would loop long).
    if count > len(body) // FRAME.size:
        raise RzxError(name, f"{where}: {count:,} frames do not fit in {len(body):,} bytes")
    frames: list[Frame] = []
    previous = b""
    pos = 0
    for index in range(count):
        if pos + FRAME.size > len(body):
            raise RzxError(name, f"{where}: the data ends at frame {index} of {count:,}")
        fetches, ins = FRAME.unpack_from(body, pos)
        pos += FRAME.size
        if ins == REPEAT:
            inputs = previous
        else:
            if pos + ins > len(body):
                raise RzxError(name, f"{where}: frame {index} has {ins:,} port reads, "
                                     f"{len(body) - pos:,} bytes left")
            inputs = body[pos:pos + ins]
            pos += ins
        frames.append(Frame(fetches, inputs))
        previous = inputs
    if pos != len(body):
        raise RzxError(name, f"{where}: {len(body) - pos:,} bytes after its {count:,} frames")
    return InputBlock(frames, tstates)


def read_rzx(data: bytes, name: str = "<rzx>") -> Recording:
    """An RZX file's bytes as a :class:`Recording`."""
    data = bytes(data)
    if len(data) < HEADER.size:
        raise RzxError(name, f"short header: {len(data)} bytes, an RZX has at least "
                             f"{HEADER.size}")
    magic, major, minor, flags = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise RzxError(name, f"not an RZX: it starts {magic!r}, expected b'RZX!'")
    if (major, minor) not in VERSIONS:
        raise RzxError(name, f"RZX version {major}.{minor}: only 0.12 and 0.13 are read")
    recording = Recording([], version=(major, minor))
    if flags & FLAG_SIGNED:
        recording.notes.append("the file is signed: its signature is not checked")
    have_creator = False
    pos = HEADER.size
    index = 0
    while pos < len(data):
        if pos + BLOCK_HEADER.size > len(data):
            raise RzxError(name, f"truncated block header at offset {pos}")
        block_id, length = BLOCK_HEADER.unpack_from(data, pos)
        kind = BLOCK_NAMES.get(block_id, f"unknown (id {block_id:#04x})")
        where = f"block {index} ({kind}) at offset {pos}"
        if length < BLOCK_HEADER.size:
            raise RzxError(name, f"{where}: length {length} is less than its own header "
                                 f"({BLOCK_HEADER.size})")
        if pos + length > len(data):
            raise RzxError(name, f"truncated {where}: {length:,} bytes, "
                                 f"{len(data) - pos:,} left")
        payload = data[pos + BLOCK_HEADER.size:pos + length]
        if block_id == CREATOR_ID:
            if len(payload) < CREATOR.size:
                raise RzxError(name, f"{where}: {len(payload)} bytes, too short "
                                     f"({CREATOR.size})")
            if have_creator:
                raise RzxError(name, f"{where}: a second creator block")
            ident, cmajor, cminor = CREATOR.unpack_from(payload)
            recording.creator = ident.split(b"\0")[0].decode("latin-1")
            recording.creator_version = (cmajor, cminor)
            recording.creator_data = payload[CREATOR.size:]
            have_creator = True
        elif block_id == SNAPSHOT_ID:
            recording.blocks.append(_read_snapshot(payload, name, where))
        elif block_id == INPUT_ID:
            recording.blocks.append(_read_input(payload, name, where))
        elif block_id in (SECURITY_INFO_ID, SECURITY_SIGNATURE_ID):
            recording.notes.append(f"{where} skipped: signatures are not checked")
        else:
            recording.notes.append(f"{where} skipped: not a block this reader knows")
        pos += length
        index += 1
    if not any(isinstance(block, InputBlock) for block in recording.blocks):
        raise RzxError(name, "no input recording block: the file holds no frames")
    if not isinstance(recording.blocks[0], SnapshotBlock):
        raise RzxError(name, "the first input recording comes before any snapshot: there is "
                             "no machine state to play it from")
    return recording


def load_rzx(path: str | os.PathLike[str]) -> Recording:
    """Read an RZX file."""
    name = os.fspath(path)
    try:
        data = read_regular(path, MAX_FILE_SIZE, "recording")
    except OSError as exc:
        raise RzxError(name, f"cannot read: {exc.strerror or exc}") from None
    return read_rzx(data, name)


# -- writing ----------------------------------------------------------------------------------


def _block(block_id: int, payload: bytes) -> bytes:
    return BLOCK_HEADER.pack(block_id, BLOCK_HEADER.size + len(payload)) + payload


def snapshot_block(snap: Snapshot, suffix: str = ".szx", *,
                   rom: bytes | None = None) -> SnapshotBlock:
    """A snapshot block holding ``snap`` as a .szx, .z80 or .sna.

    In a .szx, ``rom`` goes in a custom-ROM block (the ROM a player runs: Fuse does); in the
    others it only settles a halted moment (``Snapshot.settled``) and is not kept.
    """
    if suffix == ".szx":
        data = write_szx(snap, rom=rom)
    elif suffix == ".z80":
        data = write_z80(snap, 3, True, rom=rom)
    elif suffix == ".sna":
        data = write_sna(snap, rom=rom)
    else:
        raise RzxError("recording", f"snapshot type {suffix!r} is not written (expected .szx, "
                                    ".z80 or .sna)")
    return SnapshotBlock(suffix, data, read_embedded(data, suffix, "recording"),
                         bytes(rom) if rom is not None and suffix == ".szx" else None)


def _frames_bytes(frames: list[Frame], name: str) -> bytes:
    out = bytearray()
    previous: bytes | None = None
    for index, frame in enumerate(frames):
        if not 0 <= frame.fetches <= 0xFFFF:
            raise RzxError(name, f"frame {index}: {frame.fetches:,} fetches, at most 65,535 "
                                 "fit")
        if len(frame.inputs) > MAX_INS:
            raise RzxError(name, f"frame {index}: {len(frame.inputs):,} port reads, at most "
                                 f"{MAX_INS:,} fit")
        if frame.inputs and frame.inputs == previous:
            out += FRAME.pack(frame.fetches, REPEAT)
        else:
            out += FRAME.pack(frame.fetches, len(frame.inputs)) + frame.inputs
        previous = frame.inputs
    return bytes(out)


def write_rzx(recording: Recording, name: str = "<rzx>", *, compress: bool = True) -> bytes:
    """The recording as an RZX 0.13 file (blocks compressed when ``compress``)."""
    ident = recording.creator.encode("latin-1", "replace")[:19]
    cmajor, cminor = recording.creator_version
    out = bytearray(HEADER.pack(MAGIC, *WRITE_VERSION, 0))
    out += _block(CREATOR_ID, CREATOR.pack(ident, cmajor, cminor) + recording.creator_data)
    for block in recording.blocks:
        if isinstance(block, SnapshotBlock):
            ext = block.suffix.lstrip(".").encode("ascii")
            body = zlib.compress(block.data, 9) if compress else block.data
            flags = SNAPSHOT_COMPRESSED if compress else 0
            out += _block(SNAPSHOT_ID, SNAPSHOT.pack(flags, ext, len(block.data)) + body)
        else:
            frames = _frames_bytes(block.frames, name)
            body = zlib.compress(frames, 9) if compress else frames
            flags = INPUT_COMPRESSED if compress else 0
            out += _block(INPUT_ID, INPUT.pack(len(block.frames), 0, block.tstates, flags)
                          + body)
    return bytes(out)


def save_rzx(path: str | os.PathLike[str], recording: Recording, *,
             compress: bool = True) -> None:
    """Write an RZX file."""
    name = os.fspath(path)
    data = write_rzx(recording, name, compress=compress)
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise RzxError(name, f"cannot write: {exc.strerror or exc}") from None


__all__ = ["Frame", "InputBlock", "MAX_FILE_SIZE", "Recording", "RzxError", "ROM_SIZE",
           "SnapshotBlock", "load_rzx", "read_embedded", "read_rzx", "save_rzx",
           "snapshot_block", "write_rzx"]
