""".szx (zx-state) snapshots, 48K only: the format of Spectaculator and Fuse, exact for a CPU.

Facts: the zx-state 1.5 description (a header, then blocks ``id | size | payload``), checked
against libspectrum's reader. A 48K file here is the header, CRTR (who wrote it), Z80R (the
registers, the T-state in the frame, HALT, the EI and "F was set" flags, MEMPTR), SPCR (border
and the last port 0xFE value), KEYB (Issue 2) and RAMP pages 5, 2 and 0 (0x4000, 0x8000,
0xC000), zlib-compressed when that is smaller. Unknown blocks are skipped, as the format asks.
"""

from __future__ import annotations

import struct
import zlib

from zxmonopoly.memory_map import ROM_SIZE

from .state import FRAME_TSTATES, INT_LENGTH, RAM_SIZE, Snapshot, SnapshotError

MAGIC = b"ZXST"
VERSION = (1, 5)
MACHINE_48K = 1
#: Machine ids other than the 48K, for messages (zx-state header).
MACHINES = {0: "16K", 2: "128K", 3: "+2", 4: "+2A", 5: "+3", 6: "+3e", 7: "Pentagon 128",
            8: "TC2048", 9: "TC2068", 10: "Scorpion", 11: "SE", 12: "TS2068",
            13: "Pentagon 512", 14: "Pentagon 1024", 15: "48K NTSC", 16: "128Ke"}
HEADER_SIZE = 8
BLOCK_HEADER = struct.Struct("<4sI")
PAGE_SIZE = 0x4000
#: RAM pages of a 48K -> offset into ``Snapshot.ram``.
PAGES_48K = {5: 0x0000, 2: 0x4000, 0: 0x8000}
RAMP_COMPRESSED = 1
KEYB_ISSUE2 = 1
JOYSTICK_NONE = 8  # KEYB: the keys emulate no joystick
#: T-states a Z80R block's count may run past the frame's end: the frame ends at the first
#: instruction boundary from 69,888 on (an instruction is 23 T at most, an acknowledge 19).
FRAME_OVERRUN = 256
ROM_BLOCK = b"ROM\0"
ROM_HEADER = struct.Struct("<HI")  # flags (bit 0: zlib), the ROM's size
ROM_COMPRESSED = 1
# Z80R: AF BC DE HL AF' BC' DE' HL' IX IY SP PC, I R IFF1 IFF2 IM, cycles, hold, flags, MEMPTR.
Z80R = struct.Struct("<12HBBBBBIBBH")
Z80R_EILAST, Z80R_HALTED, Z80R_FSET = 1, 2, 4
SPCR = struct.Struct("<BBBB4x")
CREATOR = b"zxmonopoly"


def _block(block_id: bytes, payload: bytes) -> bytes:
    return BLOCK_HEADER.pack(block_id, len(payload)) + payload


def write_szx(snap: Snapshot, name: str = "<szx>", *, compress: bool = True,
              rom: bytes | None = None) -> bytes:
    """The snapshot as a 48K .szx: every field kept (``ldair_last`` settled, see ``settled``).

    ``rom`` (16,384 bytes), when given, goes in a custom-ROM block: the ROM to run it with.
    """
    snap.check(name)
    snap = snap.settled(keep_halted=True)
    out = bytearray(MAGIC + bytes((*VERSION, MACHINE_48K, 0)))
    out += _block(b"CRTR", CREATOR.ljust(32, b"\0") + struct.pack("<HH", 1, 0))
    flags = ((Z80R_EILAST if snap.ei_last else 0) | (Z80R_HALTED if snap.halted else 0)
             | (Z80R_FSET if snap.q else 0))
    hold = max(0, INT_LENGTH - snap.tstates)
    out += _block(b"Z80R", Z80R.pack(
        snap.a << 8 | snap.f, snap.b << 8 | snap.c, snap.d << 8 | snap.e, snap.h << 8 | snap.l,
        snap.a_ << 8 | snap.f_, snap.b_ << 8 | snap.c_, snap.d_ << 8 | snap.e_,
        snap.h_ << 8 | snap.l_, snap.ix, snap.iy, snap.sp, snap.pc, snap.i, snap.r, snap.iff1,
        snap.iff2, snap.im, snap.tstates, hold, flags, snap.memptr))
    out += _block(b"SPCR", SPCR.pack(snap.border, 0, 0, snap.border | snap.mic_ear))
    out += _block(b"KEYB", struct.pack("<IB", KEYB_ISSUE2 if snap.issue2 else 0,
                                       JOYSTICK_NONE))
    if rom is not None:
        if len(rom) != ROM_SIZE:
            raise SnapshotError(name, f"the ROM is {len(rom):,} bytes, a 48K's is "
                                      f"{ROM_SIZE:,}")
        packed = zlib.compress(bytes(rom), 9) if compress else bytes(rom)
        flags = ROM_COMPRESSED if compress else 0
        out += _block(ROM_BLOCK, ROM_HEADER.pack(flags, ROM_SIZE) + packed)
    for page, offset in PAGES_48K.items():
        data = snap.ram[offset:offset + PAGE_SIZE]
        packed = zlib.compress(data, 9) if compress else data
        if compress and len(packed) < PAGE_SIZE:
            out += _block(b"RAMP", struct.pack("<HB", RAMP_COMPRESSED, page) + packed)
        else:
            out += _block(b"RAMP", struct.pack("<HB", 0, page) + data)
    return bytes(out)


def _inflate(data: bytes, name: str, where: str) -> bytes:
    """A zlib stream that must expand to exactly one page (never more is expanded)."""
    inflater = zlib.decompressobj()
    try:
        page = inflater.decompress(data, PAGE_SIZE + 1)
    except zlib.error as exc:
        raise SnapshotError(name, f"bad compressed data in {where}: {exc}") from None
    if len(page) != PAGE_SIZE or not inflater.eof:
        size = f"more than {PAGE_SIZE:,}" if len(page) > PAGE_SIZE else f"{len(page):,}"
        raise SnapshotError(name, f"bad compressed data in {where}: it expands to {size} "
                                  f"bytes, expected {PAGE_SIZE:,}")
    return page


def read_szx(data: bytes, name: str = "<szx>") -> Snapshot:
    """A 48K .szx image as a :class:`Snapshot`."""
    data = bytes(data)
    if len(data) < HEADER_SIZE:
        raise SnapshotError(name, f"short header: {len(data)} bytes, a .szx has at least "
                                  f"{HEADER_SIZE}")
    if data[:4] != MAGIC:
        raise SnapshotError(name, f"not a .szx: it starts {data[:4]!r}, expected b'ZXST'")
    major, minor, machine = data[4], data[5], data[6]
    if major != 1:
        raise SnapshotError(name, f"zx-state version {major}.{minor}: only version 1.x is read")
    if machine != MACHINE_48K:
        kind = MACHINES.get(machine, "unknown")
        raise SnapshotError(name, f"unsupported machine {machine} ({kind}); only 48K")
    version = major << 8 | minor
    snap = Snapshot()
    ram = bytearray(RAM_SIZE)
    seen: set[int] = set()
    have_regs = False
    pos = HEADER_SIZE
    while pos < len(data):
        if pos + BLOCK_HEADER.size > len(data):
            raise SnapshotError(name, f"truncated block header at offset {pos}")
        block_id, size = BLOCK_HEADER.unpack_from(data, pos)
        start = pos + BLOCK_HEADER.size
        label = block_id.rstrip(b"\0").decode("latin-1").encode("unicode_escape").decode()
        where = f"block {label!r} at offset {pos}"
        if start + size > len(data):
            raise SnapshotError(name, f"truncated {where}: {size:,} bytes, "
                                      f"{len(data) - start:,} left")
        payload = data[start:start + size]
        pos = start + size
        if block_id == b"Z80R":
            if size != Z80R.size:
                raise SnapshotError(name, f"{where}: {size} bytes, expected {Z80R.size}")
            _read_z80r(snap, payload, version, name, where)
            have_regs = True
        elif block_id == b"SPCR":
            if size != SPCR.size:
                raise SnapshotError(name, f"{where}: {size} bytes, expected {SPCR.size}")
            border, _, _, fe = SPCR.unpack(payload)
            snap.border = border & 7
            if version >= 0x0101:
                snap.mic_ear = fe & 0x18
        elif block_id == b"KEYB":
            if size < 4:
                raise SnapshotError(name, f"{where}: {size} bytes, expected 4 or 5")
            snap.issue2 = bool(int.from_bytes(payload[:4], "little") & KEYB_ISSUE2)
        elif block_id == b"RAMP":
            if size < 3:
                raise SnapshotError(name, f"{where}: {size} bytes, too short for a page header")
            flags, page = payload[0] | payload[1] << 8, payload[2]
            where = f"RAM page {page} at offset {pos - size - BLOCK_HEADER.size}"
            if page not in PAGES_48K:
                raise SnapshotError(name, f"{where}: page {page} is not part of a 48K "
                                          "(pages 5, 2 and 0)")
            if page in seen:
                raise SnapshotError(name, f"{where}: page {page} appears twice")
            body = payload[3:]
            if flags & RAMP_COMPRESSED:
                body = _inflate(body, name, where)
            elif len(body) != PAGE_SIZE:
                raise SnapshotError(name, f"{where}: {len(body):,} bytes, a page is "
                                          f"{PAGE_SIZE:,}")
            seen.add(page)
            offset = PAGES_48K[page]
            ram[offset:offset + PAGE_SIZE] = body
    if not have_regs:
        raise SnapshotError(name, "no Z80R block: the file holds no registers")
    missing = [page for page in PAGES_48K if page not in seen]
    if missing:
        raise SnapshotError(name, f"missing RAM page(s) {', '.join(map(str, missing))} "
                                  "(a 48K has pages 5, 2 and 0)")
    snap.ram = bytes(ram)
    return snap


def _read_z80r(snap: Snapshot, payload: bytes, version: int, name: str, where: str) -> None:
    """Fill the registers and CPU state from a Z80R block's payload."""
    (af, bc, de, hl, af_, bc_, de_, hl_, ix, iy, sp, pc, i, r, iff1, iff2, im, cycles, _hold,
     flags, memptr) = Z80R.unpack(payload)
    if im > 2:
        raise SnapshotError(name, f"{where}: bad interrupt mode {im} (expected 0, 1 or 2)")
    if cycles >= FRAME_TSTATES + FRAME_OVERRUN:
        raise SnapshotError(name, f"{where}: T-state {cycles:,} is past the 48K's frame "
                                  f"(0..{FRAME_TSTATES - 1:,}, or at most {FRAME_OVERRUN - 1} "
                                  "past its end)")
    # Past the frame's end by an instruction (Fuse saves its RZX autosaves at the frame's end,
    # T 69,902 say, before it starts the next): the same moment as that far into the next.
    cycles %= FRAME_TSTATES
    snap.a, snap.f, snap.b, snap.c = af >> 8, af & 0xFF, bc >> 8, bc & 0xFF
    snap.d, snap.e, snap.h, snap.l = de >> 8, de & 0xFF, hl >> 8, hl & 0xFF
    snap.a_, snap.f_, snap.b_, snap.c_ = af_ >> 8, af_ & 0xFF, bc_ >> 8, bc_ & 0xFF
    snap.d_, snap.e_, snap.h_, snap.l_ = de_ >> 8, de_ & 0xFF, hl_ >> 8, hl_ & 0xFF
    snap.ix, snap.iy, snap.sp, snap.pc, snap.i, snap.r = ix, iy, sp, pc, i, r
    snap.iff1, snap.iff2, snap.im = int(iff1 != 0), int(iff2 != 0), im
    snap.tstates = cycles
    if version >= 0x0101:
        snap.halted = bool(flags & Z80R_HALTED)
        snap.ei_last = bool(flags & Z80R_EILAST) and not snap.halted
        snap.q = snap.f if flags & Z80R_FSET else 0
    if version >= 0x0104:
        snap.memptr = memptr


def szx_rom(data: bytes, name: str = "<szx>") -> bytes | None:
    """The custom ROM a .szx holds (its ``ROM`` block), or None; the file must read first."""
    data = bytes(data)
    pos = HEADER_SIZE
    while pos + BLOCK_HEADER.size <= len(data):
        block_id, size = BLOCK_HEADER.unpack_from(data, pos)
        start = pos + BLOCK_HEADER.size
        pos = start + size
        if block_id != ROM_BLOCK:
            continue
        where = f"block 'ROM' at offset {start - BLOCK_HEADER.size}"
        if size < ROM_HEADER.size or pos > len(data):
            raise SnapshotError(name, f"{where}: {size:,} bytes, too short or past the end")
        flags, length = ROM_HEADER.unpack_from(data, start)
        if length != ROM_SIZE:
            raise SnapshotError(name, f"{where}: a ROM of {length:,} bytes, a 48K's is "
                                      f"{ROM_SIZE:,}")
        body = data[start + ROM_HEADER.size:pos]
        if flags & ROM_COMPRESSED:
            inflater = zlib.decompressobj()
            try:
                body = inflater.decompress(body, length + 1)
            except zlib.error as exc:
                raise SnapshotError(name, f"bad compressed data in {where}: {exc}") from None
        if len(body) != length:
            raise SnapshotError(name, f"{where}: {len(body):,} bytes of ROM, its header says "
                                      f"{length:,}")
        return body
    return None
