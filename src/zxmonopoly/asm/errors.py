"""Diagnostics: ``file:line:col: error: message``, the source line and a caret under the column;
the package's exceptions, from its root :class:`AssemblerError`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning at a position in a source file (line and column count from 1)."""

    file: str
    line: int
    col: int
    message: str
    source: str = ""
    severity: str = "error"

    def format(self) -> str:
        """The diagnostic as printed: heading line, then the source line and a caret."""
        head = f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"
        if not self.source:
            return head
        # Keep tabs in the caret line so the caret lands under the column in any tab setting.
        prefix = "".join(c if c == "\t" else " " for c in self.source[: self.col - 1])
        return f"{head}\n{self.source}\n{prefix}^"


class AssemblerError(Exception):
    """The assembler package's exception root (AsmError, BuildError, OutputError, and LexError
    and ExprError inside a run, which become diagnostics), so a caller catches this one."""


class AsmError(AssemblerError):
    """Assembly failed; carries every diagnostic of the run (errors and warnings)."""

    def __init__(self, diagnostics: list[Diagnostic], dropped: int = 0) -> None:
        text = "\n".join(d.format() for d in diagnostics)
        if dropped:
            text += f"\n... and {dropped:,} more error{'s' if dropped != 1 else ''} not shown"
        super().__init__(text)
        self.diagnostics = diagnostics
        self.dropped = dropped  # errors past the first MAX_ERRORS: counted, not kept

    @property
    def errors(self) -> list[Diagnostic]:
        """Only the errors."""
        return [d for d in self.diagnostics if d.severity == "error"]
