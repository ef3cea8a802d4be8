"""The spectrum package's exception root, in a module of its own so that every part of the
machine (the keyboard, the video, RZX play) derives from it without importing the machine."""

from __future__ import annotations


class SpectrumError(Exception):
    """A problem with the machine a user can fix: a missing or unreadable ROM, or one of the
    wrong size; the root of the package's errors (KeyboardError, PngError, RzxDesync), so a
    caller catches this one."""
