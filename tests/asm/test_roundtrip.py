"""asm(disasm(b)) == b for every opcode of every table, with any operand bytes and address."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zxmonopoly.z80 import disasm

from .util import program

# Prefix bytes of each table; the opcode byte follows (after the displacement for DDCB/FDCB).
TABLES = {
    "main": (), "CB": (0xCB,), "ED": (0xED,), "DD": (0xDD,), "FD": (0xFD,),
    "DDCB": (0xDD, 0xCB), "FDCB": (0xFD, 0xCB),
}


def layout(table: str, operands: bytes, address: int) -> tuple[str, bytes]:
    """Source text and expected bytes of all 256 opcodes of a table laid out from ``address``.

    Each opcode gets operand bytes from ``operands``; it keeps only as many bytes as the
    disassembler decodes (a DD prefix with no effect is one byte).
    """
    mem = bytearray(0x10000)
    lines = [f" org ${address:04X}"]
    data = bytearray()
    cursor = address
    prefix = TABLES[table]
    for k, op in enumerate(range(256)):
        extra = operands[k % len(operands):] + operands
        chunk = bytes(prefix) + (bytes([extra[0], op]) if table.endswith("CB") and prefix
                                 else bytes([op])) + extra[1:4]
        mem[cursor:cursor + len(chunk)] = chunk
        ins = disasm.decode(mem, cursor)
        lines.append(" " + ins.text)
        data += ins.data
        cursor += ins.length
    return "\n".join(lines) + "\n", bytes(data)


def check(table: str, operands: bytes, address: int) -> None:
    text, want = layout(table, operands, address)
    got = program(text).binary()
    if got != want:
        at = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
                  min(len(got), len(want)))
        raise AssertionError(f"{table} at ${address:04X}: first difference at byte {at} "
                             f"(${address + at:04X})\n{text}")


@pytest.mark.parametrize("table", list(TABLES))
def test_every_opcode_round_trips(table: str) -> None:
    rnd = random.Random(table)
    for address in (0x0000, 0x8000, 0xF800):
        check(table, bytes(rnd.randrange(256) for _ in range(64)), address)


@pytest.mark.parametrize("table", list(TABLES))
@settings(max_examples=15, deadline=None)
@given(operands=st.binary(min_size=4, max_size=64), address=st.integers(0, 0xF800))
def test_round_trip_with_any_operands(table: str, operands: bytes, address: int) -> None:
    check(table, operands, address)


@settings(max_examples=300, deadline=None)
@given(code=st.binary(min_size=4, max_size=4), address=st.integers(0, 0xFFF0))
def test_any_four_bytes_round_trip(code: bytes, address: int) -> None:
    mem = bytearray(0x10000)
    mem[address:address + 4] = code
    ins = disasm.decode(mem, address)
    assert program(f" org ${address:04X}\n {ins.text}\n").binary() == ins.data, ins.text
