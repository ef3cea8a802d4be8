"""The Z80 engine generator, by job (``tools/gen_z80.py`` is its command).

From the one description in ``src/zxmonopoly/z80`` (``isa.py``: the opcode tables;
``templates.py``: the code and the machine cycles of each instruction) and a machine's
(``spectrum/ula.py``) it writes the execution loops:

* :mod:`.variant`: what an engine is for (a bare CPU or a machine; the test variants);
* :mod:`.dispatch`: the dispatch trees and chains over the opcodes, weighted by the measured
  opcode profile, with each case's comment;
* :mod:`.cycles`: T-states and contention from the instructions' machine cycles (the walk,
  the fast path, the JIT's cycle table, the HALT passes) and :class:`~.cycles.Target`, one
  engine while it is generated, with the cycle table its leaves fill;
* :mod:`.leaves`: each table's cases, an instruction's leaf finished for its engine;
* :mod:`.shell`: the parts of the run function round the dispatch (state in and out, the
  interrupt, breakpoints and watches, the exits);
* :mod:`.emit_python` and :mod:`.emit_numba`: the two emitters, each with its
  :class:`~zxmonopoly.z80.templates.Dialect` (how it spells a memory read, a step of PC or
  R, a signed byte) and its loop and module.

No emitter rewrites a line once it is made: templates and pieces call the dialect's helpers.
"""
