"""Our ROM's tape routines (roms/tape.asm): SA-BYTES, SA/LD-RET and LD-BYTES.

A small test ROM holds them at their standard addresses with a boot of its own; a harness at
0x8000 calls them with the standard registers. Loading runs edge by edge from the tape deck
(real loading) and through the deck's fast-load trap, which must give the same memory and
registers; saving is checked on the MIC edges the machine logs, pulse by pulse.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests import REPO_ROOT
from tests.tape import tzxbuild
from zxmonopoly.asm import assemble
from zxmonopoly.memory_map import PRINTER_BUFFER, ROM_SIZE
from zxmonopoly.spectrum import Spectrum48
from zxmonopoly.spectrum.timing import FRAME_TSTATES, contention_table
from zxmonopoly.spectrum.video import PALETTE
from zxmonopoly.tape import read_tap, signal_of, write_tap
from zxmonopoly.tape.tap import TapBlock, code_blocks
from zxmonopoly.z80 import default_engine

#: The default engine (the JIT where numba imports, compiled once for the suite): real loads run
#: tens of thousands of frames. $ZXMONOPOLY_ENGINE=python runs them on CPython.
ENGINE = default_engine()
ERR_CODE = PRINTER_BUFFER  # where the test ROM's RST 8 puts the report code
NO_REPORT = 0xAA  # ... and what it holds before
RESULTS = 0x9000  # the harness's record of each call: F, A, IX, DE, IFF2 (8 bytes a call)
BORDER_AFTER = 3  # BORDCR's border in the test ROM: magenta, neither stripe colour
REPORT_D = 0x0C  # RST 8 code of "D BREAK - CONT repeats"
SA_BYTES, SA_LD_RET, LD_BYTES = 0x04C2, 0x053F, 0x0556
PILOT, SYNC1, SYNC2, ZERO, ONE = 2168, 667, 735, 855, 1710

TEST_ROM = f"""
        include "roms/const.asm"
BORDCR  equ 23624
ERR_CODE equ {ERR_CODE}
        org 0
        di
        jp boot
        ds ENTRY_ERROR - $, 0xFF
        pop hl                      ; RST 8: the code is the byte after the RST
        ld a,(hl)
        ld (ERR_CODE),a
        di
err_halt:
        halt
boot:   ld sp,0xFF00
        ld a,{BORDER_AFTER} << 3
        ld (BORDCR),a
        im 1
        jp 0x8000
        ds ENTRY_MASK_INT - $, 0xFF
        ei                          ; the frame interrupt: nothing to do
        ret
        include "roms/tape.asm"
"""


@pytest.fixture(scope="session")
def tape_rom():
    """The test ROM: (16K image, symbols)."""
    program = assemble(TEST_ROM, "tape_test_rom.asm", base_dir=REPO_ROOT)
    image = bytes(program.binary(0, ROM_SIZE, 0xFF))
    return image, {name: sym.value for name, sym in program.symbols.items()}


def harness(*calls: tuple[int, int, int, int, bool]) -> tuple[bytes, int]:
    """Code at 0x8000 making each call (entry, IX, DE, A, carry) and recording the results."""
    lines = ["        org 0x8000"]
    for k, (entry, ix, de, a, carry) in enumerate(calls):
        rec = RESULTS + 8 * k
        lines += [f"        ld ix,{ix}", f"        ld de,{de}", f"        ld a,{a}",
                  "        scf" if carry else "        and a", f"        call {entry}",
                  "        push af", "        pop hl", f"        ld ({rec}),hl",
                  f"        ld ({rec + 2}),ix", f"        ld ({rec + 4}),de",
                  "        ld a,i", "        push af", "        pop hl",
                  f"        ld ({rec + 6}),hl"]
    lines += ["        di", "done:   halt"]
    program = assemble("\n".join(lines) + "\n", "harness.asm")
    return bytes(program.binary(0x8000, program.end)), program.symbols["done"].value


def results(m: Spectrum48, n: int) -> list[tuple[bool, int, int]]:
    """(carry, IX, DE) of each of the harness's ``n`` calls."""
    out = []
    for k in range(n):
        rec = RESULTS + 8 * k
        word = lambda a: m.memory[a] | m.memory[a + 1] << 8  # noqa: E731
        out.append((bool(m.memory[rec] & 1), word(rec + 2), word(rec + 4)))
    return out


def tape_machine(tape_rom, *calls, tape: bytes | None = None, fast: bool = False,
                 play: bool = True, fill: dict[int, bytes] | None = None) -> tuple[Spectrum48, int]:
    """A machine that boots into a harness of ``calls``; the tape inserted (and playing)."""
    image, _ = tape_rom
    m = Spectrum48(rom=image, engine=ENGINE)
    code, done = harness(*calls)
    m.memory[0x8000:0x8000 + len(code)] = code
    m.memory[ERR_CODE] = NO_REPORT
    for addr, data in (fill or {}).items():
        m.memory[addr:addr + len(data)] = data
    if tape is not None:
        m.deck.set_fast(fast)
        m.deck.insert(tape)
        if play and not fast:
            m.deck.play()
    return m, done


def frames_of(tape: bytes, block: int) -> float:
    """Frames from the tape's start to the end of block ``block``'s pulses."""
    return signal_of(tape).blocks[block].data_end / FRAME_TSTATES


def payload(n: int, seed: int = 1) -> bytes:
    """``n`` reproducible random bytes."""
    rnd = random.Random(seed)
    return bytes(rnd.randrange(256) for _ in range(n))


# -- where things are ----------------------------------------------------------------------

def test_routines_sit_at_the_standard_addresses(tape_rom):
    image, sym = tape_rom
    assert sym["tape_save_bytes"] == SA_BYTES
    assert sym["tape_sa_ld_ret"] == SA_LD_RET
    assert sym["tape_load_bytes"] == LD_BYTES
    # What the deck's traps check (tapedeck.py), and what Fuse-style traps execute or resume at.
    assert image[SA_BYTES:SA_BYTES + 4] == bytes.fromhex("213F05E5")  # LD HL,053Fh / PUSH HL
    assert image[LD_BYTES:LD_BYTES + 3] == bytes.fromhex("140815")  # INC D / EX AF,AF' / DEC D
    assert image[0x04D0] == 0x08  # EX AF,AF'
    assert image[0x053E] == 0xC9  # RET
    assert image[0x056B] == 0xC0  # RET NZ
    assert image[0x05E2] == 0xC9  # RET
    assert max(v for k, v in sym.items() if k.startswith("tape_")) < 0x0700


# -- loading, edge by edge and fast ----------------------------------------------------------

def test_real_load_of_a_header_and_its_data(tape_rom):
    data = payload(200)
    blocks = code_blocks("tapetest", 0xA000, data)
    tape = write_tap(blocks)
    m, done = tape_machine(tape_rom, (LD_BYTES, 0x9100, 17, 0x00, True),
                           (LD_BYTES, 0xA000, 200, 0xFF, True), tape=tape)
    assert m.run_until(pc=done, max_frames=700)
    assert bytes(m.memory[0x9100:0x9111]) == blocks[0].data
    assert bytes(m.memory[0xA000:0xA000 + 200]) == data
    assert results(m, 2) == [(True, 0x9111, 0), (True, 0xA000 + 200, 0)]
    # It returned when the data block's pulses ended, in real time.
    assert abs(m.frame - frames_of(tape, 1)) < 2
    assert m.memory[ERR_CODE] == NO_REPORT


def test_sa_ld_ret_restores_the_border_and_enables_interrupts(tape_rom):
    tape = write_tap([TapBlock(0xFF, payload(20))])
    m, done = tape_machine(tape_rom, (LD_BYTES, 0xA000, 20, 0xFF, True), tape=tape)
    assert m.run_until(pc=done, max_frames=300)
    assert m.border_now() == BORDER_AFTER
    assert m.memory[RESULTS + 6] & 0x04  # LD A,I after the call: P/V = IFF2 = 1 (EI)


def run_both(tape_rom, calls, tape, fill=None, max_frames=700):
    """Run ``calls`` with real loading and with fast loading: (results, memory at 0xA000)."""
    out = []
    for fast in (False, True):
        m, done = tape_machine(tape_rom, *calls, tape=tape, fast=fast, fill=fill)
        assert m.run_until(pc=done, max_frames=max_frames), f"fast={fast}: no return"
        assert m.memory[ERR_CODE] == NO_REPORT
        out.append((results(m, len(calls)), bytes(m.memory[0xA000:0xA400])))
    return out


def test_fast_load_gives_what_the_real_load_gives(tape_rom):
    data = payload(100)
    tape = write_tap(code_blocks("same", 0xA000, data))
    calls = [(LD_BYTES, 0xA200, 17, 0x00, True), (LD_BYTES, 0xA000, 100, 0xFF, True)]
    real, fast = run_both(tape_rom, calls, tape)
    assert real == fast
    assert real[0] == [(True, 0xA211, 0), (True, 0xA064, 0)]
    assert real[1][:100] == data


def test_a_flag_mismatch_returns_and_the_next_call_takes_the_next_block(tape_rom):
    data = payload(60)
    tape = write_tap(code_blocks("skipped", 0xA000, data))
    # Wanting data first: the header's flag (0x00) does not match; the tape moves on.
    calls = [(LD_BYTES, 0xA000, 60, 0xFF, True), (LD_BYTES, 0xA000, 60, 0xFF, True)]
    real, fast = run_both(tape_rom, calls, tape)
    assert real == fast
    assert real[0] == [(False, 0xA000, 60), (True, 0xA000 + 60, 0)]
    assert real[1][:60] == data


def test_a_checksum_error_clears_carry(tape_rom):
    data = payload(80)
    bad = TapBlock(0xFF, data, stored_checksum=TapBlock(0xFF, data).checksum ^ 0x10)
    real, fast = run_both(tape_rom, [(LD_BYTES, 0xA000, 80, 0xFF, True)], write_tap([bad]))
    assert real == fast
    assert real[0] == [(False, 0xA000 + 80, 0)]  # every byte loaded; BASIC reports R
    assert real[1][:80] == data


def test_a_corrupted_data_byte_clears_carry(tape_rom):
    data = payload(80)
    good = TapBlock(0xFF, data)
    corrupted = TapBlock(0xFF, data[:40] + bytes([data[40] ^ 1]) + data[41:],
                         stored_checksum=good.checksum)
    real, fast = run_both(tape_rom, [(LD_BYTES, 0xA000, 80, 0xFF, True)], write_tap([corrupted]))
    assert real == fast
    assert real[0] == [(False, 0xA000 + 80, 0)]


def test_verify_of_equal_and_of_different_memory(tape_rom):
    data = payload(90)
    tape = write_tap([TapBlock(0xFF, data)])
    same = run_both(tape_rom, [(LD_BYTES, 0xA000, 90, 0xFF, False)], tape, fill={0xA000: data})
    assert same[0] == same[1]
    assert same[0][0] == [(True, 0xA000 + 90, 0)]
    changed = data[:33] + bytes([data[33] ^ 0x80]) + data[34:]
    differ = run_both(tape_rom, [(LD_BYTES, 0xA000, 90, 0xFF, False)], tape, fill={0xA000: changed})
    assert differ[0] == differ[1]
    assert differ[0][0] == [(False, 0xA000 + 33, 90 - 33)]  # stops at the difference
    assert differ[0][1][:90] == changed  # VERIFY writes nothing


@pytest.mark.parametrize("length", [0, 1])
def test_blocks_with_no_data_or_one_byte(tape_rom, length):
    data = payload(length)
    real, fast = run_both(tape_rom, [(LD_BYTES, 0xA000, length, 0x55, True)],
                          write_tap([TapBlock(0x55, data)]))
    assert real == fast
    assert real[0] == [(True, 0xA000 + length, 0)]


def test_a_block_shorter_than_asked_times_out(tape_rom):
    # 30 bytes on tape, 50 asked: the checksum is taken as data, then no more edges come.
    data = payload(30)
    real, fast = run_both(tape_rom, [(LD_BYTES, 0xA000, 50, 0xFF, True)],
                          write_tap([TapBlock(0xFF, data)]))
    assert real == fast
    assert real[0] == [(False, 0xA000 + 31, 50 - 31)]


def test_loading_shows_the_stripes(tape_rom, tmp_path):
    tape = write_tap([TapBlock(0xFF, payload(300))])
    m, done = tape_machine(tape_rom, (LD_BYTES, 0xA000, 300, 0xFF, True), tape=tape)
    colours = lambda: {tuple(int(v) for v in px) for px in m.screen_rgb()[:, 0]}  # noqa: E731
    m.run_frames(60)  # in the pilot (3223 pulses: about 100 frames)
    m.screenshot(tmp_path / "pilot.png")
    assert colours() == {tuple(int(v) for v in PALETTE[c]) for c in (2, 5)}  # red, cyan
    m.run_frames(80)  # in the data
    m.screenshot(tmp_path / "data.png")
    assert colours() == {tuple(int(v) for v in PALETTE[c]) for c in (1, 6)}  # blue, yellow
    assert m.run_until(pc=done, max_frames=200)
    assert results(m, 1) == [(True, 0xA000 + 300, 0)]


@pytest.mark.parametrize("scale, loads", [(0.80, False), (0.85, True), (1.0, True), (1.45, True),
                                          (1.55, False)])
def test_tape_speed_the_loader_accepts(tape_rom, scale, loads):
    # Every pulse length scaled (a fast or slow recorder): TZX turbo blocks.
    timing = {k: round(v * scale) for k, v in
              dict(pilot=PILOT, sync1=SYNC1, sync2=SYNC2, zero=ZERO, one=ONE).items()}
    data = payload(64, seed=7)
    tape = tzxbuild.tzx(tzxbuild.turbo(tzxbuild.rom(0xFF, data), pilot_pulses=600, **timing))
    m, done = tape_machine(tape_rom, (LD_BYTES, 0xA000, 64, 0xFF, True), tape=tape)
    if loads:
        assert m.run_until(pc=done, max_frames=200)
        assert results(m, 1)[0][0]
        assert bytes(m.memory[0xA000:0xA040]) == data
    else:
        assert not m.run_until(pc=done, max_frames=150)  # no pilot found: it waits on


# -- BREAK ---------------------------------------------------------------------------------

@pytest.mark.parametrize("when", ["waiting", "pilot", "data"])
def test_break_during_a_load_gives_report_d(tape_rom, when):
    tape = write_tap([TapBlock(0xFF, payload(300))])
    m, done = tape_machine(tape_rom, (LD_BYTES, 0xA000, 300, 0xFF, True), tape=tape,
                      play=when != "waiting")
    m.run_frames({"waiting": 10, "pilot": 50, "data": 120}[when])
    m.keyboard.press("CAPS SHIFT+SPACE")
    _, sym = tape_rom
    assert m.run_until(pc=sym["err_halt"], max_frames=5)
    assert m.memory[ERR_CODE] == REPORT_D
    assert m.memory[RESULTS:RESULTS + 8] == bytes(8)  # the harness never got control back


def test_space_alone_is_not_break(tape_rom):
    data = payload(100)
    m, done = tape_machine(tape_rom, (LD_BYTES, 0xA000, 100, 0xFF, True),
                      tape=write_tap([TapBlock(0xFF, data)]))
    m.keyboard.press("SPACE")
    assert m.run_until(pc=done, max_frames=300)
    assert results(m, 1) == [(True, 0xA000 + 100, 0)]
    assert bytes(m.memory[0xA000:0xA000 + 100]) == data
    assert m.memory[ERR_CODE] == NO_REPORT


def test_break_during_a_save_gives_report_d(tape_rom):
    m, done = tape_machine(tape_rom, (SA_BYTES, 0xA000, 100, 0xFF, False))
    m.cpu.breakpoints[SA_BYTES] = 0  # the deck's save trap off: the ROM saves
    m.run_frames(20)
    m.keyboard.press("CAPS SHIFT+SPACE")
    _, sym = tape_rom
    assert m.run_until(pc=sym["err_halt"], max_frames=5)
    assert m.memory[ERR_CODE] == REPORT_D


# -- saving --------------------------------------------------------------------------------

def real_save(tape_rom, flag: int, data: bytes) -> tuple[np.ndarray, list, Spectrum48]:
    """SA-BYTES with the deck's trap off: the times of its writes to port 0xFE (absolute T)."""
    m, done = tape_machine(tape_rom, (SA_BYTES, 0xA000, len(data), flag, False),
                           fill={0xA000: data})
    m.cpu.breakpoints[SA_BYTES] = 0
    writes: list[int] = []
    m.frame_listeners.append(lambda mm: writes.extend(
        (mm.frame - 1) * FRAME_TSTATES + t for t, _ in mm.last_frame_events))
    assert m.run_until(pc=done, max_frames=400)
    m.run_frames(1)
    # Boot writes nothing to port 0xFE; SA/LD-RET's border write is the last one.
    return np.array(writes[:-1], dtype=np.int64), results(m, 1), m


def decode(pulses: np.ndarray, pilot: int) -> bytes:
    """The bytes in a list of pulse lengths: ``pilot`` pilot pulses, two syncs, bit pairs."""
    bits = pulses[pilot + 2:]
    assert len(bits) % 16 == 0
    pairs = bits.reshape(-1, 2).sum(axis=1)
    values = (pairs > ZERO + ONE).astype(np.uint8).reshape(-1, 8)
    return bytes(np.packbits(values, axis=1).ravel())


@pytest.mark.parametrize("flag, pilot", [(0x00, 8063), (0xFF, 3223)])
def test_save_writes_the_standard_signal(tape_rom, flag, pilot):
    data = payload(24, seed=flag) + bytes([0x00, 0xFF])
    times, result, _ = real_save(tape_rom, flag, data)
    ours = np.diff(times)  # the first write starts the pilot; each after it ends a pulse
    block = TapBlock(flag, data)
    assert decode(ours, pilot) == bytes([flag]) + data + bytes([block.checksum])
    # The deck's signal of the same block: pulse for pulse (the last, 3500 T, is its pause).
    signal = signal_of(write_tap([block]))
    want = np.diff(np.concatenate([[0], np.asarray(signal.edges)]))[:-1]
    assert len(ours) == len(want) == pilot + 2 + 16 * (len(data) + 2)
    assert list(want[pilot - 1:pilot + 2]) == [PILOT, SYNC1, SYNC2]
    late = ours - want
    # Exact to the T-state unless the ULA contends during the pulse (an OUT, or a BREAK
    # test's IN, in the display lines), which delays an edge by a few T, as on a 48K.
    table = contention_table()
    contended = np.array([table[a % FRAME_TSTATES:a % FRAME_TSTATES + d + 1].any()
                          for a, d in zip(times[:-1], ours, strict=True)])
    assert (late[~contended] == 0).all()
    assert late.min() >= 0 and late.max() <= 12
    assert (late == 0).mean() > 0.6
    assert result == [(True, 0xA000 + len(data), 0)]


def test_save_trap_writes_the_same_block_and_registers(tape_rom, tmp_path):
    data = payload(40, seed=3)
    times, result, _ = real_save(tape_rom, 0xFF, data)
    saved = decode(np.diff(times), 3223)
    m, done = tape_machine(tape_rom, (SA_BYTES, 0xA000, 40, 0xFF, False), fill={0xA000: data})
    m.deck.save_path = tmp_path / "trap.tap"
    assert m.run_until(pc=done, max_frames=5)  # the trap: at once
    blocks = read_tap((tmp_path / "trap.tap").read_bytes())
    assert [b.raw() for b in blocks] == [saved]
    assert results(m, 1) == result


def test_what_sa_bytes_writes_ld_bytes_reads(tape_rom):
    # The save's own pulses, contention and all, as TZX pulse sequences, loaded edge by edge.
    data = payload(50, seed=9)
    times, _, _ = real_save(tape_rom, 0xFF, data)
    pulses = [int(p) for p in np.diff(times)] + [3500]
    tape = tzxbuild.tzx(*(tzxbuild.pulse_sequence(*pulses[k:k + 255])
                          for k in range(0, len(pulses), 255)), tzxbuild.pause(1000))
    m, done = tape_machine(tape_rom, (LD_BYTES, 0xA000, 50, 0xFF, True), tape=tape)
    assert m.run_until(pc=done, max_frames=300)
    assert results(m, 1) == [(True, 0xA000 + 50, 0)]
    assert bytes(m.memory[0xA000:0xA000 + 50]) == data
