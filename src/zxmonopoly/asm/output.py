"""Output writers: raw binary, JSON symbol map, listing, and a tape with a BASIC loader."""

from __future__ import annotations

import json

from .. import basic
from ..memory_map import DISPLAY_FILE, SCREEN_SIZE
from ..tape import tap
from .assembler import Program
from .errors import AssemblerError
from .lexer import shown

#: Lowest code address a BASIC loader can CLEAR below. The loader (36 bytes), its variables,
#: the edit line and the workspace sit from PROG (23755) to about 23800; CLEAR refuses a RAMTOP
#: within 50 bytes of STKEND (report M), and LOAD needs workspace and machine stack between
#: them. 0x5E00 (24064) leaves a margin of some 200 bytes.
LOWEST_LOADED_CODE = 0x5E00
LOADER_LINE = 10
_BYTES_PER_LINE = 4


class OutputError(AssemblerError, ValueError):
    """An output that cannot be made from the program (e.g. a loader for code at 0x4000; a
    ValueError too, as the tape's own checks are)."""


def symbols_json(program: Program) -> str:
    """The symbol map as JSON text: name -> {value, file, line}, one symbol a line, sorted."""
    items = [f"{json.dumps(name)}: {json.dumps(entry, sort_keys=True)}"
             for name, entry in program.symbol_map().items()]
    if not items:
        return "{}\n"
    return "{\n " + ",\n ".join(items) + "\n}\n"


def listing_text(program: Program) -> str:
    """The listing: line number, address, bytes (4 a line) and source text of every line."""
    out: list[str] = []
    current_file = None
    for entry in program.listing:
        st = entry.stmt
        if st.file != current_file:
            current_file = st.file
            out.append(f"; {st.file}")
        mark = "+" if st.origin else " "
        addr = f"{entry.address:04X}" if entry.address is not None else "    "
        data = entry.data
        first = data[:_BYTES_PER_LINE]
        col = entry.note or " ".join(f"{b:02X}" for b in first)
        out.append(f"{st.line:5d}{mark} {addr}  {col:<12} {st.text}".rstrip())
        rest = data[_BYTES_PER_LINE:]
        if not rest or entry.address is None:
            continue
        if entry.abbreviate:
            a = entry.address + _BYTES_PER_LINE
            out.append(f"{'':6} {a & 0xFFFF:04X}  ... {len(rest)} more bytes")
            continue
        for k in range(0, len(rest), _BYTES_PER_LINE):
            a = entry.address + _BYTES_PER_LINE + k
            chunk = " ".join(f"{b:02X}" for b in rest[k:k + _BYTES_PER_LINE])
            out.append(f"{'':6} {a & 0xFFFF:04X}  {chunk}")
    return "\n".join(out) + "\n"


def loader_program(start: int, entry: int, screen: bool = False) -> tuple[str, bytes]:
    """The listing and the tokenised program of the loader for code at ``start`` (after a
    loading screen when ``screen``)."""
    if start < LOWEST_LOADED_CODE:
        raise OutputError(f"code at ${start:04X} is too low for a BASIC loader: "
                          f"it must start at ${LOWEST_LOADED_CODE:04X} or above")
    listing = basic.loader_listing(start - 1, entry, LOADER_LINE, screen)
    return listing, basic.tokenise(listing)


def tape_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a tape header's file name (1-10 Latin-1 characters), or None."""
    if not 1 <= len(name) <= tap.NAME_LENGTH:
        return (f"tape name {shown(name, 40)!r} must be 1 to {tap.NAME_LENGTH} characters, "
                f"not {len(name)}")
    bad = next((c for c in name if ord(c) > 0xFF), None)
    if bad is not None:
        return (f"tape name {name!r}: {bad!r} (U+{ord(bad):04X}) is not a Latin-1 character "
                "(a tape header holds one byte per character)")
    return None


def default_tape_name(stem: str) -> str:
    """A tape name from a file's stem: its first 10 characters, non-Latin-1 ones as '?'."""
    return "".join(c if ord(c) <= 0xFF else "?" for c in stem[:tap.NAME_LENGTH]) or "code"


def tape_blocks(program: Program, name: str, entry: int | None = None,
                screen: bytes | None = None) -> list[tap.TapBlock]:
    """A standard tape: BASIC loader (auto-runs line 10), the loading screen if given (a
    SCREEN$, 6912 bytes, loaded by ``LOAD ""SCREEN$``), and the CODE block it loads and runs.

    The CODE block holds everything from the lowest to the highest address the program
    fills (gaps as zeros); ``entry`` defaults to END's operand, else the first address.
    """
    if screen is not None and len(screen) != SCREEN_SIZE:
        raise OutputError(f"a loading screen is {SCREEN_SIZE} bytes, not {len(screen)}")
    problem = tape_name_problem(name)
    if problem is not None:
        raise OutputError(problem)
    start = program.start
    if start is None:
        raise OutputError("the program emits no bytes: nothing to put on tape")
    if entry is None:
        entry = program.entry if program.entry is not None else start
    if not 0 <= entry <= 0xFFFF:
        raise OutputError(f"entry address {entry} is outside 0..$FFFF")
    _, loader = loader_program(start, entry, screen is not None)
    picture = [] if screen is None else tap.code_blocks(name, DISPLAY_FILE, screen)
    return (tap.program_blocks(name, loader, autostart=LOADER_LINE) + picture
            + tap.code_blocks(name, start, program.binary()))


def tape_image(program: Program, name: str, entry: int | None = None,
               screen: bytes | None = None) -> bytes:
    """The TAP file of :func:`tape_blocks`."""
    return tap.write_tap(tape_blocks(program, name, entry, screen))
