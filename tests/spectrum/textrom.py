"""A font of our own (5×7 capitals, digits, some punctuation) and small ROMs that print with it.

The glyphs are designed here as bit rows; :data:`TEXT_LIB` is a Z80 print routine (``at``,
``prints``, ``putc``) and a keyboard scan (``scan``, ``echo``) for test ROMs built with our
assembler. ROMs that use it point CHARS (23606) at the font, so ``screen_text()`` reads them.
"""

from __future__ import annotations

from tests.spectrum.roms import rom

# Each glyph: 7 rows of 5 columns ("#" = ink), drawn in pixel columns 1–5 of cell rows 1–7.
GLYPHS: dict[str, tuple[str, ...]] = {
    "A": (".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "B": ("####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."),
    "C": (".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."),
    "D": ("####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."),
    "E": ("#####", "#....", "#....", "####.", "#....", "#....", "#####"),
    "F": ("#####", "#....", "#....", "####.", "#....", "#....", "#...."),
    "G": (".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".###."),
    "H": ("#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "I": (".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "J": ("..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."),
    "K": ("#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"),
    "L": ("#....", "#....", "#....", "#....", "#....", "#....", "#####"),
    "M": ("#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"),
    "N": ("#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"),
    "O": (".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "P": ("####.", "#...#", "#...#", "####.", "#....", "#....", "#...."),
    "Q": (".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"),
    "R": ("####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"),
    "S": (".####", "#....", "#....", ".###.", "....#", "....#", "####."),
    "T": ("#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."),
    "U": ("#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "V": ("#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."),
    "W": ("#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."),
    "X": ("#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"),
    "Y": ("#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."),
    "Z": ("#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"),
    "0": (".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."),
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": ("#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": ("..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."),
    "!": ("..#..", "..#..", "..#..", "..#..", "..#..", ".....", "..#.."),
    ".": (".....", ".....", ".....", ".....", ".....", ".##..", ".##.."),
    ",": (".....", ".....", ".....", ".....", ".##..", "..#..", ".#..."),
    ":": (".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."),
    "-": (".....", ".....", ".....", "#####", ".....", ".....", "....."),
    "?": (".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."),
    "/": (".....", "....#", "...#.", "..#..", ".#...", "#....", "....."),
    "=": (".....", ".....", "#####", ".....", "#####", ".....", "....."),
    "+": (".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."),
    "*": (".....", "#.#.#", ".###.", "#####", ".###.", "#.#.#", "....."),
    "'": ("..#..", "..#..", ".#...", ".....", ".....", ".....", "....."),
    '"': (".#.#.", ".#.#.", ".....", ".....", ".....", ".....", "....."),
    "(": ("...#.", "..#..", ".#...", ".#...", ".#...", "..#..", "...#."),
    ")": (".#...", "..#..", "...#.", "...#.", "...#.", "..#..", ".#..."),
}


def glyph_bytes(rows: tuple[str, ...]) -> bytes:
    """The 8 bytes of a glyph: a blank top row, then its 7 rows in pixel columns 1–5."""
    assert len(rows) == 7 and all(len(r) == 5 for r in rows), rows
    return bytes([0] + [sum(1 << (6 - i) for i, c in enumerate(r) if c == "#") for r in rows])


def font_bytes() -> bytes:
    """The 768 bytes of characters 32–127; characters not designed here are blank."""
    font = bytearray(768)
    for char, rows in GLYPHS.items():
        code = ord(char)
        font[(code - 32) * 8:(code - 31) * 8] = glyph_bytes(rows)
    return bytes(font)


PRINTABLE = " " + "".join(GLYPHS)

# RAM used by the library (uncontended): frame counter, cursor, keyboard state.
FRAMES = 0x8000  # word, counted by the IM 1 routine of text_rom()
ROW, COL = 0x8002, 0x8003  # print position
LAST_KEY = 0x8004  # the key scan's last result (0 = none)
ECHO_COL, ECHO_ROW = 0x8005, 0x8006  # where echo() prints next (LD BC,(ECHO_COL) -> B row)
FLAG = 0x8007  # free for ROMs

# Matrix order (half-row 0 bit 0 first): the character each key prints; 0 for the shifts, ENTER.
_KEY_CHARS = "\0ZXCV" "ASDFG" "QWERT" "12345" "09876" "POIUY" "\0LKJH" " \0MNB"

TEXT_LIB = f"""
; at: B = row (0-23), C = column (0-31)
at:     LD A,B
        LD ({ROW}),A
        LD A,C
        LD ({COL}),A
        RET

; prints: HL = zero-terminated string, printed at the cursor
prints: LD A,(HL)
        OR A
        RET Z
        PUSH HL
        CALL putc
        POP HL
        INC HL
        JR prints

; putc: A = character 32-127, drawn with the font at CHARS+256; the cursor moves on
putc:   LD L,A
        LD H,0
        ADD HL,HL
        ADD HL,HL
        ADD HL,HL
        LD DE,(23606)
        ADD HL,DE
        EX DE,HL
        LD A,({ROW})
        LD B,A
        AND 0x18
        OR 0x40
        LD H,A
        LD A,B
        AND 7
        RRCA
        RRCA
        RRCA
        LD L,A
        LD A,({COL})
        OR L
        LD L,A
        LD B,8
putc_l: LD A,(DE)
        LD (HL),A
        INC DE
        INC H
        DJNZ putc_l
        LD A,({COL})
        INC A
        CP 32
        JR C,putc_c
        LD A,({ROW})
        INC A
        CP 24
        JR C,putc_r
        XOR A
putc_r: LD ({ROW}),A
        XOR A
putc_c: LD ({COL}),A
        RET

; scan: A = the character of the first key held down (shifts and ENTER skipped), else 0
scan:   LD HL,keychars
        LD B,0xFE
scan_r: LD C,0xFE
        IN E,(C)
        LD D,5
scan_b: SRL E
        JR C,scan_n
        LD A,(HL)
        OR A
        RET NZ
scan_n: INC HL
        DEC D
        JR NZ,scan_b
        RLC B
        JR C,scan_r
        XOR A
        RET

; echo: print the key just pressed (once per press) at the echo position
echo:   CALL scan
        LD HL,{LAST_KEY}
        CP (HL)
        RET Z
        LD (HL),A
        OR A
        RET Z
        PUSH AF
        LD BC,({ECHO_COL})
        CALL at
        POP AF
        CALL putc
        LD A,({COL})
        LD ({ECHO_COL}),A
        LD A,({ROW})
        LD ({ECHO_ROW}),A
        RET

keychars:
        DB {", ".join(str(ord(c)) for c in _KEY_CHARS)}

font:
{chr(10).join("        DB " + ", ".join(str(b) for b in font_bytes()[i:i + 8])
              for i in range(0, 768, 8))}
"""


def text_rom(setup: str, loop: str = "", isr: str = "") -> bytes:
    """A ROM: CHARS -> our font, IM 1 counting frames, ``setup`` once, then HALT; ``loop``.

    ``setup`` runs with interrupts off; ``loop`` runs once a frame, after the HALT; ``isr``
    runs inside the interrupt routine (HL and AF saved).
    """
    return rom(f"""
        ORG 0
        DI
        LD SP,0xFF00
        LD HL,font-256
        LD (23606),HL
        JP start
        DS 0x38-$
        PUSH AF
        PUSH HL
        LD HL,({FRAMES})
        INC HL
        LD ({FRAMES}),HL
{isr}
        POP HL
        POP AF
        EI
        RET
start:
{setup}
        IM 1
        EI
main:   HALT
{loop}
        JP main
{TEXT_LIB}
""")


def print_at(row: int, col: int, label: str) -> str:
    """Assembly that prints the string at ``label`` at (row, col)."""
    return f"""
        LD BC,{row * 256 + col}
        CALL at
        LD HL,{label}
        CALL prints
"""


READY_FRAME = 150  # DEMO_ROM prints READY once this many frames have been counted

#: A ROM that prints HELLO FROM OUR ROM on row 0, READY on row 2 at frame 150, and echoes the
#: keys pressed (one character per press) from row 4 on.
DEMO_ROM = text_rom(
    setup=print_at(0, 0, "hello") + f"""
        LD A,4
        LD ({ECHO_ROW}),A
        JP started
hello:  DB "HELLO FROM OUR ROM",0
ready:  DB "READY",0
started:
""",
    loop=f"""
        CALL echo
        LD HL,({FRAMES})
        LD DE,{READY_FRAME}
        OR A
        SBC HL,DE
        JR C,main
        LD A,({FLAG})
        OR A
        JR NZ,main
        INC A
        LD ({FLAG}),A
""" + print_at(2, 0, "ready"),
)
