"""The z80 package's exception root, in a module of its own so that the CPU and the
instruction set's description both derive from it."""

from __future__ import annotations


class Z80Error(Exception):
    """A bad argument to the CPU (memory size, engine name); the root of the package's errors
    (TemplateError), so a caller catches this one."""
