"""Tests of the assembler (zxmonopoly.asm)."""
