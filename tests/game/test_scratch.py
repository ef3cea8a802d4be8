"""Every byte the game writes lies in its state block or its scratch block (issue 19).

The rule (src/game/scratch.asm's header): the program is code and read-only data from
GAME_ORIGIN up to v_state, then the state block (vars.asm) and the working variables
(scratch.asm) up to program_end.  A store may write

* the state block v_state..v_state_end or the scratch block v_scratch..v_scratch_end;
* the Spectrum's RAM below the program, SCREEN..GAME_ORIGIN (display and attribute files,
  the ROM's system variables such as CHARS);
* the stack and the IM 2 table and jump, STACK_LIMIT..0FFFFh (above program_end);
* the close-up's picture drawn off the screen, CU_PICTURE..CU_PICTURE_END (above
  program_end, below STACK_LIMIT; written through scr_cell_addr's pointers).

Anything else - the ROM, or the program's code and read-only data - is a misplaced
variable (a byte kept between instructions, or an instruction's operand changed).  The
assembly's direct stores (``LD (nn),r``) are checked one by one; stores through a pointer
(``LD (HL),A`` after ``LD HL,label``) are caught by playing a game and comparing the
program's read-only part with what the tape loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from zxmonopoly.asm import Program, Store
from zxmonopoly.asm.build import GAME, assemble_target
from zxmonopoly.z80 import default_engine

ROOT = Path(__file__).resolve().parents[2]
ADDRESS_SPACE = 0x10000


@pytest.fixture(scope="module")
def program() -> Program:
    """The game as tools/build.py assembles it, from the sources."""
    return assemble_target(ROOT, GAME)


def writable(program: Program) -> list[tuple[int, int, str]]:
    """The address ranges [start, end) a store may write, each with its name."""
    v = program.values
    ranges = [(v["v_state"], v["v_state_end"], "the state block"),
              (v["v_scratch"], v["v_scratch_end"], "the scratch block"),
              (v["SCREEN"], v["GAME_ORIGIN"], "the Spectrum's RAM below the program"),
              (v["STACK_LIMIT"], ADDRESS_SPACE, "the stack and the IM 2 table")]
    if "CU_PICTURE" in v:  # (the game's; the test's own small program has none)
        ranges.append((v["CU_PICTURE"], v["CU_PICTURE_END"], "the close-up's picture"))
    return ranges


def misplaced(program: Program, store: Store) -> bool:
    """Whether some byte the store writes lies outside every writable range."""
    ranges = writable(program)
    return any(not any(lo <= (store.target + k) < hi for lo, hi, _ in ranges)
               for k in range(store.width))


def describe(program: Program, store: Store) -> str:
    """A misplaced store: where it is, what it writes and the label there."""
    near = max((s for s in program.symbols.values()
                if s.kind == "label" and s.value <= store.target),
               key=lambda s: s.value, default=None)
    what = f"{near.name} ({near.file}:{near.line})" if near is not None else "no label"
    return (f"{store.file}:{store.line}: stores {store.width} byte(s) at {store.target:04X}h "
            f"({', '.join(store.names) or 'a number'}): {what}")


def test_the_blocks_close_the_program(program):
    """Code and read-only data first, then the two writable blocks, and nothing after."""
    v = program.values
    assert v["GAME_ORIGIN"] < v["v_state"] < v["v_state_end"] <= v["v_scratch"]
    assert v["v_state_end"] == v["v_scratch"], "only the state block may come before scratch"
    assert v["v_scratch_end"] == v["program_end"] <= v["STACK_LIMIT"]
    assert v["program_end"] <= v["CU_PICTURE"] < v["CU_PICTURE_END"] <= v["STACK_LIMIT"]


def test_every_direct_store_writes_a_block_or_the_machine(program):
    """Each LD (nn),r of the game writes the state or scratch block, or outside the program."""
    assert len(program.stores) > 300  # the check sees the game's stores (377 in issue 19)
    bad = [describe(program, s) for s in program.stores if misplaced(program, s)]
    assert not bad, "stores outside the state and scratch blocks:\n" + "\n".join(bad)


def test_no_written_label_sits_in_the_code(program):
    """Every label a store names that lies in the program is a state or scratch variable."""
    v = program.values
    read_only = range(v["GAME_ORIGIN"], v["v_state"])
    named = {name for s in program.stores for name in s.names}
    inside = sorted(n for n in named
                    if program.symbols[n].kind == "label" and program.symbols[n].value in read_only)
    assert not inside, f"written labels among the code: {', '.join(inside)}"


def test_rule_catches_a_byte_kept_after_a_ret():
    """The check itself: a routine that keeps a byte after its RET is reported."""
    text = """
GAME_ORIGIN equ 0x6000
SCREEN equ 0x4000
STACK_LIMIT equ 0xFC00
        org GAME_ORIGIN
count:  ld (.x), a
        ld (v_seed), a
        ld (0x5C36), hl
        ret
.x:     db 0
v_state:
v_seed: db 0
v_state_end:
v_scratch:
v_scratch_end:
program_end:
"""
    from zxmonopoly.asm import assemble

    p = assemble(text)
    bad = [s for s in p.stores if misplaced(p, s)]
    assert [(s.names, s.target) for s in bad] == [(("count.x",), p.values["count.x"])]
    assert "count.x" in describe(p, bad[0])


def test_a_played_game_changes_nothing_below_the_state_block():
    """Stores through pointers: two computers play a short game from the title to the
    valuation; the program's code and read-only data are still as the tape loaded them."""
    from zxmonopoly.harness.rig import game_code
    from zxmonopoly.harness.session import Session
    from zxmonopoly.harness.tournament import setup_computers

    session = Session.game(engine=default_engine())  # a whole game: the JIT's where it can
    s = session.symbols
    origin, code = game_code()
    assert origin == s["GAME_ORIGIN"]
    read_only = slice(origin, s["v_state"])
    loaded = code[: s["v_state"] - origin]
    setup_computers(session, [s["PERS_RECKLESS"], s["PERS_GREEDY"]], minutes=1, seed=19)
    session.machine.run_until(condition=lambda m: m.memory[s["v_phase"]] == s["PHASE_OVER"],
                              max_frames=20_000)
    assert session.machine.memory[s["v_phase"]] == s["PHASE_OVER"]
    session.wait_input(2000)                       # the valuation table is drawn
    now = bytes(session.machine.memory[read_only])
    changed = [origin + i for i, (a, b) in enumerate(zip(now, loaded, strict=True)) if a != b]
    assert not changed, "written below v_state: " + ", ".join(f"{a:04X}h" for a in changed[:20])
