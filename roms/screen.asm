; =============================================================================================
; screen.asm - RST 10h output: channels, the print position, characters, control codes, CLS
;
; Two screens share the display: the upper screen (channel S, rows 0 .. 23-DF_SZ) and the lower
; screen (channel K, the bottom DF_SZ rows: the editor and the reports).  TV_FLAG bit 0 says
; which one output goes to; CHAN-OPEN sets it from the channel's letter, as on the 48K.
;
; Print positions are kept as the 48K keeps them: S_POSN (upper) and SPOSNL (lower) hold
; 33 - column and 24 - row, rows counted from the top of the whole display; DF_CC / DF_CCL
; hold the matching display address.  Column 32 means "the line is full": the next character
; goes to the start of the next line.  A row past the last one of its screen makes room when
; the next character is drawn: the upper screen scrolls up (there is no "scroll?" prompt), the
; lower screen grows a row upwards (DF_SZ + 1) until only one row is left above it.
;
; Output codes (spectrum_facts 6.3): 0x20-0x7F the font at CHARS + 256, 0x80-0x8F block
; graphics, 0x90-0xA4 the UDGs, 0xA5-0xFF keywords (with the 48K's spacing), and the controls
; 0x06 comma, 0x08 left, 0x0D ENTER, 0x10-0x15 INK PAPER FLASH BRIGHT INVERSE OVER (one
; parameter, into ATTR_T / MASK_T / P_FLAG), 0x16 AT (line, column), 0x17 TAB (two bytes).
; Any other control prints "?".
; =============================================================================================

PARAM_PENDING   equ 0x80            ; TVDATA: the first of two parameters has come
HALF_LINE       equ COLUMNS / 2     ; where a comma moves to
BLOCK_LEFT      equ 0xF0            ; block graphics: the left and right halves of a pixel row
BLOCK_RIGHT     equ 0x0F

; ---------------------------------------------------------------------------------------------
; print_a - what RST 10h does: send A to the current channel's output routine
; The output routine runs on the alternate registers, as on the 48K, but HL' is kept: programs
; (and test suites) print with "exx / rst 10h / exx" and keep a pointer in HL' meanwhile.
; Input:   A = code
; Corrupts: AF and the alternate BC', DE' (the main BC, DE, HL and HL' are kept)
; ---------------------------------------------------------------------------------------------
print_a:
        exx
        push hl
        ld hl, (CURCHL)
        ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        call jp_hl
        pop hl
        exx
        ret

; jp_hl - CALL this to call the routine at HL.
jp_hl:  jp (hl)

; ---------------------------------------------------------------------------------------------
; chan_open (CHAN-OPEN, 0x1601) - make a stream's channel the current one
; Input:   A = stream (-3 .. 15; 0xFD = -3 is K for the editor, 2 is the upper screen)
; Output:  CURCHL set; channel K selects the lower screen, S the upper one (with the
;          temporary colours reset), P the printer (output is dropped: there is none)
; Corrupts: AF, BC, DE, HL.  Report O if the stream is closed or out of range.
; ---------------------------------------------------------------------------------------------
chan_open:
        add a, 3                    ; streams start at -3
        cp 19
        jr nc, .bad
        ld l, a
        ld h, 0
        add hl, hl
        ld de, STRMS
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)                  ; DE = offset of the channel in CHANS, plus 1
        ld a, d
        or e
        jr z, .bad
        ld hl, (CHANS)
        add hl, de
        dec hl
        ld (CURCHL), hl
        ld de, 4                    ; the channel's letter
        add hl, de
        ld a, (hl)
        ld hl, FLAGS
        res FLAG_PRINTER, (hl)
        ld hl, TV_FLAG
        cp "K"
        jr z, .lower
        cp "S"
        jr z, .upper
        cp "P"
        ret nz                      ; R, or a channel added by a program: nothing to set
        ld hl, FLAGS
        set FLAG_PRINTER, (hl)
        ret
.lower: set TV_LOWER, (hl)
        ret
.upper: res TV_LOWER, (hl)
        jp temps_reset
.bad:   raise REPORT_STREAM

; ---------------------------------------------------------------------------------------------
; temps_reset - the temporary colours become the permanent ones again (after each PRINT)
; Corrupts: AF, B, HL
; ---------------------------------------------------------------------------------------------
temps_reset:
        ld a, (ATTR_P)
        ld (ATTR_T), a
        ld a, (MASK_P)
        ld (MASK_T), a
        ld hl, P_FLAG
        ld a, (hl)
        and PF_PERMS
        ld b, a
        rrca                        ; each permanent bit is one above its temporary one
        or b
        ld (hl), a
        ret

; ---------------------------------------------------------------------------------------------
; pr_out (PRINT-OUT, 0x09F4) - the output routine of channels K, S and P
; Input:   A = code
; Corrupts: AF, BC, DE, HL.  Report 5 for AT off the screen, K for a bad colour.
; ---------------------------------------------------------------------------------------------
pr_out:
        ld c, a
        ld hl, FLAGS
        bit FLAG_PRINTER, (hl)
        ret nz                      ; no printer on this machine
        ld a, (TVDATA)
        or a
        jp nz, pr_param             ; a parameter of a control code
        ld a, c
        cp CH_SPACE
        jr c, pr_control
        cp CH_BLOCKS
        jp c, pr_char
        cp CH_UDGS
        jr c, pr_block
        cp TK_FIRST
        jp nc, pr_token
        ; a UDG: its 8 bytes are at UDG + 8 * (code - 0x90)
        sub CH_UDGS
        ld hl, (UDG)
        jp pr_glyph_at

; pr_block - a block graphic 0x80-0x8F: bit 0 top right, 1 top left, 2 bottom right,
; 3 bottom left.  The 8 rows are built on the stack.
pr_block:
        ld c, a
        call .half                  ; top half from bits 0-1
        ld d, a
        ld a, c
        rrca
        rrca
        call .half                  ; bottom half from bits 2-3
        ld h, a
        ld l, a
        push hl                     ; rows 4-7 (higher addresses: pushed first)
        push hl
        ld h, d
        ld l, d
        push hl                     ; rows 0-3
        push hl
        ld hl, 0
        add hl, sp
        call pr_glyph_spaced
        ld hl, GLYPH_SIZE
        add hl, sp
        ld sp, hl
        ret
.half:  ld b, 0                     ; A bit 1: left half; bit 0: right half
        rra
        jr nc, .no_right
        ld b, BLOCK_RIGHT
.no_right:
        rra
        ld a, b
        ret nc
        or BLOCK_LEFT
        ret

; ---------------------------------------------------------------------------------------------
; pr_control - a control code (below 0x20)
; Input:   A = C = code
; ---------------------------------------------------------------------------------------------
pr_control:
        cp CC_ENTER
        jr z, pr_enter
        cp CC_COMMA
        jr z, pr_comma
        cp CC_LEFT
        jr z, pr_left
        cp CC_INK
        jr c, .unknown
        cp CC_TAB + 1
        jr nc, .unknown
        ld (TVDATA), a              ; its parameters come next
        ret
.unknown:
        ld a, "?"
        jp pr_char

; pr_enter - to the start of the next line (scrolling first if already below the screen)
pr_enter:
        call pr_get_pos
        call pr_fix_row
        inc b
        ld c, 0
        jp pr_set_pos

; pr_comma - spaces to the middle of the line, or to its end
pr_comma:
        call pr_get_pos
        ld a, c
        cp HALF_LINE
        ld a, HALF_LINE
        jr c, pr_spaces_to
        ld a, COLUMNS
        ; continues into pr_spaces_to

; pr_spaces_to - print spaces until the column is A (nothing if it is there or past it)
pr_spaces_to:
        push af
        call pr_get_pos
        pop af
        cp c
        ret z
        ret c
        push af
        ld a, CH_SPACE
        call pr_char
        pop af
        jr pr_spaces_to

; pr_left - back one column (to the end of the line above from column 0)
pr_left:
        call pr_get_pos
        ld a, c
        or a
        jr nz, .same_line
        call pr_first_row
        cp b
        ret z                       ; the top-left corner of the screen: stay
        dec b
        ld c, COLUMNS
.same_line:
        dec c
        jp pr_set_pos

; ---------------------------------------------------------------------------------------------
; pr_param - a parameter byte for the control code waiting in TVDATA
; Input:   A = (TVDATA) (non-zero), C = the parameter
; ---------------------------------------------------------------------------------------------
pr_param:
        bit 7, a
        jr nz, .second
        cp CC_AT
        jr z, .first
        cp CC_TAB
        jr z, .first
        ld b, a                     ; a colour control: one parameter, done
        xor a
        ld (TVDATA), a
        ld a, b
        jp pr_colour
.first: or PARAM_PENDING            ; AT and TAB: keep the first one, wait for the second
        ld (TVDATA), a
        ld a, c
        ld (TVDATA + 1), a
        ret
.second:
        ld b, a
        xor a
        ld (TVDATA), a
        ld a, (TVDATA + 1)
        ld d, a                     ; D = first parameter, C = second
        ld a, b
        cp CC_AT | PARAM_PENDING
        jr z, pr_at
        ld a, d                     ; TAB: the column is the first byte (the second is the
        ; continues into pr_tab     ; high byte of a column number: columns wrap at 32)

; pr_tab - spaces to column A mod 32, on the next line if that column is already passed
pr_tab:
        and COLUMNS - 1
        push af
        call pr_get_pos
        pop af
        cp c
        jr nc, pr_spaces_to
        push af
        ld a, COLUMNS
        call pr_spaces_to
        call pr_enter
        pop af
        jr pr_spaces_to

; pr_at - AT line,column: D = line (within the current screen), C = column
pr_at:  ld a, c
        cp COLUMNS
        jr nc, .off
        call pr_first_row
        add a, d
        jr c, .off
        ld b, a
        call pr_last_row
        cp b
        jp nc, pr_set_pos
.off:   raise REPORT_SCREEN

; ---------------------------------------------------------------------------------------------
; pr_colour - INK, PAPER, FLASH, BRIGHT, INVERSE or OVER into the temporary colours
; Input:   A = control code (CC_INK .. CC_OVER), C = its parameter
; Corrupts: AF, BC, DE, HL.  Report K if the parameter is not allowed.
; ---------------------------------------------------------------------------------------------
pr_colour:
        ld hl, P_FLAG
        sub CC_INK
        jr z, .ink
        dec a
        jr z, .paper
        dec a
        jr z, .flash
        dec a
        jr z, .bright
        dec a
        ld b, 1 << PF_INVERSE_T
        jr z, .p_flag
        ld b, 1 << PF_OVER_T
.p_flag:                            ; INVERSE / OVER: 0 or 1, a bit of P_FLAG
        ld a, c
        cp 2
        jr nc, .bad
        ld a, b
        cpl
        and (hl)
        dec c
        jr nz, .p_set
        or b
.p_set: ld (hl), a
        ret
.ink:   ld e, INK_MASK              ; E = the attribute bits, D = the value in them,
        ld d, c                     ; B = the P_FLAG bit for 9 (contrast)
        ld b, 1 << PF_INK9_T
        jr .colour
.paper: ld e, PAPER_MASK
        ld a, c
        rlca
        rlca
        rlca
        ld d, a
        ld b, 1 << PF_PAPER9_T
.colour:
        ld a, c
        cp 8
        jr z, .transparent
        jr c, .value
        cp 9
        jr nz, .bad
        ld a, (hl)                  ; 9: contrast with the other colour, when drawn
        or b
        ld (hl), a
        ld d, 0
        jr .attr
.value: ld a, b                     ; 0-7: the colour itself
        cpl
        and (hl)
        ld (hl), a
        jr .attr
.flash: ld e, FLASH
        jr .on_off
.bright:
        ld e, BRIGHT
.on_off:
        ld a, c                     ; 0, 1 or 8 (transparent)
        cp 8
        jr z, .transparent
        cp 2
        jr nc, .bad
        ld d, 0
        or a
        jr z, .attr
        ld d, e
.attr:  ld hl, ATTR_T               ; ATTR_T = (ATTR_T without the bits) + the value
        ld a, e
        cpl
        ld b, a
        and (hl)
        or d
        ld (hl), a
        ld hl, MASK_T               ; and the bits are not transparent any more
        ld a, b
        and (hl)
        ld (hl), a
        ret
.transparent:                       ; 8: keep what is on the screen there
        ld hl, MASK_T
        ld a, e
        or (hl)
        ld (hl), a
        ret
.bad:   raise REPORT_COLOUR

; ---------------------------------------------------------------------------------------------
; pr_token - print a keyword (0xA5-0xFF) with the 48K's spacing: a space before the keywords
; from OR on that start with a letter (unless a space was just printed), a space after those
; from FN on that end with a letter or "$".
; Input:   A = token
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
pr_token:
        ld c, a
        call tok_find               ; HL = its text
        ld a, c
        cp TK_FIRST_SPACED
        jr c, .text
        ld a, (hl)
        cp "A"
        jr c, .text
        ld a, (FLAGS)
        bit FLAG_NO_SPACE, a
        jr nz, .text
        push bc
        push hl
        ld a, CH_SPACE
        call pr_char
        pop hl
        pop bc
.text:  ld a, (hl)
        or a
        jr z, .after
        ld b, a                     ; B = the last character printed
        push bc
        push hl
        call pr_char
        pop hl
        pop bc
        inc hl
        jr .text
.after: ld a, c
        cp TK_FIRST_TRAILING
        ret c
        ld a, b
        cp "$"
        jr z, .space
        cp "A"
        ret c
.space: ld a, CH_SPACE
        jr pr_char

; ---------------------------------------------------------------------------------------------
; tok_find - the text of a keyword
; Input:   A = token (0xA5-0xFF)
; Output:  HL = its text (zero-terminated)
; Corrupts: AF
; ---------------------------------------------------------------------------------------------
tok_find:
        sub TK_FIRST
        add a, a
        ld l, a
        ld h, 0
        push de
        ld de, tok_pointers
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        pop de
        ret

; ---------------------------------------------------------------------------------------------
; pr_char - print a character of the font (0x20-0x7F)
; Input:   A = character
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
pr_char:
        ld hl, FLAGS                ; keywords look at whether a space came last
        res FLAG_NO_SPACE, (hl)
        cp CH_SPACE
        jr nz, .glyph
        set FLAG_NO_SPACE, (hl)
.glyph: ld hl, (CHARS)
        ; continues into pr_glyph_at

; pr_glyph_at - print glyph number A of the 8-byte glyphs at HL
pr_glyph_at:
        ld e, a
        ld d, 0
        ex de, hl
        add hl, hl
        add hl, hl
        add hl, hl
        add hl, de
        jr pr_glyph

; pr_glyph_spaced - pr_glyph for something that is not a space (keywords may follow)
pr_glyph_spaced:
        push hl
        ld hl, FLAGS
        res FLAG_NO_SPACE, (hl)
        pop hl
        ; continues into pr_glyph

; ---------------------------------------------------------------------------------------------
; pr_glyph - draw 8 bytes as a character at the print position, then move it on
; INVERSE and OVER come from P_FLAG, the attribute from ATTR_T / MASK_T (upper screen) or
; BORDCR (lower screen).
; Input:   HL = the glyph's 8 bytes, top row first
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
pr_glyph:
        ex de, hl                   ; DE = glyph
        call pr_get_pos
        ld a, c
        cp COLUMNS
        jr c, .in_line
        ld c, 0                     ; the line is full: the next one
        inc b
.in_line:
        push de
        call pr_fix_row
        call scr_cell_addr          ; HL = display address
        pop de
        ex de, hl                   ; HL = glyph, DE = display
        push bc
        push de
        ld a, (P_FLAG)
        ld c, 0                     ; C = 0xFF to invert
        bit PF_INVERSE_T, a
        jr z, .no_inverse
        dec c
.no_inverse:
        ld b, GLYPH_SIZE
        bit PF_OVER_T, a
        jr nz, .over
.plain: ld a, (hl)
        xor c
        ld (de), a
        inc hl
        inc d                       ; the next pixel row of the cell is 256 bytes on
        djnz .plain
        jr .attr
.over:  ld a, (de)                  ; OVER 1: combined with what is there
        xor (hl)
        xor c
        ld (de), a
        inc hl
        inc d
        djnz .over
.attr:  pop de                      ; the cell's display address
        pop bc
        call pr_attr
        inc c
        inc de                      ; DF_CC: the next cell
        jp pr_pos_store

; ---------------------------------------------------------------------------------------------
; pr_attr - set the attribute of a cell that was just printed
; Input:   B = row, C = column
; Corrupts: AF, DE, HL (BC kept)
; ---------------------------------------------------------------------------------------------
pr_attr:
        call scr_attr_addr
        ld a, (TV_FLAG)
        rrca                        ; TV_LOWER into carry
        ld a, (BORDCR)
        jr c, .flash
        ld a, (MASK_T)              ; the upper screen: ATTR_T, but the MASK_T bits as they are
        ld e, a
        and (hl)
        ld d, a
        ld a, e
        cpl
        ld e, a
        ld a, (ATTR_T)
        and e
        or d
        ld e, a
        ld a, (P_FLAG)              ; INK 9 / PAPER 9: contrast with the other colour
        ld d, a
        bit PF_INK9_T, d
        jr z, .no_ink9
        ld a, e
        and ~INK_MASK
        bit 5, e                    ; a light paper (4-7) takes black ink, a dark one white
        jr nz, .ink_set
        or WHITE
.ink_set:
        ld e, a
.no_ink9:
        bit PF_PAPER9_T, d
        jr z, .no_paper9
        ld a, e
        and ~PAPER_MASK
        bit 2, e                    ; a light ink takes black paper, a dark one white
        jr nz, .paper_set
        or WHITE << 3
.paper_set:
        ld e, a
.no_paper9:
        ld a, e
.flash: ld de, v_pr_flags           ; the cursor flashes
        ex de, hl
        bit PRF_FLASH, (hl)
        res PRF_FLASH, (hl)
        ex de, hl
        jr z, .set
        or FLASH
.set:   ld (hl), a
        ret

; ---------------------------------------------------------------------------------------------
; pr_fix_row - make room when row B is below the current screen's last row: the upper screen
; scrolls up; the lower screen grows one row upwards (DF_SZ + 1, its rows moving up over the
; upper screen's last one), or scrolls once it has all rows but one
; Input:   B = row, C = column
; Output:  B = the row to print on
; Corrupts: AF, DE, HL (C kept)
; ---------------------------------------------------------------------------------------------
pr_fix_row:
        call pr_last_row
        cp b
        ret nc
        ld b, a
        push bc
        ld a, (TV_FLAG)
        rrca
        jr nc, .scroll              ; (TV_LOWER is bit 0)
        ld hl, DF_SZ
        ld a, (hl)
        cp ROWS - 1
        jr nc, .scroll
        inc (hl)
.scroll:
        call pr_first_row
        ld b, a                     ; the screen's first row ...
        ld c, a
        call pr_last_row
        sub c
        inc a
        ld c, a                     ; ... and how many rows it has
        call pr_screen_attr
        ld e, a
        call scr_scroll
        pop bc
        ret

; ---------------------------------------------------------------------------------------------
; pr_first_row / pr_last_row - the current screen's rows
; Output:  A = the first (or last) row; HL = TV_FLAG
; ---------------------------------------------------------------------------------------------
pr_first_row:
        ld hl, TV_FLAG
        bit TV_LOWER, (hl)
        ld a, 0
        ret z
        ld a, (DF_SZ)
        neg
        add a, ROWS
        ret
pr_last_row:
        ld hl, TV_FLAG
        bit TV_LOWER, (hl)
        ld a, ROWS - 1
        ret nz
        ld a, (DF_SZ)
        neg
        add a, ROWS - 1
        ret

; pr_screen_attr - A = the attribute of an empty cell of the current screen.  Corrupts HL.
pr_screen_attr:
        ld hl, TV_FLAG
        bit TV_LOWER, (hl)
        ld a, (ATTR_P)
        ret z
        ld a, (BORDCR)
        ret

; ---------------------------------------------------------------------------------------------
; pr_get_pos - the print position of the current screen
; Output:  B = row (0-23 from the top of the display), C = column (0-32)
; Corrupts: AF, HL
; ---------------------------------------------------------------------------------------------
pr_get_pos:
        call pr_pos_var
        ld a, COLUMNS + 1
        sub (hl)
        ld c, a
        inc hl
        ld a, ROWS
        sub (hl)
        ld b, a
        ret

; ---------------------------------------------------------------------------------------------
; pr_set_pos - set the print position of the current screen (S_POSN/DF_CC or SPOSNL/DF_CCL)
; Input:   B = row, C = column
; Corrupts: AF, HL (BC, DE kept)
; ---------------------------------------------------------------------------------------------
pr_set_pos:
        push de
        call scr_cell_addr
        ex de, hl
        call pr_pos_store
        pop de
        ret

; pr_pos_store - pr_set_pos with the display address already known
; Input:   B = row, C = column, DE = the display address of that cell
; Corrupts: AF, HL
pr_pos_store:
        call pr_pos_var
        ld a, COLUMNS + 1
        sub c
        ld (hl), a
        inc hl
        ld a, ROWS
        sub b
        ld (hl), a
        ld a, l
        sub S_POSN + 1 - DF_CC      ; DF_CC is 4 below S_POSN, DF_CCL 4 below SPOSNL
        ld l, a
        ld (hl), e
        inc hl
        ld (hl), d
        ret

; pr_pos_var - HL = S_POSN, or SPOSNL for the lower screen.  Corrupts nothing else.
pr_pos_var:
        ld hl, TV_FLAG
        bit TV_LOWER, (hl)
        ld hl, S_POSN
        ret z
        ld hl, SPOSNL
        ret

; ---------------------------------------------------------------------------------------------
; scr_cell_addr - display address of a cell's top pixel row
; Input:   B = row (0-23), C = column (0-31)
; Output:  HL = address
; Corrupts: AF
; ---------------------------------------------------------------------------------------------
scr_cell_addr:
        ld a, b
        and 0x18                    ; the third of the screen ...
        or HIGH SCREEN
        ld h, a
        ld a, b
        and 7                       ; ... and the row within it
        rrca
        rrca
        rrca
        or c
        ld l, a
        ret

; ---------------------------------------------------------------------------------------------
; scr_attr_addr - attribute address of a cell
; Input:   B = row, C = column
; Output:  HL = ATTRS + 32 * row + column
; Corrupts: AF
; ---------------------------------------------------------------------------------------------
scr_attr_addr:
        ld a, b
        rrca
        rrca
        rrca                        ; 32 * row: bits 0-2 of the row to 5-7, bits 3-4 to 0-1
        ld h, a
        and 0xE0
        or c
        ld l, a
        ld a, h
        and 3
        or HIGH ATTRS
        ld h, a
        ret

; ---------------------------------------------------------------------------------------------
; scr_scroll - move rows B+1 .. B+C-1 up one row; clear row B+C-1
; Input:   B = top row, C = rows in the region (1-24), E = attribute for the cleared row
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
scr_scroll:
        push de
.next:  dec c
        jr z, .clear
        push bc
        ld c, 0
        call scr_cell_addr          ; the row that receives ...
        push hl
        inc b
        call scr_cell_addr          ; ... the one under it
        pop de
        ld a, GLYPH_SIZE
.line:  push hl
        push de
        ld bc, COLUMNS
        ldir
        pop de
        pop hl
        inc d
        inc h
        dec a
        jr nz, .line
        pop bc
        push bc
        ld c, 0
        call scr_attr_addr
        ld d, h
        ld e, l
        ld bc, COLUMNS
        add hl, bc
        ldir
        pop bc
        inc b
        jr .next
.clear: pop de
        ld a, e
        ld c, 1
        ; continues into cl_rows

; ---------------------------------------------------------------------------------------------
; cl_rows - clear character rows (pixels off, attributes set)
; Input:   B = first row, C = how many (0 = none), A = attribute
; Output:  B = the row after the last one cleared
; Corrupts: AF, C, DE, HL
; ---------------------------------------------------------------------------------------------
cl_rows:
        ld e, a
        ld a, c
        or a
        ret z
.row:   push bc
        ld c, 0
        call scr_cell_addr
        ld d, GLYPH_SIZE
.line:  push hl
        ld b, COLUMNS
.byte:  ld (hl), 0
        inc hl
        djnz .byte
        pop hl
        inc h
        dec d
        jr nz, .line
        pop bc
        push bc
        ld c, 0
        call scr_attr_addr
        ld b, COLUMNS
.attr:  ld (hl), e
        inc hl
        djnz .attr
        pop bc
        inc b
        dec c
        jr nz, .row
        ret

; ---------------------------------------------------------------------------------------------
; cls (CLS, 0x0D6B) - clear the whole screen; print positions to the top-left of each screen
; The upper screen takes ATTR_P, the lower one BORDCR (the lower screen is 2 rows again).
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
cls:
        ld a, (DF_SZ)
        neg
        add a, ROWS
        ld c, a                     ; rows of the upper screen
        ld b, 0
        ld a, (ATTR_P)
        call cl_rows
        ld hl, (ROWS << 8) | (COLUMNS + 1)  ; S_POSN: row 0, column 0
        ld (S_POSN), hl
        ld hl, SCREEN
        ld (DF_CC), hl
        ; continues into cls_lower

; ---------------------------------------------------------------------------------------------
; cls_lower - clear the lower screen and make it 2 rows again (rows it had beyond 2 go back to
; the upper screen, cleared); its print position to its top-left
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
cls_lower:
        ld a, (DF_SZ)
        sub INIT_DF_SZ
        jr c, .two
        jr z, .two
        ld c, a                     ; rows to give back ...
        ld a, (DF_SZ)
        neg
        add a, ROWS
        ld b, a                     ; ... from the lower screen's old first row
        ld a, (ATTR_P)
        call cl_rows
.two:   ld a, INIT_DF_SZ
        ld (DF_SZ), a
        ld b, ROWS - INIT_DF_SZ
        ld c, INIT_DF_SZ
        ld a, (BORDCR)
        call cl_rows
        ld hl, TV_FLAG              ; the position: the lower screen's first row
        ld a, (hl)
        push af
        set TV_LOWER, (hl)
        ld bc, (ROWS - INIT_DF_SZ) << 8
        call pr_set_pos
        pop af
        ld (TV_FLAG), a
        ret

; ---------------------------------------------------------------------------------------------
; pr_string (PR-STRING, 0x203C) - print BC characters from DE (through RST 10h)
; Output:  BC = 0, DE after the last character
; Corrupts: AF
; ---------------------------------------------------------------------------------------------
pr_string:
        ld a, b
        or c
        ret z
        ld a, (de)
        inc de
        rst ENTRY_PRINT_A
        dec bc
        jr pr_string

; ---------------------------------------------------------------------------------------------
; pr_message - print a zero-terminated string (through RST 10h)
; Input:   DE = the string
; Output:  DE after its zero
; Corrupts: AF
; ---------------------------------------------------------------------------------------------
pr_message:
        ld a, (de)
        inc de
        or a
        ret z
        rst ENTRY_PRINT_A
        jr pr_message

; ---------------------------------------------------------------------------------------------
; pr_number - print a signed 32-bit integer in decimal (through RST 10h)
; Input:   DE:BC = the number (DE the high word)
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
pr_number:
        bit 7, d
        jr z, pr_unsigned
        ld a, "-"
        rst ENTRY_PRINT_A
        call num_negate
        ; continues into pr_unsigned

; pr_unsigned - print DE:BC as an unsigned 32-bit number
pr_unsigned:
        ld h, 0xFF                  ; the end marker under the digits on the stack
        push hl
.divide:
        call num_div10              ; the digits come out last first ...
        push af
        ld a, d
        or e
        or b
        or c
        jr nz, .divide
.print: pop af                      ; ... and are printed first first
        cp 10
        ret nc                      ; the marker
        add a, "0"
        rst ENTRY_PRINT_A
        jr .print

; ---------------------------------------------------------------------------------------------
; cl_all (CL-ALL, 0x0DAF) - clear the whole screen and forget the last point plotted
; Output:  both screens cleared, the print positions at their top-left, COORDS = 0
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
cl_all:
        ld hl, 0
        ld (COORDS), hl
        jp cls

; ---------------------------------------------------------------------------------------------
; cl_set (CL-SET, 0x0DD9) - set the print position of the current screen from a line number
; counted as the 48K's CL-SET counts it
; Input:   B = 24 - line, C = 33 - column (1 = column 32, the line full).  In the upper screen
;          the line counts from the top of the display; in the lower one (TV_FLAG bit 0) from
;          the top of the lower screen, as the 48K's does: it adds DF_SZ - 24 to B before it
;          finds the display line, so the display row is 48 - DF_SZ - B.
; Output:  S_POSN / DF_CC (upper screen) or SPOSNL / DF_CCL (lower) set.  DF_CC / DF_CCL are
;          the 48K's; SPOSNL holds the row from the top of the display, as this ROM keeps it.
; Corrupts: AF, DE, HL.  BC kept.
; ---------------------------------------------------------------------------------------------
cl_set:
        push bc
        ld a, (TV_FLAG)
        bit TV_LOWER, a
        ld a, b
        jr z, .line                 ; the upper screen: B as it is
        ld hl, DF_SZ                ; the lower screen: B + DF_SZ - 24 is the 48K's line
        add a, (hl)
        sub ROWS
.line:  ld b, a
        ld a, ROWS                  ; row = 24 - line
        sub b
        ld b, a
        ld a, COLUMNS + 1
        sub c
        ld c, a
        call pr_set_pos
        pop bc
        ret

; ---------------------------------------------------------------------------------------------
; cl_line (CL-LINE, 0x0E44) - clear the bottom rows of the display
; Input:   B = how many rows (1-24; more counts as 24)
; Output:  the rows cleared, with BORDCR's colours while printing goes to the lower screen,
;          else ATTR_P's
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
cl_line:
        ld a, b
        cp ROWS + 1
        jr c, .count
        ld a, ROWS
.count: ld c, a                     ; C = rows
        neg
        add a, ROWS
        ld b, a                     ; B = the first of them
        call pr_screen_attr
        jp cl_rows

; ---------------------------------------------------------------------------------------------
; out_num_1 (OUT-NUM-1, 0x1A1B) - print BC as the 48K prints a report's line and statement
; numbers ("0 OK, 10:1"): leading zeros print nothing (no spaces); the thousands are counted as
; one digit, so 10000 up print a character past "9" there (12345: "<345"), as on the 48K; a
; number with bit 15 set (no line) prints "0"
; Input:   BC = the number
; Output:  BC = 0xFFF6 (the last place value), or as given for bit 15 set
; Corrupts: AF, BC and the alternate AF', BC', DE' (RST 10h).  DE, HL, HL' kept.
; ---------------------------------------------------------------------------------------------
out_num_1:
        push de
        push hl
        xor a                       ; no line number: just the final 0
        bit 7, b
        jr nz, .last
        ld h, b
        ld l, c
        ld e, NO_LEADING            ; leading 0s print nothing
        ld bc, -1000
        call .digit
        ld bc, -100
        call .digit
        ld c, -10 & 0xFF            ; (B is 0xFF already)
        call .digit
        ld a, l                     ; the units, always
.last:  add a, "0"
        rst ENTRY_PRINT_A
        pop hl
        pop de
        ret
; .digit - print the digit of HL for the place -BC; HL = the rest.  E = what a 0 prints:
; NO_LEADING (bit 7 set) before any digit, "0" once one has been printed.
.digit: xor a
.count: add hl, bc
        inc a
        jr c, .count
        sbc hl, bc                  ; one too many (carry is clear): add it back
        dec a
        jr z, .zero
        ld e, "0"                   ; a digit: later 0s are printed
        add a, e
        rst ENTRY_PRINT_A
        ret
.zero:  ld a, e
        and a
        ret m                       ; a leading 0: nothing
        rst ENTRY_PRINT_A
        ret
