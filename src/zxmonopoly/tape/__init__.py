"""Tape image formats (TAP); imports nothing of the emulator."""
