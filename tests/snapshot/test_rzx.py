"""RZX recordings: layout, round trips, the repeat marker, Fuse's ROM block, errors, rzxdump."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zxmonopoly.memory_map import ROM_SIZE
from zxmonopoly.snapshot import Snapshot, read_szx, szx_rom, write_szx
from zxmonopoly.snapshot.rzx import (
    Frame,
    InputBlock,
    Recording,
    RzxError,
    SnapshotBlock,
    load_rzx,
    read_rzx,
    save_rzx,
    snapshot_block,
    write_rzx,
)

SNAP = Snapshot(a=0x12, f=0x44, pc=0x8000, sp=0xFF00, i=0x3F, r=0x81, iff1=1, iff2=1, im=1,
                border=3, tstates=1234, memptr=0x1234, ram=bytes(range(256)) * 192)
ROM = bytes((k * 13) & 0xFF for k in range(ROM_SIZE))


def recording(frames: list[Frame] | None = None, suffix: str = ".szx") -> Recording:
    frames = frames if frames is not None else [Frame(100, b"\xbf\xbf"), Frame(90, b""),
                                                Frame(80, b"\x1f" * 3), Frame(80, b"\x1f" * 3)]
    return Recording([snapshot_block(SNAP, suffix), InputBlock(frames, 1234),
                      snapshot_block(SNAP, suffix)])


def blocks(data: bytes) -> list[tuple[int, bytes]]:
    """(id, payload) of every block after the 10-byte header."""
    out, pos = [], 10
    while pos < len(data):
        block_id, length = struct.unpack_from("<BI", data, pos)
        out.append((block_id, data[pos + 5:pos + length]))
        pos += length
    return out


def test_layout_uncompressed() -> None:
    data = write_rzx(recording(), compress=False)
    assert data[:10] == b"RZX!\x00\x0d\x00\x00\x00\x00"
    ids = [block_id for block_id, _ in blocks(data)]
    assert ids == [0x10, 0x30, 0x80, 0x30]
    creator = blocks(data)[0][1]
    assert creator[:20] == b"zxmonopoly".ljust(20, b"\0")
    snap = blocks(data)[1][1]
    flags, ext, length = struct.unpack_from("<I4sI", snap)
    assert (flags, ext, length) == (0, b"szx\0", len(snap) - 12)
    assert read_szx(snap[12:]) == SNAP
    frames = blocks(data)[2][1]
    assert struct.unpack_from("<IBII", frames) == (4, 0, 1234, 0)
    # The fourth frame repeats the third's reads: written as the 0xFFFF marker, no values.
    assert frames[13:] == (b"\x64\x00\x02\x00\xbf\xbf" b"\x5a\x00\x00\x00"
                           b"\x50\x00\x03\x00\x1f\x1f\x1f" b"\x50\x00\xff\xff")


def test_compressed_blocks_are_zlib() -> None:
    data = write_rzx(recording())
    _, snap = blocks(data)[1]
    assert struct.unpack_from("<I", snap)[0] == 2
    assert read_szx(zlib.decompress(snap[12:])) == SNAP
    _, frames = blocks(data)[2]
    assert struct.unpack_from("<I", frames, 9)[0] == 2
    assert zlib.decompress(frames[13:])[:6] == b"\x64\x00\x02\x00\xbf\xbf"


@pytest.mark.parametrize("suffix", [".szx", ".z80", ".sna"])
@pytest.mark.parametrize("compress", [True, False])
def test_round_trip(suffix: str, compress: bool) -> None:
    rec = recording(suffix=suffix)
    back = read_rzx(write_rzx(rec, compress=compress))
    assert back.frames == rec.frames
    assert [type(b) for b in back.blocks] == [SnapshotBlock, InputBlock, SnapshotBlock]
    assert back.start.suffix == suffix and back.start.data == rec.start.data
    assert back.closing is not None and back.closing.snapshot == rec.start.snapshot
    assert back.blocks[1].tstates == 1234
    assert (back.creator, back.version, back.notes) == ("zxmonopoly", (0, 13), [])


frames_strategy = st.lists(st.builds(Frame, st.integers(0, 0xFFFF),
                                     st.binary(max_size=8) | st.sampled_from([b"\xbf", b""])),
                           min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(frames_strategy, st.booleans())
def test_frames_round_trip(frames: list[Frame], compress: bool) -> None:
    rec = Recording([snapshot_block(SNAP), InputBlock(frames)])
    assert read_rzx(write_rzx(rec, compress=compress)).frames == frames


def test_repeat_marker_repeats_the_frame_before() -> None:
    body = (b"\x0a\x00\x01\x00\x77" b"\x0b\x00\xff\xff" b"\x0c\x00\x00\x00" b"\x0d\x00\xff\xff")
    rec = write_rzx(Recording([snapshot_block(SNAP), InputBlock([])]), compress=False)
    head = rec[:rec.rindex(b"\x80")]
    block = struct.pack("<IBII", 4, 0, 0, 0) + body
    data = head + struct.pack("<BI", 0x80, 5 + len(block)) + block
    assert read_rzx(data).frames == [Frame(10, b"\x77"), Frame(11, b"\x77"), Frame(12, b""),
                                     Frame(13, b"")]


def test_custom_rom_block() -> None:
    block = snapshot_block(SNAP, ".szx", rom=ROM)
    assert szx_rom(block.data) == ROM
    assert szx_rom(write_szx(SNAP)) is None
    back = read_rzx(write_rzx(Recording([block, InputBlock([Frame(5)])])))
    assert back.start.rom == ROM and back.start.snapshot == SNAP
    plain = szx_rom(write_szx(SNAP, rom=ROM, compress=False))
    assert plain == ROM


def test_creator_and_security_blocks() -> None:
    data = bytearray(write_rzx(recording(), compress=False))
    data[6] |= 1  # the header's "signed" flag
    data += struct.pack("<BI", 0x21, 5 + 8) + bytes(8)
    back = read_rzx(bytes(data), "x.rzx")
    assert back.notes[0] == "the file is signed: its signature is not checked"
    assert back.notes[1].startswith("block 4 (security signature) at offset")
    assert back.notes[1].endswith("skipped: signatures are not checked")


def test_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "a.rzx"
    save_rzx(path, recording())
    assert load_rzx(path).frames == recording().frames


def _broken(edit: str) -> bytes:
    data = bytearray(write_rzx(recording(), compress=False))
    offsets = {}
    pos = 10
    while pos < len(data):
        offsets.setdefault(data[pos], pos)
        pos += struct.unpack_from("<I", data, pos + 1)[0]
    snap, frames = offsets[0x30], offsets[0x80]
    if edit == "magic":
        data[0] = ord("X")
    elif edit == "version":
        data[5] = 14
    elif edit == "short-length":
        data[snap + 1:snap + 5] = struct.pack("<I", 3)
    elif edit == "truncated":
        del data[frames + 20:]
    elif edit == "extension":
        data[snap + 9:snap + 13] = b"tap\0"
    elif edit == "snap-length":
        data[snap + 13] ^= 1
    elif edit == "external":
        data[snap + 5] |= 1
    elif edit == "protected":
        data[frames + 14] |= 1
    elif edit == "frames":
        data[frames + 5:frames + 9] = struct.pack("<I", 5)
    elif edit == "ins":
        data[frames + 20] = 200
    elif edit == "compressed":
        data[frames + 14] |= 2
    elif edit == "inner":
        data[snap + 17:snap + 21] = b"XXST"
    return bytes(data)


@pytest.mark.parametrize(("edit", "message"), [
    ("magic", "a.rzx: not an RZX: it starts b'XZX!', expected b'RZX!'"),
    ("version", "a.rzx: RZX version 0.14: only 0.12 and 0.13 are read"),
    ("short-length", "(snapshot) at offset 39: length 3 is less than its own header (5)"),
    ("truncated", "a.rzx: truncated block 2 (input recording) at offset"),
    ("extension", "(snapshot) at offset 39: snapshot type '.tap' is not read"),
    ("snap-length", "(snapshot) at offset 39: the snapshot is"),
    ("external", "names a snapshot file outside the recording"),
    ("protected", "(input recording) at offset"),
    ("frames", "(input recording) at offset 1439: the data ends at frame 4 of 5"),
    ("ins", "frame 0 has 200 port reads"),
    ("compressed", "bad compressed data"),
    ("inner", "(snapshot) at offset 39: not a .szx: it starts b'XXST'"),
])
def test_errors_name_the_file_the_block_and_the_problem(edit: str, message: str) -> None:
    with pytest.raises(RzxError) as info:
        read_rzx(_broken(edit), "a.rzx")
    text = str(info.value)
    assert message in text and "\n" not in text
    assert text.startswith("a.rzx: ")


def test_no_frames_or_no_snapshot() -> None:
    only_snap = write_rzx(Recording([snapshot_block(SNAP)]))
    with pytest.raises(RzxError, match="no input recording block"):
        read_rzx(only_snap, "a.rzx")
    no_snap = write_rzx(Recording([InputBlock([Frame(1)])]))
    with pytest.raises(RzxError, match="before any snapshot"):
        read_rzx(no_snap, "a.rzx")


def test_load_refuses_a_device(tmp_path: Path) -> None:
    with pytest.raises(RzxError, match="not a regular file"):
        load_rzx("/dev/zero")


@pytest.mark.skipif(shutil.which("rzxdump") is None,
                    reason="rzxdump absent: apt-get install fuse-emulator-utils")
@pytest.mark.parametrize("compress", [True, False])
def test_rzxdump_reads_ours(tmp_path: Path, compress: bool) -> None:
    path = tmp_path / "ours.rzx"
    save_rzx(path, recording(), compress=compress)
    out = subprocess.run(["rzxdump", str(path)], capture_output=True, text=True, check=True,
                         timeout=30).stdout
    assert "Found RZX signature" in out and "Minor version: 13" in out
    assert "Creator: `zxmonopoly'" in out
    assert out.count("Found a snapshot block") == 2
    assert "Frame count: 4" in out and "Tstate counter: 1234" in out
    assert "Snapshot extension: `szx'" in out
