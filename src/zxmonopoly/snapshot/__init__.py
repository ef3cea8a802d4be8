"""Snapshot formats (.szx, .sna, .z80) for the 48K; imports nothing of the emulator.

``load(path)`` and ``save(path, snap)`` pick the format by the file's suffix; ``docs/snapshots.md``
describes the formats, their caveats and the errors.
"""

from __future__ import annotations

import os
from pathlib import Path

from zxmonopoly.files import read_regular

from .sna import read_sna, write_sna
from .state import (
    CPU_EXTRAS,
    FIELDS,
    RAM_SIZE,
    RAM_START,
    REGISTER_NAMES,
    REGISTERS,
    Snapshot,
    SnapshotError,
)
from .szx import read_szx, szx_rom, write_szx
from .z80 import read_z80, write_z80

__all__ = ["CPU_EXTRAS", "DEFAULT_SUFFIX", "EXACT_SUFFIXES", "FIELDS", "MAX_FILE_SIZE",
           "RAM_SIZE", "RAM_START", "REGISTER_NAMES", "REGISTERS", "Snapshot", "SnapshotError",
           "SUFFIXES", "load", "read_sna", "read_szx", "read_z80", "save", "write_sna",
           "write_szx", "write_z80", "szx_rom"]

SUFFIXES = (".szx", ".sna", ".z80")
#: The format that keeps every moment exactly (HALT, T-state, MEMPTR, Q): what we write.
DEFAULT_SUFFIX = ".szx"
#: Formats whose copy of a moment runs the same future exactly (docs/snapshots.md).
EXACT_SUFFIXES = (".szx",)
#: Larger files are refused before reading: the largest 48K snapshot is about 50K (a .szx
#: with RAM stored raw and a long creator block far less than this).
MAX_FILE_SIZE = 1 << 20


def _suffix(path: str | os.PathLike[str]) -> str:
    """The lower-case suffix of ``path``, checked to be one this package reads and writes."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise SnapshotError(os.fspath(path), f"unknown snapshot type {suffix or '(no suffix)'!r}"
                                             " (expected .szx, .sna or .z80)")
    return suffix


def load(path: str | os.PathLike[str]) -> Snapshot:
    """Read a .szx, .sna or .z80 file (chosen by suffix)."""
    name = os.fspath(path)
    suffix = _suffix(path)
    try:
        data = read_regular(path, MAX_FILE_SIZE, "snapshot")
    except OSError as exc:
        raise SnapshotError(name, f"cannot read: {exc.strerror or exc}") from None
    if suffix == ".szx":
        return read_szx(data, name)
    return read_sna(data, name) if suffix == ".sna" else read_z80(data, name)


def save(path: str | os.PathLike[str], snap: Snapshot, *, version: int = 3,
         compress: bool = True, rom: bytes | None = None) -> None:
    """Write a .szx, .sna or .z80 file (chosen by suffix).

    ``version`` is for .z80, ``compress`` for .z80 and .szx; ``rom`` lets the .sna and .z80
    writers settle a halted moment whose IM 2 vector is in ROM (see ``Snapshot.settled``).
    """
    name = os.fspath(path)
    suffix = _suffix(path)
    if suffix == ".szx":
        data = write_szx(snap, name, compress=compress)
    elif suffix == ".sna":
        data = write_sna(snap, name, rom=rom)
    else:
        data = write_z80(snap, version, compress, name, rom=rom)
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise SnapshotError(name, f"cannot write: {exc.strerror or exc}") from None
