"""The 48K machine: frames and interrupts, contention, ports, border, FLASH, keys."""

from __future__ import annotations

import numpy as np
import pytest

from tests.spectrum.roms import COUNTER_ROM, FRAMES_ADDR, rom
from zxmonopoly.memory_map import ATTR_END, ATTR_FILE, DISPLAY_FILE, RAM_START
from zxmonopoly.spectrum import FRAME_TSTATES, Spectrum48, SpectrumError, video
from zxmonopoly.spectrum.keyboard import KEYS
from zxmonopoly.spectrum.timing import contention_table

PATTERN = [6, 5, 4, 3, 2, 1, 0, 0]
IDLE_ROM = rom("        ORG 0\n        DI\nhere:   JR here\n")


@pytest.fixture
def counter(engine):
    return Spectrum48(rom=rom(COUNTER_ROM), engine=engine)


@pytest.fixture
def idle(engine):
    return Spectrum48(rom=IDLE_ROM, engine=engine)


def frames_counted(m: Spectrum48) -> int:
    return m.memory[FRAMES_ADDR] | m.memory[FRAMES_ADDR + 1] << 8


def test_one_interrupt_per_frame_of_69888_tstates(counter):
    counter.run_frames(3)
    before = frames_counted(counter)
    counter.run_frames(50)
    assert frames_counted(counter) - before == 50
    assert counter.frame == 53


def test_interrupt_is_accepted_at_the_start_of_the_frame(counter):
    counter.run_frames(2)
    assert counter.run_until(pc=0x38, max_frames=2)
    # HALTed, the CPU takes the interrupt at its first boundary in the frame (T 0-3),
    # and the IM 1 response takes 13 T.
    assert 13 <= counter.tstates <= 16
    assert counter.cpu.iff1 == 0


def test_interrupt_window_is_32_tstates(idle):
    # Interrupts enabled only from T=40: the frame's interrupt is missed (line held 32 T).
    m = idle
    m.memory[0x8000:0x8003] = bytes.fromhex("FB 18FE")  # EI; JR $
    m.cpu.pc, m.cpu.im, m.cpu.sp = 0x8000, 1, 0xF000
    m.cpu.tstates = 40
    m._run_to(10_000)
    assert m.cpu.pc in (0x8001, 0x8002)  # still looping: no interrupt this frame
    m._run_to(FRAME_TSTATES)
    m._end_frame()
    m._run_to(100)
    assert m.cpu.pc >= 0x38 and m.cpu.pc < 0x8000  # taken at the start of the next frame


def test_contention_table_matches_the_facts():
    table = contention_table()
    assert table[14334] == 0
    assert list(table[14335:14335 + 16]) == PATTERN * 2
    assert table[14335 + 128] == 0  # right border: no contention
    assert list(table[14335 + 224:14335 + 232]) == PATTERN
    last = 14335 + 191 * 224
    assert table[last + 127] == 0 and table[last + 120] == 6
    assert table[last + 224] == 0
    assert table.sum() == 192 * 16 * sum(PATTERN)


@pytest.mark.parametrize("k", range(10))
def test_memory_read_delay_follows_the_pattern(idle, k):
    m = idle
    m.memory[0x8000] = 0x7E  # LD A,(HL) with HL in contended RAM; the fetch is not contended
    m.cpu.pc, m.cpu.hl = 0x8000, 0x4000
    m.cpu.tstates = 14335 + k - 4  # the (HL) read starts at 14335 + k
    assert m.step() == 7 + PATTERN[k % 8]


@pytest.mark.parametrize("k", range(8))
def test_opcode_fetch_in_contended_ram_is_delayed(idle, k):
    m = idle
    m.memory[0x6000] = 0x00
    m.cpu.pc = 0x6000
    m.cpu.tstates = 14335 + 224 * 5 + k
    assert m.step() == 4 + PATTERN[k]


def test_no_contention_outside_the_screen_lines(idle):
    m = idle
    m.memory[0x6000] = 0x00
    for t in (100, 14335 + 130, 14335 + 192 * 224 + 5):
        m.cpu.pc, m.cpu.tstates = 0x6000, t
        assert m.step() == 4


@pytest.mark.parametrize("k", range(8))
def test_ula_port_contention(idle, k):
    # IN A,(FEh) with A=FFh: port FFFE, high byte not contended, even: N:1, C:3.
    m = idle
    m.memory[0x8000:0x8002] = bytes.fromhex("DBFE")
    m.cpu.pc, m.cpu.a = 0x8000, 0xFF
    m.cpu.tstates = 14335 + k - 8  # the I/O cycle starts 7 T in; its check is 1 T later
    assert m.step() == 11 + PATTERN[k]


def test_every_key_reaches_its_half_row(idle):
    m = idle
    m.memory[0x8000:0x8002] = bytes.fromhex("ED78")  # IN A,(C)
    for name, (row, mask) in KEYS.items():
        m.keyboard.release_all()
        m.keyboard.press(name)
        for sel in range(8):
            m.cpu.pc, m.cpu.bc = 0x8000, ((0xFF ^ (1 << sel)) << 8) | 0xFE
            m.cpu.tstates = 1000
            m.step()
            want = 0xBF & (0xFF ^ mask if sel == row else 0xFF)  # bit 6: EAR (issue 3) = 0
            assert m.cpu.a == want, (name, sel)


def test_several_half_rows_are_anded(idle):
    m = idle
    m.memory[0x8000:0x8002] = bytes.fromhex("ED78")
    m.keyboard.press("A")  # row 1 bit 0
    m.keyboard.press("SPACE")  # row 7 bit 0
    m.keyboard.press("M")  # row 7 bit 2
    m.cpu.pc, m.cpu.bc, m.cpu.tstates = 0x8000, 0x00FE, 1000  # all rows
    m.step()
    assert m.cpu.a & 0x1F == 0x1F ^ 0x01 ^ 0x04
    # Several half-rows selected at once (the keyboard's one read is the engine's IN).
    m.keyboard.release_all()
    m.keyboard.press("S+E+B")  # S: 0xFD bit 1, E: 0xFB bit 2, B: 0x7F bit 4
    for high, want in ((0xFD, 0x1D), (0xF9, 0x1F ^ 0x02 ^ 0x04),
                       (0x79, 0x1F ^ 0x02 ^ 0x04 ^ 0x10), (0xFF, 0x1F)):
        m.cpu.pc, m.cpu.bc, m.cpu.tstates = 0x8000, high << 8 | 0xFE, 1000
        m.step()
        assert m.cpu.a & 0x1F == want, hex(high)


def test_ear_bit_follows_the_last_out_on_issue_3(idle):
    m = idle
    m.memory[0x8000:0x8006] = bytes.fromhex("3E10 D3FE DBFE")  # LD A,10h; OUT (FE),A; IN A,(FE)
    m.cpu.pc, m.cpu.tstates = 0x8000, 1000
    for _ in range(3):
        m.step()
    assert m.cpu.a & 0x40


def test_kempston_joystick(idle):
    m = idle
    m.memory[0x8000:0x8002] = bytes.fromhex("DB1F")
    m.joystick.press("UP+FIRE")
    m.cpu.pc, m.cpu.a, m.cpu.tstates = 0x8000, 0, 1000
    m.step()
    assert m.cpu.a == 0x18


@pytest.mark.parametrize("when,address", [(14338, 0x4000), (14339, 0x5800), (14340, 0x4001),
                                          (14341, 0x5801), (14342, None), (14337, None),
                                          (14338 + 224 * 9 + 8, 0x4100 + 0x20 + 2)])
def test_floating_bus(idle, when, address):
    m = idle
    for a in range(DISPLAY_FILE, ATTR_END):
        m.memory[a] = (a * 7 + 3) & 0x7F  # no 0xFF anywhere
    m.memory[0x8000:0x8002] = bytes.fromhex("DBFF")  # IN A,(FFh) with A=0: port 00FF
    m.cpu.pc, m.cpu.a = 0x8000, 0
    m.cpu.tstates = when - 10  # sampled 3 T into the I/O cycle, which starts 7 T in
    m.step()
    assert m.cpu.a == (0xFF if address is None else m.memory[address])


def test_border_stripes_land_on_their_lines(idle):
    m = idle
    # Run to mid-frame, then change the border (OUT at a known T).
    m.memory[0x8000:0x8004] = bytes.fromhex("3E02 D3FE")  # LD A,2; OUT (FE),A
    m.cpu.pc = 0x8000
    m.cpu.tstates = 30_000
    m.step()
    m.step()
    written = 30_000 + 7 + 8  # LD A,n (7) then the OUT's I/O cycle 7 T in, +1
    m.run_frames(1)
    rgb = m.screen_rgb()
    red = video.PALETTE[2]
    white = video.PALETTE[7]
    rows = [tuple(rgb[y, 0]) for y in range(256)]
    first_red = rows.index(tuple(red))
    assert all(r == tuple(white) for r in rows[:first_red])
    assert all(r == tuple(red) for r in rows[first_red:])
    assert video.LINE_STARTS[first_red] >= written > video.LINE_STARTS[first_red - 1]


def test_flash_swaps_every_16_frames(idle):
    m = idle
    m.memory[DISPLAY_FILE] = 0xFF  # top-left 8 pixels set
    m.memory[ATTR_FILE] = 0x80 | (1 << 3) | 2  # FLASH, paper blue, ink red
    m.memory[0x5801] = (1 << 3) | 2  # no FLASH
    seen = []
    for _ in range(40):
        m.run_frames(1)
        rgb = m.screen_rgb()
        seen.append((tuple(rgb[32, 32]), tuple(rgb[32, 40])))
    red, blue = tuple(video.PALETTE[2]), tuple(video.PALETTE[1])
    flashing = [s[0] for s in seen]
    assert {s[1] for s in seen} == {blue}  # the steady cell's paper (no pixels) stays blue
    # frames 1..40: normal while (frame // 16) is even
    for frame, colour in enumerate(flashing, start=1):
        assert colour == (blue if (frame // 16) % 2 else red), frame


def test_rom_is_read_only_and_ram_is_cleared(idle):
    m = idle
    m.memory[0x8000:0x8006] = bytes.fromhex("3E55 320010 00")  # LD A,55h; LD (1000h),A
    m.cpu.pc, m.cpu.tstates = 0x8000, 1000
    m.step()
    m.step()
    assert m.memory[0x1000] == IDLE_ROM[0x1000]


def test_halted_frames_are_fast_forwarded(counter):
    counter.run_frames(1)
    # HALTed between interrupts: each frame is the ISR and a jump to the frame's end.
    r_before = counter.cpu.r
    counter.run_frames(1)
    assert counter.tstates < 32 and counter.cpu.r != r_before


def test_bad_rom_gives_one_clear_error(tmp_path):
    bad = tmp_path / "short.rom"
    bad.write_bytes(bytes(100))
    with pytest.raises(SpectrumError, match="short.rom.*16,384"):
        Spectrum48(rom=bad)
    with pytest.raises(SpectrumError, match="cannot read"):
        Spectrum48(rom=tmp_path / "missing.rom")


def test_screen_text_uses_the_font_at_chars(idle):
    m = idle
    # A font of our own for the test: glyph k is the byte k+1 on each of its 8 rows.
    font = bytes((k + 1) & 0xFF for k in range(96) for _ in range(8))
    m.memory[0x9000 + 256: 0x9000 + 256 + 768] = font
    m.memory[23606:23608] = (0x9000).to_bytes(2, "little")
    text = "HELLO"
    for x, ch in enumerate(text):
        glyph = font[(ord(ch) - 32) * 8:(ord(ch) - 32) * 8 + 8]
        for row in range(8):
            m.memory[DISPLAY_FILE + (row << 8) + x] = glyph[row]
    assert m.screen_text()[0].startswith("HELLO ")


def test_engines_agree_frame_by_frame(engine):
    if engine == "python":
        pytest.skip("compares python with jit")
    a = Spectrum48(rom=rom(COUNTER_ROM), engine="python")
    b = Spectrum48(rom=rom(COUNTER_ROM), engine="jit")
    code = bytes.fromhex("3E03 D3FE 210040 3600 2C 18FB")  # border; fill the screen
    for m in (a, b):
        m.memory[0x8100:0x8100 + len(code)] = code
        m.cpu.pc = 0x8100
    a.run_frames(3)
    b.run_frames(3)
    assert a.memory == b.memory
    assert np.array_equal(a.screen_rgb(), b.screen_rgb())


def test_engines_agree_on_every_fuse_program_under_contention(engine):
    """Both Spectrum engines (straight-line walks and the JIT's table walk) give the same T."""
    if engine == "python":
        pytest.skip("compares python with jit")
    from tests.z80.fuse_vectors import FUSE_DIR, INITIAL_FILL, apply_blocks, load_vectors

    if not (FUSE_DIR / "tests.in").is_file():
        pytest.skip("FUSE vectors not found")
    machines = [Spectrum48(rom=IDLE_ROM, engine=e) for e in ("python", "jit")]
    differ = []
    for n, vector in enumerate(load_vectors()):
        results = []
        for m in machines:
            ram = bytearray(INITIAL_FILL)
            apply_blocks(ram, vector.memory)
            m.memory[RAM_START:] = ram[RAM_START:]  # the ROM stays; code in ROM runs from the ROM
            for name, value in vector.registers.items():
                setattr(m.cpu, name, value)
            m.cpu.halted = 0
            start = 14335 + (n * 7) % 900  # somewhere in the contended lines
            m.cpu.tstates = start
            m._run_to(start + vector.until)
            results.append((m.cpu.tstates, m.cpu.pc, m.cpu.af, m.cpu.memptr, bytes(m.memory)))
        if results[0] != results[1]:
            differ.append(vector.name)
    assert not differ, differ[:20]


@pytest.mark.parametrize("suffix", [".szx", ".z80", ".sna"])
def test_snapshot_round_trip_continues_identically(engine, tmp_path, suffix):
    a = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    a.memory[0x9000:0x9000 + 4] = bytes.fromhex("11223344")
    a.run_frames(7)
    # Stop inside the interrupt routine (0x39: after its PUSH HL). tests/snapshot/test_exact.py
    # has the halted moments.
    assert a.run_until(pc=0x39, max_frames=2)
    path = tmp_path / f"state{suffix}"
    a.save_snapshot(path)
    b = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    b.load_snapshot(path)
    if suffix == ".sna":
        # .sna keeps PC on the stack and no T-state: it resumes at the next frame boundary's
        # worth of state, so compare registers and RAM, not timing.
        assert (b.cpu.pc, b.cpu.sp, b.cpu.hl) == (a.cpu.pc, a.cpu.sp, a.cpu.hl)
        below = a.cpu.sp - 2  # the stacked PC goes there
        assert b.memory[RAM_START:below] == a.memory[RAM_START:below]
        return
    assert b.tstates == a.tstates
    for m in (a, b):
        m.run_frames(5)
    assert a.memory == b.memory
    assert (a.cpu.af, a.cpu.hl, a.cpu.pc, a.cpu.sp, a.tstates) == \
        (b.cpu.af, b.cpu.hl, b.cpu.pc, b.cpu.sp, b.tstates)


def test_bad_snapshot_names_the_file(idle, tmp_path):
    from zxmonopoly.snapshot import SnapshotError

    bad = tmp_path / "broken.z80"
    bad.write_bytes(b"\x00" * 10)
    with pytest.raises(SnapshotError, match="broken.z80"):
        idle.load_snapshot(bad)
