"""Beeper samples from time-stamped speaker changes (zxmonopoly.spectrum.beeper)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zxmonopoly.spectrum.beeper import Beeper, port_fe_events
from zxmonopoly.spectrum.timing import CPU_HZ, FIFTY_HZ_CPU, FRAME_TSTATES


def reference(frames: list[list[tuple[int, int]]], frame_tstates: int, rate: int, cpu_hz: int,
              volume: float) -> list[float]:
    """Slow exact model: the EAR level over the whole run, averaged over each sample period."""
    changes = []
    for n, events in enumerate(frames):
        for t, ear in sorted(events, key=lambda e: e[0]):
            changes.append((n * frame_tstates + min(max(t, 0), frame_tstates), ear))
    total = len(frames) * frame_tstates
    period = Fraction(cpu_hz, rate)  # T-states per sample
    out = []
    level, next_change, k = 0, 0, 0
    while (k + 1) * period <= total:
        lo, hi = k * period, (k + 1) * period
        while next_change < len(changes) and changes[next_change][0] <= lo:
            level = changes[next_change][1]
            next_change += 1
        area, at = Fraction(0), lo
        while next_change < len(changes) and changes[next_change][0] < hi:
            t, ear = changes[next_change]
            area += level * (t - at)
            at, level = Fraction(t), ear
            next_change += 1
        area += level * (hi - at)
        out.append(float(area / period * Fraction(volume)))
        k += 1
    return out


def run(beeper: Beeper, frames: list[list[tuple[int, int]]]) -> np.ndarray:
    return np.concatenate([beeper.frame_samples(events) for events in frames])


def square_wave(frequency: float, frames: int, cpu_hz: int) -> list[list[tuple[int, int]]]:
    """EAR toggled every half period (rounded to whole T-states), split into frames."""
    half = cpu_hz / frequency / 2
    out: list[list[tuple[int, int]]] = [[] for _ in range(frames)]
    k = 0
    while round(k * half) < frames * FRAME_TSTATES:
        t = round(k * half)
        out[t // FRAME_TSTATES].append((t % FRAME_TSTATES, (k + 1) & 1))
        k += 1
    return out


def test_silence_is_constant() -> None:
    beeper = Beeper()
    out = run(beeper, [[]] * 10)
    assert out.dtype == np.int16 and (out == 0).all()
    beeper = Beeper(volume=5000)
    beeper.frame_samples([(0, 1)])
    assert (run(beeper, [[]] * 5) == 5000).all()


def test_samples_per_second_at_fifty_frames_a_second() -> None:
    beeper = Beeper(44_100, cpu_hz=FIFTY_HZ_CPU)
    counts = [len(beeper.frame_samples([])) for _ in range(50)]
    assert abs(sum(counts) - 44_100) <= 1 and set(counts) == {882}
    assert beeper.samples_per_frame == 882


def test_samples_per_second_at_three_and_a_half_megahertz() -> None:
    beeper = Beeper(44_100)
    counts = [len(beeper.frame_samples([])) for _ in range(1000)]
    exact = 1000 * FRAME_TSTATES * 44_100 // CPU_HZ  # the fraction is carried, never lost
    assert sum(counts) == exact == beeper.samples_out
    assert set(counts) == {880, 881}
    assert beeper.samples_per_frame == pytest.approx(880.5888)
    beeper = Beeper(48_000)
    assert sum(len(beeper.frame_samples([])) for _ in range(50)) == 50 * FRAME_TSTATES * 48 // 3500


def test_one_kilohertz_square_wave() -> None:
    frames = square_wave(1000, 50, FIFTY_HZ_CPU)
    out = run(Beeper(44_100, cpu_hz=FIFTY_HZ_CPU, volume=10_000), frames)
    assert abs(len(out) - 44_100) <= 1
    expected = reference(frames, FRAME_TSTATES, 44_100, FIFTY_HZ_CPU, 10_000)
    assert np.abs(out - np.rint(expected)).max() <= 1
    # 1,000 periods of 44.1 samples: about 22 full-high and 22 full-low samples in each, and
    # the samples across an edge in between.
    assert out.min() == 0 and out.max() == 10_000
    assert out.mean() == pytest.approx(5_000, rel=0.01)
    assert 21_000 < np.count_nonzero(out == 10_000) < 22_000
    assert 0 < np.count_nonzero((out > 0) & (out < 10_000)) <= 2_000
    rising = np.flatnonzero((out[1:] > 5_000) & (out[:-1] <= 5_000))
    assert len(rising) in (999, 1000)
    assert np.diff(rising).mean() == pytest.approx(44.1, abs=0.05)


def test_frames_join_without_a_seam() -> None:
    """The same signal cut into frames of 69,888 T or of twice that gives the same samples."""
    wave = square_wave(440, 4, CPU_HZ)
    short = run(Beeper(), wave)
    joined = [[(t + (n % 2) * FRAME_TSTATES, e) for n in (i, i + 1) for t, e in wave[n]]
              for i in (0, 2)]
    long = run(Beeper(frame_tstates=2 * FRAME_TSTATES), joined)
    assert len(short) == len(long)
    assert np.abs(short.astype(int) - long).max() <= 1


def test_the_level_carries_into_the_next_frame() -> None:
    beeper = Beeper(volume=1000)
    first = beeper.frame_samples([(FRAME_TSTATES - 40, 1)])  # the last half sample is high
    second = beeper.frame_samples([])
    assert (first == 0).all()  # the sample that holds the change ends in the next frame
    assert 0 < second[0] < 1000 and (second[1:] == 1000).all()
    assert beeper.ear == 1


def test_fast_toggles_give_in_between_values() -> None:
    events = [(t, (t // 10) & 1) for t in range(0, FRAME_TSTATES, 10)]  # 175 kHz
    out = Beeper(volume=1000).frame_samples(events)
    assert np.abs(out - 500).max() <= 70  # a period is 79.4 T: never all high or all low
    assert abs(out.mean() - 500) < 5


def test_events_are_sorted_and_clipped() -> None:
    ordered = Beeper().frame_samples([(-10, 1), (30_000, 0), (69_000, 1)])
    shuffled = Beeper().frame_samples([(69_000, 1), (0, 1), (30_000, 0)])
    assert np.array_equal(ordered, shuffled)
    beyond = Beeper()
    beyond.frame_samples([(100_000, 1)])  # after the frame: takes effect at its end
    after = beyond.frame_samples([])
    assert beyond.ear == 1 and 0 < after[0] < 8000 and (after[1:] == 8000).all()


def test_two_events_at_one_time_keep_the_last() -> None:
    out = Beeper(volume=100).frame_samples([(0, 1), (0, 0), (500, 1), (500, 0)])
    assert (out == 0).all()


def test_mic_is_weak_and_on_when_its_bit_is_zero() -> None:
    beeper = Beeper(volume=1000, mic_weight=0.1)
    assert (beeper.frame_samples([(0, 0, 1)]) == 0).all()
    assert (beeper.frame_samples([(0, 0, 0)])[1:] == 100).all()  # [0] began in the last frame
    assert (beeper.frame_samples([(0, 1)])[1:] == 1100).all()  # MIC keeps its value
    assert (Beeper(volume=1000).frame_samples([(0, 0, 0)]) == 0).all()  # weight 0 by default


def test_port_fe_events() -> None:
    rows = port_fe_events([(10, 0x17), (20, 0x08), (30, 0x07)])
    assert rows.tolist() == [[10, 1, 0], [20, 0, 1], [30, 0, 0]]
    assert port_fe_events([]).shape == (0, 3)
    beeper = Beeper(volume=100)
    assert (beeper.frame_samples(port_fe_events([(0, 0x10)])) == 100).all()


def test_dc_block_removes_the_constant_level() -> None:
    beeper = Beeper(volume=10_000, dc_block=True, dc_cutoff=20.0)
    first = beeper.frame_samples([(0, 1)])
    out = np.concatenate([first] + [beeper.frame_samples([]) for _ in range(30)])
    # One pole y[n] = x[n] - x[n-1] + p y[n-1], computed the slow way.
    p = np.exp(-2 * np.pi * 20.0 / 44_100)
    x_prev = y = 0.0
    expected = []
    for _ in range(len(out)):
        y = 10_000 - x_prev + p * y
        x_prev = 10_000
        expected.append(y)
    assert np.abs(out - np.rint(expected)).max() <= 1
    assert out[0] == 10_000 and abs(int(out[-1])) < 50  # decays over half a second


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="rate must be a positive int"):
        Beeper(0)
    with pytest.raises(ValueError, match="events must be"):
        Beeper().frame_samples([1, 2, 3])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(-5, 710), st.integers(0, 1)), max_size=12),
                min_size=1, max_size=5),
       st.sampled_from([(44_100, CPU_HZ), (48_000, CPU_HZ), (44_100, FIFTY_HZ_CPU),
                        (22_050, 700 * 50)]))
def test_matches_an_exact_model(frames: list[list[tuple[int, int]]],
                                rates: tuple[int, int]) -> None:
    rate, cpu_hz = rates
    beeper = Beeper(rate, frame_tstates=700, cpu_hz=cpu_hz, volume=20_000)
    out = run(beeper, frames)
    expected = reference(frames, 700, rate, cpu_hz, 20_000)
    assert len(out) == len(expected)
    assert np.abs(out - np.rint(expected)).max(initial=0) <= 1
