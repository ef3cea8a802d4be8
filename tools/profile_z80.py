"""Measure how often each Z80 opcode runs in the product, for the dispatch trees' weights.

The CPython engine finds an opcode's code through a tree of ``if op < k`` tests
(tools/gen_z80.py); the tree is built to need the fewest tests on average under these
frequencies. They are counted, not guessed, in the Z80 code we have - as written, and as the
emulator runs it:

* ``code`` - every instruction of our ROM and of the game as the assembler lays them out,
  each counted once (what programs are made of, not just their hottest loops);
* ``rom`` - our ROM booting from power-on, then its editor waiting for a key;
* ``load`` - ``LOAD ""`` through the EAR bit in real time (the ROM's edge-timing loop);
* ``game`` - the bundled Monopoly: the title, the setup keys, then four computer players.

Frames are sampled (every Nth frame is run one instruction at a time and each opcode
counted: the prefix table's byte for CB/ED/DD/FD, DD and FD together, DDCB counted as its
CB operation, a HALT or LDIR once and not each of its repeats, which the engines pass
without dispatching); each part is scaled to the share given in PARTS, so the result does not
depend on how many frames were sampled. The counts are written to tools/z80_profile.json,
which the generator reads; run ``python tools/gen_z80.py`` after this.

Usage: python tools/profile_z80.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zxmonopoly import images  # noqa: E402
from zxmonopoly.asm.build import GAME, ROM, assemble_target  # noqa: E402
from zxmonopoly.asm.source import INSTRUCTION  # noqa: E402
from zxmonopoly.harness.session import Session  # noqa: E402
from zxmonopoly.harness.tournament import setup_computers  # noqa: E402

OUT = ROOT / "tools" / "z80_profile.json"
TABLES = ("main", "cb", "ed", "dd")
#: Share of each part in the profile: half as written, half as run (mostly play).
PARTS = {"code": 0.5, "rom": 0.1, "load": 0.1, "game": 0.3}
#: Parts-per-million each table's weights are scaled to.
SCALE = 1_000_000
#: LDIR, CPIR, LDDR, CPDR (after ED): they repeat in place.
REPEATING = (0xB0, 0xB1, 0xB8, 0xB9)
#: Where the game's code starts: PC there means the tape has loaded and the game runs.
GAME_START = 0x6000


def count_op(data: bytes, counts: dict[str, Counter[int]]) -> None:
    """Count one instruction's bytes by table (DDCB also as its CB operation)."""
    op = data[0]
    counts["main"][op] += 1
    if op == 0xCB:
        counts["cb"][data[1]] += 1
    elif op == 0xED:
        counts["ed"][data[1]] += 1
    elif op in (0xDD, 0xFD):
        counts["dd"][data[1]] += 1
        if data[1] == 0xCB:
            counts["cb"][data[3]] += 1


def count_code(counts: dict[str, Counter[int]]) -> None:
    """Count every instruction of our ROM and the game once, from the assembler's listing."""
    for target in (ROM, GAME):
        program = assemble_target(ROOT, target)
        for line in program.listing:
            if line.stmt.kind == INSTRUCTION and line.data:
                count_op(line.data, counts)


def count_frame(session: Session, counts: dict[str, Counter[int]]) -> None:
    """Run one frame an instruction at a time, counting each opcode by its table."""
    machine = session.machine
    mem = machine.memory
    frame = machine.frame
    last = -1
    while machine.frame == frame:
        pc = machine.cpu.pc
        op = mem[pc]
        nxt = mem[(pc + 1) & 0xFFFF]
        # The engines pass a HALT's repeats, and a repeating block instruction's, without
        # dispatching again: only the first pass counts.
        if machine.cpu.halted or (pc == last and op == 0xED and nxt in REPEATING):
            machine.step()
            continue
        last = pc
        count_op(bytes(mem[(pc + k) & 0xFFFF] for k in range(4)), counts)
        machine.step()


def sample(session: Session, frames: int, every: int, counts: dict[str, Counter[int]],
           until=None) -> None:
    """Run ``frames`` frames (or until ``until(session)``), counting every ``every``-th."""
    for n in range(frames):
        if until is not None and until(session):
            return
        if n % every == 0:
            count_frame(session, counts)
        else:
            session.machine.run_frames(1)


def profile(quick: bool = False) -> dict[str, dict[str, Counter[int]]]:
    """Counts per part and table."""
    scale = 4 if quick else 1
    parts: dict[str, dict[str, Counter[int]]] = {}
    for part in PARTS:
        parts[part] = {t: Counter() for t in TABLES}
    count_code(parts["code"])
    # Our ROM from power-on, then its editor idling with the K cursor.
    session = Session(boot=False)
    sample(session, 200, 2 * scale, parts["rom"])
    # LOAD "" typed, the tape played through the EAR bit.
    session.load_tape(images.game_tape_path(), fast=False)
    def loaded(s: Session) -> bool:
        return s.machine.cpu.pc >= GAME_START

    sample(session, 6000, 40 * scale, parts["load"], until=loaded)
    # The game: the title, the setup keys, four computer players at the fast setting.
    game = Session.game()
    setup_computers(game, [0, 1, 2, 3], 60, 1234)
    sample(game, 6000 // scale, 15, parts["game"])
    return parts


def combine(parts: dict[str, dict[str, Counter[int]]]) -> dict[str, dict[str, int]]:
    """Each table's counts, the parts scaled to their shares, in parts per million."""
    out: dict[str, dict[str, int]] = {}
    for table in TABLES:
        mixed: Counter[int] = Counter()
        for part, share in PARTS.items():
            total = sum(parts[part][table].values())
            for op, n in parts[part][table].items():
                mixed[op] += share * n / total if total else 0
        total = sum(mixed.values())
        out[table] = {f"{op:02X}": round(SCALE * n / total)
                      for op, n in sorted(mixed.items()) if round(SCALE * n / total)}
    return out


def main(argv: list[str] | None = None) -> int:
    """Profile and write tools/z80_profile.json."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="sample fewer frames")
    args = ap.parse_args(argv)
    parts = profile(args.quick)
    for part, tables in parts.items():
        print(f"{part}: " + ", ".join(f"{t} {sum(c.values()):,}" for t, c in tables.items()))
    data = {"parts": PARTS, "scale": SCALE, **combine(parts)}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
