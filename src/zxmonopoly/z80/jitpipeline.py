"""The numba pipeline the generated engines compile with: numba's own, less what they never need.

Measured on the Spectrum engine's main function (numba 0.68, a cold compile): of its 35 s,
numba's SSA reconstruction took 5.4 s and removing the phi nodes it made 2.3 s more, the
rewrite passes 4.7 s, and type inference and lowering were slowed by the extra variable
versions. The generated engines need neither: every local is an int64 (or a bool used only as
a condition, or a tuple unpacked at once), so a variable needs no second version to take a
second type, and they use no construct a rewrite serves (array expressions, closures,
``literally``, constant branches). Without them a cold `run --game --frames 2000 --engine jit`
took 34-35 s of wall time against 44-69 s, back to back on the same machine, and the engines
ran at the same speed (docs/z80.md, "The lean pipeline").

Non-SSA typing gives a variable the one type that unifies all its assignments; the generator
keeps each variable to one kind of value (tests/z80/test_generated.py) because numba 0.68
then stores a constant of another kind uncast (``ok = True`` beside ``ok = f & 0x40`` failed
LLVM's parser: an error at compile time, never wrong code).
"""

from __future__ import annotations

from typing import Any

from numba.core.compiler import Compiler, DefaultPassBuilder

#: The compiler flags the lean pipeline sets: no SSA reconstruction, no rewrite passes.
LEAN_OPTIONS = {"enable_ssa": False, "no_rewrites": True}


class LeanCompiler(Compiler):
    """numba's nopython pipeline without SSA reconstruction and without the rewrite passes."""

    def define_pipelines(self) -> list[Any]:
        """The one nopython pipeline, built with those passes switched off."""
        flags = self.state.flags
        # A numba without one of these options (renamed, gone) compiles as it would by
        # default rather than failing: slower to compile, the same code.
        for option, value in LEAN_OPTIONS.items():
            if hasattr(flags, option):
                setattr(flags, option, value)
        return [DefaultPassBuilder.define_nopython_pipeline(self.state)]
