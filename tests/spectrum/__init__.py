"""Tests of zxmonopoly.spectrum."""
