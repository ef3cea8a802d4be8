"""Fuzzing the assembler: random and mutated sources assemble or raise AsmError, nothing else.

Sources are drawn from fragments of real syntax (instructions, directives, expressions, macros,
REPT, IF, includes) joined and mutated at the byte level. Short runs in the default suite, long
ones under ``-m slow`` (tests/fuzz.py).
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz import fuzz_test, mutated
from zxmonopoly.asm import AsmError, assemble, cli

FRAGMENTS = [
    " org 8000h", "start: ld a,(ix+5)", " ld hl,start+2*3", " jr start", " djnz $-2",
    " db 1,2,\"abc\",0", " dw start, $ffff", " ds 10,0xE5", " align 256", " rept 3",
    " endr", "m macro p", " ld a,p", " endm", " m 7", " if 1", " else", " endif",
    " ifdef start", "x equ 5*(3+4)", "y defl y+1", "y defl 0", " include \"none.asm\"",
    " incbin \"none.bin\"", " bit 7,(iy-128)", " im 2", " rst 38h", " out (c),a",
    " ld a,high(start) | low 0x1234", " ld a,x > 3 ? 1 : 2", " end start", ".loc: nop",
    " proc", " local q", "q: ret", " endp", " assert x == 35", " db 0x" + "F" * 9,
    " db " + "(" * 70 + "1" + ")" * 70, " ld a,'x'", " ex af,af'", " db %1010, 0FFh, #ff",
]
SEEDS = ["\n".join(FRAGMENTS).encode(), b" org 0\n rept 4\n rept 4\n nop\n endr\n endr\n"]

sources = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=40), max_size=25).map(
    lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass")) | mutated(SEEDS)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


@fuzz_test(sources)
def _source(data: bytes) -> None:
    try:
        program = assemble(_text(data), "fuzz.asm")
    except AsmError as exc:
        assert all(d.line >= 0 and d.col >= 1 for d in exc.diagnostics)
        assert len(exc.errors) <= 102  # the first 100, and the two "stopping" limits
        return
    program.binary()
    program.symbol_map()


test_sources_raise_only_asm_error, test_sources_long = _source


options = st.tuples(st.text(max_size=30), st.text(max_size=30), st.text(max_size=14))


@fuzz_test(options)
def _options(values: tuple[str, str, str]) -> None:
    define, entry, name = values
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "x.asm"
        source.write_text(" org 8000h\nstart: ret\n")
        parser = argparse.ArgumentParser()
        cli.add_arguments(parser)
        argv = [str(source), "-o", str(Path(tmp) / "x.bin"), "--tap", str(Path(tmp) / "x.tap"),
                f"-D={define}", f"--entry={entry}", f"--name={name}"]
        try:
            args = parser.parse_args(argv)
        except SystemExit:
            return
        err = io.StringIO()
        status = cli.run(args, err)
        assert status in (0, 1, 2)
        assert "Traceback" not in err.getvalue()


test_options_give_a_status, test_options_long = _options
