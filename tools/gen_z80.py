#!/usr/bin/env python3
"""Generate the Z80 execution loops from the description in ``src/zxmonopoly/z80``.

From the one description (``isa.py``: the opcode tables; ``templates.py``: the code of each
instruction; ``machine_cycles.py``: its machine cycles) it writes two engines for each of two
machines:

* ``_engine_py.py``: one CPython function, every instruction inline;
* ``_engine_jit.py``: the same leaves split into one numba function per prefix table (numba's
  compile time grows steeply with the size of one function);

for the bare CPU (in ``src/zxmonopoly/z80/``) and for the Spectrum 48K (in
``src/zxmonopoly/spectrum/``); and for the bare CPU's CPython block engine
(``zxmonopoly.z80.blocks``) its pieces, ``_blocks_py.py``: each instruction's code as a
translated block runs it. The generator knows only the Z80 and a small machine interface
(contended memory and its delay, the window where contention can fall, the I/O cycle, what IN
reads and OUT does, the machine's locals and arrays); the 48K's answers are a description in
``src/zxmonopoly/spectrum/ula.py``, plugged in as a ``Variant``'s ``machine``. The generator's
parts are the package ``tools/z80gen`` (dispatch, cycles, leaves, the run function's shell, the
analysis of the code it makes, the CPython, numba and block emitters); this script is its
command. All five files are committed; ``tests/z80/test_generated.py`` and ``tools/regen.py
--check`` fail when running this again would change them. Files whose text would not change
are left alone (numba's cache of a JIT engine is keyed on the file's time stamp).

Usage: ``python tools/gen_z80.py [--check]``
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

from z80gen.emit_blocks import gen_blocks  # noqa: E402
from z80gen.emit_numba import gen_jit  # noqa: E402
from z80gen.emit_python import gen_python  # noqa: E402
from z80gen.variant import BARE, BARE_FREE, BARE_JIT, MACHINE, MACHINE_JIT  # noqa: E402

PACKAGE_DIR = ROOT / "src" / "zxmonopoly"

# Each engine beside what it runs: the bare CPU's in z80/, the Spectrum's in spectrum/.
OUTPUTS: dict[str, Callable[[], str]] = {
    "z80/_engine_py.py": lambda: gen_python(BARE, BARE_FREE),
    "z80/_engine_jit.py": lambda: gen_jit(BARE_JIT),
    "spectrum/_engine_py.py": lambda: gen_python(MACHINE),
    "spectrum/_engine_jit.py": lambda: gen_jit(MACHINE_JIT),
}
#: Not engines: the block engine's pieces (``zxmonopoly.z80.blocks`` runs them).
PIECES: dict[str, Callable[[], str]] = {
    "z80/_blocks_py.py": gen_blocks,
}


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the generated engines."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if a file would change")
    args_ = ap.parse_args(argv)
    stale = []
    for name, make in {**OUTPUTS, **PIECES}.items():
        path = PACKAGE_DIR / name
        text = make()
        if args_.check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        elif path.exists() and path.read_text() == text:
            # Left as it is: numba's cache of a JIT engine is keyed on the file's time stamp.
            print(f"unchanged {path.relative_to(ROOT)}")
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python tools/gen_z80.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
