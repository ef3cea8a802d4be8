"""Fixtures for the ROM tests: the ROM is assembled once per session from roms/main.asm."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests import REPO_ROOT
from zxmonopoly.asm import assemble_file
from zxmonopoly.memory_map import ROM_SIZE

from .romkit import Rom, boot


@pytest.fixture(scope="session")
def rom() -> Rom:
    """roms/main.asm assembled: the 16K image and its symbols."""
    program = assemble_file(REPO_ROOT / "roms" / "main.asm")
    image = bytes(program.binary(0, ROM_SIZE)).ljust(ROM_SIZE, b"\xff")[:ROM_SIZE]
    symbols = {name: sym["value"] for name, sym in program.symbol_map().items()}
    return Rom(image, symbols)


@pytest.fixture
def machine(rom: Rom):
    """A Spectrum (python engine) booted with our ROM to the K cursor."""
    return boot(rom)


@pytest.fixture
def fresh(rom: Rom) -> Callable[[], object]:
    """A factory of booted machines, for tests that need more than one."""
    return lambda: boot(rom)
