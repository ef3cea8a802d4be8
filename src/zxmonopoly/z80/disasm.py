"""Disassembler driven by the instruction tables of :mod:`zxmonopoly.z80.isa`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import isa


@dataclass(frozen=True)
class Instruction:
    """One decoded instruction: address, bytes, table entry and text with values filled in."""

    address: int
    data: bytes
    op: isa.Op | None
    text: str

    @property
    def length(self) -> int:
        """Length in bytes."""
        return len(self.data)


def _hex8(v: int) -> str:
    return f"${v:02X}"


def _hex16(v: int) -> str:
    return f"${v:04X}"


def _defb(data: Sequence[int]) -> str:
    return "DEFB " + ",".join(_hex8(b) for b in data)


def decode(mem: Sequence[int], address: int) -> Instruction:
    """Decode the instruction at ``address`` (memory wraps at 64K).

    Undocumented duplicates (``ED 4C``), ED no-operations and DD/FD prefixes that change
    nothing come out as ``DEFB`` lines with the meaning in a comment, so that assembling the
    text gives back the same bytes.
    """
    size = len(mem)

    def byte(k: int) -> int:
        return mem[(address + k) % size]

    b0 = byte(0)
    if b0 == 0xCB:
        op: isa.Op | None = isa.CB[byte(1)]
        layout: tuple[int | str, ...] = (0xCB, byte(1))
    elif b0 == 0xED:
        op = isa.ED[byte(1)]
        if op is None:
            return Instruction(address, bytes([b0, byte(1)]), None,
                               _defb([b0, byte(1)]) + " ; NOP (ED)")
        layout = (0xED, byte(1), *isa._placeholders(op))
    elif b0 in (0xDD, 0xFD):
        table = isa.DD if b0 == 0xDD else isa.FD
        op = table[byte(1)]
        if op.mnemonic == isa.PREFIX and op.operands[0] in ("DDCB", "FDCB"):
            cb = isa.DDCB if b0 == 0xDD else isa.FDCB
            op = cb[byte(3)]
            layout = (b0, 0xCB, "d", byte(3))
        elif op.mnemonic in (isa.PREFIX, isa.PREFIX_NOP):
            return Instruction(address, bytes([b0]), None,
                               _defb([b0]) + " ; prefix without effect")
        else:
            layout = (b0, byte(1), *isa._placeholders(op))
    else:
        op = isa.MAIN[b0]
        layout = (b0, *isa._placeholders(op))
    values: dict[str, int] = {}
    data: list[int] = []
    for item in layout:
        k = len(data)
        if isinstance(item, int):
            data.append(item)
        elif item == "nn":
            values["nn"] = byte(k) | (byte(k + 1) << 8)
            data += [byte(k), byte(k + 1)]
        else:
            values[item] = byte(k)
            data.append(byte(k))
    raw = bytes(data)
    if not op.canonical:
        return Instruction(address, raw, op, _defb(raw) + f" ; {_render(op, values, address, raw)}")
    return Instruction(address, raw, op, _render(op, values, address, raw))


def _render(op: isa.Op, values: dict[str, int], address: int, raw: bytes) -> str:
    parts: list[str] = []
    for o in op.operands:
        if isinstance(o, int):
            parts.append(isa.format_operand(o) if op.mnemonic != "RST" else _hex8(o))
        elif o in ("n", "(n)"):
            parts.append(o.replace("n", _hex8(values["n"])))
        elif o in ("nn", "(nn)"):
            parts.append(o.replace("nn", _hex16(values["nn"])))
        elif o == "e":
            e = values["e"]
            parts.append(_hex16((address + len(raw) + e - (256 if e > 127 else 0)) & 0xFFFF))
        elif o.endswith("+d)"):
            d = values["d"]
            d = d - 256 if d > 127 else d
            parts.append(o.replace("+d", f"{d:+d}"))
        else:
            parts.append(o)
    return op.mnemonic + (" " + ",".join(parts) if parts else "")


def disassemble(mem: Sequence[int], start: int, end: int) -> list[Instruction]:
    """Decode instructions from ``start`` until the address reaches ``end``."""
    out: list[Instruction] = []
    address = start
    while address < end:
        ins = decode(mem, address)
        out.append(ins)
        address += ins.length
    return out
