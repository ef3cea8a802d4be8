"""The CPython emitter: one function with every instruction inline, and its dialect."""

from __future__ import annotations

from zxmonopoly.z80 import templates
from zxmonopoly.z80.templates import indent

from .cycles import Target
from .dispatch import HOT_MAIN, tree
from .leaves import cb_body, ed_body, fetch_opcode, index_body, main_cases
from .shell import (
    HEADER,
    R_RANGE,
    args,
    break_test,
    entry_lines,
    exit_lines,
    expand_exits,
    interrupt_lines,
    load_lines,
    sources,
    store_lines,
)
from .variant import BARE, Variant


class PythonDialect:
    """How the CPython engines spell a byte read, a step of PC or R and a signed byte.

    CPython adds small ints fast but has no fast path for ``&``, and allocates a new int for
    every result above 256: so PC steps forward as an add and a wrap test rather than a mask;
    R steps through tables of shared ints, modulo ``shell.R_RANGE`` (a multiple of 128, more
    than a run's fetches, so the Spectrum engines count fetches by R; only its low 7 bits are
    ever read); a displacement byte is signed by a list lookup,
    which beats an XOR and a subtract. (numba compiles either form to the same few
    instructions: :class:`~.emit_numba.NumbaDialect` writes the plain ones.)
    """

    #: The port-read log behind the test of ``io_exit`` alone (templates.Dialect).
    port_log_apart = True

    #: The module's tables behind these spellings, and the run function's local names for them.
    TABLES = [f"_R_INC1 = [(x + 1) & {R_RANGE - 1} for x in range({R_RANGE})]",
              f"_R_INC2 = [(x + 2) & {R_RANGE - 1} for x in range({R_RANGE})]",
              "_SIGNED = [x - 256 if x > 127 else x for x in range(256)]"]
    LOCALS = ["R_INC1 = _R_INC1", "R_INC2 = _R_INC2", "SIGNED = _SIGNED"]

    def mem(self, addr: str) -> str:
        """The byte at ``addr``: a bytearray's item is an int already."""
        return f"mem[{addr}]"

    def step_pc(self, n: int) -> list[str]:
        """PC forward by an add and one test of the wrap; back by a mask."""
        if n == 1:
            return ["pc += 1", "if pc == 0x10000:", "    pc = 0"]
        if n > 1:
            return [f"pc += {n}", "if pc > 0xFFFF:", "    pc -= 0x10000"]
        return [f"pc = (pc - {-n}) & 0xFFFF"]

    def step_r(self, n: int | str) -> list[str]:
        """R modulo ``shell.R_RANGE``, by table for the steps of every instruction."""
        if n == 1:
            return ["r = R_INC1[r]"]
        if n == 2:
            return ["r = R_INC2[r]"]
        if isinstance(n, int) and n < 0:
            return [f"r = (r - {-n}) & {R_RANGE - 1}"]
        return [f"r = (r + {n}) & {R_RANGE - 1}"]

    def signed(self, byte: str) -> str:
        """A displacement by table."""
        return f"SIGNED[{byte}]"

    def table(self, name: str, key: str) -> str:
        """A flag table's entry: a list's item."""
        return f"{name}[{key}]"

    def write(self, addr: str, value: str) -> list[str]:
        """A write as it is (ROM ignored)."""
        return templates.write(addr, value)


PYTHON = PythonDialect()


def loop(t: Target, dispatch: list[str]) -> list[str]:
    """The CPython engines' run loop around a dispatch block."""
    v = t.variant
    # While the interrupt line is up (t < int_end) the loop runs one instruction at a time,
    # checking before each; after that it cannot be accepted in this run (t only grows), so
    # the inner loop runs to ``until`` with no check at all: the common case pays nothing.
    return [
        "while t < until:",
        "    if t < int_end:",
        "        if iff1 and ei_at != t:",
        *indent(interrupt_lines(t), 3),
        *(indent(break_test(t), 3) if v.breakpoints else []),
        "            continue",
        "        lim = t + 1",
        "    else:",
        "        lim = until",
        "    while t < lim:",
        *indent(fetch_opcode(t), 2),
        *indent(dispatch, 2),
        *(indent(break_test(t), 2) if v.breakpoints else []),
        "    if reason:",
        "        break",
    ]


def python_function(v: Variant, name: str = "run") -> list[str]:
    """A CPython engine's function: everything inline."""
    t = Target(v, PYTHON)

    def prefix(table: str) -> list[str]:
        if table == "CB":
            return cb_body(t)
        if table == "ED":
            return ed_body(t)
        return index_body(t, table)

    dispatch = tree(main_cases(t, prefix), HOT_MAIN, table="main")
    body = [*PYTHON.LOCALS, *load_lines(v), *entry_lines(), "reason = 0", *loop(t, dispatch),
            *store_lines(v), *exit_lines(), "return reason"]
    body = expand_exits(body, lambda n: [f"reason = {n}", "break"])
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
    src = [HEADER.format(sources=sources(v), what=what), *PYTHON.TABLES, "", "",
           *python_function(v)]
    if free is not None:
        src += ["", "", *python_function(free, "run_free")]
    return "\n".join([*src, ""])
