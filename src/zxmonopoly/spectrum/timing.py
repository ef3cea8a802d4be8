"""The 48K's timing, described once: the frame, its lines, the interrupt and contention.

Every other module (the machine, the picture, the beeper, the window's pacing and sound, the
boot before typing, the benchmarks, and the Spectrum engines that ``tools/gen_z80.py``
generates) takes these numbers from here. Facts:
``shared/reference/spectrum_facts.md`` §2.5 (frame timing) and §2.6 (contention).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where the table is made: the CLI reads the constants at start-up
    import numpy as np

# The clock, the line, the frame and the interrupt, which the file formats count in as well.
from zxmonopoly.clock import CPU_HZ, FRAME_TSTATES, INT_LENGTH, LINE_TSTATES, LINES  # noqa: F401 - re-exported

FRAMES_PER_SECOND = CPU_HZ / FRAME_TSTATES  # ≈ 50.08 (real time for a whole machine)
#: Frames a second a host shows: the window paces the machine at this rate, as a 50 Hz TV does.
HOST_FRAMES_PER_SECOND = 50
#: The T-state rate of a host that runs exactly 50 frames a second: 3,494,400 (a real 48K runs
#: 3,500,000 and shows 50.08 frames a second).
FIFTY_HZ_CPU = FRAME_TSTATES * HOST_FRAMES_PER_SECOND

#: The frame line that shows display row 0 (64 lines of top border and retrace before it).
FIRST_DISPLAY_LINE = 64
DISPLAY_LINES = 192
DISPLAY_LINE_TSTATES = 128  # T-states of a line in which the ULA fetches the display
#: T-state at which the ULA fetches the first display byte (line 64, T 0 of the line).
DISPLAY_TSTATES = FIRST_DISPLAY_LINE * LINE_TSTATES  # 14,336
#: First contended T-state: one before the first fetch of each display line.
CONTENDED_FROM = DISPLAY_TSTATES - 1  # 14,335
#: The delay of an access starting at each T-state of a contended line's 8-T groups.
CONTENTION_PATTERN = (6, 5, 4, 3, 2, 1, 0, 0)
#: One past the last contended T-state of the frame.
CONTENDED_TO = CONTENDED_FROM + (DISPLAY_LINES - 1) * LINE_TSTATES + DISPLAY_LINE_TSTATES

#: The sound's sample rate (mono int16), and the samples one frame gives at 50 frames a second
#: (the beeper counts FIFTY_HZ_CPU T-states to the second, so exactly 882).
AUDIO_RATE = 44_100
AUDIO_SAMPLES_PER_FRAME = AUDIO_RATE // HOST_FRAMES_PER_SECOND

#: Frames run after power-on before typing: any 48K ROM is ready for keys by then.
BOOT_FRAMES = 100
#: ... and with our ROM, which shows its K cursor at frame 19: the window's LOAD "" is on the
#: screen within 1.5 s of it opening.
OUR_ROM_BOOT_FRAMES = 40


#: The contention table's length: the frame and 256 T-states past its end (all 0), for an
#: instruction that overruns the frame. The JIT's array holds segments of this length.
CONTENTION_SPAN = FRAME_TSTATES + 256


def contention_table() -> np.ndarray:
    """Delay of a contended access starting at each T-state of a frame (facts §2.5), one byte
    each (70 KB, where the engines' walks read it: int64 took 561 KB of the caches).

    CONTENTION_SPAN entries: 256 T-states past the frame's end are included (all 0), for an
    instruction that overruns the frame.
    """
    import numpy as np

    table = np.zeros(CONTENTION_SPAN, dtype=np.uint8)
    pattern = np.array(CONTENTION_PATTERN, dtype=np.uint8)
    groups = DISPLAY_LINE_TSTATES // len(CONTENTION_PATTERN)
    for line in range(DISPLAY_LINES):
        start = CONTENDED_FROM + line * LINE_TSTATES
        table[start:start + DISPLAY_LINE_TSTATES] = np.tile(pattern, groups)
    return table


def with_pass_tables(delays: np.ndarray, specs: Sequence[int]) -> np.ndarray:
    """The Spectrum JIT's contention array: ``delays`` (:func:`contention_table`), then, for
    each block instruction's pass that ``specs`` describes, its T-states from every start.

    A pass (LDIR's, say: its two opcode fetches, the read at HL, the write at DE, their extra
    cycles and, while it repeats, five more at DE) depends on the T-state it starts at and on
    which of its addresses lie in contended memory. The generator (tools/z80gen/cycles.py,
    ``PassTable``) gives each address and each condition of its cycles a bit; the pass's table
    has a segment of CONTENTION_SPAN entries for each value of those bits, each entry the
    T-states of the walk that starts there, delayed as the engines' walks delay it. So the JIT
    times a pass with one lookup where it walked eleven cycles. ``specs`` (the generated
    engine's PASS_SPECS) is, for each pass: its first segment, its count of cycles, then four
    ints a cycle: the address's bit (-1: none), T-states, repeats, the condition's bit (-1:
    always); the bit count follows from the bits named.
    """
    import numpy as np

    span = CONTENTION_SPAN
    # past the span the walk meets only uncontended T-states (a frame starts uncontended)
    padded = np.concatenate([delays.astype(np.int64), np.zeros(256, dtype=np.int64)])
    passes: list[tuple[int, int, list[tuple[int, int, int, int]]]] = []
    k = 0
    while k < len(specs):
        first, count = int(specs[k]), int(specs[k + 1])
        cycles = [tuple(int(x) for x in specs[k + 2 + 4 * j:k + 6 + 4 * j]) for j in range(count)]
        bits = 1 + max([-1, *(c[0] for c in cycles), *(c[3] for c in cycles)])
        passes.append((first, bits, cycles))  # type: ignore[arg-type]
        k += 2 + 4 * count
    segments = max([1, *(first + (1 << bits) for first, bits, _ in passes)])
    out = np.zeros(segments * span, dtype=np.uint8)
    out[:span] = delays
    start = np.arange(span, dtype=np.int64)
    # one step of the walk, as a function of the T-state it starts at: a contended cycle of n
    padded_n = {n: np.arange(len(padded), dtype=np.int64) + padded + n
                for n in {c[1] for _, _, cs in passes for c in cs}}
    for first, bits, cycles in passes:
        for mask in range(1 << bits):
            t = start.copy()
            plain = 0  # T-states of uncontended cycles, added at the end
            for address, n, repeats, cond in cycles:
                if cond >= 0 and not mask >> cond & 1:
                    continue
                if address >= 0 and mask >> address & 1:
                    t += plain
                    plain = 0
                    for _ in range(repeats):
                        t = padded_n[n][t]
                else:
                    plain += n * repeats
            taken = t + plain - start
            if taken.max() > 255:
                raise ValueError(f"a pass of {int(taken.max())} T-states does not fit a byte")
            out[(first + mask) * span:(first + mask + 1) * span] = taken
    return out
