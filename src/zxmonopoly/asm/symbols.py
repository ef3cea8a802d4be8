"""Symbols: what a name is bound to, and where."""

from __future__ import annotations

from dataclasses import dataclass

# Symbol kinds.
LABEL = "label"  # an address, defined by a name in the label field
EQU = "equ"  # a constant
DEFL = "defl"  # a redefinable value (DEFL or =)

#: Character that marks a macro-local name (never produced by the lexer in a name).
MACRO_LOCAL_MARK = "~"


@dataclass(frozen=True)
class Symbol:
    """One symbol: value, kind, and the file and line that defined it."""

    name: str
    value: int
    kind: str
    file: str
    line: int

    def to_json(self) -> dict[str, object]:
        """The symbol map entry: value, file, line."""
        return {"value": self.value, "file": self.file, "line": self.line}


def is_public(name: str) -> bool:
    """Whether a name belongs in the symbol map (macro-local names do not)."""
    return MACRO_LOCAL_MARK not in name
