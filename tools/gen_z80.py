#!/usr/bin/env python3
"""Generate the Z80 execution loops from the description in ``src/zxmonopoly/z80``.

From the one description (``isa.py``: the opcode tables; ``templates.py``: the code and the
machine cycles of each instruction) it writes two engines for each of two machines:

* ``_engine_py.py``: one CPython function, every instruction inline;
* ``_engine_jit.py``: the same leaves split into one numba function per prefix table (numba's
  compile time grows steeply with the size of one function);

for the bare CPU (in ``src/zxmonopoly/z80/``) and for the Spectrum 48K (in
``src/zxmonopoly/spectrum/``). The generator knows only the Z80 and a small machine interface
(contended memory and its delay, the window where contention can fall, the I/O cycle, what IN
reads and OUT does, the machine's locals and arrays); the 48K's answers are a description in
``src/zxmonopoly/spectrum/ula.py``, plugged in as :class:`Variant`'s ``machine``. All four files
are committed; ``tests/z80/test_generated.py`` and ``tools/regen.py --check`` fail when running
this again would change them. Files whose text would not change are left alone (numba's cache
of a JIT engine is keyed on the file's time stamp).

Usage: ``python tools/gen_z80.py [--check]``
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zxmonopoly.spectrum import ula  # noqa: E402
from zxmonopoly.z80 import isa, state, templates  # noqa: E402
from zxmonopoly.z80.templates import (  # noqa: E402
    FETCH1,
    FETCH2,
    T_HERE,
    T_IS,
    T_TAKEN,
    Leaf,
    cycle_total,
    parse_cycle,
)

PACKAGE_DIR = ROOT / "src" / "zxmonopoly"

TABLE_ARGS = "SZ53, SZ53P, ADC_F, SBC_F, CP_F, INC_F, DEC_F"
ARGS = f"st, mem, bp, until, {TABLE_ARGS}"

# (local, state index) pairs exchanged with the state array.
REGS = [("a", state.A), ("f", state.F), ("b", state.B), ("c", state.C), ("d", state.D),
        ("e", state.E), ("h", state.H), ("l", state.L), ("a_", state.A_), ("f_", state.F_),
        ("b_", state.B_), ("c_", state.C_), ("d_", state.D_), ("e_", state.E_),
        ("h_", state.H_), ("l_", state.L_), ("ix", state.IX), ("iy", state.IY),
        ("sp", state.SP), ("pc", state.PC), ("i", state.I), ("wz", state.MEMPTR),
        ("iff1", state.IFF1), ("iff2", state.IFF2), ("im", state.IM),
        ("halted", state.HALTED), ("t", state.T)]
CONFIG = [("int_end", state.INT_END), ("int_data", state.INT_DATA),
          ("int_ack_clears", state.INT_ACK_CLEARS), ("rom_top", state.ROM_TOP),
          ("io_exit", state.IO_EXIT)]

# How often each opcode runs in the product (our ROM, a real-time tape load, the game), as
# measured by tools/profile_z80.py, so that the dispatch trees need the fewest tests on
# average. Every opcode also gets an even share (UNIFORM per opcode, a quarter of the whole
# over 256 opcodes): other programs run too, and no opcode should sink deep in the tree.
PROFILE = json.loads((ROOT / "tools" / "z80_profile.json").read_text())
UNIFORM = PROFILE["scale"] // 1000


def profile_weights(table: str) -> dict[int, int]:
    """Weights of one table's opcodes: measured share plus the even share."""
    measured = {int(k, 16): v for k, v in PROFILE[table].items()}
    return {op: measured.get(op, 0) + UNIFORM for op in range(256)}


HOT_MAIN = profile_weights("main")
HOT_CB = profile_weights("cb")
HOT_ED = profile_weights("ed")
HOT_DD = profile_weights("dd")


def indent(lines: list[str], n: int) -> list[str]:
    """Indent lines by n levels of four spaces."""
    pad = "    " * n
    return [pad + x if x else x for x in lines]


def tree(cases: list[tuple[int, list[str]]], weights: dict[int, int], var: str = "op",
         default: list[str] | None = None, lo: int = 0, hi: int = 256,
         flat: bool = False, table: str = "") -> list[str]:
    """A binary if-tree on ``var`` over the opcodes in [lo, hi), weighted by frequency; with
    ``flat``, one if/elif chain of equality tests, the most frequent first.

    ``cases`` maps opcodes to code; identical neighbours merge into one range; opcodes
    missing from ``cases`` run ``default``. Each case opens with a comment naming its
    opcode(s) and instruction(s) in ``table`` (``main``, ``cb``, ``ed``, ``dd``, ``fd``).
    """
    code = {op: lines for op, lines in cases}
    segs: list[tuple[int, int, list[str]]] = []  # [start, end) with one body
    for op in range(lo, hi):
        body = code.get(op, default)
        assert body is not None, f"opcode {op:#04x} has no code"
        if segs and segs[-1][2] == body:
            segs[-1] = (segs[-1][0], op + 1, body)
        else:
            segs.append((op, op + 1, body))
    if table:
        segs = [(s, e, [case_comment(table, s, e), *(body or ["pass"])]) for s, e, body in segs]
    seg_w = [sum(weights.get(o, 1) for o in range(s, e)) for s, e, _ in segs]
    if flat:
        return _chain(segs, seg_w, var)
    return _split(segs, seg_w, var)


OPCODE_TABLES = {"main": ("", isa.MAIN), "cb": ("CB ", isa.CB), "ed": ("ED ", isa.ED),
                 "dd": ("DD ", isa.DD), "fd": ("FD ", isa.FD)}
# A case's comment, as the generator writes it: the JIT engines' source passes through
# ``ast`` (which keeps no comments), so there it travels as a string statement and comes
# back as a comment (``widen_for_numba``).
CASE_COMMENT = re.compile(r"^(\s*)# ((?:CB |ED |DD |FD )?[0-9A-F]{2}(?:-[0-9A-F]{2})?  .*)$")
CASE_MARK = "zx80op:"


def opcode_name(table: str, code: int) -> str:
    """What an opcode of ``table`` is, in Zilog text (as the disassembler spells it)."""
    _, entries = OPCODE_TABLES[table]
    op = entries[code]
    if op is None:
        return "(no instruction: a no-operation)"
    if op.mnemonic == isa.PREFIX_NOP or (table in ("dd", "fd") and op.mnemonic == isa.PREFIX
                                         and op.operands[0] in ("DD", "FD", "ED")):
        # (as index_body runs them: a DD or FD before another prefix is ignored too)
        return "(prefix ignored: the opcode runs unprefixed)"
    if op.mnemonic == isa.PREFIX:
        return f"{op.operands[0]} prefix" if op.operands[0] != "DDCB" else \
            f"{table.upper()}CB d op: the indexed rotates, BIT, RES, SET"
    return op.text


def case_comment(table: str, start: int, end: int) -> str:
    """The comment opening the case of opcodes [start, end): each opcode and instruction."""
    prefix, _ = OPCODE_TABLES[table]
    names = [opcode_name(table, code) for code in range(start, end)]
    if end - start == 1:
        return f"# {prefix}{start:02X}  {names[0]}"
    text = names[0] if len(set(names)) == 1 else ", ".join(names)
    if len(text) > 70:
        text = f"{names[0]} ... {names[-1]}"
    return f"# {prefix}{start:02X}-{end - 1:02X}  {text}"


def _chain(segs: list[tuple[int, int, list[str]]], w: list[int], var: str) -> list[str]:
    """An if/elif chain over ``segs``, the heaviest first, the last one the ``else``.

    Compiled, LLVM turns a chain of tests of one value against constants into a jump table:
    the bare numba engine dispatches in one step (measured on the benchmark's workload:
    620x real time against 555x with the tree). The Spectrum's numba engine measured slower
    so (365x against 410x on the busy machine), and keeps the tree.
    """
    order = sorted(range(len(segs)), key=lambda k: -w[k])
    out: list[str] = []
    for n, k in enumerate(order):
        start, end, body = segs[k]
        if n == len(order) - 1:
            out.append("else:")
        else:
            test = (f"{var} == {start:#04x}" if end - start == 1
                    else f"{start:#04x} <= {var} < {end:#04x}")
            out.append(f"{'if' if n == 0 else 'elif'} {test}:")
        out += indent(body or ["pass"], 1)
    return out


def _split(segs: list[tuple[int, int, list[str]]], w: list[int], var: str) -> list[str]:
    """The if-tree of least expected comparisons over ``segs`` (weights ``w``).

    An optimal alphabetic tree by dynamic programming, with Knuth's bound on the roots
    (the best split of [i, j) lies between those of [i, j-1) and [i+1, j)), so O(n^2).
    """
    n = len(segs)
    pre = [0]
    for x in w:
        pre.append(pre[-1] + x)
    cost = [[0] * (n + 1) for _ in range(n + 1)]
    root = [[0] * (n + 1) for _ in range(n + 1)]
    for i in range(n - 1):
        root[i][i + 2] = i + 1
        cost[i][i + 2] = pre[i + 2] - pre[i]
    for size in range(3, n + 1):
        for i in range(n - size + 1):
            j = i + size
            best, best_k = None, 0
            for k in range(root[i][j - 1], root[i + 1][j] + 1):
                c = cost[i][k] + cost[k][j]
                if best is None or c < best:
                    best, best_k = c, k
            cost[i][j] = best + pre[j] - pre[i]
            root[i][j] = best_k

    def emit(i: int, j: int) -> list[str]:
        if j - i == 1:
            return segs[i][2] or ["pass"]
        k = root[i][j]
        # A single-opcode left side reads better as an equality test.
        if k - i == 1 and segs[i][1] - segs[i][0] == 1:
            head = f"if {var} == {segs[i][0]:#04x}:"
        else:
            head = f"if {var} < {segs[k][0]:#04x}:"
        return [head, *indent(emit(i, k), 1), "else:", *indent(emit(k, j), 1)]

    return emit(0, n)


# ---------------------------------------------------------------------------------------
# Variants and machine cycles


@dataclass(frozen=True)
class Variant:
    """What an engine is for: a bare CPU, or a machine (contention and ports).

    ``machine`` is the machine's description (a module such as :mod:`zxmonopoly.spectrum.ula`):
    which memory is contended and by how much, the window of T-states where contention can
    fall, the I/O cycle, what IN reads and OUT does without a callback, the locals it keeps in
    the state array and the arrays its engines take. The generator knows only the Z80.
    """

    machine: Any = None
    trace: bool = False  # tests only: record each contention check instead of delaying
    table_walk: bool = False  # walk cycles from a table in one compiled function (JIT)
    always_walk: bool = False  # tests only: walk every instruction, never the fast path
    breakpoints: bool = True  # False: no breakpoint test after each instruction (none set)
    flat: bool = False  # dispatch by if/elif chains, not trees (the bare numba engine)


BARE = Variant()
BARE_FREE = Variant(breakpoints=False)
BARE_JIT = Variant(flat=True)
MACHINE = Variant(machine=ula)
MACHINE_JIT = Variant(machine=ula, table_walk=True)
TRACED = Variant(machine=ula, trace=True)
REFERENCE = Variant(machine=ula, always_walk=True)

# Values a cycle list may name, at the start of the instruction (after its opcode fetches).
CYCLE_ADDR = {
    "pc": "pc", "pc+1": "((pc + 1) & 0xFFFF)", "pc+2": "((pc + 2) & 0xFFFF)",
    "pc-1": "((pc - 1) & 0xFFFF)", "pc-2": "((pc - 2) & 0xFFFF)",
    "hl": "((h << 8) | l)", "de": "((d << 8) | e)", "bc": "((b << 8) | c)",
    "bcdec": "((((b - 1) & 0xFF) << 8) | c)",
    "sp": "sp", "sp+1": "((sp + 1) & 0xFFFF)", "sp-1": "((sp - 1) & 0xFFFF)",
    "sp-2": "((sp - 2) & 0xFFFF)",
    "ir": "((i << 8) | (r & 0x7F) | r7)",
    "nn": "(mem[pc] | (mem[(pc + 1) & 0xFFFF] << 8))",
    "nn+1": "(((mem[pc] | (mem[(pc + 1) & 0xFFFF] << 8)) + 1) & 0xFFFF)",
    "xd": "((XY + ((mem[pc] ^ 0x80) - 0x80)) & 0xFFFF)",
    "xd1": "((XY + ((mem[(pc + 1) & 0xFFFF] ^ 0x80) - 0x80)) & 0xFFFF)",
    "an": "((a << 8) | mem[pc])",
    "vec": "((i << 8) | int_data)", "vec+1": "((((i << 8) | int_data) + 1) & 0xFFFF)",
}
CYCLE_COND = {
    **templates.COND,
    "B1": "b != 1",
    "BC1": "((b << 8) | c) != 1",
    "BC1MATCH": "((b << 8) | c) != 1 and a != mem[(h << 8) | l]",
    "NOTBIT": "(mem[(pc + 2) & 0xFFFF] & 0xC0) != 0x40",
}
def _check(v: Variant, addr_expr: str | None) -> list[str]:
    """One contention check: memory at ``addr_expr``, or (None) within an I/O cycle."""
    if v.trace:
        return [f"TRACE(t, {addr_expr})" if addr_expr else "TRACE(t, 0x10000 | port_)"]
    if addr_expr is None:
        return [v.machine.DELAY]
    return [f"if {v.machine.contended(addr_expr)}:", "    " + v.machine.DELAY]


def _io_cycle(v: Variant) -> list[str]:
    """The machine's I/O cycle on ``port_``, each of its contention checks as ``v`` makes them."""
    return v.machine.io_cycle(_check(v, None))


def _walk(v: Variant, specs: list, xy: str) -> list[str]:
    out: list[str] = []
    for sp in specs:
        if isinstance(sp, tuple):
            _, cond, inner = sp
            out += [f"if {CYCLE_COND[cond]}:", *indent(_walk(v, inner, xy) or ["pass"], 1)]
            continue
        addr, n, k = parse_cycle(sp)
        if addr == "io":
            out += [f"port_ = {CYCLE_ADDR[n_port(sp)]}", *_io_cycle(v)]
            continue
        if addr == "none":
            out.append(f"t += {n * k}")
            continue
        expr = CYCLE_ADDR[addr].replace("XY", xy)
        if k > 1 or not expr.isidentifier():
            out.append(f"x_ = {expr}")
            expr = "x_"
        for _ in range(k):
            out += [*_check(v, expr), f"t += {n}"]
    return out


def n_port(spec: str) -> str:
    """The port named by an ``io:PORT`` cycle."""
    return spec.split(":", 1)[1]


def _fast(specs: list) -> list[str]:
    """The same cycles without contention (outside the contended part of the frame)."""
    out: list[str] = []
    offset = 0
    for sp in specs:
        if isinstance(sp, tuple):
            _, cond, inner = sp
            extra = cycle_total(inner)
            if extra:
                out += [f"if {CYCLE_COND[cond]}:", f"    t_extra = {extra}"]
            continue
        addr, n, k = parse_cycle(sp)
        if addr == "io":
            out.append(f"tio = t + {offset}")
        offset += n * k
    conds = [sp for sp in specs if isinstance(sp, tuple) and cycle_total(sp[2])]
    if conds:
        out = ["t_extra = 0", *out, f"t += {offset} + t_extra"]
    else:
        out.append(f"t += {offset}")
    return out


def walk(v: Variant, specs: list, xy: str = "ix") -> list[str]:
    """Code that advances T through ``specs``, with contention inside the contended window."""
    if v.trace or v.always_walk:
        return _walk(v, specs, xy)
    if v.table_walk:
        k = CYCLE_TABLE.add(specs)
        return [f"if {v.machine.CONTENDED_NOW}:",
                f"    t, tio = _walk(CONT, CYC, {k}, t, mem, pc, h, l, d, e, b, c, sp, i, r, "
                f"r7, a, f, {xy}, op, 0)",
                "else:", *indent(_fast(specs), 1)]
    inside = _walk(v, specs, xy)
    return [f"if {v.machine.CONTENDED_NOW}:", *indent(inside, 1), "else:",
            *indent(_fast(specs), 1)]


class CycleTable:
    """Cycle lists encoded as data for the JIT's one walking function.

    A list is its PC adjustment (how far PC is from where the list's addresses count from),
    then four ints per cycle group: kind (an address of ``CYCLE_ADDR``, ``none`` or an I/O
    port), T-states, repeats, and the condition it needs (-1: none, else an index of
    ``CYCLE_COND``); -1 ends it. ``at`` maps a dispatch slot (table base + opcode) to its
    list, with the T-states when it has no conditional part (else -1) and where its I/O
    cycle starts, so that outside the contended lines no walk is needed at all.
    """

    KINDS = [*CYCLE_ADDR, "none", "io:an", "io:bc", "io:bcdec"]
    CONDS = list(CYCLE_COND)
    SLOTS = 1024 + 2  # main, CB, ED, DD/FD tables; then IM 0/1 and IM 2 responses

    def __init__(self, machine: Any = ula) -> None:
        self.machine = machine  # whose contention the walk applies
        self.data: list[int] = []
        self.index: dict[str, int] = {}
        self.at = [-2] * self.SLOTS
        self.fast_t = [-1] * self.SLOTS
        self.io_off = [0] * self.SLOTS
        # Which addresses a list puts on the bus: 1 only PC and the bytes after it, 2 also IR,
        # 4 anything else. With 1 or 2, an instruction fetched outside contended memory (and I
        # outside 0x40-0x7F) is never delayed, in the contended lines or not.
        self.bus = [4] * self.SLOTS

    def add(self, specs: list, shift: int = 0) -> int:
        """Offset of ``specs`` (PC ``shift`` bytes before its addresses) in the table."""
        flat: list[tuple[str, int]] = []
        for sp in specs:
            if isinstance(sp, tuple):
                flat += [(x, self.CONDS.index(sp[1])) for x in sp[2]]
            else:
                flat.append((sp, -1))
        key = repr((shift, flat))
        if key not in self.index:
            self.index[key] = len(self.data)
            self.data.append(shift)
            for sp, cond in flat:
                addr, n, k = parse_cycle(sp)
                kind = self.KINDS.index(sp if addr == "io" else addr)
                self.data += [kind, n, k, cond]
            self.data.append(-1)
        return self.index[key]

    def dispatch(self, slot: int, specs: list | None, shift: int = 0) -> None:
        """Walk ``specs`` at dispatch for ``slot`` (None: the instruction walks itself)."""
        if specs is None:
            return
        self.at[slot] = self.add(specs, shift)
        if not any(isinstance(sp, tuple) for sp in specs):
            self.fast_t[slot] = cycle_total(specs)
            addrs = {parse_cycle(sp)[0] for sp in specs}
            if addrs <= {"pc", "pc+1", "pc+2", "pc-1", "pc-2", "none"}:
                self.bus[slot] = 1
            elif addrs <= {"pc", "pc+1", "pc+2", "pc-1", "pc-2", "none", "ir"}:
                self.bus[slot] = 2
        offset = 0
        for sp in specs:
            if isinstance(sp, str):
                if sp.startswith("io:"):
                    self.io_off[slot] = offset
                    break
                offset += cycle_total([sp])

    def dispatch_code(self, base: str, xy: str, int_data: str = "0") -> list[str]:
        """The walk at a dispatch point, for the opcode in ``op`` (``t0``: T before it)."""
        m = self.machine
        return [
            "t0 = t",
            f"slot_ = {base} + op",
            "k_ = CYC_AT[slot_]",
            "if k_ >= 0:",
            "    ft = FAST_T[slot_]",
            f"    if ft >= 0 and (not ({m.CONTENDED_NOW}) or (BUS[slot_] < 4 and "
            f"{m.uncontended('(pc - 2)')} and {m.uncontended('(pc + 2)')} and "
            f"(BUS[slot_] == 1 or {m.ir_uncontended('i')}))):",
            "        tio = t + IO_OFF[slot_]",
            "        t += ft",
            "    else:",
            "        t, tio = _walk(CONT, CYC, k_, t, mem, pc, h, l, d, e, b, c, sp, i, r, r7, a, "
            f"f, {xy}, op, {int_data})",
        ]

    def walker(self) -> list[str]:
        """The compiled walking function and its tables."""
        kinds = {name: k for k, name in enumerate(self.KINDS)}
        addr_cases: list[str] = []
        for k, name in enumerate(CYCLE_ADDR):
            expr = CYCLE_ADDR[name].replace("XY", "xy")
            addr_cases += [f"{'if' if k == 0 else 'elif'} kind == {k}:", f"    x_ = {expr}"]
        io_ports = {"io:an": "((a << 8) | mem[pc])", "io:bc": CYCLE_ADDR["bc"],
                    "io:bcdec": CYCLE_ADDR["bcdec"]}
        io_cases: list[str] = []
        for j, (name, expr) in enumerate(io_ports.items()):
            io_cases += [f"{'if' if j == 0 else 'elif'} kind == {kinds[name]}:",
                         f"    port_ = {expr}"]
        cond_cases: list[str] = []
        for j, name in enumerate(self.CONDS):
            cond_cases += [f"{'if' if j == 0 else 'elif'} cond == {j}:",
                           f"    ok = {CYCLE_COND[name]}"]
        body = [
            "tio = t",
            "pc = (pc + CYC[k]) & 0xFFFF",
            "k += 1",
            "while True:",
            "    kind = CYC[k]",
            "    if kind < 0:",
            "        return t, tio",
            "    n = CYC[k + 1]",
            "    reps = CYC[k + 2]",
            "    cond = CYC[k + 3]",
            "    k += 4",
            "    if cond >= 0:",
            "        ok = True",
            *indent(cond_cases, 2),
            "        if not ok:",
            "            continue",
            f"    if kind == {kinds['none']}:",
            "        t += n * reps",
            f"    elif kind > {kinds['none']}:",
            *indent(io_cases, 2),
            *indent(_io_cycle(Variant(machine=self.machine)), 2),
            "    else:",
            "        x_ = 0",
            *indent(addr_cases, 2),
            f"        contended = {self.machine.contended('x_')}",
            "        for _ in range(reps):",
            "            if contended:",
            "                " + self.machine.DELAY,
            "            t += n",
        ]

        def array(name: str, values: list[int]) -> str:
            return f"{name} = np.array([{', '.join(str(x) for x in values)}], dtype=np.int64)"

        return [
            array("CYC", self.data), array("CYC_AT", self.at), array("FAST_T", self.fast_t),
            array("IO_OFF", self.io_off), array("BUS", self.bus),
            "",
            "",
            "@njit(cache=True, _nrt=False)",
            "def _walk(CONT, CYC, k, t, mem, pc, h, l, d, e, b, c, sp, i, r, r7, a, f, xy, op, "
            "int_data):",
            '    """Advance T through one cycle list of CYC with contention; return (T, I/O T)."""',
            *indent(body, 1),
        ]


CYCLE_TABLE = CycleTable(ula)


def has_t_marker(lines: list[str]) -> bool:
    """Whether a leaf says where its T-states go (else they are added after its lines)."""
    return any(x.strip() in (T_HERE, T_TAKEN) or x.strip().startswith(T_IS) for x in lines)


def fixed_total(specs: list) -> int:
    """The T-states of a leaf that adds them after its lines: they must not depend on a
    condition (a leaf with conditional cycles says in each branch which it takes)."""
    if any(isinstance(sp, tuple) for sp in specs):
        raise templates.TemplateError(f"conditional cycles {specs} but no T-state marker")
    return cycle_total(specs)


def t_markers(lines: list[str], specs: list, walked: bool) -> list[str]:
    """Expand a leaf's T-state markers (``templates.T_HERE`` ...) from its cycle list.

    The bare engines add the figure where the marker stands; the machine engines have
    ``walked`` the cycles already, so the marker is a ``pass`` (it may be a branch's only line).
    """
    out: list[str] = []
    for x in lines:
        s = x.strip()
        pad = x[: len(x) - len(x.lstrip())]
        if s == T_HERE or s == T_TAKEN:
            if not walked and s == T_TAKEN and not any(isinstance(sp, tuple) for sp in specs):
                raise templates.TemplateError(f"{T_TAKEN} but no conditional cycles in {specs}")
            out.append(pad + ("pass" if walked else f"t += {cycle_total(specs, s == T_TAKEN)}"))
        elif s.startswith(T_IS):
            out.append(pad + ("pass" if walked else f"t += {s[len(T_IS):]}"))
        else:
            out.append(x)
    return out


def port_in_code(v: Variant) -> list[str]:
    """What answers an IN when no callback does: nothing (0xFF) or the machine's devices."""
    if not v.machine:
        return ["v = 0xFF"]
    return v.machine.port_in(v.trace)


def port_out_code(v: Variant) -> list[str]:
    """What takes an OUT when no callback does: nothing, or the machine's devices."""
    if not v.machine:
        return ["pass"]
    return v.machine.port_out(f"@EXIT {state.EXIT_LOG_FULL}")


def finish(v: Variant, leaf: Leaf, specs: list, xy: str = "ix") -> list[str]:
    """A leaf's lines for variant ``v``: its T-states (or cycle walk), Q marker and devices.

    A ``start_t`` leaf reads ``t0``, T at the instruction's start: set here before the walk, or
    by the dispatch's walk (``CycleTable.dispatch_code``) in the table-walking JIT engine.
    Walking there rather than in the leaf keeps the main function as it was: three more
    calls of ``_walk`` in it (SCF, CCF, IN A,(n)) cost the Spectrum's JIT 15 % on
    ``bench --machine``.
    """
    out: list[str] = []
    lines = t_markers(leaf.lines, specs, walked=bool(v.machine))
    if v.machine:
        walks_itself = self_walking(leaf)
        w = walk(v, specs, xy) if (walks_itself or not v.table_walk) else []
        if walks_itself:
            for x in lines:
                if x.strip() == "@CYCLES":
                    pad = x[: len(x) - len(x.lstrip())]
                    out += [pad + y for y in w]
                else:
                    out.append(x)
        elif v.table_walk:
            out = lines  # walked where it was dispatched (CycleTable.dispatch)
        else:
            out = [*(["t0 = t"] if leaf.start_t else []), *w, *lines]
    else:
        out = [*(["t0 = t"] if leaf.start_t else []),
               *(x for x in lines if x.strip() != "@CYCLES")]
        if not has_t_marker(leaf.lines):
            out.append(f"t += {fixed_total(specs)}")
    if leaf.flags:
        out.append("qt = t")
    return expand_devices(v, out)


HALT_PASS = cycle_total(FETCH1 + templates.cycles(isa.MAIN[0x76], "main"))


def halt_skip_code(v: Variant) -> list[str]:
    """After a HALT's pass: the passes that follow, up to the limit, without the dispatch.

    Only when nothing can stop them early: no interrupt that could be accepted before the
    limit, no breakpoint on the HALT (the loop would stop after this pass). Each pass is
    an M1 cycle at PC (4 T, R+1). Where no contention can fall, a run of passes is one
    jump of whole passes; a HALT in contended memory inside the screen's lines is passed
    one by one, each delayed as the ULA delays an opcode fetch there.
    """
    # A pass is one M1 cycle (the HALT leaf's cycle list: its fetch); whole passes are
    # counted by shifting, so its length must be a power of two.
    shift = HALT_PASS.bit_length() - 1
    assert HALT_PASS == 1 << shift, HALT_PASS
    jump = [f"k = (stop - t + {HALT_PASS - 1}) >> {shift}", f"t += k << {shift}", "r += k"]
    guard = "if not (iff1 and t < int_end) and not bp[pc]:"
    if not v.machine:
        return ["if t < until and not (iff1 and t < int_end) and not bp[pc]:",
                "    stop = until", *indent(jump, 1)]
    m = v.machine
    if v.trace:  # tests of contention: a contended HALT stays one pass at a time
        return [guard.replace("if ", f"if t < until and {m.uncontended('pc')} and ", 1),
                "    stop = until", *indent(jump, 1)]
    lo, hi = m.WINDOW_FROM, m.WINDOW_TO
    return [
        guard,
        f"    if {m.uncontended('pc')}:",
        "        if t < until:",
        "            stop = until",
        *indent(jump, 3),
        "    else:",
        "        while t < until:",
        f"            if {lo} < t < {hi}:",
        f"                t += {m.delay()} + {HALT_PASS}",
        "                r += 1",
        "            else:",
        f"                stop = until if (t >= {hi} or until <= {lo}) else {lo + 1}",
        *indent(jump, 4),
    ]


def expand_devices(v: Variant, lines: list[str]) -> list[str]:
    """Replace ``@PORT_IN`` / ``@PORT_OUT`` by the variant's devices, ``@HALT_SKIP`` by its
    way of passing a HALT."""
    out: list[str] = []
    for x in lines:
        s = x.strip()
        pad = x[: len(x) - len(x.lstrip())]
        if s in ("@PORT_IN", "@PORT_OUT"):
            out += [pad + y for y in (port_in_code(v) if s == "@PORT_IN" else port_out_code(v))]
        elif s == "@HALT_SKIP":
            out += [pad + y for y in halt_skip_code(v)]
        else:
            out.append(x)
    return out


# ---------------------------------------------------------------------------------------
# Leaves per table


def self_walking(leaf: Leaf) -> bool:
    """Whether a leaf walks its own cycles (a block instruction repeating in place)."""
    return any(x.strip() == "@CYCLES" for x in leaf.lines)


def main_cases(v: Variant, prefix_code: Callable[[str], list[str]]) -> list[tuple[int, list[str]]]:
    """The unprefixed table; ``prefix_code(name)`` gives the code of CB/ED/DD/FD."""
    out = []
    for code, op in enumerate(isa.MAIN):
        if op.mnemonic == isa.PREFIX:
            out.append((code, prefix_code(str(op.operands[0]))))
        else:
            specs = FETCH1 + templates.cycles(op, "main")
            leaf = templates.leaf(op, "main")
            CYCLE_TABLE.dispatch(code, None if self_walking(leaf) else specs)
            out.append((code, finish(v, leaf, specs)))
    return out


def cb_body(v: Variant) -> list[str]:
    """Fetch the CB opcode and run it (one leaf per opcode)."""
    cases = [(code, finish(v, templates.leaf(op, "cb"), FETCH2 + templates.cycles(op, "cb")))
             for code, op in enumerate(isa.CB)]
    return ["op = mem[pc]", "pc = (pc + 1) & 0xFFFF", "r += 1",
            *tree(cases, HOT_CB, flat=v.flat, table="cb")]


def cb_generic_body(v: Variant) -> list[str]:
    """Fetch the CB opcode and run it through the generic x/y/z piece (JIT engines)."""
    fetch = ["op = mem[pc]", "pc = (pc + 1) & 0xFFFF", "r += 1"]
    if v.table_walk:
        for code, op in enumerate(isa.CB):
            CYCLE_TABLE.dispatch(256 + code, FETCH2 + templates.cycles(op, "cb"))
        return [*fetch, *CYCLE_TABLE.dispatch_code("256", "ix"),
                *finish(v, Leaf(templates.cb_generic()), [])]
    assert not v.machine, "the Spectrum JIT engine walks CB cycles from its table"
    return [*fetch, *finish(v, Leaf(templates.cb_generic()), [])]


def ed_body(v: Variant) -> list[str]:
    """Fetch the ED opcode and run it (undefined ones are 8-T no-operations)."""
    cases = []
    for code, op in enumerate(isa.ED):
        specs = FETCH2 + (templates.cycles(op, "ed") if op is not None else [])
        leaf = templates.leaf(op, "ed") if op is not None else None
        CYCLE_TABLE.dispatch(512 + code, None if leaf and self_walking(leaf) else specs)
        if leaf is not None:
            cases.append((code, finish(v, leaf, specs)))
    default = finish(v, Leaf([]), FETCH2)  # no cycles of their own: the two fetches
    walk_here = CYCLE_TABLE.dispatch_code("512", "ix") if v.table_walk else []
    return ["op = mem[pc]", "pc = (pc + 1) & 0xFFFF", "r += 1", *walk_here,
            *tree(cases, HOT_ED, default=default, flat=v.flat, table="ed")]


def index_body(v: Variant, prefix: str) -> list[str]:
    """DD or FD: peek at the next byte; a prefix that changes nothing costs 4 T on its own."""
    table = isa.DD if prefix == "DD" else isa.FD
    xy = "ix" if prefix == "DD" else "iy"
    cases: list[tuple[int, list[str]]] = []
    # A prefix the next opcode ignores: no interrupt before that opcode, and Q passes through
    # (the prefix is not an instruction): the marker that says "F is Q now" (``qt``, or
    # ``state.ENTRY_T`` at the start of a run) moves on from the prefix's start to its end.
    # ENTRY_T stays in the state array: a local would cost the JIT's DD/FD functions an
    # argument, a store and a reload on every call (measured: 5 % of bench --machine).
    entry = f"st[{state.ENTRY_T}]"
    nop_leaf = Leaf([T_HERE, "ei_at = t", "if qt == t0:", "    qt = t", f"elif {entry} == t0:",
                     f"    {entry} = t"], start_t=True)
    nop = finish(v, nop_leaf, FETCH1)
    for code, op in enumerate(table):
        if op.mnemonic == isa.PREFIX_NOP or (op.mnemonic == isa.PREFIX
                                             and op.operands[0] in ("DD", "FD", "ED")):
            CYCLE_TABLE.dispatch(768 + code, FETCH1)
            cases.append((code, nop))
        elif op.mnemonic == isa.PREFIX:  # DDCB d op: two M1 cycles, then d and op as data
            body = [
                "pc = (pc + 1) & 0xFFFF", "r += 1",
                f"ea = ({xy} + ((mem[pc] ^ 0x80) - 0x80)) & 0xFFFF", "wz = ea",
                "op = mem[(pc + 1) & 0xFFFF]", "pc = (pc + 2) & 0xFFFF",
                *templates.ddcb_generic(xy),
            ]
            specs = ["pc-1:4", "pc:4", *templates.ddcb_cycles("NOTBIT")]
            CYCLE_TABLE.dispatch(768 + code, specs)  # (the table-walking JIT walks them there)
            cases.append((code, finish(v, Leaf(body), specs, xy)))
        else:
            specs = FETCH2 + templates.cycles(op, "dd")
            # Walked before PC moves past the second opcode byte: one byte on.
            CYCLE_TABLE.dispatch(768 + code, specs, shift=1)
            cases.append((code, ["pc = (pc + 1) & 0xFFFF", "r += 1",
                                 *finish(v, templates.leaf(op, "dd"), specs, xy)]))
    walk_here = CYCLE_TABLE.dispatch_code("768", xy) if v.table_walk else []
    return ["op = mem[pc]", *walk_here, *tree(cases, HOT_DD, flat=v.flat, table=prefix.lower())]


# ---------------------------------------------------------------------------------------
# Function assembly

def regs(v: Variant) -> list[tuple[str, int]]:
    """Locals exchanged with the state array: the Z80's, then the machine's."""
    return REGS + (list(v.machine.REGS) if v.machine else [])


def load_lines(v: Variant) -> list[str]:
    """Load locals from the state array."""
    out = [f"{name} = st[{idx}]" for name, idx in regs(v)]
    out += [f"r = st[{state.R}]", "r7 = r & 0x80"]
    out += [f"{name} = st[{idx}]" for name, idx in CONFIG]
    return out


def store_lines(v: Variant) -> list[str]:
    """Store locals into the state array."""
    out = [f"st[{idx}] = {name}" for name, idx in regs(v)]
    out += [f"st[{state.R}] = (r & 0x7F) | r7", f"st[{state.INT_END}] = int_end"]
    return out


def entry_lines() -> list[str]:
    """Turn the state's boolean markers into the loop's T-stamped ones."""
    return [
        f"st[{state.ENTRY_T}] = t",
        f"q_entry = st[{state.Q}]",
        f"ei_at = t if st[{state.AFTER_EI}] else -1",
        f"ldair_at = t if st[{state.AFTER_LDAIR}] else -1",
        "qt = -1",
    ]


def exit_lines() -> list[str]:
    """Turn the T-stamped markers back into the state's booleans and Q."""
    return [
        f"st[{state.AFTER_EI}] = 1 if ei_at == t else 0",
        f"st[{state.AFTER_LDAIR}] = 1 if ldair_at == t else 0",
        "if qt == t:",
        f"    st[{state.Q}] = f",
        f"elif t != st[{state.ENTRY_T}]:",
        f"    st[{state.Q}] = 0",
    ]


def interrupt_lines(v: Variant) -> list[str]:
    """Accept the maskable interrupt (IM 0 runs an RST from the bus, IM 1 RST 38h, IM 2)."""
    im2, im1 = templates.interrupt_cycles(2), templates.interrupt_cycles(1)
    if v.table_walk:
        CYCLE_TABLE.dispatch(1024, im1)
        CYCLE_TABLE.dispatch(1025, im2)
        timing = ["op = 0", "t, tio = _walk(CONT, CYC, CYC_AT[1025 if im == 2 else 1024], t, mem, "
                  "pc, h, l, d, e, b, c, sp, i, r, r7, a, f, ix, op, int_data)"]
        t19, t13 = "pass", "pass"
    elif v.machine:
        timing = ["if im == 2:", *indent(walk(v, im2), 1), "else:", *indent(walk(v, im1), 1)]
        t19, t13 = "pass", "pass"
    else:
        timing = []
        t19, t13 = f"t += {cycle_total(im2)}", f"t += {cycle_total(im1)}"
    return [
        # NMOS: P/V reads 0 when INT follows LD A,I / LD A,R (tested before the walk moves T).
        "if ldair_at == t:",
        "    f = f & 0xFB",
        *timing,
        "if halted:",
        "    pc = (pc + 1) & 0xFFFF",
        "    halted = 0",
        "iff1 = 0",
        "iff2 = 0",
        "r += 1",
        "if int_ack_clears:",
        "    int_end = 0",
        *templates.PUSH_PC,
        "if im == 2:",
        "    ea = (i << 8) | int_data",
        "    pc = mem[ea] | (mem[(ea + 1) & 0xFFFF] << 8)",
        f"    {t19}",
        "else:",
        "    if im == 0 and (int_data & 0xC7) == 0xC7:",
        "        pc = int_data & 0x38",
        "    else:",
        "        pc = 0x38",
        f"    {t13}",
        "wz = pc",
    ]


def expand_exits(lines: list[str], how: Callable[[str], list[str]]) -> list[str]:
    """Replace ``@EXIT n`` lines by the engine's way of leaving."""
    out: list[str] = []
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith("@EXIT "):
            pad = line[: len(line) - len(stripped)]
            out += [pad + x for x in how(stripped.split()[1])]
        else:
            out.append(line)
    return out


def watch_test() -> list[str]:
    """The Spectrum engines' watches (state.WATCH_TABLE): EXIT_WATCH at the first broken one."""
    return [
        "w_bad = 0",
        "w_n = 0",
        f"while w_bad == 0 and w_n < st[{state.WATCH_N}]:",
        f"    w_at = {state.WATCH_TABLE} + {state.WATCH_STRIDE} * w_n",
        "    w_a = st[w_at]",
        "    if w_a < 0:",
        "        w_x = sp",
        "    else:",
        "        w_x = mem[w_a]",
        "        if st[w_at + 1] == 2:",
        "            w_x = w_x | (mem[(w_a + 1) & 0xFFFF] << 8)",
        "    if (st[w_at + 2] <= w_x and w_x <= st[w_at + 3]) != (st[w_at + 4] != 0):",
        "        w_bad = 1",
        "    w_n += 1",
        "if w_bad:",
        f"    reason = {state.EXIT_WATCH}",
        "    break",
    ]


def break_test(v: Variant) -> list[str]:
    """After an instruction or interrupt: stop at a breakpoint (bit 0 of ``bp[pc]``). The
    Spectrum engines also check the watches when the watch bit is set: it is set at every
    address while any is armed, so a run without watches pays nothing more than the test
    of ``bp[pc]`` it always made."""
    stop = [f"    reason = {state.EXIT_BREAK}", "    break"]
    if not v.machine:
        return ["if bp[pc]:", *stop]
    return ["if bp[pc]:",
            f"    if bp[pc] & {state.WATCH_BIT}:",
            *indent(watch_test(), 2),
            "    if bp[pc] & 1:",
            *indent(stop, 1)]


def loop_jit(v: Variant, dispatch: list[str]) -> list[str]:
    """The numba engines' run loop: one loop, the interrupt tested before each instruction.

    Compiled, the test costs next to nothing, and LLVM makes a slower loop of the nested
    shape below (measured: 390x real time against 560x on the benchmark's workload).
    """
    if v.table_walk:
        dispatch = [*CYCLE_TABLE.dispatch_code("0", "ix", "int_data"), *dispatch]
    return [
        "while t < until:",
        "    if t < int_end and iff1 and ei_at != t:",
        *indent(interrupt_lines(v), 2),
        "    else:",
        "        op = mem[pc]",
        "        pc = (pc + 1) & 0xFFFF",
        "        r += 1",
        *indent(dispatch, 2),
        *indent(break_test(v), 1),
    ]


def loop(v: Variant, dispatch: list[str]) -> list[str]:
    """The CPython engines' run loop around a dispatch block."""
    # While the interrupt line is up (t < int_end) the loop runs one instruction at a time,
    # checking before each; after that it cannot be accepted in this run (t only grows), so
    # the inner loop runs to ``until`` with no check at all: the common case pays nothing.
    return [
        "while t < until:",
        "    if t < int_end:",
        "        if iff1 and ei_at != t:",
        *indent(interrupt_lines(v), 3),
        *(indent(break_test(v), 3) if v.breakpoints else []),
        "            continue",
        "        lim = t + 1",
        "    else:",
        "        lim = until",
        "    while t < lim:",
        "        op = mem[pc]",
        "        pc = (pc + 1) & 0xFFFF",
        "        r += 1",
        *indent(dispatch, 2),
        *(indent(break_test(v), 2) if v.breakpoints else []),
        "    if reason:",
        "        break",
    ]


HEADER = (
    '"""GENERATED by tools/gen_z80.py from {sources} \u2014 do not edit.\n\n'
    '{what}\n"""\n\n# ruff: noqa\nfrom zxmonopoly.z80 import state as S\n'
)

# A state slot as the templates and this generator write it (a number), and as the generated
# engines spell it: by its name in zxmonopoly.z80.state (numba reads ``S.PC`` as the constant
# it is), or a JIT scratch slot by the name the module gives it (SCRATCH).
_SLOT = re.compile(r"\bst\[(\d+)\]")
SLOT_NAMES = {value: f"S.{name}" for name, value in vars(state).items()
              if name.isupper() and isinstance(value, int) and not name.startswith("EXIT_")
              and name not in ("SIZE", "WATCH_STRIDE", "WATCH_ENTRIES", "WATCH_BIT",
                               "WATCH_TABLE")}


def name_slots(text: str) -> str:
    """``st[19]`` -> ``st[S.PC]`` throughout a generated module (every slot has a name)."""
    names = {**SLOT_NAMES, **SCRATCH}

    def named(m: re.Match[str]) -> str:
        index = int(m.group(1))
        if index not in names:
            raise ValueError(f"state slot {index} has no name in zxmonopoly.z80.state")
        return f"st[{names[index]}]"

    return _SLOT.sub(named, text)


def sources(v: Variant) -> str:
    """What a generated module is made from, for its header."""
    if not v.machine:
        return "isa.py and templates.py"
    return f"isa.py, templates.py and {v.machine.SOURCE}"


def args(v: Variant) -> str:
    """The engine's parameters."""
    if not v.machine:
        return ARGS
    extra = ["TRACE" if (v.trace and name == "CONT") else name for name in v.machine.ARGS]
    return ", ".join([ARGS, *extra])


# CPython adds small ints fast but has no fast path for ``&``: stepping PC and testing for
# the wrap is cheaper than masking (numba compiles either to the same few instructions).
WRAPS = {
    "pc = (pc + 1) & 0xFFFF": ["pc += 1", "if pc == 0x10000:", "    pc = 0"],
    "pc = (pc + 2) & 0xFFFF": ["pc += 2", "if pc > 0xFFFF:", "    pc -= 0x10000"],
}


# R counts every M1 cycle, and CPython allocates a new int for every sum above 256: so the
# CPython engines keep R's low 7 bits only (LD R,A may leave up to 255 until the next M1) and
# step them through a table of small, shared ints; the numba engines count unmasked.
R_STEPS = {"r += 1": ["r = R_INC1[r]"], "r += 2": ["r = R_INC2[r]"]}
R_SUM = re.compile(r"^r ([+-])= (\w+)$")
# A displacement byte as a signed number: a list of shared ints beats an XOR and a subtract.
SIGNED_BYTE = re.compile(r"\(\((mem\[pc\]|n) \^ 0x80\) - 0x80\)")
R_TABLES = ["R_INC1 = _R_INC1", "R_INC2 = _R_INC2", "SIGNED = _SIGNED"]
R_TABLES_SOURCE = ["_R_INC1 = [(x + 1) & 0x7F for x in range(256)]",
                   "_R_INC2 = [(x + 2) & 0x7F for x in range(256)]",
                   "_SIGNED = [x - 256 if x > 127 else x for x in range(256)]"]


def cpython_rewrites(lines: list[str]) -> list[str]:
    """Rewrite PC's masked steps forward as an add and a wrap test, R's steps as 7-bit
    ones and signed displacements as a table lookup (CPython engines)."""
    out: list[str] = []
    for line in lines:
        stripped = line.lstrip()
        pad = line[: len(line) - len(stripped)]
        sums = R_SUM.match(stripped)
        if stripped in WRAPS:
            out += [pad + x for x in WRAPS[stripped]]
        elif stripped in R_STEPS:
            out += [pad + x for x in R_STEPS[stripped]]
        elif sums:
            out.append(f"{pad}r = (r {sums[1]} {sums[2]}) & 0x7F")
        else:
            out.append(SIGNED_BYTE.sub(r"SIGNED[\1]", line))
    return out


def python_function(v: Variant, name: str = "run") -> list[str]:
    """A CPython engine's function: everything inline."""
    def prefix(table: str) -> list[str]:
        if table == "CB":
            return cb_body(v)
        if table == "ED":
            return ed_body(v)
        return index_body(v, table)

    dispatch = tree(main_cases(v, prefix), HOT_MAIN, table="main")
    body = [*R_TABLES, *load_lines(v), *entry_lines(), "reason = 0", *loop(v, dispatch),
            *store_lines(v), *exit_lines(), "return reason"]
    body = expand_exits(body, lambda n: [f"reason = {n}", "break"])
    body = cpython_rewrites(body)
    doc = ("Run until T reaches ``until`` or an exit; return the exit reason." if v.breakpoints
           else "``run`` for when no breakpoint is set: PC is never looked up in ``bp``.")
    return [f"def {name}({args(v)}):", f'    """{doc}"""', *indent(body, 1)]


def gen_python(v: Variant = BARE, free: Variant | None = None) -> str:
    """A CPython engine module: ``run``, and ``run_free`` made from ``free`` if given."""
    what = ("The CPython engine" + (f" of {v.machine.TITLE}" if v.machine
                                   else " of the bare CPU") +
            ": run(state, memory, breakpoints, until, tables...) -> exit reason.")
    if free is not None:
        what += ("\nrun_free is the same without the breakpoint test after each instruction, "
                 "for runs with none set.")
    src = [HEADER.format(sources=sources(v), what=what), *R_TABLES_SOURCE, "", "",
           *python_function(v)]
    if free is not None:
        src += ["", "", *python_function(free, "run_free")]
    return name_slots("\n".join([*src, ""]))


def names_used(lines: list[str]) -> tuple[set[str], set[str]]:
    """Names a block of code reads and names it assigns."""
    src = "def _block():\n" + "\n".join(indent(lines, 1))
    src = "\n".join(x if not x.strip().startswith("@EXIT") else
                    x[: len(x) - len(x.lstrip())] + "pass" for x in src.split("\n"))
    reads: set[str] = set()
    writes: set[str] = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Name):
            (writes if isinstance(node.ctx, ast.Store) else reads).add(node.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            reads.add(node.target.id)
    return reads, writes


# Where a JIT prefix function leaves each local it changed (registers in their own slots,
# R unmasked and the markers in scratch slots).
S_EI_AT, S_LDAIR_AT, S_QT = 40, 41, 42  # 43 is state.ENTRY_T
S_R_RAW, S_R7 = 45, 46
SCRATCH = {S_EI_AT: "_EI_AT", S_LDAIR_AT: "_LDAIR_AT", S_QT: "_QT", S_R_RAW: "_R_RAW",
           S_R7: "_R7"}
TABLES = TABLE_ARGS.split(", ")
PASSED = ("rom_top", "io_exit", "until", "int_end", "bp")  # and the machine's ARGS


def gen_jit(v: Variant = BARE) -> str:
    """A JIT engine: main table and CB inline, one compiled function per other prefix.

    A prefix function takes the locals it reads as arguments and leaves the ones it changes
    in the state array, which the main loop reloads: far cheaper than exchanging everything.
    """
    global CYCLE_TABLE
    CYCLE_TABLE = CycleTable(v.machine)  # this engine's own table, the same on every run
    slots = {**dict(regs(v)), "r": S_R_RAW, "r7": S_R7, "ei_at": S_EI_AT,
             "ldair_at": S_LDAIR_AT, "qt": S_QT}
    funcs: list[str] = []
    calls: dict[str, list[str]] = {}

    def sub(name: str, body: list[str]) -> None:
        reads, writes = names_used(body)
        # Every local it may change comes in too: a branch that leaves it alone must store
        # back the value it had.
        passed = [*PASSED, *(v.machine.ARGS if v.machine else ())]
        params = [n for n in slots if n in reads | writes] + [n for n in passed if n in reads]
        tabs = [n for n in TABLES if n in reads]
        out = [n for n in slots if n in writes]
        store = [f"st[{slots[n]}] = {n}" for n in out]
        load = [f"{n} = st[{slots[n]}]" for n in out]
        lines = [*body, *store, "return 0"]
        lines = expand_exits(lines, lambda n: [*store, f"return {n}"])
        fname = f"_prefix_{name.lower()}"
        arglist = ", ".join(["st", "mem", *tabs, *params])
        funcs.extend(["", "", "@njit(cache=True, _nrt=False)", f"def {fname}({arglist}):",
                      f'    """Run one {name}-prefixed instruction."""', *indent(lines, 1)])
        calls[name] = [f"reason = {fname}({arglist})", *load, "if reason:", "    break"]

    calls["CB"] = cb_generic_body(v)
    sub("ED", ed_body(v))
    sub("DD", index_body(v, "DD"))
    sub("FD", index_body(v, "FD"))

    dispatch = tree(main_cases(v, lambda name: calls[name]), HOT_MAIN, flat=v.flat,
                    table="main")
    body = [*load_lines(v), *entry_lines(), "reason = 0", *loop_jit(v, dispatch),
            *store_lines(v), *exit_lines(), "return reason"]
    body = expand_exits(body, lambda n: [f"reason = {n}", "break"])
    what = ("The numba engine" + (f" of {v.machine.TITLE}" if v.machine
                                 else " of the bare CPU") +
            ": the same leaves as the CPython one, split per prefix table to keep compile "
            "time short.")
    head = ["from numba import njit", "from numpy import int64 as I64", "",
            "# Scratch slots of the state array where a prefix function leaves what it changed.",
            *(f"{name} = {index}" for index, name in SCRATCH.items())]
    if v.table_walk:
        head = ["import numpy as np", *head, "", "", *CYCLE_TABLE.walker()]
    src = [HEADER.format(sources=sources(v), what=what), *head,
           *funcs, "", "", "@njit(cache=True, _nrt=False)", f"def run({args(v)}):",
           '    """Run until T reaches ``until`` or an exit; return the exit reason."""',
           *indent(body, 1), ""]
    return name_slots(widen_for_numba("\n".join(src)))


class _WidenMemoryReads(ast.NodeTransformer):
    """Wrap reads of ``mem`` in ``I64(...)``: numba types a uint8 shifted left as uint64,
    and uint64 mixed with int64 as float64, so every byte read is widened at the source."""

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id == "mem" and \
                isinstance(node.ctx, ast.Load):
            return ast.Call(func=ast.Name("I64", ast.Load()), args=[node], keywords=[])
        return node


def widen_for_numba(src: str) -> str:
    """The JIT source with every memory read widened to int64 (the cases' comments kept)."""
    lines = [CASE_COMMENT.sub(lambda m: m[1] + repr(CASE_MARK + m[2]), x) for x in src.split("\n")]
    tree_ = _WidenMemoryReads().visit(ast.parse("\n".join(lines)))
    out = []
    for line in ast.unparse(ast.fix_missing_locations(tree_)).split("\n"):
        text = line.strip()
        if CASE_MARK in text and text[:1] in "'\"":
            value = ast.literal_eval(text)
            if isinstance(value, str) and value.startswith(CASE_MARK):
                line = line[: len(line) - len(line.lstrip())] + "# " + value[len(CASE_MARK):]
        out.append(line)
    return "\n".join(out) + "\n"


# Each engine beside what it runs: the bare CPU's in z80/, the Spectrum's in spectrum/.
OUTPUTS: dict[str, Callable[[], str]] = {
    "z80/_engine_py.py": lambda: gen_python(BARE, BARE_FREE),
    "z80/_engine_jit.py": lambda: gen_jit(BARE_JIT),
    "spectrum/_engine_py.py": lambda: gen_python(MACHINE),
    "spectrum/_engine_jit.py": lambda: gen_jit(MACHINE_JIT),
}


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the generated engines."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if a file would change")
    args_ = ap.parse_args(argv)
    stale = []
    for name, make in OUTPUTS.items():
        path = PACKAGE_DIR / name
        text = make()
        if args_.check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        elif path.exists() and path.read_text() == text:
            # Left as it is: numba's cache of a JIT engine is keyed on the file's time stamp.
            print(f"unchanged {path.relative_to(ROOT)}")
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python tools/gen_z80.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
