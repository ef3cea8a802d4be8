"""Numbers, strings and expressions (lexer and expression parser)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zxmonopoly.asm.expr import HERE, ExprError, Sym, evaluate, parse
from zxmonopoly.asm.lexer import NUM, OP, STR, LexError, lex

from .util import asm, messages


def value(text: str) -> int:
    """The value of a constant expression."""
    node = parse(lex(text))
    assert isinstance(node, int), node
    return node


@pytest.mark.parametrize(("text", "v"), [
    ("255", 255), ("$FF", 255), ("#FF", 255), ("0xFF", 255), ("0FFh", 255), ("0ffH", 255),
    ("%1010", 10), ("0b1010", 10), ("1010b", 10), ("1010B", 10), ("17o", 15), ("17q", 15),
    ("99d", 99), ("'A'", 65), ('"A"', 65), ("''''", 39), ("1_000", 1000), ("$00_10", 16),
    ("0", 0), ("0bh", 11), ("0b", 0), ("&FF", 255), ("&1f", 31), ("5 &3", 1), ("5&3", 1),
])
def test_numbers(text: str, v: int) -> None:
    assert value(text) == v


@pytest.mark.parametrize(("text", "v"), [
    ("1+2*3", 7), ("(1+2)*3", 9), ("1<<2+1", 8), ("7&3|8", 11), ("7 and 3 or 8", 11),
    ("1|2^3&1", 3), ("-2*-3", 6), ("~0", -1), ("-~0", 1), ("!0", -1), ("!5", 0),
    ("2+3*4<<1", 28), ("10-2-3", 5), ("100/10/5", 2), ("7/2", 3), ("-7/2", -3), ("7%3", 1),
    ("-7%3", -1), ("7 mod 3", 1), ("1 shl 4", 16), ("256 shr 4", 16), ("5 xor 3", 6),
    ("5^3", 6), ("1==1", -1), ("1=1", -1), ("1!=1", 0), ("1<>2", -1), ("1<2", -1),
    ("2<=1", 0), ("3>2", -1), ("3>=3", -1), ("1 eq 1", -1), ("1 ne 1", 0), ("1 lt 2", -1),
    ("1 le 0", 0), ("2 gt 1", -1), ("1 ge 2", 0), ("1 && 2", -1), ("0 && 1", 0),
    ("0 || 3", -1), ("0 || 0", 0), ("1 ? 2 : 3", 2), ("0 ? 2 : 3", 3),
    ("1 ? 0 ? 4 : 5 : 6", 5), ("LOW($1234)", 0x34), ("HIGH($1234)", 0x12),
    ("low $1234", 0x34), ("high($1234)+1", 0x13), ("not 0", -1), ("+5", 5),
    ("'a'+1", 98), ("(1 < 2) + 2", 1), ("3 & -1", 3), ("1 << 15", 32768),
])
def test_operators_and_precedence(text: str, v: int) -> None:
    assert value(text) == v


def test_modulo_and_binary_percent() -> None:
    # After a blank % starts a binary number; right after an operand it is modulo.
    assert lex("and %0101")[1] == (NUM, 5, 5)
    assert [t.kind for t in lex("x%10")] == ["id", OP, NUM]
    assert [t.value for t in lex("x % 10")] == ["x", "%", 10]


def test_strings_and_escapes() -> None:
    assert lex(r'"a\n\r\t\\\"\x41\101\0"')[0] == (STR, b'a\n\r\t\\"AA\x00', 1)
    assert lex("'it''s'")[0] == (STR, b"it's", 1)
    assert lex(r"'a\n'")[0] == (STR, b"a\\n", 1)  # single quotes take no escapes
    assert lex("ex af,af'")[-1].value == "af'"


@pytest.mark.parametrize(("text", "col", "message"), [
    ('db "abc', 4, "unterminated string"),
    ("db 'x", 4, "unterminated string"),
    ('db "\\q"', 5, "unknown escape '\\q' in string"),
    ('db "\\x4"', 5, "\\x needs two hex digits"),
    ("ld a,0x", 6, "malformed number '0x'"),
    ("ld a,12az", 6, "malformed number '12az'"),
    ("ld a,`", 6, "unexpected character '`'"),
    ('db "€"', 5, "character '€' does not fit in a byte"),
])
def test_lexer_errors(text: str, col: int, message: str) -> None:
    with pytest.raises(LexError) as info:
        lex(text)
    assert (info.value.col, info.value.message) == (col, message)


@pytest.mark.parametrize(("text", "message"), [
    ("1+", "expected a value"),
    ("(1+2", "expected ')'"),
    ("1 2", "unexpected '2' after expression"),
    ("'ab'", "a string in an expression must be one character long"),
    ("x+", "expected a value"),
    ("1 ? 2", "expected ':' in conditional expression"),
    ("mod 3", "operator MOD needs an operand before it"),
    ("hl+1", "register HL cannot be used in an expression"),
])
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ExprError) as info:
        parse(lex(text), 99)
    assert info.value.message == message


def test_division_by_zero_is_reported_where_used() -> None:
    assert messages(" db 1/0\n") == ["division by zero"]
    assert messages(" db 1%0\n") == ["division by zero"]


def test_trees_keep_symbols_and_here() -> None:
    node = parse(lex("label+$"))
    assert isinstance(node, tuple) and isinstance(node[2], Sym) and node[3] is HERE

    class Ctx:
        pc = 0x8000

        def value(self, name: str, col: int) -> int:
            return {"label": 5}[name]

    assert evaluate(node, Ctx()) == 0x8005


def test_dollar_is_the_address_of_the_statement() -> None:
    assert asm(" dw $,$,$\n jr $\n", 0x8000) == bytes([0, 0x80, 0, 0x80, 0, 0x80, 0x18, 0xFE])


@given(a=st.integers(-40000, 40000), b=st.integers(-40000, 40000))
def test_arithmetic_matches_python(a: int, b: int) -> None:
    assert value(f"{a}+{b}") == a + b
    assert value(f"{a}-({b})") == a - b
    assert value(f"({a})*({b})") == a * b
    assert value(f"({a})&({b})") == a & b
    assert value(f"({a})|({b})") == a | b
    assert value(f"({a})^({b})") == a ^ b
    if b:
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        assert value(f"({a})/({b})") == q
        assert value(f"({a})%({b})") == a - b * q
