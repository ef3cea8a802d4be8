"""Every instruction form assembles to its encoding in the isa tables, aliases included."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zxmonopoly.asm import encoder
from zxmonopoly.z80 import isa

from .util import asm, messages

ORG = 0x8000
CANONICAL = [f for f in isa.forms() if f.op.canonical]
DUPLICATES = [f for f in isa.forms() if not f.op.canonical]


def render(op: isa.Op, n: int, nn: int, d: int, target: int) -> str:
    """Source text of ``op`` with the given operand values."""
    parts = []
    for o in op.operands:
        if isinstance(o, int):
            parts.append(f"${o:02X}" if op.mnemonic == "RST" else str(o))
        elif o in ("n", "(n)"):
            parts.append(o.replace("n", str(n)))
        elif o in ("nn", "(nn)"):
            parts.append(o.replace("nn", f"${nn:04X}"))
        elif o == "e":
            parts.append(f"${target:04X}")
        elif o.endswith("+d)"):
            parts.append(o.replace("+d", f"{d:+d}"))
        else:
            parts.append(o)
    return op.mnemonic + (" " + ",".join(parts) if parts else "")


def expected(form: isa.Form, n: int, nn: int, d: int, target: int) -> bytes:
    """The encoding with the placeholders filled in."""
    out = bytearray()
    for item in form.encoding:
        if isinstance(item, int):
            out.append(item)
        elif item == "n":
            out.append(n & 0xFF)
        elif item == "nn":
            out += bytes([nn & 0xFF, nn >> 8])
        elif item == "d":
            out.append(d & 0xFF)
        else:
            out.append((target - (ORG + form.length)) & 0xFF)
    return bytes(out)


def test_table_covers_every_canonical_form() -> None:
    count = sum(len(v) if isinstance(v, dict) else 1
                for shapes in encoder.TABLE.values() for v in shapes.values())
    assert count == len(CANONICAL) > 1000


def test_every_canonical_form_assembles() -> None:
    for form in CANONICAL:
        text = render(form.op, 0x12, 0x1234, -3, ORG + 0x10)
        want = expected(form, 0x12, 0x1234, -3, ORG + 0x10)
        got = asm(" " + text, ORG)
        assert got == want, f"{text}: {got.hex()} != {want.hex()}"


@settings(max_examples=300, deadline=None)
@given(form=st.sampled_from(CANONICAL), n=st.integers(-128, 255), nn=st.integers(0, 0xFFFF),
       d=st.integers(-128, 127), e=st.integers(-128, 127))
def test_form_with_any_operand_values(form: isa.Form, n: int, nn: int, d: int, e: int) -> None:
    target = ORG + form.length + e
    text = render(form.op, n, nn, d, target)
    assert asm(" " + text, ORG) == expected(form, n, nn, d, target), text


@pytest.mark.parametrize("form", DUPLICATES, ids=lambda f: f.op.text + "@" + bytes(
    b for b in f.encoding if isinstance(b, int)).hex())
def test_undocumented_duplicates_assemble_to_the_canonical_form(form: isa.Form) -> None:
    canonical = next(f for f in CANONICAL if f.op.text == form.op.text)
    text = render(form.op, 1, 2, 3, ORG)
    assert asm(" " + text, ORG) == expected(canonical, 1, 2, 3, ORG)


@pytest.mark.parametrize(("text", "code"), [
    ("in (c)", "ed70"),
    ("in f,(c)", "ed70"),
    ("out (c),0", "ed71"),
    ("sub a,b", "90"),
    ("and a,(hl)", "a6"),
    ("xor a,$0f", "ee0f"),
    ("or a,(ix+1)", "ddb601"),
    ("cp a,a", "bf"),
    ("add b", "80"),
    ("adc (hl)", "8e"),
    ("sbc 5", "de05"),
    ("sl1 b", "cb30"),
    ("sli (hl)", "cb36"),
    ("sll (iy+2)", "fdcb0236"),
    ("ex af,af", "08"),
    ("ex af,af'", "08"),
    ("jp hl", "e9"),
    ("jp ix", "dde9"),
    ("jp (iy)", "fde9"),
    ("ld a,(ix)", "dd7e00"),
    ("ld (iy),5", "fd360005"),
    ("ld a,[ix+3]", "dd7e03"),
    ("ld a,[1234h]", "3a3412"),
    ("ld hl,[$4000]", "2a0040"),
    ("res 0,(ix+3),b", "ddcb0380"),
    ("set 7,(iy-1),a", "fdcbffff"),
    ("rlc (ix+0),c", "ddcb0001"),
    ("ld xh,1", "dd2601"),
    ("ld a,ly", "fd7d"),
    ("LD A,IXH", "dd7c"),
    ("Ld iYl,B", "fd68"),
    ("ld a,(ix-128)", "dd7e80"),
    ("ld a,(ix+127)", "dd7e7f"),
    ("ld a,(ix+-3)", "dd7efd"),
    ("ld a,(ix+1+2)", "dd7e03"),
    ("ld a,(ix-1+3)", "dd7e02"),
    ("ld a,(5+3)", "3a0800"),
    ("ld a,(5)+3", "3e08"),
    ("ld a,(1)*(2)", "3e02"),
    ("ld a,-1", "3eff"),
    ("ld bc,-1", "01ffff"),
    ("ld a,'A'", "3e41"),
    ("ld a,\"a\"+1", "3e62"),
    ("rst 38h", "ff"),
    ("rst 0", "c7"),
    ("im 0", "ed46"),
    ("im 1", "ed56"),
    ("im 2", "ed5e"),
    ("ld hl,(1234h)", "2a3412"),
    ("ld de,(1234h)", "ed5b3412"),
    ("ld (1234h),hl", "223412"),
    ("ld (1234h),sp", "ed733412"),
    ("neg", "ed44"),
    ("retn", "ed45"),
    ("out ($fe),a", "d3fe"),
    ("in a,($fe)", "dbfe"),
    ("ex (sp),ix", "dde3"),
])
def test_spellings(text: str, code: str) -> None:
    assert asm(" " + text, ORG).hex() == code


def test_parentheses_around_an_immediate_warn_and_act_as_a_value() -> None:
    from .util import program

    p = program(" org 0\n ld b,(5)\n")
    assert p.binary() == bytes([0x06, 0x05])
    assert [d.severity for d in p.diagnostics] == ["warning"]
    assert "read as a value" in p.diagnostics[0].message


@pytest.mark.parametrize(("text", "message"), [
    ("ld a,300", "value 300 does not fit in a byte (-128..255)"),
    ("ld a,-129", "value -129 does not fit in a byte (-128..255)"),
    ("ld hl,65536", "value 65536 does not fit in a word (-32768..65535)"),
    ("ld a,(ix+128)", "index offset 128 is out of range -128..127"),
    ("ld a,(iy-129)", "index offset -129 is out of range -128..127"),
    ("bit 8,a", "bit number 8 is out of range 0..7"),
    ("set -1,a", "bit number -1 is out of range 0..7"),
    ("im 3", "interrupt mode 3 is not 0, 1 or 2"),
    ("rst 7", "RST target $7 is not one of $00,$08,$10,$18,$20,$28,$30,$38"),
    ("out (c),1", "OUT (C) can only send the constant 0, not 1"),
    ("ld (bc),b", "invalid operand combination: LD (bc),b"),
    ("ld a", "LD takes 2 operands, not 1"),
    ("nop 1", "NOP takes no operands"),
    ("jp (hl+1)", "(hl+1) is not an indirection the Z80 has"),
    ("ld a,(a)", "(A) is not an indirection the Z80 has"),
    ("ld a,b+1", "register B cannot be used in an expression"),
    ("push af'", "invalid operand 'af'' for PUSH (in PUSH af')"),
    ("jr po,0", "invalid operand 'po' for JR (in JR po,0)"),
    ("ld a,", "LD: empty operand"),
    ("ex de,ix", "invalid operand combination: EX de,ix"),
])
def test_encoding_errors(text: str, message: str) -> None:
    assert messages(f" org 0\n {text}\n") == [message]


def test_relative_jumps_reach_exactly_minus_128_to_127() -> None:
    # JR at 0x8000 is 2 bytes: targets 0x8002-128 .. 0x8002+127.
    assert asm(" jr $8002-128", ORG) == bytes([0x18, 0x80])
    assert asm(" djnz $8002+127", ORG) == bytes([0x10, 0x7F])
    assert messages(" org $8000\n jr $8002+128\n") == [
        "JR target out of range: $8082 is +128 bytes from the next instruction "
        "(reach is -128..+127)"]
    assert messages(" org $8000\n djnz $8002-129\n") == [
        "DJNZ target out of range: $7F81 is -129 bytes from the next instruction "
        "(reach is -128..+127)"]


def test_relative_jumps_wrap_round_64k() -> None:
    assert asm(" jr $FFF0", 0x0000) == bytes([0x18, 0xEE])
    assert asm(" jr $0002", 0xFFF0) == bytes([0x18, 0x10])
