"""Source files into statements: label, operation and comma-separated operand token lists."""

from __future__ import annotations

from collections.abc import Sequence

from .encoder import MNEMONICS, REGISTER_NAMES
from .expr import WORD_OPERATORS
from .lexer import ID, OP, LexError, Token, lex

#: Directive names (a leading dot is also accepted: ``.org``).
DIRECTIVES = frozenset("""
    ORG DB DEFB BYTE DM DEFM DC DZ DW DEFW WORD DS DEFS ALIGN INCLUDE INCBIN
    IF IFDEF IFNDEF ELSE ELSEIF ENDIF MACRO ENDM REPT ENDR PROC ENDP LOCAL EQU DEFL ASSERT END
""".split())
#: Directives that name what they define in the label field.
NAMING = frozenset({"EQU", "DEFL", "=", "MACRO"})
CONDITIONALS = frozenset({"IF", "IFDEF", "IFNDEF", "ELSE", "ELSEIF", "ENDIF"})
BLOCK_OPENERS = frozenset({"MACRO", "REPT", "PROC"})
BLOCK_CLOSERS = frozenset({"ENDM", "ENDR", "ENDP"})

RESERVED = MNEMONICS | DIRECTIVES | frozenset(REGISTER_NAMES) | WORD_OPERATORS

# Statement kinds.
EMPTY, INSTRUCTION, DIRECTIVE, OTHER = 0, 1, 2, 3


class Stmt:
    """One source statement; ``plan`` caches the encoder's decision for instructions."""

    __slots__ = ("file", "line", "text", "tokens", "label", "op", "op_col", "args", "error",
                 "kind", "plan", "origin")

    def __init__(self, file: str, line: int, text: str) -> None:
        self.file = file
        self.line = line
        self.text = text
        self.tokens: list[Token] = []
        self.label: Token | None = None
        self.op: str | None = None  # upper case, dot stripped for directives
        self.op_col = 0
        self.args: list[list[Token]] = []
        self.error: LexError | None = None
        self.kind = EMPTY
        self.plan: object = None
        self.origin = ""  # " (in macro X expanded at f:l)" for expanded lines

    def end_col(self) -> int:
        """Column just after the statement's text (for 'expected a value' at the end)."""
        return len(self.text.rstrip()) + 1


def _word(tok: Token | None) -> str | None:
    """Upper-case name of an identifier token, or None."""
    if tok is None or tok.kind != ID:
        return None
    return tok.value.upper()  # type: ignore[union-attr]


def _is_reserved_op(word: str | None) -> bool:
    return word is not None and (word in MNEMONICS or word.lstrip(".") in DIRECTIVES)


def parse_tokens(st: Stmt, tokens: list[Token]) -> Stmt:
    """Fill a statement's fields from its tokens (the label and operation rules are documented
    in docs/assembler.md: a label is a name followed by ':', or a name in column 1)."""
    st.tokens = tokens
    n = len(tokens)
    if n == 0:
        return st
    i = 0
    t0 = tokens[0]
    w0 = _word(t0)
    if w0 is not None:
        t1 = tokens[1] if n > 1 else None
        w1 = _word(t1)
        if t1 is not None and t1.kind == OP and t1.value == ":":
            st.label = t0
            i = 2
        elif w1 in NAMING:
            st.label = t0  # "name EQU value": a reserved name is reported when defined
            i = 1
        elif t1 is not None and t1.kind == OP and t1.value == "=":
            st.label = t0
            st.op, st.op_col, st.kind = "=", t1.col, DIRECTIVE
            st.args = _split(tokens[2:])
            return st
        elif t0.col == 1 and w0[0] == "." and w0[1:] in DIRECTIVES and \
                t1 is not None and not _is_reserved_op(w1):
            pass  # ".org 8000h" in column 1: a directive with operands
        elif (t0.col == 1 and w0[0] == ".") or (not _is_reserved_op(w0) and w0 not in RESERVED):
            # A .name in column 1 is otherwise a local label, even one that spells a
            # directive (".end ret", ".end" alone).
            if t1 is None:
                st.label = t0  # a macro call without arguments is recognised when run
                return st
            if w1 is not None and (w1 in NAMING or _is_reserved_op(w1)):
                st.label = t0
                i = 1
            elif t0.col == 1 and w1 is not None:
                st.label = t0  # "name macro_call ..." with the name in column 1
                i = 1
    if i >= n:
        return st
    tok = tokens[i]
    word = _word(tok)
    if word is None:
        st.error = LexError(tok.col, f"expected an instruction or directive, not '{tok.value}'")
        return st
    st.op_col = tok.col
    if word in MNEMONICS:
        st.op, st.kind = word, INSTRUCTION
    elif word.lstrip(".") in DIRECTIVES:
        st.op, st.kind = word.lstrip("."), DIRECTIVE
    else:
        st.op, st.kind = tok.value, OTHER  # type: ignore[assignment]  # macro names keep case
    st.args = _split(tokens[i + 1:])
    return st


def _split(tokens: Sequence[Token]) -> list[list[Token]]:
    """Operands: the tokens split at commas outside brackets."""
    if not tokens:
        return []
    out: list[list[Token]] = [[]]
    depth = 0
    for tok in tokens:
        if tok.kind == OP:
            v = tok.value
            if v == "," and depth == 0:
                out.append([])
                continue
            if v in ("(", "["):
                depth += 1
            elif v in (")", "]"):
                depth -= 1
        out[-1].append(tok)
    return out


def parse_line(file: str, line: int, text: str) -> Stmt:
    """Lex and parse one source line."""
    st = Stmt(file, line, text)
    try:
        tokens = lex(text)
    except LexError as exc:
        st.error = exc
        # Still recognise IF/ENDIF/ENDM words so block structure survives a bad line.
        word = text.split(None, 1)[0].upper() if text.strip() and text[0] in " \t" else ""
        if word.lstrip(".") in CONDITIONALS | BLOCK_CLOSERS:
            st.op, st.kind = word.lstrip("."), DIRECTIVE
        return st
    return parse_tokens(st, tokens)


def parse_source(file: str, text: str) -> list[Stmt]:
    """Every line of a source text as a statement."""
    return [parse_line(file, k, line) for k, line in enumerate(text.splitlines(), 1)]
