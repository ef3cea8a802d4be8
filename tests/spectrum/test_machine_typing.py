"""Typing text into the 48K machine: the right key combinations, in order."""

from __future__ import annotations

import pytest

from tests.spectrum.roms import rom
from zxmonopoly.spectrum import Spectrum48, keystrokes
from zxmonopoly.spectrum.keyboard import KEYS, keys_for_text

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
