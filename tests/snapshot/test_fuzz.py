"""Fuzzing the snapshot readers: random and mutated .sna, .z80, .szx, .rzx raise only SnapshotError.

Short runs in the default suite, long ones under ``-m slow`` (tests/fuzz.py). A snapshot that
reads is also checked to be valid and to write again (a recording: to the same frames).
"""

from __future__ import annotations

from tests.fuzz import files, fuzz_test
from zxmonopoly.memory_map import ROM_SIZE
from zxmonopoly.snapshot import (
    Snapshot,
    SnapshotError,
    read_sna,
    read_szx,
    read_z80,
    szx_rom,
    write_sna,
    write_szx,
    write_z80,
)
from zxmonopoly.snapshot.rzx import (
    Frame,
    InputBlock,
    Recording,
    read_rzx,
    snapshot_block,
    write_rzx,
)

EXAMPLE = Snapshot(a=1, f=0x44, pc=0x8000, sp=0xFF00, i=0x3F, r=0x81, iff1=1, iff2=1, im=1,
                   border=3, tstates=1234, halted=True, memptr=0x1234,
                   ram=bytes(range(256)) * 192)
SNA_SEEDS = [write_sna(EXAMPLE, rom=bytes(ROM_SIZE))]
Z80_SEEDS = [write_z80(EXAMPLE, version, compress) for version in (1, 2, 3)
             for compress in (True, False)]
SZX_SEEDS = [write_szx(EXAMPLE), write_szx(EXAMPLE, compress=False),
             write_szx(EXAMPLE, rom=bytes(range(64)) * 256)]
_FRAMES = [Frame(5000, b"\xbf\x1f"), Frame(4000), Frame(3000, b"\xbf\x1f"),
           Frame(3000, b"\xbf\x1f")]
_RECORDING = Recording([snapshot_block(EXAMPLE, ".z80"), InputBlock(_FRAMES, 100),
                        snapshot_block(EXAMPLE, ".szx", rom=bytes(ROM_SIZE))])
RZX_SEEDS = [write_rzx(_RECORDING), write_rzx(_RECORDING, compress=False)]


def _checked(read, write, data: bytes) -> None:  # noqa: ANN001
    try:
        snap = read(data, "fuzz")
    except SnapshotError:
        return
    snap.check()
    write(snap)


@fuzz_test(files(SNA_SEEDS))
def _sna(data: bytes) -> None:
    _checked(read_sna, lambda s: write_sna(s, rom=bytes(ROM_SIZE))
             if s.sp not in (0x4000, 0x4001, 1) else None, data)


@fuzz_test(files(Z80_SEEDS))
def _z80(data: bytes) -> None:
    _checked(read_z80, lambda s: write_z80(s, rom=bytes(ROM_SIZE)), data)


@fuzz_test(files(SZX_SEEDS))
def _szx(data: bytes) -> None:
    _checked(read_szx, write_szx, data)
    try:
        read_szx(data, "fuzz")
        rom = szx_rom(data, "fuzz")
    except SnapshotError:
        return
    assert rom is None or len(rom) == ROM_SIZE


@fuzz_test(files(RZX_SEEDS))
def _rzx(data: bytes) -> None:
    try:
        recording = read_rzx(data, "fuzz")
    except SnapshotError:
        return
    for block in recording.blocks:
        if isinstance(block, InputBlock):
            continue
        block.snapshot.check()
        assert block.rom is None or len(block.rom) == ROM_SIZE
    assert read_rzx(write_rzx(recording), "again").frames == recording.frames


test_sna_images_raise_only_snapshot_error, test_sna_images_long = _sna
test_z80_images_raise_only_snapshot_error, test_z80_images_long = _z80
test_szx_images_raise_only_snapshot_error, test_szx_images_long = _szx
test_rzx_files_raise_only_snapshot_error, test_rzx_files_long = _rzx
