"""Output writers: symbol map, listing, and the tape with its BASIC loader."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from zxmonopoly import basic
from zxmonopoly.asm.output import (
    OutputError,
    listing_text,
    loader_program,
    symbols_json,
    tape_blocks,
    tape_image,
)
from zxmonopoly.tape import tap

from .util import program

GAME = """\
        org 8000h
start:  ld a,2
        call 1601h
        ret
msg:    db "hi"
"""


def test_loader_decodes_back_to_the_intended_listing() -> None:
    listing, loader = loader_program(0x8000, 0x8003)
    assert listing == '10 CLEAR 32767: LOAD ""CODE : RANDOMIZE USR 32771'
    assert basic.detokenise(loader) == listing


def test_tape_holds_loader_then_code() -> None:
    p = program(GAME)
    blocks = tap.read_tap(tape_image(p, "game"))
    assert [b.flag for b in blocks] == [0x00, 0xFF, 0x00, 0xFF]
    assert all(b.valid for b in blocks)
    prog_header = tap.Header.from_block(blocks[0])
    code_header = tap.Header.from_block(blocks[2])
    assert prog_header == tap.Header(tap.PROGRAM, "game      ", len(blocks[1].data), 10,
                                     len(blocks[1].data))
    assert code_header == tap.Header(tap.CODE, "game      ", 8, 0x8000, 0x8000)
    assert basic.detokenise(blocks[1].data) == \
        '10 CLEAR 32767: LOAD ""CODE : RANDOMIZE USR 32768'
    assert blocks[3].data == p.binary()


def test_entry_comes_from_end_or_the_argument() -> None:
    p = program(GAME + "        end msg\n")
    blocks = tape_blocks(p, "g")
    assert basic.detokenise(blocks[1].data).endswith("USR 32774")
    blocks = tape_blocks(p, "g", entry=0x8001)
    assert basic.detokenise(blocks[1].data).endswith("USR 32769")


@pytest.mark.parametrize(("src", "name", "message"), [
    (" org 4000h\n nop\n", "x", "code at $4000 is too low for a BASIC loader"),
    (" nop\n", "", "tape name '' must be 1 to 10 characters"),
    (" org 8000h\n nop\n", "elevenchars", "must be 1 to 10 characters"),
    ("x equ 1\n", "x", "the program emits no bytes"),
])
def test_tape_errors(src: str, name: str, message: str) -> None:
    with pytest.raises(OutputError, match=message.replace("$", r"\$")):
        tape_image(program(src), name)


def test_symbol_map() -> None:
    data = json.loads(symbols_json(program(GAME)))
    assert data == {
        "start": {"value": 0x8000, "file": "test.asm", "line": 2},
        "msg": {"value": 0x8006, "file": "test.asm", "line": 5},
    }
    assert list(data) == sorted(data)


def test_listing() -> None:
    text = listing_text(program(GAME + "        ds 10,1\nK equ 5\n"))
    assert text.splitlines() == [
        "; test.asm",
        "    1  8000                       org 8000h",
        "    2  8000  3E 02        start:  ld a,2",
        "    3  8002  CD 01 16             call 1601h",
        "    4  8005  C9                   ret",
        '    5  8006  68 69        msg:    db "hi"',
        "    6  8008  01 01 01 01          ds 10,1",
        "       800C  ... 6 more bytes",
        "    7        = $0005      K equ 5",
    ]


@pytest.mark.skipif(shutil.which("tzxlist") is None,
                    reason="tzxlist is not installed (Debian fuse-emulator-utils; .ci/run does it)")
def test_tzxlist_accepts_the_tape(tmp_path: Path) -> None:
    path = tmp_path / "game.tap"
    path.write_bytes(tape_image(program(GAME), "game"))
    out = subprocess.run(["tzxlist", str(path)], capture_output=True, text=True,
                         check=True).stdout
    assert out.count("Checksum") == out.count("(PASS)") == 4
    assert 'Program: "game      " LINE 10' in out
    assert 'Bytes: "game      " CODE  32768, 8' in out
