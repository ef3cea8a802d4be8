; =============================================================================================
; closeup.asm - the close-up in the lower third: the current square and the two before it,
; side by side as on the real board (colour band, name, price or what the square does; a
; picture twice its size for a square that is not a site), the current player's piece on
; the current square.  A square is looked up with board.asm's board_square_info (bd_*), and
; drawn with its colours (board_group_attrs, board_group_fills) and its cells (board_cell,
; board_draw_double).
; =============================================================================================

; --- Geometry -------------------------------------------------------------------------------------
; Three boxes side by side, square-2, square-1, square (the current one)
CLOSEUP_BOXES   equ 3
CU_BAND_ROW     equ CLOSEUP_TOP                     ; the colour band
CU_NAME_ROW     equ CLOSEUP_TOP + 1                 ; the name, up to CU_NAME_LINES lines
CU_NAME_LINES   equ 3
CU_PRICE_ROW    equ CLOSEUP_TOP + CLOSEUP_HEIGHT - 1
        assert CU_NAME_ROW + CU_NAME_LINES == CU_PRICE_ROW

; --- Colours --------------------------------------------------------------------------------------
ATTR_CU_EVEN    equ WHITE * PAPER + BLACK + BRIGHT  ; close-up boxes 0 and 2
ATTR_CU_ODD     equ WHITE * PAPER + BLACK           ; box 1, grey, to part the boxes
ATTR_CU_CURRENT equ WHITE * PAPER + BLUE + BRIGHT   ; the current square's box
ATTR_CU_GUTTER  equ BLACK * PAPER + WHITE           ; between the boxes

; =============================================================================================
; closeup_show - the close-up in rows CLOSEUP_TOP..: a square and the two before it side by
; side as on the real board (colour band, name, price or what it is), the square itself on
; the right, marked by its blue lettering and the current player's piece
; Input: A = square 0..39.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; =============================================================================================
closeup_show:
        push ix
        ld (cu_square), a
        LD_ROW_COL bc, CLOSEUP_TOP, CU_WIDTH    ; the gutters
        LD_ROW_COL de, CLOSEUP_HEIGHT, CU_GUTTER
        ld a, ATTR_CU_GUTTER
        call clear_rect
        LD_ROW_COL bc, CLOSEUP_TOP, CU_PITCH + CU_WIDTH
        LD_ROW_COL de, CLOSEUP_HEIGHT, CU_GUTTER
        ld a, ATTR_CU_GUTTER
        call clear_rect
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
        pop ix
        ret

; The boxes: left column, width, paper
CU_BOX_COL      equ 0
CU_BOX_WIDTH    equ 1
CU_BOX_ATTR     equ 2
CU_BOX_RECORD   equ 3
CU_WIDTH        equ 10              ; each box; a longer word breaks with a hyphen
CU_GUTTER       equ 1               ; a dark column between boxes: names never run together
CU_PITCH        equ CU_WIDTH + CU_GUTTER
closeup_boxes:
        db 0, CU_WIDTH, ATTR_CU_EVEN
        db CU_PITCH, CU_WIDTH, ATTR_CU_ODD
        db 2 * CU_PITCH, CU_WIDTH, ATTR_CU_CURRENT
        assert $ - closeup_boxes == CLOSEUP_BOXES * CU_BOX_RECORD
        assert CLOSEUP_BOXES * CU_PITCH - CU_GUTTER == COLUMNS

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
        ld a, (bd_group)            ; the colour band, of groups only
        cp BOARD_GROUPS
        jr nc, .name                ; No colour group?  No band.
        ld e, a
        ld d, 0
        ld hl, board_group_attrs
        add hl, de
        ld a, (hl)
        ld (cu_attr), a
        ld hl, board_group_fills
        add hl, de
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld a, (bd_state)
        bit SQ_MORTGAGED, a
        jr z, .band                 ; Not mortgaged?  The group's colour.
        ld a, ATTR_MORTGAGED        ; mortgaged: a red band that says so
        ld (cu_attr), a
        ld de, board_blank
.band:  ld b, CU_BAND_ROW
        ld c, (ix+CU_BOX_COL)
        ld l, (ix+CU_BOX_WIDTH)
        dec l                       ; the band stops a cell short: neighbours stay apart
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
        jr z, .name                 ; Not mortgaged?  No MORTGAGED on the band.
        ld b, CU_BAND_ROW
        ld c, (ix+CU_BOX_COL)
        call print_at
        ld a, ATTR_MORTGAGED
        ld (print_attr), a
        ld hl, str_mortgaged
        call print_string
.name:  ld a, (ix+CU_BOX_ATTR)
        ld (print_attr), a
        ld a, (bd_square)
        add a, a
        ld e, a
        ld d, 0
        ld hl, board_names
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        ld b, CU_NAME_ROW
        ld c, (ix+CU_BOX_COL)
        ld e, (ix+CU_BOX_WIDTH)
        call closeup_wrap
        call closeup_picture
        ld b, CU_PRICE_ROW
        ld c, (ix+CU_BOX_COL)
        call print_at
        call closeup_price
        ld a, (ix+CU_BOX_ATTR)      ; the current square: the current player's piece
        cp ATTR_CU_CURRENT
        ret nz                      ; Not the current square's box?  No piece.
        ld a, (v_num_players)
        or a
        ret z                       ; No players yet?  No piece.
        ld a, (ix+CU_BOX_COL)
        add a, (ix+CU_BOX_WIDTH)
        dec a
        ld c, a
        ld b, CU_PRICE_ROW
        call print_at
        ld a, (v_current)
        call player_glyph
        jp print_char

str_mortgaged:  db "MORTGAGED", 0

; ---------------------------------------------------------------------------------------------
; closeup_picture - a square that is not a site shows its picture as on the real board, twice
; the size, at the box's lower right (CU_PICTURE_ROW, the last two columns): a locomotive, a
; bulb or a tap, ?, a chest, the pound of a tax, GO's arrow, the jail's bars, a car parked,
; a policeman's helmet.  The names' second and third lines are at most 8 letters long, so
; they never reach it (tools' data; the first line is above it)
; Input: bd_kind, bd_square, IX = the box's record.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
closeup_picture:
        ld a, (bd_kind)
        cp KIND_SITE
        ret z                       ; A site?  Its band instead of a picture.
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
        jr nz, .draw                ; Not the Electric Company?  The kind's picture.
        ld de, gfx_electric         ; the other utility shows a tap
.draw:  ld b, CU_PICTURE_ROW
        ld a, (ix+CU_BOX_COL)
        add a, CU_WIDTH - 2
        ld c, a
        jp board_draw_double

CU_PICTURE_ROW  equ CU_PRICE_ROW - 2
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
; closeup_price - what a square costs or does, at the print position: the price of a property,
; the tax, GO's salary, the jail fine, the Free Parking jackpot (if that option is on)
; Input: bd_square, bd_kind.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
closeup_price:
        ld a, (bd_kind)
        cp KIND_SITE
        jr z, .price                ; A site?  Its price.
        cp KIND_STATION
        jr z, .price                ; A station?  Its price.
        cp KIND_UTILITY
        jr z, .price                ; A utility?  Its price.
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
.tax:   push hl
        ld a, (bd_square)
        call board_record
        ld de, BOARD_RENTS
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        pop hl
.say:   push de
        call print_string
        pop hl
        jp print_money
.price: ld a, (bd_square)
        call board_record
        ld de, BOARD_PRICE
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        jp print_money

str_pay:        db "Pay ", 0
str_get:        db "Get ", 0
str_fine:       db "Fine ", 0
str_jackpot:    db "Pot ", 0

; ---------------------------------------------------------------------------------------------
; closeup_wrap - print a name over up to CU_NAME_LINES lines, breaking between words (a word
; longer than a line is broken where the line ends)
; Input: HL = 0-terminated text, B = first row, C = column, E = line width.
; Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
closeup_wrap:
        ld a, e
        ld (closeup_wrap_width), a
        ld (closeup_wrap_row), bc
        ld d, CU_NAME_LINES         ; D = lines left
.line:  ld bc, (closeup_wrap_row)
        call print_at
        ld a, (closeup_wrap_width)
        ld e, a                     ; E = room left on the line
.word:  ld a, (hl)                  ; skip spaces
        cp ' '
        jr nz, .measure             ; Not a space?  A word starts.
        inc hl
        jr .word
.measure:
        or a
        ret z                       ; The name's end?
        push hl                     ; C = the word's length
        ld c, 0
.count: ld a, (hl)
        or a
        jr z, .counted              ; The name's end?  The word is counted.
        cp ' '
        jr z, .counted              ; A space?  The word is counted.
        inc c
        inc hl
        jr .count
.counted:
        pop hl
        ld a, (closeup_wrap_width)
        cp e
        jr z, .first                ; the line's first word: no space before it
        ld a, c
        inc a                       ; a space, then the word
        cp e
        jr z, .fits                 ; Does the word with its space fill the line exactly?
        jr nc, .next_line           ; Too long for what is left of the line?
.fits:  ld a, ' '
        call print_char
        dec e
        jr .print
.first: ld a, c
        cp e
        jr c, .print                ; Does the word fit on a line?
        jr z, .print                ; Does it fill the line exactly?
        ld c, e                     ; too long for any line: break it with a hyphen
        dec c
        ld a, 1
        ld (closeup_wrap_hyphen), a
.print: ld a, e
        sub c
        ld e, a
.char:  ld a, (hl)
        inc hl
        call print_char
        dec c
        jr nz, .char                ; Another letter of the word?
        ld a, (closeup_wrap_hyphen)
        or a
        jr z, .whole                ; The word whole?  (else it was broken: a hyphen)
        xor a
        ld (closeup_wrap_hyphen), a
        ld a, '-'
        call print_char
        dec e
.whole: ld a, e
        or a
        jr nz, .word                ; Room left on the line?
.next_line:
        dec d
        ret z                       ; Was that the last line?
        ld a, (closeup_wrap_row + 1) ; the next row, the same column
        inc a
        ld (closeup_wrap_row + 1), a
        jr .line
