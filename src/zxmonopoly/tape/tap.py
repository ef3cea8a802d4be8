"""TAP files: ROM-standard blocks, each stored as a 2-byte length and flag, data, checksum.

Facts: ``shared/reference/spectrum_facts.md`` §4.2 (block and header layout) and §4.3 (TAP).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

#: Flag byte of a header block and of a data block as the ROM's SAVE writes them.
FLAG_HEADER = 0x00
FLAG_DATA = 0xFF

#: Header types (byte 0 of the 17-byte header).
PROGRAM, NUMBER_ARRAY, CHARACTER_ARRAY, CODE = 0, 1, 2, 3

HEADER_LENGTH = 17
NAME_LENGTH = 10


class TapeError(ValueError):
    """A malformed tape image; the message names the file, the block index and the offset.

    ``block`` is None for what is not in a block (a TZX file header, an unreadable file).
    """

    def __init__(self, name: str, block: int | None, offset: int, message: str) -> None:
        where = f"offset {offset}" if block is None else f"block {block} at offset {offset}"
        super().__init__(f"{name}: {where}: {message}")
        self.name = name
        self.block = block
        self.offset = offset
        self.message = message


def checksum(flag: int, data: bytes) -> int:
    """The ROM's checksum: XOR of the flag and every data byte."""
    value = flag
    for b in data:
        value ^= b
    return value


@dataclass(frozen=True)
class TapBlock:
    """One tape block: flag byte, data, and the checksum byte as stored (computed if omitted)."""

    flag: int
    data: bytes
    stored_checksum: int | None = field(default=None, compare=False)

    @property
    def checksum(self) -> int:
        """The checksum byte the block carries on tape."""
        if self.stored_checksum is not None:
            return self.stored_checksum
        return checksum(self.flag, self.data)

    @property
    def valid(self) -> bool:
        """Whether the stored checksum matches the flag and data."""
        return self.checksum == checksum(self.flag, self.data)

    def raw(self) -> bytes:
        """The block as the ROM sends it: flag, data, checksum."""
        return bytes([self.flag]) + bytes(self.data) + bytes([self.checksum])


@dataclass(frozen=True)
class Header:
    """The 17-byte header that precedes a standard file's data block."""

    type: int
    name: str
    length: int
    param1: int
    param2: int

    def to_block(self) -> TapBlock:
        """The header as a flag-0x00 block."""
        name = self.name.encode("latin-1")
        if len(name) > NAME_LENGTH:
            raise ValueError(f"tape name {self.name!r} is longer than {NAME_LENGTH} characters")
        data = bytes([self.type]) + name.ljust(NAME_LENGTH, b" ")
        for word in (self.length, self.param1, self.param2):
            if not 0 <= word <= 0xFFFF:
                raise ValueError(f"header field {word} does not fit in 16 bits")
            data += bytes([word & 0xFF, word >> 8])
        return TapBlock(FLAG_HEADER, data)

    @classmethod
    def from_block(cls, block: TapBlock) -> Header | None:
        """The header a block holds, or None if it is not a 17-byte flag-0x00 block."""
        d = block.data
        if block.flag != FLAG_HEADER or len(d) != HEADER_LENGTH:
            return None
        return cls(d[0], d[1:11].decode("latin-1"), d[11] | d[12] << 8,
                   d[13] | d[14] << 8, d[15] | d[16] << 8)


def program_blocks(name: str, program: bytes, autostart: int | None = None,
                   vars_offset: int | None = None) -> list[TapBlock]:
    """Header and data blocks of a BASIC program (autostart line, or none)."""
    line = 0x8000 if autostart is None else autostart
    prog_len = len(program) if vars_offset is None else vars_offset
    header = Header(PROGRAM, name, len(program), line, prog_len)
    return [header.to_block(), TapBlock(FLAG_DATA, bytes(program))]


def code_blocks(name: str, start: int, data: bytes) -> list[TapBlock]:
    """Header and data blocks of a CODE file that loads at ``start``."""
    header = Header(CODE, name, len(data), start, 0x8000)
    return [header.to_block(), TapBlock(FLAG_DATA, bytes(data))]


def write_tap(blocks: Iterable[TapBlock]) -> bytes:
    """The TAP image of ``blocks``."""
    out = bytearray()
    for block in blocks:
        raw = block.raw()
        if len(raw) > 0xFFFF:
            raise ValueError(f"block of {len(raw)} bytes does not fit in a TAP record")
        out += bytes([len(raw) & 0xFF, len(raw) >> 8]) + raw
    return bytes(out)


def read_tap(image: bytes, name: str = "<tap>") -> list[TapBlock]:
    """The blocks of a TAP image; checksums are kept as stored (see ``TapBlock.valid``)."""
    blocks: list[TapBlock] = []
    offset = 0
    while offset < len(image):
        index = len(blocks)
        if offset + 2 > len(image):
            raise TapeError(name, index, offset, "truncated block length (1 byte left)")
        length = image[offset] | image[offset + 1] << 8
        if length < 2:
            raise TapeError(name, index, offset,
                            f"block length {length} is too short for a flag and a checksum")
        end = offset + 2 + length
        if end > len(image):
            raise TapeError(name, index, offset,
                            f"block length {length} runs past the end of the file "
                            f"({len(image) - offset - 2} bytes left)")
        raw = image[offset + 2:end]
        blocks.append(TapBlock(raw[0], bytes(raw[1:-1]), raw[-1]))
        offset = end
    return blocks
