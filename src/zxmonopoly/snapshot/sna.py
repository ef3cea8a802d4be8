""".sna snapshots (48K): a 27-byte register header and the 48K of RAM; PC is on the stack.

Facts: ``shared/reference/spectrum_facts.md`` §7.1. The format comes from hardware that saved the
machine from an NMI handler, so PC was pushed on the machine's own stack: reading pops it
(PC = word at SP, SP += 2) and writing pushes it, which overwrites the 2 bytes of RAM below SP.
Those two bytes stay in the image (a real machine would have them there too). IFF1 is not stored:
it is read as IFF2. The T-state within the frame is not stored either: it reads as 0. Nor are
HALT, MEMPTR and Q: a halted CPU is written as an equivalent one (``Snapshot.settled``).
"""

from __future__ import annotations

import struct

from .state import RAM_SIZE, RAM_START, Snapshot, SnapshotError

HEADER_SIZE = 27
FILE_SIZE = HEADER_SIZE + RAM_SIZE  # 49,179
#: Sizes of the 128K variant (48K image, PC, port 0x7FFD, TR-DOS flag, then 5 or 6 more banks).
SIZES_128K = (131_103, 147_487)

# I, HL', DE', BC', AF' (F' then A'), HL, DE, BC, IY, IX, IFF2 byte, R, AF (F then A), SP, IM,
# border.
_HEADER = struct.Struct("<BHHHBBHHHHHBBBBHBB")


def read_sna(data: bytes, name: str = "<sna>") -> Snapshot:
    """A 48K .sna image as a :class:`Snapshot` (PC popped from the stack)."""
    data = bytes(data)
    if len(data) < HEADER_SIZE:
        raise SnapshotError(name, f"short header: {len(data)} bytes, a .sna has {HEADER_SIZE}")
    if len(data) in SIZES_128K:
        raise SnapshotError(name, f"{len(data):,} bytes is a 128K .sna; only 48K is supported")
    if len(data) != FILE_SIZE:
        raise SnapshotError(name, f"bad length {len(data):,} bytes: a 48K .sna has "
                                  f"exactly {FILE_SIZE:,}")
    (i, hl_, de_, bc_, f_, a_, hl, de, bc, iy, ix, iff, r, f, a, sp, im,
     border) = _HEADER.unpack_from(data)
    if im > 2:
        raise SnapshotError(name, f"bad interrupt mode {im} at offset 25 (expected 0, 1 or 2)")
    if not RAM_START <= sp <= 0xFFFE:
        raise SnapshotError(name, f"SP = {sp:#06x}: the stacked PC would be in ROM, which a "
                                  f".sna does not hold")
    ram = bytes(data[HEADER_SIZE:])
    pc = ram[sp - RAM_START] | ram[sp - RAM_START + 1] << 8
    iff2 = (iff >> 2) & 1
    return Snapshot(
        a=a, f=f, b=bc >> 8, c=bc & 0xFF, d=de >> 8, e=de & 0xFF, h=hl >> 8, l=hl & 0xFF,
        a_=a_, f_=f_, b_=bc_ >> 8, c_=bc_ & 0xFF, d_=de_ >> 8, e_=de_ & 0xFF,
        h_=hl_ >> 8, l_=hl_ & 0xFF, i=i, r=r, ix=ix, iy=iy, sp=(sp + 2) & 0xFFFF, pc=pc,
        iff1=iff2, iff2=iff2, im=im, border=border & 7, ram=ram)


def write_sna(snap: Snapshot, name: str = "<sna>", *, rom: bytes | None = None) -> bytes:
    """The snapshot as a 48K .sna: PC pushed below SP into a copy of the RAM.

    A halted CPU is stored as an equivalent running one (:meth:`Snapshot.settled`; ``rom``
    for an IM 2 vector in ROM); MEMPTR, Q, the EI flag and the T-state are not stored.
    """
    snap.check(name)
    snap = snap.settled(rom=rom)
    sp = (snap.sp - 2) & 0xFFFF
    if not RAM_START <= sp <= 0xFFFE:
        raise SnapshotError(name, f"cannot push PC: SP = {snap.sp:#06x} puts the stacked PC at "
                                  f"{sp:#06x}, which is ROM (a .sna keeps PC on the stack)")
    ram = bytearray(snap.ram)
    ram[sp - RAM_START] = snap.pc & 0xFF
    ram[sp - RAM_START + 1] = snap.pc >> 8
    header = _HEADER.pack(
        snap.i, snap.h_ << 8 | snap.l_, snap.d_ << 8 | snap.e_, snap.b_ << 8 | snap.c_,
        snap.f_, snap.a_, snap.h << 8 | snap.l, snap.d << 8 | snap.e, snap.b << 8 | snap.c,
        snap.iy, snap.ix, snap.iff2 << 2, snap.r, snap.f, snap.a, sp, snap.im, snap.border)
    return header + bytes(ram)
