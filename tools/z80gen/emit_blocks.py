"""The CPython block engine's pieces: each instruction's code as a translated block runs it.

The block engine (``zxmonopoly.z80.blocks``) runs straight-line runs of the program as Python
functions it compiles the first time PC reaches them, so an instruction there costs neither a
fetch nor a dispatch: what it needs from here is, for every opcode (keyed as
``blocks.key_at`` decodes it), the same leaf the interpreter runs, finished the same way
(``leaves.finish``: T-states, the Q marker) and spelled by a dialect of its own:

* *folded*: the operand bytes as fields (``{p1}``: the block fills in the byte's value, and is
  dropped if that byte changes), PC and R not stepped at all (the block sets PC where it leaves
  and counts R once), and for most the T-states and Q apart (``T_ADD``, ``SETS_Q``: the block
  adds them up over a run of such instructions; they are ``leaves.Code``'s values, the
  T-states and Q marker the interpreter adds after the instruction's lines);
* *ender*: an instruction that reads or moves PC (jumps, calls, returns, the repeating block
  instructions) runs with PC set as the interpreter has it there (``PC_AT``: after its operands
  when they fold, else after its opcode), and ends its block;
* *interpreted*: one that leaves the run (a port's exit), halts, or leaves a marker for the
  next instruction (EI, LD A,I / LD A,R, a prefix that changes nothing) is never translated:
  the block before it ends there and the interpreter runs it.

Every write notes a write over translated code (``CODE[addr]``) in ``SMC``; the block stops
after that instruction, and the engine drops what was translated there. Whether an
instruction writes (``WRITES``) is what its template did: it called the dialect's ``write``.
"""

from __future__ import annotations

from dataclasses import dataclass

from zxmonopoly.z80 import isa, templates
from zxmonopoly.z80.disasm import decode
from zxmonopoly.z80.machine_cycles import FETCH1, FETCH2, cycle_total, cycles, ddcb_cycles
from zxmonopoly.z80.templates import Exit, Line, Marker, indent

from .analysis import names_by_line, names_used
from .cycles import Target
from .emit_python import PythonDialect
from .leaves import Code, cb_case, ed_case, ed_default, index_case, main_case
from .shell import CONFIG, HEADER, R_RANGE, REGS, entry_lines, exit_lines, load_lines, store_lines
from .variant import BARE_FREE

#: Everything a block shares with the others and with ``enter``: the registers and markers,
#: the run's arguments, the tables, and the engine's own lists. Every other name in a block
#: is a local of the instruction that makes it.
CELLS = (*(name for name, _ in REGS), "r", "r7", *(name for name, _ in CONFIG), "q_entry",
         "qt", "ei_at", "ldair_at", "st", "mem", "bp", "until",
         "SZ53", "SZ53P", "ADC_F", "SBC_F", "CP_F", "INC_F", "DEC_F",
         "R_INC1", "R_INC2", "SIGNED", "CODE", "SMC", "BLOCKS")
#: Names a block reads that are no cells: the state slots' module.
GLOBALS = ("S",)
#: The markers an interpreted instruction sets or reads (see the module's docstring).
INTERPRETED_NAMES = {"ei_at", "ldair_at", "halted"}

KIND_INTERPRETED, KIND_FOLDED, KIND_ENDER = 0, 1, 2
#: Keys: the unprefixed opcode, 256 + a CB opcode, 512 + ED, 768 + DD, 1024 + FD.
KEYS = 1280


class BlockWrites(PythonDialect):
    """The CPython dialect, and every write notes one over translated code; ``writes``
    counts the writes made (an instruction's code writes memory if its template asked)."""

    def __init__(self) -> None:
        self.writes = 0

    def write(self, addr: str, value: str) -> list[str]:
        """The write, then ``addr`` into ``SMC`` if a block was translated from it."""
        self.writes += 1
        return [*templates.write(addr, value), f"    if CODE[{addr}]:",
                f"        SMC.append({addr})"]


@dataclass(frozen=True)
class Step(Marker):
    """A step forward of PC or R (``register`` "pc" or "r") by ``n``, left to the block."""

    register: str
    n: int


class Folded(BlockWrites):
    """... and PC and R left to the block: an operand byte is a field (``{pK}``: the byte at
    offset K of the instruction, filled in with its value for each copy), a step of PC or R a
    marker (:class:`Step`) that ``resolve`` sums; PC read any other way is spelled as the
    interpreter's, which makes the instruction an ender. One instance for one instruction:
    it counts the offset from ``offset``, the bytes before its lines."""

    def __init__(self, offset: int) -> None:
        super().__init__()
        self.offset = offset

    def mem(self, addr: str) -> str:
        """The operand bytes as fields; other addresses as they are."""
        if addr == "pc":
            return f"{{p{self.offset}}}"
        if addr == "(pc + 1) & 0xFFFF":
            return f"{{p{self.offset + 1}}}"
        return super().mem(addr)

    def step_pc(self, n: int) -> list[Line]:
        """A step forward as a marker."""
        if n > 0:
            self.offset += n
            return [Step("pc", n)]
        return super().step_pc(n)

    def step_r(self, n: int | str) -> list[Line]:
        """A count forward as a marker."""
        return [Step("r", n)] if isinstance(n, int) and n > 0 else super().step_r(n)


def resolve(lines: list[Line]) -> tuple[list[Line], int] | None:
    """Folded lines without their steps (:class:`Step`), and R's steps in them; None when a
    step stands inside a condition (the instruction steps only sometimes) or after a line
    that names PC (it needs PC as the interpreter has it there): the interpreter's spelling
    then."""
    out: list[Line] = []
    r_steps = 0
    pc_read = False
    for x, names in zip(lines, names_by_line(lines), strict=True):
        if isinstance(x, Step):
            if x.depth or pc_read:
                return None
            r_steps += x.n if x.register == "r" else 0
            continue
        pc_read = pc_read or "pc" in names
        out.append(x)
    return out, r_steps


def _names(lines: list[Line]) -> tuple[set[str], set[str]]:
    """Names read and assigned, leaving out the ``{pK}`` fields (a set display to ``ast``)."""
    if not lines:
        return set(), set()
    reads, writes = names_used(lines)
    field = {n for n in reads if n[0] == "p" and n[1:].isdigit()}
    return reads - field, writes


def _case(t: Target, key: int) -> Code | None:
    """A key's code as the leaves give it, after the prefix bytes of ``_prefix``; None for a
    prefix (the opcodes after it have their own key)."""
    code = key & 0xFF
    if key < 256:
        return None if isa.MAIN[code].mnemonic == isa.PREFIX else main_case(t, code)
    if key < 512:
        return cb_case(t, code)
    if key < 768:
        return ed_case(t, code) or ed_default(t)
    return index_case(t, "DD" if key < 1024 else "FD", code)


def _prefix(key: int) -> int:
    """Bytes the engine steps over before a key's lines: the opcode, or CB/ED and the
    opcode; DD and FD only (their lines step over the second byte themselves)."""
    return 2 if 256 <= key < 768 else 1


def _bytes(key: int) -> bytes:
    """The instruction of ``key`` with zero operands, for its length."""
    if key < 256:
        return bytes([key, 0, 0, 0])
    prefix = (0xCB, 0xED, 0xDD, 0xFD)[key // 256 - 1]
    return bytes([prefix, key & 0xFF, 0, 0])


def _tmax(key: int) -> int:
    """The most T-states the instruction of ``key`` takes (a branch taken)."""
    code = key & 0xFF
    if key < 256:
        specs = FETCH1 + cycles(isa.MAIN[code], "main")
    elif key < 512:
        specs = FETCH2 + cycles(isa.CB[code], "cb")
    elif key < 768:
        op = isa.ED[code]
        specs = FETCH2 + (cycles(op, "ed") if op is not None else [])
    else:
        op = (isa.DD if key < 1024 else isa.FD)[code]
        if op.mnemonic == isa.PREFIX and op.operands[0] in ("DDCB", "FDCB"):
            specs = ["pc-1:4", "pc:4", *ddcb_cycles("NOTBIT")]
        elif op.mnemonic in (isa.PREFIX, isa.PREFIX_NOP):
            specs = FETCH1
        else:
            specs = FETCH2 + cycles(op, "dd")
    return cycle_total(specs, taken=True)


def _check_names(key: int, lines: list[Line]) -> list[str]:
    """The cells ``lines`` assign; a name read that is neither a cell nor made here fails."""
    reads, writes = _names(lines)
    stray = reads - set(CELLS) - writes - set(GLOBALS)
    if stray:
        raise templates.TemplateError(f"block key {key}: reads {sorted(stray)}, no cells")
    return sorted(writes & set(CELLS))


def _counts_apart(body: list[Line], code: Code) -> bool:
    """Whether the block may count an instruction's T-states and Q for it: they are added
    after its lines (``code.t_after``), which neither read nor set T or Q themselves."""
    return code.t_after is not None and not {"t", "qt", "t0"} & set().union(*_names(body))


def gen_blocks() -> str:
    """The block engine's module: per key its kind, length, most T-states, R steps, where
    PC is set before an ender's code, its T-states and Q when the block counts them, whether
    it writes memory and whether it reads or sets R, the cells it assigns, and its code;
    and ``make_enter``."""
    columns: dict[str, list] = {name: [] for name in (
        "KIND", "LENGTH", "TMAX", "R_STEPS", "PC_AT", "T_ADD", "SETS_Q", "WRITES", "USES_R",
        "ASSIGNS", "TEXT")}
    for key in range(KEYS):
        runtime = BlockWrites()
        code = _case(Target(BARE_FREE, runtime), key)
        size = decode(_bytes(key), 0).length
        k, text, steps, pc_at, t_add, sets_q = KIND_INTERPRETED, [], 0, 0, -1, 0
        if code is not None and not (any(isinstance(x, Exit) for x in code.body)
                                     or set().union(*_names(code.lines)) & INTERPRETED_NAMES):
            dialect = Folded(_prefix(key))
            folded = _case(Target(BARE_FREE, dialect), key)
            assert folded is not None
            done = resolve(folded.body)
            if done is None:  # PC as the interpreter has it after the prefix bytes
                k, text, steps, pc_at = KIND_ENDER, code.lines, _prefix(key), _prefix(key)
            else:
                if dialect.offset != size:
                    raise templates.TemplateError(f"block key {key}: {dialect.offset} bytes, "
                                                  f"not {size}")
                body, extra = done
                text = [*body, *Code([], folded.t_after, folded.sets_q).lines]
                steps = _prefix(key) + extra
                if "pc" in set().union(*_names(text)):  # PC read after all the operands
                    k, pc_at = KIND_ENDER, size
                else:
                    k = KIND_FOLDED
                    if _counts_apart(body, folded):
                        text, t_add, sets_q = body, folded.t_after, int(folded.sets_q)
        cells = _check_names(key, text) if k != KIND_INTERPRETED else []
        names = set().union(*_names(text))
        for name, value in (("KIND", k), ("LENGTH", size), ("TMAX", _tmax(key)),
                            ("R_STEPS", steps), ("PC_AT", pc_at), ("T_ADD", t_add),
                            ("SETS_Q", sets_q),
                            ("WRITES", 1 if k != KIND_INTERPRETED and runtime.writes else 0),
                            ("USES_R", 1 if {"r", "r7"} & names else 0),
                            ("ASSIGNS", tuple(cells)), ("TEXT", "\n".join(text))):
            columns[name].append(value)
    enter = [
        "def make_enter():",
        '    """A new engine\'s ``enter``: its closure\'s cells are the ones every block of',
        '    that engine shares (``CELLS``)."""',
        f"    {' = '.join(CELLS)} = 0",
        "",
        "    def enter():",
        '        """Load the cells from ``st``, run blocks until one returns a code, store',
        '        them back; return the code."""',
        f"        nonlocal {', '.join(CELLS)}",
        *indent([*load_lines(BARE_FREE), *entry_lines(),
                 "while True:", "    code = BLOCKS[pc]()", "    if code:", "        break",
                 *exit_lines(), *store_lines(BARE_FREE), "return code"], 2),
        "",
        "    return enter",
    ]
    what = ("The CPython block engine's pieces (zxmonopoly.z80.blocks): per key, what each "
            "instruction is to a\ntranslated block and its code; make_enter, the loop that "
            "runs the blocks.")
    # (R's and the displacements' tables are the interpreter's, _engine_py's: not made twice.)
    src = [HEADER.format(sources="isa.py, templates.py and machine_cycles.py", what=what), "",
           f"CELLS = {CELLS!r}", f"R_RANGE = {R_RANGE}"]
    for name, values in columns.items():
        src += _listing(name, values, 1 if name in ("ASSIGNS", "TEXT") else 32)
    return "\n".join([*src, "", "", *enter, ""])


def _listing(name: str, items: list, per_line: int) -> list[str]:
    """``name = [...]`` with ``per_line`` items a line (a key's own line when 1)."""
    rows = [", ".join(repr(x) for x in items[k:k + per_line]) + ","
            for k in range(0, len(items), per_line)]
    if per_line == 1:
        rows = [f"{row}  # {k}" for k, row in enumerate(rows)]
    return [f"{name} = [", *("    " + row for row in rows), "]"]
