"""The 48K machine, further: beeper audio, screenshot goldens, IM 2, run budgets, typing, errors."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tests.spectrum.roms import COUNTER_ROM, FRAMES_ADDR, rom
from tests.spectrum.textrom import DEMO_ROM, READY_FRAME, print_at, text_rom
from zxmonopoly.snapshot import SnapshotError
from zxmonopoly.spectrum import Spectrum48, keystrokes, video
from zxmonopoly.spectrum import machine as machine_module
from zxmonopoly.spectrum.keyboard import KEYS, keys_for_text

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE_GOLDENS = os.environ.get("ZXMONOPOLY_UPDATE_GOLDENS") == "1"


# -- audio ------------------------------------------------------------------------------------

HALF_PERIOD_LOOPS = 60  # DJNZ count of the tone ROM's delay
# Interrupts off; toggle EAR (bit 4 of port 0xFE) every 30 + 13 × 60 = 810 T-states.
TONE_ROM = rom(f"""
        ORG 0
        DI
        XOR A
loop:   OUT (0xFE),A
        XOR 0x10
        LD B,{HALF_PERIOD_LOOPS}
delay:  DJNZ delay
        JP loop
""")
TONE_HALF_PERIOD = 11 + 7 + 7 + 13 * HALF_PERIOD_LOOPS - 5 + 10

# Interrupts off; EAR high once, then nothing more.
STEP_ROM = rom("""
        ORG 0
        DI
        LD A,0x10
        OUT (0xFE),A
here:   JR here
""")


def toggles(events: list[tuple[int, int]], bit: int, level: int) -> tuple[int, int]:
    """How many times ``bit`` of the written bytes changes in ``events``; the level after."""
    count = 0
    for _, value in events:
        new = (value >> bit) & 1
        count += new != level
        level = new
    return count, level


def test_audio_is_off_by_default(engine):
    m = Spectrum48(rom=TONE_ROM, engine=engine)
    assert not m.audio and m.beeper is None
    m.run_frames(3)
    assert m.take_audio().size == 0


def test_tone_gives_882_samples_a_frame_at_its_frequency(engine):
    m = Spectrum48(rom=TONE_ROM, engine=engine, audio=True)
    assert m.beeper is not None and m.beeper.cpu_hz == machine_module.AUDIO_CPU_HZ
    m.run_frames(10)  # let the DC blocker settle
    m.take_audio()
    level = m.beeper.ear
    changes = 0
    for _ in range(50):
        m.run_frames(1)
        n, level = toggles(m.last_frame_events, 4, level)
        changes += n
    samples = m.take_audio()
    assert samples.dtype == np.int16
    # 50 frames at 69,888 × 50 T-states a second: exactly one second of 44,100 Hz audio.
    assert abs(len(samples) - 44_100) <= 1
    centred = samples.astype(np.float64) - samples.mean()
    crossings = int(np.count_nonzero(np.diff(np.signbit(centred))))
    assert abs(crossings - changes) <= 2
    # The fundamental: one cycle is two toggles. Contended OUTs stretch a few periods a little.
    expected = machine_module.AUDIO_CPU_HZ / (2 * TONE_HALF_PERIOD)
    assert crossings / 2 == pytest.approx(expected, rel=0.01)
    assert np.abs(samples).max() > 0.8 * machine_module.AUDIO_VOLUME / 2


def test_level_carries_across_frames_without_clicks(engine):
    m = Spectrum48(rom=STEP_ROM, engine=engine, audio=True)
    m.run_frames(20)
    samples = m.take_audio().astype(np.int64)
    assert len(samples) == 20 * 882
    step = int(np.argmax(samples))
    assert samples[step] > 0.9 * machine_module.AUDIO_VOLUME  # EAR went high in frame 1
    # Then the level is held: only the DC blocker's slow decay, smooth across frame joins.
    assert np.abs(np.diff(samples[step + 1:])).max() < 50
    assert samples[step + 1:].min() >= 0


def test_mic_is_heard_weakly(engine):
    def peak(bits: int) -> float:
        source = f"""
        ORG 0
        DI
        XOR A
loop:   OUT (0xFE),A
        XOR {bits}
        LD B,60
delay:  DJNZ delay
        JP loop
"""
        m = Spectrum48(rom=rom(source), engine=engine, audio=True)
        m.run_frames(10)
        m.take_audio()
        m.run_frames(5)
        return float(np.abs(m.take_audio().astype(np.float64)).max())

    ratio = peak(0x08) / peak(0x10)
    assert ratio == pytest.approx(machine_module.AUDIO_MIC_WEIGHT, rel=0.1)


def test_audio_buffer_is_bounded(engine):
    m = Spectrum48(rom=TONE_ROM, engine=engine, audio=True)
    m.audio_limit = 5_000
    m.run_frames(10)
    assert m.audio_dropped == 10 * 882 - 5_000
    kept = m.take_audio()
    assert len(kept) == 5_000
    m.run_frames(1)
    assert len(m.take_audio()) == 882 and m.take_audio().size == 0


def test_engines_make_the_same_audio(engine):
    if engine == "python":
        pytest.skip("compares python with jit")
    out = []
    for name in ("python", "jit"):
        m = Spectrum48(rom=TONE_ROM, engine=name, audio=True)
        m.run_frames(12)
        out.append(m.take_audio())
    assert np.array_equal(out[0], out[1])


# -- screenshot goldens -----------------------------------------------------------------------

GOLDEN_TEXT = (
    ("line1", 1, 4, "ZXMONOPOLY SCREEN GOLDEN"),
    ("line3", 3, 1, "THE QUICK BROWN FOX JUMPS OVER"),
    ("line4", 4, 1, "THE LAZY DOG: 0123456789!"),
    ("line6", 6, 2, "FLASH (1985) +-*/=?.,'"),
    ("line22", 22, 8, "INVERSE TEXT 42"),
)

# Border blue; top third paper white ink black, row 1 BRIGHT blue on yellow, row 6 FLASH white
# on red; the lower two thirds: every attribute byte there is (and a pattern of pixels). Then
# text in our font (row 22 then inverted, pattern and all), and every frame border stripes:
# blue from the frame's start, red from T ≈ 9,000, cyan from T ≈ 11,600 (top border lines).
GOLDEN_ROM = text_rom(
    setup="""
        LD A,1
        OUT (0xFE),A
        LD HL,0x5800
        LD DE,0x5801
        LD BC,255
        LD (HL),0x38
        LDIR
        LD HL,0x5820
        LD B,32
a1:     LD (HL),0x71
        INC HL
        DJNZ a1
        LD HL,0x58C0
        LD B,32
a6:     LD (HL),0x97
        INC HL
        DJNZ a6
        LD HL,0x5900
a2:     LD A,L
        BIT 1,H
        JR Z,a3
        XOR 0x55
a3:     LD (HL),A
        INC HL
        LD A,H
        CP 0x5B
        JR C,a2
        LD HL,0x4800
b1:     LD A,L
        RRCA
        XOR H
        LD (HL),A
        INC HL
        LD A,H
        CP 0x58
        JR C,b1
""" + "".join(print_at(row, col, label) for label, row, col, _ in GOLDEN_TEXT)
    + "        JP drawn\n"
    + "".join(f'{label}: DB "{text}",0\n' for label, _, _, text in GOLDEN_TEXT)
    + """drawn:
        LD H,0x50
inv1:   LD L,0xC0
inv2:   LD A,(HL)
        CPL
        LD (HL),A
        INC L
        LD A,L
        CP 0xE0
        JR C,inv2
        INC H
        LD A,H
        CP 0x58
        JR C,inv1
""",
    loop="""
        LD A,1
        OUT (0xFE),A
        LD BC,340
d1:     DEC BC
        LD A,B
        OR C
        JR NZ,d1
        LD A,2
        OUT (0xFE),A
        LD BC,100
d2:     DEC BC
        LD A,B
        OR C
        JR NZ,d2
        LD A,5
        OUT (0xFE),A
""",
)


def _check_golden(path: Path, actual: bytes, compare: Callable[[Path], None]) -> None:
    """Compare with the golden file, or (ZXMONOPOLY_UPDATE_GOLDENS=1) write it first."""
    if UPDATE_GOLDENS and (not path.is_file() or path.read_bytes() != actual):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual)
    if not path.is_file():
        pytest.fail(f"{path} is missing: run with ZXMONOPOLY_UPDATE_GOLDENS=1 to make it")
    compare(path)


@pytest.mark.golden
@pytest.mark.parametrize("frames", [10, 20])
def test_screenshot_matches_golden_png(engine, frames):
    m = Spectrum48(rom=GOLDEN_ROM, engine=engine)
    m.run_frames(frames)
    assert video.flash_swapped(m.frame) == (frames == 20)
    rgb = m.screen_rgb()

    def compare(path: Path) -> None:
        golden = video.read_png(path)
        assert golden.shape == rgb.shape
        differ = np.argwhere((golden != rgb).any(axis=2))
        assert not len(differ), (f"{len(differ)} pixels differ from {path.name}; first at "
                                 f"(y, x) = {tuple(differ[0])}; regenerate with "
                                 "ZXMONOPOLY_UPDATE_GOLDENS=1 if the change is meant")

    _check_golden(GOLDEN_DIR / f"screen_frame{frames}.png", video.png_bytes(rgb), compare)


@pytest.mark.golden
def test_screen_text_matches_golden(engine):
    m = Spectrum48(rom=GOLDEN_ROM, engine=engine)
    m.run_frames(10)
    text = "\n".join(m.screen_text()) + "\n"

    def compare(path: Path) -> None:
        assert text == path.read_text(encoding="utf-8")

    _check_golden(GOLDEN_DIR / "screen.txt", text.encode("utf-8"), compare)
    lines = text.splitlines()
    for _, row, col, message in GOLDEN_TEXT:
        assert lines[row][col:col + len(message)] == message


@pytest.mark.golden
def test_golden_picture_has_what_it_claims(engine):
    m = Spectrum48(rom=GOLDEN_ROM, engine=engine)
    m.run_frames(10)
    rgb = m.screen_rgb()
    left = [tuple(rgb[y, 0]) for y in range(256)]
    blue, red, cyan = (tuple(video.PALETTE[c]) for c in (1, 2, 5))
    assert left[0] == blue and red in left[:32] and left[-1] == cyan  # stripes in the top border
    yellow_bright = tuple(video.PALETTE[6 + 8])
    assert tuple(rgb[32 + 8, 32]) == yellow_bright  # row 1: BRIGHT paper yellow
    flash_cell = rgb[32 + 48:32 + 56, 32:40]  # row 6, column 0: FLASH white on red, blank
    assert (flash_cell == video.PALETTE[2]).all()
    m.run_frames(10)
    assert (m.screen_rgb()[32 + 48:32 + 56, 32:40] == video.PALETTE[7]).all()


def test_engines_draw_the_golden_identically(engine):
    if engine == "python":
        pytest.skip("compares python with jit")
    pictures = []
    for name in ("python", "jit"):
        m = Spectrum48(rom=GOLDEN_ROM, engine=name)
        m.run_frames(20)
        pictures.append(m.screen_rgb())
    assert np.array_equal(pictures[0], pictures[1])


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


# -- typing -----------------------------------------------------------------------------------

RECORD_PTR, RECORD_BUFFER = 0x8000, 0x9000
# Each frame, after the interrupt: read the 8 half-rows one by one (IN A,(C), B = FE, FD, … 7F)
# and append them to the buffer.
RECORDER_ROM = rom(f"""
        ORG 0
        DI
        LD SP,0xFF00
        LD HL,{RECORD_BUFFER}
        LD ({RECORD_PTR}),HL
        IM 1
        EI
loop:   HALT
        LD HL,({RECORD_PTR})
        LD BC,0xFEFE
read:   IN A,(C)
        LD (HL),A
        INC HL
        RLC B
        JR C,read
        LD ({RECORD_PTR}),HL
        JR loop
        DS 0x38-$
        EI
        RET
""")


def recorded_keys(m: Spectrum48) -> list[frozenset[str]]:
    """The keys the ROM saw held down, frame by frame."""
    end = m.memory[RECORD_PTR] | m.memory[RECORD_PTR + 1] << 8
    frames = []
    for base in range(RECORD_BUFFER, end, 8):
        rows = m.memory[base:base + 8]
        frames.append(frozenset(name for name, (row, mask) in KEYS.items()
                                if not rows[row] & mask))
    return frames


@pytest.mark.parametrize("text", ['a"B;£:?', "x,y.z=1+2-3*4/5<6>7", "Hi! (it's \"$5\")_@#%&^"])
def test_type_text_presses_the_right_combinations_in_order(engine, text):
    m = Spectrum48(rom=RECORDER_ROM, engine=engine)
    m.run_frames(2)
    m.type_text(text, hold=3, gap=2)
    frames = recorded_keys(m)
    runs: list[tuple[frozenset[str], int]] = []
    for keys in frames:
        if runs and runs[-1][0] == keys:
            runs[-1] = (keys, runs[-1][1] + 1)
        else:
            runs.append((keys, 1))
    pressed = [(keys, n) for keys, n in runs if keys]
    assert [keys for keys, _ in pressed] == [frozenset(c) for c in keys_for_text(text)]
    assert {n for _, n in pressed} == {3}  # every combination held for exactly 3 frames
    gaps = [n for keys, n in runs[1:] if not keys]  # after the first combination
    assert gaps == [step.gap for step in keystrokes.plan_text(text, 3, 2)]
    assert min(gaps) == 2  # longer only where the same key (or a third key) must wait


def test_symbol_shift_combinations_are_two_keys(engine):
    m = Spectrum48(rom=RECORDER_ROM, engine=engine)
    m.run_frames(1)
    m.type_text('"', hold=2, gap=1)
    held = [keys for keys in recorded_keys(m) if keys]
    assert held == [frozenset({"SYMBOL SHIFT", "P"})] * 2


# -- snapshots --------------------------------------------------------------------------------


def test_128k_z80_snapshot_is_refused_clearly(engine, tmp_path):
    m = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    m.run_frames(2)
    good = tmp_path / "game.z80"
    m.save_snapshot(good)
    data = bytearray(good.read_bytes())
    assert data[6:8] == b"\0\0" and data[30] == 54  # version 3, PC in the extra header
    data[34] = 4  # hardware type 4 in a version 3 file: 128K
    bad = tmp_path / "game128.z80"
    bad.write_bytes(bytes(data))
    memory = bytes(m.memory)
    with pytest.raises(SnapshotError, match=r"game128\.z80: unsupported hardware type 4 \(128K\)"):
        m.load_snapshot(bad)
    assert bytes(m.memory) == memory  # nothing loaded


def test_128k_sna_is_refused_clearly(engine, tmp_path):
    m = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    bad = tmp_path / "game128.sna"
    bad.write_bytes(bytes(131_103))
    with pytest.raises(SnapshotError, match=r"game128\.sna: 131,103 bytes is a 128K \.sna"):
        m.load_snapshot(bad)


def test_snapshot_of_unknown_type_is_refused(engine, tmp_path):
    m = Spectrum48(rom=rom(COUNTER_ROM), engine=engine)
    with pytest.raises(SnapshotError, match=r"state\.szx.*unknown snapshot type"):
        m.load_snapshot(tmp_path / "state.szx")


# -- benchmark --------------------------------------------------------------------------------


def test_busy_rom_never_halts_and_takes_interrupts(engine):
    from zxmonopoly import benchmarks

    m = Spectrum48(rom=benchmarks.busy_rom(), engine=engine)
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
