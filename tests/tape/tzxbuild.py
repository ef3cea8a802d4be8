"""A small TZX writer for tests, from the TZX 1.20 block layouts (independent of the reader).

Each function returns the bytes of one block, ID byte first; ``tzx(*blocks)`` adds the header.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence


def header(major: int = 1, minor: int = 20) -> bytes:
    """The 10-byte file header."""
    return b"ZXTape!\x1a" + bytes([major, minor])


def tzx(*blocks: bytes, major: int = 1, minor: int = 20) -> bytes:
    """A whole TZX file."""
    return header(major, minor) + b"".join(blocks)


def _u24(n: int) -> bytes:
    return n.to_bytes(3, "little")


def rom(flag: int, data: bytes) -> bytes:
    """Flag, data and checksum, as in a TAP record."""
    check = flag
    for b in data:
        check ^= b
    return bytes([flag]) + data + bytes([check])


def standard(data: bytes, pause: int = 1000) -> bytes:
    """0x10."""
    return b"\x10" + struct.pack("<HH", pause, len(data)) + data


def turbo(data: bytes, pilot: int = 2168, sync1: int = 667, sync2: int = 735, zero: int = 855,
          one: int = 1710, pilot_pulses: int = 3223, used_bits: int = 8, pause: int = 1000,
          ) -> bytes:
    """0x11."""
    return (b"\x11" + struct.pack("<HHHHHHBH", pilot, sync1, sync2, zero, one, pilot_pulses,
                                  used_bits, pause) + _u24(len(data)) + data)


def pure_tone(length: int, count: int) -> bytes:
    """0x12."""
    return b"\x12" + struct.pack("<HH", length, count)


def pulse_sequence(*lengths: int) -> bytes:
    """0x13."""
    return b"\x13" + bytes([len(lengths)]) + struct.pack(f"<{len(lengths)}H", *lengths)


def pure_data(data: bytes, zero: int = 855, one: int = 1710, used_bits: int = 8,
              pause: int = 1000) -> bytes:
    """0x14."""
    return b"\x14" + struct.pack("<HHBH", zero, one, used_bits, pause) + _u24(len(data)) + data


def direct(samples: bytes, tstates: int = 79, pause: int = 0, used_bits: int = 8) -> bytes:
    """0x15."""
    return (b"\x15" + struct.pack("<HHB", tstates, pause, used_bits) + _u24(len(samples))
            + samples)


def csw(pulses: Sequence[int], rate: int = 44100, pause: int = 0, z: bool = False) -> bytes:
    """0x18 from pulse lengths in samples (RLE; Z-RLE if ``z``)."""
    rle = b"".join(bytes([n]) if 0 < n < 256 else b"\x00" + struct.pack("<I", n) for n in pulses)
    data = zlib.compress(rle) if z else rle
    body = (struct.pack("<H", pause) + _u24(rate) + bytes([2 if z else 1])
            + struct.pack("<I", len(pulses)) + data)
    return b"\x18" + struct.pack("<I", len(body)) + body


Symbols = Sequence[tuple[int, Sequence[int]]]


def _symdefs(table: Symbols, width: int) -> bytes:
    out = b""
    for flags, pulses in table:
        padded = list(pulses) + [0] * (width - len(pulses))
        out += bytes([flags]) + struct.pack(f"<{width}H", *padded)
    return out


def generalized(pilot_table: Symbols, pilot_stream: Sequence[tuple[int, int]],
                data_table: Symbols, data_symbols: Sequence[int], pause: int = 1000) -> bytes:
    """0x19: symbol tables, a run-length pilot/sync stream, data symbols packed MSB first."""
    npp = max((len(p) for _, p in pilot_table), default=0)
    npd = max((len(p) for _, p in data_table), default=0)
    nb = (len(data_table) - 1).bit_length() if data_table else 0
    bits = "".join(format(s, f"0{nb}b") if nb else "" for s in data_symbols)
    bits += "0" * (-len(bits) % 8)
    stream = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    body = struct.pack("<HIBBIBB", pause, len(pilot_stream), npp, len(pilot_table) % 256,
                       len(data_symbols), npd, len(data_table) % 256)
    if pilot_stream:
        body += _symdefs(pilot_table, npp)
        body += b"".join(struct.pack("<BH", s, n) for s, n in pilot_stream)
    if data_symbols:
        body += _symdefs(data_table, npd) + stream
    return b"\x19" + struct.pack("<I", len(body)) + body


def pause(ms: int) -> bytes:
    """0x20 (0 = stop the tape)."""
    return b"\x20" + struct.pack("<H", ms)


def group_start(name: bytes) -> bytes:
    """0x21."""
    return b"\x21" + bytes([len(name)]) + name


def group_end() -> bytes:
    """0x22."""
    return b"\x22"


def jump(offset: int) -> bytes:
    """0x23."""
    return b"\x23" + struct.pack("<h", offset)


def loop_start(count: int) -> bytes:
    """0x24."""
    return b"\x24" + struct.pack("<H", count)


def loop_end() -> bytes:
    """0x25."""
    return b"\x25"


def call_sequence(*offsets: int) -> bytes:
    """0x26."""
    return b"\x26" + struct.pack(f"<H{len(offsets)}h", len(offsets), *offsets)


def return_() -> bytes:
    """0x27."""
    return b"\x27"


def select(*items: tuple[int, bytes]) -> bytes:
    """0x28."""
    body = bytes([len(items)]) + b"".join(struct.pack("<hB", o, len(t)) + t for o, t in items)
    return b"\x28" + struct.pack("<H", len(body)) + body


def stop_if_48k() -> bytes:
    """0x2A."""
    return b"\x2a" + struct.pack("<I", 0)


def set_level(level: int) -> bytes:
    """0x2B."""
    return b"\x2b" + struct.pack("<IB", 1, level)


def text(t: bytes) -> bytes:
    """0x30."""
    return b"\x30" + bytes([len(t)]) + t


def message(seconds: int, t: bytes) -> bytes:
    """0x31."""
    return b"\x31" + bytes([seconds, len(t)]) + t


def archive_info(*items: tuple[int, bytes]) -> bytes:
    """0x32."""
    body = bytes([len(items)]) + b"".join(bytes([i, len(t)]) + t for i, t in items)
    return b"\x32" + struct.pack("<H", len(body)) + body


def hardware(*items: tuple[int, int, int]) -> bytes:
    """0x33."""
    return b"\x33" + bytes([len(items)]) + b"".join(bytes(i) for i in items)


def custom_info(ident: bytes, data: bytes) -> bytes:
    """0x35."""
    return b"\x35" + ident.ljust(16) + struct.pack("<I", len(data)) + data


def glue(major: int = 1, minor: int = 20) -> bytes:
    """0x5A."""
    return b"\x5a" + b"XTape!\x1a" + bytes([major, minor])
