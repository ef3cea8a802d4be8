"""Fixtures for the ROM tests: the ROM is assembled once per session from roms/main.asm."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests import REPO_ROOT
from zxmonopoly.asm import assemble_file

from .romkit import Rom, boot


@pytest.fixture(scope="session")
def rom() -> Rom:
    """roms/main.asm assembled: the 16K image and its symbols."""
    program = assemble_file(REPO_ROOT / "roms" / "main.asm")
    image = bytes(program.binary(0, 0x4000)).ljust(0x4000, b"\xff")[:0x4000]
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
