#!/usr/bin/env python3
"""The house style of the Z80 sources (roms/, src/game/): check it, or rewrite files into it.

One style for the ROM and the game (docs/assembler.md, "House style"):

* operands are separated by a comma and one space: ``ld a, (hl)``, ``db 1, 2, 3``;
* the binary operators ``+ - * /`` of an expression have a space either side:
  ``ld hl, v_header + HDR_NAME``, ``ds ENTRY_CLS - $, TRAP_FILL``; a displacement of IX or
  IY stays as Zilog writes it, tight: ``ld a, (ix+P_CASH+1)``;
* a line's comment keeps its column while the code leaves room for it (else it moves to the
  next tab stop of 4 after the code), and the comment lines under it that continue it move
  with it;
* in every file of the game (``src/game/``) every conditional jump, call and return carries a
  comment on its line: the question it asks, with its question mark ("Can the player afford
  it?").  Only checked: no rewrite writes one.

The rewrite is mechanical: every line keeps its tokens (checked: each rewritten line lexes to
exactly the tokens it had), so the assembled bytes cannot change. The generated tables
(``tables.asm``, ``board3d.asm``) are written by their generators in this style already.

Usage: ``python tools/asm_style.py [--check] [FILE...]`` (default: every .asm of roms/ and
src/game/); ``--check`` rewrites nothing and exits 1 naming each line out of style.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zxmonopoly.asm.lexer import _PATTERN, LexError, lex  # noqa: E402
from zxmonopoly.asm.source import parse_line  # noqa: E402

TREES = ("roms", "src/game")
TAB = 4
#: Binary operators that get a space either side.
SPACED = frozenset("+-*/")
#: Tokens after which an operator is binary (an operand has just ended).
OPERAND_ENDS = frozenset({")", "]", "$"})
INDEX_REGISTERS = frozenset({"ix", "iy"})
#: The tree whose every conditional branch asks its question in a comment: the game's (a reader
#: of a game routine stops at each branch; the ROM follows the Sinclair ROM's entry points).
QUESTIONED_TREE = "game"
CONDITIONAL = re.compile(r"^\s*(?:\.?\w+:)?\s*(?:jr|jp|call|ret)\s+(?:nz|z|nc|c|po|pe|p|m)\b",
                         re.IGNORECASE)


@dataclass
class Piece:
    """A token of a line's code: its text and where it starts and ends."""

    text: str
    kind: str
    start: int
    end: int


def split_comment(text: str) -> tuple[str, str]:
    """A line as (code, comment); the comment starts at the ';' outside strings ('' if none)."""
    pos = 0
    while pos < len(text):
        m = _PATTERN.match(text, pos)
        if m is None:
            return text, ""  # a malformed line: left to the assembler to report
        if m.lastgroup == "comment":
            return text[:pos], text[pos:]
        pos = m.end()
    return text, ""


def pieces(code: str, start: int) -> list[Piece]:
    """The tokens of ``code`` from ``start`` with their spans."""
    out: list[Piece] = []
    pos = start
    while pos < len(code):
        m = _PATTERN.match(code, pos)
        if m is None:
            raise LexError(pos + 1, "unexpected character")
        if m.lastgroup != "ws":
            out.append(Piece(m.group(), m.lastgroup or "", pos, m.end()))
        pos = m.end()
    return out


def _operand_end(p: Piece) -> bool:
    return p.kind in ("id", "afp", "num", "hex", "bin", "amp", "dq", "sq") or \
        (p.kind == "op" and p.text in OPERAND_ENDS)


def restyle_operands(code: str, start: int) -> str:
    """``code`` with its operands (from column ``start``) in the house style."""
    toks = pieces(code, start)
    if not toks:
        return code
    out = [code[:toks[0].start]]
    depth = 0
    index_depth: int | None = None  # the bracket depth of an (ix+d) being written
    for k, tok in enumerate(toks):
        prev = toks[k - 1] if k else None
        if prev is not None:
            gap = code[prev.end:tok.start]
            binary = tok.kind == "op" and tok.text in SPACED and _operand_end(prev)
            after_binary = prev.kind == "op" and prev.text in SPACED and k >= 2 and \
                _operand_end(toks[k - 2])
            if index_depth is not None:
                out.append("")
            elif tok.text == "," and tok.kind == "op":
                out.append("")
            elif prev.text == "," and prev.kind == "op":
                out.append(" ")
            elif binary or after_binary:
                out.append(" ")
            else:
                out.append(gap)
        if tok.kind == "op" and tok.text in ("(", "["):
            depth += 1
            nxt = toks[k + 1] if k + 1 < len(toks) else None
            after = toks[k + 2] if k + 2 < len(toks) else None
            if index_depth is None and nxt is not None and nxt.text.lower() in INDEX_REGISTERS \
                    and after is not None and after.text in ("+", "-"):
                index_depth = depth
        elif tok.kind == "op" and tok.text in (")", "]"):
            if index_depth == depth:
                index_depth = None
            depth -= 1
        out.append(tok.text)
    out.append(code[toks[-1].end:])
    return "".join(out)


def restyle_code(code: str) -> str:
    """One line's code (no comment) in the house style; only the operands change."""
    st = parse_line("-", 1, code)
    if st.error is not None or st.op is None:
        return code
    start = st.op_col - 1 + len(st.op)
    if st.op == "=":
        start = st.op_col
    return restyle_operands(code, start)


def _comment_column(code: str, wanted: int) -> int:
    """Where a comment goes (0-based) after ``code``: ``wanted`` if there is room."""
    end = len(code.rstrip())
    if wanted > end:
        return wanted
    column = end + 1
    while column % TAB:
        column += 1
    return column


def restyle(text: str) -> str:
    """A whole source file in the house style."""
    out: list[str] = []
    moved: tuple[int, int] | None = None  # (old column, new column) of the last comment moved
    for line in text.splitlines():
        code, comment = split_comment(line)
        if not code.strip():
            # A comment line under a moved comment, in its old column, continues it.
            if comment and moved is not None and len(code) == moved[0]:
                line = " " * moved[1] + comment
            else:
                moved = None
            out.append(line)
            continue
        new = restyle_code(code)
        moved = None
        if comment:
            column = _comment_column(new, len(code))
            line = new.rstrip().ljust(column) + comment
            if column != len(code):
                moved = (len(code), column)
        else:
            line = new
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def same_tokens(old: str, new: str) -> bool:
    """True when two texts lex, line by line, to the same tokens."""
    a, b = old.splitlines(), new.splitlines()
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        try:
            if [(t.kind, t.value) for t in lex(x)] != [(t.kind, t.value) for t in lex(y)]:
                return False
        except LexError:
            if x != y:
                return False
    return True


def unasked(text: str) -> list[int]:
    """The lines (from 1) of conditional jumps, calls and returns whose comment asks no
    question (none, or no question mark)."""
    out = []
    for k, line in enumerate(text.splitlines(), 1):
        code, comment = split_comment(line)
        if CONDITIONAL.match(code) and "?" not in comment:
            out.append(k)
    return out


def sources(names: list[str]) -> list[Path]:
    """The files named, or every .asm of the two trees."""
    if names:
        return [Path(n) for n in names]
    return sorted(p for tree in TREES for p in (ROOT / tree).glob("*.asm"))


def main(argv: list[str] | None = None) -> int:
    """Check or rewrite; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="sources (default: roms/*.asm, src/game/*.asm)")
    parser.add_argument("--check", action="store_true",
                        help="rewrite nothing; exit 1 if a line is out of style")
    args = parser.parse_args(argv)
    bad = 0
    for path in sources(args.files):
        text = path.read_text(encoding="utf-8")
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        if path.parent.name == QUESTIONED_TREE:
            for k in unasked(text):
                bad += 1
                print(f"{shown}:{k}: a branch without its question: "
                      f"{text.splitlines()[k - 1].strip()!r}")
        new = restyle(text)
        if new == text:
            continue
        if not same_tokens(text, new):
            print(f"{path}: the rewrite would change tokens: not touched", file=sys.stderr)
            return 2
        if args.check:
            for k, (x, y) in enumerate(zip(text.splitlines(), new.splitlines(), strict=True), 1):
                if x != y:
                    bad += 1
                    print(f"{shown}:{k}: out of house style: {x.strip()!r} "
                          f"(should be {y.strip()!r})")
        else:
            path.write_text(new, encoding="utf-8")
            print(f"{path}: restyled")
    if args.check and bad:
        print(f"{bad} lines out of house style (python tools/asm_style.py rewrites the layout; "
              "a branch's question is yours to write)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
