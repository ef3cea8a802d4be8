"""The build: ``roms/main.asm`` -> 16K ROM image, ``src/game/main.asm`` -> game tape (with the
loading screen ``src/game/loading.scr`` between loader and code), ``src/bench/busy.asm`` -> the
machine benchmark's 16K ROM, each with its symbol map and listing, into ``src/zxmonopoly/data/``.

The built images are committed and shipped as package data, read through
:mod:`zxmonopoly.images`; only ``tools/build.py`` (and ``tools/regen.py``) run this build. Whether
they are those of the sources is judged by a digest of their contents kept in
``build.stamp.json`` (never by file times, so it is deterministic).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from zxmonopoly import images
from zxmonopoly.memory_map import ROM_SIZE

from .assembler import Assembler, Program
from .errors import AsmError, AssemblerError, Diagnostic
from .output import listing_text, symbols_json, tape_image

ROM_FILL = 0xFF  # unused ROM bytes read as an erased EPROM's
GAME_TAPE_NAME = "monopoly"  # the name in the tape's headers
LOADING_SCREEN = "loading.scr"  # the game's SCREEN$ (tools/gen_loading_screen.py), if present

PACKAGE_DIR = Path(__file__).resolve().parents[1]
DATA_DIR = images.DATA_DIR
STAMP = "build.stamp.json"
SOURCE_SUFFIXES = frozenset({".asm", ".inc", ".bin", ".scr", ".dat", ".fnt", ".json"})


@dataclass(frozen=True)
class Target:
    """One thing the build makes: its main source (relative to the root) and output names."""

    name: str
    source: str
    image: str

    def tree(self, root: Path) -> Path:
        """The source directory the target's files live in."""
        return (root / self.source).parent


ROM = Target("rom", "roms/main.asm", images.ROM_IMAGE)
GAME = Target("game", "src/game/main.asm", images.GAME_TAPE)
BENCH = Target("bench", "src/bench/busy.asm", images.BUSY_ROM_IMAGE)
TARGETS = (ROM, GAME, BENCH)
#: The targets whose image is a 16K ROM (the others are tapes).
ROM_TARGETS = (ROM, BENCH)


@dataclass
class BuildReport:
    """What a build did: per target, the files written or the reason it was skipped; the
    diagnostics (a failed build's errors, or a good build's warnings)."""

    built: dict[str, list[Path]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


class BuildError(AssemblerError):
    """A target failed to assemble; carries the diagnostics."""

    def __init__(self, target: str, diagnostics: list[Diagnostic]) -> None:
        text = "\n".join(d.format() for d in diagnostics)
        super().__init__(f"building {target} failed:\n{text}")
        self.diagnostics = diagnostics


def _write(path: Path, data: bytes) -> Path:
    # Rewrite only on change, so an unchanged build leaves files (and their times) alone;
    # through a temporary file and a rename, so that a process building at the same time
    # (pytest-xdist workers on first use) never reads half a file.
    if not path.is_file() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    return path


def assemble_target(root: Path, target: Target) -> Program:
    """Assemble a target's main source; raises BuildError with every diagnostic."""
    asm = Assembler(include_dirs=[target.tree(root)], display_root=root)
    try:
        return asm.assemble_file(root / target.source)
    except AsmError as exc:
        raise BuildError(target.name, exc.diagnostics) from None


def rom_image(program: Program, target: Target = ROM) -> bytes:
    """The 16,384-byte ROM: addresses 0..$3FFF, unused bytes $FF."""
    end = program.end or 0
    if end > ROM_SIZE:
        raise BuildError(target.name, [Diagnostic(target.source, 1, 1,
                                                  f"ROM code reaches ${end - 1:04X}, past $3FFF")])
    return program.binary(0, ROM_SIZE, ROM_FILL)


def build_target(root: Path, target: Target, out_dir: Path) -> list[Path]:
    """Build one target into ``out_dir``; returns the files it holds."""
    return write_target(root, assemble_target(root, target), target, out_dir)


def write_target(root: Path, program: Program, target: Target, out_dir: Path) -> list[Path]:
    """Write an assembled target's image, symbol map and listing into ``out_dir``."""
    if target in ROM_TARGETS:
        image = rom_image(program, target)
    else:
        screen = target.tree(root) / LOADING_SCREEN
        image = tape_image(program, GAME_TAPE_NAME,
                           screen=screen.read_bytes() if screen.is_file() else None)
    path = out_dir / target.image
    return [
        _write(path, image),
        _write(images.symbols_beside(path), symbols_json(program).encode()),
        _write(images.listing_beside(path), listing_text(program).encode()),
    ]


def source_digest(root: Path) -> dict[str, str]:
    """Per target, a digest of every source file in its tree and of the assembler itself."""
    tool = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for path in sorted(here.glob("*.py")) + [PACKAGE_DIR / "basic.py",
                                              PACKAGE_DIR / "tape" / "tap.py",
                                              PACKAGE_DIR / "z80" / "isa.py",
                                              PACKAGE_DIR / "memory_map.py"]:
        if path.is_file():
            tool.update(path.name.encode() + b"\0" + path.read_bytes())
    out: dict[str, str] = {}
    for target in TARGETS:
        tree = target.tree(root)
        if not (root / target.source).is_file():
            continue
        h = tool.copy()
        for path in sorted(p for p in tree.rglob("*")
                           if p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES):
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
        out[target.name] = h.hexdigest()
    return out


def build_all(root: Path, out_dir: Path = DATA_DIR) -> BuildReport:
    """Build every target whose source tree exists; missing trees are skipped, not errors."""
    report = BuildReport()
    failed: list[str] = []
    for target in TARGETS:
        if not (root / target.source).is_file():
            report.skipped[target.name] = f"{target.source} does not exist yet"
            continue
        try:
            program = assemble_target(root, target)
            report.diagnostics += program.diagnostics  # warnings: errors raise
            report.built[target.name] = write_target(root, program, target, out_dir)
        except BuildError as exc:
            failed.append(target.name)
            report.diagnostics += exc.diagnostics
    if failed:
        raise BuildError(" and ".join(failed), report.diagnostics)
    if not report.built:
        return report
    stamp = json.dumps(source_digest(root), indent=1, sort_keys=True) + "\n"
    _write(out_dir / STAMP, stamp.encode())
    return report


def is_fresh(root: Path, out_dir: Path = DATA_DIR) -> bool:
    """Whether ``out_dir`` holds the build of the current sources (trivially, with none)."""
    digest = source_digest(root)
    if not digest:
        return True
    stamp = out_dir / STAMP
    if not stamp.is_file():
        return False
    try:
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
    except ValueError:
        return False
    if recorded != digest:
        return False
    return all((out_dir / t.image).is_file() for t in TARGETS if t.name in recorded)

