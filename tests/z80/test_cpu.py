"""CPU behaviour the FUSE vectors do not reach: interrupts, HALT, EI, NMI, R, Q, ports."""

import numpy as np
import pytest

from tests.z80.engines import WALK_T, make_z80
from zxmonopoly.z80 import Z80, Z80Error, state


def cpu_with(engine: str, code: str, at: int = 0, **regs) -> Z80:
    mem = bytearray(65536)
    raw = bytes.fromhex(code)
    mem[at: at + len(raw)] = raw
    cpu = make_z80(mem, engine)
    cpu.pc = at
    for k, v in regs.items():
        setattr(cpu, k, v)
    return cpu


def test_registers_round_trip(z80_engine):
    cpu = cpu_with(z80_engine, "00")
    for name, value in [("af", 0x1234), ("bc", 0x5678), ("de", 0x9ABC), ("hl", 0xDEF0),
                        ("af_", 0x1111), ("bc_", 0x2222), ("de_", 0x3333), ("hl_", 0x4444),
                        ("ix", 0xA1B2), ("iy", 0xC3D4), ("sp", 0xFFF0), ("pc", 0x8000),
                        ("memptr", 0x4242), ("i", 0x3F), ("r", 0x85), ("im", 2)]:
        setattr(cpu, name, value)
        assert getattr(cpu, name) == value, name
    assert (cpu.a, cpu.f, cpu.b, cpu.c, cpu.ixh, cpu.ixl, cpu.iyh, cpu.iyl) == \
        (0x12, 0x34, 0x56, 0x78, 0xA1, 0xB2, 0xC3, 0xD4)
    cpu.ixl = 0x99
    assert cpu.ix == 0xA199


def test_im1_interrupt_takes_13_tstates_and_pushes_pc(z80_engine):
    cpu = cpu_with(z80_engine, "00", at=0x8000, sp=0xC000, iff1=1, iff2=1, im=1)
    cpu.interrupt()
    assert cpu.step() == 13
    assert (cpu.pc, cpu.sp, cpu.iff1, cpu.iff2, cpu.memptr) == (0x0038, 0xBFFE, 0, 0, 0x38)
    assert cpu.memory[0xBFFE:0xC000] == b"\x00\x80"
    assert cpu.r == 1


def test_im2_interrupt_reads_the_vector_and_takes_19(z80_engine):
    cpu = cpu_with(z80_engine, "00", at=0x8000, sp=0xC000, iff1=1, im=2, i=0x90)
    cpu.memory[0x90FE:0x9100] = b"\x34\x12"
    cpu.interrupt(0xFE)
    assert cpu.step() == 19
    assert cpu.pc == 0x1234


def test_ei_delays_acceptance_by_one_instruction(z80_engine):
    cpu = cpu_with(z80_engine, "FB 00 00", at=0x8000, sp=0xC000, im=1)
    cpu.interrupt()
    assert cpu.step() == 4 and cpu.pc == 0x8001  # EI
    assert cpu.step() == 4 and cpu.pc == 0x8002  # NOP runs: no interrupt straight after EI
    assert cpu.step() == 13 and cpu.pc == 0x0038


def test_no_interrupt_between_prefixes(z80_engine):
    cpu = cpu_with(z80_engine, "DD DD 00", at=0x8000, sp=0xC000, im=1, iff1=1)
    cpu.step()  # DD acts as a 4-T NOP...
    cpu.interrupt()
    cpu.step()  # ...and so does the second: the line waits for a whole instruction
    assert cpu.pc == 0x8002
    cpu.step()
    assert cpu.pc == 0x8003
    cpu.step()
    assert cpu.pc == 0x0038


def test_halt_waits_on_itself_and_resumes_after(z80_engine):
    cpu = cpu_with(z80_engine, "76 00", at=0x8000, sp=0xC000, im=1, iff1=1)
    cpu.run(1000)
    assert cpu.halted == 1 and cpu.pc == 0x8000
    assert cpu.tstates == 1000  # whole 4-T internal NOPs: 250 of them
    assert cpu.r == 250 & 0x7F  # R counts in 7 bits
    cpu.interrupt()
    assert cpu.step() == 13
    assert cpu.halted == 0 and cpu.memory[0xBFFE:0xC000] == b"\x01\x80"  # returns past HALT


def test_nmi_keeps_iff2_and_jumps_to_0066(z80_engine):
    cpu = cpu_with(z80_engine, "00", at=0x8000, sp=0xC000, iff1=1, iff2=1)
    cpu.nmi()
    assert (cpu.pc, cpu.iff1, cpu.iff2, cpu.tstates, cpu.sp) == (0x66, 0, 1, 11, 0xBFFE)
    cpu.memory[0x66:0x68] = bytes.fromhex("ED45")  # RETN restores IFF1 from IFF2
    cpu.step()
    assert (cpu.pc, cpu.iff1) == (0x8000, 1)


def test_ld_a_i_parity_reads_zero_when_an_interrupt_follows(z80_engine):
    cpu = cpu_with(z80_engine, "ED 57", at=0x8000, sp=0xC000, iff1=1, iff2=1, im=1, i=0x40)
    cpu.step()
    assert cpu.f & 0x04  # P/V = IFF2
    cpu.interrupt()
    cpu.step()
    assert cpu.pc == 0x38 and not cpu.f & 0x04


def test_r_counts_m1_cycles_and_keeps_bit_7(z80_engine):
    # NOP (1) + CB 00 (2) + DD 21 nn (2) + DD CB d 06 (2) + ED 44 (2) = 9
    cpu = cpu_with(z80_engine, "00 CB00 DD210000 DDCB0006 ED44", r=0x80)
    for _ in range(5):
        cpu.step()
    assert cpu.r == 0x89
    cpu.r = 0xFF
    cpu.step()  # wraps within 7 bits
    assert cpu.r == 0x80


def test_scf_takes_xy_from_a_after_a_flag_instruction_and_from_f_or_a_otherwise(z80_engine):
    # After XOR A (sets flags): X/Y from A only. After LD B,0 (no flags): from F | A.
    cpu = cpu_with(z80_engine, "AF 3E28 37", f=0)  # XOR A; LD A,28h; SCF
    cpu.step()
    cpu.step()
    cpu.f = 0x00
    cpu.step()
    assert cpu.f & 0x28 == 0x28
    cpu = cpu_with(z80_engine, "B7 37", a=0x00, f=0xFF)  # OR A (flags, F=0x44); SCF
    cpu.step()
    cpu.step()
    assert cpu.f & 0x28 == 0x00  # (Q ^ F) | A = 0
    cpu = cpu_with(z80_engine, "0600 37", a=0x00, f=0x28)  # LD B,0 (no flags); SCF
    cpu.step()
    cpu.step()
    assert cpu.f & 0x28 == 0x28  # Q = 0: X/Y from F | A


@pytest.mark.parametrize("start", [0, WALK_T])
def test_port_callbacks_see_every_access(z80_engine, start):
    # An IN asks Python and runs again with the value: T must not count its cycles twice (the
    # Spectrum engines walk them first; from WALK_T they walk every cycle).
    seen = []
    mem = bytearray(65536)
    mem[0:8] = bytes.fromhex("DBFE ED78 D3FE ED79")  # IN A,(FE); IN A,(C); OUT (FE),A; OUT (C),A
    cpu = make_z80(mem, z80_engine, read_port=lambda p: (seen.append(("in", p)), 0x5A)[1],
                   write_port=lambda p, v: seen.append(("out", p, v)))
    cpu.a, cpu.bc, cpu.tstates = 0x12, 0x34FE, start
    for _ in range(4):
        cpu.step()
    assert seen == [("in", 0x12FE), ("in", 0x34FE), ("out", 0x5AFE, 0x5A), ("out", 0x34FE, 0x5A)]
    assert cpu.tstates == start + 11 + 12 + 11 + 12


def test_without_callbacks_in_reads_the_machines_devices(z80_engine):
    # The bare CPU has nothing on its ports: 0xFF. The Spectrum's ULA answers port FE with the
    # keyboard (no key down: bits 0-4 set), bits 5 and 7 set and EAR (low) on bit 6.
    cpu = cpu_with(z80_engine, "DBFE")
    cpu.step()
    assert cpu.a == (0xBF if z80_engine.startswith("spectrum") else 0xFF)


def test_breakpoint_stops_before_the_marked_address(z80_engine):
    cpu = cpu_with(z80_engine, "00 00 00 00 18FA")
    cpu.breakpoints[3] = 1
    assert cpu.run(10_000) == state.EXIT_BREAK
    assert cpu.pc == 3 and cpu.tstates == 12
    assert cpu.run(10_000) == state.EXIT_BREAK  # runs on, round the loop, and stops again
    assert cpu.pc == 3 and cpu.tstates == 12 + 4 + 12 + 12


def test_breakpoint_map_keeps_what_is_set(z80_engine):
    cpu = cpu_with(z80_engine, "00 00 00 00 18FA")
    bp = cpu.breakpoints
    assert not bp and len(bp) == 65536
    bp[3] = 1
    bp[0x10005] = 7  # addresses wrap to 16 bits; any non-zero value sets
    assert bp and bp[3] == 1 and bp[5] == 1 and bp.addresses == [3, 5]
    assert cpu.run(10_000) == state.EXIT_BREAK and cpu.pc == 3
    bp[3] = 0
    bp.clear()
    assert not bp and bp[5] == 0 and bp.addresses == []
    # None set: the run goes round the loop to the limit.
    assert cpu.run(cpu.tstates + 1_000) == state.EXIT_LIMIT and cpu.tstates >= 1_012


def test_breakpoint_map_reads_the_marks_of_its_array():
    from zxmonopoly.z80.cpu import BreakpointMap

    marks = np.zeros(65536, dtype=np.uint8)
    marks[[5, 0x8000, 0xFFFF]] = (1, 3, 2)  # bit 1 alone is the watch bit, not a breakpoint
    assert BreakpointMap(marks).addresses == [5, 0x8000]
    assert BreakpointMap([0, 1, 0, 3]).addresses == [1, 3]


def test_breakpoints_move_with_the_engine():
    cpu = Z80(bytearray(65536), engine="python")
    cpu.breakpoints[3] = 1
    for engine in ("python", "jit", "python"):
        cpu.set_engine(engine)
        assert cpu.breakpoints.addresses == [3] and cpu.breakpoints[3] == 1


def test_rom_top_protects_low_memory(z80_engine):
    cpu = cpu_with(z80_engine, "3E55 320010 320080")  # LD A,55h; LD (1000h),A; LD (8000h),A
    cpu.rom_top = 0x4000
    for _ in range(3):
        cpu.step()
    assert cpu.memory[0x1000] == 0 and cpu.memory[0x8000] == 0x55


def test_ldir_repeats_exactly_as_single_steps(z80_engine):
    # The engines run LDIR's repeats in place; stepping must give the same machine.
    def build():
        c = cpu_with(z80_engine, "EDB0", at=0x8000, hl=0x9000, de=0xA000, bc=50)
        c.memory[0x9000:0x9032] = bytes(range(50))
        return c

    a, b = build(), build()
    a.run(10_000)
    while b.tstates < 10_000:
        b.step()
    def regs(c: Z80) -> tuple[int, ...]:
        return (c.tstates, c.pc, c.f, c.memptr, c.r, c.bc, c.hl, c.de)

    assert regs(a) == regs(b)
    assert a.bc == 0 and a.hl == 0x9032 and a.de == 0xA032
    assert a.memory[0xA000:0xA032] == bytes(range(50))


def test_ldir_that_overwrites_itself_stops_repeating(z80_engine):
    # Copying a NOP over its own first byte (the z80test "LDIR -> NOP'" situation).
    cpu = cpu_with(z80_engine, "EDB0", at=0x8000, hl=0x9000, de=0x7FFF, bc=3)
    cpu.step()  # copies mem[9000]=0 to 7FFF, repeats
    cpu.step()  # copies 0 over the ED at 8000: the instruction is gone
    assert cpu.pc == 0x8000 and cpu.memory[0x8000] == 0
    cpu.step()
    assert cpu.pc == 0x8001  # ran the NOP


def test_bad_arguments_raise_one_clear_error():
    with pytest.raises(Z80Error, match="65,536"):
        Z80(bytearray(100))
    with pytest.raises(Z80Error, match="unknown engine"):
        Z80(bytearray(65536), engine="fast")
