"""The built images shipped with the package, read-only: our ROM, the game tape, symbol maps,
and the busy ROM the machine benchmark runs.

``tools/build.py`` assembles ``roms/`` and ``src/game/`` into ``src/zxmonopoly/data/`` and the
files are committed and shipped as package data; this module only reads them. Nothing here
assembles or writes, so the machine does not depend on the assembler and an installed package
never writes into itself. A test (tests/asm/test_build.py) checks that the shipped files are
those of the sources.
"""

from __future__ import annotations

import json
from pathlib import Path

#: The directory of the shipped images.
DATA_DIR = Path(__file__).resolve().parent / "data"

#: File names in :data:`DATA_DIR`, as the build writes them.
ROM_IMAGE = "rom.bin"
GAME_TAPE = "monopoly.tap"
BUSY_ROM_IMAGE = "busy.bin"
SYMBOLS_SUFFIX = ".sym.json"
LISTING_SUFFIX = ".lst"


class ImageMissing(FileNotFoundError):
    """A shipped image is not there (a checkout whose build has not been run)."""


def symbols_beside(image: str | Path) -> Path:
    """The symbol map the build writes beside an image: ``NAME.sym.json`` for ``NAME.tap``."""
    path = Path(image)
    return path.with_name(path.stem + SYMBOLS_SUFFIX)


def listing_beside(image: str | Path) -> Path:
    """The listing the build writes beside an image: ``NAME.lst`` for ``NAME.tap``."""
    path = Path(image)
    return path.with_name(path.stem + LISTING_SUFFIX)


ROM_SYMBOLS = symbols_beside(ROM_IMAGE).name
GAME_SYMBOLS = symbols_beside(GAME_TAPE).name


def _shipped(name: str) -> Path:
    path = DATA_DIR / name
    if not path.is_file():
        raise ImageMissing(f"{path} is missing: run 'python tools/build.py' in a checkout")
    return path


def rom_path() -> Path:
    """Path of our 16K ROM image."""
    return _shipped(ROM_IMAGE)


def rom() -> bytes:
    """Our ROM's 16,384 bytes."""
    return rom_path().read_bytes()


def rom_symbols_path() -> Path:
    """Path of our ROM's symbol map."""
    return _shipped(ROM_SYMBOLS)


def game_tape_path() -> Path:
    """Path of the Monopoly tape (a TAP file: BASIC loader and the game's code)."""
    return _shipped(GAME_TAPE)


def game_tape() -> bytes:
    """The Monopoly tape's bytes."""
    return game_tape_path().read_bytes()


def game_symbols_path() -> Path:
    """Path of the game's symbol map (the harness's contract with the game)."""
    return _shipped(GAME_SYMBOLS)


def game_symbols() -> dict[str, int]:
    """The game's symbol map as name -> value."""
    path = game_symbols_path()
    entries = json.loads(path.read_text(encoding="utf-8"))
    return {name: int(entry["value"]) for name, entry in entries.items()}


def busy_rom() -> bytes:
    """The machine benchmark's 16K ROM (``src/bench/busy.asm``: busy, never halting)."""
    return _shipped(BUSY_ROM_IMAGE).read_bytes()
