"""The Z80 instruction set, described once: every opcode of every table as Zilog text.

Everything else about instructions is derived from these tables: the generated execution
loops (``tools/gen_z80.py``), the disassembler (``disasm.py``) and the assembler's encoder.

Each table maps an opcode byte to an :class:`Op`: its mnemonic, its operands (register
names, operand-shape placeholders ``n nn d e``, or integers for bit numbers, IM modes and
RST targets) and whether it is the canonical encoding of that text (undocumented duplicates
such as ``ED 4C`` NEG are not). The tables are built from the opcode's x/y/z/p/q fields
(the decoding in Zilog's manual and Cristian Dinu's "Decoding Z80 opcodes"); the DD table
is derived from the unprefixed one and the FD table from DD.
"""

from __future__ import annotations

from dataclasses import dataclass

#: 8-bit register field r[z] (6 = (HL)).
R8 = ("B", "C", "D", "E", "H", "L", "(HL)", "A")
#: Register-pair field rp[p].
RP = ("BC", "DE", "HL", "SP")
#: Register-pair field rp2[p] (PUSH/POP).
RP2 = ("BC", "DE", "HL", "AF")
#: Condition field cc[y].
CC = ("NZ", "Z", "NC", "C", "PO", "PE", "P", "M")
#: ALU operation field alu[y]; the first element is the mnemonic, the second says if A is written.
ALU = ("ADD", "ADC", "SUB", "SBC", "AND", "XOR", "OR", "CP")
#: Rotate/shift field rot[y]. SLL (SL1) is the undocumented shift that puts 1 into bit 0.
ROT = ("RLC", "RRC", "RL", "RR", "SLA", "SRA", "SLL", "SRL")
#: Interrupt mode of ED 46 + 8*y (4E and 6E behave as IM 0 on NMOS parts).
IM_MODE = (0, 0, 1, 2, 0, 0, 1, 2)
#: Block instructions, indexed [y-4][z].
BLOCK = (
    ("LDI", "CPI", "INI", "OUTI"),
    ("LDD", "CPD", "IND", "OUTD"),
    ("LDIR", "CPIR", "INIR", "OTIR"),
    ("LDDR", "CPDR", "INDR", "OTDR"),
)

#: Mnemonics whose first of two operands (or only operand, for RET) is a condition.
CONDITIONAL = frozenset({"JR", "JP", "CALL", "RET"})

Operand = str | int


@dataclass(frozen=True)
class Op:
    """One table entry: mnemonic, operands and whether this byte is the canonical encoding."""

    mnemonic: str
    operands: tuple[Operand, ...] = ()
    canonical: bool = True

    @property
    def text(self) -> str:
        """Zilog text with the operand-shape placeholders, e.g. ``LD (IX+d),n``."""
        if not self.operands:
            return self.mnemonic
        return f"{self.mnemonic} " + ",".join(format_operand(o) for o in self.operands)


def format_operand(o: Operand) -> str:
    """Text of one operand (integers print in decimal, RST targets in hex with ``h``)."""
    if isinstance(o, int):
        return f"{o:02X}h" if o > 7 else str(o)
    return o


# Table kinds. PREFIX entries hand over to another table; PREFIX_NOP entries are DD/FD
# prefixes that modify nothing: the prefix costs 4 T and the next byte runs as usual.
PREFIX = "prefix"
PREFIX_NOP = "prefix-nop"


def _op(mnemonic: str, *operands: Operand, canonical: bool = True) -> Op:
    return Op(mnemonic, tuple(operands), canonical)


def _alu(y: int, src: Operand) -> Op:
    name = ALU[y]
    # ADD, ADC and SBC name A; SUB, AND, XOR, OR, CP leave it implicit (Zilog convention).
    if name in ("ADD", "ADC", "SBC"):
        return _op(name, "A", src)
    return _op(name, src)


def build_main() -> list[Op]:
    """The unprefixed table (256 entries; CB, DD, ED and FD are prefixes)."""
    t: list[Op] = []
    for code in range(256):
        x, y, z = code >> 6, (code >> 3) & 7, code & 7
        p, q = y >> 1, y & 1
        op: Op
        if x == 0:
            if z == 0:
                op = [_op("NOP"), _op("EX", "AF", "AF'"), _op("DJNZ", "e"), _op("JR", "e")][y] \
                    if y < 4 else _op("JR", CC[y - 4], "e")
            elif z == 1:
                op = _op("LD", RP[p], "nn") if q == 0 else _op("ADD", "HL", RP[p])
            elif z == 2:
                op = [
                    [_op("LD", "(BC)", "A"), _op("LD", "(DE)", "A"),
                     _op("LD", "(nn)", "HL"), _op("LD", "(nn)", "A")],
                    [_op("LD", "A", "(BC)"), _op("LD", "A", "(DE)"),
                     _op("LD", "HL", "(nn)"), _op("LD", "A", "(nn)")],
                ][q][p]
            elif z == 3:
                op = _op("INC" if q == 0 else "DEC", RP[p])
            elif z == 4:
                op = _op("INC", R8[y])
            elif z == 5:
                op = _op("DEC", R8[y])
            elif z == 6:
                op = _op("LD", R8[y], "n")
            else:
                op = _op(("RLCA", "RRCA", "RLA", "RRA", "DAA", "CPL", "SCF", "CCF")[y])
        elif x == 1:
            op = _op("HALT") if (y == 6 and z == 6) else _op("LD", R8[y], R8[z])
        elif x == 2:
            op = _alu(y, R8[z])
        else:
            if z == 0:
                op = _op("RET", CC[y])
            elif z == 1:
                op = _op("POP", RP2[p]) if q == 0 else \
                    [_op("RET"), _op("EXX"), _op("JP", "(HL)"), _op("LD", "SP", "HL")][p]
            elif z == 2:
                op = _op("JP", CC[y], "nn")
            elif z == 3:
                op = [_op("JP", "nn"), _op(PREFIX, "CB"), _op("OUT", "(n)", "A"),
                      _op("IN", "A", "(n)"), _op("EX", "(SP)", "HL"), _op("EX", "DE", "HL"),
                      _op("DI"), _op("EI")][y]
            elif z == 4:
                op = _op("CALL", CC[y], "nn")
            elif z == 5:
                op = _op("PUSH", RP2[p]) if q == 0 else \
                    [_op("CALL", "nn"), _op(PREFIX, "DD"), _op(PREFIX, "ED"), _op(PREFIX, "FD")][p]
            elif z == 6:
                op = _alu(y, "n")
            else:
                op = _op("RST", y * 8)
        t.append(op)
    return t


def build_cb() -> list[Op]:
    """The CB table: rotates and shifts, BIT, RES, SET."""
    t: list[Op] = []
    for code in range(256):
        x, y, z = code >> 6, (code >> 3) & 7, code & 7
        if x == 0:
            t.append(_op(ROT[y], R8[z]))
        else:
            t.append(_op(("BIT", "RES", "SET")[x - 1], y, R8[z]))
    return t


def build_ed() -> list[Op | None]:
    """The ED table; ``None`` marks the 8-T no-operations."""
    t: list[Op | None] = []
    seen: set[str] = set()
    for code in range(256):
        x, y, z = code >> 6, (code >> 3) & 7, code & 7
        p, q = y >> 1, y & 1
        op: Op | None = None
        if x == 1:
            if z == 0:
                op = _op("IN", "F", "(C)") if y == 6 else _op("IN", R8[y], "(C)")
            elif z == 1:
                op = _op("OUT", "(C)", 0) if y == 6 else _op("OUT", "(C)", R8[y])
            elif z == 2:
                op = _op("SBC" if q == 0 else "ADC", "HL", RP[p])
            elif z == 3:
                op = _op("LD", "(nn)", RP[p]) if q == 0 else _op("LD", RP[p], "(nn)")
            elif z == 4:
                op = _op("NEG")
            elif z == 5:
                op = _op("RETI") if y == 1 else _op("RETN")
            elif z == 6:
                op = _op("IM", IM_MODE[y])
            else:
                op = [_op("LD", "I", "A"), _op("LD", "R", "A"), _op("LD", "A", "I"),
                      _op("LD", "A", "R"), _op("RRD"), _op("RLD"), None, None][y]
        elif x == 2 and z <= 3 and y >= 4:
            op = _op(BLOCK[y - 4][z])
        if op is not None:
            # ED 63/6B duplicate the shorter LD (nn),HL / LD HL,(nn) of the main table.
            dup = op.text in seen or op.text in ("LD (nn),HL", "LD HL,(nn)")
            seen.add(op.text)
            if dup:
                op = Op(op.mnemonic, op.operands, canonical=False)
        t.append(op)
    return t


_INDEX_SWAP = {"HL": "IX", "H": "IXH", "L": "IXL"}


def build_dd(main: list[Op]) -> list[Op]:
    """The DD table, derived from the unprefixed one: HL→IX, H→IXH, L→IXL, (HL)→(IX+d).

    Where (HL) becomes (IX+d) the other operand keeps the real H or L (``LD H,(IX+d)``).
    Instructions that use none of these are PREFIX_NOP entries.
    """
    t: list[Op] = []
    for op in main:
        if op.mnemonic == PREFIX:
            t.append(op if op.operands != ("CB",) else _op(PREFIX, "DDCB"))
            continue
        if op.mnemonic == "EX" and op.operands == ("DE", "HL"):
            t.append(_op(PREFIX_NOP))
            continue
        ops = list(op.operands)
        if "(HL)" in ops:
            if op.mnemonic == "JP":
                ops = ["(IX)"]
            else:
                ops = ["(IX+d)" if o == "(HL)" else o for o in ops]
        else:
            ops = [_INDEX_SWAP.get(o, o) if isinstance(o, str) else o for o in ops]
        if ops == list(op.operands):
            t.append(_op(PREFIX_NOP))
        else:
            t.append(Op(op.mnemonic, tuple(ops), op.canonical))
    return t


def build_ddcb() -> list[Op]:
    """The DDCB table (opcode after the displacement), with the undocumented register copies."""
    t: list[Op] = []
    for code in range(256):
        x, y, z = code >> 6, (code >> 3) & 7, code & 7
        if x == 1:
            # BIT ignores the register field: every z behaves as z = 6.
            t.append(_op("BIT", y, "(IX+d)", canonical=(z == 6)))
            continue
        base: tuple[Operand, ...] = (ROT[y],) if x == 0 else (("RES", "SET")[x - 2], y)
        extra: tuple[Operand, ...] = () if z == 6 else (R8[z],)
        t.append(Op(str(base[0]), (*base[1:], "(IX+d)", *extra)))
    return t


def to_iy(op: Op) -> Op:
    """The FD form of a DD-table entry (IX→IY)."""
    def swap(o: Operand) -> Operand:
        return o.replace("IX", "IY") if isinstance(o, str) else o

    return Op(op.mnemonic, tuple(swap(o) for o in op.operands), op.canonical)


MAIN: list[Op] = build_main()
CB: list[Op] = build_cb()
ED: list[Op | None] = build_ed()
DD: list[Op] = build_dd(MAIN)
FD: list[Op] = [to_iy(op) for op in DD]
DDCB: list[Op] = build_ddcb()
FDCB: list[Op] = [to_iy(op) for op in DDCB]


@dataclass(frozen=True)
class Form:
    """One encodable instruction: its Op and its byte layout.

    ``encoding`` holds ints for fixed bytes and the placeholders ``"d"`` (signed displacement),
    ``"n"`` (byte), ``"nn"`` (word, little-endian, two bytes) and ``"e"`` (relative jump:
    target − address of the next instruction) in byte order.
    """

    op: Op
    encoding: tuple[int | str, ...]

    @property
    def length(self) -> int:
        """Length in bytes."""
        return sum(2 if b == "nn" else 1 for b in self.encoding)


def _placeholders(op: Op) -> list[str]:
    out: list[str] = []
    for o in op.operands:
        if not isinstance(o, str):
            continue
        if o in ("(IX+d)", "(IY+d)"):
            out.append("d")
        elif o in ("n", "(n)"):
            out.append("n")
        elif o in ("nn", "(nn)"):
            out.append("nn")
        elif o == "e":
            out.append("e")
    return out


def forms() -> list[Form]:
    """Every instruction of every table with its encoding (canonical and duplicates)."""
    out: list[Form] = []
    for code, op in enumerate(MAIN):
        if op.mnemonic != PREFIX:
            out.append(Form(op, (code, *_placeholders(op))))
    for code, op in enumerate(CB):
        out.append(Form(op, (0xCB, code)))
    for code, ed in enumerate(ED):
        if ed is not None:
            out.append(Form(ed, (0xED, code, *_placeholders(ed))))
    for prefix, table, cbtable in ((0xDD, DD, DDCB), (0xFD, FD, FDCB)):
        for code, op in enumerate(table):
            if op.mnemonic in (PREFIX, PREFIX_NOP):
                continue
            ph = _placeholders(op)
            out.append(Form(op, (prefix, code, *ph)))
        for code, op in enumerate(cbtable):
            out.append(Form(op, (prefix, 0xCB, "d", code)))
    return out
