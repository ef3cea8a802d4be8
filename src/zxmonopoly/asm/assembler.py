"""Pass driver: a layout pass, then full passes until every address settles; the last one emits.

The first pass only sizes statements (an instruction's length never depends on its values);
each later pass evaluates and emits everything, using the previous pass's values for forward
references. When a full pass defines exactly the labels and constants of the pass before, its
output and its diagnostics are the result.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..files import read_regular
from . import encoder
from .directives import HANDLERS
from .errors import AsmError, AssemblerError, Diagnostic
from .expr import ExprError, Node, Undefined, evaluate, parse, symbols_in
from .lexer import ID, LexError, Token, shown
from .source import (
    BLOCK_CLOSERS,
    BLOCK_OPENERS,
    CONDITIONALS,
    DIRECTIVE,
    EMPTY,
    INSTRUCTION,
    NAMING,
    RESERVED,
    Stmt,
    parse_source,
    parse_tokens,
)
from .symbols import DEFL, EQU, LABEL, MACRO_LOCAL_MARK, Symbol, is_public

MAX_PASSES = 12
MAX_MACRO_DEPTH = 64
MAX_INCLUDE_DEPTH = 32
MEMORY = 0x10000
#: Errors kept per run; the rest are only counted.
MAX_ERRORS = 100
#: Statements one pass may assemble, REPT and macro bodies counted each time they run (the
#: game runs 13,648, the ROM 7,433): a bound on time (about 3 s a pass) whatever the nesting.
MAX_STATEMENTS = 1_000_000
#: REPT repetitions one pass may run, counted apart from statements because an empty body
#: (``rept 65536`` in ``rept 65536``) runs no statement at all: 2^32 repetitions would take
#: hours. A million take about 0.2 s (the game and the ROM run a few hundred).
MAX_REPETITIONS = 1_000_000
#: Macro expansions (and REPT bodies with local labels) per pass: each is a copy of its body
#: kept for the next pass, so this bounds memory (the ROM makes 31).
MAX_EXPANSIONS = 50_000
#: A source file (INCLUDE or the main file) is at most this large; an INCBIN at most 64K.
MAX_SOURCE_BYTES = 16 * 1024 * 1024
MAX_BINARY_BYTES = MEMORY


@dataclass
class Macro:
    """A macro definition: parameter names, body statements and its local names."""

    name: str
    params: list[str]
    body: list[Stmt]
    locals: frozenset[str]
    file: str
    line: int


@dataclass
class ListLine:
    """One listing entry: the statement, its address and bytes (or a value note)."""

    stmt: Stmt
    address: int | None
    data: bytes = b""
    note: str = ""
    abbreviate: bool = False


@dataclass(frozen=True)
class Store:
    """A direct store ``LD (nn),r``: where it is, the address it writes and the labels it names."""

    file: str
    line: int
    address: int  # of the instruction
    target: int  # the address nn
    width: int  # bytes written: 1 (A) or 2 (a register pair)
    names: tuple[str, ...]  # the labels in nn's expression, qualified (``ai_bid.high``)


@dataclass
class Program:
    """The result of an assembly: memory image, symbols, listing and warnings."""

    memory: bytearray
    used: bytearray
    symbols: dict[str, Symbol]
    listing: list[ListLine]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    entry: int | None = None
    passes: int = 0
    stores: list[Store] = field(default_factory=list)  # every LD (nn),r, in source order

    @property
    def start(self) -> int | None:
        """The lowest address that holds output, or None if nothing was emitted."""
        i = self.used.find(1)
        return None if i < 0 else i

    @property
    def end(self) -> int | None:
        """One past the highest address that holds output."""
        i = self.used.rfind(1)
        return None if i < 0 else i + 1

    def binary(self, start: int | None = None, end: int | None = None, fill: int = 0) -> bytes:
        """Bytes from ``start`` (default: lowest output) to ``end``; gaps hold ``fill``."""
        lo = self.start if start is None else start
        hi = self.end if end is None else end
        if lo is None or hi is None:
            return b""
        out = bytearray(self.memory[lo:hi])
        if fill:
            gaps = self.used[lo:hi]
            for i in range(len(out)):
                if not gaps[i]:
                    out[i] = fill
        return bytes(out)

    def symbol_map(self) -> dict[str, dict[str, object]]:
        """name -> {value, file, line}, sorted by name, macro-local names left out."""
        return {name: self.symbols[name].to_json()
                for name in sorted(self.symbols) if is_public(name)}

    @property
    def values(self) -> dict[str, int]:
        """name -> value of every public symbol."""
        return {n: s.value for n, s in self.symbols.items() if is_public(n)}


class Assembler:
    """Assembles a main source (and what it includes); caches parsed files across passes."""

    def __init__(self, include_dirs: Iterable[str | os.PathLike[str]] = (),
                 defines: Mapping[str, int] | None = None,
                 display_root: str | os.PathLike[str] | None = None) -> None:
        self.include_dirs = [Path(d) for d in include_dirs]
        self.defines = dict(defines or {})
        self.display_root = Path(display_root if display_root is not None else os.getcwd())
        self.sources: dict[Path, list[Stmt]] = {}
        self.binaries: dict[Path, bytes] = {}
        self.paths: dict[str, Path] = {}  # display name -> absolute path
        self.expr_cache: dict[int, Node | ExprError] = {}
        self.expansions: dict[object, list[Stmt]] = {}

    def display(self, path: Path) -> str:
        """How diagnostics and the symbol map name a file: relative to the root if inside it."""
        try:
            name = path.relative_to(self.display_root.resolve()).as_posix()
        except ValueError:
            name = path.as_posix()
        self.paths[name] = path
        return name

    def load(self, path: Path) -> list[Stmt]:
        """The statements of a file (parsed once)."""
        stmts = self.sources.get(path)
        if stmts is None:
            raw = read_regular(path, MAX_SOURCE_BYTES, "source file")
            try:
                text = raw.decode("utf-8-sig")  # a UTF-8 byte order mark is not source
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
            stmts = parse_source(self.display(path), text)
            self.sources[path] = stmts
        return stmts

    def assemble_file(self, path: str | os.PathLike[str]) -> Program:
        """Assemble a file; raises AsmError with every diagnostic if there is an error."""
        return self._assemble(Path(path).resolve(), None)

    def assemble_text(self, text: str, name: str = "<source>",
                      base_dir: str | os.PathLike[str] = ".") -> Program:
        """Assemble source text; INCLUDE and INCBIN names resolve against ``base_dir``."""
        path = (Path(base_dir) / name).resolve()
        self.sources[path] = parse_source(name, text)
        self.paths[name] = path
        return self._assemble(path, name)

    def _assemble(self, path: Path, name: str | None) -> Program:
        prev: dict[str, int] = {}
        prev_fixed: dict[str, int] | None = None
        p: Pass | None = None
        before: dict[str, int] = {}
        for k in range(MAX_PASSES):
            p = Pass(self, prev, full=k > 0)
            p.run_main(path)
            if p.full and p.fixed == prev_fixed:
                break
            before = prev_fixed or {}
            prev, prev_fixed = p.values, p.fixed
        else:
            assert p is not None
            moving = sorted(n for n in set(p.fixed) | set(before)
                            if p.fixed.get(n) != before.get(n))
            p.diags.append(self._unsettled(p, moving, path))
        assert p is not None
        program = Program(p.memory, p.used, p.symbols, p.listing, p.diags, p.entry, k + 1,
                          p.store_list())
        if any(d.severity == "error" for d in p.diags):
            raise AsmError(p.diags, p.errors_dropped)
        return program

    def _unsettled(self, p: Pass, moving: list[str], path: Path) -> Diagnostic:
        """The error for a layout that keeps changing, at the first moving symbol."""
        message = (f"addresses did not settle after {MAX_PASSES} passes; "
                   f"still changing: {', '.join(moving[:10])}")
        sym = next((p.symbols[n] for n in moving if n in p.symbols), None)
        if sym is None or sym.file not in self.paths:
            return Diagnostic(self.display(path), 1, 1, message)
        stmts = self.sources.get(self.paths[sym.file], [])
        text = stmts[sym.line - 1].text if 0 < sym.line <= len(stmts) else ""
        return Diagnostic(sym.file, sym.line, 1, message, text)

    def expr(self, st: Stmt, arg: list[Token]) -> Node:
        """The parsed expression of an operand (cached; parse errors are raised each time)."""
        key = id(arg)
        node = self.expr_cache.get(key)
        if node is None:
            try:
                node = parse(arg, st.end_col())
            except ExprError as exc:
                node = exc
            self.expr_cache[key] = node
        if isinstance(node, ExprError):
            raise node
        return node

    def plan(self, st: Stmt) -> encoder.Plan | ExprError:
        """The encoder's plan for an instruction statement (cached on the statement)."""
        p = st.plan
        if p is None:
            try:
                ops = []
                for arg in st.args:
                    if not arg:
                        raise ExprError(st.op_col, f"{st.op}: empty operand")
                    ops.append(encoder.classify(arg, st.end_col()))
                p = encoder.plan(st.op, ops, st.op_col)  # type: ignore[arg-type]
            except ExprError as exc:
                p = exc
            st.plan = p
        return p  # type: ignore[return-value]


class Pass:
    """One pass over the source: symbol values, current address, output and diagnostics."""

    def __init__(self, asm: Assembler, prev: dict[str, int], full: bool) -> None:
        self.asm = asm
        self.prev = prev
        self.full = full
        self.values: dict[str, int] = {}
        self.fixed: dict[str, int] = {}  # labels and EQUs, compared between passes
        self.symbols: dict[str, Symbol] = {}
        self.pc = 0
        self.scope = ""
        self.diags: list[Diagnostic] = []
        self.ended = False
        self.entry: int | None = None
        self.memory = bytearray(MEMORY)
        self.used = bytearray(MEMORY)
        self.listing: list[ListLine] = []
        self.blocks: list[list[object]] = []  # [start, end, stmt] of each contiguous run
        self.overlap_reported = False
        self.past_end_reported = False
        self.macros: dict[str, Macro] = {}
        self.macro_stack: list[str] = []
        self.expansion_count = 0
        self.include_stack: list[Path] = []
        self.code_starts: set[int] = set()  # addresses where an instruction starts
        # LD (nn),r: the statement, its address, nn's value, bytes written, the names in nn
        self.stores: list[tuple[Stmt, int, int, int, list[tuple[str, int]]]] = []
        self.error_count = 0
        self.errors_dropped = 0  # errors past MAX_ERRORS, counted only
        self.statements = 0  # run so far, for MAX_STATEMENTS
        self.repetitions = 0  # REPT bodies run so far, for MAX_REPETITIONS

    # -- diagnostics -------------------------------------------------------------------
    def error(self, st: Stmt, col: int, message: str, severity: str = "error",
              always: bool = False) -> None:
        """Record a diagnostic at a statement's column; past MAX_ERRORS errors, only count
        (``always``: a limit that stops the pass, shown whatever the count)."""
        if severity == "error" and not always:
            if self.error_count >= MAX_ERRORS:
                self.errors_dropped += 1
                return
            self.error_count += 1
        self.diags.append(Diagnostic(st.file, st.line, max(col, 1), message + st.origin,
                                     st.text, severity))

    def warn(self, st: Stmt, col: int, message: str) -> None:
        """Record a warning (full passes only, so it is reported once)."""
        if self.full:
            self.error(st, col, message, "warning")

    def _expr_error(self, st: Stmt, exc: ExprError) -> None:
        message = exc.message
        if isinstance(exc, Undefined):
            message = self._undefined_message(exc.name)
        self.error(st, exc.col, message)

    def _undefined_message(self, name: str) -> str:
        full = self._qualify(name)
        text = f"undefined symbol '{name}'"
        if full != name:
            text += f" (looked for '{full}')"
        lower = full.lower()
        near = [n for n in self.values if n.lower() == lower and is_public(n)]
        if near:
            text += f"; did you mean '{near[0]}'?"
        return text

    # -- symbols -----------------------------------------------------------------------
    def _qualify(self, name: str) -> str:
        if name[0] == "." and MACRO_LOCAL_MARK not in name and self.scope:
            return self.scope + name
        return name

    def value(self, name: str, col: int) -> int:
        """Value of a name for expressions; forward references see the previous pass."""
        full = self.scope + name if name[0] == "." and self.scope and \
            MACRO_LOCAL_MARK not in name else name
        v = self.values.get(full)
        if v is None:
            v = self.prev.get(full)
            if v is None:
                raise Undefined(col, name)
        return v

    def define(self, st: Stmt, tok: Token, value: int, kind: str) -> None:
        """Bind the name in ``tok`` (a label sets the scope of the .local names after it)."""
        name: str = tok.value  # type: ignore[assignment]
        if name.upper() in RESERVED:
            self.error(st, tok.col, f"'{name}' is a reserved word and cannot be a label")
            return
        if name[0] == ".":
            full = self._qualify(name)
        else:
            full = name
            if kind == LABEL and MACRO_LOCAL_MARK not in name:
                self.scope = name
        old = self.symbols.get(full)
        if old is not None and not (kind == DEFL and old.kind == DEFL):
            what = "label" if kind == LABEL else "symbol"
            if old.kind == DEFL or kind == DEFL:
                other = old.kind if kind == DEFL else kind
                self.error(st, tok.col, f"'{full}' is defined with both DEFL and "
                                        f"{'EQU' if other == EQU else 'as a label'} "
                                        f"(first at {old.file}:{old.line})")
            else:
                self.error(st, tok.col, f"duplicate {what} '{full}' "
                                        f"(first defined at {old.file}:{old.line})")
            return
        self.symbols[full] = Symbol(full, value, kind, st.file, st.line)
        self.values[full] = value
        if kind != DEFL:
            self.fixed[full] = value

    # -- evaluation --------------------------------------------------------------------
    def eval_arg(self, st: Stmt, arg: list[Token]) -> int | None:
        """Evaluate an operand; errors are reported and give None."""
        try:
            return evaluate(self.asm.expr(st, arg), self)
        except ExprError as exc:
            self._expr_error(st, exc)
            return None

    def eval_layout(self, st: Stmt, arg: list[Token]) -> int | None:
        """Evaluate an operand that shapes the layout (ORG, DS, IF, EQU...).

        In the layout pass an undefined name gives None quietly: a later pass knows it.
        """
        try:
            return evaluate(self.asm.expr(st, arg), self)
        except Undefined as exc:
            if self.full:
                self._expr_error(st, exc)
            return None
        except ExprError as exc:
            self._expr_error(st, exc)
            return None

    # -- output ------------------------------------------------------------------------
    def org(self, address: int) -> None:
        """Move the current address (a new contiguous block starts there)."""
        self.pc = address
        self.overlap_reported = False
        self.past_end_reported = False

    def emit(self, st: Stmt, data: bytes | bytearray, abbreviate: bool = False) -> None:
        """Place bytes at the current address and advance it."""
        a = self.pc
        n = len(data)
        if a + n > MEMORY:
            if not self.past_end_reported:
                self.past_end_reported = True
                self.error(st, st.op_col,
                           f"code runs past the end of memory (${a:04X} + {n} bytes)")
            n = max(0, MEMORY - a)
            data = data[:n]
        if self.full:
            if n:
                if self.used.find(1, a, a + n) >= 0 and not self.overlap_reported:
                    self._overlap(st, a, n)
                self.memory[a:a + n] = data
                self.used[a:a + n] = b"\x01" * n
                blk = self.blocks[-1] if self.blocks else None
                if blk is not None and blk[1] == a:
                    blk[1] = a + n
                else:
                    self.blocks.append([a, a + n, st])
            self.listing.append(ListLine(st, a, bytes(data), "", abbreviate))
        self.pc = a + n

    def _overlap(self, st: Stmt, a: int, n: int) -> None:
        self.overlap_reported = True
        for start, end, first in self.blocks:
            if start < a + n and a < end:  # type: ignore[operator]
                lo, hi = max(a, start), min(a + n, end) - 1  # type: ignore[call-overload]
                f: Stmt = first  # type: ignore[assignment]
                self.error(st, st.op_col, f"ORG overlap: ${lo:04X}..${hi:04X} already holds "
                                          f"code from the block that starts at {f.file}:{f.line}")
                return

    # -- files -------------------------------------------------------------------------
    def _resolve(self, st: Stmt | None, name: str) -> tuple[Path | None, list[Path]]:
        base = self.asm.paths.get(st.file) if st is not None else None
        dirs = ([base.parent] if base is not None else []) + self.asm.include_dirs
        if not dirs:
            dirs = [Path.cwd()]
        for d in dirs:
            try:
                candidate = (d / name).resolve()
                if candidate.is_file():
                    return candidate, dirs
                if candidate.exists():
                    raise _BadName("not a regular file (a directory, a device or a pipe)")
            except (OSError, ValueError, RuntimeError) as exc:
                # A NUL byte (ValueError), a symlink loop (RuntimeError or ELOOP), a name too
                # long for the system: the name cannot be a file here.
                raise _BadName(str(getattr(exc, "strerror", None) or exc)) from None
        return None, dirs

    def _find(self, st: Stmt, col: int, name: str, what: str) -> Path | None:
        """The file an INCLUDE or INCBIN names, or None after reporting why not."""
        try:
            path, dirs = self._resolve(st, name)
        except _BadName as exc:
            self.error(st, col, f"{what} file name '{shown(repr(name)[1:-1], 60)}' is "
                                f"unusable: {exc}")
            return None
        if path is None:
            where = ", ".join(self.asm.display(d.resolve()) or "." for d in dirs)
            self.error(st, col, f"{what} file '{shown(name, 60)}' not found (looked in: "
                                f"{where})")
        return path

    def include(self, st: Stmt, col: int, name: str) -> None:
        """Assemble another source file here."""
        path = self._find(st, col, name, "include")
        if path is None:
            return
        if path in self.include_stack:
            chain = " -> ".join(self.asm.display(p) for p in [*self.include_stack, path])
            self.error(st, col, f"recursive INCLUDE: {chain}")
            return
        if len(self.include_stack) >= MAX_INCLUDE_DEPTH:
            self.error(st, col, f"INCLUDE nested more than {MAX_INCLUDE_DEPTH} deep")
            return
        try:
            stmts = self.asm.load(path)
        except OSError as exc:
            self.error(st, col, f"cannot read include file '{name}': {exc.strerror}")
            return
        self.include_stack.append(path)
        self.run(stmts)
        self.include_stack.pop()

    # -- stores into code --------------------------------------------------------------
    def _note_store(self, st: Stmt, width: int, expr: Node, col: int) -> None:
        """Remember a store: its address's value and the labels it names (qualified in the
        scope of the store).  An address that does not evaluate is reported by the encoder."""
        names = [(self._qualify(s.name), s.col) for s in symbols_in(expr)]
        try:
            target = evaluate(expr, self) & 0xFFFF
        except ExprError:
            return
        self.stores.append((st, self.pc, target, width, names))

    def store_list(self) -> list[Store]:
        """The stores noted in this pass, in the public form."""
        return [Store(st.file, st.line, pc, target, width, tuple(n for n, _ in names))
                for st, pc, target, width, names in self.stores]

    def _check_stores(self) -> None:
        """Warn of each store whose address names a label on an instruction, not on data.

        A byte the code keeps for itself belongs in the state block or a DB/DS of its own: a
        store into an instruction's label (``ld (.mode),a`` with ``.mode: ld a,0``) changes
        the code, and the routine reads back whatever that instruction's operand happens to be.
        """
        for st, _pc, _target, _width, names in self.stores:
            for full, col in names:
                sym = self.symbols.get(full)
                if sym is not None and sym.kind == LABEL and sym.value in self.code_starts:
                    self.warn(st, col, f"store into code: '{full}' labels an instruction "
                                       f"({sym.file}:{sym.line}), not data (keep the byte in "
                                       "a DB/DS of its own)")

    def read_binary(self, st: Stmt, col: int, name: str) -> bytes | None:
        """The bytes of an INCBIN file (read once per assembly)."""
        path = self._find(st, col, name, "INCBIN")
        if path is None:
            return None
        data = self.asm.binaries.get(path)
        if data is None:
            try:
                data = read_regular(path, MAX_BINARY_BYTES, "binary to include")
            except OSError as exc:
                self.error(st, col, f"cannot read INCBIN file '{name}': {exc.strerror}")
                return None
            self.asm.binaries[path] = data
        return data

    def run_main(self, path: Path) -> None:
        """Run the main file, after the predefined symbols."""
        for name, value in self.asm.defines.items():
            self.values[name] = value
            self.fixed[name] = value
            self.symbols[name] = Symbol(name, value, EQU, "<command line>", 0)
        try:
            stmts = self.asm.load(path)
        except OSError as exc:
            name = self.asm.display(path)
            self.diags.append(Diagnostic(name, 1, 1, f"cannot read '{name}': {exc.strerror}"))
            return
        self.include_stack.append(path)
        self.run(stmts)
        self.include_stack.pop()
        if self.full:
            self._check_stores()

    # -- the statement loop ------------------------------------------------------------
    def run(self, stmts: list[Stmt]) -> None:
        """Process a file's or an expansion's statements (IF blocks must close inside)."""
        conds: list[list[object]] = []  # [parent_active, taken, else_seen, stmt]
        active = True
        full = self.full
        listing = self.listing
        i = 0
        n = len(stmts)
        while i < n and not self.ended:
            st = stmts[i]
            i += 1
            self.statements += 1
            if self.statements > MAX_STATEMENTS:
                self.error(st, 1, f"more than {MAX_STATEMENTS:,} statements assembled in one "
                                  "pass (macros and REPT expand without end?): stopping",
                           always=True)
                self.ended = True
                break
            kind = st.kind
            op = st.op
            if kind == DIRECTIVE and op in CONDITIONALS:
                if st.label is not None and active:
                    self.define(st, st.label, self.pc, LABEL)
                active = self._conditional(st, conds, active)
                if full:
                    listing.append(ListLine(st, None))
                continue
            if not active:
                if full:
                    listing.append(ListLine(st, None))
                continue
            if st.error is not None:
                self.error(st, st.error.col, st.error.message)
                continue
            if kind == INSTRUCTION:
                if st.label is not None:
                    self.define(st, st.label, self.pc, LABEL)
                p = st.plan if st.plan is not None else self.asm.plan(st)
                if type(p) is not encoder.Plan:
                    self._expr_error(st, p)  # type: ignore[arg-type]
                    continue
                if not full:
                    self.pc += p.length  # type: ignore[union-attr]
                    continue
                if p.warning is not None:  # type: ignore[union-attr]
                    self.warn(st, *p.warning)  # type: ignore[union-attr]
                self.code_starts.add(self.pc)
                if p.store:  # type: ignore[union-attr]
                    self._note_store(st, p.store, *p.values["nn"])  # type: ignore[union-attr]
                try:
                    data = encoder.encode(p, self)  # type: ignore[arg-type]
                except ExprError as exc:
                    self._expr_error(st, exc)
                    data = bytes(p.length)  # type: ignore[union-attr]
                self.emit(st, data)
            elif kind == DIRECTIVE:
                if op in BLOCK_OPENERS:
                    if full:
                        shown = self.pc if st.label is not None and op != "MACRO" else None
                        listing.append(ListLine(st, shown))
                    i = self._block(stmts, i, st)
                    continue
                if op in BLOCK_CLOSERS:
                    self.error(st, st.op_col, f"{op} without MACRO or REPT")
                    continue
                if op == "LOCAL":
                    self.error(st, st.op_col, "LOCAL is only allowed inside MACRO, REPT or PROC")
                    continue
                if st.label is not None and op not in NAMING and op != "ORG":
                    self.define(st, st.label, self.pc, LABEL)
                before = len(listing)
                HANDLERS[op](self, st)  # type: ignore[index]
                if op == "ORG" and st.label is not None:
                    self.define(st, st.label, self.pc, LABEL)  # the new address, as in pasmo
                if full and len(listing) == before:
                    note = ""
                    if op in ("EQU", "DEFL", "=") and st.label is not None:
                        v = self.values.get(self._qualify(st.label.value))  # type: ignore[arg-type]
                        note = "" if v is None else f"= ${v & 0xFFFF:04X}"
                    listing.append(ListLine(st, self.pc if op in ("ORG", "ALIGN") else None,
                                            b"", note))
            elif kind == EMPTY:
                if st.label is not None:
                    if len(st.tokens) == 1 and st.label.col > 1 and \
                            not str(st.label.value).startswith("."):
                        # A lone indented word: a macro call (labels need ':' or column 1,
                        # except .local labels).
                        if full:
                            listing.append(ListLine(st, self.pc))
                        self._macro_call(st, st.label.value, [], st.label.col)  # type: ignore[arg-type]
                        continue
                    self.define(st, st.label, self.pc, LABEL)
                if full:
                    listing.append(ListLine(st, self.pc if st.label is not None else None))
            else:
                if st.label is not None:
                    self.define(st, st.label, self.pc, LABEL)
                if full:
                    listing.append(ListLine(st, self.pc))
                self._macro_call(st, op, st.args, st.op_col)  # type: ignore[arg-type]
        if conds and not self.ended:
            st = conds[-1][3]
            self.error(st, st.op_col, f"{st.op} without ENDIF")  # type: ignore[union-attr]

    def _conditional(self, st: Stmt, conds: list[list[object]], active: bool) -> bool:
        op = st.op
        if op in ("IF", "IFDEF", "IFNDEF"):
            value = self._condition(st) if active else False
            conds.append([active, value, False, st])
            return active and value
        if not conds:
            self.error(st, st.op_col, f"{op} without IF")
            return active
        frame = conds[-1]
        parent = bool(frame[0])
        if op == "ENDIF":
            if st.args:
                self.error(st, st.args[0][0].col, "ENDIF takes no operands")
            conds.pop()
            return parent
        if frame[2]:
            self.error(st, st.op_col, f"{op} after ELSE")
            return False
        if op == "ELSE":
            frame[2] = True
            now = parent and not frame[1]
            frame[1] = True
            return now
        if parent and not frame[1]:  # ELSEIF
            value = self._condition(st)
            frame[1] = value
            return value
        return False

    def _condition(self, st: Stmt) -> bool:
        if len(st.args) != 1 or not st.args[0]:
            self.error(st, st.op_col, f"{st.op} takes one operand")
            return False
        arg = st.args[0]
        if st.op in ("IFDEF", "IFNDEF"):
            if len(arg) != 1 or arg[0].kind != ID:
                self.error(st, arg[0].col, f"{st.op} takes a symbol name")
                return False
            defined = self._qualify(arg[0].value) in self.values  # type: ignore[arg-type]
            return defined == (st.op == "IFDEF")
        v = self.eval_layout(st, arg)
        return bool(v)

    # -- macros and repetition ---------------------------------------------------------
    def _block(self, stmts: list[Stmt], i: int, st: Stmt) -> int:
        """Handle MACRO, REPT or PROC at ``stmts[i-1]``; return the index after its end."""
        depth = 1
        j = i
        while j < len(stmts):
            s = stmts[j]
            if s.kind == DIRECTIVE:
                if s.op in BLOCK_OPENERS:
                    depth += 1
                elif s.op in BLOCK_CLOSERS:
                    depth -= 1
                    if depth == 0:
                        break
            j += 1
        else:
            closer = "ENDP" if st.op == "PROC" else "ENDM"
            self.error(st, st.op_col, f"{st.op} without {closer}")
            return len(stmts)
        body = stmts[i:j]
        if self.full and st.op == "MACRO":
            # A definition is listed as written; REPT and PROC bodies as they run.
            self.listing.extend(ListLine(s, None) for s in body)
        closer = stmts[j].op
        want = {"MACRO": ("ENDM",), "REPT": ("ENDM", "ENDR"), "PROC": ("ENDP",)}[st.op]  # type: ignore[index]
        if closer not in want:
            self.error(stmts[j], stmts[j].op_col, f"{closer} closes {st.op} "
                                                  f"(at line {st.line}); expected {want[0]}")
        if st.op == "MACRO":
            self._define_macro(st, body)
        elif st.op == "REPT":
            self._rept(st, body)
        else:
            self._proc(st, body)
        if self.full:
            self.listing.append(ListLine(stmts[j], None))
        return j + 1

    def _define_macro(self, st: Stmt, body: list[Stmt]) -> None:
        args = [list(a) for a in st.args]
        if st.label is not None:
            name_tok = st.label
        elif args and args[0] and args[0][0].kind == ID:
            name_tok = args[0].pop(0)
            if not args[0]:
                args.pop(0)
        else:
            self.error(st, st.op_col, "MACRO needs a name")
            return
        name: str = name_tok.value  # type: ignore[assignment]
        if name.upper() in RESERVED:
            self.error(st, name_tok.col, f"'{name}' is a reserved word and cannot name a macro")
            return
        params: list[str] = []
        for a in args:
            if len(a) != 1 or a[0].kind != ID:
                col = a[0].col if a else st.op_col
                self.error(st, col, "macro parameters must be plain names")
                return
            if a[0].value.upper() in RESERVED:  # type: ignore[union-attr]
                self.error(st, a[0].col, f"macro parameter '{a[0].value}' is a reserved word")
                return
            params.append(a[0].value)  # type: ignore[arg-type]
        old = self.macros.get(name.upper())
        if old is not None:
            self.error(st, name_tok.col, f"macro '{name}' is already defined at "
                                         f"{old.file}:{old.line}")
            return
        self.macros[name.upper()] = Macro(name, params, body, _local_names(body),
                                          st.file, st.line)

    def _macro_call(self, st: Stmt, name: str, args: list[list[Token]], col: int) -> None:
        m = self.macros.get(name.upper())
        if m is None:
            hint = " (a label needs ':' after it or must start in column 1)" if not args else ""
            self.error(st, col, f"unknown instruction, directive or macro '{name}'{hint}")
            return
        if len(args) != len(m.params):
            plural = "s" if len(m.params) != 1 else ""
            self.error(st, col, f"macro '{m.name}' takes {len(m.params)} argument"
                                      f"{plural}, not {len(args)}")
            return
        if not all(args):
            empty = next(k for k, a in enumerate(args) if not a)
            self.error(st, col, f"macro '{m.name}': argument {empty + 1} is empty")
            return
        if len(self.macro_stack) >= MAX_MACRO_DEPTH:
            chain = " -> ".join(self.macro_stack[-4:] + [m.name])
            self.error(st, col, f"macro recursion: '{m.name}' expanded more than "
                                      f"{MAX_MACRO_DEPTH} levels deep (... {chain})")
            return
        self._expand(st, m.name, m.params, args, m.body, m.locals, (m.file, m.line))

    def _expand(self, st: Stmt, name: str, params: list[str], args: list[list[Token]],
                body: list[Stmt], local_names: frozenset[str], ident: object) -> None:
        if self.expansion_count >= MAX_EXPANSIONS:
            self.error(st, st.op_col, f"more than {MAX_EXPANSIONS:,} macro expansions in one "
                                      "pass (a macro that expands without end?): stopping",
                       always=True)
            self.ended = True
            return
        self.expansion_count += 1
        n = self.expansion_count
        key = (ident, tuple(tuple((t.kind, t.value) for t in a) for a in args), n)
        stmts = self.asm.expansions.get(key)
        if stmts is None:
            stmts = _substitute(body, dict(zip(params, args, strict=True)), local_names, n,
                                f" (in {name} at {st.file}:{st.line})")
            self.asm.expansions[key] = stmts
        self.macro_stack.append(name)
        self.run(stmts)
        self.macro_stack.pop()

    def _proc(self, st: Stmt, body: list[Stmt]) -> None:
        # pasmo's PROC: names declared LOCAL inside are private to the block.
        if st.label is not None:
            self.define(st, st.label, self.pc, LABEL)
        local_names = _local_names(body, labels=False)
        if local_names:
            self._expand(st, "PROC", [], [], body, local_names, (st.file, st.line))
        else:
            self.run(body)

    def _rept(self, st: Stmt, body: list[Stmt]) -> None:
        if st.label is not None:
            self.define(st, st.label, self.pc, LABEL)
        if len(st.args) != 1 or not st.args[0]:
            self.error(st, st.op_col, "REPT takes one operand, the count")
            return
        count = self.eval_layout(st, st.args[0])
        if count is None:
            return
        if not 0 <= count <= 0x10000:
            self.error(st, st.args[0][0].col, f"REPT count {count} is out of range 0..65536")
            return
        local_names = _local_names(body)
        for _ in range(count):
            if self.ended:
                break
            self.repetitions += 1
            if self.repetitions > MAX_REPETITIONS:
                self.error(st, st.op_col, f"more than {MAX_REPETITIONS:,} REPT repetitions in "
                                          "one pass (nested REPT blocks?): stopping", always=True)
                self.ended = True
                break
            if local_names:
                self._expand(st, "REPT", [], [], body, local_names, (st.file, st.line))
            else:
                self.run(body)


class _BadName(AssemblerError):
    """A file name the system cannot look up (the message says why)."""


def _local_names(body: list[Stmt], labels: bool = True) -> frozenset[str]:
    """Names local to each expansion: .labels defined in the body, and LOCAL names."""
    names: set[str] = set()
    for s in body:
        if labels and s.label is not None and str(s.label.value).startswith("."):
            names.add(s.label.value)  # type: ignore[arg-type]
        if s.op == "LOCAL":
            names.update(str(t.value) for a in s.args for t in a if t.kind == ID)
    return frozenset(names)


def _substitute(body: list[Stmt], bindings: dict[str, list[Token]], local_names: frozenset[str],
                n: int, origin: str) -> list[Stmt]:
    """The body with parameters replaced by arguments and local names made unique."""
    out: list[Stmt] = []
    for s in body:
        if s.op == "LOCAL":
            continue
        new = Stmt(s.file, s.line, s.text)
        new.origin = origin
        if s.error is not None:
            new.error = s.error
            new.kind, new.op = s.kind, s.op
            out.append(new)
            continue
        tokens: list[Token] = []
        for t in s.tokens:
            if t.kind == ID:
                arg = bindings.get(t.value)  # type: ignore[call-overload]
                if arg is not None:
                    # Substituted tokens take the parameter's column, for the caret.
                    tokens.extend(Token(a.kind, a.value, t.col) for a in arg)
                    continue
                if t.value in local_names:
                    tokens.append(Token(ID, f"{t.value}{MACRO_LOCAL_MARK}{n}", t.col))
                    continue
            tokens.append(t)
        try:
            parse_tokens(new, tokens)
        except LexError as exc:  # pragma: no cover - parse_tokens reports through st.error
            new.error = exc
        out.append(new)
    return out


def assemble(text: str, name: str = "<source>", base_dir: str | os.PathLike[str] = ".",
             **options: object) -> Program:
    """Assemble source text (a convenience around :class:`Assembler`)."""
    return Assembler(**options).assemble_text(text, name, base_dir)  # type: ignore[arg-type]
