"""The numba emitter: the main table (and the bare CPU's CB) in one compiled function, one
function per other prefix table (numba's compile time grows steeply with a function's size),
and its dialect."""

from __future__ import annotations

from zxmonopoly.z80 import state, tables, templates
from zxmonopoly.z80.templates import Exit, Line, indent, slot

from .analysis import markers_in_loops, names_used
from .cycles import Target
from .decorator import NJIT, NJIT_IMPORTS
from .dispatch import HOT_MAIN, MEASURED_DD, case_comment, tree
from .leaves import (
    cb_generic_body,
    ed_body,
    fetch_opcode,
    index_body,
    main_cases,
    port_in_function,
)
from .shell import (
    HEADER,
    TABLES,
    arg_names,
    break_test,
    entry_lines,
    exit_lines,
    expand_exits,
    interrupt_lines,
    load_lines,
    regs,
    sources,
    store_lines,
)
from .variant import BARE, Variant


class NumbaDialect:
    """How the numba engines spell a byte read, a step of PC or R and a signed byte.

    Every byte read is widened to int64 where it is made: numba types a uint8 shifted left
    as uint64, and uint64 mixed with int64 as float64. PC and R step as plain sums (R counts
    unmasked; only its low 7 bits are ever read), a displacement is signed by arithmetic:
    compiled, these are the fastest forms.
    """

    #: The port-read log shares the devices' code, testing its mode (templates.Dialect).
    port_log_apart = False

    def mem(self, addr: str) -> str:
        """The byte at ``addr``, as an int64; indexed unsigned, since numba tests a signed
        index for a negative one (Python's wraparound) at every access and an unsigned one
        not at all, and every address the engines make is 0-0xFFFF already."""
        return f"I64(mem[U64({addr})])"

    def step_pc(self, n: int) -> list[str]:
        """PC moved and masked to 16 bits."""
        return [f"pc = (pc {'+' if n >= 0 else '-'} {abs(n)}) & 0xFFFF"]

    def step_r(self, n: int | str) -> list[str]:
        """R counted up (or back) without a mask."""
        if isinstance(n, int) and n < 0:
            return [f"r -= {-n}"]
        return [f"r += {n}"]

    def signed(self, byte: str) -> str:
        """A displacement by an XOR and a subtract."""
        return f"(({byte} ^ 0x80) - 0x80)"

    def table(self, name: str, key: str) -> str:
        """A flag table's entry, indexed unsigned (:meth:`mem` says why)."""
        return f"{name}[U64({key})]"

    def write(self, addr: str, value: str) -> list[str]:
        """A write as it is (ROM ignored)."""
        return templates.write(addr, value)


NUMBA = NumbaDialect()

# Where a JIT prefix function leaves each local it changed (registers in their own slots,
# R unmasked and the markers in the state array's slots for them), as the module names them.
SCRATCH = {"_EI_AT": state.JIT_EI_AT, "_LDAIR_AT": state.JIT_LDAIR_AT, "_QT": state.JIT_QT,
           "_R_RAW": state.JIT_R_RAW, "_R7": state.JIT_R7}
PASSED = ("rom_top", "io_exit", "until", "int_end", "bp")  # and the machine's ARGS
#: The one argument the numba engines take for all the flag tables (tables.PACKED).
PACKED = "FT"


def table_views(names: list[str]) -> list[str]:
    """Each flag table of ``names`` as a view of the packed array ``FT`` (tables.PACKED).

    Each array a compiled function is passed is seven words on the stack (numba's array
    struct): a prefix function called with six tables measured 49 ns a call against 22 ns
    with none, and a view costs a few instructions. (As the module's constants instead,
    numba froze 330 KB into every function and the Spectrum JIT compiled 63 s against 45 s.)
    """
    return [f"{name} = {PACKED}[_AT_{name}:_AT_{name} + {tables.ARRAYS[name].size}]"
            for name in names]


def check_exits_outside_loops(lines: list[Line]) -> None:
    """Refuse a block with an exit (``templates.Exit``) inside a loop of its own: there a
    break would leave only that loop (the leaves keep their loops free of exits, as the main
    loop needs)."""
    inside = markers_in_loops(lines, lambda x: isinstance(x, Exit))
    if inside:
        raise ValueError(f"an exit inside a loop of a prefix's leaf: {inside[0]}")


def loop_jit(t: Target, dispatch: list[str]) -> list[str]:
    """The numba engines' run loop: one loop, the interrupt tested before each instruction.

    Compiled, the test costs next to nothing, and LLVM makes a slower loop of the nested
    shape of the CPython engines (measured: 390x real time against 560x on the benchmark's
    workload).
    """
    if t.variant.table_walk:
        dispatch = [*t.table.dispatch_code("0", "ix", "int_data"), *dispatch]
    return [
        "while t < until:",
        "    if t < int_end and iff1 and ei_at != t:",
        *indent(interrupt_lines(t), 2),
        "    else:",
        *indent(fetch_opcode(t), 2),
        *indent(dispatch, 2),
        *indent(break_test(t), 1),
    ]


def hot_inline(t: Target, prefix: str, code: dict[int, list[Line]], hot: list[int],
               call: list[Line]) -> list[Line]:
    """A prefix's ``hot`` opcodes run where the prefix is read, the others by ``call``.

    ``hot`` are those the profile saw after ``prefix`` (:func:`hot_opcodes`), most frequent
    first in one if/elif chain; each case is the prefix function's own code (``code``), so
    the two ways are the same instructions.
    """
    chain: list[Line] = []
    for k, op in enumerate(hot):
        chain += [f"{'if' if k == 0 else 'elif'} op == {op:#04x}:",
                  f"    {case_comment(prefix.lower(), op, op + 1)}", *indent(code[op], 1)]
    if not t.variant.table_walk:
        return [f"op = {t.dialect.mem('pc')}", *chain, "else:", *indent(call, 1)]
    # A machine walks an instruction's cycles at its dispatch: here for the hot ones (the
    # prefix function walks the others itself), so they are tested by one lookup first.
    xy = "ix" if prefix == "DD" else "iy"
    walk = t.table.dispatch_code("768", xy, shift=1)
    return [f"op = {t.dialect.mem('pc')}", f"if {prefix}_HOT[op]:", *indent(walk, 1),
            *indent(chain, 1), "else:", *indent(call, 1)]


def hot_opcodes(code: dict[int, list[Line]]) -> list[int]:
    """The measured DD opcodes that have a case, most frequent first."""
    return [op for op in MEASURED_DD if op in code]


def hot_table(prefix: str, hot: list[int]) -> list[str]:
    """A module array: 1 for each opcode after ``prefix`` that runs inline."""
    flags = ", ".join("1" if op in hot else "0" for op in range(256))
    return [f"{prefix}_HOT = np.array([{flags}], dtype=np.uint8)"]


def gen_jit(v: Variant = BARE) -> str:
    """A JIT engine: main table and CB inline (and DD's measured opcodes with
    ``hot_dd_inline``), one compiled function per other prefix.

    A prefix function takes the locals it reads as arguments and leaves the ones it changes
    in the state array, which the main loop reloads: far cheaper than exchanging everything.
    """
    t = Target(v, NUMBA)  # this engine's own cycle table, the same on every run
    slots = {**{name: slot(s) for name, s in regs(v)}, "r": "st[_R_RAW]", "r7": "st[_R7]",
             "ei_at": "st[_EI_AT]", "ldair_at": "st[_LDAIR_AT]", "qt": "st[_QT]"}
    funcs: list[str] = []
    calls: dict[str, list[Line]] = {}

    def sub(name: str, body: list[Line]) -> None:
        reads, writes = names_used(body)
        # Every local it may change comes in too: a branch that leaves it alone must store
        # back the value it had.
        passed = [*PASSED, *(v.machine.ARGS if v.machine else ())]
        params = [n for n in slots if n in reads | writes] + [n for n in passed if n in reads]
        views = table_views([n for n in TABLES if n in reads])
        tabs = [PACKED] if views else []
        out = [n for n in slots if n in writes]
        store = [f"{slots[n]} = {n}" for n in out]
        load = [f"{n} = {slots[n]}" for n in out]
        # One pass of a loop that is left by a break: every exit sets its reason and breaks
        # to the one store and return, instead of each exit storing every local itself (the
        # stores were most of ED's lines, and numba's compile time grows with them).
        check_exits_outside_loops(body)
        lines = [*views, "exit_ = 0", "while True:",
                 *indent(expand_exits(body, lambda n: [f"exit_ = {n}", "break"]), 1),
                 "    break", *store, "return exit_"]
        fname = f"_prefix_{name.lower()}"
        arglist = ", ".join(["st", "mem", *tabs, *params])
        funcs.extend(["", "", NJIT, f"def {fname}({arglist}):",
                      f'    """Run one {name}-prefixed instruction."""', *indent(lines, 1)])
        calls[name] = [f"reason = {fname}({arglist})", *load, "if reason:", "    break"]

    calls["CB"] = cb_generic_body(t)
    sub("ED", ed_body(t))
    dd_cases: list[tuple[int, list[Line]]] = []
    sub("DD", index_body(t, "DD", dd_cases))
    sub("FD", index_body(t, "FD"))
    dd_code = dict(dd_cases)
    hot_dd = hot_opcodes(dd_code)
    if v.hot_dd_inline:
        calls["DD"] = hot_inline(t, "DD", dd_code, hot_dd, calls["DD"])

    dispatch = tree(main_cases(t, lambda name: calls[name]), HOT_MAIN, flat=v.flat,
                    table="main")
    body = [*load_lines(v), *entry_lines(), "reason = 0", *loop_jit(t, dispatch),
            *store_lines(v), *exit_lines(), "return reason"]
    body = expand_exits(body, lambda n: [f"reason = {n}", "break"])
    what = ("The numba engine" + (f" of {v.machine.TITLE}" if v.machine
                                 else " of the bare CPU") +
            ": the same leaves as the CPython one, split per prefix table to keep compile "
            "time short.")
    head = [*NJIT_IMPORTS, "from numpy import int64 as I64", "from numpy import uint64 as U64", "",
            "# Where each flag table starts in the packed array FT (tables.PACKED).",
            *(f"_AT_{name} = {tables.OFFSETS[name]}" for name in TABLES), "",
            "# Scratch slots of the state array where a prefix function leaves what it changed.",
            *(f"{name} = {index}" for name, index in SCRATCH.items())]
    if v.table_walk:  # (after every leaf: the table holds them all now)
        head = ["import numpy as np", *head, "", "", *t.passes.arrays(), *t.table.walker()]
        if v.hot_dd_inline:
            head += ["", "", "# The DD opcodes run in run itself (the profile's).",
                     *hot_table("DD", hot_dd)]
    if v.port_function:
        head = [*head, "", "", *port_in_function(t)]
    # run takes the packed array where the CPython engines take the seven tables
    run_params = [PACKED if n == TABLES[0] else n for n in arg_names(v)
                  if n not in TABLES[1:]]
    src = [HEADER.format(sources=sources(v), what=what), *head,
           *funcs, "", "", NJIT,
           f"def run({', '.join(run_params)}):",
           '    """Run until T reaches ``until`` or an exit; return the exit reason."""',
           *indent([*table_views(TABLES), *body], 1), ""]
    return "\n".join(src)
