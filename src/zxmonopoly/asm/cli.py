"""``zxmonopoly asm``: assemble a source into a binary, and optionally a symbol map, a listing
and a tape with a BASIC loader. ``main(argv)`` is the testable entry; tools/asm.py wraps it."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from .assembler import Assembler, Program
from .errors import AsmError, AssemblerError, Diagnostic
from .expr import ExprError, Undefined, evaluate, parse
from .lexer import LexError, lex
from .output import (
    default_tape_name,
    listing_text,
    symbols_json,
    tape_image,
    tape_name_problem,
)
from .source import RESERVED


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``asm`` (shared by ``zxmonopoly asm`` and tools/asm.py)."""
    parser.add_argument("source", type=Path, metavar="SOURCE", help="main source file (.asm)")
    parser.add_argument("-o", "--output", type=Path, metavar="OUT.bin",
                        help="raw binary, lowest to highest address filled "
                             "(default: SOURCE with .bin)")
    parser.add_argument("--sym", type=Path, metavar="FILE",
                        help="symbol map (JSON: name -> value, file, line)")
    parser.add_argument("--lst", type=Path, metavar="FILE", help="listing")
    parser.add_argument("--tap", type=Path, metavar="FILE",
                        help="tape: BASIC loader (LOAD \"\") plus the code")
    parser.add_argument("--name", metavar="NAME",
                        help="tape file name, up to 10 characters (default: SOURCE's stem)")
    parser.add_argument("--entry", metavar="EXPR",
                        help="address the loader runs: a label or a number (default: END's "
                             "operand, else the first address of the code)")
    parser.add_argument("-I", "--include", type=Path, action="append", default=[],
                        metavar="DIR", help="also look for INCLUDE/INCBIN files in DIR")
    parser.add_argument("-D", "--define", action="append", default=[], metavar="NAME[=VALUE]",
                        help="predefine a constant (VALUE defaults to 1)")


def add_asm_subcommand(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``asm`` on the ``zxmonopoly`` command's subparsers (handler: ``run``)."""
    parser = subparsers.add_parser(
        "asm", help="assemble Z80 source into a binary, symbol map, listing or tape",
        description="Assemble Z80 source (language: docs/assembler.md). Every error is "
                    "reported as file:line:col; the exit status is 1 if there was one.")
    add_arguments(parser)
    parser.set_defaults(handler=run)
    return parser


class OptionError(AssemblerError, ValueError):
    """A command-line value the assembler cannot take (-D, --entry; a ValueError too)."""


def _defines(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        name, _, text = item.partition("=")
        if not _is_symbol_name(name):  # it could never be used: say so rather than ignore it
            raise OptionError(f"'{name}' cannot name a symbol: a letter, _ . or @ first, then "
                             "letters, digits, _ . ? @; not a reserved word")
        out[name] = _number(text) if text else 1
    return out


def _is_symbol_name(name: str) -> bool:
    """Whether ``name`` is one name the assembler's sources can use (not a reserved word)."""
    try:
        tokens = lex(name)
    except LexError:
        return False
    return (len(tokens) == 1 and tokens[0].kind == "id" and tokens[0].value == name
            and name.upper() not in RESERVED)


def _number(text: str) -> int:
    try:
        node = parse(lex(text))
    except (LexError, ExprError) as exc:
        raise OptionError(f"bad value '{text}': {exc}") from None
    if not isinstance(node, int):
        raise OptionError(f"'{text}' is not a constant")
    return node


class _Symbols:
    pc = 0

    def __init__(self, program: Program) -> None:
        self.program = program

    def value(self, name: str, col: int) -> int:
        sym = self.program.symbols.get(name)
        if sym is None:
            raise Undefined(col, name)
        return sym.value


def resolve_entry(program: Program, text: str) -> int:
    """The value of ``--entry``: an expression over the program's symbols."""
    try:
        return evaluate(parse(lex(text)), _Symbols(program))
    except (LexError, ExprError) as exc:
        raise OptionError(f"--entry {text}: {exc}") from None


def _report(diags: list[Diagnostic], err: TextIO, dropped: int = 0) -> None:
    for d in diags:
        print(d.format(), file=err)
    if dropped:
        print(f"... and {dropped:,} more error{'s' if dropped != 1 else ''} not shown "
              "(only the first 100 are)", file=err)
    errors = sum(d.severity == "error" for d in diags) + dropped
    warnings = len(diags) - errors + dropped
    if errors:
        print(f"{errors:,} error{'s' if errors != 1 else ''}"
              + (f", {warnings:,} warning{'s' if warnings != 1 else ''}" if warnings else ""),
              file=err)


def _outputs_problem(asm: Assembler, outputs: list[tuple[str, Path | None]]) -> str | None:
    """Why the outputs cannot be written: one is a file the program was read from (it would be
    overwritten: ``-o x.asm``), or two options name the same file; None when they can."""
    read = {path.resolve() for path in (*asm.sources, *asm.binaries)}
    given: dict[Path, str] = {}
    for option, path in outputs:
        if path is None:
            continue
        key = path.resolve()
        if key in read:
            return f"{option} {path}: that is a file the program is read from; give another name"
        if key in given:
            return f"{option} {path}: {given[key]} names the same file"
        given[key] = option
    return None


def run(args: argparse.Namespace, err: TextIO | None = None) -> int:
    """Assemble as the parsed arguments say; returns the exit status."""
    err = err if err is not None else sys.stderr
    try:
        defines = _defines(args.define)
    except OptionError as exc:
        print(f"zxmonopoly asm: error: -D {exc}", file=err)
        return 2
    if args.name is not None:
        problem = tape_name_problem(args.name)
        if problem is not None:
            print(f"zxmonopoly asm: error: --name: {problem}", file=err)
            return 2
    asm = Assembler(include_dirs=args.include, defines=defines)
    try:
        program = asm.assemble_file(args.source)
    except AsmError as exc:
        _report(exc.diagnostics, err, exc.dropped)
        return 1
    except OSError as exc:
        print(f"zxmonopoly asm: error: {args.source}: {exc.strerror}", file=err)
        return 1
    _report(program.diagnostics, err)
    try:
        entry = resolve_entry(program, args.entry) if args.entry else None
        tape = None
        if args.tap is not None:
            name = args.name if args.name is not None else default_tape_name(args.source.stem)
            tape = tape_image(program, name, entry)
    except (AssemblerError, ValueError) as exc:  # (and the tape writer's own checks)
        print(f"zxmonopoly asm: error: {exc}", file=err)
        return 1
    output = args.output if args.output is not None else args.source.with_suffix(".bin")
    problem = _outputs_problem(asm, [("-o", output), ("--sym", args.sym), ("--lst", args.lst),
                                     ("--tap", args.tap)])
    if problem is not None:
        print(f"zxmonopoly asm: error: {problem}", file=err)
        return 2
    writes: list[tuple[Path, bytes | str]] = [(output, program.binary())]
    if args.sym is not None:
        writes.append((args.sym, symbols_json(program)))
    if args.lst is not None:
        writes.append((args.lst, listing_text(program)))
    if tape is not None:
        writes.append((args.tap, tape))
    # All or nothing: each output goes to a file beside it first, and only when every one is
    # written are they renamed into place (a full disk on the last must not leave the first
    # outputs new and the others old).
    # (A device or a pipe named as an output is written as it is, never replaced.)
    done: list[tuple[Path, Path]] = []
    for path, data in writes:
        special = path.exists() and not path.is_file()
        temp = path if special else path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            if isinstance(data, str):
                temp.write_text(data, encoding="utf-8")
            else:
                temp.write_bytes(data)
            if not special:
                done.append((temp, path))
        except OSError as exc:  # named here: a failed write (a full disk) has no filename
            if not special:
                temp.unlink(missing_ok=True)
            for written, _ in done:
                written.unlink(missing_ok=True)
            print(f"zxmonopoly asm: error: {path}: {exc.strerror or exc}", file=err)
            return 1
    for temp, path in done:
        os.replace(temp, path)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: ``asm SOURCE -o OUT.bin [--sym F] [--lst F] [--tap F --name NAME]``."""
    parser = argparse.ArgumentParser(prog="zxmonopoly asm",
                                     description="Assemble Z80 source (docs/assembler.md).")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
