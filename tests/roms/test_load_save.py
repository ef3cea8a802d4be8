"""LOAD, VERIFY and SAVE: headers shown, names matched, programs auto-run, CODE placed, tapes
written (spectrum_facts 6.4-6.6). The tape routines themselves: test_tape_routines.py."""

from __future__ import annotations

import pytest

from zxmonopoly import basic
from zxmonopoly.asm import assemble
from zxmonopoly.asm.output import tape_blocks
from zxmonopoly.memory_map import ATTR_FILE, ATTR_FILE_SIZE, DISPLAY_FILE, DISPLAY_FILE_SIZE
from zxmonopoly.tape import read_tap, write_tap
from zxmonopoly.tape.tap import Header, TapBlock, code_blocks, program_blocks

from .romkit import (
    BREAK,
    press_enter,
    program,
    report_line,
    run_command,
    screen,
    type_basic,
    word,
)

MARKER = 0x9000


def demo_tape() -> bytes:
    """What `zxmonopoly asm --tap` makes: a BASIC loader (LINE 10) and a CODE block."""
    code = assemble(f"""
        org 0x8000
start:  ld a,0x42
        ld ({MARKER}),a
        ret
        ds 200, 0x5A
""", "<demo>")
    return write_tap(tape_blocks(code, "demo"))


def load(machine, tape: bytes, *parts: str, fast: bool = True, max_frames: int = 3000) -> None:
    machine.deck.insert(tape, "test.tap")
    machine.deck.set_fast(fast)
    machine.deck.play()
    type_basic(machine, *parts)
    assert press_enter(machine, max_frames=max_frames)


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "edges"])
def test_a_loader_tape_from_our_tools_loads_and_auto_runs(machine, fast):
    load(machine, demo_tape(), "LOAD", '""', fast=fast)
    assert machine.memory[MARKER] == 0x42
    assert report_line(machine) == "0 OK, 10:3"         # after RANDOMIZE USR in line 10
    assert screen(machine)[0] == "Bytes: demo"          # (CLEAR cleared "Program: demo")
    assert word(machine, 23730) == 0x8000 - 1            # CLEAR 32767 was run
    assert basic.detokenise(program(machine)) == \
        '10 CLEAR 32767: LOAD ""CODE : RANDOMIZE USR 32768'


def test_load_shows_each_header_and_skips_other_names(machine):
    tape = write_tap(code_blocks("other", 0x8000, b"\x11" * 8)
                     + code_blocks("mine", 0x8100, b"\x22" * 8))
    load(machine, tape, "LOAD", '"mine"', "CODE")
    assert screen(machine)[:2] == ["Bytes: other", "Bytes: mine"]
    assert bytes(machine.memory[0x8000:0x8008]) == bytes(8)
    assert bytes(machine.memory[0x8100:0x8108]) == b"\x22" * 8
    assert report_line(machine) == "0 OK, 0:1"


def test_load_code_to_another_address(machine):
    load(machine, write_tap(code_blocks("c", 0x8000, bytes(range(16)))),
         "LOAD", '""', "CODE", "40000")
    assert bytes(machine.memory[40000:40016]) == bytes(range(16))
    assert machine.memory[0x8000] == 0


def test_load_code_longer_than_asked_is_a_tape_loading_error(machine):
    load(machine, write_tap(code_blocks("c", 0x8000, bytes(16))),
         "LOAD", '""', "CODE", "40000,8")
    assert report_line(machine) == "R Tape loading error, 0:1"


def test_load_screen(machine):
    picture = (bytes((i * 7) & 0xFF for i in range(DISPLAY_FILE_SIZE))
               + bytes([0x47] * ATTR_FILE_SIZE))
    load(machine, write_tap(code_blocks("pic", DISPLAY_FILE, picture)), "LOAD", '""', "SCREEN$")
    assert bytes(machine.memory[DISPLAY_FILE:DISPLAY_FILE + 64]) == picture[:64]
    assert machine.memory[ATTR_FILE] == 0x47


def test_load_program_without_line_stops_with_ok(machine):
    prog = basic.tokenise('10 PRINT "loaded"\n20 STOP')
    load(machine, write_tap(program_blocks("prog", prog + b"\x80", vars_offset=len(prog))),
         "LOAD", '""')
    assert report_line(machine) == "0 OK, 0:1"
    assert screen(machine)[0] == "Program: prog"
    assert program(machine) == prog
    run_command(machine, "RUN")
    assert screen(machine)[0] == "loaded" and report_line(machine) == "9 STOP statement, 20:1"


def test_load_program_with_line_runs_it(machine):
    prog = basic.tokenise('10 PRINT "no"\n20 PRINT "yes"')
    load(machine, write_tap(program_blocks("auto", prog + b"\x80", autostart=20,
                                           vars_offset=len(prog))), "LOAD", '""')
    assert "yes" in screen(machine) and "no" not in screen(machine)
    assert report_line(machine) == "0 OK, 20:1"


def test_a_bad_checksum_is_a_tape_loading_error(machine):
    header, data = code_blocks("c", 0x8000, bytes(8))
    bad = TapBlock(data.flag, data.data, stored_checksum=data.checksum ^ 1)
    load(machine, write_tap([header, bad]), "LOAD", '""', "CODE")
    assert report_line(machine) == "R Tape loading error, 0:1"


@pytest.mark.parametrize(("same", "report"), [(True, "0 OK, 0:1"),
                                              (False, "R Tape loading error, 0:1")])
def test_verify_code(machine, same, report):
    data = bytes(range(1, 9))
    machine.memory[0x8000:0x8008] = data if same else bytes(8)
    load(machine, write_tap(code_blocks("c", 0x8000, data)), "VERIFY", '""', "CODE")
    assert report_line(machine) == report
    assert bytes(machine.memory[0x8000:0x8008]) == (data if same else bytes(8))


def test_break_while_looking_for_a_header_is_report_d(machine):
    type_basic(machine, "LOAD", '"x"')
    machine.tap("ENTER", hold=2, gap=5)
    machine.keyboard.press(BREAK)
    machine.run_frames(3)
    machine.keyboard.release_all()
    machine.run_frames(3)
    assert report_line(machine) == "D BREAK - CONT repeats, 0:1"


def save(machine, tmp_path, *parts: str) -> list[TapBlock]:
    machine.deck.save_path = tmp_path / "saved.tap"
    machine.deck.set_fast(True)          # (arms the save trap)
    type_basic(machine, *parts)
    machine.tap("ENTER", hold=2, gap=5)
    assert screen(machine)[22] == "Start tape, then press any key."
    machine.keyboard.press("SPACE")
    machine.run_frames(2)
    machine.keyboard.release_all()
    assert machine.run_until(pc=machine.rom_symbols["main_loop"], max_frames=200)
    machine.run_frames(3)
    return read_tap(machine.deck.save_path.read_bytes())


def test_save_code_writes_a_header_and_the_bytes(machine, tmp_path):
    machine.memory[0x8000:0x8010] = bytes(range(16))
    blocks = save(machine, tmp_path, "SAVE", '"codes"', "CODE", "32768,16")
    header = Header.from_block(blocks[0])
    assert (header.type, header.name, header.length, header.param1, header.param2) == \
        (3, "codes     ", 16, 0x8000, 0x8000)
    assert blocks[1].flag == 0xFF and blocks[1].data == bytes(range(16))
    assert all(b.valid for b in blocks)
    assert report_line(machine) == "0 OK, 0:1"


def test_save_program_with_line_and_load_it_back(machine, fresh, tmp_path):
    type_basic(machine, "10", "PRINT", '"back"')
    press_enter(machine)
    blocks = save(machine, tmp_path, "SAVE", '"prog"', "LINE", "10")
    header = Header.from_block(blocks[0])
    assert (header.type, header.name, header.param1) == (0, "prog      ", 10)
    assert blocks[1].data == program(machine) + b"\x80"
    assert header.length == len(blocks[1].data) and header.param2 == len(program(machine))
    other = fresh()
    load(other, write_tap(blocks), "LOAD", '""')
    assert "back" in screen(other) and report_line(other) == "0 OK, 10:1"
