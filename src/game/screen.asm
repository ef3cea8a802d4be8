; =============================================================================================
; screen.asm - printing: characters and strings at a row and column, numbers, attributes
;
; The print position (print_row, print_col) and colours (print_attr) are this module's own;
; strings may carry control codes (PR_AT row col, PR_ATTR a, PR_NEWLINE, PR_END = 0).
; Characters 20h-7Fh come from our font (font.asm, the ROM's design, with the pound sign at
; 60h); 80h up from graphics.asm.  The display file's row order is spectrum_facts 2.2.
; =============================================================================================

; ---------------------------------------------------------------------------------------------
; scr_cell_addr - display-file address of a character cell's top pixel row (the next pixel
; row is a page on); while scr_offscreen is set, its place in CU_PICTURE instead (the same
; offset within the page: the close-up's rows, closeup.asm, which draws nothing else then: the
; message rows' offsets there keep the lines under a refusal, main.asm)
; Input: B = row 0..23, C = column 0..31.  Output: HL.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
scr_cell_addr:
        ld a, b
        and 7                       ; the row within the third
        rrca
        rrca
        rrca
        or c
        ld l, a
        ld a, (scr_offscreen)
        or a
        ld a, HIGH CU_PICTURE
        jr nz, .high                ; Drawing the close-up off the screen?
        ld a, b
        and 0x18                    ; the third
        or HIGH SCREEN
.high:  ld h, a
        ret

; ---------------------------------------------------------------------------------------------
; scr_attr_addr - attribute address of a cell; while scr_offscreen is set, its place in
; CU_PICTURE_ATTRS (scr_cell_addr)
; Input: B = row, C = column.  Output: HL.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
scr_attr_addr:
        ld a, b
        rrca
        rrca
        rrca
        ld l, a
        ld a, (scr_offscreen)
        or a
        ld a, HIGH CU_PICTURE_ATTRS
        jr nz, .high                ; Drawing the close-up off the screen?
        ld a, l
        and 3
        or HIGH ATTRS
.high:  ld h, a
        ld a, l
        and 0xE0
        or c
        ld l, a
        ret

; ---------------------------------------------------------------------------------------------
; print_at - set the print position
; Input: B = row, C = column.  Output: print_row, print_col.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
print_at:
        push af
        ld a, b
        ld (print_row), a
        ld a, c
        ld (print_col), a
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; print_set_attr - the colours of what is printed next
; Input: A = attribute.  Output: print_attr.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
print_set_attr:
        ld (print_attr), a
        ret

; ---------------------------------------------------------------------------------------------
; glyph_addr - the 8 bytes that draw a character
; Input: A = code 20h..8Eh.  Output: HL = its glyph (a space for codes with none).
; Corrupts: AF.
; ---------------------------------------------------------------------------------------------
glyph_addr:
        cp CH_GRAPHICS_END
        jr nc, .blank               ; Past the last glyph (none: a space)?
        cp 0x80
        jr nc, .graphic             ; One of graphics.asm's characters (80h up)?
        sub 0x20
        jr c, .blank                ; Below the font (no glyph: a space)?
        ld hl, font
        jr .index
.graphic:
        sub 0x80
        ld hl, graphics_glyphs
.index: push de
        ld e, a
        ld d, 0
        ex de, hl
        add hl, hl
        add hl, hl
        add hl, hl
        add hl, de
        pop de
        ret
.blank: ld hl, font                 ; the space
        ret

; ---------------------------------------------------------------------------------------------
; print_char - print a character at the print position and move on (PR_NEWLINE: next row)
; Input: A = code.  Output: position advanced (after column 31: the next row).
; Corrupts: AF.
; ---------------------------------------------------------------------------------------------
print_char:
        push bc
        push de
        push hl
        cp PR_NEWLINE
        jr z, .newline              ; A new line?
        call glyph_addr
        ex de, hl                   ; DE = glyph
        ld a, (print_row)
        ld b, a
        ld a, (print_col)
        ld c, a
        call scr_attr_addr
        ld a, (print_attr)
        ld (hl), a
        call scr_cell_addr
        ld b, GLYPH_SIZE
.row:   ld a, (de)
        ld (hl), a
        inc de
        inc h
        djnz .row
        ld a, (print_col)
        inc a
        cp COLUMNS
        jr c, .same                 ; Room left on this row (column 31 not passed)?
.newline:
        ld a, (print_row)
        inc a
        cp ROWS
        jr c, .row_ok               ; Above the bottom row (else back to the top)?
        xor a
.row_ok:
        ld (print_row), a
        xor a
.same:  ld (print_col), a
        pop hl
        pop de
        pop bc
        ret

; ---------------------------------------------------------------------------------------------
; print_string - print a 0-terminated string with control codes
; Input: HL = string.  Output: HL = the byte after the terminator.  Corrupts: AF, BC.
; ---------------------------------------------------------------------------------------------
print_string:
        ld a, (hl)
        inc hl
        or a
        ret z                       ; The terminator?
        cp PR_AT
        jr z, .at                   ; PR_AT (a row and a column follow)?
        cp PR_ATTR
        jr z, .attr                 ; PR_ATTR (an attribute follows)?
        call print_char
        jp print_string
.at:    ld b, (hl)
        inc hl
        ld c, (hl)
        inc hl
        call print_at
        jp print_string
.attr:  ld a, (hl)
        inc hl
        ld (print_attr), a
        jp print_string

; ---------------------------------------------------------------------------------------------
; print_string_at - print_at then print_string
; Input: B = row, C = column, HL = string.  Output: as print_string.  Corrupts: AF, BC, HL.
; ---------------------------------------------------------------------------------------------
print_string_at:
        call print_at
        jp print_string

; ---------------------------------------------------------------------------------------------
; print_spaces - print spaces
; Input: B = how many (0 = none).  Output: position advanced.  Corrupts: AF, B.
; ---------------------------------------------------------------------------------------------
print_spaces:
        ld a, b
        or a
        ret z                       ; None to print?
.loop:  ld a, ' '
        call print_char
        djnz .loop
        ret

; ---------------------------------------------------------------------------------------------
; number_digits - the decimal digits of a number, no leading zeros
; Input: HL = 0..65535.  Output: number_buffer holds the digits and a 0; B = their count.
; Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
number_digits:
        push ix
        ld ix, number_buffer
        ld b, 0                     ; digits stored so far
        ld de, 10000
        call .digit
        ld de, 1000
        call .digit
        ld de, 100
        call .digit
        ld de, 10
        call .digit
        ld a, l
        add a, '0'
        ld (ix), a
        inc b
        ld (ix+1), 0
        pop ix
        ret
.digit: ld a, '0' - 1               ; count the subtractions of DE
.sub:   inc a
        or a
        sbc hl, de
        jr nc, .sub                 ; Did DE go into it once more?
        add hl, de
        cp '0'                      ; Is it a leading zero?
        jr nz, .store               ; A digit other than 0 (always stored)?
        inc b
        dec b
        ret z                       ; No digit stored yet (a leading zero, dropped)?
.store: ld (ix), a
        inc ix
        inc b
        ret

; ---------------------------------------------------------------------------------------------
; print_number - print an unsigned number without leading zeros
; Input: HL = 0..65535.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
print_number:
        call number_digits
        ld hl, number_buffer
        jp print_string

; ---------------------------------------------------------------------------------------------
; print_money - print a sum as the pound sign and the number
; Input: HL = pounds.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
print_money:
        ld a, CH_POUND
        call print_char
        jr print_number

; ---------------------------------------------------------------------------------------------
; print_number_right - print a number right-aligned in a field (spaces on the left)
; Input: HL = number, A = field width (1..6).  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
print_number_right:
        push af
        call number_digits
        pop af
        sub b
        jr c, .digits               ; Longer than the field (no spaces before it)?
        ld b, a
        call print_spaces
.digits:
        ld hl, number_buffer
        jp print_string

; ---------------------------------------------------------------------------------------------
; fill_attr - set the attribute of a rectangle of cells
; Input: B = top row, C = left column, D = height, E = width, A = attribute.
; Output: attributes set.  Corrupts: F, B, D, HL.
; ---------------------------------------------------------------------------------------------
fill_attr:
        push af
        call scr_attr_addr
        pop af
.rows:  push hl
        ld b, e
.cols:  ld (hl), a
        inc hl
        djnz .cols
        pop hl
        push de
        ld de, COLUMNS
        add hl, de
        pop de
        dec d
        jr nz, .rows                ; Another row?
        ret

; ---------------------------------------------------------------------------------------------
; clear_rect - blank a rectangle of cells and give it an attribute
; Input: B = top row, C = left column, D = height, E = width, A = attribute.
; Output: pixels cleared, attributes set.  Corrupts: AF, B, D, HL.
; ---------------------------------------------------------------------------------------------
clear_rect:
        push bc
        push de
        call fill_attr
        pop de
        pop bc
.rows:  push bc
        call scr_cell_addr
        ld c, GLYPH_SIZE            ; pixel lines
.line:  push hl
        ld b, e
.cols:  ld (hl), 0
        inc l
        djnz .cols
        pop hl
        inc h
        dec c
        jr nz, .line                ; Another pixel line of this row?
        pop bc
        inc b
        dec d
        jr nz, .rows                ; Another row?
        ret

; ---------------------------------------------------------------------------------------------
; cls - clear the whole screen to one attribute
; Input: A = attribute.  Output: screen cleared; print position 0,0.  Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
cls:
        ld hl, ATTRS
        ld (hl), a
        ld de, ATTRS + 1
        ld bc, ATTRS_SIZE - 1
        ldir
        ld hl, SCREEN
        ld (hl), 0
        ld de, SCREEN + 1
        ld bc, SCREEN_SIZE - 1
        ldir
        ld bc, 0
        jp print_at

; ---------------------------------------------------------------------------------------------
; draw_glyph_at - draw 8 bytes of pixels into a cell, leaving its attribute
; Input: B = row, C = column, DE = the 8 bytes.  Output: drawn.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
draw_glyph_at:
        call scr_cell_addr
        ld b, GLYPH_SIZE
.row:   ld a, (de)
        ld (hl), a
        inc de
        inc h
        djnz .row
        ret

