"""T-states and contention from the instructions' machine cycles (``z80/machine_cycles.py``).

The bare engines add a cycle list's total; the machine engines walk it, delaying each cycle
the machine contends (:func:`walk`) inside the window where contention can fall and adding
the total at once outside it (:func:`fast`); the Spectrum's numba engine walks from a table
in one compiled function (:class:`CycleTable`). A HALT's passes are skipped here too
(:func:`halt_skip_code`): they are cycles with nothing between them. :class:`Target` is one
engine while it is generated, with the cycle table its leaves fill.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from zxmonopoly.z80 import isa, machine_cycles, templates
from zxmonopoly.z80.machine_cycles import FETCH1, cycle_total, parse_cycle
from zxmonopoly.z80.templates import Dialect, Line, TStates, indent

from .decorator import NJIT
from .variant import Variant


def cycle_addresses(d: Dialect, xy: str = "ix") -> dict[str, str]:
    """Values a cycle list may name, at the start of the instruction (after its opcode
    fetches), spelled in ``d``; ``xy`` is the index register of a DD/FD instruction."""
    m = d.mem
    nn = f"({m('pc')} | ({m('(pc + 1) & 0xFFFF')} << 8))"
    return {
        "pc": "pc", "pc+1": "((pc + 1) & 0xFFFF)", "pc+2": "((pc + 2) & 0xFFFF)",
        "pc-1": "((pc - 1) & 0xFFFF)", "pc-2": "((pc - 2) & 0xFFFF)",
        "hl": "((h << 8) | l)", "de": "((d << 8) | e)", "bc": "((b << 8) | c)",
        "bcdec": "((((b - 1) & 0xFF) << 8) | c)",
        "sp": "sp", "sp+1": "((sp + 1) & 0xFFFF)", "sp-1": "((sp - 1) & 0xFFFF)",
        "sp-2": "((sp - 2) & 0xFFFF)",
        "ir": "((i << 8) | (r & 0x7F) | r7)",
        "nn": nn,
        "nn+1": f"(({nn} + 1) & 0xFFFF)",
        "xd": f"(({xy} + {d.signed(m('pc'))}) & 0xFFFF)",
        "xd1": f"(({xy} + {d.signed(m('(pc + 1) & 0xFFFF'))}) & 0xFFFF)",
        "an": f"((a << 8) | {m('pc')})",
        "vec": "((i << 8) | int_data)", "vec+1": "((((i << 8) | int_data) + 1) & 0xFFFF)",
    }


def cycle_conditions(d: Dialect) -> dict[str, str]:
    """The conditions of a list's conditional cycles (a condition code, a block instruction
    repeating, DDCB's write), spelled in ``d``."""
    return {
        **templates.COND,
        "B1": "b != 1",
        "BC1": "((b << 8) | c) != 1",
        "BC1MATCH": f"((b << 8) | c) != 1 and a != {d.mem('(h << 8) | l')}",
        "NOTBIT": f"({d.mem('(pc + 2) & 0xFFFF')} & 0xC0) != 0x40",
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


def n_port(spec: str) -> str:
    """The port named by an ``io:PORT`` cycle."""
    return spec.split(":", 1)[1]


def _walk(t: Target, specs: list, xy: str) -> list[str]:
    """Every cycle of ``specs`` with its contention check."""
    v, addrs, conds = t.variant, cycle_addresses(t.dialect, xy), cycle_conditions(t.dialect)
    out: list[str] = []
    for sp in specs:
        if isinstance(sp, tuple):
            _, cond, inner = sp
            out += [f"if {conds[cond]}:", *indent(_walk(t, inner, xy) or ["pass"], 1)]
            continue
        addr, n, k = parse_cycle(sp)
        if addr == "io":
            out += [f"port_ = {addrs[n_port(sp)]}", *_io_cycle(v)]
            continue
        if addr == "none":
            out.append(f"t += {n * k}")
            continue
        expr = addrs[addr]
        if k > 1 or not expr.isidentifier():
            out.append(f"x_ = {expr}")
            expr = "x_"
        for _ in range(k):
            out += [*_check(v, expr), f"t += {n}"]
    return out


def fast(t: Target, specs: list) -> list[str]:
    """The same cycles without contention (outside the contended part of the frame)."""
    conds = cycle_conditions(t.dialect)
    out: list[str] = []
    offset = 0
    for sp in specs:
        if isinstance(sp, tuple):
            _, cond, inner = sp
            extra = cycle_total(inner)
            if extra:
                out += [f"if {conds[cond]}:", f"    t_extra = {extra}"]
            continue
        addr, n, k = parse_cycle(sp)
        if addr == "io":
            out.append(f"tio = t + {offset}")
        offset += n * k
    if any(isinstance(sp, tuple) and cycle_total(sp[2]) for sp in specs):
        out = ["t_extra = 0", *out, f"t += {offset} + t_extra"]
    else:
        out.append(f"t += {offset}")
    return out


def walk(t: Target, specs: list, xy: str = "ix", repeating: bool = False) -> list[str]:
    """Code that advances T through ``specs``, with contention inside the contended window.
    ``repeating``: a block instruction's pass, walked inline even by the table-walking JIT
    (``Variant.inline_block_walk``)."""
    v = t.variant
    if v.trace or v.always_walk:
        return _walk(t, specs, xy)
    if repeating and v.pass_tables:
        looked_up = t.passes.lookup(t, specs, xy)
        if looked_up is not None:
            return looked_up
    if v.table_walk and not (repeating and v.inline_block_walk):
        k = t.table.add(specs)
        return [f"if {v.machine.CONTENDED_NOW}:",
                f"    t, tio = _walk(CONT, CYC, {k}, t, mem, pc, h, l, d, e, b, c, sp, i, r, "
                f"r7, a, f, {xy}, op, 0)",
                "else:", *indent(fast(t, specs), 1)]
    return [f"if {v.machine.CONTENDED_NOW}:", *indent(_walk(t, specs, xy), 1), "else:",
            *indent(fast(t, specs), 1)]


class CycleTable:
    """Cycle lists encoded as data for the JIT's one walking function.

    A list is its PC adjustment (how far PC is from where the list's addresses count from),
    then four ints per cycle group: kind (an address of :func:`cycle_addresses`, ``none`` or
    an I/O port), T-states, repeats, and the condition it needs (-1: none, else an index of
    :func:`cycle_conditions`); -1 ends it. ``at`` maps a dispatch slot (table base + opcode)
    to its list, with its T-states (for a list with a conditional part tested from the
    registers, those without it and the part's condition and T-states; else -1) and where its
    I/O cycle starts, so that outside the contended lines no walk is needed at all.
    """

    SLOTS = 1024 + 2  # main, CB, ED, DD/FD tables; then IM 0/1 and IM 2 responses
    #: The conditions the fast way tests itself, as the walk tests them: flags and counters
    #: from the registers, and DDCB's write from its opcode byte at PC+2 (from the dispatch's
    #: PC, so only for a list whose addresses count from there: shift 0, as DDCB's do).
    #: BC1MATCH (CPIR's repeat) reads (HL) and stays walked.
    FAST_CONDS = (*templates.COND, "B1", "BC1", "NOTBIT")
    #: The fast conditions that read memory by PC.
    PC_CONDS = ("NOTBIT",)
    #: The addresses the fast way can test at dispatch, each group a bit of CHECK (the test
    #: of each group in :meth:`_uncontended_data`).
    CHECKED = {"hl": 1, "de": 2, "bc": 4, "bcdec": 8, "sp": 16, "sp+1": 16, "sp-1": 16,
               "sp-2": 16, "nn": 32, "nn+1": 32, "xd": 64, "xd1": 64, "ir": 128}

    def __init__(self, machine: Any, d: Dialect) -> None:
        self.machine = machine  # whose contention the walk applies
        self.dialect = d
        self.kinds = [*cycle_addresses(d), "none", "io:an", "io:bc", "io:bcdec"]
        self.conds = list(cycle_conditions(d))
        self.data: list[int] = []
        self.index: dict[str, int] = {}
        self.at = [-2] * self.SLOTS
        self.fast_t = [-1] * self.SLOTS
        # A conditional list's condition (an index of self.conds; -1: none) and the T-states
        # its conditional part adds, for the fast way.
        self.fast_cond = [-1] * self.SLOTS
        self.fast_extra = [0] * self.SLOTS
        self.io_off = [0] * self.SLOTS
        # Which addresses a list puts on the bus: 1 only PC and the bytes after it, 2 also IR,
        # 3 also those of CHECKED, 4 anything else. With 1 or 2, an instruction fetched outside
        # contended memory (and I outside 0x40-0x7F) is never delayed, in the contended lines
        # or not.
        self.bus = [4] * self.SLOTS
        # With 3, the other addresses it puts on the bus are among CHECKED: the bits of those,
        # each tested before the fast way is taken inside the contended lines.
        self.check = [0] * self.SLOTS

    def add(self, specs: list, shift: int = 0) -> int:
        """Offset of ``specs`` (PC ``shift`` bytes before its addresses) in the table."""
        flat: list[tuple[str, int]] = []
        for sp in specs:
            if isinstance(sp, tuple):
                flat += [(x, self.conds.index(sp[1])) for x in sp[2]]
            else:
                flat.append((sp, -1))
        key = repr((shift, flat))
        if key not in self.index:
            self.index[key] = len(self.data)
            self.data.append(shift)
            for sp, cond in flat:
                addr, n, k = parse_cycle(sp)
                kind = self.kinds.index(sp if addr == "io" else addr)
                self.data += [kind, n, k, cond]
            self.data.append(-1)
        return self.index[key]

    def dispatch(self, slot: int, specs: list | None, shift: int = 0) -> None:
        """Walk ``specs`` at dispatch for ``slot`` (None: the instruction walks itself)."""
        if specs is None:
            return
        self.at[slot] = self.add(specs, shift)
        parts = [sp for sp in specs if isinstance(sp, tuple)]
        conds = {sp[1] for sp in parts}
        every = [x for sp in specs for x in (sp[2] if isinstance(sp, tuple) else [sp])]
        cond = next(iter(conds)) if len(conds) == 1 else None
        if not parts or (cond in self.FAST_CONDS and not (cond in self.PC_CONDS and shift)
                         and not any(parse_cycle(x)[0] == "io" for x in every)):
            # A conditional part (a jump taken, DJNZ looping, a RET or CALL made) is its T-states
            # added when its condition holds, so it takes the fast way too (before, each one
            # walked: DJNZ 70 ns against 10 ns on the bare JIT).
            plain = [sp for sp in specs if not isinstance(sp, tuple)]
            self.fast_t[slot] = cycle_total(plain)
            if parts:
                self.fast_cond[slot] = self.conds.index(cond)
                self.fast_extra[slot] = sum(cycle_total(sp[2]) for sp in parts)
            addrs = {parse_cycle(sp)[0] for sp in every}
            if addrs <= {"pc", "pc+1", "pc+2", "pc-1", "pc-2", "none"}:
                self.bus[slot] = 1
            elif addrs <= {"pc", "pc+1", "pc+2", "pc-1", "pc-2", "none", "ir"}:
                self.bus[slot] = 2
            elif addrs <= {"pc", "pc+1", "pc+2", "pc-1", "pc-2", "none", *self.CHECKED}:
                self.bus[slot] = 3
                self.check[slot] = sum({self.CHECKED[a] for a in addrs if a in self.CHECKED})
        offset = 0
        for sp in specs:
            if isinstance(sp, str):
                if parse_cycle(sp)[0] == "io":
                    self.io_off[slot] = offset
                    break
                offset += cycle_total([sp])

    def _uncontended_data(self, xy: str, shift: int) -> str:
        """The test that none of the addresses of CHECK's bits in ``ck_`` is contended, for a
        list whose addresses count from PC ``shift`` bytes on.

        Each test covers its group whatever the bytes read: the stack's four bytes round SP;
        NN by the high byte of its operand (the machine's ``word_uncontended``: NN+1 may cross
        into contended memory, so a word at its edge is walked); IX+d and IY+d by the
        register's reach of -128 to +127 (fewer than 16K bytes, so clear of contended memory
        when both ends are).
        """
        m = self.machine
        hi = self.dialect.mem(f"(pc + {shift + 1}) & 0xFFFF")
        # (a pair's high byte is contended as I is: outside 0x40-0x7F, the one test)
        tests = {
            1: m.ir_uncontended("h"), 2: m.ir_uncontended("d"), 4: m.ir_uncontended("b"),
            8: m.ir_uncontended("(b - 1)"),
            16: f"{m.uncontended('(sp - 2)')} and {m.uncontended('(sp + 1)')}",
            32: m.word_uncontended(hi),
            64: f"{m.uncontended(f'({xy} - 128)')} and {m.uncontended(f'({xy} + 127)')}",
            128: m.ir_uncontended("i"),
        }
        return " and ".join(f"((ck_ & {bit}) == 0 or ({test}))" for bit, test in tests.items())

    def dispatch_code(self, base: str, xy: str, int_data: str = "0", shift: int = 0
                      ) -> list[str]:
        """The walk at a dispatch point, for the opcode in ``op`` (``t0``: T before it); the
        table's lists count their addresses from PC ``shift`` bytes on."""
        m = self.machine
        code = "(pc - 2)" if not shift else f"(pc - {2 - shift})"
        pc_free = f"{m.uncontended(code)} and {m.uncontended(f'(pc + {2 + shift})')}"
        return [
            "t0 = t",
            f"slot_ = {base} + op",
            "k_ = CYC_AT[slot_]",
            "if k_ >= 0:",
            "    ft = FAST_T[slot_]",
            f"    fast_ = ft >= 0 and (not ({m.CONTENDED_NOW}) or (BUS[slot_] < 3 and "
            f"{pc_free} and (BUS[slot_] == 1 or {m.ir_uncontended('i')})))",
            "    if not fast_ and ft >= 0 and BUS[slot_] == 3:",
            # inside the contended lines, an instruction clear of contended memory
            "        ck_ = CHECK[slot_]",
            f"        fast_ = {pc_free} and {self._uncontended_data(xy, shift)}",
            "    if fast_:",
            "        tio = t + IO_OFF[slot_]",
            "        t += ft",
            "        cx_ = FAST_C[slot_]",
            "        if cx_ >= 0:",
            *indent(self._fast_condition(), 3),
            "    else:",
            "        t, tio = _walk(CONT, CYC, k_, t, mem, pc, h, l, d, e, b, c, sp, i, r, r7, a, "
            f"f, {xy}, op, {int_data})",
        ]

    def _fast_condition(self) -> list[str]:
        """Add FAST_X's T-states when the fast way's condition ``cx_`` holds."""
        conds = cycle_conditions(self.dialect)
        out: list[str] = []
        fast = [j for j, name in enumerate(self.conds) if name in self.FAST_CONDS]
        for n, j in enumerate(fast):
            head = "if" if n == 0 else "elif"
            out += [f"{head} cx_ == {j}:", f"    if {conds[self.conds[j]]}:",
                    "        t += FAST_X[slot_]"]
        return out

    def walker(self) -> list[str]:
        """The compiled walking function and its tables."""
        kinds = {name: k for k, name in enumerate(self.kinds)}
        addrs = cycle_addresses(self.dialect, "xy")
        conds = cycle_conditions(self.dialect)
        addr_cases: list[str] = []
        for k, name in enumerate(addrs):
            addr_cases += [f"{'if' if k == 0 else 'elif'} kind == {k}:", f"    x_ = {addrs[name]}"]
        io_ports = {"io:an": addrs["an"], "io:bc": addrs["bc"], "io:bcdec": addrs["bcdec"]}
        io_cases: list[str] = []
        for j, (name, expr) in enumerate(io_ports.items()):
            io_cases += [f"{'if' if j == 0 else 'elif'} kind == {kinds[name]}:",
                         f"    port_ = {expr}"]
        # A step whose condition fails is skipped, tested in place: a flag ``ok`` would be a
        # bool here and an int there (non-SSA typing, zxmonopoly.z80.jitpipeline).
        cond_cases: list[str] = []
        for j, name in enumerate(self.conds):
            cond_cases += [f"{'if' if j == 0 else 'elif'} cond == {j}:",
                           f"    if not ({conds[name]}):", "        continue"]
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
            *indent(cond_cases, 2),
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
            array("IO_OFF", self.io_off), array("BUS", self.bus), array("CHECK", self.check),
            array("FAST_C", self.fast_cond), array("FAST_X", self.fast_extra),
            "",
            "",
            NJIT,
            "def _walk(CONT, CYC, k, t, mem, pc, h, l, d, e, b, c, sp, i, r, r7, a, f, xy, op, "
            "int_data):",
            '    """Advance T through one cycle list of CYC with contention; return (T, I/O T)."""',
            *indent(body, 1),
        ]


def _in_order(names: Iterable[str]) -> list[str]:
    """The distinct names, in the order they first come."""
    seen: list[str] = []
    for name in names:
        if name not in seen:
            seen.append(name)
    return seen


class PassTable:
    """Block instructions' passes timed by one lookup (``Variant.pass_tables``, the JIT).

    A pass's cycles are fixed but for which of its addresses are contended and whether its
    conditional cycles run: each address and each condition is a bit, and
    :func:`zxmonopoly.spectrum.timing.with_pass_tables` makes, for every value of the bits,
    a segment of the T-states the walk takes from each start. The segments follow the
    frame's delays in the one contention array (segment 0), so the lookup is
    ``CONT[(first + bits) * CONTENTION_SPAN + t]``. A pass with an I/O cycle (INIR ... OTDR)
    is not looked up: its I/O cycle's T-state matters too, so it walks inline.
    """

    MAX_BITS = 3  # LDIR's: HL, DE and its repeat

    def __init__(self, machine: Any, d: Dialect) -> None:
        self.machine = machine
        self.dialect = d
        self.data: list[int] = []
        self.index: dict[str, int] = {}
        self.segments = 1  # the delays

    def lookup(self, t: Target, specs: list, xy: str) -> list[str] | None:
        """The code that times a pass of ``specs`` by its table, or None (it walks).

        The opcode fetches at the pass's start (at PC-2 and PC-1) are walked inline: a bit
        each would quadruple the tables, which every process on the JIT makes at its start.
        """
        fetches = 0
        while fetches < len(specs) and isinstance(specs[fetches], str) and \
                parse_cycle(specs[fetches])[0] in ("pc-2", "pc-1"):
            fetches += 1
        lead, specs = specs[:fetches], specs[fetches:]
        flat: list[tuple[str, str]] = []
        for sp in specs:
            if isinstance(sp, tuple):
                flat += [(x, sp[1]) for x in sp[2]]
            else:
                flat.append((sp, ""))
        cycles = [(*parse_cycle(x), cond) for x, cond in flat]
        if any(addr == "io" for addr, _, _, _ in cycles):
            return None
        addrs = _in_order(a for a, _, _, _ in cycles if a != "none")
        conds = _in_order(c for _, _, _, c in cycles if c)
        bits = len(addrs) + len(conds)
        if bits > self.MAX_BITS:
            return None
        key = repr(cycles)
        if key not in self.index:
            self.index[key] = self.segments
            self.data += [self.segments, len(cycles)]
            for addr, n, k, cond in cycles:
                self.data += [addrs.index(addr) if addr != "none" else -1, n, k,
                              len(addrs) + conds.index(cond) if cond else -1]
            self.segments += 1 << bits
        exprs = cycle_addresses(self.dialect, xy)
        tests = cycle_conditions(self.dialect)
        out = [*_walk(t, lead, xy), "pm_ = 0"]
        for bit, addr in enumerate(addrs):
            out += [f"if {self.machine.contended(exprs[addr])}:", f"    pm_ |= {1 << bit}"]
        for j, cond in enumerate(conds):
            out += [f"if {tests[cond]}:", f"    pm_ |= {1 << (len(addrs) + j)}"]
        out.append(f"t += CONT[({self.index[key]} + pm_) * {self.machine.CONTENTION_SPAN} + t]")
        return out

    def arrays(self) -> list[str]:
        """The description of the passes the machine builds the tables from (PASS_SPECS)."""
        return [f"PASS_SPECS = np.array([{', '.join(str(x) for x in self.data)}], "
                "dtype=np.int64)"]


@dataclass
class Target:
    """One engine being generated: its variant, its dialect, and the cycle table it fills.

    Every leaf registers its cycle list in ``table`` as it is made; only a table-walking
    engine (``variant.table_walk``) emits the table and walks from it.
    """

    variant: Variant
    dialect: Dialect
    table: CycleTable = field(init=False)
    passes: PassTable = field(init=False)

    def __post_init__(self) -> None:
        self.table = CycleTable(self.variant.machine, self.dialect)
        self.passes = PassTable(self.variant.machine, self.dialect)


def has_t_marker(lines: list[Line]) -> bool:
    """Whether a leaf says where its T-states go (else they are added after its lines)."""
    return any(isinstance(x, TStates) for x in lines)


def fixed_total(specs: list) -> int:
    """The T-states of a leaf that adds them after its lines: they must not depend on a
    condition (a leaf with conditional cycles says in each branch which it takes)."""
    if any(isinstance(sp, tuple) for sp in specs):
        raise templates.TemplateError(f"conditional cycles {specs} but no T-state marker")
    return cycle_total(specs)


def t_markers(lines: list[Line], specs: list, walked: bool) -> list[Line]:
    """Put the T-states in the place of a leaf's T-state markers (``templates.TStates``), from
    its cycle list.

    The bare engines add the figure where the marker stands; the machine engines have
    ``walked`` the cycles already, so the marker is a ``pass`` (it may be a branch's only line).
    """
    out: list[Line] = []
    for x in lines:
        if not isinstance(x, TStates):
            out.append(x)
            continue
        if x.expr:
            figure = x.expr
        else:
            if not walked and x.taken and not any(isinstance(sp, tuple) for sp in specs):
                raise templates.TemplateError(f"{x} but no conditional cycles in {specs}")
            figure = str(cycle_total(specs, x.taken))
        out.append(x.pad + ("pass" if walked else f"t += {figure}"))
    return out


HALT_PASS = cycle_total(FETCH1 + machine_cycles.cycles(isa.MAIN[0x76], "main"))


def halt_skip_code(t: Target) -> list[str]:
    """After a HALT's pass: the passes that follow, up to the limit, without the dispatch.

    Only when nothing can stop them early: no interrupt that could be accepted before the
    limit, no breakpoint on the HALT (the loop would stop after this pass). Each pass is
    an M1 cycle at PC (4 T, R+1). Where no contention can fall, a run of passes is one
    jump of whole passes; a HALT in contended memory inside the screen's lines is passed
    one by one, each delayed as the ULA delays an opcode fetch there.
    """
    v, d = t.variant, t.dialect
    if not v.halt_skip:
        return []
    # A pass is one M1 cycle (the HALT leaf's cycle list: its fetch); whole passes are
    # counted by shifting, so its length must be a power of two.
    shift = HALT_PASS.bit_length() - 1
    assert HALT_PASS == 1 << shift, HALT_PASS
    jump = [f"k = (stop - t + {HALT_PASS - 1}) >> {shift}", f"t += k << {shift}",
            *d.step_r("k")]
    free = "not (iff1 and t < int_end) and not bp[pc]"  # nothing can stop the passes early
    if not v.machine:
        return [f"if t < until and {free}:", "    stop = until", *indent(jump, 1)]
    m = v.machine
    if v.trace:  # tests of contention: a contended HALT stays one pass at a time
        return [f"if t < until and {m.uncontended('pc')} and {free}:", "    stop = until",
                *indent(jump, 1)]
    lo, hi = m.WINDOW_FROM, m.WINDOW_TO
    return [
        f"if {free}:",
        f"    if {m.uncontended('pc')}:",
        "        if t < until:",
        "            stop = until",
        *indent(jump, 3),
        "    else:",
        "        while t < until:",
        f"            if {lo} < t < {hi}:",
        f"                t += {m.delay()} + {HALT_PASS}",
        *indent(d.step_r(1), 4),
        "            else:",
        f"                stop = until if (t >= {hi} or until <= {lo}) else {lo + 1}",
        *indent(jump, 4),
    ]
