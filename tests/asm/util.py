"""Helpers for the assembler tests."""

from __future__ import annotations

from pathlib import Path

from zxmonopoly.asm import AsmError, Assembler, Program


def program(text: str, base_dir: str | Path = ".", **options: object) -> Program:
    """Assemble source text (lines as written, so indent instructions)."""
    return Assembler(display_root=base_dir, **options).assemble_text(  # type: ignore[arg-type]
        text, "test.asm", base_dir)


def asm(text: str, org: int | None = None) -> bytes:
    """Bytes of source text; ``org`` prepends an ORG line."""
    if org is not None:
        text = f" org {org}\n{text}"
    return program(text).binary()


def errors(text: str) -> list[str]:
    """The 'line:col: message' of every error assembling ``text`` gives (none: empty list)."""
    try:
        program(text)
    except AsmError as exc:
        return [f"{d.line}:{d.col}: {d.message}" for d in exc.errors]
    return []


def messages(text: str) -> list[str]:
    """Only the messages of the errors."""
    return [e.split(": ", 1)[1] for e in errors(text)]
