"""Byte-for-byte agreement with pasmo (Debian package ``pasmo``; .ci/run installs it).

The corpus is written in the syntax both accept: every documented instruction form (pasmo
knows no ``IN F,(C)``, ``OUT (C),0`` or the DDCB register-copy forms), the directives and
expressions of ``pasmo/corpus.asm``, and random expressions whose operators mean the same in
both (pasmo's precedence differs from ours for unary minus, HIGH/LOW and shifts).
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zxmonopoly.asm import Assembler
from zxmonopoly.z80 import isa

from .test_encoder import render

PASMO = shutil.which("pasmo")
pytestmark = pytest.mark.skipif(
    PASMO is None, reason="pasmo is not installed (apt-get install pasmo; .ci/run does it)")

CORPUS = Path(__file__).parent / "pasmo"


def pasmo(source: Path) -> bytes:
    """pasmo's binary for a source file (run in the file's directory, as INCLUDE needs)."""
    out = source.with_suffix(".pasmo.bin")
    run = subprocess.run([str(PASMO), "--err", source.name, out.name], cwd=source.parent,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, f"pasmo rejected {source.name}:\n{run.stdout}{run.stderr}"
    data = out.read_bytes()
    out.unlink()
    return data


def ours(source: Path) -> bytes:
    return Assembler().assemble_file(source).binary()


def pasmo_accepts(op: isa.Op) -> bool:
    """Whether pasmo knows this instruction form."""
    if op.text in ("IN F,(C)", "OUT (C),0"):
        return False
    # DDCB/FDCB with a register copy: "RES 0,(IX+d),B", "RLC (IX+d),B".
    return not any(isinstance(o, str) and o.endswith("+d)") and k + 1 < len(op.operands)
                   and op.mnemonic not in ("LD",)
                   for k, o in enumerate(op.operands))


FORMS = [f for f in isa.forms() if f.op.canonical and pasmo_accepts(f.op)]


def test_corpus_of_directives_and_expressions(tmp_path: Path) -> None:
    for f in CORPUS.iterdir():
        shutil.copy(f, tmp_path / f.name)
    main = tmp_path / "corpus.asm"
    assert ours(main) == pasmo(main)


@pytest.mark.parametrize("seed", range(4))
def test_every_documented_instruction_form(tmp_path: Path, seed: int) -> None:
    rnd = random.Random(seed)
    lines = [" org 8000h"]
    for form in FORMS:
        n = rnd.choice([0, 1, 0x7F, 0x80, 0xFF, rnd.randrange(256)])
        nn = rnd.choice([0, 0xFFFF, rnd.randrange(0x10000)])
        d = rnd.choice([-128, -1, 0, 1, 127, rnd.randrange(-128, 128)])
        # A relative jump to the next line but one: always in range.
        lines.append(" " + render(form.op, n, nn, d, 0).replace("$0000", "$+10"))
    assert len(FORMS) > 780
    src = tmp_path / "forms.asm"
    src.write_text("\n".join(lines) + "\n")
    assert ours(src) == pasmo(src)


_OPS = ["+", "-", "*", "and", "or", "xor", "&", "|"]


_VALUE = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "and": int.__and__,
          "or": int.__or__, "xor": int.__xor__, "&": int.__and__, "|": int.__or__}


def _expr(rnd: random.Random, depth: int) -> tuple[str, int]:
    """An expression and its value; every intermediate value stays within our 32 bits."""
    if depth == 0 or rnd.random() < 0.3:
        n = rnd.randrange(300)
        return rnd.choice(["{}", "${:X}", "0{:X}h", "%{:b}", "#{:X}"]).format(n), n
    (left, a), (right, b) = _expr(rnd, depth - 1), _expr(rnd, depth - 1)
    ops = [op for op in _OPS if abs(_VALUE[op](a, b)) <= 0xFFFF_FFFF]
    op = rnd.choice(ops)  # + - and or xor always fit: only * can overflow
    return f"({left} {op} {right})", _VALUE[op](a, b)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_expressions(tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    rnd = random.Random(seed)
    # Masking to 16 bits makes pasmo's 16-bit arithmetic and our exact integers agree.
    lines = [" org 0"] + [f" dw ({_expr(rnd, 4)[0]}) and 0FFFFh" for _ in range(50)]
    src = tmp_path_factory.mktemp("expr") / "expr.asm"
    src.write_text("\n".join(lines) + "\n")
    assert ours(src) == pasmo(src)
