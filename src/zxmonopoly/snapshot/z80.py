""".z80 snapshots, versions 1, 2 and 3, 48K hardware only; the ED ED run-length compression.

Facts: ``shared/reference/spectrum_facts.md`` §7.2, checked against libspectrum ``z80.c``
(version by extra-header length, hardware codes, page numbers, the T-state counter).
"""

from __future__ import annotations

import struct

import numpy as np

from .state import FRAME_TSTATES, RAM_SIZE, Snapshot, SnapshotError

HEADER_SIZE = 30
PAGE_SIZE = 0x4000
#: Extra-header length (bytes 30–31) -> version.
EXTRA_LENGTHS = {23: 2, 54: 3, 55: 3}
#: Pages of a 48K snapshot -> offset into ``Snapshot.ram`` (0x8000, 0xC000, 0x4000).
PAGES_48K = {4: 0x4000, 5: 0x8000, 8: 0x0000}
#: ROM pages (48K ROM, Interface 1 / +D ROM, SamRam ROMs) and page 11 (Multiface ROM): skipped.
IGNORED_PAGES = frozenset({0, 1, 2, 3, 11})
END_MARKER = b"\x00\xed\xed\x00"  # ends the compressed image of a version 1 file
UNCOMPRESSED = 0xFFFF  # block length meaning "16,384 bytes stored as they are"
QUARTER_FRAME = FRAME_TSTATES // 4

#: Hardware codes (byte 34) that are a 48K Spectrum; SamRam is read as a plain 48K, as
#: libspectrum does.
HARDWARE_48K = {2: {0: "48K", 1: "48K + Interface 1", 2: "SamRam"},
                3: {0: "48K", 1: "48K + Interface 1", 2: "SamRam", 3: "48K + M.G.T."}}
HARDWARE_OTHER = {2: {3: "128K", 4: "128K + Interface 1"},
                  3: {4: "128K", 5: "128K + Interface 1", 6: "128K + M.G.T."}}
HARDWARE_EXTENSIONS = {7: "+3", 8: "+3", 9: "Pentagon", 10: "Scorpion", 11: "Didaktik",
                       12: "+2", 13: "+2A", 14: "TC2048", 15: "TC2068", 128: "TS2068"}

# The common header after A and F: BC, HL, PC, SP, I, R, flags, DE, BC', DE', HL', A', F', IY,
# IX, IFF1, IFF2, flags 2.
_HEADER = struct.Struct("<BBHHHHBBBHHHHBBHHBBB")


# -- compression ------------------------------------------------------------------------------


def compress_block(data: bytes) -> bytes:
    """ED ED run-length compression: runs of 5+ bytes, and of 2+ 0xED, become ``ED ED n b``.

    Runs are cut at 255. The byte after a single 0xED is always written as it is, so that it
    cannot start a run (``ED ED ED …`` would read as a run marker).
    """
    n = len(data)
    if n == 0:
        return b""
    arr = np.frombuffer(data, dtype=np.uint8)
    starts = np.concatenate(([0], np.flatnonzero(arr[1:] != arr[:-1]) + 1))
    lengths = np.diff(np.concatenate((starts, [n])))
    values = arr[starts]
    out = bytearray()
    pos = 0  # data[:pos] is written
    # Only runs that may be packed need a look; the bytes between them go out as they are.
    for k in np.flatnonzero((lengths >= 5) | (values == 0xED)).tolist():
        start, length, value = int(starts[k]), int(lengths[k]), int(values[k])
        if pos > start:  # the first byte went out after a single ED
            length -= pos - start
            start = pos
        out += data[pos:start]
        while length > 0:
            chunk = min(length, 255)
            if chunk >= 5 or (value == 0xED and chunk >= 2):
                out += bytes((0xED, 0xED, chunk, value))
            elif value == 0xED:  # a single ED: the next byte goes out with it
                out += data[start:start + 2]
                chunk = 2
            else:
                out += data[start:start + chunk]
            start += chunk
            length -= chunk
        pos = start
    out += data[pos:]
    return bytes(out)


def decompress_block(data: bytes, size: int, name: str, where: str) -> tuple[bytes, int]:
    """Expand compressed ``data`` until ``size`` bytes come out; returns them and bytes used.

    ``where`` says which part of the file is being read, for error messages.
    """
    out = bytearray()
    pos, end = 0, len(data)
    while len(out) < size and pos < end:
        ed = data.find(b"\xed\xed", pos, min(end, pos + size - len(out) + 1))
        if ed < 0:
            take = min(end - pos, size - len(out))
            out += data[pos:pos + take]
            pos += take
            continue
        out += data[pos:ed]
        if ed + 4 > end:
            raise SnapshotError(name, f"bad compressed data in {where}: ED ED run cut short "
                                      f"at offset {ed}")
        count, byte = data[ed + 2], data[ed + 3]
        if count == 0:
            raise SnapshotError(name, f"bad compressed data in {where}: ED ED run of length 0 "
                                      f"at offset {ed}")
        if len(out) + count > size:
            raise SnapshotError(name, f"bad compressed data in {where}: the run at offset {ed} "
                                      f"goes past {size:,} bytes")
        out += bytes((byte,)) * count
        pos = ed + 4
    if len(out) < size:
        raise SnapshotError(name, f"bad compressed data in {where}: it expands to "
                                  f"{len(out):,} bytes, expected {size:,}")
    return bytes(out), pos


# -- reading ----------------------------------------------------------------------------------


def _hardware_problem(version: int, code: int, flags: int) -> str | None:
    """Why a hardware code cannot be loaded on the 48K, or None if it can."""
    if code in HARDWARE_48K[version]:
        if flags & 0x80:
            return f"hardware type {code} with the 'modified' flag is a 16K Spectrum: unsupported"
        return None
    kind = HARDWARE_OTHER[version].get(code) or HARDWARE_EXTENSIONS.get(code) or "unknown"
    return f"unsupported hardware type {code} ({kind}) in a version {version} file; only 48K"


def read_z80(data: bytes, name: str = "<z80>") -> Snapshot:
    """A .z80 image (version 1, 2 or 3; 48K hardware) as a :class:`Snapshot`."""
    data = bytes(data)
    if len(data) < HEADER_SIZE:
        raise SnapshotError(name, f"short header: {len(data)} bytes, a .z80 has at least "
                                  f"{HEADER_SIZE}")
    (a, f, bc, hl, pc, sp, i, r, flags, de, bc_, de_, hl_, a_, f_, iy, ix, iff1, iff2,
     flags2) = _HEADER.unpack_from(data)
    if flags == 0xFF:  # some old writers: read as 1
        flags = 1
    if flags2 & 3 == 3:
        raise SnapshotError(name, "bad interrupt mode 3 in byte 29")
    snap = Snapshot(
        a=a, f=f, b=bc >> 8, c=bc & 0xFF, d=de >> 8, e=de & 0xFF, h=hl >> 8, l=hl & 0xFF,
        a_=a_, f_=f_, b_=bc_ >> 8, c_=bc_ & 0xFF, d_=de_ >> 8, e_=de_ & 0xFF,
        h_=hl_ >> 8, l_=hl_ & 0xFF, i=i, r=(r & 0x7F) | (flags & 1) << 7, ix=ix, iy=iy,
        sp=sp, pc=pc, iff1=int(iff1 != 0), iff2=int(iff2 != 0), im=flags2 & 3,
        border=(flags >> 1) & 7, issue2=bool(flags2 & 4))
    if pc != 0:
        snap.ram = _read_v1_memory(data[HEADER_SIZE:], bool(flags & 0x20), name)
        return snap

    if len(data) < HEADER_SIZE + 2:
        raise SnapshotError(name, "short header: the extra-header length (bytes 30-31) is "
                                  "missing")
    extra = data[30] | data[31] << 8
    version = EXTRA_LENGTHS.get(extra)
    if version is None:
        raise SnapshotError(name, f"unknown extra-header length {extra} (expected 23 for "
                                  "version 2, 54 or 55 for version 3)")
    body = HEADER_SIZE + 2 + extra
    if len(data) < body:
        raise SnapshotError(name, f"short header: the version {version} header needs {body} "
                                  f"bytes, the file has {len(data)}")
    snap.pc = data[32] | data[33] << 8
    problem = _hardware_problem(version, data[34], data[37])
    if problem:
        raise SnapshotError(name, problem)
    if version == 3:
        low, high = data[55] | data[56] << 8, data[57]
        tstates = ((high + 1) % 4 + 1) * QUARTER_FRAME - (low + 1)
        snap.tstates = tstates if 0 <= tstates < FRAME_TSTATES else 0
    snap.ram = _read_blocks(data, body, name)
    return snap


def _read_v1_memory(data: bytes, compressed: bool, name: str) -> bytes:
    """The 48K image of a version 1 file (after the 30-byte header)."""
    if not compressed:
        if len(data) < RAM_SIZE:
            raise SnapshotError(name, f"truncated: {len(data):,} bytes of memory image, "
                                      f"expected {RAM_SIZE:,}")
        return bytes(data[:RAM_SIZE])
    ram, used = decompress_block(data, RAM_SIZE, name, "the version 1 memory image")
    rest = data[used:]
    if rest not in (b"", END_MARKER):
        raise SnapshotError(name, f"{len(rest)} unexpected bytes after the compressed memory "
                                  f"image (expected the end marker 00 ED ED 00)")
    return ram


def _read_blocks(data: bytes, pos: int, name: str) -> bytes:
    """The 48K of RAM from the memory blocks of a version 2 or 3 file, starting at ``pos``."""
    ram = bytearray(RAM_SIZE)
    seen: set[int] = set()
    index = 0
    while pos < len(data):
        if pos + 3 > len(data):
            raise SnapshotError(name, f"truncated block {index} header at offset {pos}")
        length, page = data[pos] | data[pos + 1] << 8, data[pos + 2]
        start = pos + 3
        where = f"block {index} (page {page}) at offset {pos}"
        if length == UNCOMPRESSED:
            if start + PAGE_SIZE > len(data):
                raise SnapshotError(name, f"truncated {where}: needs {PAGE_SIZE:,} bytes, "
                                          f"{len(data) - start:,} left")
            block = bytes(data[start:start + PAGE_SIZE])
        else:
            if start + length > len(data):
                raise SnapshotError(name, f"truncated {where}: needs {length:,} bytes, "
                                          f"{len(data) - start:,} left")
            block, used = decompress_block(data[start:start + length], PAGE_SIZE, name, where)
            if used != length:
                raise SnapshotError(name, f"bad compressed data in {where}: 16,384 bytes come "
                                          f"from {used:,} of its {length:,} bytes")
        pos = start + (PAGE_SIZE if length == UNCOMPRESSED else length)
        index += 1
        if page in IGNORED_PAGES:
            continue
        if page not in PAGES_48K:
            raise SnapshotError(name, f"{where}: page {page} is not part of a 48K snapshot")
        if page in seen:
            raise SnapshotError(name, f"{where}: page {page} appears twice")
        seen.add(page)
        offset = PAGES_48K[page]
        ram[offset:offset + PAGE_SIZE] = block
    missing = sorted(set(PAGES_48K) - seen)
    if missing:
        raise SnapshotError(name, f"missing memory page(s) {', '.join(map(str, missing))} "
                                  "(a 48K snapshot has pages 4, 5 and 8)")
    return bytes(ram)


# -- writing ----------------------------------------------------------------------------------


def write_z80(snap: Snapshot, version: int = 3, compress: bool = True,
              name: str = "<z80>", *, rom: bytes | None = None) -> bytes:
    """The snapshot as a .z80 file of ``version`` 1, 2 or 3, its memory compressed or not.

    Version 1 cannot hold PC = 0 (a zero PC marks versions 2 and 3). Versions 1 and 2 do not
    hold ``tstates``. Blocks that do not shrink are stored uncompressed (length 0xFFFF) in
    version 3, and also in version 2 when ``compress`` is false, as most readers accept.
    No version holds HALT, MEMPTR, Q or the EI flag: a halted CPU is written as an equivalent
    running one (:meth:`Snapshot.settled`; ``rom`` for an IM 2 vector in ROM).
    """
    snap.check(name)
    snap = snap.settled(rom=rom)
    if version not in (1, 2, 3):
        raise SnapshotError(name, f"unknown .z80 version {version} (expected 1, 2 or 3)")
    if version == 1 and snap.pc == 0:
        raise SnapshotError(name, "PC = 0 cannot be stored in a version 1 .z80 (a zero PC "
                                  "marks versions 2 and 3); write version 2 or 3")
    flags = (snap.r >> 7) | snap.border << 1 | (0x20 if version == 1 and compress else 0)
    header = _HEADER.pack(
        snap.a, snap.f, snap.b << 8 | snap.c, snap.h << 8 | snap.l,
        snap.pc if version == 1 else 0, snap.sp, snap.i, snap.r & 0x7F, flags,
        snap.d << 8 | snap.e, snap.b_ << 8 | snap.c_, snap.d_ << 8 | snap.e_,
        snap.h_ << 8 | snap.l_, snap.a_, snap.f_, snap.iy, snap.ix, snap.iff1, snap.iff2,
        snap.im | (4 if snap.issue2 else 0))
    if version == 1:
        if compress:
            return header + compress_block(snap.ram) + END_MARKER
        return header + snap.ram

    extra = bytearray(23 if version == 2 else 54)
    extra[0:2] = snap.pc.to_bytes(2, "little")
    # extra[2] hardware 0 (48K); 35–38 paging, IF1, flags and AY state all 0.
    if version == 3:
        low = QUARTER_FRAME - snap.tstates % QUARTER_FRAME - 1
        extra[23:25] = low.to_bytes(2, "little")
        extra[25] = (snap.tstates // QUARTER_FRAME + 3) % 4
        extra[29] = extra[30] = 0xFF  # 0x0000–0x3FFF is ROM
    out = bytearray(header) + len(extra).to_bytes(2, "little") + extra
    for page, offset in PAGES_48K.items():
        block = snap.ram[offset:offset + PAGE_SIZE]
        packed = compress_block(block) if compress else b""
        if compress and (len(packed) < PAGE_SIZE or version == 2):
            out += len(packed).to_bytes(2, "little") + bytes((page,)) + packed
        else:
            out += UNCOMPRESSED.to_bytes(2, "little") + bytes((page,)) + block
    return bytes(out)
