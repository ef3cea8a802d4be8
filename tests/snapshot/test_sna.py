""".sna snapshots (zxmonopoly.snapshot.sna) and load/save by suffix."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.snapshot.strategies import (
    RamSpec,
    SnapshotSpec,
    make_ram,
    make_snapshot,
    ram_specs,
    snapshot_specs,
)
from zxmonopoly import snapshot
from zxmonopoly.snapshot import Snapshot, SnapshotError, read_sna, write_sna

SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def example() -> Snapshot:
    ram = bytearray(49_152)
    ram[0x8000 - 0x4000:0x8000 - 0x4000 + 4] = b"\x01\x02\x03\x04"
    return Snapshot(a=0x12, f=0x34, b=0x56, c=0x78, d=0x9A, e=0xBC, h=0xDE, l=0xF0,
                    a_=0x11, f_=0x22, b_=0x33, c_=0x44, d_=0x55, e_=0x66, h_=0x77, l_=0x88,
                    i=0x3F, r=0xA5, ix=0x1234, iy=0x5C3A, sp=0xFF40, pc=0x8123,
                    iff1=1, iff2=1, im=1, border=5, ram=bytes(ram))


def test_header_layout() -> None:
    data = write_sna(example())
    assert len(data) == 49_179
    # Offsets from spectrum_facts.md §7.1; SP is stored after pushing PC.
    assert data[:27] == bytes([
        0x3F, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  # I, HL', DE', BC', F', A'
        0xF0, 0xDE, 0xBC, 0x9A, 0x78, 0x56,  # HL, DE, BC
        0x3A, 0x5C, 0x34, 0x12,  # IY, IX
        0x04, 0xA5, 0x34, 0x12,  # IFF2 in bit 2, R, F, A
        0x3E, 0xFF, 0x01, 0x05])  # SP = 0xFF3E, IM, border
    assert data[27 + 0xFF3E - 0x4000:27 + 0xFF40 - 0x4000] == b"\x23\x81"  # PC, low byte first


def test_read_pops_pc_and_takes_iff1_from_iff2() -> None:
    snap = read_sna(write_sna(example()))
    assert (snap.pc, snap.sp) == (0x8123, 0xFF40)
    assert dataclasses.replace(snap, ram=example().ram) == example()
    data = bytearray(write_sna(example()))
    data[19] = 0
    assert (read_sna(bytes(data)).iff1, read_sna(bytes(data)).iff2) == (0, 0)


def test_the_push_changes_two_bytes_below_sp() -> None:
    snap = example()
    back = read_sna(write_sna(snap))
    diff = [i for i in range(49_152) if back.ram[i] != snap.ram[i]]
    assert diff == [0xFF3E - 0x4000, 0xFF3F - 0x4000]
    assert back.word(0xFF3E) == 0x8123


def test_stack_at_the_top_of_memory_wraps() -> None:
    snap = dataclasses.replace(example(), sp=0x0000)  # the push goes to 0xFFFE
    back = read_sna(write_sna(snap))
    assert (back.sp, back.pc) == (0x0000, 0x8123)


@SLOW
@given(snapshot_specs(tstates=False, issue2=False))
def test_read_of_write_gives_the_snapshot_with_pc_on_the_stack(spec: SnapshotSpec) -> None:
    snap = make_snapshot(spec)
    snap = dataclasses.replace(snap, sp=snap.sp if snap.sp >= 0x4002 or snap.sp == 0 else 0x8000,
                               iff1=snap.iff2)
    back = read_sna(write_sna(snap))
    pushed = bytearray(snap.ram)
    at = (snap.sp - 2) & 0xFFFF
    pushed[at - 0x4000:at - 0x4000 + 2] = snap.pc.to_bytes(2, "little")
    assert back == dataclasses.replace(snap, ram=bytes(pushed))


@SLOW
@given(st.binary(min_size=27, max_size=27), st.integers(0x4000, 0xFFFE), ram_specs)
def test_write_of_read_gives_the_file(header: bytes, sp: int, spec: RamSpec) -> None:
    fields = bytearray(header)
    fields[19] &= 0x04
    fields[23:25] = sp.to_bytes(2, "little")
    fields[25] %= 3
    fields[26] &= 7
    data = bytes(fields) + make_ram(spec)
    assert write_sna(read_sna(data)) == data


@pytest.mark.parametrize(("data", "message"), [
    (bytes(26), "g.sna: short header: 26 bytes, a .sna has 27"),
    (bytes(49_180), "g.sna: bad length 49,180 bytes: a 48K .sna has exactly 49,179"),
    (bytes(131_103), "g.sna: 131,103 bytes is a 128K .sna; only 48K is supported"),
    (bytes(147_487), "g.sna: 147,487 bytes is a 128K .sna; only 48K is supported"),
    (bytes(25) + b"\x03\x00" + bytes(49_152), "g.sna: bad interrupt mode 3"),
    (bytes(23) + b"\xff\x3f\x01\x00" + bytes(49_152), "g.sna: SP = 0x3fff: the stacked PC"),
    (bytes(23) + b"\xff\xff\x01\x00" + bytes(49_152), "g.sna: SP = 0xffff"),
], ids=["short", "length", "128k", "128k-trdos", "im3", "sp-rom", "sp-top"])
def test_bad_files(data: bytes, message: str) -> None:
    with pytest.raises(SnapshotError) as info:
        read_sna(data, "g.sna")
    assert str(info.value).startswith(message)
    assert info.value.name == "g.sna"


@pytest.mark.parametrize("sp", [0x4000, 0x4001, 0x0001])
def test_writing_refuses_a_stack_in_rom(sp: int) -> None:
    with pytest.raises(SnapshotError, match=r"out.sna: cannot push PC: SP = 0x[0-9a-f]{4} puts "
                                            r"the stacked PC at 0x[0-9a-f]{4}, which is ROM"):
        write_sna(dataclasses.replace(example(), sp=sp), "out.sna")


@pytest.mark.parametrize(("field", "value", "message"), [
    ("a", 256, "a = 256 is outside 0..255"),
    ("pc", -1, "pc = -1 is outside 0..65535"),
    ("im", 3, "im = 3 is outside 0..2"),
    ("border", 8, "border = 8 is outside 0..7"),
    ("tstates", 69_888, "tstates = 69888 is outside 0..69887"),
    ("ram", b"\x00", "ram is 1 bytes, expected 49,152"),
])
def test_out_of_range_fields_are_refused(field: str, value: object, message: str) -> None:
    with pytest.raises(SnapshotError, match=f"x.sna: {message}"):
        write_sna(dataclasses.replace(example(), **{field: value}), "x.sna")


def test_snapshot_helpers() -> None:
    snap = example()
    assert snapshot.REGISTERS == snapshot.REGISTER_NAMES
    assert snap.registers()["ix"] == 0x1234 and len(snap.registers()) == 25
    assert set(snapshot.REGISTERS) < set(snapshot.FIELDS)
    assert Snapshot(ram=bytearray(49_152)).ram == bytes(49_152)  # stored as bytes
    assert snap.word(0x8000) == 0x0201


# -- load and save ----------------------------------------------------------------------------


def test_load_and_save_by_suffix(tmp_path) -> None:  # type: ignore[no-untyped-def]
    snap = dataclasses.replace(example(), tstates=1234)
    snapshot.save(tmp_path / "a.SNA", snap)
    assert (tmp_path / "a.SNA").stat().st_size == 49_179
    assert snapshot.load(tmp_path / "a.SNA").pc == 0x8123
    snapshot.save(tmp_path / "b.z80", snap)
    assert snapshot.load(str(tmp_path / "b.z80")) == snap
    snapshot.save(tmp_path / "c.z80", snap, version=1, compress=False)
    assert (tmp_path / "c.z80").stat().st_size == 30 + 49_152


def test_load_and_save_errors_name_the_path(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SnapshotError, match=r"x\.sz: unknown snapshot type '\.sz' \(expected "
                                            r"\.szx, \.sna or \.z80\)"):
        snapshot.load(tmp_path / "x.sz")
    with pytest.raises(SnapshotError, match="(no suffix)"):
        snapshot.save(tmp_path / "noext", example())
    missing = tmp_path / "missing.sna"
    with pytest.raises(SnapshotError, match=f"{missing}: cannot read: No such file"):
        snapshot.load(missing)
    with pytest.raises(SnapshotError, match="cannot write"):
        snapshot.save(tmp_path / "nodir" / "x.sna", example())
    (tmp_path / "short.z80").write_bytes(b"\x00" * 10)
    with pytest.raises(SnapshotError, match="short.z80: short header"):
        snapshot.load(tmp_path / "short.z80")
