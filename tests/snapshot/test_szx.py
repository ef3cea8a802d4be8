""".szx (zx-state): layout, round trips with the CPU's hidden state, errors, Fuse's tools."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.snapshot.strategies import SnapshotSpec, make_snapshot, snapshot_specs
from zxmonopoly import snapshot
from zxmonopoly.clock import FRAME_TSTATES
from zxmonopoly.snapshot import Snapshot, SnapshotError, read_szx, write_szx


def example() -> Snapshot:
    ram = bytes((k * 7 + (k >> 8)) & 0xFF for k in range(0xC000))
    return Snapshot(a=0x12, f=0x34, b=0x56, c=0x78, d=0x9A, e=0xBC, h=0xDE, l=0xF0,
                    a_=1, f_=2, b_=3, c_=4, d_=5, e_=6, h_=7, l_=8, i=0x3F, r=0x85,
                    ix=0x1111, iy=0x5C3A, sp=0xFF40, pc=0x10BA, iff1=1, iff2=1, im=1,
                    border=5, ram=ram, tstates=3, mic_ear=0x10, halted=True, memptr=0x10B9)


def blocks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(id, payload) of every block after the header."""
    out, pos = [], 8
    while pos < len(data):
        block_id, size = struct.unpack_from("<4sI", data, pos)
        out.append((block_id, data[pos + 8:pos + 8 + size]))
        pos += 8 + size
    return out


def test_layout() -> None:
    data = write_szx(example())
    assert data[:8] == b"ZXST\x01\x05\x01\x00"  # version 1.5, a 48K, standard timings
    ids = [block_id for block_id, _ in blocks(data)]
    assert ids == [b"CRTR", b"Z80R", b"SPCR", b"KEYB", b"RAMP", b"RAMP", b"RAMP"]
    z80r = dict(blocks(data))[b"Z80R"]
    assert len(z80r) == 37
    assert z80r[0:2] == b"\x34\x12"  # AF: F first
    assert struct.unpack_from("<H", z80r, 22)[0] == 0x10BA  # PC on the HALT
    assert z80r[24:29] == bytes((0x3F, 0x85, 1, 1, 1))
    assert struct.unpack_from("<IBBH", z80r, 29) == (3, 29, 2, 0x10B9)  # T, hold, HALTED
    assert dict(blocks(data))[b"SPCR"] == bytes((5, 0, 0, 0x15, 0, 0, 0, 0))
    pages = [payload for block_id, payload in blocks(data) if block_id == b"RAMP"]
    assert [p[2] for p in pages] == [5, 2, 0]
    ram = example().ram
    for payload, start in zip(pages, (0, 0x4000, 0x8000), strict=True):
        assert payload[:2] == b"\x01\x00"
        assert zlib.decompress(payload[3:]) == ram[start:start + 0x4000]


def test_uncompressed_pages_and_round_trip() -> None:
    snap = example()
    raw = write_szx(snap, compress=False)
    assert len(raw) > 3 * 0x4000
    assert read_szx(raw) == snap == read_szx(write_szx(snap))


flags = st.fixed_dictionaries({"halted": st.booleans(), "memptr": st.integers(0, 0xFFFF),
                               "fset": st.booleans(), "ei_last": st.booleans(),
                               "mic_ear": st.sampled_from([0, 8, 16, 24])})


@settings(max_examples=40, deadline=None)
@given(snapshot_specs(), flags, st.booleans())
def test_read_of_write_is_the_snapshot(spec: SnapshotSpec, extra: dict, compress: bool) -> None:
    snap = make_snapshot(spec)
    snap.halted, snap.memptr, snap.mic_ear = extra["halted"], extra["memptr"], extra["mic_ear"]
    snap.q = snap.f if extra["fset"] else 0
    snap.ei_last = extra["ei_last"] and not snap.halted
    assert read_szx(write_szx(snap, compress=compress)) == snap


def test_ld_a_i_before_an_interrupt_is_written_settled() -> None:
    snap = Snapshot(f=0xFF, iff1=1, iff2=1, im=1, sp=0x8000, tstates=2, ldair_last=True)
    back = read_szx(write_szx(snap))
    assert back.f == 0xFB and not back.ldair_last


def test_unknown_blocks_are_skipped_and_older_versions_read() -> None:
    data = bytearray(write_szx(example()))
    data[8:8] = struct.pack("<4sI", b"AY\0\0", 18) + bytes(18)
    assert read_szx(bytes(data)) == example()
    data[5] = 3  # version 1.3: no MEMPTR (bytes 35-36 were chBitReg and a reserved byte)
    assert read_szx(bytes(data)).memptr == 0
    assert read_szx(bytes(data)).halted
    data[5] = 0  # version 1.0: no flags at all, nor chFe
    old = read_szx(bytes(data))
    assert not old.halted and old.mic_ear == 0


def test_save_and_load_by_suffix(tmp_path: Path) -> None:
    snapshot.save(tmp_path / "x.SZX", example())
    assert snapshot.load(tmp_path / "x.SZX") == example()


def _with_block(block_id: bytes, payload: bytes) -> bytes:
    """The example with its block ``block_id`` replaced by ``payload``."""
    out = bytearray(write_szx(example())[:8])
    for bid, body in blocks(write_szx(example())):
        body = payload if bid == block_id else body
        out += struct.pack("<4sI", bid, len(body)) + body
    return bytes(out)


def _z80r(**changes: int) -> bytes:
    z80r = bytearray(dict(blocks(write_szx(example())))[b"Z80R"])
    offsets = {"im": (28, "B"), "cycles": (29, "I")}
    for key, value in changes.items():
        offset, fmt = offsets[key]
        struct.pack_into("<" + fmt, z80r, offset, value)
    return bytes(z80r)


def _ramp(page: int, body: bytes, flags: int = 0) -> bytes:
    return struct.pack("<4sIHB", b"RAMP", len(body) + 3, flags, page) + body


GOOD = write_szx(example())
HEADER = GOOD[:8]


@pytest.mark.parametrize(("data", "message"), [
    (b"ZXS", "short header: 3 bytes, a .szx has at least 8"),
    (b"ZXSX\x01\x05\x01\x00", r"not a .szx: it starts b'ZXSX', expected b'ZXST'"),
    (b"ZXST\x02\x00\x01\x00", r"zx-state version 2.0: only version 1.x is read"),
    (b"ZXST\x01\x05\x02\x00", r"unsupported machine 2 \(128K\); only 48K"),
    (b"ZXST\x01\x05\x63\x00", r"unsupported machine 99 \(unknown\); only 48K"),
    (HEADER + b"RAM", "truncated block header at offset 8"),
    (HEADER + struct.pack("<4sI", b"RAMP", 100) + bytes(10),
     r"truncated block 'RAMP' at offset 8: 100 bytes, 10 left"),
    (HEADER, "no Z80R block: the file holds no registers"),
    (_with_block(b"Z80R", bytes(36)), r"block 'Z80R' at offset \d+: 36 bytes, expected 37"),
    (_with_block(b"Z80R", _z80r(im=3)), "bad interrupt mode 3"),
    (_with_block(b"Z80R", _z80r(cycles=FRAME_TSTATES + 256)),
     r"T-state 70,144 is past the 48K's frame \(0..69,887, or at most 255 past its end\)"),
    (_with_block(b"SPCR", bytes(7)), "block 'SPCR' at offset \\d+: 7 bytes, expected 8"),
    (_with_block(b"KEYB", bytes(3)), "block 'KEYB' at offset \\d+: 3 bytes, expected 4 or 5"),
    (GOOD + _ramp(5, bytes(0x4000)), "RAM page 5 at offset \\d+: page 5 appears twice"),
    (GOOD + _ramp(7, bytes(0x4000)), "page 7 is not part of a 48K"),
    (GOOD + struct.pack("<4sIH", b"RAMP", 2, 0), "too short for a page header"),
    (_with_block(b"CRTR", b"x") .replace(b"RAMP", b"RAMQ", 1), "missing RAM page\\(s\\) 5"),
])
def test_bad_files(data: bytes, message: str) -> None:
    with pytest.raises(SnapshotError, match=message):
        read_szx(data, "x.szx")


def test_a_moment_just_past_the_frame_is_that_far_into_the_next() -> None:
    # Fuse's RZX autosaves: taken at the frame's end, before the next frame starts.
    assert read_szx(_with_block(b"Z80R", _z80r(cycles=69_902)), "x.szx").tstates == 14
    assert read_szx(_with_block(b"Z80R", _z80r(cycles=69_887)), "x.szx").tstates == 69_887


@pytest.mark.parametrize(("body", "flags", "message"), [
    (bytes(100), 0, "RAM page 2 at offset \\d+: 100 bytes, a page is 16,384"),
    (b"not zlib", 1, "bad compressed data in RAM page 2 .*: Error -3"),
    (zlib.compress(bytes(100)), 1, "it expands to 100 bytes, expected 16,384"),
    (zlib.compress(bytes(1 << 20)), 1, "it expands to more than 16,384 bytes"),
])
def test_bad_pages(body: bytes, flags: int, message: str) -> None:
    data = bytearray(HEADER)
    for bid, payload in blocks(GOOD):
        if bid == b"RAMP" and payload[2] == 2:
            data += _ramp(2, body, flags)
        else:
            data += struct.pack("<4sI", bid, len(payload)) + payload
    with pytest.raises(SnapshotError, match=message):
        read_szx(bytes(data), "x.szx")


@pytest.mark.skipif(shutil.which("snapdump") is None, reason="snapdump (fuse-emulator-utils) "
                    "is not installed")
def test_fuse_reads_what_we_write(tmp_path: Path) -> None:
    path = tmp_path / "a.szx"
    snapshot.save(path, example())
    out = subprocess.run(["snapdump", str(path)], capture_output=True, text=True, check=True)
    assert "machine: Spectrum 48K" in out.stdout
    for line in ("PC:  0x10BA", "AF:  0x1234", "halted: 1", "meptr:  0x10B9", "tstates: 3"):
        assert line in out.stdout


@pytest.mark.skipif(shutil.which("snapconv") is None, reason="snapconv (fuse-emulator-utils) "
                    "is not installed")
def test_we_read_what_fuse_writes(tmp_path: Path) -> None:
    snap = example()
    snap.halted = False
    snapshot.save(tmp_path / "a.z80", snap)
    subprocess.run(["snapconv", str(tmp_path / "a.z80"), str(tmp_path / "b.szx")],
                   capture_output=True, check=True)
    back = snapshot.load(tmp_path / "b.szx")
    assert back.ram == snap.ram and back.registers() == snap.registers()
    assert back.tstates == snap.tstates
