"""Each instruction's machine cycles: the one description of the Z80's timing.

An instruction's T-states are its machine cycles and nothing else. :func:`cycles` lists them
after its opcode fetches (:data:`FETCH1`, :data:`FETCH2`, added by the generator) as groups
``"ADDR:T"`` (a contention check with ADDR on the bus, then T T-states) or ``"ADDR:T*K"`` (K
such cycles), ``"io:PORT"`` for an I/O cycle (4 T, contended by port address) and
``("?", COND, [...])`` for cycles taken only when COND holds (a condition code of
``isa.CC``, or ``B1``, ``BC1``, ``BC1MATCH``, ``NOTBIT``: a counter running on, a block
instruction repeating, DDCB's write). ADDR and PORT name values at the start of the
instruction, after its opcode fetches: ``cycle_addresses`` in tools/z80gen/cycles.py spells
each one, and ``cycle_conditions`` there each condition.

The bare engines add a list's total (:func:`cycle_total`); the Spectrum engines walk it,
delaying each cycle the ULA contends. The code templates (``templates.py``) never name a
T-state count: where a leaf's T-states go is a marker there, and the figure comes from here.
Source: spectrum_facts §1.9 (the Fuse model); checked against every FUSE vector's trace of
contention checks in tests/z80/test_cycles.py, and the totals against the FUSE vectors' T-states.
"""

from __future__ import annotations

from . import isa

#: A cycle list: groups ``"ADDR:T"``, ``"ADDR:T*K"``, ``"io:PORT"`` and conditional parts
#: ``("?", COND, [...])``.
Cycles = list  # of str | tuple[str, str, list]

# The opcode fetches (M1 cycles) before an instruction's own cycles: 4 T each, PC one byte
# on from the opcode they fetch. Prefixed tables (CB, ED, DD, FD) fetch two.
FETCH1 = ["pc-1:4"]
FETCH2 = ["pc-2:4", "pc-1:4"]


def parse_cycle(spec: str) -> tuple[str, int, int]:
    """One cycle group as (address name, T-states, repeats); ``io:PORT`` is one 4-T cycle."""
    addr, _, rest = spec.partition(":")
    if addr == "io":
        return addr, 4, 1
    n, _, k = rest.partition("*")
    return addr, int(n), int(k or 1)


def cycle_total(specs: Cycles, taken: bool = False) -> int:
    """T-states of a cycle list: its unconditional cycles, and (``taken``) the others too."""
    total = 0
    for sp in specs:
        if isinstance(sp, tuple):
            if taken:
                total += cycle_total(sp[2], taken)
        else:
            _, n, k = parse_cycle(sp)
            total += n * k
    return total


def is_index_mem(o: object) -> bool:
    """True for the operands (IX+d) and (IY+d)."""
    return isinstance(o, str) and o.endswith("+d)")


#: The register pairs: their INC and DEC take two cycles with IR on the bus.
_PAIRS = frozenset({*isa.RP, *isa.RP2, "IX", "IY"})


def cycles(op: isa.Op, table: str) -> Cycles:
    """The machine cycles of ``op`` of ``table`` (main, cb, ed, dd) after its opcode fetches."""
    m, ops = op.mnemonic, op.operands
    mem_x = next((o for o in ops if is_index_mem(o)), None)
    if m in isa.ROT and table in ("cb",):
        return ["hl:3", "hl:1", "hl:3"] if ops[0] == "(HL)" else []
    if m in ("BIT", "RES", "SET") and table == "cb":
        if ops[1] != "(HL)":
            return []
        return ["hl:3", "hl:1"] if m == "BIT" else ["hl:3", "hl:1", "hl:3"]
    if mem_x is not None:
        if m == "LD" and ops[1] == "n":
            return ["pc:3", "pc+1:3", "pc+1:1*2", "xd:3"]
        if m in ("INC", "DEC"):
            return ["pc:3", "pc:1*5", "xd:3", "xd:1", "xd:3"]
        return ["pc:3", "pc:1*5", "xd:3"]
    if m == "LD":
        dst, src = ops
        if dst in ("I", "R") or src in ("I", "R"):
            return ["ir:1"]
        if dst in ("(BC)", "(DE)") or src in ("(BC)", "(DE)"):
            return [("bc:3" if "(BC)" in ops else "de:3")]
        if "(nn)" in ops:
            if "A" in ops:
                return ["pc:3", "pc+1:3", "nn:3"]
            return ["pc:3", "pc+1:3", "nn:3", "nn+1:3"]
        if src == "nn":
            return ["pc:3", "pc+1:3"]
        if dst == "SP":
            return ["ir:1*2"]
        if dst == "(HL)":
            return ["pc:3", "hl:3"] if src == "n" else ["hl:3"]
        if src == "(HL)":
            return ["hl:3"]
        return ["pc:3"] if src == "n" else []
    if m in isa.ALU and not (m in ("ADD", "ADC", "SBC") and ops[0] != "A"):
        src = ops[-1]
        return ["pc:3"] if src == "n" else (["hl:3"] if src == "(HL)" else [])
    if m in ("ADD", "ADC", "SBC"):
        return ["ir:1*7"]
    if m in ("INC", "DEC"):
        o = ops[0]
        if o == "(HL)":
            return ["hl:3", "hl:1", "hl:3"]
        return ["ir:1*2"] if o in _PAIRS else []
    if m == "JR":
        return ["pc:3", "pc:1*5"] if len(ops) == 1 else ["pc:3", ("?", str(ops[0]), ["pc:1*5"])]
    if m == "DJNZ":
        return ["ir:1", "pc:3", ("?", "B1", ["pc:1*5"])]
    if m == "JP":
        return [] if str(ops[-1]).startswith("(") else ["pc:3", "pc+1:3"]
    if m == "CALL":
        push_ = ["pc+1:1", "sp-1:3", "sp-2:3"]
        if len(ops) == 1:
            return ["pc:3", "pc+1:3", *push_]
        return ["pc:3", "pc+1:3", ("?", str(ops[0]), push_)]
    if m == "RET":
        if not ops:
            return ["sp:3", "sp+1:3"]
        return ["ir:1", ("?", str(ops[0]), ["sp:3", "sp+1:3"])]
    if m in ("RETN", "RETI", "POP"):
        return ["sp:3", "sp+1:3"]
    if m in ("PUSH", "RST"):
        return ["ir:1", "sp-1:3", "sp-2:3"]
    if m == "EX" and ops[0] == "(SP)":
        return ["sp:3", "sp+1:3", "sp+1:1", "sp+1:3", "sp:3", "sp:1*2"]
    if m in ("IN", "OUT"):
        return ["pc:3", "io:an"] if "(n)" in ops else ["io:bc"]
    if m in ("RLD", "RRD"):
        return ["hl:3", "hl:1*4", "hl:3"]
    if m in ("LDI", "LDD", "LDIR", "LDDR"):
        base = ["hl:3", "de:3", "de:1*2"]
        return base + ([("?", "BC1", ["de:1*5"])] if m.endswith("R") else [])
    if m in ("CPI", "CPD", "CPIR", "CPDR"):
        base = ["hl:3", "hl:1*5"]
        return base + ([("?", "BC1MATCH", ["hl:1*5"])] if m.endswith("R") else [])
    if m in ("INI", "IND", "INIR", "INDR"):
        base = ["ir:1", "io:bc", "hl:3"]
        return base + ([("?", "B1", ["hl:1*5"])] if m.endswith("R") else [])
    if m in ("OUTI", "OUTD", "OTIR", "OTDR"):
        base = ["ir:1", "hl:3", "io:bcdec"]
        return base + ([("?", "B1", ["bcdec:1*5"])] if m in ("OTIR", "OTDR") else [])
    # NOP, EX AF/DE/EXX, DI, EI, IM, NEG, HALT, rotates of A, DAA, CPL, SCF, CCF
    return []


def interrupt_cycles(im: int) -> Cycles:
    """The cycles of accepting the maskable interrupt: the 7-T acknowledge (no address the ULA
    contends), PC pushed, and in IM 2 the vector read from (I << 8 | data): IM 1 13 T
    (7+3+3), IM 2 19 T (7+3+3+3+3); IM 0 with 0xFF (RST 38h) on the bus times as IM 1
    (spectrum_facts §1)."""
    push_pc = ["sp-1:3", "sp-2:3"]
    return ["none:7", *push_pc, *(["vec:3", "vec+1:3"] if im == 2 else [])]


def ddcb_cycles(is_bit: str) -> Cycles:
    """DDCB/FDCB after the two opcode fetches: d, op, 2 internal, read, 1, write (not BIT)."""
    return ["pc+1:3", "pc+2:3", "pc+2:1*2", "xd1:3", "xd1:1", ("?", is_bit, ["xd1:3"])]
