"""Instruction encoder: the inverse of :func:`zxmonopoly.z80.isa.forms` (no second opcode table).

An instruction's operands are classified into the operand tokens of the isa tables (``A``,
``(HL)``, ``(IX+d)``, ``n``, ``nn``, ``(nn)``, ``e``, bit numbers...) and the canonical form
with those tokens is looked up. Convention for parentheses: an operand is an indirection when
its first ``(`` closes at its very end (``(5+3)`` is memory, ``(5)+3`` and ``(1)*(2)`` are
values); brackets ``[...]`` always mean an indirection.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from ..z80 import isa
from .expr import Context, ExprError, Node, evaluate, parse
from .lexer import ID, OP, Token

# Placeholder candidates for a plain value and for a parenthesised one. "#" stands for an
# integer operand of the table (bit number, IM mode, RST target, the 0 of OUT (C),0).
_VALUE = ("n", "nn", "e", "#")
_MEMORY = ("(nn)", "(n)")

#: Register and condition names as written in source -> the isa operand token.
REGISTER_NAMES: dict[str, str] = {
    r: r for r in (
        "A B C D E H L I R F IXH IXL IYH IYL AF AF' BC DE HL SP IX IY NZ Z NC PO PE P M".split()
    )
}
# Other spellings of the index halves used by common assemblers.
REGISTER_NAMES.update({
    "XH": "IXH", "XL": "IXL", "YH": "IYH", "YL": "IYL",
    "HX": "IXH", "LX": "IXL", "HY": "IYH", "LY": "IYL",
})
_INDIRECT = {"HL": "(HL)", "BC": "(BC)", "DE": "(DE)", "SP": "(SP)", "C": "(C)",
             "IX": "(IX)", "IY": "(IY)"}

MNEMONIC_ALIASES = {"SL1": "SLL", "SLI": "SLL"}
_ALU_IMPLICIT_A = frozenset({"SUB", "AND", "XOR", "OR", "CP"})
_ALU_EXPLICIT_A = frozenset({"ADD", "ADC", "SBC"})


@dataclass(frozen=True)
class Operand:
    """A classified operand: its candidate isa tokens, its value expression, its column."""

    candidates: tuple[str, ...]
    expr: Node | None
    col: int
    text: str
    fallback: tuple[str, ...] = ()  # candidates if "(expr)" has no memory form


Shape = tuple[str, ...]
Entry = isa.Form | dict[int, isa.Form]


def _build_table() -> dict[str, dict[Shape, Entry]]:
    table: dict[str, dict[Shape, Entry]] = {}
    for form in isa.forms():
        op = form.op
        if not op.canonical:
            continue
        shape = tuple("#" if isinstance(o, int) else o for o in op.operands)
        ints = [o for o in op.operands if isinstance(o, int)]
        shapes = table.setdefault(op.mnemonic, {})
        if ints:
            choices = shapes.setdefault(shape, {})
            assert isinstance(choices, dict) and len(ints) == 1
            choices[ints[0]] = form
        else:
            assert shape not in shapes, op.text
            shapes[shape] = form
    return table


#: mnemonic -> operand shape -> form (or int operand -> form for "#" shapes). Built once.
TABLE: dict[str, dict[Shape, Entry]] = _build_table()
MNEMONICS = frozenset(TABLE) | frozenset(MNEMONIC_ALIASES)


class EncodeError(ExprError):
    """An instruction that cannot be encoded; ``col`` points at the culprit."""


def _split_parens(tokens: Sequence[Token]) -> bool:
    """Whether the first bracket of ``tokens`` closes at the very end."""
    depth = 0
    for i, tok in enumerate(tokens):
        if tok.kind == OP:
            if tok.value in ("(", "["):
                depth += 1
            elif tok.value in (")", "]"):
                depth -= 1
                if depth == 0:
                    return i == len(tokens) - 1
    return False


def classify(tokens: Sequence[Token], end_col: int) -> Operand:
    """Classify one operand's tokens (non-empty)."""
    first = tokens[0]
    col = first.col
    text = _text(tokens)
    if len(tokens) == 1 and first.kind == ID:
        reg = REGISTER_NAMES.get(first.value.upper())  # type: ignore[union-attr]
        if reg is not None:
            return Operand((reg,), None, col, text)
    if first.kind == OP and first.value in ("(", "[") and _split_parens(tokens):
        bracket = first.value == "["
        inner = tokens[1:-1]
        if not inner:
            raise EncodeError(col, "empty parentheses")
        head = inner[0]
        head_reg = REGISTER_NAMES.get(head.value.upper()) if head.kind == ID else None  # type: ignore[union-attr]
        if head_reg is not None:
            if len(inner) == 1:
                ind = _INDIRECT.get(head_reg)
                if ind is None:
                    raise EncodeError(head.col, f"({head_reg}) is not an indirection the Z80 has")
                if head_reg in ("IX", "IY"):
                    return Operand((ind, f"({head_reg}+d)"), 0, col, text)
                return Operand((ind,), None, col, text)
            if head_reg in ("IX", "IY") and inner[1].kind == OP and inner[1].value in "+-":
                # The tokens after IX form a signed expression: (IX-3) is IX + (-3).
                return Operand((f"({head_reg}+d)",), parse(inner[1:], end_col), col, text)
            raise EncodeError(head.col, f"({_text(inner)}) is not an indirection the Z80 has")
        expr = parse(inner, end_col)
        return Operand(_MEMORY, expr, col, text, () if bracket else _VALUE)
    return Operand(_VALUE, parse(tokens, end_col), col, text)


def _text(tokens: Sequence[Token]) -> str:
    out = []
    for t in tokens:
        if t.kind == "str":
            out.append(repr(t.value.decode("latin-1")))  # type: ignore[union-attr]
        else:
            out.append(str(t.value))
    return "".join(out)


@dataclass
class Plan:
    """How to emit one instruction: fixed bytes and placeholders, and the expressions to fill."""

    mnemonic: str
    length: int
    form: isa.Form | None  # None when an integer operand picks the form at emit time
    choices: dict[int, isa.Form] | None
    int_expr: tuple[Node, int] | None
    values: dict[str, tuple[Node, int]]
    fixed: bytes | None  # the whole encoding when no expression is needed
    warning: tuple[int, str] | None = None
    store: int = 0  # bytes written at the address ``values["nn"]`` (LD (nn),r): 1 for A, 2


def _lookup(mnemonic: str, ops: list[Operand], use_fallback: bool
            ) -> tuple[Entry, Shape] | None:
    shapes = TABLE.get(mnemonic)
    if shapes is None:
        return None
    cands = [(o.fallback if use_fallback and o.fallback else o.candidates) for o in ops]
    for shape in itertools.product(*cands):
        entry = shapes.get(shape)
        if entry is not None:
            return entry, shape
    return None


def _aliases(mnemonic: str, ops: list[Operand]) -> list[tuple[str, list[Operand]]]:
    """Other spellings to try: IN (C), SUB A,r, ADD r, EX AF,AF, JP HL."""
    out: list[tuple[str, list[Operand]]] = []
    a = Operand(("A",), None, 0, "A")
    if mnemonic == "IN" and len(ops) == 1 and ops[0].candidates == ("(C)",):
        out.append(("IN", [Operand(("F",), None, 0, "F"), ops[0]]))
    if mnemonic in _ALU_IMPLICIT_A and len(ops) == 2 and ops[0].candidates == ("A",):
        out.append((mnemonic, ops[1:]))
    if mnemonic in _ALU_EXPLICIT_A and len(ops) == 1:
        out.append((mnemonic, [a, ops[0]]))
    if mnemonic == "EX" and len(ops) == 2 and ops[0].candidates == ops[1].candidates == ("AF",):
        out.append(("EX", [ops[0], Operand(("AF'",), None, 0, "AF'")]))
    if mnemonic == "JP" and len(ops) == 1 and ops[0].candidates in (("HL",), ("IX",), ("IY",)):
        out.append(("JP", [Operand((f"({ops[0].candidates[0]})",), None, 0, "")]))
    return out


def plan(mnemonic: str, ops: list[Operand], col: int) -> Plan:
    """Choose the form for an instruction; raises EncodeError if none fits."""
    mnemonic = MNEMONIC_ALIASES.get(mnemonic, mnemonic)
    warning = None
    found = _lookup(mnemonic, ops, False)
    tried = [(mnemonic, ops)]
    if found is None:
        for alias, alias_ops in _aliases(mnemonic, ops):
            found = _lookup(alias, alias_ops, False)
            if found is not None:
                mnemonic, ops = alias, alias_ops
                break
            tried.append((alias, alias_ops))
    if found is None and any(o.fallback for o in ops):
        # "LD B,(5)": no memory form, so the parentheses only group (pasmo does the same).
        for m, o in tried:
            found = _lookup(m, o, True)
            if found is not None:
                mnemonic, ops = m, [Operand(x.fallback, x.expr, x.col, x.text)
                                    if x.fallback else x for x in o]
                paren = next(x for x in o if x.fallback)
                warning = (paren.col, f"{paren.text} is read as a value: {mnemonic} has no "
                                      "memory form here (drop the parentheses)")
                break
    if found is None:
        raise _no_form(mnemonic, ops, col)
    entry, shape = found
    values: dict[str, tuple[Node, int]] = {}
    int_expr = None
    for tok, o in zip(shape, ops, strict=True):
        if o.expr is None:
            continue
        if tok in ("n", "(n)"):
            values["n"] = (o.expr, o.col)
        elif tok in ("nn", "(nn)"):
            values["nn"] = (o.expr, o.col)
        elif tok == "e":
            values["e"] = (o.expr, o.col)
        elif tok.endswith("+d)"):
            values["d"] = (o.expr, o.col)
        elif tok == "#":
            int_expr = (o.expr, o.col)
    if isinstance(entry, dict):
        some = next(iter(entry.values()))
        return Plan(mnemonic, some.length, None, entry, int_expr, values, None, warning)
    fixed = None
    if not values:
        fixed = bytes(b for b in entry.encoding if isinstance(b, int))
    # LD (nn),A / HL / BC / DE / SP / IX / IY: the only forms that store at an address.
    store = 0
    if shape and shape[0] == "(nn)":
        store = 1 if shape[1] == "A" else 2
    return Plan(mnemonic, entry.length, entry, None, None, values, fixed, warning, store)


def _no_form(mnemonic: str, ops: list[Operand], col: int) -> EncodeError:
    shapes = TABLE.get(mnemonic, {})
    arities = sorted({len(s) for s in shapes})
    text = ",".join(o.text for o in ops)
    if len(ops) not in arities:
        want = " or ".join(str(a) for a in arities)
        if arities == [0]:
            return EncodeError(col, f"{mnemonic} takes no operands")
        return EncodeError(ops[0].col if ops else col,
                           f"{mnemonic} takes {want} operand{'s' if arities != [1] else ''}, "
                           f"not {len(ops)}")
    # Point at the first operand that no form of this arity accepts in its position.
    same = [s for s in shapes if len(s) == len(ops)]
    for i, o in enumerate(ops):
        if not any(s[i] in o.candidates or s[i] in o.fallback for s in same):
            return EncodeError(o.col, f"invalid operand '{o.text}' for {mnemonic} "
                                      f"(in {mnemonic} {text})")
    return EncodeError(ops[0].col, f"invalid operand combination: {mnemonic} {text}")


def _int_error(mnemonic: str, value: int, col: int) -> EncodeError:
    if mnemonic in ("BIT", "SET", "RES"):
        return EncodeError(col, f"bit number {value} is out of range 0..7")
    if mnemonic == "IM":
        return EncodeError(col, f"interrupt mode {value} is not 0, 1 or 2")
    if mnemonic == "RST":
        return EncodeError(col, f"RST target ${value & 0xFFFF:X} is not one of "
                                "$00,$08,$10,$18,$20,$28,$30,$38")
    if mnemonic == "OUT":
        return EncodeError(col, f"OUT (C) can only send the constant 0, not {value}")
    return EncodeError(col, f"value {value} is not allowed here")


def select(p: Plan, ctx: Context) -> isa.Form:
    """The form of a plan whose integer operand (bit, mode, RST target) is now known."""
    if p.form is not None:
        return p.form
    assert p.choices is not None and p.int_expr is not None
    expr, col = p.int_expr
    value = evaluate(expr, ctx)
    form = p.choices.get(value)
    if form is None:
        raise _int_error(p.mnemonic, value, col)
    return form


def encode(p: Plan, ctx: Context) -> bytes:
    """The bytes of a planned instruction at ``ctx.pc``; raises ExprError/EncodeError."""
    if p.fixed is not None:
        return p.fixed
    form = select(p, ctx)
    out = bytearray()
    values = p.values
    for item in form.encoding:
        if type(item) is int:
            out.append(item)
            continue
        expr, col = values[item]  # type: ignore[index]
        v = evaluate(expr, ctx)
        if item == "n":
            if not -128 <= v <= 255:
                raise EncodeError(col, f"value {v} does not fit in a byte (-128..255)")
            out.append(v & 0xFF)
        elif item == "nn":
            if not -32768 <= v <= 65535:
                raise EncodeError(col, f"value {v} does not fit in a word (-32768..65535)")
            out += bytes((v & 0xFF, (v >> 8) & 0xFF))
        elif item == "d":
            if not -128 <= v <= 127:
                raise EncodeError(col, f"index offset {v} is out of range -128..127")
            out.append(v & 0xFF)
        else:  # "e"
            nxt = ctx.pc + p.length
            dist = v - nxt
            if not -128 <= dist <= 127 and 0 <= v <= 0xFFFF:
                # Jumps wrap round the 64K address space.
                dist = ((dist + 0x8000) & 0xFFFF) - 0x8000
            if not -128 <= dist <= 127:
                raise EncodeError(col, f"{p.mnemonic} target out of range: ${v & 0xFFFF:04X} "
                                       f"is {dist:+d} bytes from the next instruction "
                                       "(reach is -128..+127)")
            out.append(dist & 0xFF)
    return bytes(out)
