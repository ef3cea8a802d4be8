"""Snapshot formats (.sna, .z80) for the 48K; imports nothing of the emulator.

``load(path)`` and ``save(path, snap)`` pick the format by the file's suffix; ``docs/snapshots.md``
describes the formats, their caveats and the errors.
"""

from __future__ import annotations

import os
from pathlib import Path

from .sna import read_sna, write_sna
from .state import (
    FIELDS,
    RAM_SIZE,
    RAM_START,
    REGISTER_NAMES,
    REGISTERS,
    Snapshot,
    SnapshotError,
)
from .z80 import read_z80, write_z80

__all__ = ["FIELDS", "RAM_SIZE", "RAM_START", "REGISTER_NAMES", "REGISTERS", "Snapshot",
           "SnapshotError", "SUFFIXES", "load", "read_sna", "read_z80", "save", "write_sna",
           "write_z80"]

SUFFIXES = (".sna", ".z80")


def _suffix(path: str | os.PathLike[str]) -> str:
    """The lower-case suffix of ``path``, checked to be one this package reads and writes."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise SnapshotError(os.fspath(path), f"unknown snapshot type {suffix or '(no suffix)'!r}"
                                             " (expected .sna or .z80)")
    return suffix


def load(path: str | os.PathLike[str]) -> Snapshot:
    """Read a .sna or .z80 file (chosen by suffix)."""
    name = os.fspath(path)
    suffix = _suffix(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SnapshotError(name, f"cannot read: {exc.strerror or exc}") from None
    return read_sna(data, name) if suffix == ".sna" else read_z80(data, name)


def save(path: str | os.PathLike[str], snap: Snapshot, *, version: int = 3,
         compress: bool = True) -> None:
    """Write a .sna or .z80 file (chosen by suffix; ``version`` and ``compress`` are for .z80)."""
    name = os.fspath(path)
    if _suffix(path) == ".sna":
        data = write_sna(snap, name)
    else:
        data = write_z80(snap, version, compress, name)
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise SnapshotError(name, f"cannot write: {exc.strerror or exc}") from None
