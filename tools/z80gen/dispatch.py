"""Dispatch on an opcode: optimal if-trees (CPython, the Spectrum's numba engine) or if/elif
chains (the bare numba engine), weighted by how often each opcode runs, each case opened by
a comment naming its opcode(s) and instruction(s)."""

from __future__ import annotations

import json
from pathlib import Path

from zxmonopoly.z80 import isa
from zxmonopoly.z80.templates import indent

# How often each opcode runs in the product (our ROM, a real-time tape load, the game), as
# measured by tools/profile_z80.py, so that the dispatch trees need the fewest tests on
# average. Every opcode also gets an even share (UNIFORM per opcode, a quarter of the whole
# over 256 opcodes): other programs run too, and no opcode should sink deep in the tree.
PROFILE = json.loads((Path(__file__).resolve().parents[1] / "z80_profile.json").read_text())
UNIFORM = PROFILE["scale"] // 1000


def profile_weights(table: str) -> dict[int, int]:
    """Weights of one table's opcodes: measured share plus the even share."""
    measured = {int(k, 16): v for k, v in PROFILE[table].items()}
    return {op: measured.get(op, 0) + UNIFORM for op in range(256)}


HOT_MAIN = profile_weights("main")
HOT_CB = profile_weights("cb")
HOT_ED = profile_weights("ed")
HOT_DD = profile_weights("dd")
#: The DD opcodes the profile saw run, most frequent first.
MEASURED_DD = tuple(int(k, 16) for k, _ in sorted(PROFILE["dd"].items(), key=lambda kv: -kv[1]))

Segment = tuple[int, int, list[str]]  # opcodes [start, end) with one body


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
    segs: list[Segment] = []
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


def _chain(segs: list[Segment], w: list[int], var: str) -> list[str]:
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


def _split(segs: list[Segment], w: list[int], var: str) -> list[str]:
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
            assert best is not None
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
