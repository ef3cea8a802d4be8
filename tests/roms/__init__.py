"""Tests of our 48K ROM (roms/): boot, keyboard, screen, editor, BASIC, reports, tape."""
