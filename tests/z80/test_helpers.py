"""Tests of the Z80 test helpers themselves (tests/z80/helpers.py)."""

from __future__ import annotations

import pytest

from tests.z80.helpers import flags_text, memory_diff, register_table, run_instruction


def test_register_table_marks_differences() -> None:
    table = register_table({"af": 0x1234, "pc": 0x0001}, {"af": 0x1235, "pc": 0x0001})
    lines = table.splitlines()
    assert lines[1].split() == ["*", "af", "1234", "1235"]
    assert lines[2].split() == ["F", "--5H-P--", "--5H-P-C"]
    assert lines[3].split() == ["pc", "0001", "0001"]


def test_flags_text() -> None:
    assert flags_text(0xFF) == "SZ5H3PNC"
    assert flags_text(0x41) == "-Z-----C"


def test_memory_diff_limits_lines() -> None:
    text = memory_diff(bytes(40), bytes([1]) * 40, limit=2)
    assert text.splitlines() == [
        "  0000: expected 00, got 01",
        "  0001: expected 00, got 01",
        "  ... 38 more",
    ]


def test_run_instruction_nop(z80_engine) -> None:
    run = run_instruction([0x00], engine=z80_engine, a=0x12)
    run.expect(pc=0x0001, r=0x01, a=0x12, tstates=4)


def test_run_instruction_reports_a_difference(z80_engine) -> None:
    run = run_instruction([0x3C], engine=z80_engine, mnemonic="INC A", a=0x0F)  # INC A
    with pytest.raises(AssertionError) as failure:
        run.expect(a=0x11)
    message = str(failure.value)
    assert message.startswith("INC A [3C] with a=0F")
    assert "* a" in message


def test_run_instruction_memory(z80_engine) -> None:
    run = run_instruction([0x77], engine=z80_engine, hl=0x8000, a=0x5A)  # LD (HL),A
    run.expect(memory={0x8000: 0x5A}, tstates=7)
    with pytest.raises(AssertionError, match="8000: expected 00, got 5A"):
        run.expect()
