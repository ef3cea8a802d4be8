; =============================================================================================
; closeup.asm - the close-up in the lower third: the square the current player's piece stands
; on and the two before it, as on the real board (colour band, name, price or what the square
; does; a picture for a square that is not a site), the current player's piece on his square
;
; Issue 45: the square landed on is the subject.  Its box is the large bright one on the
; right (CU_NOW_WIDTH columns, bright white, its picture twice the size); the two before it
; are narrower and in the shade (grey on black, their colours dimmed), the way there, with an
; arrow between each and the next.  Names are centred, line by line and in their rows.  A square is looked up with board.asm's board_square_info (bd_*)
; and drawn with its colours (board_group_attrs, board_group_fills) and cells (board_cell,
; board_draw_double).
;
; The close-up is drawn off the screen, into CU_PICTURE (main.asm: a block above the program,
; laid out as the display file's pages for these rows: scr_cell_addr and scr_attr_addr send
; rows there while scr_offscreen is set), then copied to the screen at the start of a frame
; (closeup_copy, about 30,000 T-states: done before the frame ends and ahead of the beam), so
; no frame ever shows a box half drawn or one box of the last square beside one of the next.
; Only the close-up's rows are written there and copied: the rest of each page (the message
; rows' offsets) keeps the message lines under a refusal (refuse.asm), so nothing the close-up
; prints may pass column 31 of its last row.
; =============================================================================================

; --- Geometry -------------------------------------------------------------------------------------
CLOSEUP_BOXES   equ 3
CU_BAND_ROW     equ CLOSEUP_TOP                     ; the colour band (or a way box's picture)
CU_NAME_ROW     equ CLOSEUP_TOP + 1                 ; the name, up to CU_NAME_LINES lines
CU_NAME_LINES   equ 3
CU_PRICE_ROW    equ CLOSEUP_TOP + CLOSEUP_HEIGHT - 1
        assert CU_NAME_ROW + CU_NAME_LINES == CU_PRICE_ROW
CU_PICTURE_ROW  equ CLOSEUP_TOP                     ; the current square's picture, twice the
                                                    ; size, in the band's row and the next
CU_NOW_NAME_LINES equ CU_NAME_LINES - 1             ; below that picture: its name's lines
CU_WAY_WIDTH    equ 9                               ; each square on the way
CU_NOW_WIDTH    equ 12                              ; the square landed on
CU_GUTTER       equ 1                               ; a dark column with an arrow between boxes
CU_ARROW_ROW    equ CLOSEUP_TOP + 2
        assert 2 * (CU_WAY_WIDTH + CU_GUTTER) + CU_NOW_WIDTH == COLUMNS
        assert CU_NOW_WIDTH > CU_WAY_WIDTH

; --- Colours --------------------------------------------------------------------------------------
ATTR_CU_WAY     equ BLACK * PAPER + WHITE           ; the squares on the way: in the shade
ATTR_CU_CURRENT equ WHITE * PAPER + BLACK + BRIGHT  ; the square landed on: in the light
ATTR_CU_GUTTER  equ BLACK * PAPER + YELLOW + BRIGHT ; between the boxes, and its arrow

; The boxes, left to right: column, width, paper, 1 for the square landed on
CU_BOX_COL      equ 0
CU_BOX_WIDTH    equ 1
CU_BOX_ATTR     equ 2
CU_BOX_NOW      equ 3
CU_BOX_RECORD   equ 4
closeup_boxes:
        db 0, CU_WAY_WIDTH, ATTR_CU_WAY, 0
        db CU_WAY_WIDTH + CU_GUTTER, CU_WAY_WIDTH, ATTR_CU_WAY, 0
        db 2 * (CU_WAY_WIDTH + CU_GUTTER), CU_NOW_WIDTH, ATTR_CU_CURRENT, 1
        assert $ - closeup_boxes == CLOSEUP_BOXES * CU_BOX_RECORD

; =============================================================================================
; closeup_show - the close-up in rows CLOSEUP_TOP..: a square and the two before it, drawn off
; the screen and then shown whole at the start of a frame (closeup_copy)
; Input: A = square 0..39.  Output: drawn (after one HALT).  Corrupts: AF, BC, DE, HL.
; =============================================================================================
closeup_show:
        push ix
        ld (cu_square), a
        ld a, 1
        ld (scr_offscreen), a       ; every cell drawn from here goes to CU_PICTURE
        LD_ROW_COL bc, CLOSEUP_TOP, CU_WAY_WIDTH            ; the gutters and their arrows
        call closeup_gutter
        LD_ROW_COL bc, CLOSEUP_TOP, 2 * CU_WAY_WIDTH + CU_GUTTER
        call closeup_gutter
        ld ix, closeup_boxes
        ld c, CLOSEUP_BOXES - 1     ; C = how far before the square this box is
.box:   ld a, (cu_square)
        sub c
        jr nc, .in                  ; Not before GO?  (else round to the board's end)
        add a, BOARD_SQUARES        ; below GO: round to the board's end
.in:    push bc
        call closeup_box
        pop bc
        ld de, CU_BOX_RECORD
        add ix, de
        dec c
        jp p, .box                  ; Another box?
        xor a
        ld (scr_offscreen), a
        pop ix
        halt                        ; a frame starts: the copy is done long before it ends
        jp closeup_copy

; ---------------------------------------------------------------------------------------------
; closeup_gutter - a dark column between two boxes, with the arrow that points the way
; Input: B = top row, C = its column.  Output: drawn.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
closeup_gutter:
        push bc
        LD_ROW_COL de, CLOSEUP_HEIGHT, CU_GUTTER
        ld a, ATTR_CU_GUTTER
        call clear_rect
        pop bc
        ld b, CU_ARROW_ROW
        ld de, gfx_way
        jp draw_glyph_at

; ---------------------------------------------------------------------------------------------
; closeup_copy - show the close-up drawn in CU_PICTURE: its pixel rows and attributes to the
; screen (the display file's rows of a third are CLOSEUP_HEIGHT * COLUMNS bytes apart from
; one pixel line to the next page's); only its rows (not the message rows' offsets)
; Input: CU_PICTURE.  Output: rows CLOSEUP_TOP.. of the screen.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
closeup_copy:
        ld hl, CU_PICTURE
        ld de, SCREEN + (CLOSEUP_TOP & 0x18) * 256 + (CLOSEUP_TOP & 7) * COLUMNS
        ld a, GLYPH_SIZE            ; each pixel line of the rows, one page apart
.line:  push hl
        push de
        ld bc, CLOSEUP_HEIGHT * COLUMNS
        ldir
        pop de
        pop hl
        inc h
        inc d
        dec a
        jr nz, .line                ; Another pixel line?
        ld hl, CU_PICTURE_ATTRS
        ld de, ATTRS + CLOSEUP_TOP * COLUMNS
        ld bc, CLOSEUP_HEIGHT * COLUMNS
        ldir
        ret
        assert (CLOSEUP_TOP & 7) + CLOSEUP_HEIGHT <= HALF_ROWS ; (all in one third)

; ---------------------------------------------------------------------------------------------
; closeup_box - one box of the close-up
; Input: A = square, IX = its closeup_boxes record.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
closeup_box:
        call board_square_info
        ld b, CLOSEUP_TOP
        ld c, (ix+CU_BOX_COL)
        ld d, CLOSEUP_HEIGHT
        ld e, (ix+CU_BOX_WIDTH)
        ld a, (ix+CU_BOX_ATTR)
        call clear_rect
        call closeup_colours        ; cu_attr, DE = the band's fill
        ld a, (bd_kind)
        cp KIND_SITE
        jr nz, .picture             ; Not a site?  Its picture instead of a band.
        ld b, CU_BAND_ROW
        ld c, (ix+CU_BOX_COL)
        ld l, (ix+CU_BOX_WIDTH)
.cell:  push hl
        push de
        ld a, (cu_attr)
        call board_cell
        pop de
        pop hl
        inc c
        dec l
        jr nz, .cell                ; Another cell of the band?
        ld a, (bd_state)
        bit SQ_MORTGAGED, a
        jr z, .name_3               ; Not mortgaged?  No MORTGAGED on the band.
        ld a, ATTR_MORTGAGED
        ld (print_attr), a
        ld b, CU_BAND_ROW
        ld hl, str_mortgaged
        call closeup_centred
.name_3:
        ld d, CU_NAME_LINES         ; a site's name: three lines under the band
        ld b, CU_NAME_ROW
        jr .name
.picture:
        call closeup_picture
        ld d, CU_NAME_LINES         ; under a way box's picture: three lines
        ld b, CU_NAME_ROW
        ld a, (ix+CU_BOX_NOW)
        or a
        jr z, .name                 ; A way box?  (else under the picture twice the size)
        ld d, CU_NOW_NAME_LINES
        ld b, CU_PICTURE_ROW + 2
.name:  ld a, (ix+CU_BOX_ATTR)
        ld (print_attr), a
        push bc
        push de
        ld a, (bd_square)
        call square_name            ; HL = the name
        pop de
        pop bc
        ld c, (ix+CU_BOX_COL)
        ld e, (ix+CU_BOX_WIDTH)
        call closeup_wrap
        call closeup_price          ; the price row (MORTGAGED for a property without a band)
        ld a, (ix+CU_BOX_NOW)       ; the square landed on: the current player's piece
        or a
        ret z                       ; Not the square landed on?  No piece.
        ld a, (v_num_players)
        or a
        ret z                       ; No players yet?  No piece.
        ld a, (ix+CU_BOX_COL)
        add a, (ix+CU_BOX_WIDTH)
        dec a
        ld c, a
        ld b, CU_PRICE_ROW
        call print_at
        ld a, (ix+CU_BOX_ATTR)
        ld (print_attr), a
        ld a, (v_current)
        call player_glyph
        jp print_char

str_mortgaged:  db "MORTGAGED", 0

; ---------------------------------------------------------------------------------------------
; closeup_colours - the colours of a square's band or picture: its group's (dimmed, without
; BRIGHT, in a way box), red for a mortgaged property, the box's own for a square of no group;
; a band in the status row's colours (right above it) gets a line along its top (issue 45)
; Input: bd_group, bd_state, IX = the box.  Output: cu_attr, DE = the band's fill (8 bytes).
; Corrupts: AF, HL.
; ---------------------------------------------------------------------------------------------
closeup_colours:
        ld a, (ix+CU_BOX_ATTR)
        ld (cu_attr), a
        ld de, board_blank
        ld a, (bd_state)
        bit SQ_MORTGAGED, a
        jr nz, .mortgaged           ; Mortgaged?  White on red, whatever the group.
        ld a, (bd_group)
        cp BOARD_GROUPS
        ret nc                      ; No group (GO, Chance, a tax ...)?  The box's colours.
        ld e, a
        ld d, 0
        ld hl, board_group_attrs
        add hl, de
        ld a, (hl)
        ld hl, board_group_fills
        add hl, de
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        cp ATTR_STATUS
        jr nz, .dim                 ; Not in the status row's colours (the dark blue's)?
        ld de, cu_band_top          ; a line along its top keeps it apart from that row above
.dim:   ld l, (ix+CU_BOX_NOW)
        inc l
        dec l
        jr nz, .store               ; The square landed on?  (else dimmed: the way there)
        and 0xFF - BRIGHT
.store: ld (cu_attr), a
        ret
.mortgaged:
        ld a, ATTR_MORTGAGED
        ld (cu_attr), a
        ret

; ---------------------------------------------------------------------------------------------
; closeup_centred - print a string centred in the box's width on a row
; Input: HL = string, B = row, IX = the box.  Output: printed.  Corrupts: AF, BC, HL.
; ---------------------------------------------------------------------------------------------
closeup_centred:
        push hl
        call closeup_length         ; C = its length
        pop hl
        ld a, (ix+CU_BOX_WIDTH)
        sub c
        srl a
        add a, (ix+CU_BOX_COL)
        ld c, a
        call print_at
        jp print_string

; ---------------------------------------------------------------------------------------------
; closeup_length - the length of a 0-terminated string
; Input: HL.  Output: C.  Corrupts: AF, HL.
; ---------------------------------------------------------------------------------------------
closeup_length:
        ld c, 0
.count: ld a, (hl)
        or a
        ret z                       ; The end?
        inc c
        inc hl
        jr .count

; ---------------------------------------------------------------------------------------------
; closeup_picture - a square that is not a site shows its picture as on the real board: a
; locomotive, a bulb or a tap, ?, a chest, the pound of a tax, GO's arrow, the jail's bars, a
; car parked, a policeman's helmet; in the square landed on twice the size across the band's
; row and the next, in a way box as a cell in the band's row, both centred, in the colours of
; closeup_colours (a station's black, a utility's cyan, red when mortgaged)
; Input: bd_kind, bd_square, cu_attr, IX = the box's record.  Output: drawn.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
closeup_picture:
        ld a, (bd_kind)
        ld e, a
        ld d, 0
        ld hl, closeup_pictures
        add hl, de
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld a, (bd_square)
        cp SQ_ELECTRIC
        jr nz, .where               ; Not the Electric Company?  The kind's picture.
        ld de, gfx_electric         ; the other utility shows a tap
.where: ld a, (ix+CU_BOX_NOW)
        or a
        jr nz, .double              ; The square landed on?  Twice the size.
        ld a, (ix+CU_BOX_WIDTH)
        dec a
        srl a
        add a, (ix+CU_BOX_COL)
        ld c, a
        ld b, CU_BAND_ROW
        push bc
        push de
        call scr_attr_addr
        ld a, (cu_attr)
        ld (hl), a
        pop de
        pop bc
        jp draw_glyph_at
.double:
        ld a, (ix+CU_BOX_WIDTH)
        sub 2
        srl a
        add a, (ix+CU_BOX_COL)
        ld c, a
        ld b, CU_PICTURE_ROW
        push bc
        push de
        LD_ROW_COL de, 2, 2
        ld a, (cu_attr)
        call fill_attr
        pop de
        pop bc
        jp board_draw_double

closeup_pictures:                   ; by KIND_*
        dw gfx_arrow                        ; GO
        dw 0                                ; a site: its colour band instead
        dw gfx_station
        dw gfx_water                        ; (Electric Company: gfx_electric)
        dw font + ('?' - ' ') * GLYPH_SIZE  ; Chance
        dw gfx_chest
        dw font + (CH_POUND - ' ') * GLYPH_SIZE
        dw gfx_bars                         ; Jail
        dw graphics_glyphs + TOKEN_CAR * GLYPH_SIZE ; Free Parking
        dw gfx_helmet                       ; Go To Jail
        assert $ - closeup_pictures == (KIND_GO_TO_JAIL + 1) * 2
        assert KIND_GO == 0 && KIND_SITE == 1 && KIND_STATION == 2 && KIND_UTILITY == 3
        assert KIND_CHANCE == 4 && KIND_CHEST == 5 && KIND_TAX == 6 && KIND_JAIL == 7
        assert KIND_FREE_PARKING == 8

; ---------------------------------------------------------------------------------------------
; closeup_price - the price row, centred: what a square costs or does (the price of a property,
; MORTGAGED in red for a station or utility that has no band to say it, the tax, GO's salary,
; the jail fine, the Free Parking jackpot if that option is on; nothing for the others); in
; the square landed on it keeps clear of the piece's cell at the row's end
; Input: bd_square, bd_kind, bd_state, IX = the box.  Output: printed.  Corrupts: AF, BC, DE,
; HL.
; ---------------------------------------------------------------------------------------------
closeup_price:
        ld a, (ix+CU_BOX_ATTR)
        ld (print_attr), a
        ld a, (bd_kind)
        cp KIND_SITE
        jr z, .price                ; A site?  Its price (a mortgage is on its band).
        cp KIND_STATION
        jr z, .property             ; A station?  Its price, or MORTGAGED.
        cp KIND_UTILITY
        jr z, .property             ; A utility?  Its price, or MORTGAGED.
        ld hl, str_pay
        cp KIND_TAX
        jr z, .tax                  ; A tax?  "Pay" and the tax.
        ld hl, str_get
        ld de, GO_SALARY
        cp KIND_GO
        jr z, .say                  ; GO?  "Get" and the salary.
        ld hl, str_fine
        ld de, JAIL_FINE
        cp KIND_JAIL
        jr z, .say                  ; The jail?  "Fine" and the fine.
        cp KIND_FREE_PARKING
        ret nz                      ; Not Free Parking?  Nothing to say (Chance, Chest, Go To Jail).
        ld a, (v_options)
        bit OPT_JACKPOT, a
        ret z                       ; No jackpot option?  Nothing to say.
        ld hl, str_jackpot
        ld de, (v_jackpot)
        jr .say
.property:
        ld a, (bd_state)
        bit SQ_MORTGAGED, a
        jr z, .price                ; Not mortgaged?  Its price.
        ld a, ATTR_MORTGAGED
        ld (print_attr), a
        ld b, CU_PRICE_ROW
        ld hl, str_mortgaged
        jp closeup_centred
.tax:   push hl
        ld a, (bd_square)
        call board_record
        ld de, BOARD_RENTS
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        pop hl
        jr .say
.price: ld a, (bd_square)
        call board_record
        ld de, BOARD_PRICE
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld hl, str_no_words
.say:   push hl                     ; HL = the words, DE = the sum: how wide, then where
        push de
        ex de, hl
        call number_digits          ; B = the sum's digits
        pop de
        pop hl
        push hl
        call closeup_length         ; C = the words' length
        pop hl
        ld a, c
        add a, b
        inc a                       ; and the pound sign
        ld c, a                     ; C = the width of it all
        ld a, (ix+CU_BOX_WIDTH)
        sub c
        jr nc, .centre              ; Does it fit the box?  (else from its edge, into the gutter:
        xor a                       ; "Pot £12345" is a cell wider than a way box, and nothing
.centre:                            ; may go past column 31 into the message lines' offsets)
        srl a                       ; A = centred
        ld b, a
        ld a, (ix+CU_BOX_NOW)
        or a
        jr z, .at                   ; A way box?  Centred.
        ld a, b                     ; the square landed on: ends two cells before the piece
        add a, c
        cp CU_NOW_WIDTH - 1
        jr c, .at                   ; Clear of the piece?
        ld a, CU_NOW_WIDTH - 2
        sub c
        ld b, a
        jr nc, .at                  ; Room for it there?  (else from the box's edge)
        ld b, 0
.at:    ld a, b
        add a, (ix+CU_BOX_COL)
        ld c, a
        ld b, CU_PRICE_ROW
        call print_at
        push de
        call print_string
        pop hl
        jp print_money

str_pay:        db "Pay ", 0
str_get:        db "Get ", 0
str_fine:       db "Fine ", 0
str_jackpot:    db "Pot ", 0
str_no_words:   db 0

; ---------------------------------------------------------------------------------------------
; closeup_wrap - print a square's name over up to D lines, the lines centred in the box's
; width and among the D rows, breaking between words (a word longer than a line is broken
; with a hyphen: closeup_break)
; Input: HL = the name (0-terminated), bd_square, B = first row, C = the box's column, E = its
; width, D = the lines.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
closeup_wrap:
        ld (closeup_wrap_name), hl
        ld a, e
        ld (closeup_wrap_width), a
        ld (closeup_wrap_row), bc
        ld a, d
        ld (closeup_wrap_lines), a
        ld a, 1                     ; first, without printing: how many lines it takes
        ld (closeup_wrap_dry), a
        push hl
        push bc
        push de
        call .lines                 ; closeup_wrap_lines = the lines it leaves empty
        pop de
        pop bc
        pop hl
        ld a, (closeup_wrap_lines)
        srl a                       ; half of them above it
        ld e, a
        add a, b
        ld b, a
        ld (closeup_wrap_row), bc
        ld a, d
        sub e
        ld (closeup_wrap_lines), a
        xor a
        ld (closeup_wrap_dry), a
.lines: ld a, (hl)                  ; (the lines from HL; closeup_wrap_lines counts down)
        or a
        ret z                       ; Nothing (left) to print?
.line:  ld a, (hl)                  ; skip spaces
        cp ' '
        jr nz, .start               ; Not a space?  The line starts with this word.
        inc hl
        jr .line
.start: or a
        ret z                       ; The name's end?
        call closeup_word           ; C = the first word's length
        xor a
        ld (closeup_wrap_hyphen), a
        ld a, (closeup_wrap_width)
        cp c
        jr nc, .fits                ; Does the word fit on a line?
        call closeup_break          ; too long for any line: C letters, then a hyphen
        ld a, 1
        ld (closeup_wrap_hyphen), a
        jr .measured
.fits:  push hl                     ; the words that fit after it: C = the line's length
        ld e, c
        ld d, 0
        add hl, de                  ; HL = after the word
.more:  ld a, (hl)
        cp ' '
        jr nz, .full                ; The name's end?  (no space follows the word)
        inc hl
        push bc
        call closeup_word           ; C = the next word's length
        ld a, c
        pop bc
        ld b, a                     ; B = the next word's length
        add a, c
        inc a                       ; the line, a space and the word
        push hl
        ld hl, closeup_wrap_width
        cp (hl)
        pop hl
        jr z, .take                 ; Does it fill the line exactly?
        jr nc, .full                ; Too long for the line?
.take:  ld c, a
        ld e, b
        ld d, 0
        add hl, de
        jr .more                    ; (another word?)
.full:  pop hl                      ; the line's start
.measured:
        ld a, (closeup_wrap_dry)
        or a
        jr z, .print                ; Printing?  (else only counting: past the line)
        ld e, c
        ld d, 0
        add hl, de
        jr .next
.print: ld a, (closeup_wrap_hyphen) ; C letters from HL (and the hyphen): centred
        add a, c
        ld b, a
        ld a, (closeup_wrap_width)
        sub b
        srl a
        push bc
        ld bc, (closeup_wrap_row)   ; B = the row, C = the box's column
        add a, c
        ld c, a
        call print_at
        pop bc
.char:  ld a, (hl)
        inc hl
        call print_char
        dec c
        jr nz, .char                ; Another letter of the line?
        ld a, (closeup_wrap_hyphen)
        or a
        jr z, .next                 ; The word whole?  (else broken: a hyphen)
        ld a, '-'
        call print_char
.next:  ld a, (closeup_wrap_lines)
        dec a
        ld (closeup_wrap_lines), a
        ret z                       ; Was that the last line?
        ld a, (closeup_wrap_row + 1) ; the next row, the same column
        inc a
        ld (closeup_wrap_row + 1), a
        jp .line

; ---------------------------------------------------------------------------------------------
; closeup_break - how much of a word too long for a line goes on it: up to the name's break
; (board_name_breaks: "White-chapel") when that falls on the line, else all the line holds
; but the hyphen's cell
; Input: HL = the word in the name (closeup_wrap_name), bd_square, closeup_wrap_width.
; Output: C = the letters before the hyphen.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
closeup_break:
        push de
        push hl
        ld de, (closeup_wrap_name)
        or a
        sbc hl, de
        ld e, l                     ; E = the word's place in the name
        ld a, (bd_square)
        ld hl, board_name_breaks
        add a, l
        ld l, a
        adc a, h
        sub l
        ld h, a
        ld a, (hl)                  ; the name's break
        pop hl
        sub e                       ; how far into this word
        ld c, a
        jr z, .line                 ; No break in this word?
        ld a, (closeup_wrap_width)
        dec a                       ; the most letters a line holds with the hyphen
        cp c
        jr c, .line                 ; Past the line's end?  (a break before the word: large)
        pop de
        ret
.line:  ld a, (closeup_wrap_width)  ; all the line holds
        dec a
        ld c, a
        pop de
        ret

; ---------------------------------------------------------------------------------------------
; closeup_word - the length of the word at HL (up to a space or the end)
; Input: HL.  Output: C = its length.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
closeup_word:
        push hl
        ld c, 0
.count: ld a, (hl)
        or a
        jr z, .done                 ; The end?
        cp ' '
        jr z, .done                 ; A space?
        inc c
        inc hl
        jr .count
.done:  pop hl
        ret
