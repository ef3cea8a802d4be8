"""The 48K machine's sound: beeper samples from port 0xFE, per frame, bounded, engines alike."""

from __future__ import annotations

import numpy as np
import pytest

from tests.spectrum.roms import rom
from zxmonopoly.spectrum import Spectrum48
from zxmonopoly.spectrum import machine as machine_module

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
