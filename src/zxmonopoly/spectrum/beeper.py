"""The beeper: writes to port 0xFE, time-stamped in T-states, as 16-bit mono samples per frame.

Facts: ``shared/reference/spectrum_facts.md`` §2.4 (port 0xFE bits) and §8 (beeper audio).
The speaker level is a step function of time; each output sample is its average over the
sample's period (a box filter), so toggles faster than the sample rate give in-between values.
Sample periods run on across frames: the level and the part of a sample begun in one frame carry
into the next, so frames join without clicks.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .timing import CPU_HZ, FRAME_TSTATES

EAR_BIT, MIC_BIT = 0x10, 0x08
_CHUNK = 256  # samples per step of the vectorised DC-blocking filter


def port_fe_events(writes: Any) -> np.ndarray:
    """``(tstates, byte written to port 0xFE)`` pairs as ``(tstates, ear, mic)`` rows."""
    arr = np.asarray(writes if writes is not None else [], dtype=np.int64).reshape(-1, 2)
    return np.stack([arr[:, 0], (arr[:, 1] >> 4) & 1, (arr[:, 1] >> 3) & 1], axis=1)


class Beeper:
    """Turns each frame's log of speaker changes into int16 samples at ``rate`` Hz.

    ``cpu_hz`` sets how many T-states make a second: 3,500,000 for a real 48K (about 880.6
    samples per 69,888-T frame at 44,100 Hz); :data:`~.timing.FIFTY_HZ_CPU` (3,494,400) when
    the host shows exactly 50 frames a second (exactly 882 samples per frame). The fractional
    part is carried, so the count per second is exact on average either way.

    Output = ``volume`` × (EAR + ``mic_weight`` × (1 − MIC)), averaged per sample; EAR and MIC
    are port 0xFE bits 4 and 3 (MIC drives the speaker weakly, and when the bit is 0; facts §8).
    ``dc_block`` adds a one-pole high-pass at ``dc_cutoff`` Hz that removes the constant level.
    """

    def __init__(self, rate: int = 44_100, frame_tstates: int = FRAME_TSTATES,
                 cpu_hz: int = CPU_HZ, *, volume: float = 8_000.0, mic_weight: float = 0.0,
                 dc_block: bool = False, dc_cutoff: float = 20.0) -> None:
        for name, value in (("rate", rate), ("frame_tstates", frame_tstates), ("cpu_hz", cpu_hz)):
            if not isinstance(value, int) or value <= 0:
                raise ValueError(f"{name} must be a positive int, not {value!r}")
        self.rate = rate
        self.frame_tstates = frame_tstates
        self.cpu_hz = cpu_hz
        self.volume = volume
        self.mic_weight = mic_weight
        self.dc_block = dc_block
        self._pole = math.exp(-2 * math.pi * dc_cutoff / rate)
        self.reset()

    def reset(self, ear: int = 0, mic: int = 0) -> None:
        """Start again at a sample boundary with the given EAR and MIC bits (0 or 1)."""
        self.ear, self.mic = ear & 1, mic & 1
        # Time is counted in units of 1/(cpu_hz × rate) s: a T-state is `rate` units and a
        # sample `cpu_hz` units, so every boundary is an exact integer.
        self._phase = 0  # units since the last sample boundary (0 <= phase < cpu_hz)
        self._carry = 0.0  # integral of the level since that boundary
        self._hp_in = self._hp_out = 0.0
        self.samples_out = 0

    @property
    def samples_per_frame(self) -> float:
        """Average number of samples a frame gives (880.6 at 44,100 Hz and 3.5 MHz)."""
        return self.rate * self.frame_tstates / self.cpu_hz

    def level(self, ear: Any, mic: Any) -> Any:
        """The speaker level (0 … 1 + mic_weight) for EAR and MIC bits."""
        return ear + self.mic_weight * (1 - mic)

    def frame_samples(self, events: Any) -> np.ndarray:
        """The samples that complete during one frame, from its speaker changes.

        ``events``: ``(tstates, ear)`` or ``(tstates, ear, mic)`` rows, T-states within the frame
        (clipped to 0 … frame_tstates; sorted here if needed), EAR/MIC as 0 or 1 — for the raw
        bytes written to port 0xFE use :func:`port_fe_events`. Where MIC is not given it keeps
        its value.
        """
        arr = np.asarray(events if events is not None else [], dtype=np.int64)
        if arr.size == 0:
            arr = np.zeros((0, 3), dtype=np.int64)
        if arr.ndim != 2 or arr.shape[1] not in (2, 3):
            raise ValueError(f"events must be (tstates, ear[, mic]) rows, not shape {arr.shape}")
        arr = arr[np.argsort(arr[:, 0], kind="stable")]
        tstates = np.clip(arr[:, 0], 0, self.frame_tstates)
        ear = arr[:, 1] & 1
        mic = arr[:, 2] & 1 if arr.shape[1] == 3 else np.full(len(arr), self.mic)

        span = self.frame_tstates * self.rate
        period = self.cpu_hz
        x = np.concatenate(([0], tstates * self.rate, [span])).astype(np.float64)
        levels = np.concatenate(([self.level(self.ear, self.mic)], self.level(ear, mic)))
        widths = np.diff(x)
        integral = np.concatenate(([0.0], np.cumsum(levels * widths)))
        keep = np.concatenate(([True], widths > 0))  # np.interp needs increasing x
        first = period - self._phase
        count = 0 if first > span else (span - first) // period + 1
        bounds = first + period * np.arange(count, dtype=np.int64)
        at_bounds = np.interp(bounds.astype(np.float64), x[keep], integral[keep])
        averages = np.diff(np.concatenate(([-self._carry], at_bounds))) / period
        if count:
            self._carry = float(integral[-1] - at_bounds[-1])
            self._phase = int(span - bounds[-1])
        else:
            self._carry += float(integral[-1])
            self._phase += span
        if len(arr):
            self.ear, self.mic = int(ear[-1]), int(mic[-1])
        self.samples_out += count

        values = averages * self.volume
        if self.dc_block:
            values = self._high_pass(values)
        return np.clip(np.rint(values), -32768, 32767).astype(np.int16)

    def _high_pass(self, x: np.ndarray) -> np.ndarray:
        """y[n] = x[n] − x[n−1] + p·y[n−1], in closed form over chunks (state carried)."""
        out = np.empty_like(x)
        powers = self._pole ** np.arange(1, _CHUNK + 1)
        for start in range(0, len(x), _CHUNK):
            seg = x[start:start + _CHUNK]
            pw = powers[:len(seg)]
            steps = np.diff(seg, prepend=self._hp_in)
            y = pw * (self._hp_out + np.cumsum(steps / pw))
            out[start:start + len(seg)] = y
            self._hp_in, self._hp_out = float(seg[-1]), float(y[-1])
        return out
