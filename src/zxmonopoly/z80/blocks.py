"""The CPython block engine: the bare CPU's runs with no breakpoint set, block by block.

The interpreter (``_engine_py.run_free``) fetches and dispatches every instruction through a
tree of tests. This engine translates each straight run of the program the first time PC
reaches it (up to and including a jump, call, return or repeating block instruction) into a
Python function made of the same leaves (``_blocks_py``, generated from the one description),
with the opcodes decided, the operand bytes constants and PC, R and T counted once: a call
of that function runs the whole run. Blocks share the registers through the cells of one
closure (``_blocks_py.make_enter``), so a block costs one call, not an exchange of the state.

Exactly the interpreter's results, T-state for T-state:

* a block runs only when all of it fits before ``until`` (the sum of its instructions' most
  T-states but the last's); else the interpreter runs the rest of the run;
* a run the interrupt line is up for, a halted CPU, and the instructions the blocks leave out
  (port access, HALT, EI, LD A,I and LD A,R, a prefix that changes nothing) run on the
  interpreter, for at most ``INTERPRETED_SLICE`` T-states before the blocks resume;
* a write over translated code (the program's own, noted in ``SMC``) stops the block after
  that instruction, and its translations are dropped; memory changed between runs (by the
  host, or by the interpreter) is found by comparing the translated bytes with a copy before
  blocks run again (at the start of a run, after an interpreted slice), and dropped the same
  way. A block dropped ``RETRANSLATIONS`` times runs on the interpreter from then on (code
  that rewrites itself as it runs would be compiled again and again).

Limits, so that no guest program grows the host's memory without bound: a block has at most
``MAX_INSTRUCTIONS`` instructions and ``MAX_LINES`` lines; a CPU keeps at most ``MAX_BLOCKS``
blocks (then it drops them all and translates afresh); a process keeps at most ``_MADE_MAX``
compiled blocks for reuse.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from . import _blocks_py as B
from . import _engine_py as I
from . import state as S

#: Most instructions in one block (a long straight run is split: the fit test then drops
#: to the interpreter less often near ``until``).
MAX_INSTRUCTIONS = 48
#: ... and most lines of source (a run of DDCB operations, 60 lines each, ends sooner).
MAX_LINES = 400
#: Most blocks one CPU keeps: past it every translation is dropped and made again as the
#: program runs (a program that jumps into every address cannot grow the host's memory
#: without bound: a block's code is 2-20 KB).
MAX_BLOCKS = 4096
#: T-states the interpreter runs at a time for code the blocks leave to it.
INTERPRETED_SLICE = 2000
#: A run shorter than this goes to the interpreter whole (a ``step``: no block would fit).
SHORT_RUN = 64
#: Translations of one address before it is left to the interpreter for good.
RETRANSLATIONS = 4

_TRANSLATE, _LIMIT, _SMC, _INTERPRET = 2, 1, 3, 4
_GLOBALS = {"S": S, "__builtins__": __builtins__}
#: Compiled blocks by address and the bytes from there (``translated``).
_MADE: dict[tuple[int, bytes], tuple[types.CodeType, int] | None] = {}


def _untranslated() -> int:
    """What an address runs before it is translated: ask for it."""
    return _TRANSLATE


def _interpreted() -> int:
    """What an address left to the interpreter runs."""
    return _INTERPRET


def key_at(mem: Any, addr: int) -> int:
    """The key of ``_blocks_py``'s tables for the instruction at ``addr``."""
    op = mem[addr]
    if op == 0xCB:
        return 256 + mem[(addr + 1) & 0xFFFF]
    if op == 0xED:
        return 512 + mem[(addr + 1) & 0xFFFF]
    if op == 0xDD:
        return 768 + mem[(addr + 1) & 0xFFFF]
    if op == 0xFD:
        return 1024 + mem[(addr + 1) & 0xFFFF]
    return op


def block_source(mem: Any, start: int) -> tuple[str, int] | None:
    """The source of the block at ``start`` and its length in bytes; None when its first
    instruction is one the interpreter runs.

    The operand bytes are constants: the block is dropped before it runs again if any of
    its bytes changes. R is counted once, where the block leaves or before an instruction
    that reads or sets it; T too, across each run of instructions that only add their
    T-states (``_blocks_py.T_ADD``), Q then set if the last of them changed the flags.
    """
    lines: list[str] = []
    assigned = {"pc", "r", "t", "qt"}  # (T and Q set by the block, not by the lines)
    addr, count, fit, last_t = start, 0, 0, 0
    r_pending = t_pending = 0
    q_pending = False
    ended = False

    def flush(level: int, pc: int | None) -> list[str]:
        """PC set (if given), R, T and Q brought up to date, indented ``level`` levels."""
        pad = "    " * level
        out = [f"{pad}pc = {pc:#06x}"] if pc is not None else []
        if r_pending:
            out.append(f"{pad}r = (r + {r_pending}) & {B.R_RANGE - 1}")
        if t_pending:
            out.append(f"{pad}t += {t_pending}")
            if q_pending:
                out.append(f"{pad}qt = t")
        return out

    while count < MAX_INSTRUCTIONS and len(lines) < MAX_LINES:
        key = key_at(mem, addr)
        kind = B.KIND[key]
        if kind == 0:
            break
        size = B.LENGTH[key]
        fit += last_t
        last_t = B.TMAX[key]
        count += 1
        assigned.update(B.ASSIGNS[key])
        fields = {f"p{k}": f"{mem[(addr + k) & 0xFFFF]:#04x}" for k in range(1, 4)}
        text = B.TEXT[key].format(**fields) if B.TEXT[key] else ""
        if kind == 1:
            if B.T_ADD[key] < 0:  # its own lines count T and Q: bring them up to date first
                lines += flush(0, None)
                r_pending = t_pending = 0
                q_pending = False
            r_pending += B.R_STEPS[key]
            if B.USES_R[key]:  # R counted up to and with this instruction first
                lines.append(f"r = (r + {r_pending}) & {B.R_RANGE - 1}")
                r_pending = 0
            lines += text.split("\n") if text else []
            if B.T_ADD[key] >= 0:
                t_pending += B.T_ADD[key]
                q_pending = bool(B.SETS_Q[key])
            addr = (addr + size) & 0xFFFF
            if B.WRITES[key]:
                lines += ["if SMC:", *flush(1, addr), f"    return {_SMC}"]
            continue
        # An ender: T, Q and R as its lines expect them, PC where it reads it.
        r_pending += B.R_STEPS[key]
        lines += flush(0, (addr + B.PC_AT[key]) & 0xFFFF)
        r_pending = 0
        lines += text.split("\n")
        if B.WRITES[key]:
            lines += ["if SMC:", f"    return {_SMC}"]
        addr = (addr + size) & 0xFFFF
        ended = True
        break
    if count == 0:
        return None
    if not ended:
        lines += flush(0, addr)
    body = [f"if t + {fit} >= until:", f"    return {_LIMIT}", *lines, "return 0"]
    src = ["def _outer():", f"    {' = '.join(B.CELLS)} = 0", "",
           f"    def block_{start:04x}():", f"        nonlocal {', '.join(sorted(assigned))}",
           *("        " + x for x in body), f"    return block_{start:04x}"]
    return "\n".join(src), (addr - start) & 0xFFFF or 0x10000


#: Longest instruction: a window of MAX_INSTRUCTIONS of them holds any block's bytes.
_WINDOW = MAX_INSTRUCTIONS * 4
#: Most blocks kept in ``_MADE`` (then it starts again): 2-5 KB each, 40 MB at most.
_MADE_MAX = 8192


def translated(mem: Any, start: int) -> tuple[types.CodeType, int] | None:
    """The code of the block at ``start`` and its length in bytes (None: the interpreter's);
    made once a process for each address and the bytes from there (a new CPU on the same
    program, a test after another, translates nothing again)."""
    key = (start, bytes(mem[start:start + _WINDOW])) if start + _WINDOW <= 0x10000 else None
    if key is not None and key in _MADE:
        return _MADE[key]
    made = block_source(mem, start)
    result = None
    if made is not None:
        src, size = made
        outer = compile(src, f"<z80 block {start:04X}>", "exec")
        factory = next(c for c in outer.co_consts if isinstance(c, types.CodeType))
        result = next(c for c in factory.co_consts if isinstance(c, types.CodeType)), size
    if key is not None:
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        _MADE[key] = result
    return result


class BlockEngine:
    """One CPU's translations and the closure they share; ``run`` is ``run_free``'s twin."""

    def __init__(self, interpreter: Callable[..., int]) -> None:
        self.interpreter = interpreter
        self.enter = B.make_enter()
        self.cells = dict(zip(self.enter.__code__.co_freevars, self.enter.__closure__ or (),
                              strict=True))
        self.blocks: list[Callable[[], int]] = [_untranslated] * 0x10000
        self.code = [0] * 0x10000  # how many blocks were translated from each byte
        self.smc: list[int] = []
        self.shadow = bytearray(0x10000)  # the bytes as they were translated
        self.spans: dict[int, int] = {}  # block start -> length in bytes
        self.covering: dict[int, list[int]] = {}  # byte -> starts of the blocks over it
        self.translations: dict[int, int] = {}
        self.ranges: list[tuple[int, int]] = []
        self.ranges_stale = False
        for name, value in (("BLOCKS", self.blocks), ("CODE", self.code), ("SMC", self.smc),
                            ("R_INC1", I._R_INC1), ("R_INC2", I._R_INC2),
                            ("SIGNED", I._SIGNED)):
            self.cells[name].cell_contents = value
        self.mem: Any = None
        #: Runs shorter than this go to the interpreter whole (tests set 0: every run here).
        self.short_run = SHORT_RUN

    def run(self, st: list[int], mem: Any, bp: Any, until: int, SZ53: Any, SZ53P: Any,  # noqa: N803
            ADC_F: Any, SBC_F: Any, CP_F: Any, INC_F: Any, DEC_F: Any) -> int:  # noqa: N803
        """Run while T < ``until``, as ``run_free`` does; return the exit reason."""
        if st[S.T] < st[S.INT_END] or st[S.HALTED] or until - st[S.T] < self.short_run:
            # (What the interpreter writes over blocks is found by the next run's check.)
            # The tables by name, not packed: a step costs no tuple.
            return self.interpreter(st, mem, bp, until, SZ53, SZ53P, ADC_F, SBC_F, CP_F,
                                    INC_F, DEC_F)
        tables = (SZ53, SZ53P, ADC_F, SBC_F, CP_F, INC_F, DEC_F)
        if mem is not self.mem:
            self._bind(mem, tables)
        cells = self.cells
        cells["until"].cell_contents = until
        cells["st"].cell_contents = st
        cells["bp"].cell_contents = bp
        self._check(mem)
        while True:
            code = self.enter()
            if code == _LIMIT:
                if st[S.T] >= until:
                    return S.EXIT_LIMIT
                return self.interpreter(st, mem, bp, until, *tables)
            if code == _TRANSLATE:
                self._translate(mem, st[S.PC])
            elif code == _SMC:
                self._drop(list(self.smc))
                self.smc.clear()
            else:  # _INTERPRET
                t = st[S.T]
                reason = self.interpreter(st, mem, bp, min(until, t + INTERPRETED_SLICE),
                                          *tables)
                if reason != S.EXIT_LIMIT or st[S.T] >= until:
                    return reason
                self._check(mem)  # what the interpreter wrote over blocks, before they run

    def _bind(self, mem: Any, tables: tuple[Any, ...]) -> None:
        """A new memory: forget every translation, and bind the run's arrays."""
        if self.mem is not None:
            self._drop(sorted(self.covering))
        self.mem = mem
        cells = self.cells
        cells["mem"].cell_contents = mem
        for name, table in zip(("SZ53", "SZ53P", "ADC_F", "SBC_F", "CP_F", "INC_F", "DEC_F"),
                               tables, strict=True):
            cells[name].cell_contents = table

    def _translate(self, mem: Any, start: int) -> None:
        """Translate the block at ``start`` (or leave it to the interpreter)."""
        if len(self.spans) >= MAX_BLOCKS:
            self._drop(sorted(self.covering))
            self.translations.clear()
        made = None
        if self.translations.get(start, 0) < RETRANSLATIONS:
            made = translated(mem, start)
        if made is None:
            self.blocks[start] = _interpreted
            return
        code, size = made
        self.translations[start] = self.translations.get(start, 0) + 1
        closure = tuple(self.cells[name] for name in code.co_freevars)
        self.blocks[start] = types.FunctionType(code, _GLOBALS, code.co_name, None, closure)
        self.spans[start] = size
        for k in range(size):
            a = (start + k) & 0xFFFF
            self.code[a] += 1
            self.shadow[a] = mem[a]
            self.covering.setdefault(a, []).append(start)
        self.ranges_stale = True

    def _drop(self, addresses: list[int]) -> None:
        """Drop every block translated from any of ``addresses``."""
        for a in addresses:
            for start in list(self.covering.get(a, ())):
                size = self.spans.pop(start, None)
                if size is None:
                    continue
                self.blocks[start] = _untranslated
                for k in range(size):
                    b = (start + k) & 0xFFFF
                    self.code[b] -= 1
                    owners = self.covering[b]
                    owners.remove(start)
                    if not owners:
                        del self.covering[b]
        self.ranges_stale = True

    def _check(self, mem: Any) -> None:
        """Drop the blocks whose bytes differ from those they were translated from."""
        if self.ranges_stale:
            self.ranges = _merge(sorted(self.covering))
            self.ranges_stale = False
        changed: list[int] = []
        shadow = self.shadow
        for lo, hi in self.ranges:
            if mem[lo:hi] != shadow[lo:hi]:
                changed += [a for a in range(lo, hi) if mem[a] != shadow[a]]
        if changed:
            self._drop(changed)


def _merge(addresses: list[int]) -> list[tuple[int, int]]:
    """Sorted addresses as (first, past the last) runs."""
    out: list[tuple[int, int]] = []
    for a in addresses:
        if out and out[-1][1] == a:
            out[-1] = (out[-1][0], a + 1)
        else:
            out.append((a, a + 1))
    return out
