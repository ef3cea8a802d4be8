"""The shipped images (zxmonopoly.images): read-only, and the machine apart from the assembler."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests import REPO_ROOT
from zxmonopoly import images
from zxmonopoly.memory_map import ROM_SIZE
from zxmonopoly.spectrum import SpectrumError
from zxmonopoly.spectrum.machine import default_rom


def test_the_shipped_images_are_read_where_the_build_writes_them() -> None:
    assert images.rom_path() == images.DATA_DIR / "rom.bin"
    assert len(images.rom()) == ROM_SIZE
    assert images.game_tape()[:2] == bytes([19, 0])  # a TAP header block: 19 bytes
    assert images.game_symbols_path() == images.symbols_beside(images.game_tape_path())
    entries = json.loads(images.game_symbols_path().read_text())
    symbols = images.game_symbols()
    assert symbols["v_players"] == entries["v_players"]["value"]
    assert images.rom_symbols_path().name == images.ROM_SYMBOLS == "rom.sym.json"


def test_beside_names_follow_the_image() -> None:
    assert images.symbols_beside("a/b/game.tap") == Path("a/b/game.sym.json")
    assert images.listing_beside(Path("rom.bin")) == Path("rom.lst")


def test_a_missing_image_names_the_file_and_the_build(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(images, "DATA_DIR", tmp_path)
    with pytest.raises(images.ImageMissing, match=r"monopoly\.tap is missing: run 'python "
                                                  r"tools/build\.py'"):
        images.game_tape_path()
    with pytest.raises(SpectrumError, match="our ROM is not built .*rom.bin is missing"):
        default_rom()


@pytest.mark.parametrize("module", ["zxmonopoly.spectrum", "zxmonopoly.harness",
                                    "zxmonopoly.harness.rig", "zxmonopoly.harness.script"])
def test_the_machine_and_harness_do_not_import_the_assembler(module: str) -> None:
    code = (f"import sys, {module}; "
            "print(sorted(m for m in sys.modules if m.startswith('zxmonopoly.asm')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO_ROOT, env={"PYTHONPATH": str(REPO_ROOT / "src"),
                                             "PATH": "/usr/bin:/bin"}, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
