""".z80 snapshots and their compression (zxmonopoly.snapshot.z80)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.snapshot.strategies import SnapshotSpec, make_snapshot, snapshot_specs
from zxmonopoly.snapshot import Snapshot, SnapshotError, read_z80, write_z80
from zxmonopoly.snapshot.z80 import compress_block, decompress_block

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ED = 0xED


def reference_compress(data: bytes) -> bytes:
    """The rule of spectrum_facts.md §7.2, byte by byte: runs of 5+ (or 2+ EDs), max 255."""
    out, i = bytearray(), 0
    while i < len(data):
        run = 1
        while i + run < len(data) and run < 255 and data[i + run] == data[i]:
            run += 1
        if run >= 5 or (data[i] == ED and run >= 2):
            out += bytes([ED, ED, run, data[i]])
            i += run
        elif data[i] == ED:  # a lone ED: the next byte goes out literally, whatever it is
            out += data[i:i + 2]
            i += 2
        else:
            out.append(data[i])
            i += 1
    return bytes(out)


def example(**changes: object) -> Snapshot:
    ram = bytearray(49_152)
    ram[0:6912] = bytes(range(256)) * 27  # the screen
    ram[0x4000:0x4010] = b"\xed" * 16  # page 4 starts with EDs
    ram[-3:] = b"\xc9\x00\xed"
    snap = Snapshot(a=0x12, f=0x34, b=0x56, c=0x78, d=0x9A, e=0xBC, h=0xDE, l=0xF0,
                    a_=0x11, f_=0x22, b_=0x33, c_=0x44, d_=0x55, e_=0x66, h_=0x77, l_=0x88,
                    i=0x3F, r=0xA5, ix=0x1234, iy=0x5C3A, sp=0xFF40, pc=0x8123,
                    iff1=1, iff2=0, im=2, border=5, ram=bytes(ram), tstates=12_345, issue2=True)
    return dataclasses.replace(snap, **changes)  # type: ignore[arg-type]


# -- compression ------------------------------------------------------------------------------


@pytest.mark.parametrize(("data", "packed"), [
    (b"", b""),
    (b"\x00" * 4, b"\x00" * 4),
    (b"\x00" * 5, b"\xed\xed\x05\x00"),
    (b"\xed", b"\xed"),
    (b"\xed\xed", b"\xed\xed\x02\xed"),  # ED followed by ED: always a run
    (b"\xed\x00\x00\x00\x00\x00\x00", b"\xed\x00\xed\xed\x05\x00"),  # lone ED before a run
    (b"\xed\x00\x00\x00\x00\x00", b"\xed\x00\x00\x00\x00\x00"),
    (b"\x07" * 300, b"\xed\xed\xff\x07\xed\xed\x2d\x07"),
    (b"\x07" * 257, b"\xed\xed\xff\x07\x07\x07"),
    (b"\xed" * 256 + b"\x01" * 6, b"\xed\xed\xff\xed\xed\x01\xed\xed\x05\x01"),
    (b"\x01\xed\xed\xed\x02", b"\x01\xed\xed\x03\xed\x02"),
])
def test_compression_cases(data: bytes, packed: bytes) -> None:
    assert compress_block(data) == packed == reference_compress(data)
    assert decompress_block(packed, len(data), "t", "test") == (data, len(packed))


@settings(max_examples=500)
@given(st.lists(st.sampled_from([0x00, 0x01, ED]), max_size=40).map(bytes)
       | st.lists(st.tuples(st.sampled_from([0x00, ED, 0x42]), st.integers(1, 600)), max_size=6)
       .map(lambda runs: b"".join(bytes([v]) * n for v, n in runs))
       | st.binary(max_size=300))
def test_compression_follows_the_rule_and_round_trips(data: bytes) -> None:
    packed = compress_block(data)
    assert packed == reference_compress(data)
    assert decompress_block(packed, len(data), "t", "test") == (data, len(packed))


@pytest.mark.parametrize(("packed", "size", "message"), [
    (b"\x01\xed\xed", 10, "t.z80: bad compressed data in here: ED ED run cut short at offset 1"),
    (b"\xed\xed\x00\x01", 10, "ED ED run of length 0 at offset 0"),
    (b"\x01\xed\xed\x0a\x02", 5, "the run at offset 1 goes past 5 bytes"),
    (b"\x01\x02", 5, "it expands to 2 bytes, expected 5"),
])
def test_bad_compressed_data(packed: bytes, size: int, message: str) -> None:
    with pytest.raises(SnapshotError, match=message):
        decompress_block(packed, size, "t.z80", "here")


# -- layout -----------------------------------------------------------------------------------


def test_version_1_header_layout() -> None:
    data = write_z80(example(), version=1, compress=False)
    assert len(data) == 30 + 49_152
    assert data[:30] == bytes([
        0x12, 0x34, 0x78, 0x56, 0xF0, 0xDE,  # A, F, BC, HL
        0x23, 0x81, 0x40, 0xFF, 0x3F, 0x25,  # PC, SP, I, R bits 0-6
        0x01 | 5 << 1,  # R bit 7, border, not compressed
        0xBC, 0x9A, 0x44, 0x33, 0x66, 0x55, 0x88, 0x77, 0x11, 0x22,  # DE, BC', DE', HL', A', F'
        0x3A, 0x5C, 0x34, 0x12, 0x01, 0x00,  # IY, IX, IFF1, IFF2
        0x02 | 0x04])  # IM 2, Issue 2
    assert data[30:] == example().ram
    packed = write_z80(example(), version=1)
    assert packed[12] == 0x01 | 5 << 1 | 0x20 and packed.endswith(b"\x00\xed\xed\x00")


@pytest.mark.parametrize(("version", "extra"), [(2, 23), (3, 54)])
def test_version_2_and_3_layout(version: int, extra: int) -> None:
    data = write_z80(example(), version=version, compress=False)
    assert data[6:8] == b"\x00\x00"  # PC 0 marks version 2 or 3
    assert data[12] == 0x01 | 5 << 1  # no compression flag
    assert int.from_bytes(data[30:32], "little") == extra
    assert data[32:34] == b"\x23\x81" and data[34] == 0  # PC; hardware 48K
    pos = 32 + extra
    pages = []
    while pos < len(data):
        assert data[pos:pos + 2] == b"\xff\xff"  # stored uncompressed
        pages.append(data[pos + 2])
        pos += 3 + 16_384
    assert pages == [4, 5, 8] and pos == len(data)
    first = 32 + extra + 3  # page 4 is 0x8000-0xBFFF
    assert data[first:first + 16] == b"\xed" * 16


@pytest.mark.parametrize("tstates", [0, 1, 17_471, 17_472, 34_944, 52_415, 52_416, 69_887])
def test_version_3_tstate_counter(tstates: int) -> None:
    data = write_z80(example(tstates=tstates))
    low, high = int.from_bytes(data[55:57], "little"), data[57]
    # libspectrum's reading of the counter (spectrum_facts.md §7.2):
    assert ((high + 1) % 4 + 1) * 17_472 - (low + 1) == tstates
    assert read_z80(data).tstates == tstates


def test_version_3_counter_out_of_range_reads_as_zero() -> None:
    data = bytearray(write_z80(example()))
    data[55:58] = b"\xff\xff\x00"
    assert read_z80(bytes(data)).tstates == 0


def test_compressed_blocks_map_pages_to_addresses() -> None:
    ram = bytes([1]) * 16_384 + bytes([2]) * 16_384 + bytes([3]) * 16_384
    data = write_z80(example(ram=ram), version=2)
    pos, blocks = 32 + 23, {}
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 2], "little")
        blocks[data[pos + 2]] = data[pos + 3:pos + 3 + length]
        pos += 3 + length
    assert blocks[8][:4] == b"\xed\xed\xff\x01"  # 0x4000
    assert blocks[4][:4] == b"\xed\xed\xff\x02"  # 0x8000
    assert blocks[5][:4] == b"\xed\xed\xff\x03"  # 0xC000
    assert read_z80(data).ram == ram


def test_incompressible_pages_are_stored_raw_in_version_3() -> None:
    ram = bytes(range(256)) * 192
    data = write_z80(example(ram=ram), version=3)
    assert len(data) == 30 + 2 + 54 + 3 * (3 + 16_384)
    assert read_z80(data).ram == ram
    v2 = write_z80(example(ram=ram), version=2)  # version 2 always compresses when asked
    assert v2[55:57] != b"\xff\xff" and read_z80(v2).ram == ram


# -- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("compress", [True, False])
@pytest.mark.parametrize("version", [1, 2, 3])
def test_round_trip(version: int, compress: bool) -> None:
    snap = example()
    back = read_z80(write_z80(snap, version=version, compress=compress), "x.z80")
    assert back == (snap if version == 3 else dataclasses.replace(snap, tstates=0))


@SLOW
@given(snapshot_specs(), st.sampled_from([1, 2, 3]), st.booleans())
def test_read_of_write_is_the_snapshot(spec: SnapshotSpec, version: int, compress: bool) -> None:
    snap = make_snapshot(spec)
    if version == 1 and snap.pc == 0:
        snap = dataclasses.replace(snap, pc=1)
    if version < 3:
        snap = dataclasses.replace(snap, tstates=0)
    assert read_z80(write_z80(snap, version, compress)) == snap


def test_version_1_quirks() -> None:
    data = bytearray(write_z80(example(), version=1, compress=False))
    data[12] = 0xFF  # some old writers: read as 1
    snap = read_z80(bytes(data))
    assert (snap.r, snap.border) == (0xA5, 0)
    packed = write_z80(example(), version=1)
    assert read_z80(packed[:-4]) == read_z80(packed)  # the end marker may be missing
    data = bytearray(write_z80(example()))
    data[27] = 0x80  # any non-zero IFF byte is "enabled"
    assert read_z80(bytes(data)).iff1 == 1


def test_rom_pages_are_skipped() -> None:
    data = write_z80(example())
    rom_page = b"\xff\xff\x00" + bytes(16_384)
    assert read_z80(data + rom_page) == example()


# -- errors -----------------------------------------------------------------------------------


def _v3(**patch: int) -> bytes:
    data = bytearray(write_z80(example()))
    for offset, value in patch.items():
        data[int(offset[1:])] = value
    return bytes(data)


def _blocks(*blocks: bytes) -> bytes:
    """A version 3 header followed by the given raw block bytes."""
    return write_z80(example())[:32 + 54] + b"".join(blocks)


def _page(page: int, fill: int = 0) -> bytes:
    return b"\xff\xff" + bytes([page]) + bytes([fill]) * 16_384


V1_PACKED = write_z80(example(), version=1)

BAD = [
    ("short", bytes(29), "short header: 29 bytes, a .z80 has at least 30"),
    ("no-extra-length", bytes(30), "short header: the extra-header length"),
    ("extra-length", bytes(30) + b"\x20\x00" + bytes(40), "unknown extra-header length 32"),
    ("short-extra", bytes(30) + b"\x36\x00" + bytes(10),
     "short header: the version 3 header needs 86 bytes, the file has 42"),
    ("im3", bytes(29) + b"\x03", "bad interrupt mode 3 in byte 29"),
    ("v2-128k", write_z80(example(), 2)[:34] + b"\x03" + write_z80(example(), 2)[35:],
     r"unsupported hardware type 3 \(128K\) in a version 2 file; only 48K"),
    ("v3-128k", _v3(b34=4), r"unsupported hardware type 4 \(128K\) in a version 3 file"),
    ("v3-plus3", _v3(b34=7), r"unsupported hardware type 7 \(\+3\)"),
    ("v3-unknown", _v3(b34=99), r"unsupported hardware type 99 \(unknown\)"),
    ("16k", _v3(b37=0x80), "hardware type 0 with the 'modified' flag is a 16K Spectrum"),
    ("block-header", _blocks(_page(4), b"\x10\x00"), "truncated block 1 header at offset 16473"),
    ("block-raw", _blocks(_page(4)[:100]),
     r"truncated block 0 \(page 4\) at offset 86: needs 16,384 bytes, 97 left"),
    ("block-packed", _blocks(b"\x10\x00\x04\xed\xed"),
     r"truncated block 0 \(page 4\) at offset 86: needs 16 bytes, 2 left"),
    ("block-short", _blocks(b"\x04\x00\x04\xed\xed\x10\x00"),
     r"bad compressed data in block 0 \(page 4\) at offset 86: it expands to 16 bytes"),
    ("block-zero-run", _blocks(b"\x08\x00\x08" + b"\xed\xed\x00\x40" * 2),
     "ED ED run of length 0"),
    ("block-extra", _blocks(b"\x10\x01\x08" + b"\xed\xed\xff\x00" * 64 + b"\xed\xed\x40\x00"
                            + b"\x01" * 12),
     r"16,384 bytes come from 260 of its 272 bytes"),
    ("page-6", _blocks(_page(4), _page(5), _page(6)),
     r"block 2 \(page 6\) at offset 32860: page 6 is not part of a 48K snapshot"),
    ("page-twice", _blocks(_page(4), _page(4)), "page 4 appears twice"),
    ("missing", _blocks(_page(4), _page(8)),
     r"missing memory page\(s\) 5 \(a 48K snapshot has pages 4, 5 and 8\)"),
    ("v1-truncated", write_z80(example(), 1, compress=False)[:-1],
     "truncated: 49,151 bytes of memory image, expected 49,152"),
    ("v1-short-packed", V1_PACKED[:-200], "bad compressed data in the version 1 memory image"),
    ("v1-trailing", V1_PACKED + b"\x00",
     "5 unexpected bytes after the compressed memory image"),
]


@pytest.mark.parametrize(("data", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_files(data: bytes, message: str) -> None:
    with pytest.raises(SnapshotError, match=message) as info:
        read_z80(data, "bad.z80")
    assert str(info.value).startswith("bad.z80: ")


def test_write_errors() -> None:
    with pytest.raises(SnapshotError, match="o.z80: PC = 0 cannot be stored in a version 1"):
        write_z80(example(pc=0), version=1, name="o.z80")
    with pytest.raises(SnapshotError, match="unknown .z80 version 4"):
        write_z80(example(), version=4)
    with pytest.raises(SnapshotError, match="r = 256 is outside"):
        write_z80(example(r=256))
