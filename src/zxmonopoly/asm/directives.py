"""Directive registry: name -> handler. Handlers run in every pass; ``p.full`` is False in the
first (layout) pass, where only sizes and addresses matter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .lexer import STR, Token
from .source import Stmt
from .symbols import DEFL, EQU


class Pass(Protocol):
    """What a directive may do in a pass (the assembler's ``Pass``): this module knows the
    assembler only through it, so the assembler imports the registry and not the other way."""

    full: bool  # False in the first (layout) pass
    pc: int
    ended: bool
    entry: int | None

    def error(self, st: Stmt, col: int, message: str, severity: str = "error") -> None: ...
    def define(self, st: Stmt, tok: Token, value: int, kind: str) -> None: ...
    def eval_arg(self, st: Stmt, arg: list[Token]) -> int | None: ...
    def eval_layout(self, st: Stmt, arg: list[Token]) -> int | None: ...
    def org(self, address: int) -> None: ...
    def emit(self, st: Stmt, data: bytes | bytearray, abbreviate: bool = False) -> None: ...
    def include(self, st: Stmt, col: int, name: str) -> None: ...
    def read_binary(self, st: Stmt, col: int, name: str) -> bytes | None: ...


Handler = Callable[[Pass, Stmt], None]
#: Directive name -> handler. IF/ELSE/ENDIF, MACRO/ENDM, REPT and LOCAL are handled by the
#: pass driver because they shape the statement stream rather than act on it.
HANDLERS: dict[str, Handler] = {}


def directive(*names: str) -> Callable[[Handler], Handler]:
    """Register a handler under one or more directive names."""
    def register(fn: Handler) -> Handler:
        for name in names:
            HANDLERS[name] = fn
        return fn
    return register


def _nargs(p: Pass, st: Stmt, low: int, high: int) -> bool:
    n = len(st.args)
    if low <= n <= high and all(st.args):
        return True
    if n and not all(st.args):
        empty = next(i for i, a in enumerate(st.args) if not a)
        p.error(st, st.op_col, f"{st.op}: operand {empty + 1} is empty")
        return False
    want = str(low) if low == high else f"{low} to {high}"
    p.error(st, st.op_col, f"{st.op} takes {want} operand{'s' if high != 1 else ''}, not {n}")
    return False


def _string(arg: list[Token]) -> bytes | None:
    """The bytes of an operand that is a single string literal."""
    if len(arg) == 1 and arg[0].kind == STR:
        return arg[0].value  # type: ignore[return-value]
    return None


def _data_bytes(p: Pass, st: Stmt, mark_last: bool) -> bytearray:
    """Bytes of DB/DM/DC operands (strings as their characters, expressions as one byte)."""
    out = bytearray()
    for arg in st.args:
        if not arg:
            p.error(st, st.op_col, f"{st.op}: empty operand")
            continue
        s = _string(arg)
        if s is not None:
            if not s and mark_last:
                p.error(st, arg[0].col, "DC needs a non-empty string to mark")
                continue
            out += s
            if mark_last:
                out[-1] |= 0x80
            continue
        if not p.full:
            out.append(0)
            continue
        v = p.eval_arg(st, arg)
        if v is None:
            out.append(0)
        elif not -128 <= v <= 255:
            p.error(st, arg[0].col, f"value {v} does not fit in a byte (-128..255)")
            out.append(0)
        else:
            out.append(v & 0xFF)
    return out


@directive("DB", "DEFB", "BYTE", "DM", "DEFM")
def _db(p: Pass, st: Stmt) -> None:
    if _nargs(p, st, 1, 10**6):
        p.emit(st, _data_bytes(p, st, False))


@directive("DC")
def _dc(p: Pass, st: Stmt) -> None:
    # The last character of each string gets bit 7 set: the end marker of ROM-style tables.
    if _nargs(p, st, 1, 10**6):
        p.emit(st, _data_bytes(p, st, True))


@directive("DZ")
def _dz(p: Pass, st: Stmt) -> None:
    if _nargs(p, st, 1, 10**6):
        p.emit(st, _data_bytes(p, st, False) + b"\x00")


@directive("DW", "DEFW", "WORD")
def _dw(p: Pass, st: Stmt) -> None:
    if not _nargs(p, st, 1, 10**6):
        return
    out = bytearray()
    for arg in st.args:
        v = p.eval_arg(st, arg) if p.full else 0
        if v is None:
            v = 0
        elif not -32768 <= v <= 65535:
            p.error(st, arg[0].col, f"value {v} does not fit in a word (-32768..65535)")
            v = 0
        out += bytes((v & 0xFF, (v >> 8) & 0xFF))
    p.emit(st, out)


def _fill(p: Pass, st: Stmt) -> int:
    if len(st.args) < 2:
        return 0
    v = p.eval_arg(st, st.args[1]) if p.full else 0
    if v is None:
        return 0
    if not -128 <= v <= 255:
        p.error(st, st.args[1][0].col, f"fill value {v} does not fit in a byte (-128..255)")
        return 0
    return v & 0xFF


@directive("DS", "DEFS")
def _ds(p: Pass, st: Stmt) -> None:
    if not _nargs(p, st, 1, 2):
        return
    n = p.eval_layout(st, st.args[0])
    if n is None:
        return
    if n < 0:
        p.error(st, st.args[0][0].col, f"{st.op} count {n} is negative")
        return
    if p.pc + n > 0x10000:
        p.error(st, st.args[0][0].col, f"{st.op} {n} runs past the end of memory")
        return
    p.emit(st, bytes([_fill(p, st)]) * n, abbreviate=True)


@directive("ALIGN")
def _align(p: Pass, st: Stmt) -> None:
    if not _nargs(p, st, 1, 2):
        return
    n = p.eval_layout(st, st.args[0])
    if n is None:
        return
    if n < 1:
        p.error(st, st.args[0][0].col, f"ALIGN {n}: the boundary must be 1 or more")
        return
    pad = -p.pc % n
    if p.pc + pad > 0x10000:
        p.error(st, st.args[0][0].col, f"ALIGN {n} runs past the end of memory")
        return
    p.emit(st, bytes([_fill(p, st)]) * pad, abbreviate=True)


@directive("ORG")
def _org(p: Pass, st: Stmt) -> None:
    if not _nargs(p, st, 1, 1):
        return
    v = p.eval_layout(st, st.args[0])
    if v is None:
        return
    if not 0 <= v <= 0xFFFF:
        p.error(st, st.args[0][0].col, f"ORG address {v} is outside 0..$FFFF")
        return
    p.org(v)


@directive("EQU", "DEFL", "=")
def _equ(p: Pass, st: Stmt) -> None:
    kind = EQU if st.op == "EQU" else DEFL
    if st.label is None:
        p.error(st, st.op_col, f"{st.op} needs a name in the label field")
        return
    if not _nargs(p, st, 1, 1):
        return
    v = p.eval_layout(st, st.args[0])
    if v is not None:
        p.define(st, st.label, v, kind)


@directive("ASSERT")
def _assert(p: Pass, st: Stmt) -> None:
    if not _nargs(p, st, 1, 2) or not p.full:
        return
    v = p.eval_arg(st, st.args[0])
    if v is None or v != 0:
        return
    if len(st.args) == 2:
        s = _string(st.args[1])
        if s is None:
            p.error(st, st.args[1][0].col, "ASSERT message must be a string")
            return
        message = s.decode("latin-1")
    else:
        first, last = st.args[0][0].col, st.end_col()
        message = st.text[first - 1:last - 1].strip()
    p.error(st, st.args[0][0].col, f"assertion failed: {message}")


@directive("END")
def _end(p: Pass, st: Stmt) -> None:
    if st.args and _nargs(p, st, 1, 1) and p.full:
        p.entry = p.eval_arg(st, st.args[0])
    p.ended = True


def _filename(p: Pass, st: Stmt, arg: list[Token]) -> str | None:
    s = _string(arg)
    if s is not None:
        return s.decode("latin-1")
    # pasmo also takes a bare file name: the operand's text as written.
    if arg and all(t.kind != STR for t in arg):
        first = arg[0].col
        return st.text[first - 1:].split(",")[0].split(";")[0].strip()
    p.error(st, arg[0].col if arg else st.op_col, "expected a file name in quotes")
    return None


@directive("INCBIN")
def _incbin(p: Pass, st: Stmt) -> None:
    if not _nargs(p, st, 1, 3):
        return
    name = _filename(p, st, st.args[0])
    if name is None:
        return
    data = p.read_binary(st, st.args[0][0].col, name)
    if data is None:
        return
    skip = p.eval_layout(st, st.args[1]) if len(st.args) > 1 else 0
    count = p.eval_layout(st, st.args[2]) if len(st.args) > 2 else None
    if skip is None or (len(st.args) > 2 and count is None):
        return
    if not 0 <= skip <= len(data):
        p.error(st, st.args[1][0].col, f"INCBIN offset {skip} is outside the file "
                                       f"({len(data)} bytes)")
        return
    if count is None:
        count = len(data) - skip
    if not 0 <= count <= len(data) - skip:
        p.error(st, st.args[2][0].col, f"INCBIN length {count} runs past the end of the file "
                                       f"({len(data) - skip} bytes from offset {skip})")
        return
    p.emit(st, data[skip:skip + count], abbreviate=True)


@directive("INCLUDE")
def _include(p: Pass, st: Stmt) -> None:
    if not _nargs(p, st, 1, 1):
        return
    name = _filename(p, st, st.args[0])
    if name is not None:
        p.include(st, st.args[0][0].col, name)


