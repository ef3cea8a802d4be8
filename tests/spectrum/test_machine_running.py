"""The 48K machine running: IM 2, running to a goal within a budget, a busy program."""

from __future__ import annotations

import pytest

from tests.spectrum.roms import COUNTER_ROM, FRAMES_ADDR, rom
from tests.spectrum.textrom import DEMO_ROM, READY_FRAME
from zxmonopoly.spectrum import Spectrum48

# -- interrupts -------------------------------------------------------------------------------

IM2_FLAG = 0x8010
# IM 2 with I = 0x20: the ULA leaves 0xFF on the bus, so the vector is the word at 0x20FF
# (-> 0x2222, which counts frames). Every other byte of the table points at 0x3030, which
# marks IM2_FLAG and stops.
IM2_ROM = rom(f"""
        ORG 0
        DI
        LD SP,0xFF00
        LD A,0x20
        LD I,A
        IM 2
        EI
loop:   HALT
        JR loop
        DS 0x2000-$
        DS 255,0x30
        DB 0x22,0x22
        DS 0x2222-$
        PUSH HL
        LD HL,({FRAMES_ADDR})
        INC HL
        LD ({FRAMES_ADDR}),HL
        POP HL
        EI
        RETI
        DS 0x3030-$
        LD A,1
        LD ({IM2_FLAG}),A
        DI
        HALT
""")


def test_im2_takes_the_vector_at_i_times_256_plus_ff(engine):
    m = Spectrum48(rom=IM2_ROM, engine=engine)
    m.run_frames(2)
    assert m.run_until(pc=0x2222, max_frames=2)
    # HALTed: accepted at the frame's first instruction boundary; the IM 2 response is 19 T.
    assert 19 <= m.tstates <= 23
    assert m.cpu.im == 2 and m.cpu.iff1 == 0
    before = m.memory[FRAMES_ADDR]
    m.run_frames(30)
    assert m.memory[FRAMES_ADDR] - before == 30
    assert m.memory[IM2_FLAG] == 0


# -- running to a goal ------------------------------------------------------------------------


def test_run_until_a_pc_never_reached_returns_false(engine):
    m = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    m.run_frames(1)
    before = m.frame
    assert m.run_until(pc=0x1234, max_frames=5) is False
    assert m.frame - before >= 5
    assert m.cpu.breakpoints[0x1234] == 0  # the breakpoint is cleared again
    assert m.run_until(condition=lambda _: False, max_frames=3) is False


def test_run_until_spends_exactly_its_budget(engine):
    m = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    before = m.frame
    assert not m.run_until(condition=lambda _: False, max_frames=5)
    assert m.frame - before == 5


def test_run_until_text_finds_text_or_runs_out(engine):
    m = Spectrum48(rom=DEMO_ROM, engine=engine)
    assert not m.run_until_text("READY", max_frames=50)
    assert "HELLO FROM OUR ROM" in m.screen_text()[0]
    assert m.run_until_text("READY", max_frames=READY_FRAME)
    assert m.screen_text()[2].startswith("READY")
    assert READY_FRAME <= m.frame <= READY_FRAME + 2
    assert m.run_until_text("HELLO", max_frames=0)  # already there: no frame needed


# -- benchmark --------------------------------------------------------------------------------


def test_busy_rom_never_halts_and_takes_interrupts(engine):
    from zxmonopoly import bench_workload

    m = Spectrum48(rom=bench_workload.busy_rom(), engine=engine)
    m.run_frames(6)
    assert not m.cpu.halted
    assert m.memory[0x8000] >= 4  # the interrupt routine counts frames
    assert any(m.memory[0x4000:0x5000])  # the display is being written


@pytest.mark.bench
def test_machine_benchmark_runs(engine):
    import argparse
    import io

    from zxmonopoly import benchmarks

    speed = benchmarks.measure_machine(engine, seconds=0.3)
    assert speed.frames > 0 and speed.frames_per_second > 1
    assert speed.real_time_multiple == pytest.approx(speed.frames_per_second / 50.08, rel=1e-3)
    out = io.StringIO()
    args = argparse.Namespace(engine=engine, seconds=0.2, no_startup=True, machine=True)
    assert benchmarks.run_from_args(args, out=out) == 0
    row = next(line for line in out.getvalue().splitlines() if line.startswith(engine))
    assert float(row.split()[1].replace(",", "")) > 0
