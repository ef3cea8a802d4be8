#!/usr/bin/env python3
"""Build roms/ and src/game/ into src/zxmonopoly/data/: ROM image, game tape, symbol maps and
listings. A missing source tree is skipped with a message. ``--check`` builds into a temporary
directory and says whether the shipped files are byte for byte those (exit status 1 if not)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run from a checkout without installing: the package lives in src/.
sys.path.insert(0, str(ROOT / "src"))

from zxmonopoly.asm.build import DATA_DIR, BuildError, build_all  # noqa: E402


def stale_files(root: Path, out: Path) -> list[str]:
    """Names of the files in ``out`` that differ from (or miss) a fresh build of ``root``."""
    with tempfile.TemporaryDirectory(prefix="zxmonopoly-build-") as tmp:
        fresh = Path(tmp)
        build_all(root, fresh)
        return [p.name for p in sorted(fresh.iterdir())
                if not (out / p.name).is_file() or (out / p.name).read_bytes() != p.read_bytes()]


def main(argv: list[str] | None = None) -> int:
    """Build (or check) every target; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout root (default: here)")
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="output directory")
    parser.add_argument("--check", action="store_true",
                        help="do not build; exit 1 if the outputs are not those of the sources")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        if args.check:
            stale = stale_files(args.root, args.out)
            print(f"stale: {', '.join(stale)} (run python tools/build.py)" if stale
                  else "up to date")
            return 1 if stale else 0
        report = build_all(args.root, args.out)
    except BuildError as exc:
        for d in exc.diagnostics:
            print(d.format(), file=sys.stderr)
        print(f"build failed: {len(exc.diagnostics)} diagnostics", file=sys.stderr)
        return 1
    for d in report.diagnostics:
        print(d.format(), file=sys.stderr)
    if report.diagnostics:
        n = len(report.diagnostics)
        print(f"{n} warning{'s' if n != 1 else ''}", file=sys.stderr)
    for name, reason in report.skipped.items():
        print(f"{name}: skipped ({reason})")
    for name, files in report.built.items():
        shown = ", ".join(str(f.relative_to(args.root) if f.is_relative_to(args.root) else f)
                          for f in files)
        print(f"{name}: {shown}")
    print(f"built in {time.perf_counter() - started:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
