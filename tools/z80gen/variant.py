"""What an engine is for (:class:`Variant`): a bare CPU or a machine, and the test variants."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zxmonopoly.spectrum import ula


@dataclass(frozen=True)
class Variant:
    """What an engine is for: a bare CPU, or a machine (contention and ports).

    ``machine`` is the machine's description (a module such as :mod:`zxmonopoly.spectrum.ula`):
    which memory is contended and by how much, the window of T-states where contention can
    fall, the I/O cycle, what IN reads and OUT does without a callback, the locals it keeps in
    the state array and the arrays its engines take. The generator knows only the Z80.
    """

    machine: Any = None
    trace: bool = False  # tests only: record each contention check instead of delaying
    table_walk: bool = False  # walk cycles from a table in one compiled function (JIT)
    always_walk: bool = False  # tests only: walk every instruction, never the fast path
    breakpoints: bool = True  # False: no breakpoint test after each instruction (none set)
    flat: bool = False  # dispatch by if/elif chains, not trees (the bare numba engine)
    halt_skip: bool = True  # False (tests only): each HALT pass goes round the loop
    port_function: bool = False  # IN's devices in one compiled function, not at every IN (JIT)
    #: A block instruction's passes (LDIR ... OTDR, repeating in place) walk their cycles
    #: inline, not through the table walker's call (JIT): a screen-wide LDIR in contended
    #: time walks every pass.
    inline_block_walk: bool = False
    #: ... and those without an I/O cycle (LDIR, LDDR, CPIR, CPDR) are timed by one lookup in
    #: a table of their passes from every T-state (cycles.PassTable), not walked (JIT).
    pass_tables: bool = False
    #: The DD opcodes the product runs (the profile's) in the main function, the rest in DD's
    #: own (JIT): a call and the exchange of every register through the state array cost
    #: more than most indexed instructions themselves. A machine walks their cycles where
    #: they are read (emit_numba.hot_inline).
    hot_dd_inline: bool = False


BARE = Variant()
BARE_FREE = Variant(breakpoints=False)
BARE_JIT = Variant(flat=True, hot_dd_inline=True)
MACHINE = Variant(machine=ula)
# (CB in the main function: with the lean pipeline its compile grew by nothing measurable,
# and a loop of RLC C / BIT 3,A went from 0.47x to 0.86x of CCMIOSimulator. DD's measured
# opcodes too: bench --machine 1.55x -> 1.65x of it, the cold compile 27.5 s -> 35.0 s.)
MACHINE_JIT = Variant(machine=ula, table_walk=True, port_function=True,
                      inline_block_walk=True, pass_tables=True, hot_dd_inline=True)
TRACED = Variant(machine=ula, trace=True)
REFERENCE = Variant(machine=ula, always_walk=True)

