"""The harness's one exception and the screen its messages show, apart so that every harness
module can use them without importing the session."""

from __future__ import annotations


class HarnessError(AssertionError):
    """A wait or expectation that failed; the message shows what was awaited and the screen."""


def format_screen(lines: list[str]) -> str:
    """The 24 screen lines in a numbered frame, for failure messages."""
    out = ["    +" + "-" * 32 + "+"]
    out += [f" {n:2d} |{line}|" for n, line in enumerate(lines)]
    out.append("    +" + "-" * 32 + "+")
    return "\n".join(out)
