"""FOR with its limit passed at the start (the body is skipped to after NEXT v), STEP down and
STEP 0; BEEP's tone (bit 4 of port 0xFE) and its duration."""

from __future__ import annotations

import pytest

from zxmonopoly.clock import FRAME_TSTATES

from .romkit import BREAK, press_enter, report_line, run_command, screen, type_basic

CLOCK_HZ = 3_500_000


def enter_program(machine, *lines: tuple[str, ...]) -> None:
    for parts in lines:
        type_basic(machine, *parts)
        press_enter(machine)


def test_for_with_the_limit_passed_skips_the_body_to_after_its_next(machine):
    enter_program(machine,
                  ("10", "PRINT", '"a";'),
                  ("20", "FOR", "i=5", "TO", "1"),
                  ("30", "PRINT", '"body";'),
                  ("40", "NEXT", "i:", "PRINT", '"b";', "i"),
                  ("50", "FOR", "j=1", "TO", "5", "STEP", "-1:", "PRINT", '"x";:', "NEXT", "j:",
                   "PRINT", '"c";', "j"))
    text = run_command(machine, "RUN")
    assert text[:2] == ["ab5", "c1"]
    assert report_line(machine) == "0 OK, 50:4"


def test_for_skip_finds_the_next_of_its_own_variable_past_nested_loops(machine):
    enter_program(machine,
                  ("10", "FOR", "i=3", "TO", "2"),
                  ("20", "FOR", "j=1", "TO", "2"),
                  ("30", "PRINT", '"no"'),
                  ("40", "NEXT", "j"),
                  ("50", "NEXT", "i"),
                  ("60", "FOR", "i=1", "TO", "2:", "FOR", "j=2", "TO", "1:", "PRINT", '"no":',
                   "NEXT", "j:", "PRINT", "i;:", "NEXT", "i"),
                  ("70", "PRINT", '"/"'))
    text = run_command(machine, "RUN")
    assert text[0] == "12/"
    assert report_line(machine) == "0 OK, 70:1"


def test_for_skip_ignores_next_in_strings_and_rem_and_other_variables(machine):
    enter_program(machine,
                  ("10", "FOR", "n=9", "TO", "0:", "PRINT", '"NEXT n";'),
                  ("20", "REM", "NEXT n"),
                  ("30", "NEXT", "m"),
                  ("40", "NEXT", "n:", "PRINT", '"ok"'))
    text = run_command(machine, "RUN")
    assert text[0] == "ok"


def test_for_step_down_counts_down(machine):
    text = run_command(machine, "FOR", "k=3", "TO", "-2", "STEP", "-2:", "PRINT", "k;",
                       '" ";:', "NEXT", "k")
    assert text[0] == "3 1 -1"
    assert report_line(machine) == "0 OK, 0:3"


def test_for_without_its_next_in_a_command_and_a_program(machine):
    run_command(machine, "FOR", "k=2", "TO", "1:", "PRINT", '"no"')
    assert report_line(machine) == "I FOR without NEXT, 0:1"
    enter_program(machine, ("10", "FOR", "k=2", "TO", "1"), ("20", "NEXT", "j"))
    run_command(machine, "RUN")
    assert report_line(machine) == "I FOR without NEXT, 10:1"


def test_for_step_0_loops_until_break(machine):
    enter_program(machine, ("10", "FOR", "i=1", "TO", "2", "STEP", "0"), ("20", "NEXT", "i"))
    assert not press_enter_run(machine)
    machine.keyboard.press(BREAK)
    machine.run_frames(5)
    machine.keyboard.release(BREAK)
    machine.run_frames(3)
    assert report_line(machine).startswith("L BREAK into program, ")


def press_enter_run(machine) -> bool:
    type_basic(machine, "RUN")
    return press_enter(machine, max_frames=50)


def record_speaker(machine) -> list[tuple[int, int]]:
    """From now on, every port-0xFE write as (T-state since the recording began, byte)."""
    writes: list[tuple[int, int]] = []
    start = machine.frame

    def listener(m) -> None:
        base = (m.frame - 1 - start) * FRAME_TSTATES
        writes.extend((base + t, v) for t, v in m.last_frame_events)

    machine.frame_listeners.append(listener)
    return writes


def tone(writes: list[tuple[int, int]]) -> tuple[float, float]:
    """The longest run of evenly spaced speaker (bit 4) toggles: (frequency Hz, seconds)."""
    toggles = []
    level = None
    for t, v in writes:
        bit = v & 0x10
        if bit != level:
            if level is not None:
                toggles.append(t)
            level = bit
    gaps = [b - a for a, b in zip(toggles, toggles[1:], strict=False)]
    assert len(gaps) > 10, "no tone"
    typical = sorted(gaps)[len(gaps) // 2]
    best, run_start = (0, 0), 0
    for i, gap in enumerate(gaps + [0]):
        if abs(gap - typical) > typical // 10:
            if i - run_start > best[1] - best[0]:
                best = (run_start, i)
            run_start = i + 1
    first, last = toggles[best[0]], toggles[best[1]]
    half_periods = best[1] - best[0]
    return CLOCK_HZ * half_periods / (2 * (last - first)), (last - first) / CLOCK_HZ


@pytest.mark.parametrize(("duration", "pitch", "hz"), [
    (".5", "0", 261.63), ("0.5", "12", 523.25), (".5", "-12", 130.81),
])
def test_beep_sounds_the_pitch_for_the_duration(machine, duration, pitch, hz):
    writes = record_speaker(machine)
    run_command(machine, "BEEP", f"{duration},{pitch}", max_frames=60)
    assert report_line(machine) == "0 OK, 0:1"
    frequency, seconds = tone(writes)
    assert frequency == pytest.approx(hz, rel=0.01)
    assert seconds == pytest.approx(0.5, rel=0.02)


def test_beep_keeps_the_border_colour_in_bits_0_to_2(machine):
    run_command(machine, "BORDER", "2")
    writes = record_speaker(machine)
    run_command(machine, "BEEP", ".1,0", max_frames=30)
    assert len(writes) > 20
    assert {v & 0x07 for _, v in writes} == {2}


def test_beep_in_a_program_with_whole_seconds_and_expressions(machine):
    enter_program(machine, ("10", "LET", "d=1"), ("20", "BEEP", "d,", "7-7:", "PRINT", '"done"'))
    writes = record_speaker(machine)
    run_command(machine, "RUN", max_frames=100)
    assert screen(machine)[0] == "done"
    assert report_line(machine) == "0 OK, 20:2"
    frequency, seconds = tone(writes)
    assert frequency == pytest.approx(261.63, rel=0.01)
    assert seconds == pytest.approx(1.0, rel=0.02)


@pytest.mark.parametrize("args", ["11,0", "10.5,0", "1,70", "1,-61", "-1,0"])
def test_beep_out_of_range_is_report_b(machine, args):
    run_command(machine, "BEEP", args, max_frames=20)
    assert report_line(machine) == "B Integer out of range, 0:1"


@pytest.mark.parametrize("args", ["1", ".5+1,0", "1,0 2"])
def test_beep_nonsense_is_report_c(machine, args):
    run_command(machine, "BEEP", args, max_frames=20)
    assert report_line(machine) == "C Nonsense in BASIC, 0:1"


def test_break_stops_a_beep_with_report_d(machine):
    type_basic(machine, "BEEP", "10,0")
    assert not press_enter(machine, max_frames=20)
    machine.keyboard.press(BREAK)
    machine.run_frames(3)
    machine.keyboard.release(BREAK)
    machine.run_frames(3)
    assert report_line(machine) == "D BREAK - CONT repeats, 0:1"
