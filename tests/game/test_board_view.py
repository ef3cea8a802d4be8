"""board.asm's board_is_flat, the one reader of v_flat_board: every drawing routine with a
perspective twin (perspective.asm) asks it which board to draw."""

from __future__ import annotations

import re

import pytest

from tests import REPO_ROOT

Z_FLAG = 0x40


@pytest.mark.parametrize(("flat", "zero"), [(0, True), (1, False)])
def test_it_answers_in_z_and_keeps_the_registers(rig, flat: int, zero: bool) -> None:
    rig.poke("v_flat_board", flat)
    rig.call("board_is_flat", a=0x5A, bc=0x1234)
    cpu = rig.machine.cpu
    assert bool(cpu.f & Z_FLAG) == zero
    assert (cpu.a, cpu.b, cpu.c) == (0x5A, 0x12, 0x34)


def test_no_other_routine_reads_the_setting() -> None:
    readers = []
    for path in sorted((REPO_ROOT / "src" / "game").glob("*.asm")):
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split(";")[0]
            if re.search(r"\bld\s+a,\s*\(v_flat_board\)", code, re.IGNORECASE):
                readers.append(f"{path.name}:{k}")
    # board_is_flat, and the B key's toggle (turn.asm: turn_board_view), which flips it
    assert len(readers) == 2 and readers[0].startswith("board.asm"), readers
    assert readers[1].startswith("turn.asm")
