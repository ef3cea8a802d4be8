; =============================================================================================
; cursor.asm - the board cursor of Mortgage, Houses and Trade (booklet C, "Cursor movement")
;
; The cursor starts on GO at the start of each activity (booklet C: H, M, T, the raising of
; money; cursor_home), stays where it was between the choices of one activity, and is shown
; by making the square's cells flash; the
; square's name is shown on the status row while it moves.  CAPS SHIFT+5 (cursor left) moves
; it clockwise, to the next square number, as the booklet says; CAPS SHIFT+8 anticlockwise.
; SPACE asks the caller's routine to show the square's details; ENTER chooses the square;
; Q (or BREAK) gives up; any other key is refused, saying which keys it takes.  Whatever happens,
; the square and the status row are redrawn after.
; =============================================================================================

CURSOR_START    equ 0               ; GO
ATTR_CURSOR_NAME equ BLUE * PAPER + YELLOW + BRIGHT
CURSOR_KEY_QUIT        equ 'Q'

; ---------------------------------------------------------------------------------------------
; cursor_select - let the player pick a square with the cursor
; Input: HL = a routine called with A = the square when SPACE is pressed (it shows the
; square's details; it may corrupt AF, BC, DE, HL and must keep IX, IY).
; cursor_extra_key: KEY_NONE, or a key that chooses as ENTER does (cleared on return).
; Output: ENTER or the extra key: A = the square, B = the key, carry clear.  Q or BREAK:
; carry set.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
cursor_select:
        ld (cursor_details), hl
.show:  call cursor_show
.key:   call keys_wait_upper
        cp KEY_LEFT
        jr z, .clockwise            ; CAPS SHIFT+5: clockwise?
        cp KEY_RIGHT
        jr z, .anticlockwise        ; CAPS SHIFT+8: anticlockwise?
        cp KEY_SPACE
        jr z, .details              ; SPACE: the square's details?
        cp KEY_ENTER
        jr z, .chosen               ; ENTER: chosen?
        cp CURSOR_KEY_QUIT
        jr z, .quit                 ; Q: given up?
        cp KEY_BREAK
        jr z, .quit                 ; BREAK: given up?
        ld hl, cursor_extra_key
        cp (hl)
        jr nz, .other               ; Not the caller's extra key (P) either?
        ld b, a
        jr .chosen_by               ; (KEY_NONE never comes from keys_wait_upper)
.other: ld hl, str_cursor_keys      ; a key the cursor does not take: which it does
        call refuse_key
        jr .key
.clockwise:
        call cursor_hide
        ld a, (cursor_square)
        inc a
        cp BOARD_SQUARES
        jr c, .moved                ; Still on the board, before GO comes round?
        xor a
        jr .moved
.anticlockwise:
        call cursor_hide
        ld a, (cursor_square)
        sub 1
        jr nc, .moved               ; Still on the board, not back past GO?
        ld a, BOARD_SQUARES - 1
.moved: ld (cursor_square), a
        jr .show
.details:
        ld a, (cursor_square)
        ld hl, (cursor_details)
        call .call
        jr .show                    ; the routine may have drawn over the board
.call:  jp (hl)
.chosen:
        ld b, KEY_ENTER
.chosen_by:
        push bc
        call cursor_hide
        call board_draw_status
        pop bc
        xor a
        ld (cursor_extra_key), a
        ld a, (cursor_square)
        or a                        ; carry clear
        ret
.quit:  call cursor_hide
        call board_draw_status
        xor a
        ld (cursor_extra_key), a
        scf
        ret

; ---------------------------------------------------------------------------------------------
; cursor_home - an activity with the cursor begins: the cursor will start on GO ("At the start
; of each activity it appears in the GO square", booklet C)
; Input: none.  Output: cursor_square.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
cursor_home:
        push af
        ld a, CURSOR_START
        ld (cursor_square), a
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; cursor_show - flash the cursor's square and name it on the status row
; Input: cursor_square.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
cursor_show:
        ld a, (cursor_square)
        call board_mark_square
        LD_ROW_COL bc, STATUS_ROW, 0
        LD_ROW_COL de, 1, COLUMNS
        ld a, ATTR_CURSOR_NAME
        call clear_rect
        LD_ROW_COL bc, STATUS_ROW, 1
        call print_at
        ld a, ATTR_CURSOR_NAME
        ld (print_attr), a
        ld a, CH_CURSOR
        call print_char
        ld a, ' '
        call print_char
        ld a, (cursor_square)
        add a, a
        ld e, a
        ld d, 0
        ld hl, board_names
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        jp print_string

; ---------------------------------------------------------------------------------------------
; cursor_hide - take the cursor off its square (redraw the square)
; Input: cursor_square.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
cursor_hide:
        ld a, (cursor_square)
        jp board_draw_square

; ---------------------------------------------------------------------------------------------
; cursor_none - a details routine that shows nothing (for callers with nothing to show)
; Input: A = square.  Output: none.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
cursor_none:
        ret

str_cursor_keys: db "CAPS+5/8 move, SPACE details, ENTER chooses, Q quits.", 0
