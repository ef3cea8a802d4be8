"""Labels, passes, directives, conditionals, macros, files and diagnostics."""

from __future__ import annotations

from pathlib import Path

import pytest

from zxmonopoly.asm import AsmError, Assembler, assemble_file

from .util import asm, errors, messages, program


def test_labels_with_and_without_colon_and_forward_references() -> None:
    p = program("""\
        org 8000h
start:  jp later
other   ld a,1
        ld hl,later
later:  ret
""")
    assert p.binary() == bytes([0xC3, 0x08, 0x80, 0x3E, 0x01, 0x21, 0x08, 0x80, 0xC9])
    assert p.values == {"start": 0x8000, "other": 0x8003, "later": 0x8008}
    assert p.symbols["later"].line == 5


def test_a_label_on_an_org_line_gets_the_new_address() -> None:
    assert program(" org 10h\nhere: org 100h\n dw here\n").values["here"] == 0x100


def test_dotted_directives_and_local_labels_that_spell_directives() -> None:
    p = program(".org 8000h\n.db 1\nmain:\n.end ret\n.end2\n jr .end\n")
    assert p.binary() == bytes([1, 0xC9, 0x18, 0xFD])
    assert p.values["main.end"] == 0x8001


def test_an_indented_local_label_alone_is_a_label() -> None:
    assert program(" org 0\nmain:\n  .here\n jr .here\n").values["main.here"] == 0


def test_local_labels_are_scoped_to_the_last_global_label() -> None:
    p = program("""\
        org 0
first:  ld b,2
.loop   djnz .loop
        jr .out
.out    ret
second: ld b,3
.loop:  djnz .loop
        jr first.out
""")
    assert p.values["first.loop"] == 2 and p.values["second.loop"] == 9
    assert p.binary()[-2:] == bytes([0x18, 0xF9])  # jr first.out (at 11, target 6)


def test_equ_defl_and_assignment() -> None:
    p = program("""\
SCREEN  equ 4000h
size:   equ finish-begin
n       defl 1
n       defl n*2
k = 7
k = k+1
        org 8000h
begin:  dw SCREEN, size, n, k
finish:
""")
    assert p.binary() == bytes([0, 0x40, 8, 0, 2, 0, 8, 0])
    assert p.values["n"] == 2 and p.values["k"] == 8


def test_mnemonics_registers_and_directives_in_any_case() -> None:
    assert asm(" LD A,B\n ld a,b\n Ld A,b\n DB 1\n Db 2\n .db 3\n") == \
        bytes([0x78, 0x78, 0x78, 1, 2, 3])


def test_labels_are_case_sensitive() -> None:
    assert messages(" org 0\nStart: nop\n jp start\n") == [
        "undefined symbol 'start'; did you mean 'Start'?"]


def test_data_directives() -> None:
    assert asm(' db 1,-1,"ab",\'c\'+1\n') == b"\x01\xffabd"
    assert asm(' defb 255\n defm "xy"\n dm "z"\n byte 7\n') == b"\xffxyz\x07"
    assert asm(' dw 1,-1,$1234\n defw 2\n word 3\n') == \
        bytes([1, 0, 0xFF, 0xFF, 0x34, 0x12, 2, 0, 3, 0])
    assert asm(' dc "ab","cd"\n') == b"a\xe2c\xe4"
    assert asm(' dz "ab"\n dz "c",1\n') == b"ab\x00c\x01\x00"
    assert asm(' ds 3\n ds 2,$aa\n defs 1,-1\n') == b"\x00\x00\x00\xaa\xaa\xff"
    assert asm(' db 1\n align 4\n db 2\n align 4,$ee\n db 3\n align 1\n') == \
        b"\x01\x00\x00\x00\x02\xee\xee\xee\x03"


def test_multiple_orgs_leave_gaps_in_the_binary() -> None:
    p = program(" org 10\n db 1\n org 13\n db 2\n org 5\n db 3\n")
    assert (p.start, p.end) == (5, 14)
    assert p.binary() == bytes([3, 0, 0, 0, 0, 1, 0, 0, 2])
    assert p.binary(fill=0xFF) == bytes([3, 255, 255, 255, 255, 1, 255, 255, 2])


def test_conditionals() -> None:
    src = """\
X equ 2
 if X == 1
 db 1
 elseif X == 2
 db 2
  if 0
  db 99
  else
  db 3
  endif
 else
 db 4
 endif
 ifdef X
 db 5
 endif
 ifndef Y
 db 6
 endif
 if 0
 this would be an error
 endif
"""
    assert asm(src) == bytes([2, 3, 5, 6])


def test_if_may_depend_on_a_forward_label() -> None:
    src = """\
 org 0
 if last > 4
 db 1
 else
 db 2,2,2
 endif
last:
"""
    assert asm(src) == bytes([2, 2, 2])


def test_macros_with_parameters_and_local_labels() -> None:
    p = program("""\
        macro wait, count
        ld b,count
.loop   djnz .loop
        endm
fill    macro addr, n, value
        ld hl,addr
        ld value,n
        endm
        org 0
main:   wait 3
        wait 4
        fill $4000, 1, (ix+2)
        jr .after
.after  ret
""")
    assert p.binary() == bytes([0x06, 3, 0x10, 0xFE, 0x06, 4, 0x10, 0xFE,
                                0x21, 0, 0x40, 0xDD, 0x36, 0x02, 0x01, 0x18, 0x00, 0xC9])
    # Macro-local names stay out of the map; the caller's scope is untouched.
    assert sorted(p.symbol_map()) == ["main", "main.after"]


def test_macro_without_arguments_and_nested_macros() -> None:
    assert asm("""\
        macro two
        nop
        nop
        endm
        macro four
        two
        two
        endm
        four
        two
""") == bytes(6)


def test_rept_and_proc() -> None:
    assert asm("""\
j = 0
 rept 4
 db j
j = j+1
 endr
 rept 2
.x jr .x
 endm
delay proc
 local loop
loop djnz loop
 endp
 proc
 local loop
loop jr loop
 endp
""") == bytes([0, 1, 2, 3, 0x18, 0xFE, 0x18, 0xFE, 0x10, 0xFE, 0x18, 0xFE])


def test_include_and_incbin(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "consts.asm").write_text("FIVE equ 5\n include \"more.asm\"\n")
    (tmp_path / "lib" / "more.asm").write_text(" db FIVE\n")
    (tmp_path / "data.bin").write_bytes(bytes(range(10)))
    (tmp_path / "main.asm").write_text("""\
 org 100
 include "lib/consts.asm"
 incbin "data.bin"
 incbin data.bin, 8
 incbin 'data.bin', 2, 3
 db FIVE
""")
    p = assemble_file(tmp_path / "main.asm", display_root=tmp_path)
    assert p.binary() == bytes([5, *range(10), 8, 9, 2, 3, 4, 5])
    assert p.symbols["FIVE"].file == "lib/consts.asm"


def test_include_dirs(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "x.asm").write_text(" db 7\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.asm").write_text(' include "x.asm"\n')
    p = Assembler(include_dirs=[tmp_path / "inc"]).assemble_file(tmp_path / "src" / "main.asm")
    assert p.binary() == b"\x07"


def test_end_stops_assembly_and_sets_the_entry() -> None:
    p = program(" org 8000h\nstart: nop\n end start\n this is not assembled\n")
    assert p.binary() == b"\x00" and p.entry == 0x8000


def test_assert() -> None:
    assert messages(" org 0\nx: ds 3\n assert x+3 == $\n assert $ < 2, \"too long\"\n") == [
        "assertion failed: too long"]
    assert messages(" assert 1 == 2\n") == ["assertion failed: 1 == 2"]


def test_predefined_symbols() -> None:
    p = program(" if DEBUG\n db 1\n endif\n db LEVEL\n", defines={"DEBUG": 1, "LEVEL": 9})
    assert p.binary() == b"\x01\x09"


def test_layout_settles_over_several_passes() -> None:
    # The size of the DS depends on a label after it: needs more than two passes.
    p = program(" org 0\n ds end2-end1\nend1: db 1,2\nend2: db 3\n")
    assert p.binary() == bytes([0, 0, 1, 2, 3])
    assert p.passes >= 3


def test_layout_that_never_settles_is_an_error() -> None:
    assert messages(" org 0\n ds 1-(x&1)\nx:\n") == [
        "addresses did not settle after 12 passes; still changing: x"]


def test_every_error_of_a_run_is_reported() -> None:
    assert errors("""\
 org 0
 ld a,nothing
 jr toofar
dup: nop
dup: nop
 ld a,256
 ds 200
toofar:
""") == [
        "2:7: undefined symbol 'nothing'",
        "3:5: JR target out of range: $00D0 is +204 bytes from the next instruction "
        "(reach is -128..+127)",
        "5:1: duplicate label 'dup' (first defined at test.asm:4)",
        "6:7: value 256 does not fit in a byte (-128..255)",
    ]


@pytest.mark.parametrize(("src", "expected"), [
    (" org 0\n nop\n org 0\n db 1,2\n", [
        "4:2: ORG overlap: $0000..$0000 already holds code from the block that starts at "
        "test.asm:2"]),
    (" org $ffff\n dw 1\n", ["2:2: code runs past the end of memory ($FFFF + 2 bytes)"]),
    (" macro mac\n mac\n endm\n mac\n", [
        "2:2: macro recursion: 'mac' expanded more than 64 levels deep "
        "(... mac -> mac -> mac -> mac -> mac) (in mac at test.asm:2)"]),
    (" macro mac v\n db v\n endm\n mac 1,2\n", ["4:2: macro 'mac' takes 1 argument, not 2"]),
    (" macro m\n endm\n", ["1:8: 'm' is a reserved word and cannot name a macro"]),
    (" macro m\n db 1\n", ["1:2: MACRO without ENDM"]),
    (" endm\n", ["1:2: ENDM without MACRO or REPT"]),
    (" if 1\n db 1\n", ["1:2: IF without ENDIF"]),
    (" else\n", ["1:2: ELSE without IF"]),
    (" endif\n", ["1:2: ENDIF without IF"]),
    (" if 1\n else\n else\n endif\n", ["3:2: ELSE after ELSE"]),
    ("a: nop\n", ["1:1: 'a' is a reserved word and cannot be a label"]),
    ("x equ 1\nx equ 2\n", ["2:1: duplicate symbol 'x' (first defined at test.asm:1)"]),
    ("x equ 1\nx defl 2\n", ["2:1: 'x' is defined with both DEFL and EQU (first at test.asm:1)"]),
    (" equ 5\n", ["1:2: EQU needs a name in the label field"]),
    (" nopp\n", ["1:2: unknown instruction, directive or macro 'nopp' (a label needs ':' after "
                 "it or must start in column 1)"]),
    (" foo 1\n", ["1:2: unknown instruction, directive or macro 'foo'"]),
    (' include "missing.asm"\n', ["1:10: include file 'missing.asm' not found (looked in: .)"]),
    (' incbin "missing.bin"\n', ["1:9: INCBIN file 'missing.bin' not found (looked in: .)"]),
    (" ds -1\n", ["1:5: DS count -1 is negative"]),
    (" org 70000\n", ["1:6: ORG address 70000 is outside 0..$FFFF"]),
    (" local x\n", ["1:2: LOCAL is only allowed inside MACRO, REPT or PROC"]),
    (" db\n", ["1:2: DB takes 1 to 1000000 operands, not 0"]),
    (" ds 1,2,3\n", ["1:2: DS takes 1 to 2 operands, not 3"]),
    (" ld a,.x\n", ["1:7: undefined symbol '.x'"]),
])
def test_error_messages(src: str, expected: list[str]) -> None:
    assert errors(src) == expected


def test_recursive_include(tmp_path: Path) -> None:
    (tmp_path / "a.asm").write_text(' include "b.asm"\n')
    (tmp_path / "b.asm").write_text(' include "a.asm"\n')
    with pytest.raises(AsmError) as info:
        assemble_file(tmp_path / "a.asm", display_root=tmp_path)
    assert [d.message for d in info.value.errors] == [
        "recursive INCLUDE: a.asm -> b.asm -> a.asm"]
    assert info.value.errors[0].file == "b.asm"


def test_diagnostic_format_has_the_source_line_and_a_caret() -> None:
    with pytest.raises(AsmError) as info:
        program("\tld a,\tnothing\n")
    # Columns count characters: a tab is one column (the caret line keeps the tabs).
    assert str(info.value) == ("test.asm:1:8: error: undefined symbol 'nothing'\n"
                               "\tld a,\tnothing\n"
                               "\t     \t^")


def test_errors_inside_macros_name_the_expansion() -> None:
    with pytest.raises(AsmError) as info:
        program(" macro mac\n ld a,nothing\n endm\n mac\n")
    d = info.value.errors[0]
    assert (d.line, d.col) == (2, 7)
    assert d.message == "undefined symbol 'nothing' (in mac at test.asm:4)"


def test_the_program_lists_its_direct_stores() -> None:
    """Program.stores: each LD (nn),r with its address, the address written, the bytes written
    and the labels named (qualified); loads and stores through registers are not listed."""
    p = program("""\
        org 8000h
LIMIT   equ 9000h
main:   ld (.n), a
        ld (pair + 1), hl
        ld (LIMIT), ix
        ld (4000h), a
        ld a, (.n)
        ld (hl), a
        ret
.n:     db 0
pair:   dw 0
""")
    v = p.values
    assert [(s.line, s.address, s.target, s.width, s.names) for s in p.stores] == [
        (3, 0x8000, v["main.n"], 1, ("main.n",)),
        (4, 0x8003, v["pair"] + 1, 2, ("pair",)),
        (5, 0x8006, 0x9000, 2, ("LIMIT",)),
        (6, 0x800A, 0x4000, 1, ()),
    ]
