"""The harness's one exception, apart so that every harness module can raise it."""

from __future__ import annotations


class HarnessError(AssertionError):
    """A wait or expectation that failed; the message shows what was awaited and the screen."""
