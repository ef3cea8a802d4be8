"""The Z80 CPU: instruction set description, generated engines, disassembler."""

from .cpu import ENGINES, Z80, Z80Error, default_engine, jit_available

__all__ = ["ENGINES", "Z80", "Z80Error", "default_engine", "jit_available"]
