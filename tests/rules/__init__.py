"""Tests of the rules model (zxmonopoly.rules): one test per rule, named after its number."""
