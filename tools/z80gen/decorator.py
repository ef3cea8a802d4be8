"""The decorator of every generated numba function, and the import it needs."""

from __future__ import annotations

#: Cached on disk, no reference counting (the engines allocate nothing), and numba's pipeline
#: less the passes the generated code never needs (zxmonopoly.z80.jitpipeline: measured in
#: docs/z80.md, "The lean pipeline").
NJIT = "@njit(cache=True, _nrt=False, pipeline_class=LeanCompiler)"
#: The generated module's imports for :data:`NJIT`.
NJIT_IMPORTS = ["from numba import njit", "from zxmonopoly.z80.jitpipeline import LeanCompiler"]
