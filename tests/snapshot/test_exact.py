"""A snapshot restores the exact moment: saved at seven kinds of moment, reloaded in a fresh
machine, both run 300 frames and end with the same registers, CPU state and RAM.

The programs run on our ROM (its IM 1 handler reads the keyboard) and are written to notice any
difference: each pass stores R, the floating bus (which depends on the T-state), the flags of
BIT n,(HL) (MEMPTR) and of SCF after an ALU operation (Q).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from zxmonopoly import images, snapshot
from zxmonopoly.asm import assemble
from zxmonopoly.memory_map import ROM_SIZE
from zxmonopoly.snapshot import Snapshot
from zxmonopoly.spectrum import Spectrum48
from zxmonopoly.spectrum.keyboard import keys_for_text
from zxmonopoly.spectrum.timing import BOOT_FRAMES

ENGINE = "jit"
FRAMES_AFTER = 300
ORIGIN = 0x8000

WORK = """
work:   LD A,R
        LD HL,(ptr)
        LD (HL),A
        INC HL
        IN A,(0xFF)             ; the floating bus: the T-state shows
        LD (HL),A
        INC HL
        BIT 3,(HL)              ; flags 3 and 5 from MEMPTR
        PUSH AF
        POP BC
        LD (HL),C
        INC HL
        ADD A,C
        SCF                     ; flags 3 and 5 from Q
        PUSH AF
        POP BC
        LD (HL),C
        INC HL
        LD A,H
        CP 0xF0
        JR C,.keep
        LD HL,0xC000
.keep:  LD (ptr),HL
        RET
ptr:    DW 0xC000
"""

PROGRAMS = {
    # IM 1 (the ROM's handler), never halted.
    "busy": "        IM 1\n        EI\nloop:   CALL work\n        JR loop\n",
    # IM 1, one pass of work per frame, halted the rest of it.
    "halting": "        IM 1\n        EI\nloop:   HALT\n        CALL work\n        JR loop\n",
    # Interrupts off.
    "di": "        DI\nloop:   CALL work\n        JR loop\n",
    # IM 2 through a vector at 0x90FF, halted between frames.
    "im2": """        LD A,0x90
        LD I,A
        LD HL,isr
        LD (0x90FF),HL
        IM 2
        EI
loop:   HALT
        CALL work
        JR loop
isr:    PUSH AF
        PUSH BC
        PUSH HL
        CALL work
        POP HL
        POP BC
        POP AF
        EI
        RETI
""",
}


def booted() -> Spectrum48:
    """Our ROM after its boot, idle in the editor."""
    m = Spectrum48(engine=ENGINE)
    m.run_frames(BOOT_FRAMES)
    return m


def start(program: str) -> Spectrum48:
    """A booted machine running ``program`` from ORIGIN for a few frames."""
    m = booted()
    code = assemble(f"        ORG {ORIGIN}\n        DI\n        LD SP,0xBF00\n{program}{WORK}",
                    "<exact>").binary(ORIGIN)
    m.memory[ORIGIN:ORIGIN + len(code)] = code
    m.cpu.pc = ORIGIN
    m.run_frames(3)
    return m


def mid_frame(m: Spectrum48, t: int) -> None:
    """Run instruction by instruction until the frame's T-state reaches ``t``."""
    while m.tstates < t:
        m.step()


def loading() -> Spectrum48:
    """The game's tape loading in real time, caught in the middle of a data block."""
    m = booted()
    m.deck.set_fast(False)
    m.deck.insert(images.game_tape_path())
    for combo in keys_for_text('j""\n'):
        m.tap(combo)
    m.deck.play()
    m.run_frames(400)
    mid_frame(m, 40_000)
    return m


def moment(kind: str) -> Spectrum48:
    """A machine at the moment ``kind``."""
    if kind == "frame end":
        return start(PROGRAMS["busy"])
    if kind == "mid-frame":
        m = start(PROGRAMS["busy"])
        mid_frame(m, 30_001)
        return m
    if kind == "halted at frame end":
        m = start(PROGRAMS["halting"])
        assert m.cpu.halted and m.tstates < 32 and m.cpu.iff1
        return m
    if kind == "halted mid-frame":
        m = start(PROGRAMS["halting"])
        mid_frame(m, 50_000)
        assert m.cpu.halted
        return m
    if kind == "interrupts off":
        m = start(PROGRAMS["di"])
        mid_frame(m, 20_003)
        return m
    if kind == "IM 2":
        m = start(PROGRAMS["im2"])
        assert m.cpu.halted and m.cpu.im == 2
        return m
    assert kind == "tape load"
    return loading()


MOMENTS = ("frame end", "mid-frame", "halted at frame end", "halted mid-frame",
           "interrupts off", "IM 2", "tape load")


def copy_tape(source: Spectrum48, target: Spectrum48) -> None:
    """The same tape, at the same place, in ``target`` (snapshots do not hold the tape)."""
    if source.deck.name is None:
        return
    target.deck.set_fast(source.deck.fast)
    target.deck.insert(source.deck.name)
    target.deck.seek(source.deck.position())
    if source.deck.playing:
        target.deck.play()


def state(m: Spectrum48) -> Snapshot:
    """Everything a snapshot holds, as the machine has it now."""
    return m.to_snapshot()


def reload(m: Spectrum48, how: str, tmp_path: Path) -> Spectrum48:
    """A fresh machine given ``m``'s moment through ``how`` (a suffix, or "memory")."""
    fresh = Spectrum48(engine=ENGINE)
    if how == "memory":
        fresh.from_snapshot(m.to_snapshot())
    else:
        path = tmp_path / f"moment{how}"
        m.save_snapshot(path)
        fresh.load_snapshot(path)
    copy_tape(m, fresh)  # after the load: the tape runs by the frame's T-state
    return fresh


@pytest.mark.parametrize("how", ["memory", ".szx"])
@pytest.mark.parametrize("kind", MOMENTS)
def test_a_snapshot_restores_the_exact_moment(kind: str, how: str, tmp_path: Path) -> None:
    m = moment(kind)
    copy = reload(m, how, tmp_path)
    assert state(copy) == state(m)
    for _ in range(FRAMES_AFTER // 50):
        m.run_frames(50)
        copy.run_frames(50)
        assert state(copy) == state(m), f"{kind}: apart after frame {m.frame}"


@pytest.mark.parametrize("kind", MOMENTS)
def test_a_z80_v3_snapshot_runs_the_same_future(kind: str, tmp_path: Path) -> None:
    # .z80 holds no HALT, MEMPTR, Q or EI flag: a halted moment is written as an equivalent
    # running one (Snapshot.settled). At these moments the futures are the same: compared
    # from the first frame end on.
    m = moment(kind)
    copy = reload(m, ".z80", tmp_path)
    for _ in range(FRAMES_AFTER // 50):
        m.run_frames(50)
        copy.run_frames(50)
        assert state(copy) == state(m), f"{kind}: apart after frame {m.frame}"


def test_an_interrupt_due_on_a_halted_cpu_pushes_the_address_after_the_halt() -> None:
    # The defect: loading cleared HALT, so the interrupt pushed the HALT's own address and
    # the copy halted again, a frame behind.
    m = start(PROGRAMS["halting"])
    snap = m.to_snapshot()
    assert snap.halted and snap.interrupt_due()
    settled = snap.settled(rom=m.rom)
    assert not settled.halted and settled.pc == 0x38
    assert settled.word(settled.sp) == snap.pc + 1
    assert settled.tstates == snap.tstates + 13 and settled.iff1 == 0
    fresh = Spectrum48(engine=ENGINE)
    fresh.from_snapshot(settled)
    m.run_frames(5)
    fresh.run_frames(5)
    assert state(fresh) == state(m)


def test_a_halted_moment_without_an_interrupt_due_is_the_halt_run_again() -> None:
    m = start(PROGRAMS["halting"])
    mid_frame(m, 40_000)
    snap = m.to_snapshot()
    settled = snap.settled()
    assert snap.halted and not settled.halted
    assert (settled.pc, settled.r, settled.tstates, settled.ram) == (snap.pc, snap.r,
                                                                     snap.tstates, snap.ram)


def test_ld_a_i_before_an_interrupt_is_settled_into_the_flags() -> None:
    snap = Snapshot(f=0xFF, q=0xFF, iff1=1, iff2=1, im=1, sp=0xC000, tstates=4,
                    ldair_last=True)
    settled = snap.settled()
    assert settled.f == 0xFB and settled.q == 0xFB and not settled.ldair_last
    later = Snapshot(f=0xFF, iff1=1, iff2=1, tstates=400, ldair_last=True).settled()
    assert later.f == 0xFF  # no interrupt follows: nothing to clear


def test_settling_an_im2_vector_in_rom_needs_the_rom() -> None:
    snap = Snapshot(i=0x10, im=2, iff1=1, iff2=1, sp=0xC000, halted=True, pc=0x8000)
    with pytest.raises(snapshot.SnapshotError, match="IM 2 vector at 0x10ff is in ROM"):
        snap.settled()
    rom = bytearray(ROM_SIZE)
    rom[0x10FF:0x1101] = b"\x34\x12"
    assert snap.settled(rom=bytes(rom)).pc == 0x1234
