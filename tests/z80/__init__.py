"""Tests of the Z80 core."""
