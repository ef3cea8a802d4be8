"""Lexer: one source line into tokens (one compiled pattern matched token by token)."""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import AssemblerError

# Token kinds.
NUM = "num"  # value: int
STR = "str"  # value: bytes (the string's characters)
ID = "id"  # value: the name as written
OP = "op"  # value: operator or punctuation text


class Token(NamedTuple):
    """One token: kind, value and 1-based column."""

    kind: str
    value: object
    col: int


class LexError(AssemblerError):
    """A malformed token; ``col`` is the 1-based column."""

    def __init__(self, col: int, message: str) -> None:
        super().__init__(message)
        self.col = col
        self.message = message


_PATTERN = re.compile(
    r"""
     (?P<ws>[ \t\r\f\v]+)
    |(?P<comment>;.*)
    |(?P<afp>[Aa][Ff]')
    |(?P<id>[A-Za-z_@.][A-Za-z0-9_?@.]*)
    |(?P<num>[0-9][0-9A-Za-z_]*)
    |(?P<hex>[$#][0-9A-Fa-f][0-9A-Za-z_]*)
    |(?P<bin>%[01][01_]*)
    |(?P<amp>&[0-9A-Fa-f][0-9A-Za-z_]*)
    |(?P<dq>"(?:[^"\\]|\\.)*")
    |(?P<sq>'(?:[^']|'')*')
    |(?P<op><<|>>|<=|>=|==|!=|<>|&&|\|\||[-+*/%&|^~!<>=(),:\[\]?$\#])
    """,
    re.VERBOSE,
)

# Kinds after which an operator, not an operand, is expected ("x %10" is x MOD 10).
_OPERAND_END = frozenset({NUM, STR, ID})
_CLOSERS = frozenset({")", "]", "$"})

_ESCAPES = {
    "n": 10, "r": 13, "t": 9, "a": 7, "b": 8, "f": 12, "v": 11, "e": 27,
    "\\": 92, '"': 34, "'": 39,
}


#: The largest literal: values are 32 bits (see expr.VALUE_LIMIT).
MAX_LITERAL = 0xFFFF_FFFF
#: Characters of a literal at most (32 binary digits, a prefix or suffix and separators);
#: checked before any conversion, so no literal is ever too long for Python's int().
MAX_LITERAL_CHARS = 48


def shown(text: str, width: int = 24) -> str:
    """``text`` cut for a message."""
    return text if len(text) <= width else text[:width - 3] + "..."


def _checked(value: int, text: str) -> int:
    if value > MAX_LITERAL:
        raise ValueError(f"number '{shown(text)}' does not fit in 32 bits (the assembler's "
                         "values are 32-bit)")
    return value


def parse_number(text: str) -> int:
    """Value of a numeric literal that starts with a digit: 255 0FFh 0xFF 0b1010 1010b 17o 10d."""
    if len(text) > MAX_LITERAL_CHARS:
        raise ValueError(f"number '{shown(text)}' is too long ({len(text):,} characters): the "
                         "assembler's values are 32-bit")
    return _checked(_parse_number(text), text)


def _parse_number(text: str) -> int:
    t = text.replace("_", "").lower()
    try:
        if t.startswith("0x"):
            return int(t[2:], 16)
        if t.endswith("h"):
            return int(t[:-1], 16)
        if t.startswith("0b") and len(t) > 2 and t[-1] != "h":
            return int(t[2:], 2)
        if t.endswith("b"):
            return int(t[:-1], 2)
        if t.endswith(("o", "q")):
            return int(t[:-1], 8)
        if t.endswith("d"):
            return int(t[:-1], 10)
        return int(t, 10)
    except ValueError:
        raise ValueError(f"malformed number '{shown(text)}'") from None


def _unescape(body: str, col: int) -> bytes:
    """Bytes of a double-quoted string body with C-style escapes."""
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c != "\\":
            out += _char_bytes(c, col + i + 1)
            i += 1
            continue
        i += 1
        e = body[i]
        if e == "x":
            digits = body[i + 1:i + 3]
            if len(digits) != 2 or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise LexError(col + i, "\\x needs two hex digits")
            out.append(int(digits, 16))
            i += 3
        elif e in "01234567":
            j = i
            while j < n and j < i + 3 and body[j] in "01234567":
                j += 1
            out.append(int(body[i:j], 8) & 0xFF)
            i = j
        elif e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 1
        else:
            raise LexError(col + i, f"unknown escape '\\{e}' in string")
    return bytes(out)


def _char_bytes(c: str, col: int) -> bytes:
    code = ord(c)
    if code > 0xFF:
        raise LexError(col, f"character '{c}' does not fit in a byte")
    return bytes([code])


def lex(text: str) -> list[Token]:
    """Tokens of one line (comment dropped); raises LexError."""
    tokens: list[Token] = []
    append = tokens.append
    pos = 0
    n = len(text)
    match = _PATTERN.match
    while pos < n:
        m = match(text, pos)
        if m is None:
            c = text[pos]
            if c in "\"'":
                raise LexError(pos + 1, "unterminated string")
            raise LexError(pos + 1, f"unexpected character '{c}'")
        kind = m.lastgroup
        end = m.end()
        col = pos + 1
        if kind == "ws":
            pass
        elif kind == "comment":
            break
        elif kind == "id" or kind == "afp":
            append(Token(ID, m.group(), col))
        elif kind == "num":
            try:
                append(Token(NUM, parse_number(m.group()), col))
            except ValueError as exc:
                raise LexError(col, str(exc)) from None
        elif kind == "hex" or kind == "bin" or kind == "amp":
            after_operand = bool(tokens) and (
                tokens[-1].kind in _OPERAND_END or tokens[-1].value in _CLOSERS)
            if (kind == "bin" and after_operand and text[pos - 1] not in " \t") or (
                    kind == "amp" and after_operand):
                # Right after an operand, % is the modulo operator ("x%10"); after a blank
                # it starts a binary number ("and %1010"), as in pasmo. & is AND after an
                # operand and starts a hex number (&FF) where an operand is expected.
                append(Token(OP, m.group()[0], col))
                end = pos + 1
            else:
                digits = m.group()[1:].replace("_", "")
                if len(m.group()) > MAX_LITERAL_CHARS:
                    raise LexError(col, f"number '{shown(m.group())}' is too long "
                                        f"({len(m.group()):,} characters): the assembler's "
                                        "values are 32-bit")
                try:
                    value = int(digits, 2 if kind == "bin" else 16)
                    append(Token(NUM, _checked(value, m.group()), col))
                except ValueError as exc:
                    message = str(exc) if "32" in str(exc) else \
                        f"malformed number '{shown(m.group())}'"
                    raise LexError(col, message) from None
        elif kind == "dq":
            append(Token(STR, _unescape(m.group()[1:-1], col), col))
        elif kind == "sq":
            body = m.group()[1:-1].replace("''", "'")
            append(Token(STR, b"".join(_char_bytes(c, col) for c in body), col))
        else:
            append(Token(OP, m.group(), col))
        pos = end
    return tokens
