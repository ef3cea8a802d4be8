"""The build (zxmonopoly.asm.build and tools/build.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import REPO_ROOT
from zxmonopoly import basic, images
from zxmonopoly.asm import build
from zxmonopoly.memory_map import ROM_SIZE
from zxmonopoly.tape import tap

ROM_MAIN = """\
        org 0
        di
        jp boot
        include "tables.asm"
        org 100h
boot:   im 1
        halt
"""
GAME_MAIN = """\
        org 8000h
start:  call init
        ret
        include "init.asm"
"""


def make_tree(root: Path) -> None:
    """A small checkout with a ROM and a game."""
    (root / "roms").mkdir(parents=True)
    (root / "roms" / "main.asm").write_text(ROM_MAIN)
    (root / "roms" / "tables.asm").write_text("        org 38h\n        ei\n        ret\n")
    (root / "src" / "game").mkdir(parents=True)
    (root / "src" / "game" / "main.asm").write_text(GAME_MAIN)
    (root / "src" / "game" / "init.asm").write_text("init:   ld a,1\n        ret\n")


def test_builds_rom_and_game(tmp_path: Path) -> None:
    make_tree(tmp_path)
    out = tmp_path / "data"
    report = build.build_all(tmp_path, out)
    assert sorted(report.built) == ["game", "rom"]
    assert report.skipped == {"bench": "src/bench/busy.asm does not exist yet"}
    rom = (out / "rom.bin").read_bytes()
    assert len(rom) == ROM_SIZE
    assert rom[:4] == bytes([0xF3, 0xC3, 0x00, 0x01])
    assert rom[0x38:0x3A] == bytes([0xFB, 0xC9]) and rom[4] == 0xFF and rom[-1] == 0xFF
    blocks = tap.read_tap((out / "monopoly.tap").read_bytes())
    assert basic.detokenise(blocks[1].data) == \
        '10 CLEAR 32767: LOAD ""CODE : RANDOMIZE USR 32768'
    assert blocks[3].data == bytes([0xCD, 0x04, 0x80, 0xC9, 0x3E, 0x01, 0xC9])
    syms = (out / images.GAME_SYMBOLS).read_text()
    assert '"init": {"file": "src/game/init.asm", "line": 1, "value": 32772}' in syms
    assert (out / "rom.lst").is_file() and (out / "monopoly.lst").is_file()
    assert build.is_fresh(tmp_path, out)


def test_build_is_deterministic_and_freshness_follows_the_sources(tmp_path: Path) -> None:
    make_tree(tmp_path)
    a, b = tmp_path / "a", tmp_path / "b"
    build.build_all(tmp_path, a)
    build.build_all(tmp_path, b)
    for f in sorted(p.name for p in a.iterdir()):
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
    (tmp_path / "src" / "game" / "init.asm").write_text("init:   ld a,2\n        ret\n")
    assert not build.is_fresh(tmp_path, a)
    build.build_all(tmp_path, a)
    assert build.is_fresh(tmp_path, a)
    assert tap.read_tap((a / "monopoly.tap").read_bytes())[3].data[5] == 2


def test_missing_trees_are_skipped(tmp_path: Path) -> None:
    report = build.build_all(tmp_path, tmp_path / "out")
    assert report.skipped == {"rom": "roms/main.asm does not exist yet",
                              "game": "src/game/main.asm does not exist yet",
                              "bench": "src/bench/busy.asm does not exist yet"}
    assert not (tmp_path / "out").exists()


def test_errors_name_every_problem(tmp_path: Path) -> None:
    make_tree(tmp_path)
    (tmp_path / "src" / "game" / "init.asm").write_text("init: ld a,nothing\n")
    (tmp_path / "roms" / "tables.asm").write_text(" org 3fffh\n dw 0\n")
    with pytest.raises(build.BuildError) as info:
        build.build_all(tmp_path, tmp_path / "out")
    assert str(info.value).startswith("building rom and game failed")
    files = [(d.file, d.line) for d in info.value.diagnostics]
    assert files == [("roms/main.asm", 1), ("src/game/init.asm", 1)]


def test_tools_build_script(tmp_path: Path) -> None:
    make_tree(tmp_path)
    run = subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "build.py"), "--root",
                          str(tmp_path), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "rom: " in run.stdout and "game: " in run.stdout
    check = subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "build.py"), "--root",
                            str(tmp_path), "--out", str(tmp_path / "out"), "--check"],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0 and "up to date" in check.stdout
    (tmp_path / "out" / "rom.lst").write_text("edited by hand\n")
    check = subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "build.py"), "--root",
                            str(tmp_path), "--out", str(tmp_path / "out"), "--check"],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 1 and "stale: rom.lst" in check.stdout


def _big_game(root: Path) -> int:
    """A 20,000-line game under ``root``/src/game (1,500 routines that call each other and a
    macro); its number of lines."""
    (root / "src" / "game").mkdir(parents=True)
    parts = ["        org 6000h", "SCREEN  equ 4000h",
             "        macro addhl, v", "        ld de,v", "        add hl,de", "        endm"]
    for k in range(1500):
        parts += [f"; routine {k}", f"routine_{k}:", f"        ld hl,SCREEN+{k}",
                  f"        ld b,{k % 200 + 1}", ".loop   ld a,(hl)", "        and %00001111",
                  "        jr nz,.skip",
                  f"        call routine_{(k * 7) % 1500}", ".skip   djnz .loop",
                  f"        addhl {k}", "        ret", f"msg_{k}: db {k % 256},0", ""]
    (root / "src" / "game" / "main.asm").write_text("\n".join(parts) + "\n")
    return len(parts)


def test_a_20k_line_game_builds(tmp_path: Path) -> None:
    assert _big_game(tmp_path) > 19000
    report = build.build_all(tmp_path, tmp_path / "out")
    (symbol_file,) = [f for f in report.built["game"] if f.name.endswith(".sym.json")]
    symbols = json.loads(symbol_file.read_text())
    assert sum(1 for name in symbols if re.fullmatch(r"routine_\d+", name)) == 1500


@pytest.mark.bench
def test_a_20k_line_game_builds_in_under_3_seconds(tmp_path: Path) -> None:
    _big_game(tmp_path)
    started = time.process_time()
    build.build_all(tmp_path, tmp_path / "out")
    assert time.process_time() - started < 3.0


def test_shipped_images_equal_a_fresh_build(tmp_path: Path) -> None:
    shipped = build.DATA_DIR
    if not any((REPO_ROOT / t.source).is_file() for t in build.TARGETS):
        pytest.skip("roms/ and src/game/ do not exist yet: nothing is built or shipped")
    build.build_all(REPO_ROOT, tmp_path)
    for path in sorted(tmp_path.iterdir()):
        assert (shipped / path.name).is_file(), f"{path.name} is not shipped: run tools/build.py"
        assert (shipped / path.name).read_bytes() == path.read_bytes(), \
            f"shipped {path.name} is stale: run python tools/build.py"


def test_our_rom_and_game_build_without_a_warning() -> None:
    for target in build.TARGETS:
        program = build.assemble_target(REPO_ROOT, target)
        assert [d.format() for d in program.diagnostics] == [], target.source


def test_a_build_prints_its_warnings(tmp_path: Path) -> None:
    make_tree(tmp_path)
    (tmp_path / "src" / "game" / "init.asm").write_text(
        "init:   ld (.n), a\n.n:     ld a,1\n        ret\n")
    run = subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "build.py"), "--root",
                          str(tmp_path), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "src/game/init.asm:1:13: warning: store into code: 'init.n' labels an " \
           "instruction" in run.stderr and "1 warning\n" in run.stderr
