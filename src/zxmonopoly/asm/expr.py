"""Expressions: a precedence-climbing parser into a small tree, and its evaluator (no eval()).

Tree nodes: ``int`` (a constant), :class:`Sym` (a name), :data:`HERE` (``$``), and tuples
``(operator, col, operand, ...)``. Values are Python integers; fields check their own ranges.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from .errors import AssemblerError
from .lexer import ID, NUM, OP, STR, Token


class ExprError(AssemblerError):
    """A malformed or unevaluable expression; ``col`` is the 1-based column."""

    def __init__(self, col: int, message: str) -> None:
        super().__init__(message)
        self.col = col
        self.message = message


class Undefined(ExprError):
    """A name with no value (yet): passes before the last may resolve it."""

    def __init__(self, col: int, name: str) -> None:
        super().__init__(col, f"undefined symbol '{name}'")
        self.name = name


class Sym:
    """A symbol reference in an expression tree."""

    __slots__ = ("name", "col")

    def __init__(self, name: str, col: int) -> None:
        self.name = name
        self.col = col

    def __repr__(self) -> str:
        return f"Sym({self.name!r})"


class _Here:
    """The ``$`` node: the address of the current statement."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "$"


HERE = _Here()

Node = object


class Context(Protocol):
    """What evaluation needs: the value of a name and the current address."""

    pc: int

    def value(self, name: str, col: int) -> int:
        """The value of ``name``; raises Undefined."""
        ...


TRUE = -1  # all bits set, as pasmo: "true" ANDs and ORs like a mask

#: Values are 32 bits (the Z80 needs 16; 32 leaves room for arithmetic on addresses): every
#: literal and every intermediate result lies in -VALUE_LIMIT..VALUE_LIMIT.
VALUE_LIMIT = 0xFFFF_FFFF
#: An expression holds at most this many operators, nested at most this deep (parentheses,
#: signs and conditionals): the evaluator recurses over the tree.
MAX_OPERATORS = 256
MAX_NESTING = 64


def check_value(value: int, col: int) -> int:
    """``value`` if it fits the assembler's 32 bits, else an ExprError (never printing it)."""
    if -VALUE_LIMIT <= value <= VALUE_LIMIT:
        return value
    raise ExprError(col, "value out of range: the assembler's values are 32-bit "
                         "(-0xFFFFFFFF..0xFFFFFFFF)")

#: Register and condition names: reserved, never symbols.
REGISTERS = frozenset(
    "A B C D E H L I R F IXH IXL IYH IYL XH XL YH YL HX LX HY LY AF AF' BC DE HL SP IX IY "
    "NZ Z NC PO PE P M".split()
)

# Binary operators: token (upper case for words) -> (precedence, canonical name).
_BINARY: dict[str, tuple[int, str]] = {
    "||": (1, "||"),
    "&&": (2, "&&"),
    "|": (3, "|"), "OR": (3, "|"),
    "^": (4, "^"), "XOR": (4, "^"),
    "&": (5, "&"), "AND": (5, "&"),
    "==": (6, "=="), "=": (6, "=="), "EQ": (6, "=="),
    "!=": (6, "!="), "<>": (6, "!="), "NE": (6, "!="),
    "<": (7, "<"), "LT": (7, "<"), "<=": (7, "<="), "LE": (7, "<="),
    ">": (7, ">"), "GT": (7, ">"), ">=": (7, ">="), "GE": (7, ">="),
    "<<": (8, "<<"), "SHL": (8, "<<"), ">>": (8, ">>"), "SHR": (8, ">>"),
    "+": (9, "+"), "-": (9, "-"),
    "*": (10, "*"), "/": (10, "/"), "%": (10, "%"), "MOD": (10, "%"),
}
_UNARY = {"-": "neg", "+": "pos", "~": "~", "!": "!", "NOT": "~", "HIGH": "high", "LOW": "low"}
#: Words that are operators inside expressions (and so cannot be symbol names).
WORD_OPERATORS = frozenset(
    k for k in list(_BINARY) + list(_UNARY) if k.isalpha()
)


def _div(a: int, b: int, col: int) -> int:
    if b == 0:
        raise ExprError(col, "division by zero")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _mod(a: int, b: int, col: int) -> int:
    if b == 0:
        raise ExprError(col, "division by zero")
    return a - b * _div(a, b, col)


def _shl(a: int, b: int, col: int) -> int:
    if not 0 <= b <= 64:
        raise ExprError(col, f"shift count {b} is out of range 0..64")
    return a << b


def _shr(a: int, b: int, col: int) -> int:
    if not 0 <= b <= 64:
        raise ExprError(col, f"shift count {b} is out of range 0..64")
    return a >> b


_BINARY_FUNCS: dict[str, Callable[[int, int, int], int]] = {
    "+": lambda a, b, c: a + b,
    "-": lambda a, b, c: a - b,
    "*": lambda a, b, c: a * b,
    "/": _div,
    "%": _mod,
    "<<": _shl,
    ">>": _shr,
    "&": lambda a, b, c: a & b,
    "|": lambda a, b, c: a | b,
    "^": lambda a, b, c: a ^ b,
    "==": lambda a, b, c: TRUE if a == b else 0,
    "!=": lambda a, b, c: TRUE if a != b else 0,
    "<": lambda a, b, c: TRUE if a < b else 0,
    "<=": lambda a, b, c: TRUE if a <= b else 0,
    ">": lambda a, b, c: TRUE if a > b else 0,
    ">=": lambda a, b, c: TRUE if a >= b else 0,
}
_UNARY_FUNCS: dict[str, Callable[[int], int]] = {
    "neg": lambda a: -a,
    "pos": lambda a: a,
    "~": lambda a: ~a,
    "!": lambda a: 0 if a else TRUE,
    "high": lambda a: (a >> 8) & 0xFF,
    "low": lambda a: a & 0xFF,
}


def evaluate(node: Node, ctx: Context) -> int:
    """The value of an expression tree."""
    t = type(node)
    if t is int:
        return node  # type: ignore[return-value]
    if t is Sym:
        return ctx.value(node.name, node.col)  # type: ignore[attr-defined]
    if node is HERE:
        return ctx.pc
    op = node[0]  # type: ignore[index]
    if op in _BINARY_FUNCS:
        return check_value(_BINARY_FUNCS[op](evaluate(node[2], ctx), evaluate(node[3], ctx),  # type: ignore[index]
                                             node[1]), node[1])  # type: ignore[index]
    if op == "&&":
        return TRUE if evaluate(node[2], ctx) and evaluate(node[3], ctx) else 0  # type: ignore[index]
    if op == "||":
        return TRUE if evaluate(node[2], ctx) or evaluate(node[3], ctx) else 0  # type: ignore[index]
    if op == "?":
        return evaluate(node[3] if evaluate(node[2], ctx) else node[4], ctx)  # type: ignore[index]
    return check_value(_UNARY_FUNCS[op](evaluate(node[2], ctx)), node[1])  # type: ignore[index]


def symbols_in(node: Node) -> list[Sym]:
    """Every symbol reference in a tree, left to right."""
    if type(node) is Sym:
        return [node]  # type: ignore[list-item]
    if type(node) is tuple:
        return [s for child in node[2:] for s in symbols_in(child)]
    return []


class _Parser:
    def __init__(self, tokens: Sequence[Token], end_col: int) -> None:
        self.tokens = tokens
        self.pos = 0
        self.end_col = end_col
        self.operators = 0
        self.depth = 0

    def count(self, tok: Token) -> None:
        """One more operator: refuse an expression too long to evaluate safely."""
        self.operators += 1
        if self.operators > MAX_OPERATORS:
            raise ExprError(tok.col, f"expression too long: more than {MAX_OPERATORS} "
                                     "operators")

    def enter(self, tok: Token) -> None:
        """One level deeper (a parenthesis, a sign, a conditional)."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ExprError(tok.col, f"expression nested too deeply: more than {MAX_NESTING} "
                                     "levels of parentheses, signs and conditionals")

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def error_here(self, message: str) -> ExprError:
        tok = self.peek()
        return ExprError(tok.col if tok else self.end_col, message)

    def ternary(self) -> Node:
        cond = self.binary(1)
        tok = self.peek()
        if tok is not None and tok.kind == OP and tok.value == "?":
            self.pos += 1
            self.count(tok)
            self.enter(tok)
            a = self.ternary()
            colon = self.peek()
            if colon is None or colon.kind != OP or colon.value != ":":
                raise self.error_here("expected ':' in conditional expression")
            self.pos += 1
            b = self.ternary()
            self.depth -= 1
            return ("?", tok.col, cond, a, b)
        return cond

    def binary(self, min_prec: int) -> Node:
        left = self.unary()
        while True:
            tok = self.peek()
            if tok is None:
                return left
            key = tok.value.upper() if tok.kind == ID else tok.value  # type: ignore[union-attr]
            if tok.kind not in (OP, ID) or key not in _BINARY:
                return left
            prec, name = _BINARY[key]  # type: ignore[index]
            if prec < min_prec:
                return left
            self.pos += 1
            self.count(tok)
            right = self.binary(prec + 1)
            left = (name, tok.col, left, right)

    def unary(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise self.error_here("expected a value")
        key = tok.value.upper() if tok.kind == ID else tok.value  # type: ignore[union-attr]
        if tok.kind in (OP, ID) and key in _UNARY:
            self.pos += 1
            self.count(tok)
            self.enter(tok)
            operand = self.unary()
            self.depth -= 1
            if type(operand) is int:
                return check_value(_UNARY_FUNCS[_UNARY[key]](operand), tok.col)  # type: ignore[index, arg-type]
            return (_UNARY[key], tok.col, operand)  # type: ignore[index]
        return self.primary()

    def primary(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise self.error_here("expected a value")
        self.pos += 1
        kind = tok.kind
        if kind == NUM:
            return tok.value
        if kind == ID:
            name: str = tok.value  # type: ignore[assignment]
            upper = name.upper()
            if upper in REGISTERS:
                raise ExprError(tok.col, f"register {upper} cannot be used in an expression")
            if upper in WORD_OPERATORS:
                raise ExprError(tok.col, f"operator {upper} needs an operand before it")
            return Sym(name, tok.col)
        if kind == STR:
            data: bytes = tok.value  # type: ignore[assignment]
            if len(data) != 1:
                raise ExprError(tok.col, "a string in an expression must be one character long")
            return data[0]
        if tok.value == "$":
            return HERE
        if tok.value in ("(", "["):
            close = ")" if tok.value == "(" else "]"
            self.enter(tok)
            inner = self.ternary()
            self.depth -= 1
            end = self.peek()
            if end is None or end.kind != OP or end.value != close:
                raise self.error_here(f"expected '{close}'")
            self.pos += 1
            return inner
        raise ExprError(tok.col, f"unexpected '{tok.value}' in expression")


def parse(tokens: Sequence[Token], end_col: int = 0) -> Node:
    """Parse a whole token sequence as one expression (constants are folded)."""
    if len(tokens) == 1:
        tok = tokens[0]
        if tok.kind == NUM:
            return tok.value
        if tok.kind == ID and tok.value.upper() not in REGISTERS \
                and tok.value.upper() not in WORD_OPERATORS:  # type: ignore[union-attr]
            return Sym(tok.value, tok.col)  # type: ignore[arg-type]
    if not tokens:
        raise ExprError(end_col, "expected a value")
    p = _Parser(tokens, end_col)
    node = p.ternary()
    if p.pos < len(tokens):
        tok = tokens[p.pos]
        raise ExprError(tok.col, f"unexpected '{tok.value}' after expression")
    return _fold(node)


def _fold(node: Node) -> Node:
    """Fold constant subtrees so that a constant expression becomes an int."""
    if type(node) is not tuple:
        return node
    args = [_fold(a) for a in node[2:]]
    node = (node[0], node[1], *args)
    if all(type(a) is int for a in args):
        try:
            return evaluate(node, _NoSymbols())
        except ExprError:
            return node  # keep it, so the error is reported where it is used
    return node


class _NoSymbols:
    pc = 0

    def value(self, name: str, col: int) -> int:
        raise Undefined(col, name)
