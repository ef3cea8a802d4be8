"""Tests of zxmonopoly.snapshot."""
