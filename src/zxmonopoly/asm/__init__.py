"""The project's Z80 assembler: ``assemble_file``/``assemble`` give a :class:`Program`.

Modules: ``lexer`` (tokens), ``expr`` (expressions), ``source`` (statements), ``encoder``
(instructions, from the isa tables), ``directives`` (name -> handler), ``assembler`` (passes,
macros, includes), ``output`` (binary, symbols, listing, tape), ``cli`` and ``build``.
Language reference: docs/assembler.md.
"""

from __future__ import annotations

import os

from .assembler import Assembler, ListLine, Program, Store, assemble
from .errors import AsmError, AssemblerError, Diagnostic
from .symbols import Symbol


def assemble_file(path: str | os.PathLike[str], **options: object) -> Program:
    """Assemble a source file; raises AsmError listing every diagnostic on failure."""
    return Assembler(**options).assemble_file(path)  # type: ignore[arg-type]


__all__ = ["AsmError", "Assembler", "AssemblerError", "Diagnostic", "ListLine", "Program",
           "Store", "Symbol", "assemble", "assemble_file"]
