"""The run function round the dispatch, common to both emitters: the locals loaded from the
state array and stored back, the markers turned into T-stamps and back, the maskable
interrupt, the breakpoint and watch tests, and the exits."""

from __future__ import annotations

from collections.abc import Callable

from zxmonopoly.z80 import state, templates
from zxmonopoly.z80.machine_cycles import cycle_total, interrupt_cycles
from zxmonopoly.z80.templates import Exit, Line, indent, slot

from .cycles import Target, walk
from .variant import Variant

# (local, state slot) pairs exchanged with the state array.
REGS = [("a", "A"), ("f", "F"), ("b", "B"), ("c", "C"), ("d", "D"), ("e", "E"), ("h", "H"),
        ("l", "L"), ("a_", "A_"), ("f_", "F_"), ("b_", "B_"), ("c_", "C_"), ("d_", "D_"),
        ("e_", "E_"), ("h_", "H_"), ("l_", "L_"), ("ix", "IX"), ("iy", "IY"), ("sp", "SP"),
        ("pc", "PC"), ("i", "I"), ("wz", "MEMPTR"), ("iff1", "IFF1"), ("iff2", "IFF2"),
        ("im", "IM"), ("halted", "HALTED"), ("t", "T")]
CONFIG = [("int_end", "INT_END"), ("int_data", "INT_DATA"), ("int_ack_clears", "INT_ACK_CLEARS"),
          ("rom_top", "ROM_TOP"), ("io_exit", "IO_EXIT")]

#: The flag tables every engine takes (zxmonopoly.z80.tables), in order.
TABLES = ("SZ53", "SZ53P", "ADC_F", "SBC_F", "CP_F", "INC_F", "DEC_F")
#: The CPython engines keep R modulo this (the JIT's R is unbounded within a run): a multiple
#: of 128, and more than the fetches of any one run of the Spectrum's (a frame at most: 69,888 T
#: at 4 T a fetch), so that R's steps over a run are its fetches (state.FETCHES).
R_RANGE = 1 << 15
ARGS = ("st", "mem", "bp", "until", *TABLES)


def arg_names(v: Variant) -> list[str]:
    """The engine's parameters: the Z80's, then the machine's arrays."""
    if not v.machine:
        return list(ARGS)
    return [*ARGS, *("TRACE" if (v.trace and name == "CONT") else name
                     for name in v.machine.ARGS)]


def args(v: Variant) -> str:
    """The engine's parameter list, as its ``def`` spells it."""
    return ", ".join(arg_names(v))


def regs(v: Variant) -> list[tuple[str, str]]:
    """Locals exchanged with the state array (and their slots): the Z80's, then the machine's."""
    return REGS + (list(v.machine.REGS) if v.machine else [])


def load_lines(v: Variant) -> list[str]:
    """Load locals from the state array."""
    out = [f"{name} = {slot(s)}" for name, s in regs(v)]
    out += [f"r = {slot('R')}", "r7 = r & 0x80"]
    if v.machine:  # R when the run began: the fetches are its steps since (store_lines)
        out += ["r_in = r"]
    out += [f"{name} = {slot(s)}" for name, s in CONFIG]
    return out


def store_lines(v: Variant) -> list[str]:
    """Store locals into the state array."""
    out = [f"{slot(s)} = {name}" for name, s in regs(v)]
    if v.machine:
        # Once a run, not once an instruction: R has counted every fetch already (steps that
        # were not fetches are in FETCH_ADJ), so a run that nobody counts costs nothing more.
        out += [f"{slot('FETCHES')} += (r - r_in - {slot('FETCH_ADJ')}) & {R_RANGE - 1}",
                f"{slot('FETCH_ADJ')} = 0"]
    out += [f"{slot('R')} = (r & 0x7F) | r7", f"{slot('INT_END')} = int_end"]
    return out


def entry_lines() -> list[str]:
    """Turn the state's boolean markers into the loop's T-stamped ones."""
    return [
        f"{slot('ENTRY_T')} = t",
        f"q_entry = {slot('Q')}",
        f"ei_at = t if {slot('AFTER_EI')} else -1",
        f"ldair_at = t if {slot('AFTER_LDAIR')} else -1",
        "qt = -1",
    ]


def exit_lines() -> list[str]:
    """Turn the T-stamped markers back into the state's booleans and Q."""
    return [
        f"{slot('AFTER_EI')} = 1 if ei_at == t else 0",
        f"{slot('AFTER_LDAIR')} = 1 if ldair_at == t else 0",
        "if qt == t:",
        f"    {slot('Q')} = f",
        f"elif t != {slot('ENTRY_T')}:",
        f"    {slot('Q')} = 0",
    ]


def interrupt_lines(t: Target) -> list[str]:
    """Accept the maskable interrupt (IM 0 runs an RST from the bus, IM 1 RST 38h, IM 2)."""
    v, d = t.variant, t.dialect
    im2, im1 = interrupt_cycles(2), interrupt_cycles(1)
    if v.table_walk:
        t.table.dispatch(1024, im1)
        t.table.dispatch(1025, im2)
        timing = ["op = 0", "t, tio = _walk(CONT, CYC, CYC_AT[1025 if im == 2 else 1024], t, mem, "
                  "pc, h, l, d, e, b, c, sp, i, r, r7, a, f, ix, op, int_data)"]
        t19, t13 = "pass", "pass"
    elif v.machine:
        timing = ["if im == 2:", *indent(walk(t, im2), 1), "else:", *indent(walk(t, im1), 1)]
        t19, t13 = "pass", "pass"
    else:
        timing = []
        t19 = f"t += {cycle_total(im2)}"
        t13 = f"t += {cycle_total(im1)}"
    return [
        # NMOS: P/V reads 0 when INT follows LD A,I / LD A,R (tested before the walk moves T).
        "if ldair_at == t:",
        "    f = f & 0xFB",
        *timing,
        "if halted:",
        *indent(d.step_pc(1)),
        "    halted = 0",
        "iff1 = 0",
        "iff2 = 0",
        *d.step_r(1),
        # R steps, but an acknowledge is no opcode fetch (the Spectrum engines count them).
        *([f"{slot('FETCH_ADJ')} += 1"] if v.machine else []),
        "if int_ack_clears:",
        "    int_end = 0",
        *templates.push_pc(d),
        "if im == 2:",
        "    ea = (i << 8) | int_data",
        f"    pc = {d.mem('ea')} | ({d.mem('(ea + 1) & 0xFFFF')} << 8)",
        f"    {t19}",
        "else:",
        "    if im == 0 and (int_data & 0xC7) == 0xC7:",
        "        pc = int_data & 0x38",
        "    else:",
        "        pc = 0x38",
        f"    {t13}",
        "wz = pc",
    ]


def expand_exits(lines: list[Line], how: Callable[[int], list[str]]) -> list[Line]:
    """Put the function's way of leaving with a reason in the place of each exit marker
    (``templates.Exit``)."""
    out: list[Line] = []
    for line in lines:
        if isinstance(line, Exit):
            out += [line.pad + x for x in how(line.reason)]
        else:
            out.append(line)
    return out


def watch_test(t: Target) -> list[str]:
    """The Spectrum engines' watches (state.WATCH_TABLE): EXIT_WATCH at the first broken one."""
    m = t.dialect.mem
    return [
        "w_bad = 0",
        "w_n = 0",
        f"while w_bad == 0 and w_n < {slot('WATCH_N')}:",
        f"    w_at = {state.WATCH_TABLE} + {state.WATCH_STRIDE} * w_n",
        "    w_a = st[w_at]",
        "    if w_a < 0:",
        "        w_x = sp",
        "    else:",
        f"        w_x = {m('w_a')}",
        "        if st[w_at + 1] == 2:",
        f"            w_x = w_x | ({m('(w_a + 1) & 0xFFFF')} << 8)",
        "    if (st[w_at + 2] <= w_x and w_x <= st[w_at + 3]) != (st[w_at + 4] != 0):",
        "        w_bad = 1",
        "    w_n += 1",
        "if w_bad:",
        f"    reason = {state.EXIT_WATCH}",
        "    break",
    ]


def break_test(t: Target) -> list[str]:
    """After an instruction or interrupt: stop at a breakpoint (bit 0 of ``bp[pc]``). The
    Spectrum engines also check the watches when the watch bit is set: it is set at every
    address while any is armed, so a run without watches pays nothing more than the test
    of ``bp[pc]`` it always made."""
    stop = [f"    reason = {state.EXIT_BREAK}", "    break"]
    if not t.variant.machine:
        return ["if bp[pc]:", *stop]
    return ["if bp[pc]:",
            f"    if bp[pc] & {state.WATCH_BIT}:",
            *indent(watch_test(t), 2),
            "    if bp[pc] & 1:",
            *indent(stop, 1)]


HEADER = (
    '"""GENERATED by tools/gen_z80.py from {sources} \u2014 do not edit.\n\n'
    '{what}\n"""\n\n# ruff: noqa\nfrom zxmonopoly.z80 import state as S\n'
)


def sources(v: Variant) -> str:
    """What a generated module is made from, for its header."""
    if not v.machine:
        return "isa.py, templates.py and machine_cycles.py"
    return f"isa.py, templates.py, machine_cycles.py and {v.machine.SOURCE}"
