"""Tests of the tape formats (zxmonopoly.tape)."""
