"""The Z80 engine generator, by job (``tools/gen_z80.py`` is its command).

From the one description in ``src/zxmonopoly/z80`` (``isa.py``: the opcode tables;
``templates.py``: the code of each instruction; ``machine_cycles.py``: its machine cycles,
the one description of its timing) and a machine's (``spectrum/ula.py``) it writes the
execution loops:

* :mod:`.variant`: what an engine is for (a bare CPU or a machine; the test variants);
* :mod:`.dispatch`: the dispatch trees and chains over the opcodes, weighted by the measured
  opcode profile, with each case's comment;
* :mod:`.cycles`: T-states and contention from the instructions' machine cycles (the walk,
  the fast path, the JIT's cycle table, the HALT passes) and :class:`~.cycles.Target`, one
  engine while it is generated, with the cycle table its leaves fill;
* :mod:`.leaves`: each table's cases, an instruction's leaf finished for its engine
  (:class:`~.leaves.Code`: its lines, and as values the T-states added after them and
  whether it marks Q);
* :mod:`.shell`: the parts of the run function round the dispatch (state in and out, the
  interrupt, breakpoints and watches, the exits);
* :mod:`.analysis`: the names a block of generated code reads and sets, asked of Python's
  parser;
* :mod:`.emit_python`, :mod:`.emit_numba` and :mod:`.emit_blocks`: the emitters, each with
  its :class:`~zxmonopoly.z80.templates.Dialect` (how it spells a memory read, a write, a
  step of PC or R, a signed byte) and its loop and module.

No emitter reads a line it made, nor rewrites one: templates and pieces call the dialect's
helpers; the places an engine fills with its own code are markers
(``templates.Marker``: an exit, a port's devices, the cycle walk, the T-states), found by
their class; what the generator must know of an instruction (its T-states and Q, whether it
writes) comes back as values; and what code reads and sets it asks of :mod:`ast`
(:mod:`.analysis`), never of a line's text.
"""
