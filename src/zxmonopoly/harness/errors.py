"""The harness's exceptions (one root, :class:`HarnessError`) and the screen its messages
show, apart so that every harness module can use them without importing the session."""

from __future__ import annotations


class HarnessError(AssertionError):
    """A wait or expectation that failed; the message shows what was awaited and the screen.
    The root of the harness's errors (a script's, a word's, a position's, a symbol's, a
    watch's, an invariant's), so a caller catches this one."""


class SymbolError(HarnessError, KeyError):
    """A name that is not in a symbol map (a KeyError too: the map is a Mapping, whose ``in``
    and ``get`` take a KeyError for a name it lacks)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""  # not KeyError's quoted repr


class SymbolMapError(HarnessError, ValueError):
    """A file that is not a symbol map (bad JSON or UTF-8, entries without a number)."""


def format_screen(lines: list[str]) -> str:
    """The 24 screen lines in a numbered frame, for failure messages."""
    out = ["    +" + "-" * 32 + "+"]
    out += [f" {n:2d} |{line}|" for n, line in enumerate(lines)]
    out.append("    +" + "-" * 32 + "+")
    return "\n".join(out)
