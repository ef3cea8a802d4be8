"""Each opcode table's cases: an instruction's leaf (``templates.leaf``) finished for its
engine (its T-states or cycle walk, the Q marker, the devices on the ports), and the bodies
that fetch a prefixed opcode and dispatch on it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from zxmonopoly.z80 import isa, state, templates
from zxmonopoly.z80.machine_cycles import FETCH1, FETCH2, cycles, ddcb_cycles
from zxmonopoly.z80.templates import (
    T_HERE,
    CycleWalk,
    Device,
    Exit,
    HaltSkip,
    Leaf,
    Line,
    slot,
)

from .analysis import names_used
from .cycles import Target, fixed_total, halt_skip_code, has_t_marker, t_markers, walk
from .decorator import NJIT
from .dispatch import HOT_CB, HOT_DD, HOT_ED, tree


def port_in_code(t: Target) -> list[Line]:
    """What answers an IN when no callback does: nothing (0xFF) or the machine's devices."""
    if not t.variant.machine:
        return ["v = 0xFF"]
    if t.variant.port_function:
        return port_in_call(t)
    return t.variant.machine.port_in(t.dialect, t.variant.trace)


def port_in_log_code(t: Target, maybe: bool = False) -> list[Line]:
    """What answers an IN with the port-read log on (``maybe``: on or off, as its mode says):
    the machine's log (the bare CPU has none, and never turns it on: 0xFF)."""
    if not t.variant.machine:
        return ["v = 0xFF"]
    if t.variant.port_function:
        return port_in_call(t)
    return t.variant.machine.port_in_logged(t.dialect, t.variant.trace, maybe)


def port_in_body(t: Target) -> list[Line]:
    """The body of a ``port_function`` engine's port function: the devices with the port-read
    log around them, testing its mode (one copy serves an IN with the log on or off)."""
    return t.variant.machine.port_in_logged(t.dialect, t.variant.trace, maybe=True)


def port_in_interface(t: Target) -> tuple[list[str], list[str]]:
    """What the machine's IN reads (the port, the I/O cycle's T-state, memory, the machine's
    arrays and locals) and what it changes (``v``, then the machine's locals it moves), as a
    ``port_function`` engine's compiled port function takes and returns them."""
    m = t.variant.machine
    reads, writes = names_used(port_in_body(t))
    machine_locals = [local for local, _ in m.REGS]
    params = [n for n in ("port", "tio", "mem", *m.ARGS, *machine_locals) if n in reads]
    results = ["v", *(n for n in machine_locals if n in writes)]
    return params, results


def port_in_call(t: Target) -> list[str]:
    """An IN's call of a ``port_function`` engine's port function."""
    params, results = port_in_interface(t)
    return [f"{', '.join(results)} = _port_in({', '.join(params)})"]


def port_in_function(t: Target) -> list[str]:
    """The compiled function that answers an IN for a ``port_function`` engine: one copy of
    the devices (and the port-read log) instead of one at each of the 13 INs (numba's compile
    time grows with a function's size; an IN is rare enough that the call costs nothing to
    speak of)."""
    params, results = port_in_interface(t)
    body = [*port_in_body(t), f"return {', '.join(results)}"]
    return [NJIT, f"def _port_in({', '.join(params)}):",
            '    """What an IN from ``port`` reads (the I/O cycle at ``tio``), and the machine\'s '
            'locals it moved."""',
            *("    " + x for x in body)]


def port_out_code(t: Target) -> list[Line]:
    """What takes an OUT when no callback does: nothing, or the machine's devices."""
    if not t.variant.machine:
        return ["pass"]
    return t.variant.machine.port_out(Exit(state.EXIT_LOG_FULL))


#: What answers each port marker (templates.Device) in an engine.
DEVICES: dict[str, Callable[[Target], list[Line]]] = {
    "in": port_in_code, "in_log": port_in_log_code,
    "in_maybe_log": lambda t: port_in_log_code(t, True), "out": port_out_code}


def expand_devices(t: Target, lines: list[Line]) -> list[Line]:
    """Put the engine's devices in the place of each port marker (``templates.Device``) and
    its way of passing a HALT in the place of ``templates.HALT_SKIP``."""
    out: list[Line] = []
    for x in lines:
        if isinstance(x, Device):
            out += [x.pad + y for y in DEVICES[x.port](t)]
        elif isinstance(x, HaltSkip):
            out += [x.pad + y for y in halt_skip_code(t)]
        else:
            out.append(x)
    return out


def self_walking(leaf: Leaf) -> bool:
    """Whether a leaf walks its own cycles (a block instruction repeating in place)."""
    return any(isinstance(x, CycleWalk) for x in leaf.lines)


@dataclass
class Code:
    """An instruction's code finished for one engine (:func:`finish`): its lines, then the
    T-states the engine adds after them (``t_after``: a bare engine, for a leaf that says
    nowhere where they go; else None) and whether it marks Q after them (``sets_q``: the
    instruction changed the flags). The block engine counts these two for a run of
    instructions at once; every other engine runs :attr:`lines`."""

    body: list[Line]
    t_after: int | None = None
    sets_q: bool = False

    @property
    def lines(self) -> list[Line]:
        """The whole of it: the body, the T-states added, the Q marker."""
        return [*self.body, *([f"t += {self.t_after}"] if self.t_after is not None else []),
                *(["qt = t"] if self.sets_q else [])]

    def after(self, head: list[Line]) -> Code:
        """The same code, ``head`` before it."""
        return replace(self, body=[*head, *self.body])


def finish(t: Target, leaf: Leaf, specs: list, xy: str = "ix") -> Code:
    """A leaf's code for engine ``t``: its T-states (or cycle walk), Q marker and devices.

    A ``start_t`` leaf reads ``t0``, T at the instruction's start: set here before the walk, or
    by the dispatch's walk (``CycleTable.dispatch_code``) in the table-walking JIT engine.
    Walking there rather than in the leaf keeps the main function as it was: three more
    calls of ``_walk`` in it (SCF, CCF, IN A,(n)) cost the Spectrum's JIT 15 % on
    ``bench --machine``.
    """
    v = t.variant
    out: list[Line] = []
    t_after = None
    lines = t_markers(leaf.lines, specs, walked=bool(v.machine))
    if v.machine:
        walks_itself = self_walking(leaf)
        w = walk(t, specs, xy, repeating=walks_itself) if (walks_itself or not v.table_walk) else []
        if walks_itself:
            for x in lines:
                if isinstance(x, CycleWalk):
                    out += [x.pad + y for y in w]
                else:
                    out.append(x)
        elif v.table_walk:
            out = lines  # walked where it was dispatched (CycleTable.dispatch)
        else:
            out = [*(["t0 = t"] if leaf.start_t else []), *w, *lines]
    else:
        out = [*(["t0 = t"] if leaf.start_t else []),
               *(x for x in lines if not isinstance(x, CycleWalk))]
        if not has_t_marker(leaf.lines):
            t_after = fixed_total(specs)
    return Code(expand_devices(t, out), t_after, leaf.flags)


def fetch_opcode(t: Target) -> list[Line]:
    """An M1 cycle's work: the opcode at PC into ``op``, PC past it, R counting it."""
    d = t.dialect
    return [f"op = {d.mem('pc')}", *d.step_pc(1), *d.step_r(1)]


def main_case(t: Target, code: int) -> Code:
    """The code of the unprefixed opcode ``code`` (not a prefix), after its fetch."""
    op = isa.MAIN[code]
    specs = FETCH1 + cycles(op, "main")
    leaf = templates.leaf(op, "main", t.dialect)
    t.table.dispatch(code, None if self_walking(leaf) else specs)
    return finish(t, leaf, specs)


def main_cases(t: Target, prefix_code: Callable[[str], list[Line]]
               ) -> list[tuple[int, list[Line]]]:
    """The unprefixed table; ``prefix_code(name)`` gives the code of CB/ED/DD/FD."""
    out = []
    for code, op in enumerate(isa.MAIN):
        if op.mnemonic == isa.PREFIX:
            out.append((code, prefix_code(str(op.operands[0]))))
        else:
            out.append((code, main_case(t, code).lines))
    return out


def cb_case(t: Target, code: int) -> Code:
    """The code of CB opcode ``code``, after its fetch."""
    op = isa.CB[code]
    return finish(t, templates.leaf(op, "cb", t.dialect), FETCH2 + cycles(op, "cb"))


def cb_cases(t: Target) -> list[tuple[int, list[Line]]]:
    """Each CB opcode's code, after its fetch."""
    return [(code, cb_case(t, code).lines) for code in range(256)]


def cb_body(t: Target) -> list[Line]:
    """Fetch the CB opcode and run it (one leaf per opcode)."""
    return [*fetch_opcode(t), *tree(cb_cases(t), HOT_CB, flat=t.variant.flat, table="cb")]


def cb_generic_body(t: Target) -> list[Line]:
    """Fetch the CB opcode and run it through the generic x/y/z piece (JIT engines)."""
    generic = Leaf(templates.cb_generic(t.dialect))
    if t.variant.table_walk:
        for code, op in enumerate(isa.CB):
            t.table.dispatch(256 + code, FETCH2 + cycles(op, "cb"))
        return [*fetch_opcode(t), *t.table.dispatch_code("256", "ix"),
                *finish(t, generic, []).lines]
    assert not t.variant.machine, "the Spectrum JIT engine walks CB cycles from its table"
    return [*fetch_opcode(t), *finish(t, generic, []).lines]


def ed_case(t: Target, code: int) -> Code | None:
    """The code of ED opcode ``code`` after its fetch; None for an undefined one."""
    op = isa.ED[code]
    specs = FETCH2 + (cycles(op, "ed") if op is not None else [])
    leaf = templates.leaf(op, "ed", t.dialect) if op is not None else None
    t.table.dispatch(512 + code, None if leaf and self_walking(leaf) else specs)
    return finish(t, leaf, specs) if leaf is not None else None


def ed_default(t: Target) -> Code:
    """The code of an undefined ED opcode: no cycles of its own, the two fetches."""
    return finish(t, Leaf([]), FETCH2)


def ed_cases(t: Target) -> tuple[list[tuple[int, list[Line]]], list[Line]]:
    """Each defined ED opcode's code after its fetch, and the code of the undefined ones."""
    cases = []
    for code in range(256):
        done = ed_case(t, code)
        if done is not None:
            cases.append((code, done.lines))
    return cases, ed_default(t).lines


def ed_body(t: Target) -> list[Line]:
    """Fetch the ED opcode and run it (undefined ones are 8-T no-operations)."""
    cases, default = ed_cases(t)
    walk_here = t.table.dispatch_code("512", "ix") if t.variant.table_walk else []
    return [*fetch_opcode(t), *walk_here,
            *tree(cases, HOT_ED, default=default, flat=t.variant.flat, table="ed")]


def index_case(t: Target, prefix: str, code: int) -> Code:
    """The code of DD or FD (``prefix``) then ``code``, after the prefix's fetch: a prefix that
    changes nothing costs 4 T on its own."""
    d = t.dialect
    op = (isa.DD if prefix == "DD" else isa.FD)[code]
    xy = "ix" if prefix == "DD" else "iy"
    if op.mnemonic == isa.PREFIX_NOP or (op.mnemonic == isa.PREFIX
                                         and op.operands[0] in ("DD", "FD", "ED")):
        # A prefix the next opcode ignores: no interrupt before that opcode, and Q passes
        # through (the prefix is not an instruction): the marker that says "F is Q now"
        # (``qt``, or ``state.ENTRY_T`` at the start of a run) moves on from the prefix's
        # start to its end. ENTRY_T stays in the state array: a local would cost the JIT's
        # DD/FD functions an argument, a store and a reload on every call (measured: 5 % of
        # bench --machine).
        entry = slot("ENTRY_T")
        nop_leaf = Leaf([T_HERE, "ei_at = t", "if qt == t0:", "    qt = t",
                         f"elif {entry} == t0:", f"    {entry} = t"], start_t=True)
        t.table.dispatch(768 + code, FETCH1)
        return finish(t, nop_leaf, FETCH1)
    if op.mnemonic == isa.PREFIX:  # DDCB d op: two M1 cycles, then d and op as data
        body = [
            *d.step_pc(1), *d.step_r(1),
            f"ea = ({xy} + {d.signed(d.mem('pc'))}) & 0xFFFF", "wz = ea",
            f"op = {d.mem('(pc + 1) & 0xFFFF')}", *d.step_pc(2),
            *templates.ddcb_generic(xy, d),
        ]
        specs = ["pc-1:4", "pc:4", *ddcb_cycles("NOTBIT")]
        t.table.dispatch(768 + code, specs)  # (the table-walking JIT walks them there)
        return finish(t, Leaf(body), specs, xy)
    specs = FETCH2 + cycles(op, "dd")
    # Walked before PC moves past the second opcode byte: one byte on.
    t.table.dispatch(768 + code, specs, shift=1)
    head = [*d.step_pc(1), *d.step_r(1)]  # (first: a dialect may count the bytes stepped)
    return finish(t, templates.leaf(op, "dd", d), specs, xy).after(head)


def index_body(t: Target, prefix: str,
               cases_out: list[tuple[int, list[Line]]] | None = None) -> list[Line]:
    """DD or FD: peek at the next byte and run its case (``index_case``). ``cases_out`` (when
    given) receives each second opcode's code, for a caller that runs some of them inline."""
    d = t.dialect
    xy = "ix" if prefix == "DD" else "iy"
    cases = [(code, index_case(t, prefix, code).lines) for code in range(256)]
    if cases_out is not None:
        cases_out.extend(cases)
    walk_here = t.table.dispatch_code("768", xy, shift=1) if t.variant.table_walk else []
    return [f"op = {d.mem('pc')}", *walk_here,
            *tree(cases, HOT_DD, flat=t.variant.flat, table=prefix.lower())]
