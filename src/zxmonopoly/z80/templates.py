"""Code templates per operand shape: what each instruction of :mod:`isa` does, as Python.

``leaf(op, table, d)`` turns one table entry into straight-line Python source working on the
run loop's locals, spelled in the engine's :class:`Dialect` ``d``: a template never writes a
memory read or write, a step of PC or R or a signed byte itself, it calls ``d.mem``,
``d.write``, ``d.step_pc``, ``d.step_r``, ``d.signed``, and it names state slots
(``slot("PC")`` is ``st[S.PC]``). The generator (``tools/gen_z80.py``, parts in
``tools/z80gen``) places these leaves in dispatch trees. The code stays inside the subset of
Python that numba compiles: integer locals, indexing of ``mem`` (bytearray or uint8 array),
the flag tables and the state array ``st``.

Locals of the loop: ``a f b c d e h l`` and alternates ``a_ f_ …``; ``ix iy sp pc`` (16-bit);
``i r r7`` (R counts M1 cycles unmasked, ``r7`` keeps bit 7 as written by LD R,A);
``wz`` (MEMPTR); ``iff1 iff2 im halted``; ``t`` (T-states); ``until``; ``rom_top``;
``io_exit``; ``int_end``; markers ``ei_at`` (T after EI or a prefix), ``qt`` (T after the
last flag-changing instruction, for Q) and ``ldair_at`` (T after LD A,I/LD A,R); ``t0`` (T at
the instruction's start, in ``start_t`` leaves).

Besides code, a leaf's lines hold markers (:class:`Marker` objects, never text): places
the generator fills per engine. :class:`Exit` (leave the run with a reason); :class:`Device`
(the machine's devices on a port when no callback takes the access); :data:`CYCLES` (where
the contended engines walk the machine cycles, if not at the top); :data:`HALT_SKIP` (after
a HALT's pass: the engine runs the passes that follow); :class:`TStates` (where the
T-states go). A template indents a marker as it indents a line (``"    " + marker``).

Timing is described once, by each instruction's machine cycles (:mod:`.machine_cycles`,
after its opcode fetches ``FETCH1``/``FETCH2``): no template names a T-state count. The bare
engines add the cycles' total after the leaf's lines, or where a T-state marker stands
(:data:`T_HERE`: the unconditional cycles, :data:`T_TAKEN`: with the conditional ones, in the
branch that takes them; ``t_is(EXPR)`` in a piece for many opcodes, EXPR worked out from
their lists). The Spectrum engines walk the same cycles instead, delaying each one the ULA
contends, and the markers become nothing.

Flags: S Z Y H X P/V N C = bits 7..0. Sources: ``../shared/reference/spectrum_facts.md`` §1.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol

from . import isa, state
from .errors import Z80Error
from .machine_cycles import FETCH2, cycle_total, cycles, is_index_mem

FC, FN, FPV, FX, FH, FY, FZ, FS = 1, 2, 4, 8, 16, 32, 64, 128

REG8 = {"A": "a", "B": "b", "C": "c", "D": "d", "E": "e", "H": "h", "L": "l"}
PAIR8 = {"BC": ("b", "c"), "DE": ("d", "e"), "HL": ("h", "l"), "AF": ("a", "f")}
WORD = {"SP": "sp", "IX": "ix", "IY": "iy"}
COND = {
    "NZ": "(f & 0x40) == 0", "Z": "f & 0x40", "NC": "(f & 0x01) == 0", "C": "f & 0x01",
    "PO": "(f & 0x04) == 0", "PE": "f & 0x04", "P": "(f & 0x80) == 0", "M": "f & 0x80",
}


class TemplateError(Z80Error):
    """An instruction of the tables has no template (a bug in the description)."""


class Dialect(Protocol):
    """How one engine spells the few things CPython and numba want written differently.

    The templates (and the machine description and the generator's own pieces) call these
    helpers wherever they read memory, step PC or R, or sign a displacement; each emitter of
    ``tools/z80gen`` answers them its own way (``emit_python``: PC stepped without a mask, R
    through tables of small ints, signed bytes by table; ``emit_numba``: every byte read
    widened to int64), so no line is rewritten after it is made.
    """

    def mem(self, addr: str) -> str:
        """An expression: the byte of memory at ``addr``."""
        ...

    def step_pc(self, n: int) -> list[Line]:
        """Statements moving PC by ``n`` bytes (negative: back), wrapping at 64K."""
        ...

    def step_r(self, n: int | str) -> list[Line]:
        """Statements counting ``n`` more M1 cycles in R (an int, negative to take them back,
        or a local's name)."""
        ...

    def signed(self, byte: str) -> str:
        """An expression: ``byte`` (0-255) as a displacement (-128-127)."""
        ...

    def table(self, name: str, key: str) -> str:
        """An expression: the flag table ``name`` at ``key`` (never negative)."""
        ...

    def write(self, addr: str, value: str) -> list[str]:
        """Statements writing ``value`` to memory at ``addr`` (a simple name), ignoring ROM:
        ``write`` below for the engines that run memory as it is; the CPython block engine
        also notes a write over code it has translated."""
        ...

    #: Whether the machine's port-read log (RZX) is a branch of its own behind the test of
    #: ``io_exit`` that every port access makes: then a run without the log makes no other
    #: test, at the price of a second copy of the devices' code in each IN (CPython, where a
    #: test an IN is 3 % of a tape load); else one copy that tests the log's mode (numba,
    #: whose compiled compare nobody measures, and whose compile time grows with the code).
    port_log_apart: bool


def slot(name: str) -> str:
    """The state array's slot ``name`` of :mod:`.state`, as the engines spell it (``st[S.PC]``)."""
    if not isinstance(getattr(state, name, None), int):
        raise TemplateError(f"no state slot {name!r} in zxmonopoly.z80.state")
    return f"st[S.{name}]"


@dataclass(frozen=True)
class Marker:
    """A place in a leaf's lines that the generator fills with each engine's own code.

    Not a line of code, and never read as text: the generator finds markers by their class.
    ``"    " + marker``, as a template indents a line, is the marker one level deeper:
    ``depth`` counts the levels of four spaces it stands at.
    """

    depth: int = field(default=0, kw_only=True)

    def __radd__(self, pad: str) -> Marker:
        """The marker indented by ``pad`` (levels of four spaces)."""
        levels, rest = divmod(len(pad), 4)
        if rest or pad.strip():
            raise TemplateError(f"{self!r} indented by {pad!r}, not by levels of four spaces")
        return replace(self, depth=self.depth + levels)

    @property
    def pad(self) -> str:
        """The indent of the code that takes the marker's place."""
        return "    " * self.depth


@dataclass(frozen=True)
class TStates(Marker):
    """Add the instruction's T-states here: its unconditional cycles, with the conditional
    ones too when ``taken`` (in the branch that takes them), or ``expr`` (a piece for many
    opcodes: the figure worked out from their cycle lists). The Spectrum engines have walked
    the cycles (with their contention) before the instruction's lines: nothing to them."""

    taken: bool = False
    expr: str = ""


@dataclass(frozen=True)
class Exit(Marker):
    """Leave the run with exit reason ``reason`` (``state.EXIT_*``), each engine its own way."""

    reason: int


@dataclass(frozen=True)
class Device(Marker):
    """The machine's devices on a port when no callback takes the access: ``port`` is
    ``in``, ``in_log`` (through the port-read log), ``in_maybe_log`` (the log as its mode
    says) or ``out``."""

    port: str


@dataclass(frozen=True)
class CycleWalk(Marker):
    """Where the contended engines walk the instruction's machine cycles, when not before
    its lines (a block instruction repeating in place walks each pass)."""


@dataclass(frozen=True)
class HaltSkip(Marker):
    """After a HALT's pass: the engine runs the passes that follow, as it can."""


#: What a leaf's lines are: code, or a marker.
Line = str | Marker

T_HERE = TStates()  # add the instruction's unconditional cycles here
T_TAKEN = TStates(taken=True)  # ... and its conditional ones too (a branch taken, a repeat)
PORT_IN, PORT_IN_LOG = Device("in"), Device("in_log")
PORT_IN_MAYBE_LOG, PORT_OUT = Device("in_maybe_log"), Device("out")
CYCLES = CycleWalk()
HALT_SKIP = HaltSkip()


def t_is(expr: str) -> TStates:
    """The marker of a generic piece (many opcodes): add ``expr``, worked out from cycles."""
    return TStates(expr=expr)


def indent(lines: list[Line], n: int = 1) -> list[Line]:
    """``lines`` indented ``n`` levels of four spaces (empty lines stay empty)."""
    pad = "    " * n
    return [pad + x if x else x for x in lines]


@dataclass
class Leaf:
    """Source of one instruction: lines, whether it sets the flags (for Q), and whether the
    lines read ``t0``, the T-state the instruction started at (the generator sets it: the
    Spectrum engines have moved T through the instruction's cycles before its lines).

    A leaf never names its T-states: they are its machine cycles (:mod:`.machine_cycles`).
    Where they must be added at a certain point, or differ between branches, the lines say
    so with a marker (``T_HERE``, ``T_TAKEN``); otherwise the generator adds them after.
    """

    lines: list[Line]
    flags: bool = False
    start_t: bool = False


# Q at the start of an instruction: F if the previous instruction changed the flags (it left
# ``qt`` at the T-state it ended), the Q the run started with if none ran yet, else 0.
Q_NOW = ["if qt == t0:", "    q = f", f"elif t0 == {slot('ENTRY_T')}:", "    q = q_entry",
         "else:", "    q = 0"]


# ---------------------------------------------------------------------------------------
# Operand access


def get8(o: str) -> str:
    """Expression reading an 8-bit register."""
    if o in REG8:
        return REG8[o]
    if o in ("IXH", "IYH"):
        return f"({o[:2].lower()} >> 8)"
    if o in ("IXL", "IYL"):
        return f"({o[:2].lower()} & 0xFF)"
    raise TemplateError(o)


def set8(o: str, expr: str) -> list[str]:
    """Statements writing an 8-bit register."""
    if o in REG8:
        return [f"{REG8[o]} = {expr}"]
    w = o[:2].lower()
    if o.endswith("H"):
        return [f"{w} = ({w} & 0xFF) | (({expr}) << 8)"]
    return [f"{w} = ({w} & 0xFF00) | ({expr})"]


def get16(o: str) -> str:
    """Expression reading a register pair."""
    if o in PAIR8:
        hi, lo = PAIR8[o]
        return f"(({hi} << 8) | {lo})"
    return WORD[o]


def set16(o: str, name: str) -> list[str]:
    """Statements writing a register pair from a simple name."""
    if o in PAIR8:
        hi, lo = PAIR8[o]
        return [f"{hi} = {name} >> 8", f"{lo} = {name} & 0xFF"]
    return [f"{WORD[o]} = {name}"]


def write(addr: str, value: str) -> list[str]:
    """Statements writing memory, ignoring ROM (``addr`` must be a simple name)."""
    return [f"if {addr} >= rom_top:", f"    mem[{addr}] = {value}"]


def fetch_n(d: Dialect) -> list[Line]:
    """Statements reading the byte at PC into ``n`` and stepping past it."""
    return [f"n = {d.mem('pc')}", *d.step_pc(1)]


def fetch_nn(d: Dialect) -> list[Line]:
    """Statements reading the word at PC into ``nn`` and stepping past it."""
    return [f"nn = {d.mem('pc')} | ({d.mem('(pc + 1) & 0xFFFF')} << 8)", *d.step_pc(2)]


def index_ea(o: str, d: Dialect) -> list[Line]:
    """Statements computing ``ea`` = IX+d or IY+d from the displacement at PC (sets MEMPTR)."""
    w = o[1:3].lower()
    return [f"ea = ({w} + {d.signed(d.mem('pc'))}) & 0xFFFF", *d.step_pc(1), "wz = ea"]


def push(hi: str, lo: str, d: Dialect) -> list[str]:
    """Push a word given as two byte expressions (high byte first, as the Z80 does)."""
    return ["sp = (sp - 1) & 0xFFFF", *d.write("sp", hi), "sp = (sp - 1) & 0xFFFF",
            *d.write("sp", lo)]


def pop_nn(d: Dialect) -> list[str]:
    """Statements popping a word into ``nn``."""
    return [f"nn = {d.mem('sp')} | ({d.mem('(sp + 1) & 0xFFFF')} << 8)",
            "sp = (sp + 2) & 0xFFFF"]


def push_pc(d: Dialect) -> list[str]:
    """Push PC (a CALL, an RST, an interrupt)."""
    return push("(pc >> 8)", "(pc & 0xFF)", d)


def src8(o: object, d: Dialect) -> tuple[list[Line], str]:
    """Read an 8-bit source operand: (setup lines, expression)."""
    assert isinstance(o, str)
    if o == "n":
        return fetch_n(d), "n"
    if o == "(HL)":
        return [], d.mem("(h << 8) | l")
    if is_index_mem(o):
        return index_ea(o, d), d.mem("ea")
    return [], get8(o)


# ---------------------------------------------------------------------------------------
# Port access


def port_in(rewind_pc: int, rewind_r: int, d: Dialect) -> list[Line]:
    """Read port ``port`` into ``v``; with I/O exits on, ask Python and re-run the instruction
    (PC, R and T back where it started: its leaf is ``start_t``); with the machine's
    port-read log on (``state.IO_LOG``), through the log (``Dialect.port_log_apart``)."""
    callback = [
        f"if {slot('IN_READY')}:",
        f"    v = {slot('IN_VALUE')} & 0xFF",
        f"    {slot('IN_READY')} = 0",
        "else:",
        f"    {slot('PORT')} = port",
        "    t = t0",
        *indent(d.step_pc(-rewind_pc), 1),
        *indent(d.step_r(-rewind_r), 1),
        "    " + Exit(state.EXIT_PORT_IN),
    ]
    if not d.port_log_apart:
        return [f"if io_exit and io_exit != {state.IO_LOG}:", *indent(callback, 1),
                "else:", "    " + PORT_IN_MAYBE_LOG]
    return [
        "if io_exit:",
        f"    if io_exit == {state.IO_LOG}:",
        "        " + PORT_IN_LOG,
        "    else:",
        *indent(callback, 2),
        "else:",
        "    " + PORT_IN,
    ]


def port_out(d: Dialect) -> list[Line]:
    """After an OUT of ``v`` to ``port``: with I/O exits on, return to Python (T already added);
    with the port-read log on (``state.IO_LOG``), to the devices as without."""
    callback = [f"{slot('PORT')} = port", f"{slot('PORT_VALUE')} = v",
                Exit(state.EXIT_PORT_OUT)]
    if not d.port_log_apart:
        return [f"if io_exit and io_exit != {state.IO_LOG}:", *indent(callback, 1),
                "else:", "    " + PORT_OUT]
    return ["if io_exit:", f"    if io_exit == {state.IO_LOG}:", "        " + PORT_OUT,
            "    else:", *indent(callback, 2), "else:", "    " + PORT_OUT]


# ---------------------------------------------------------------------------------------
# ALU pieces


def alu8(name: str, v: str, d: Dialect) -> list[str]:
    """A = A op v with flags (v a simple expression evaluated once)."""
    # A register or a fetched byte is used as it is; anything else is read once into v.
    load = [] if v.isidentifier() else [f"v = {v}"]
    x = v if v.isidentifier() else "v"
    if name == "ADD":
        return [*load, f"f = {d.table('ADC_F', f'(a << 8) | {x}')}", f"a = (a + {x}) & 0xFF"]
    if name == "ADC":
        return [*load, "cy = f & 1", f"f = {d.table('ADC_F', f'(cy << 16) | (a << 8) | {x}')}",
                f"a = (a + {x} + cy) & 0xFF"]
    if name == "SUB":
        return [*load, f"f = {d.table('SBC_F', f'(a << 8) | {x}')}", f"a = (a - {x}) & 0xFF"]
    if name == "SBC":
        return [*load, "cy = f & 1", f"f = {d.table('SBC_F', f'(cy << 16) | (a << 8) | {x}')}",
                f"a = (a - {x} - cy) & 0xFF"]
    if name == "AND":
        return [f"a = a & {v}", f"f = {d.table('SZ53P', 'a')} | 0x10"]
    if name == "XOR":
        return [f"a = a ^ {v}", f"f = {d.table('SZ53P', 'a')}"]
    if name == "OR":
        return [f"a = a | {v}", f"f = {d.table('SZ53P', 'a')}"]
    if name == "CP":
        return [f"f = {d.table('CP_F', f'(a << 8) | {v}')}"]
    raise TemplateError(name)


def rot8(name: str, d: Dialect) -> list[str]:
    """Rotate/shift ``v`` in place, setting ``cy``; flags from SZ53P (CB and DDCB forms)."""
    body = {
        "RLC": ["cy = v >> 7", "v = ((v << 1) | cy) & 0xFF"],
        "RRC": ["cy = v & 1", "v = (v >> 1) | (cy << 7)"],
        "RL": ["cy = v >> 7", "v = ((v << 1) | (f & 1)) & 0xFF"],
        "RR": ["cy = v & 1", "v = (v >> 1) | ((f & 1) << 7)"],
        "SLA": ["cy = v >> 7", "v = (v << 1) & 0xFF"],
        "SRA": ["cy = v & 1", "v = (v >> 1) | (v & 0x80)"],
        "SLL": ["cy = v >> 7", "v = ((v << 1) | 1) & 0xFF"],
        "SRL": ["cy = v & 1", "v = v >> 1"],
    }[name]
    return [*body, f"f = {d.table('SZ53P', 'v')} | cy"]


def bit_flags(n: int, v: str, xy: str) -> list[str]:
    """Flags of BIT n: Z=P/V=!bit, S if bit 7 set, H=1, X/Y from ``xy``, C kept."""
    mask = 1 << n
    s = f"({v} & 0x80)" if n == 7 else "0"
    return [f"f = (f & 0x01) | 0x10 | (({xy}) & 0x28) | "
            f"(0x44 if ({v} & {mask:#04x}) == 0 else {s})"]


# ---------------------------------------------------------------------------------------
# Instruction templates, by mnemonic


def leaf(op: isa.Op, table: str, d: Dialect) -> Leaf:
    """The code of one instruction of ``table`` (main, cb, ed, dd, ddcb), spelled in ``d``.

    The code is the same in every table (a DD form differs by its operands); what the table
    changes is the instruction's cycles and so its T-states (``cycles(op, table)``).
    """
    fn = _TEMPLATES.get(op.mnemonic)
    if fn is None:
        raise TemplateError(f"no template for {op.text}")
    return fn(op, d)


def _ld(op: isa.Op, d: Dialect) -> Leaf:
    dst, src = op.operands
    assert isinstance(dst, str) and isinstance(src, str)
    if dst in ("I", "R"):  # LD I,A / LD R,A
        if dst == "I":
            return Leaf(["i = a"])
        # R jumps without fetches: the Spectrum engines' fetch count takes the jump back out.
        return Leaf([f"{slot('FETCH_ADJ')} += a - r", "r = a", "r7 = a & 0x80"])
    if src in ("I", "R"):  # LD A,I / LD A,R: P/V = IFF2
        val = "i" if src == "I" else "(r & 0x7F) | r7"
        return Leaf([f"a = {val}", f"f = (f & 0x01) | {d.table('SZ53', 'a')} | (iff2 << 2)", T_HERE,
                     "ldair_at = t"], flags=True)
    if dst in ("(BC)", "(DE)"):
        hi, lo = PAIR8[dst[1:3]]
        return Leaf([f"ea = ({hi} << 8) | {lo}", *d.write("ea", "a"),
                     f"wz = (({lo} + 1) & 0xFF) | (a << 8)"])
    if src in ("(BC)", "(DE)"):
        hi, lo = PAIR8[src[1:3]]
        return Leaf([f"ea = ({hi} << 8) | {lo}", f"a = {d.mem('ea')}", "wz = (ea + 1) & 0xFFFF"])
    if dst == "(nn)":
        if src == "A":
            return Leaf([*fetch_nn(d), *d.write("nn", "a"), "wz = ((nn + 1) & 0xFF) | (a << 8)"])
        return Leaf([*fetch_nn(d), f"v = {get16(src)}", *d.write("nn", "v & 0xFF"),
                     "nn = (nn + 1) & 0xFFFF", "wz = nn", *d.write("nn", "v >> 8")])
    if src == "(nn)":
        if dst == "A":
            return Leaf([*fetch_nn(d), f"a = {d.mem('nn')}", "wz = (nn + 1) & 0xFFFF"])
        return Leaf([*fetch_nn(d), f"v = {d.mem('nn')} | ({d.mem('(nn + 1) & 0xFFFF')} << 8)",
                     "wz = (nn + 1) & 0xFFFF", *set16(dst, "v")])
    if src == "nn":
        return Leaf([*fetch_nn(d), *set16(dst, "nn")])
    if dst == "SP":
        return Leaf([f"sp = {get16(src)}"])
    if dst == "(HL)":
        if src == "n":
            return Leaf([*fetch_n(d), "ea = (h << 8) | l", *d.write("ea", "n")])
        return Leaf(["ea = (h << 8) | l", *d.write("ea", get8(src))])
    if is_index_mem(dst):
        if src == "n":
            return Leaf([*index_ea(dst, d), *fetch_n(d), *d.write("ea", "n")])
        return Leaf([*index_ea(dst, d), *d.write("ea", get8(src))])
    lines, expr = src8(src, d)
    if dst == src:
        return Leaf([*lines])  # LD r,r: nothing moves (but prefixes/fetches still count)
    return Leaf([*lines, *set8(dst, expr)])


def _alu_op(op: isa.Op, d: Dialect) -> Leaf:
    src = op.operands[-1]
    lines, expr = src8(src, d)
    return Leaf([*lines, *alu8(op.mnemonic, expr, d)], flags=True)


def _inc_dec(op: isa.Op, d: Dialect) -> Leaf:
    (o,) = op.operands
    assert isinstance(o, str)
    inc = op.mnemonic == "INC"
    if o in PAIR8:
        hi, lo = PAIR8[o]
        if inc:
            return Leaf([f"{lo} = ({lo} + 1) & 0xFF", f"if {lo} == 0:",
                         f"    {hi} = ({hi} + 1) & 0xFF"])
        return Leaf([f"{lo} = ({lo} - 1) & 0xFF", f"if {lo} == 0xFF:",
                     f"    {hi} = ({hi} - 1) & 0xFF"])
    if o in WORD:
        w = WORD[o]
        return Leaf([f"{w} = ({w} {'+' if inc else '-'} 1) & 0xFFFF"])
    table_name = "INC_F" if inc else "DEC_F"
    delta = "+ 1" if inc else "- 1"
    if o == "(HL)" or is_index_mem(o):
        setup = ["ea = (h << 8) | l"] if o == "(HL)" else index_ea(o, d)
        return Leaf([*setup, f"v = ({d.mem('ea')} {delta}) & 0xFF", *d.write("ea", "v"),
                     f"f = (f & 0x01) | {d.table(table_name, 'v')}"], flags=True)
    if o in REG8:
        reg = REG8[o]
        return Leaf([f"{reg} = ({reg} {delta}) & 0xFF",
                     f"f = (f & 0x01) | {d.table(table_name, reg)}"], flags=True)
    return Leaf([f"v = ({get8(o)} {delta}) & 0xFF", *set8(o, "v"),
                 f"f = (f & 0x01) | {d.table(table_name, 'v')}"], flags=True)


def _add16(op: isa.Op, d: Dialect) -> Leaf:
    dst, src = op.operands
    assert isinstance(dst, str) and isinstance(src, str)
    if dst == "A":
        return _alu_op(op, d)
    return Leaf([
        f"v = {get16(dst)}", f"nn = {get16(src)}", "res = v + nn", "wz = (v + 1) & 0xFFFF",
        "f = (f & 0xC4) | ((res >> 16) & 0x01) | ((res >> 8) & 0x28) | "
        "((((v & 0x0FFF) + (nn & 0x0FFF)) >> 8) & 0x10)",
        "res = res & 0xFFFF", *set16(dst, "res"),
    ], flags=True)


def _adc_sbc16(op: isa.Op, d: Dialect) -> Leaf:
    dst, src = op.operands
    assert isinstance(src, str)
    if dst == "A":
        return _alu_op(op, d)
    if op.mnemonic == "ADC":
        body = ["res = v + nn + cy",
                "f = ((res >> 16) & 0x01) | ((res >> 8) & 0xA8) | "
                "((((v & 0x0FFF) + (nn & 0x0FFF) + cy) >> 8) & 0x10) | "
                "((((v ^ nn ^ 0x8000) & (v ^ res)) & 0x8000) >> 13)"]
    else:
        body = ["res = v - nn - cy",
                "f = ((res >> 16) & 0x01) | ((res >> 8) & 0xA8) | 0x02 | "
                "((((v & 0x0FFF) - (nn & 0x0FFF) - cy) >> 8) & 0x10) | "
                "((((v ^ nn) & (v ^ res)) & 0x8000) >> 13)"]
    return Leaf([
        "v = (h << 8) | l", f"nn = {get16(src)}", "cy = f & 1", *body, "res = res & 0xFFFF",
        "if res == 0:", "    f = f | 0x40", "wz = (v + 1) & 0xFFFF", *set16("HL", "res"),
    ], flags=True)


def _rot_a(op: isa.Op, d: Dialect) -> Leaf:
    body = {
        "RLCA": ["a = ((a << 1) | (a >> 7)) & 0xFF", "f = (f & 0xC4) | (a & 0x29)"],
        "RRCA": ["cy = a & 1", "a = (a >> 1) | (cy << 7)", "f = (f & 0xC4) | cy | (a & 0x28)"],
        "RLA": ["cy = a >> 7", "a = ((a << 1) | (f & 1)) & 0xFF",
                "f = (f & 0xC4) | cy | (a & 0x28)"],
        "RRA": ["cy = a & 1", "a = (a >> 1) | ((f & 1) << 7)",
                "f = (f & 0xC4) | cy | (a & 0x28)"],
    }[op.mnemonic]
    return Leaf(body, flags=True)


def _misc_a(op: isa.Op, d: Dialect) -> Leaf:
    m = op.mnemonic
    if m == "CPL":
        return Leaf(["a = a ^ 0xFF", "f = (f & 0xC5) | (a & 0x28) | 0x12"], flags=True)
    if m == "NEG":
        return Leaf(["v = a", f"f = {d.table('SBC_F', 'v')}", "a = (0 - v) & 0xFF"], flags=True)
    if m == "DAA":
        return Leaf([
            "cy = f & 0x01", "v = 0",
            "if (f & 0x10) or (a & 0x0F) > 9:", "    v = 0x06",
            "if cy or a > 0x99:", "    v = v | 0x60", "    cy = 1",
            "if f & 0x02:", "    res = (a - v) & 0xFF", "else:", "    res = (a + v) & 0xFF",
            f"f = (f & 0x02) | cy | ((a ^ res) & 0x10) | {d.table('SZ53P', 'res')}", "a = res",
        ], flags=True)
    # SCF/CCF: X and Y from (Q xor F) or A; Q is F if the previous instruction set flags.
    # Q is read at the T-state the instruction started (``t0``): the Spectrum engines have moved
    # T past the previous instruction's marker by walking this one's cycles.
    if m == "SCF":
        return Leaf([*Q_NOW, "f = (f & 0xC4) | 0x01 | (((q ^ f) | a) & 0x28)"], flags=True,
                    start_t=True)
    return Leaf([*Q_NOW, "f = ((f & 0xC5) | ((f & 0x01) << 4) | (((q ^ f) | a) & 0x28)) ^ 0x01"],
                flags=True, start_t=True)


def _jr(op: isa.Op, d: Dialect) -> Leaf:
    jump = [f"pc = (pc + {d.signed('n')}) & 0xFFFF", "wz = pc"]
    if len(op.operands) == 1:
        return Leaf([*fetch_n(d), *jump])
    cond = COND[str(op.operands[0])]
    return Leaf([*fetch_n(d), f"if {cond}:", *("    " + x for x in jump), "    " + T_TAKEN, "else:",
                 "    " + T_HERE])


def _djnz(op: isa.Op, d: Dialect) -> Leaf:
    return Leaf(["b = (b - 1) & 0xFF", *fetch_n(d), "if b:",
                 f"    pc = (pc + {d.signed('n')}) & 0xFFFF", "    wz = pc", "    " + T_TAKEN,
                 "else:", "    " + T_HERE])


def _jp(op: isa.Op, d: Dialect) -> Leaf:
    target = op.operands[-1]
    if target in ("(HL)", "(IX)", "(IY)"):
        return Leaf([f"pc = {get16(str(target)[1:3])}"])
    if len(op.operands) == 1:
        return Leaf([*fetch_nn(d), "pc = nn", "wz = nn"])
    cond = COND[str(op.operands[0])]
    return Leaf([*fetch_nn(d), "wz = nn", f"if {cond}:", "    pc = nn"])


def _call(op: isa.Op, d: Dialect) -> Leaf:
    body = [*push_pc(d), "pc = nn"]
    if len(op.operands) == 1:
        return Leaf([*fetch_nn(d), "wz = nn", *body])
    cond = COND[str(op.operands[0])]
    return Leaf([*fetch_nn(d), "wz = nn", f"if {cond}:", *("    " + x for x in body),
                 "    " + T_TAKEN, "else:", "    " + T_HERE])


def _ret(op: isa.Op, d: Dialect) -> Leaf:
    body = [*pop_nn(d), "pc = nn", "wz = nn"]
    if not op.operands:
        return Leaf(body)
    cond = COND[str(op.operands[0])]
    return Leaf([f"if {cond}:", *("    " + x for x in body), "    " + T_TAKEN, "else:",
                 "    " + T_HERE])


def _retn(op: isa.Op, d: Dialect) -> Leaf:
    return Leaf([*pop_nn(d), "pc = nn", "wz = nn", "iff1 = iff2"])


def _rst(op: isa.Op, d: Dialect) -> Leaf:
    (p,) = op.operands
    return Leaf([*push_pc(d), f"pc = {p:#04x}", "wz = pc"])


def _push(op: isa.Op, d: Dialect) -> Leaf:
    (o,) = op.operands
    assert isinstance(o, str)
    if o in PAIR8:
        hi, lo = PAIR8[o]
        return Leaf(push(hi, lo, d))
    w = WORD[o]
    return Leaf(push(f"({w} >> 8)", f"({w} & 0xFF)", d))


def _pop(op: isa.Op, d: Dialect) -> Leaf:
    (o,) = op.operands
    assert isinstance(o, str)
    if o in PAIR8:
        hi, lo = PAIR8[o]
        return Leaf([f"{lo} = {d.mem('sp')}", f"{hi} = {d.mem('(sp + 1) & 0xFFFF')}",
                     "sp = (sp + 2) & 0xFFFF"])
    return Leaf([*pop_nn(d), *set16(o, "nn")])


def _ex(op: isa.Op, d: Dialect) -> Leaf:
    x, y = op.operands
    if x == "AF":
        return Leaf(["a, a_ = a_, a", "f, f_ = f_, f"])
    if x == "DE":
        return Leaf(["d, h = h, d", "e, l = l, e"])
    assert isinstance(y, str)
    return Leaf([
        f"nn = {d.mem('sp')} | ({d.mem('(sp + 1) & 0xFFFF')} << 8)", f"v = {get16(y)}",
        "ea = (sp + 1) & 0xFFFF", *d.write("ea", "v >> 8"), *d.write("sp", "v & 0xFF"),
        *set16(y, "nn"), "wz = nn",
    ])


def _exx(op: isa.Op, d: Dialect) -> Leaf:
    return Leaf(["b, b_ = b_, b", "c, c_ = c_, c", "d, d_ = d_, d", "e, e_ = e_, e",
                 "h, h_ = h_, h", "l, l_ = l_, l"])


def _simple(lines: list[str], flags: bool = False):  # noqa: ANN202
    def fn(op: isa.Op, d: Dialect) -> Leaf:
        return Leaf(list(lines), flags)
    return fn


def _halt(op: isa.Op, d: Dialect) -> Leaf:
    # PC stays on the HALT (as in Fuse); each pass is one 4-T internal NOP with R+1. When no
    # interrupt can come before the limit, ``@HALT_SKIP`` runs the passes to the limit in a
    # tight loop or in one jump (the engine's own code: it knows about contention).
    return Leaf([*d.step_pc(-1), "halted = 1", T_HERE, HALT_SKIP])


def _ei(op: isa.Op, d: Dialect) -> Leaf:
    return Leaf(["iff1 = 1", "iff2 = 1", T_HERE, "ei_at = t"])


def _im(op: isa.Op, d: Dialect) -> Leaf:
    return Leaf([f"im = {op.operands[0]}"])


def _in(op: isa.Op, d: Dialect) -> Leaf:
    dst, src = op.operands
    if src == "(n)":  # IN A,(n): no flags
        return Leaf([*fetch_n(d), "port = (a << 8) | n", *port_in(2, 1, d),
                     "wz = (port + 1) & 0xFFFF", "a = v"], start_t=True)
    assert isinstance(dst, str)
    store = [] if dst == "F" else set8(dst, "v")
    return Leaf(["port = (b << 8) | c", *port_in(2, 2, d), "wz = (port + 1) & 0xFFFF", *store,
                 f"f = (f & 0x01) | {d.table('SZ53P', 'v')}"], flags=True, start_t=True)


def _out(op: isa.Op, d: Dialect) -> Leaf:
    dst, src = op.operands
    if dst == "(n)":
        return Leaf([*fetch_n(d), "port = (a << 8) | n", "v = a",
                     "wz = ((n + 1) & 0xFF) | (a << 8)", T_HERE, *port_out(d)])
    val = "0" if src == 0 else get8(str(src))
    return Leaf(["port = (b << 8) | c", f"v = {val}", "wz = (port + 1) & 0xFFFF", T_HERE,
                 *port_out(d)])


def _rld_rrd(op: isa.Op, d: Dialect) -> Leaf:
    if op.mnemonic == "RLD":
        body = ["n = ((v << 4) | (a & 0x0F)) & 0xFF", "a = (a & 0xF0) | (v >> 4)"]
    else:
        body = ["n = ((a << 4) | (v >> 4)) & 0xFF", "a = (a & 0xF0) | (v & 0x0F)"]
    return Leaf(["ea = (h << 8) | l", f"v = {d.mem('ea')}", *body, *d.write("ea", "n"),
                 f"f = (f & 0x01) | {d.table('SZ53P', 'a')}", "wz = (ea + 1) & 0xFFFF"], flags=True)


def _cb_rot(op: isa.Op, d: Dialect) -> Leaf:
    (o,) = op.operands
    assert isinstance(o, str)
    if o == "(HL)":
        return Leaf(["ea = (h << 8) | l", f"v = {d.mem('ea')}", *rot8(op.mnemonic, d),
                     *d.write("ea", "v")],
                    flags=True)
    reg = REG8[o]
    return Leaf([f"v = {reg}", *rot8(op.mnemonic, d), f"{reg} = v"], flags=True)


def _bit(op: isa.Op, d: Dialect) -> Leaf:
    n, o = op.operands
    assert isinstance(n, int) and isinstance(o, str)
    if o == "(HL)":
        return Leaf([f"v = {d.mem('(h << 8) | l')}", *bit_flags(n, "v", "wz >> 8")], flags=True)
    reg = REG8[o]
    return Leaf(bit_flags(n, reg, reg), flags=True)


def _res_set(op: isa.Op, d: Dialect) -> Leaf:
    n, o = op.operands
    assert isinstance(n, int) and isinstance(o, str)
    expr = f"& {0xFF ^ (1 << n):#04x}" if op.mnemonic == "RES" else f"| {1 << n:#04x}"
    if o == "(HL)":
        return Leaf(["ea = (h << 8) | l", f"v = {d.mem('ea')} {expr}", *d.write("ea", "v")])
    reg = REG8[o]
    return Leaf([f"{reg} = {reg} {expr}"])


def _block(op: isa.Op, d: Dialect) -> Leaf:
    m = op.mnemonic
    inc = m[2] == "I" if m.startswith(("LD", "CP", "IN")) else m[3] == "I"
    if m in ("OTIR", "OTDR"):
        inc = m == "OTIR"
    repeat = m.endswith("R") and m not in ("OUTI", "OUTD")
    step = "+ 1" if inc else "- 1"
    hl_step = [f"ea = (((h << 8) | l) {step}) & 0xFFFF", "h = ea >> 8", "l = ea & 0xFF"]
    bc_dec = ["c = (c - 1) & 0xFF", "if c == 0xFF:", "    b = (b - 1) & 0xFF"]
    # While a repeating instruction repeats: PC back on it, MEMPTR = PC+1, X/Y from PC bits 11/13.
    back = [*d.step_pc(-2), "wz = (pc + 1) & 0xFFFF",
            "f = (f & 0xD7) | ((pc >> 8) & 0x28)"]
    if m.startswith("LD"):
        lines = [
            f"v = {d.mem('(h << 8) | l')}", "ea = (d << 8) | e", *d.write("ea", "v"),
            f"ea = (ea {step}) & 0xFFFF", "d = ea >> 8", "e = ea & 0xFF", *hl_step, *bc_dec,
            "n = (a + v) & 0xFF",
            "f = (f & 0xC1) | (n & 0x08) | ((n << 4) & 0x20) | (0x04 if (b | c) else 0)",
        ]
        if repeat:
            return Leaf(repeat_in_place(lines, "b | c", back, op_code(m), d), flags=True)
        return Leaf(lines, flags=True)
    if m.startswith("CP"):
        lines = [
            f"v = {d.mem('(h << 8) | l')}", "res = (a - v) & 0xFF", "hf = (a ^ v ^ res) & 0x10",
            "n = (res - (hf >> 4)) & 0xFF", *hl_step, *bc_dec, f"wz = (wz {step}) & 0xFFFF",
            f"f = (f & 0x01) | 0x02 | hf | ({d.table('SZ53', 'res')} & 0xC0) | (n & 0x08) | "
            "((n << 4) & 0x20) | "
            "(0x04 if (b | c) else 0)",
        ]
        if repeat:
            return Leaf(repeat_in_place(lines, "(b | c) and res", back, op_code(m), d),
                        flags=True)
        return Leaf(lines, flags=True)
    if m.startswith("IN"):
        lines = [
            "port = (b << 8) | c", *port_in(2, 2, d), f"wz = (port {step}) & 0xFFFF",
            "b = (b - 1) & 0xFF", "ea = (h << 8) | l", *d.write("ea", "v"), *hl_step,
            f"k = v + ((c {step}) & 0xFF)",
        ]
    else:  # OUTI/OUTD/OTIR/OTDR: B decrements before the port is written
        lines = [
            f"v = {d.mem('(h << 8) | l')}", "b = (b - 1) & 0xFF", "port = (b << 8) | c",
            f"wz = (port {step}) & 0xFFFF", *hl_step, "k = v + l",
        ]
    # Flags of INI/OUTI (spectrum_facts §1.5): S Z X Y from B, N = bit 7 of v, H = C = k > 255,
    # P/V = parity((k & 7) ^ B).
    lines += [
        "nf = (v >> 6) & 0x02", "hc = 0x11 if k > 255 else 0",
        f"f = ({d.table('SZ53', 'b')} & 0xE8) | nf | hc | "
        f"({d.table('SZ53P', '(k & 7) ^ b')} & 0x04)",
    ]
    out_exit = [] if m.startswith("IN") else port_out(d)
    reads_port = m.startswith("IN")
    if not repeat:
        return Leaf([*lines, T_HERE, *out_exit], flags=True, start_t=reads_port)
    lines += [
        "if b:",
        *indent(d.step_pc(-2)), "    wz = (pc + 1) & 0xFFFF",
        "    p = (k & 7) ^ b",
        "    if hc:",
        "        if nf:",
        "            hf = 0x10 if (b & 0x0F) == 0x00 else 0",
        "            p = p ^ ((b - 1) & 7)",
        "        else:",
        "            hf = 0x10 if (b & 0x0F) == 0x0F else 0",
        "            p = p ^ ((b + 1) & 7)",
        "    else:",
        "        hf = 0",
        "        p = p ^ (b & 7)",
        f"    f = (f & 0x83) | ((pc >> 8) & 0x28) | hf | ({d.table('SZ53P', 'p')} & 0x04)",
        "    " + T_TAKEN,
        "else:",
        "    " + T_HERE,
        *out_exit,
    ]
    return Leaf(lines, flags=True, start_t=reads_port)


def op_code(mnemonic: str) -> int:
    """The ED opcode of a block instruction."""
    for y, row in enumerate(isa.BLOCK):
        if mnemonic in row:
            return 0xA0 + (y << 3) + row.index(mnemonic)
    raise TemplateError(mnemonic)


def repeat_in_place(step: list[Line], again: str, back: list[Line], code: int,
                    d: Dialect) -> list[Line]:
    """LDIR/LDDR/CPIR/CPDR: run the repeats here instead of once per pass of the main loop.

    Each repeat is exactly one more execution of the instruction (21 T, R+2, the same flags
    and MEMPTR), taken only while nothing could happen between two of them: T below the
    limit, no interrupt that could be accepted, no breakpoint on it, and the instruction
    still in memory (it may overwrite itself).
    """
    return [
        "while True:",
        "    " + CYCLES,
        *("    " + x for x in step),
        f"    if {again}:",
        *("        " + x for x in back),
        "        " + T_TAKEN,
        "        if t < until and not (iff1 and t < int_end) and not bp[pc] and "
        f"{d.mem('pc')} == 0xED and {d.mem('(pc + 1) & 0xFFFF')} == {code:#04x}:",
        *indent(d.step_pc(2), 3),
        *indent(d.step_r(2), 3),
        "            continue",
        "    else:",
        "        " + T_HERE,
        "    break",
    ]


def _nop(op: isa.Op, d: Dialect) -> Leaf:
    return Leaf([])


_TEMPLATES = {
    "LD": _ld, "ADD": _add16, "ADC": _adc_sbc16, "SBC": _adc_sbc16,
    "SUB": _alu_op, "AND": _alu_op, "XOR": _alu_op, "OR": _alu_op, "CP": _alu_op,
    "INC": _inc_dec, "DEC": _inc_dec,
    "RLCA": _rot_a, "RRCA": _rot_a, "RLA": _rot_a, "RRA": _rot_a,
    "CPL": _misc_a, "NEG": _misc_a, "DAA": _misc_a, "SCF": _misc_a, "CCF": _misc_a,
    "JR": _jr, "DJNZ": _djnz, "JP": _jp, "CALL": _call, "RET": _ret, "RETN": _retn,
    "RETI": _retn, "RST": _rst, "PUSH": _push, "POP": _pop, "EX": _ex, "EXX": _exx,
    "NOP": _nop, "HALT": _halt, "DI": _simple(["iff1 = 0", "iff2 = 0"]), "EI": _ei,
    "IM": _im, "IN": _in, "OUT": _out, "RLD": _rld_rrd, "RRD": _rld_rrd,
    "RLC": _cb_rot, "RRC": _cb_rot, "RL": _cb_rot, "RR": _cb_rot,
    "SLA": _cb_rot, "SRA": _cb_rot, "SLL": _cb_rot, "SRL": _cb_rot,
    "BIT": _bit, "RES": _res_set, "SET": _res_set,
    **{m: _block for row in isa.BLOCK for m in row},
}


def _rotate_by_y(d: Dialect) -> list[str]:
    """``if op < 0x40:`` — the eight rotates and shifts of ``v``, chosen by the y field."""
    lines = ["if op < 0x40:"]
    for k, name in enumerate(isa.ROT):
        lines.append(f"    {'if' if k == 0 else 'elif'} y == {k}:" if k < 7 else "    else:")
        lines += ["        " + x for x in rot8(name, d)]
    return lines


def _bit_res_set_by_y(xy: str, bit_t: TStates) -> list[Line]:
    """The ``elif`` arms after the rotates: BIT y (X/Y from ``xy``, T-states by the marker
    ``bit_t``), RES y, SET y on ``v``."""
    return [
        "elif op < 0x80:",
        f"    f = (f & 0x01) | 0x10 | (({xy}) & 0x28) | "
        "(0x44 if (v & (1 << y)) == 0 else (v & (1 << y) & 0x80))",
        "    " + bit_t,
        "    qt = t",
        "elif op < 0xC0:",
        "    v = v & (0xFF ^ (1 << y))",
        "else:",
        "    v = v | (1 << y)",
    ]


def _copy_to_register(pad: str) -> list[str]:
    """Store ``v`` into register field z (B C D E H L, 7 = A; 6 is memory, handled apart)."""
    lines: list[str] = []
    for k, reg in enumerate(("b", "c", "d", "e", "h", "l")):
        lines += [f"{pad}{'if' if k == 0 else 'elif'} z == {k}:", f"{pad}    {reg} = v"]
    return lines + [f"{pad}elif z == 7:", f"{pad}    a = v"]


def ddcb_generic(xy: str, d: Dialect) -> list[Line]:
    """The whole DDCB/FDCB table as one piece of code on ``op`` (after ``ea`` is set).

    Rotates, RES and SET write memory and copy into register z when z != 6; BIT takes X/Y
    from the high byte of IX+d (which is also MEMPTR). Its cycles are ``ddcb_cycles``: BIT
    skips the conditional write (``T_HERE``), the others take it (``T_TAKEN``).
    """
    lines = [f"v = {d.mem('ea')}", "y = (op >> 3) & 7", *_rotate_by_y(d),
             *_bit_res_set_by_y("ea >> 8", T_HERE),
             "if op < 0x40 or op >= 0x80:",
             *("    " + x for x in d.write("ea", "v")),
             "    " + T_TAKEN,
             "    if op < 0x40:",
             "        qt = t",
             "    z = op & 7",
             *_copy_to_register("    ")]
    return lines


def cb_generic(d: Dialect) -> list[Line]:
    """The whole CB table as one piece of code on ``op``, decoding its x/y/z fields.

    The JIT engine uses this shape: compiled, a few well-predicted branches cost less than
    leaving the main function, and the main function stays small enough to compile quickly.
    The operations are the same pieces (``rot8``, the BIT flags) as the per-opcode leaves,
    and the T-states those of their cycle lists (one figure per kind, see ``cb_kind_t``).
    """
    bit_t = f"{cb_kind_t(True, True)} if z == 6 else {cb_kind_t(True, False)}"
    lines = ["z = op & 7", "y = (op >> 3) & 7", "if z == 6:", "    ea = (h << 8) | l",
             f"    v = {d.mem('ea')}"]
    for k, reg in enumerate(("b", "c", "d", "e", "h", "l")):
        lines += [f"elif z == {k}:", f"    v = {reg}"]
    lines += ["else:", "    v = a", *_rotate_by_y(d),
              *_bit_res_set_by_y("(wz >> 8) if z == 6 else v", t_is(bit_t)),
              "if op < 0x40 or op >= 0x80:",
              "    if z == 6:",
              *("        " + x for x in d.write("ea", "v")),
              "        " + t_is(str(cb_kind_t(False, True))),
              "    else:",
              "        " + t_is(str(cb_kind_t(False, False))),
              *_copy_to_register("        "),
              "    if op < 0x40:",
              "        qt = t"]
    return lines


def cb_kind_t(bit: bool, memory: bool) -> int:
    """T-states every CB opcode of one kind takes (BIT or not, on (HL) or a register), from
    their cycle lists: the generic CB piece adds one figure for each kind."""
    totals = {cycle_total(FETCH2 + cycles(op, "cb")) for code, op in enumerate(isa.CB)
              if (0x40 <= code < 0x80) == bit and ((code & 7) == 6) == memory}
    if len(totals) != 1:
        raise TemplateError(f"CB opcodes of one kind differ in T-states: {sorted(totals)}")
    return totals.pop()
