"""Snapshots the 48K machine refuses, clearly: 128K ones and unknown types."""

from __future__ import annotations

import pytest

from tests.spectrum.roms import COUNTER_ROM, rom
from zxmonopoly.snapshot import SnapshotError
from zxmonopoly.spectrum import Spectrum48

# -- snapshots --------------------------------------------------------------------------------


def test_128k_z80_snapshot_is_refused_clearly(engine, tmp_path):
    m = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    m.run_frames(2)
    good = tmp_path / "game.z80"
    m.save_snapshot(good)
    data = bytearray(good.read_bytes())
    assert data[6:8] == b"\0\0" and data[30] == 54  # version 3, PC in the extra header
    data[34] = 4  # hardware type 4 in a version 3 file: 128K
    bad = tmp_path / "game128.z80"
    bad.write_bytes(bytes(data))
    memory = bytes(m.memory)
    with pytest.raises(SnapshotError, match=r"game128\.z80: unsupported hardware type 4 \(128K\)"):
        m.load_snapshot(bad)
    assert bytes(m.memory) == memory  # nothing loaded


def test_128k_sna_is_refused_clearly(engine, tmp_path):
    m = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    bad = tmp_path / "game128.sna"
    bad.write_bytes(bytes(131_103))
    with pytest.raises(SnapshotError, match=r"game128\.sna: 131,103 bytes is a 128K \.sna"):
        m.load_snapshot(bad)


def test_snapshot_of_unknown_type_is_refused(engine, tmp_path):
    m = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    with pytest.raises(SnapshotError, match=r"state\.dsk.*unknown snapshot type"):
        m.load_snapshot(tmp_path / "state.dsk")
