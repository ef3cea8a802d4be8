"""The tape as edges (zxmonopoly.tape.signal): exact ROM timings, every TZX block, control flow."""

from __future__ import annotations

import os
import time
from itertools import accumulate
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tape import tzxbuild as tb
from zxmonopoly.tape import signal as sig
from zxmonopoly.tape.image import tap_tape
from zxmonopoly.tape.signal import Signal, build_signal
from zxmonopoly.tape.tap import TapBlock, TapeError, code_blocks, program_blocks, write_tap
from zxmonopoly.tape.tzx import read_tzx

MS = 3500


def of_tzx(*blocks: bytes) -> Signal:
    """The signal of a TZX made of ``blocks``."""
    return build_signal(read_tzx(tb.tzx(*blocks), "t.tzx"))


def of_tap(*blocks: TapBlock) -> Signal:
    """The signal of a TAP made of ``blocks``."""
    return build_signal(tap_tape(write_tap(blocks), "t.tap"))


def edges(s: Signal) -> list[int]:
    """The edge times as a list."""
    return [int(e) for e in s.edges]


def bit_pulses(raw: bytes, zero: int = 855, one: int = 1710) -> list[int]:
    """Two pulses per bit, MSB first."""
    return [one if byte >> (7 - i) & 1 else zero for byte in raw for i in range(8) for _ in (0, 1)]


# --- the ROM-standard block -------------------------------------------------------------------

def test_standard_block_edges_exactly() -> None:
    s = of_tap(TapBlock(0xFF, b"\xa5"))
    raw = bytes([0xFF, 0xA5, 0x5A])
    pulses = [2168] * 3223 + [667, 735] + bit_pulses(raw)
    assert len(pulses) % 2 == 1  # the last pulse is low, like the first
    t_end = sum(pulses)
    # The first pilot pulse is low and follows the silence before it: the first edge ends it.
    # Each later pulse starts with an edge; the pause starts with the edge that ends the last
    # pulse (to high), holds it 1 ms, then goes low.
    assert edges(s) == list(accumulate(pulses)) + [t_end + MS]
    assert s.initial_level == 0
    assert s.end == t_end + 1000 * MS
    durations = np.diff(np.concatenate(([0], s.edges)))
    assert list(durations[:3223]) == [2168] * 3223
    assert list(durations[3223:3225]) == [667, 735]
    a5 = [1710, 1710, 855, 855, 1710, 1710, 855, 855, 855, 855, 1710, 1710, 855, 855, 1710, 1710]
    assert list(durations[3225 + 16:3225 + 32]) == a5
    assert [s.level_at(t) for t in (0, 2167, 2168, t_end - 1, t_end, t_end + MS - 1, t_end + MS,
                                    s.end)] == [0, 0, 1, 0, 1, 1, 0, 0]


@pytest.mark.parametrize(("flag", "pilot"), [(0x00, 8063), (0x7F, 8063), (0x80, 3223),
                                             (0xFF, 3223)])
def test_pilot_length_follows_the_flag(flag: int, pilot: int) -> None:
    durations = np.diff(np.concatenate(([0], of_tap(TapBlock(flag, b"x")).edges)))
    assert int(np.argmax(durations != 2168)) == pilot
    assert durations[pilot] == 667


def test_blocks_follow_each_other_after_the_pause() -> None:
    head, data = program_blocks("run", b"\x00\x0a\x02\x00\xf8\x0d", autostart=10)
    s = of_tap(head, data)
    first, second = s.blocks
    assert (first.start, second.start) == (0, first.end)
    assert first.end - first.data_end == 1000 * MS
    assert first.end_edge == second.first_edge == 8063 + 2 + 16 * 19 + 1
    # The next block's first pilot pulse is low, like the pause: its end is the first edge.
    assert s.edges[second.first_edge] == second.start + 2168
    assert (first.flag, first.checksum_ok, first.data) == (0, True, head.data)
    assert first.header is not None and first.header.param1 == 10
    assert (second.flag, second.header, second.id, second.offset) == (0xFF, None, 0x10, 21)
    assert first.description.startswith('Standard Speed Data: Program: "run       " LINE 10')


@settings(max_examples=30, deadline=None)
@given(st.lists(st.builds(TapBlock, st.integers(0, 255), st.binary(max_size=40)), min_size=1,
                max_size=4))
def test_tap_signal_properties(blocks: list[TapBlock]) -> None:
    s = of_tap(*blocks)
    assert (np.diff(s.edges) > 0).all()
    assert len(s.blocks) == len(blocks)
    for info, block in zip(s.blocks, blocks, strict=True):
        pilot = 8063 if block.flag < 128 else 3223
        pulses = [2168] * pilot + [667, 735] + bit_pulses(block.raw())
        assert info.data_end - info.start == sum(pulses)
        assert info.end - info.data_end == 1000 * MS
        assert info.end_edge - info.first_edge == len(pulses) + 1
        assert info.raw == block.raw()
    assert s.end == s.blocks[-1].end


def _game_tape() -> Any:
    """A 48K game's tape: 41,000 bytes of code and a loading screen, random."""
    blocks = code_blocks("game", 0x6000, os.urandom(41000)) + code_blocks("s", 16384,
                                                                          os.urandom(6912))
    return tap_tape(write_tap(blocks))


def test_a_48k_game_tape_builds() -> None:
    s = build_signal(_game_tape())
    assert len(s.edges) > 750_000
    assert len(s.blocks) == 4


@pytest.mark.bench
def test_a_48k_game_tape_builds_well_under_a_second() -> None:
    tape = _game_tape()
    start = time.perf_counter()
    build_signal(tape)
    assert time.perf_counter() - start < 1.0


# --- every TZX block --------------------------------------------------------------------------

HEADER = tb.rom(0, bytes([3]) + b"game      " + bytes([3, 0, 0, 0x80, 0, 0x80]))


def test_standard_tzx_block_is_the_tap_block() -> None:
    tzx = of_tzx(tb.standard(HEADER), tb.standard(tb.rom(0xFF, b"abc")))
    tap = of_tap(TapBlock(0, HEADER[1:-1]), TapBlock(0xFF, b"abc"))
    assert edges(tzx) == edges(tap) and tzx.end == tap.end


def test_turbo_block() -> None:
    s = of_tzx(tb.turbo(b"\xc0", 1000, 400, 500, 300, 600, 5, 2, 0))
    pulses = [1000] * 5 + [400, 500] + [600] * 4
    # No pause: the end of the tape ends the last (low) pulse with an edge.
    assert edges(s) == list(accumulate(pulses))


def test_pure_tone_and_pulse_sequence() -> None:
    assert edges(of_tzx(tb.pure_tone(1000, 5))) == [1000, 2000, 3000, 4000, 5000]
    assert edges(of_tzx(tb.pulse_sequence(100, 200, 300))) == [100, 300, 600]


def test_pure_data_block_and_its_pause() -> None:
    s = of_tzx(tb.pure_data(b"\x80", 500, 1000, 1, 2))
    # Pulses low, high; the pause brings the level low at once (no 1 ms high).
    assert edges(s) == [1000, 2000]
    assert s.end == 2000 + 2 * MS


def test_direct_recording_sets_levels_outright() -> None:
    s = of_tzx(tb.direct(b"\x3c\x80", 100, 0, 1))  # 0,0,1,1,1,1,0,0,1
    assert edges(s) == [200, 600, 800]
    assert s.level_at(s.end) == 1
    # With a pause the high level lasts 1 ms more, then goes low.
    assert edges(of_tzx(tb.direct(b"\x3c\x80", 100, 1, 1))) == [200, 600, 800, 900 + MS]
    # A recording that starts high makes the level high from time 0: no edge, initial level.
    s = of_tzx(tb.direct(b"\xf0", 100))
    assert (s.initial_level, edges(s)) == (1, [400])


@pytest.mark.parametrize("z", [False, True])
def test_csw_recording(z: bool) -> None:
    s = of_tzx(tb.csw([10, 300, 5], 35000, z=z))  # 100 T-states a sample
    assert edges(s) == [1000, 31000]
    assert s.end == 31500 and s.level_at(s.end) == 0


def test_csw_rounds_each_edge_from_the_start_of_the_block() -> None:
    s = of_tzx(tb.csw([1, 1, 1, 1], 44100))  # 79.36... T-states a sample
    # The level stays as last played (high): the end of the tape adds no edge.
    assert (edges(s), s.end, s.level_at(s.end)) == ([79, 159, 238], 317, 1)


def test_generalized_block_reproduces_the_standard_block() -> None:
    bits = [byte >> (7 - i) & 1 for byte in HEADER for i in range(8)]
    gen = tb.generalized([(0, [2168]), (0, [667, 735])], [(0, 8063), (1, 1)],
                         [(0, [855, 855]), (0, [1710, 1710])], bits, 1000)
    g, s = of_tzx(gen, gen), of_tzx(tb.standard(HEADER), tb.standard(HEADER))
    assert edges(g) == edges(s) and g.end == s.end


def test_generalized_symbol_polarity() -> None:
    a, keep, low, high = (0, [100]), (1, [100]), (2, [100]), (3, [100, 100])
    s = of_tzx(tb.generalized([a, keep, low, high], [(0, 2), (1, 1), (3, 1), (2, 1), (3, 1)],
                              [], [], 0))
    # a: low (first pulse after silence), a: high; keep: high; high: high, low; low: low;
    # high: high, low; the end of the tape ends the last pulse.
    assert edges(s) == [100, 400, 600, 700, 800]


def test_generalized_data_symbols_of_two_bits() -> None:
    table = [(0, [100]), (0, [200]), (0, [300]), (0, [400])]
    s = of_tzx(tb.generalized([], [], table, [3, 0, 2, 1], 0))
    assert edges(s) == [400, 500, 800, 1000]


def test_pause_block() -> None:
    s = of_tzx(tb.pure_tone(1000, 3), tb.pause(2), tb.pure_tone(1000, 2))
    # The tone ends low; the pause ends it with an edge (high), 1 ms later low; the next tone's
    # first pulse is low and starts without an edge.
    assert edges(s) == [1000, 2000, 3000, 3000 + MS, 11000, 12000]


def test_a_zero_pause_in_a_data_block_is_ignored() -> None:
    joined = of_tzx(tb.pure_data(b"\x80", 500, 1000, 1, 0), tb.pure_tone(700, 2))
    assert edges(joined) == [1000, 2000, 2700, 3400]


@pytest.mark.parametrize("stop", [tb.pause(0), tb.stop_if_48k()])
def test_stop_blocks(stop: bytes) -> None:
    s = of_tzx(tb.pure_tone(1000, 2), stop, tb.pure_tone(1000, 2))
    # The stop ends the last pulse, then the tape stops; tape time resumes from there.
    assert edges(s) == [1000, 2000, 3000, 4000]
    assert s.stops.tolist() == [2000] and s.stop_edges.tolist() == [2]
    assert s.stops.dtype == s.stop_edges.dtype == s.edges.dtype == np.int64


def test_set_signal_level() -> None:
    s = of_tzx(tb.set_level(1), tb.pure_tone(1000, 2))
    assert (s.initial_level, edges(s)) == (1, [1000, 2000])
    # Setting the level the last pulse had cancels the edge the next pulse would make.
    assert edges(of_tzx(tb.pure_tone(1000, 1), tb.pure_tone(1000, 1))) == [1000, 2000]
    assert edges(of_tzx(tb.pure_tone(1000, 1), tb.set_level(0), tb.pure_tone(1000, 1))) == [2000]
    # At the end of the tape the level is realised.
    assert edges(of_tzx(tb.pure_tone(1000, 1), tb.set_level(1))) == [1000]


INFO = [tb.group_start(b"g"), tb.group_end(), tb.text(b"t"), tb.message(1, b"m"),
        tb.archive_info((0, b"x")), tb.hardware((0, 1, 0)), tb.custom_info(b"c", b"d"),
        tb.glue(), tb.select((1, b"s"))]


@pytest.mark.parametrize("info", INFO)
def test_information_blocks_make_no_sound(info: bytes) -> None:
    plain = of_tzx(tb.pure_tone(1000, 3), tb.pure_tone(900, 2))
    assert edges(of_tzx(tb.pure_tone(1000, 3), info, tb.pure_tone(900, 2))) == edges(plain)


def test_jump() -> None:
    s = of_tzx(tb.pure_tone(100, 2), tb.jump(2), tb.pure_tone(300, 2), tb.pure_tone(500, 2))
    assert edges(s) == edges(of_tzx(tb.pure_tone(100, 2), tb.pure_tone(500, 2)))
    assert [b.index for b in s.blocks] == [0, 1, 3]


def test_loop() -> None:
    s = of_tzx(tb.loop_start(3), tb.pure_tone(100, 2), tb.loop_end(), tb.text(b"after"))
    assert edges(s) == edges(of_tzx(*[tb.pure_tone(100, 2)] * 3))
    assert [b.index for b in s.blocks] == [0, 1, 2, 1, 2, 1, 2, 3]
    assert [b.start for b in s.blocks if b.index == 1] == [0, 200, 400]


def test_call_sequence() -> None:
    s = of_tzx(tb.call_sequence(2, 4), tb.jump(5), tb.pure_tone(100, 2), tb.return_(),
               tb.pure_tone(300, 2), tb.return_())
    assert [b.index for b in s.blocks] == [0, 2, 3, 4, 5, 1]
    assert edges(s) == edges(of_tzx(tb.pure_tone(100, 2), tb.pure_tone(300, 2)))


@pytest.mark.parametrize(("blocks", "played", "message"), [
    ([tb.pure_tone(100, 2), tb.jump(0), tb.pure_tone(100, 2)], [0, 1],
     "block 1 at offset 15: the jump makes an endless loop: the tape ends here"),
    ([tb.pure_tone(100, 2), tb.jump(-1)], [0, 1, 0],
     "block 1 at offset 15: the jump makes an endless loop: the tape ends here"),
    ([tb.jump(5), tb.pure_tone(100, 2)], [0],
     "block 0 at offset 10: jump to block 5, outside the tape (0 to 1): the tape ends here"),
    ([tb.loop_end(), tb.pure_tone(100, 2)], [0, 1],
     "block 0 at offset 10: loop end without a loop start: ignored"),
    ([tb.return_(), tb.pure_tone(100, 2)], [0, 1],
     "block 0 at offset 10: return without a call sequence: ignored"),
])
def test_control_flow_problems_are_warnings(blocks: list[bytes], played: list[int],
                                            message: str) -> None:
    s = of_tzx(*blocks)
    assert [b.index for b in s.blocks] == played
    assert [str(w) for w in s.warnings] == [f"t.tzx: {message}"]


def test_coincident_edges_cancel() -> None:
    # A zero-length pulse: its two edges fall together and cancel.
    assert edges(of_tzx(tb.pulse_sequence(100, 0, 100))) == [200]


def test_too_many_edges_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sig, "MAX_EDGES", 100)
    with pytest.raises(TapeError, match=r"t.tzx: block 1 at offset 15: the signal would exceed "
                                        r"100 edges"):
        of_tzx(tb.pure_tone(1, 60), tb.pure_tone(1, 60))


def test_signal_helpers() -> None:
    s = of_tzx(tb.pure_tone(1000, 3), tb.pause(1), tb.standard(tb.rom(0xFF, b"")), tb.text(b"x"))
    assert s.edges_before(999) == 0 and s.edges_before(1000) == 1
    assert [s.block_at(t) for t in (0, 2999, 3000, 6500, s.end)] == [0, 0, 1, 2, None]
    assert s.next_data_block(0) == 2 and s.next_data_block(s.blocks[2].data_end) is None
    durations, levels = s.pulses()
    assert durations.sum() == s.end and len(durations) == len(s.edges) + 1
    assert levels[0] == s.initial_level and levels[1] == 1 - s.initial_level


# --- the vectorised builder against a slow per-pulse model of the same rules ------------------

def reference(blocks: list[tuple[str, Any]]) -> tuple[int, list[int]]:
    """(initial level, edges) by the rules of docs/tape.md, one pulse at a time."""
    t = s = c = 0
    out: list[int] = []

    def go(level: int, at: int) -> None:
        nonlocal s
        if level != s:
            out.append(at)
            s = level

    def pulse(length: int, level: int) -> None:
        nonlocal t, c
        go(level, t)
        t += length
        c = s ^ 1

    for kind, args in blocks:
        if kind == "tone":
            length, count = args
            for _ in range(count):
                pulse(length, c)
        elif kind == "seq":
            for length in args:
                pulse(length, c)
        elif kind == "direct":
            period, levels = args
            for level in levels:
                go(level, t)
                t += period
            c = s
        elif kind == "pause":
            (ms,) = args
            if ms:
                go(c, t)
                go(0, t + MS)
                t += ms * MS
                c = 0
            else:
                go(c, t)
        elif kind == "level":
            c = args[0]
        elif kind == "gen":
            for flags, lengths in args:
                for k, length in enumerate(lengths):
                    first = (c, s, 0, 1)[flags] if k == 0 else c
                    pulse(length, first)
    go(c, t)
    times = sorted(e for e in set(out) if out.count(e) % 2)
    if times and times[0] == 0:
        return 1, times[1:]
    return 0, times


lengths = st.integers(0, 400)
block_specs = st.one_of(
    st.tuples(st.just("tone"), st.tuples(lengths, st.integers(0, 5))),
    st.tuples(st.just("seq"), st.lists(lengths, max_size=5).map(tuple)),
    st.tuples(st.just("direct"), st.tuples(st.integers(1, 200),
                                           st.lists(st.integers(0, 1), min_size=1, max_size=20))),
    st.tuples(st.just("pause"), st.tuples(st.integers(0, 3))),
    st.tuples(st.just("level"), st.tuples(st.integers(0, 1))),
    st.tuples(st.just("gen"), st.lists(st.tuples(st.integers(0, 3),
                                                 st.lists(st.integers(1, 400), min_size=1,
                                                          max_size=3)),
                                       min_size=1, max_size=6).map(tuple)),
)


def encode(kind: str, args: Any) -> bytes:
    """The TZX block of a reference block spec."""
    if kind == "tone":
        return tb.pure_tone(*args)
    if kind == "seq":
        return tb.pulse_sequence(*args)
    if kind == "direct":
        period, levels = args
        bits = "".join(map(str, levels)) + "0" * (-len(levels) % 8)
        data = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
        used = len(levels) % 8 or 8
        return tb.direct(data, period, 0, used)
    if kind == "pause":
        return tb.pause(*args)
    if kind == "level":
        return tb.set_level(*args)
    table = [(f, list(p)) for f, p in args]
    return tb.generalized(table, [(k, 1) for k in range(len(table))], [], [], 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(block_specs, max_size=8))
def test_builder_matches_the_per_pulse_model(specs: list[tuple[str, Any]]) -> None:
    s = of_tzx(*(encode(kind, args) for kind, args in specs))
    assert (s.initial_level, edges(s)) == reference(specs)
    assert (np.diff(s.edges) > 0).all()


def test_conveniences_for_the_machine() -> None:
    from zxmonopoly import tape

    image = tb.tzx(tb.standard(HEADER), tb.pause(0), tb.standard(tb.rom(0xFF, b"abc")),
                   tb.stop_if_48k(), tb.text(b"end"))
    s = tape.signal_of(image, "m.tzx")
    assert tape.stop_points(s) == list(zip(s.stop_edges.tolist(), s.stops.tolist(), strict=True))
    assert [n for n, _ in tape.stop_points(s)] == [s.blocks[0].end_edge, s.blocks[2].end_edge]
    blocks = tape.data_blocks(s)
    assert [(b.index, b.raw) for b in blocks] == [(0, HEADER), (2, tb.rom(0xFF, b"abc"))]
    assert blocks[0].end_time == blocks[0].end == s.blocks[1].start


def test_a_loop_start_reached_again_restarts_its_loop() -> None:
    s = of_tzx(tb.loop_start(2), tb.pure_tone(100, 2), tb.jump(-2))
    assert [str(w) for w in s.warnings] == [
        "t.tzx: block 2 at offset 18: the jump makes an endless loop: the tape ends here"]
    assert [b.index for b in s.blocks] == [0, 1, 2, 0, 1]
