#!/usr/bin/env python3
"""Every routine's header in the ROM and the game, checked against what the routine does.

A routine is a global label on an instruction. Its header is the comment block just above it
(docs/assembler.md, "House style"): the name and purpose, then ``Input:``, ``Output:`` and
``Corrupts:``. This tool finds the registers each routine really changes by following its
machine code from the label (the assembled image, the instruction tables of
``zxmonopoly.z80.isa``): every path to a RET, through the jumps and the conditional branches,
into each CALL (with what the called routine changes), keeping track of which register holds
which register's entry value, so that a PUSH and its POP, ``EX DE,HL`` twice or
``LD B,A ... LD A,B`` preserve. A register is *changed* when on some path to a RET it no longer
holds its value at entry. Paths that leave through a JP (HL), an RST that does not return, or
that play with the stack (a POP of the return address, LD SP) are named, not guessed.

The check: the registers in ``Corrupts:`` and ``Output:`` are together those changed, and
``Corrupts:`` names none that is not changed. Usage::

    python tools/asm_headers.py [--check] [--target rom|game] [--name ROUTINE]

prints each routine whose header is missing a part or disagrees with the code (``--check``:
exit status 1 if any), or with ``--name`` what the analysis found for one routine.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zxmonopoly.asm.assembler import Program  # noqa: E402
from zxmonopoly.asm.build import GAME, ROM, Target, assemble_target  # noqa: E402
from zxmonopoly.asm.source import INSTRUCTION  # noqa: E402
from zxmonopoly.asm.symbols import LABEL  # noqa: E402
from zxmonopoly.z80 import disasm  # noqa: E402

# --- Registers -------------------------------------------------------------------------------
MAIN8 = ("A", "F", "B", "C", "D", "E", "H", "L")
ALT8 = tuple(r + "'" for r in MAIN8)
INDEX8 = ("IXH", "IXL", "IYH", "IYL")
REGS = MAIN8 + ALT8 + INDEX8
PAIRS = {"AF": ("A", "F"), "BC": ("B", "C"), "DE": ("D", "E"), "HL": ("H", "L"),
         "IX": ("IXH", "IXL"), "IY": ("IYH", "IYL"),
         "AF'": ("A'", "F'"), "BC'": ("B'", "C'"), "DE'": ("D'", "E'"), "HL'": ("H'", "L'")}
SINGLE = {r: (r,) for r in REGS}
NAMES = {**PAIRS, **SINGLE}

Origin = str | None  # the register whose entry value a register holds; None: something else


@dataclass(frozen=True)
class State:
    """What each register holds (``origin``) and the stack pushed since entry, slot by slot
    (a slot is the origins of its two bytes, high first; None for a value not tracked)."""

    origin: tuple[Origin, ...]
    stack: tuple[tuple[Origin, Origin], ...]

    @staticmethod
    def entry() -> State:
        return State(REGS, ())

    def get(self, reg: str) -> Origin:
        return self.origin[REGS.index(reg)]

    def with_(self, changes: dict[str, Origin]) -> State:
        o = list(self.origin)
        for r, v in changes.items():
            o[REGS.index(r)] = v
        return State(tuple(o), self.stack)

    def changed(self) -> frozenset[str]:
        return frozenset(r for r, v in zip(REGS, self.origin, strict=True) if v != r)


def join(a: State, b: State) -> State:
    """The state that covers both (of the same stack depth)."""
    origin = tuple(x if x == y else None for x, y in zip(a.origin, b.origin, strict=True))
    stack = tuple((p[0] if p[0] == q[0] else None, p[1] if p[1] == q[1] else None)
                  for p, q in zip(a.stack, b.stack, strict=True))
    return State(origin, stack)


@dataclass
class Summary:
    """What a routine does to the registers, over every path from its entry to a RET."""

    changed: frozenset[str] = frozenset()
    returns: bool = False  # some path returns to the caller
    odd: set[str] = field(default_factory=set)  # paths not followed, and why


def _pair_of(operand: str) -> tuple[str, ...] | None:
    return PAIRS.get(operand)


def _reg_of(operand: str) -> tuple[str, ...] | None:
    """The 8-bit registers an operand names (a pair: both), None for memory or a value."""
    if operand in SINGLE:
        return SINGLE[operand]
    return PAIRS.get(operand)


MAX_DEPTH = 16
MAX_ROUNDS = 20
MAX_STEPS = 200_000
def _step_pair(st: State, pair: str, by: int) -> dict[str, Origin]:
    """A register pair's halves after INC or DEC: still its entry value plus an offset (so
    that INC HL ... DEC HL gives it back) while nothing else has been put in it."""
    hi, lo = PAIRS[pair]
    oh, ol = st.get(hi), st.get(lo)
    offset = None
    if oh == hi and ol == lo:
        offset = 0
    elif oh is not None and ol is not None and oh.startswith(pair + "@") and \
            ol.startswith(pair + "@") and oh.split("@")[1].split(":")[0] == \
            ol.split("@")[1].split(":")[0]:
        offset = int(oh.split("@")[1].split(":")[0])
    if offset is None:
        return {hi: None, lo: None}
    offset += by
    if offset == 0:
        return {hi: hi, lo: lo}
    return {hi: f"{pair}@{offset}:{hi}", lo: f"{pair}@{offset}:{lo}"}


ALU8 = frozenset({"ADD", "ADC", "SUB", "SBC", "AND", "XOR", "OR"})
SHIFTS = frozenset({"RLC", "RRC", "RL", "RR", "SLA", "SRA", "SLL", "SRL"})


class Analyser:
    """Register summaries of the routines of one assembled program."""

    def __init__(self, program: Program, no_return: Iterable[int] = (),
                 declared: dict[int, frozenset[str] | None] | None = None,
                 never: Iterable[int] = ()) -> None:
        self.memory = program.memory
        self.declared = declared or {}  # what the headers say, for routines not followed
        self.never = set(never)  # routines whose headers say they never return
        self.summaries: dict[int, Summary] = {}
        self.in_progress: set[int] = set()
        self.previous: dict[int, Summary] = {}
        self.no_return = set(no_return)  # calls that never come back (error restarts)

    # One instruction: the states after it, and where they go.
    def step(self, pc: int, st: State, summary: Summary) -> list[tuple[int, State]]:
        ins = disasm.decode(self.memory, pc)
        nxt = (pc + ins.length) & 0xFFFF
        op = ins.op
        if op is None:  # a prefix that changes nothing, an ED no-operation
            return [(nxt, st)]
        m = op.mnemonic
        ops = [o for o in op.operands if isinstance(o, str)]
        conditional = m in ("JR", "JP", "CALL", "RET") and bool(ops) and \
            ops[0] in ("NZ", "Z", "NC", "C", "PO", "PE", "P", "M")
        if conditional:
            ops = ops[1:]
        F: dict[str, Origin] = {"F": None}

        def target() -> int:
            if m == "JR" or m == "DJNZ":
                e = ins.data[-1]
                return (nxt + (e - 256 if e > 127 else e)) & 0xFFFF
            return ins.data[-2] | ins.data[-1] << 8

        if m in ("NOP", "DI", "EI", "IM", "HALT"):
            return [(nxt, st)]
        if m in ("RET", "RETI", "RETN"):
            if st.stack:
                summary.odd.add(f"{pc:04X}: RET with {len(st.stack)} pushed (a jump by RET)")
            else:
                summary.changed |= st.changed()
                summary.returns = True
            return [(nxt, st)] if conditional else []
        if m == "JR" or m == "JP":
            if ops and ops[0] in ("(HL)", "(IX)", "(IY)"):
                summary.odd.add(f"{pc:04X}: JP {ops[0]} (a jump through a table)")
                return []
            to = target()
            out = [(to, st)]
            if to in self.never and self.summary(to).odd:
                out = []  # into a routine whose header says it never returns
            elif to in self.declared and self.declared[to] is not None and not st.stack:
                callee = self.summary(to)
                if callee.odd:
                    # A jump into a routine that cannot be followed: as a call and a RET,
                    # with what its header says.
                    summary.changed |= st.with_({r: None for r in self.declared[to]}).changed()
                    summary.returns = True
                    out = []
            return out + [(nxt, st)] if conditional else out
        if m == "DJNZ":
            st2 = st.with_({"B": None})
            return [(target(), st2), (nxt, st2)]
        if m in ("CALL", "RST"):
            addr = target() if m == "CALL" else op.operands[0]
            assert isinstance(addr, int)
            if addr in self.no_return:
                return [(nxt, st)] if conditional else []
            callee = self.summary(addr)
            if callee.odd and addr in self.never:
                return [(nxt, st)] if conditional else []
            changed, returns = callee.changed, callee.returns
            if callee.odd and self.declared.get(addr) is not None:
                # Not followed to the end: its header is taken at its word (and checked
                # by reading it).
                changed, returns = self.declared[addr], True
            elif callee.odd:
                for why in callee.odd:
                    summary.odd.add(f"{pc:04X}: in {addr:04X}: {why}")
            out = [] if not conditional else [(nxt, st)]
            if returns:
                out.append((nxt, st.with_({r: None for r in changed})))
            return out
        if m == "PUSH":
            hi, lo = PAIRS[ops[0]]
            return [(nxt, State(st.origin, st.stack + ((st.get(hi), st.get(lo)),)))]
        if m == "POP":
            hi, lo = PAIRS[ops[0]]
            if not st.stack:
                summary.odd.add(f"{pc:04X}: POP {ops[0]} of the caller's stack")
                return []
            slot = st.stack[-1]
            return [(nxt, State(st.with_({hi: slot[0], lo: slot[1]}).origin, st.stack[:-1]))]
        if m == "EX":
            a, b = ops
            if a == "(SP)":
                hi, lo = PAIRS[b]
                if not st.stack:
                    summary.odd.add(f"{pc:04X}: EX (SP),{b} with the return address")
                    return []
                slot = st.stack[-1]
                new = st.with_({hi: slot[0], lo: slot[1]})
                return [(nxt, State(new.origin, st.stack[:-1] + ((st.get(hi), st.get(lo)),)))]
            pa, pb = PAIRS[a], PAIRS[b]
            return [(nxt, st.with_({pa[0]: st.get(pb[0]), pa[1]: st.get(pb[1]),
                                    pb[0]: st.get(pa[0]), pb[1]: st.get(pa[1])}))]
        if m == "EXX":
            ch: dict[str, Origin] = {}
            for r in "BCDEHL":
                ch[r], ch[r + "'"] = st.get(r + "'"), st.get(r)
            return [(nxt, st.with_(ch))]
        if m == "LD":
            dst, src = ops
            if dst == "SP":
                summary.odd.add(f"{pc:04X}: LD SP,{src}")
                return []
            d = _reg_of(dst)
            if d is None:  # a store
                return [(nxt, st)]
            s = _reg_of(src)
            if s is not None and len(s) == len(d):
                return [(nxt, st.with_({x: st.get(y) for x, y in zip(d, s, strict=True)}))]
            ch = {x: None for x in d}
            if src in ("I", "R"):
                ch.update(F)
            return [(nxt, st.with_(ch))]
        if m in ALU8:
            dst = ops[0]
            if len(ops) == 2 and dst in PAIRS:  # ADD HL,rr; ADC/SBC HL,rr; ADD IX,rr
                return [(nxt, st.with_({**{x: None for x in PAIRS[dst]}, **F}))]
            if m in ("AND", "OR") and ops[-1] == "A" and ops[0] == "A":
                return [(nxt, st.with_(F))]  # AND A, OR A: only the flags (A & A = A)
            return [(nxt, st.with_({"A": None, **F}))]
        if m == "CP" or m == "BIT" or m in ("SCF", "CCF"):
            return [(nxt, st.with_(F))]
        if m in ("INC", "DEC"):
            r = ops[0]
            if r == "SP":
                summary.odd.add(f"{pc:04X}: {m} SP")
                return []
            if r in PAIRS:
                return [(nxt, st.with_(_step_pair(st, r, 1 if m == "INC" else -1)))]
            if r in SINGLE:
                return [(nxt, st.with_({r: None, **F}))]
            return [(nxt, st.with_(F))]
        if m in ("RLCA", "RRCA", "RLA", "RRA", "DAA", "CPL", "NEG", "RLD", "RRD"):
            return [(nxt, st.with_({"A": None, **F}))]
        if m in SHIFTS or m in ("SET", "RES"):
            regs = [o for o in ops if o in SINGLE]  # r, or the copy of (IX+d) into r
            ch = {r: None for r in regs}
            if m in SHIFTS:
                ch.update(F)
            return [(nxt, st.with_(ch))]
        if m == "IN":
            dst = ops[0]
            ch = {} if dst not in SINGLE else {dst: None}
            if ops[1] == "(C)":
                ch.update(F)
            return [(nxt, st.with_(ch))]
        if m == "OUT":
            return [(nxt, st)]
        if m in ("LDI", "LDD", "LDIR", "LDDR"):
            return [(nxt, st.with_({r: None for r in "BCDEHL"} | F))]
        if m in ("CPI", "CPD", "CPIR", "CPDR"):
            return [(nxt, st.with_({r: None for r in "BCHL"} | F))]
        if m in ("INI", "IND", "INIR", "INDR", "OUTI", "OUTD", "OTIR", "OTDR"):
            return [(nxt, st.with_({r: None for r in "BHL"} | F))]
        raise ValueError(f"{pc:04X}: {ins.text}: no register rule")

    def summary(self, entry: int) -> Summary:
        """What the routine at ``entry`` changes (a fixed point over recursive calls)."""
        if entry in self.summaries:
            return self.summaries[entry]
        if entry in self.in_progress:
            # Recursion: the last round's result (at first: returns, changes nothing), which
            # the rounds of solve() improve until nothing changes.
            return self.previous.get(entry, Summary(returns=True))
        self.in_progress.add(entry)
        summary = Summary()
        states: dict[tuple[int, int], State] = {}  # by address and stack depth
        work = [(entry, State.entry())]
        steps = 0
        while work:
            pc, st = work.pop()
            if len(st.stack) > MAX_DEPTH:
                summary.odd.add(f"{pc:04X}: more than {MAX_DEPTH} pushed (a loop that pushes)")
                continue
            key = (pc, len(st.stack))
            old = states.get(key)
            if old is not None:
                st = join(old, st)
                if st == old:
                    continue
            states[key] = st
            steps += 1
            if steps > MAX_STEPS:
                summary.odd.add("too many paths")
                break
            work.extend(self.step(pc, st, summary))
        self.in_progress.discard(entry)
        previous = self.summaries.get(entry)
        if previous is None or previous.changed != summary.changed or \
                previous.returns != summary.returns:
            self.summaries[entry] = summary
        return summary

    def solve(self, entries: Iterable[int]) -> dict[int, Summary]:
        """Summaries of every entry, in rounds until the recursive calls' settle."""
        entries = list(entries)
        for _ in range(MAX_ROUNDS):
            self.previous, self.summaries = self.summaries, {}
            for e in entries:
                self.summary(e)
            if all(self.previous.get(e) is not None and
                   (self.previous[e].changed, self.previous[e].returns) == (s.changed, s.returns)
                   for e, s in self.summaries.items()):
                break
        return self.summaries


# --- Headers ---------------------------------------------------------------------------------
@dataclass
class Routine:
    """A routine of the source: its label, where it is, its header's parts."""

    name: str
    address: int
    file: str
    line: int
    header: list[str]

    def declared(self) -> frozenset[str] | None:
        """What the header says the routine changes (Corrupts and Output); None if it does not
        say (no Corrupts line, or one that depends on another routine: "what it corrupts")."""
        corrupts = self.part("Corrupts")
        if corrupts is None or INDIRECT.search(corrupts):
            return None
        return registers(corrupts) | registers(self.part("Output"), flags=True)

    def never_returns(self) -> bool:
        """Whether the header's Output says the routine never returns."""
        return bool(re.match(r"(?:never returns|does not return)\b", self.part("Output") or ""))

    def part(self, word: str) -> str | None:
        """The text after ``Word:`` in the header (to the next part), or None."""
        text = " ".join(h.strip() for h in self.header)
        m = re.search(rf"\b{word}:\s*(.*?)(?=\s*\b(?:Input|Output|Corrupts):|$)", text)
        return m.group(1).strip() if m else None


INDIRECT = re.compile(r"\b(?:what|everything) (?:that|the|its) \w+ corrupts\b")
REG_TOKEN = re.compile(r"(?<![A-Za-z0-9_'])(AF'|BC'|DE'|HL'|AF|BC|DE|HL|IX|IY|IXH|IXL|IYH|IYL|"
                       r"A|F|B|C|D|E|H|L)(?![A-Za-z0-9_])")
FLAG_WORDS = re.compile(r"\b(carry|zero|Z|NZ|NC|flag|flags|sign|parity)\b")


ALL = frozenset(MAIN8 + INDEX8)
ALL_BUT = re.compile(r"^all(?: but ([A-Z', ]+?))?(?:[.;(]|$)")


def registers(text: str | None, flags: bool = False) -> frozenset[str]:
    """The 8-bit registers a header part names (``all``: AF, BC, DE, HL, IX, IY; ``all but
    IX``: those less IX); with ``flags`` (an Output), ``carry`` and the like name F. Words in
    brackets are a remark, not a register list."""
    if not text:
        return frozenset()
    if not flags:
        text = re.sub(r"\([^()]*\)", "", text)
        text = re.sub(r"\bReports? .*", "", text)  # "Report B if ...": a report, not B
    m = ALL_BUT.match(text)
    if m:
        return ALL - registers(m.group(1)) | registers(text[m.end():], flags)
    out: set[str] = set()
    for m in REG_TOKEN.finditer(text):
        out.update(NAMES[m.group(1)])
    if flags and FLAG_WORDS.search(text):
        out.add("F")
    return frozenset(out)


def shown(regs: Iterable[str]) -> str:
    """Registers as a header writes them: pairs where both halves, in the usual order."""
    regs = set(regs)
    out: list[str] = []
    for pair in ("AF", "BC", "DE", "HL", "IX", "IY", "AF'", "BC'", "DE'", "HL'"):
        hi, lo = PAIRS[pair]
        if hi in regs and lo in regs:
            out.append(pair)
        else:
            out += [r for r in (hi, lo) if r in regs]
    return ", ".join(out) if out else "nothing"


ASSERT_LINE = re.compile(r"^\s+assert\s", re.IGNORECASE)
EQU_LINE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\s+equ\s", re.IGNORECASE)


def routines(program: Program, root: Path) -> list[Routine]:
    """Every global label on an instruction, with the comment block above it."""
    code = {ln.address for ln in program.listing
            if ln.stmt.kind == INSTRUCTION and ln.address is not None and ln.data}
    lines: dict[str, list[str]] = {}
    out: list[Routine] = []
    for name, sym in program.symbols.items():
        if sym.kind != LABEL or "." in name or sym.value not in code or sym.file is None:
            continue
        text = lines.get(sym.file)
        if text is None:
            text = lines[sym.file] = (root / sym.file).read_text(encoding="utf-8").splitlines()
        header: list[str] = []
        k = sym.line - 2
        while k >= 0 and (EQU_LINE.match(text[k]) or ASSERT_LINE.match(text[k]) or
                          not text[k].strip()):
            k -= 1  # the routine's own constants between its header and its label
        while k >= 0 and text[k].startswith(";"):
            body = text[k][1:].strip()
            if body.startswith("---") or body.startswith("==="):
                if header:
                    break
            else:
                header.insert(0, body)
            k -= 1
        out.append(Routine(name, sym.value, sym.file, sym.line, header))
    return sorted(out, key=lambda r: (r.file, r.line))


def problems(routine: Routine, summary: Summary) -> list[str]:
    """What is wrong with a routine's header (empty: nothing)."""
    out: list[str] = []
    if not routine.header:
        return ["no header"]
    if not routine.header[0].startswith(routine.name):
        out.append(f"the header does not start with its name ({routine.header[0][:40]!r})")
    for part in ("Input", "Output", "Corrupts"):
        if routine.part(part) is None:
            out.append(f"no {part}: line")
    corrupts = routine.part("Corrupts")
    if corrupts is None or not summary.returns:
        return out  # one that never returns corrupts what it likes
    declared = registers(corrupts)
    output = registers(routine.part("Output"), flags=True)
    # On the paths followed it changes at least these; with paths not followed (odd), the
    # header may name more (read by hand).
    missing = summary.changed - declared - output
    extra = declared - summary.changed
    if missing:
        out.append(f"changes {shown(missing)} (not in Corrupts or Output)")
    if extra and not summary.odd:
        out.append(f"Corrupts names {shown(extra)}, which it keeps")
    return out


TARGETS = {"rom": ROM, "game": GAME}


def analyse(target: Target, root: Path = ROOT) -> tuple[list[Routine], dict[int, Summary]]:
    """The routines of a target and what each changes."""
    program = assemble_target(root, target)
    found = routines(program, root)
    # RST 8 (a report) and RST 28h (the calculator this ROM lacks: report C) never return.
    no_return = {0x08, 0x28} if target is ROM else set()
    declared = {r.address: r.declared() for r in found}
    never = {r.address for r in found if r.never_returns()}
    analyser = Analyser(program, no_return, declared, never)
    return found, analyser.solve(r.address for r in found)


def main(argv: list[str] | None = None) -> int:
    """Report (or check) the headers; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=sorted(TARGETS), action="append")
    parser.add_argument("--name", help="show what the analysis found for this routine")
    parser.add_argument("--check", action="store_true", help="exit 1 if a header is wrong")
    args = parser.parse_args(argv)
    bad = 0
    for tname in args.target or sorted(TARGETS):
        found, summaries = analyse(TARGETS[tname])
        for r in found:
            s = summaries[r.address]
            if args.name:
                if r.name == args.name:
                    print(f"{r.file}:{r.line}: {r.name}: changes {shown(s.changed)}"
                          f"{'' if s.returns else ' (never returns)'}")
                    for why in sorted(s.odd):
                        print(f"    not followed: {why}")
                    print("    header: " + " / ".join(r.header))
                continue
            for p in problems(r, s):
                bad += 1
                print(f"{r.file}:{r.line}: {r.name}: {p}")
    if not args.name and bad:
        print(f"{bad} problems")
    return 1 if args.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
