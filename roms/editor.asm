; =============================================================================================
; editor.asm - the line editor in the lower screen
;
; The line being typed lives at E_LINE (ending 0x0D, 0x80), the cursor at K_CUR.  The frame
; interrupt decodes keys into LAST_K for the current mode (keyboard.asm); the editor takes
; each new key, changes the line, works out the next mode and redraws the line at the bottom
; of the screen, growing the lower screen upwards when the line needs more rows.
;
; Modes (spectrum_facts 3.4): K where a statement begins (the start of the line, after its
; number, after ":" outside quotes, after THEN) - letters give keywords; L or C (CAPS LOCK)
; elsewhere; E for one key after CAPS SHIFT + SYMBOL SHIFT; G between two GRAPHICS keys.
; The cursor is the mode's letter, flashing.
;
; Keys: DELETE (CAPS SHIFT + 0), cursor left/right (CAPS SHIFT + 5 / 8), CAPS LOCK (+ 2),
; EDIT (+ 1: brings the last line entered down), ENTER.  Other controls are ignored.
; =============================================================================================

ED_MAX_BYTES    equ 400             ; the longest edit line (the lower screen grows to 23 rows,
                                    ; then scrolls)

; ed_set_mode's state bits
ESM_KEYWORD     equ 0               ; a keyword is due here (K mode)
ESM_QUOTE       equ 1               ; inside a string
ESM_NUMBER      equ 2               ; still in the line number at the start
ESM_REM         equ 3               ; after REM: the rest is text

; ---------------------------------------------------------------------------------------------
; ed_edit_line - let the user type a line; returns when ENTER is pressed
; Input:   the edit line at E_LINE, the cursor at K_CUR
; Output:  the line as typed (no hidden numbers yet)
; Corrupts: AF, BC, DE, HL, BC', DE'
; ---------------------------------------------------------------------------------------------
ed_edit_line:
        call ed_redraw
.wait:  ei
        halt                        ; keys come from the frame interrupt
        ld hl, FLAGS
        bit FLAG_NEW_KEY, (hl)
        jr z, .wait                 ; Has a key come?
        res FLAG_NEW_KEY, (hl)
        ld hl, TV_FLAG
        bit TV_MESSAGE, (hl)
        jr z, .key                  ; Is a report or the copyright shown?  The key clears it.
        res TV_MESSAGE, (hl)
        call cls_lower
.key:   ld a, (LAST_K)
        call ed_key
        ret z                       ; ENTER?
        call ed_redraw
        jr .wait

; ---------------------------------------------------------------------------------------------
; ed_key - act on one key
; Input:   A = key code
; Output:  Z if it was ENTER
; Corrupts: AF, BC, DE, HL, BC', DE'
; ---------------------------------------------------------------------------------------------
ed_key:
        cp CC_ENTER
        ret z
        call .act
        or 1                        ; NZ: not ENTER
        ret
.act:   ld hl, MODE
        cp CC_EXTEND
        jr z, .extend
        cp CC_GRAPHICS
        jr z, .graphics
        ld b, a
        ld a, (hl)
        cp MODE_EXTEND
        jr nz, .not_e               ; In E mode?  It lasts one key.
        ld (hl), MODE_NORMAL        ; E mode lasts one key
.not_e: ld a, b
        cp CC_CAPS_LOCK
        jr z, .caps_lock
        cp CC_DELETE
        jr z, ed_delete
        cp CC_LEFT
        jr z, ed_left
        cp CC_RIGHT
        jr z, ed_right
        cp CC_EDIT
        jp z, ed_bring_down
        cp CH_SPACE
        ret c                       ; Another control?  Nothing.
        jr ed_insert
.extend:
        ld b, MODE_EXTEND
        jr .toggle
.graphics:
        ld b, MODE_GRAPHICS
.toggle:
        ld a, (hl)
        cp b
        ld a, b
        jr nz, .set                 ; Already in the mode?  The key leaves it.
        xor a                       ; MODE_NORMAL
.set:   ld (hl), a
        ret
.caps_lock:
        ld hl, FLAGS2
        ld a, 1 << F2_CAPS_LOCK
        xor (hl)
        ld (hl), a
        ret

; ---------------------------------------------------------------------------------------------
; ed_insert - put a character (or token) into the line at the cursor
; Input:   A = the code
; Output:  inserted (a line of ED_MAX_BYTES takes no more); K_CUR after it
; Corrupts: F, BC, DE, HL
; ---------------------------------------------------------------------------------------------
ed_insert:
        push af
        call ed_length
        ld de, ED_MAX_BYTES
        and a
        sbc hl, de
        pop bc
        ret nc                      ; Is the line full?
        ld a, b
        ; continues into ed_add_char

; ---------------------------------------------------------------------------------------------
; ed_add_char (ADD-CHAR, 0x0F81) - the output routine of channel R: A goes into the edit line
; at the cursor, and the cursor after it
; Input:   A = the code
; Output:  inserted, K_CUR after it.  Report 4 if memory is full.
; Corrupts: BC, DE, HL (AF kept)
; ---------------------------------------------------------------------------------------------
ed_add_char:
        ld hl, (K_CUR)
        ld bc, 1
        push af
        call mem_make_room
        pop af
        ld (hl), a
        inc hl
        ld (K_CUR), hl
        ret

; ---------------------------------------------------------------------------------------------
; ed_delete - remove the character before the cursor
; Input:   K_CUR
; Output:  the character gone, K_CUR on its place
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
ed_delete:
        call ed_at_start
        ret z                       ; At the line's start?  Nothing to delete.
        dec hl
        ld bc, 1
        jp mem_reclaim

; ---------------------------------------------------------------------------------------------
; ed_at_start - is the cursor at the start of the line?
; Input:   K_CUR, E_LINE
; Output:  HL = K_CUR; Z if so
; Corrupts: F, DE
; ---------------------------------------------------------------------------------------------
ed_at_start:
        ld de, (E_LINE)
        ld hl, (K_CUR)
        and a
        sbc hl, de
        add hl, de
        ret

; ---------------------------------------------------------------------------------------------
; ed_length - the edit line's length in bytes (without its ENTER)
; Input:   E_LINE, WORKSP
; Output:  HL = the length
; Corrupts: F, DE
; ---------------------------------------------------------------------------------------------
ed_length:
        ld hl, (WORKSP)
        dec hl
        dec hl
        ld de, (E_LINE)
        and a
        sbc hl, de
        ret

; ---------------------------------------------------------------------------------------------
; ed_left - the cursor one character left
; Input:   K_CUR
; Output:  K_CUR
; Corrupts: F, DE, HL
; ---------------------------------------------------------------------------------------------
ed_left:
        call ed_at_start
        ret z                       ; At the line's start?  It stays.
        dec hl
        ld (K_CUR), hl
        ret

; ---------------------------------------------------------------------------------------------
; ed_right - the cursor one character right (not past the ENTER)
; Input:   K_CUR
; Output:  K_CUR
; Corrupts: AF, HL
; ---------------------------------------------------------------------------------------------
ed_right:
        ld hl, (K_CUR)
        ld a, (hl)
        cp CC_ENTER
        ret z                       ; At the ENTER?  It stays.
        inc hl
        ld (K_CUR), hl
        ret

; ---------------------------------------------------------------------------------------------
; ed_bring_down (EDIT) - replace the edit line by a copy of the program line E_PPC (the last
; one entered, or the next one after it), printed into it through channel R, without its
; hidden numbers (ENTER makes them again); the cursor at its end
; Input:   E_PPC
; Output:  the edit line, K_CUR
; Corrupts: AF, BC, DE, HL, BC', DE'
; ---------------------------------------------------------------------------------------------
ed_bring_down:
        ld de, (E_PPC)
        call prog_find_line         ; HL = the line, or the one after it
        ld de, (VARS)
        and a
        sbc hl, de
        ret nc                      ; Is there such a line?  (else nothing)
        add hl, de
        push hl
        call ed_clear_line
        ld a, STREAM_R
        call chan_open
        pop hl
        ld b, (hl)                  ; the line number, in digits
        inc hl
        ld c, (hl)
        inc hl
        inc hl
        inc hl                      ; HL = its text
        push hl
        ld de, 0
        call pr_unsigned
        pop hl
.copy:  ld a, (hl)
        cp CC_ENTER
        jr z, .check                ; The line's end?
        inc hl
        cp CC_NUMBER
        jr nz, .char                ; A hidden number?  It stays behind.
        ld de, NUMBER_SIZE          ; the hidden number stays behind
        add hl, de
        jr .copy
.char:  rst ENTRY_PRINT_A
        jr .copy
.check: call ed_length
        ld de, ED_MAX_BYTES
        and a
        sbc hl, de
        ret c                       ; Short enough to edit?  (else not brought down after all)
        ; continues into ed_clear_line

; ---------------------------------------------------------------------------------------------
; ed_clear_line - empty the edit line and the workspace (E_LINE holds ENTER, 0x80 again)
; Input:   none
; Output:  K_CUR, WORKSP, STKBOT, STKEND; ECHO_E
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
ed_clear_line:
        ld hl, (STKEND)
        ld de, (E_LINE)
        and a
        sbc hl, de
        ld b, h
        ld c, l                     ; everything from E_LINE to STKEND ...
        ex de, hl
        ld a, b
        or c
        call nz, mem_reclaim        ; ... goes,
        ld (K_CUR), hl
        ld (hl), CC_ENTER           ; and the empty line is written anew in the free memory
        inc hl
        ld (hl), VARS_END
        inc hl
        ld (WORKSP), hl
        ld (STKBOT), hl
        ld (STKEND), hl
        ld a, 1                     ; it will take one row
        ld (ECHO_E + 1), a
        ret

; ---------------------------------------------------------------------------------------------
; ed_set_mode - K or L: is a keyword due at the cursor?  (FLAGS bit 3: clear for K)
; Input:   the edit line, K_CUR
; Output:  FLAGS bit 3
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
ed_set_mode:
        ld hl, (E_LINE)
        ld de, (K_CUR)
        ld c, (1 << ESM_KEYWORD) | (1 << ESM_NUMBER)
.next:  and a
        sbc hl, de
        add hl, de
        jr z, .done                 ; At the cursor?
        ld a, (hl)
        inc hl
        bit ESM_REM, c
        jr nz, .next                ; After REM?  Text only.
        bit ESM_QUOTE, c
        jr z, .outside
        cp CH_QUOTE                 ; in a string only its end matters
        jr nz, .next
        ld c, 0
        jr .next
.outside:
        cp CH_SPACE
        jr z, .next
        cp CH_QUOTE
        ld b, 1 << ESM_QUOTE
        jr z, .state
        cp ":"
        ld b, 1 << ESM_KEYWORD
        jr z, .state
        cp TK_THEN
        jr z, .state
        cp TK_REM
        ld b, 1 << ESM_REM
        jr z, .state
        ld b, 0
        bit ESM_NUMBER, c
        jr z, .state                ; Still in the line number?  Its digits keep K mode.
        cp "0"
        jr c, .state
        cp "9" + 1
        jr c, .next
.state: ld c, b
        jr .next
.done:  ld hl, FLAGS
        res FLAG_L_MODE, (hl)
        bit ESM_KEYWORD, c
        ret nz                      ; Is a keyword due?  K mode.
        set FLAG_L_MODE, (hl)
        ret

; ---------------------------------------------------------------------------------------------
; ed_redraw - show the edit line at the bottom of the screen, with its cursor
; The line ends on the bottom row; ECHO_E+1 holds how many rows it took last time (24 - its
; first row), and it is printed from there.  A longer line makes the lower screen grow as it
; is printed (pr_fix_row); a shorter one is printed again one row lower.  The lower screen is
; at least 2 rows; a message (TV_MESSAGE) in its first row stays while the line leaves it.
; Input:   the edit line, K_CUR, ECHO_E
; Output:  printed; DF_SZ, ECHO_E
; Corrupts: AF, BC, DE, HL, BC', DE'
; ---------------------------------------------------------------------------------------------
ed_redraw:
        call ed_set_mode
        ld a, STREAM_K
        call chan_open
.again: ld a, (ECHO_E + 1)          ; E = rows of the line last time (1 up)
        or a
        jr nz, .rows
        inc a
.rows:  ld e, a
        cp INIT_DF_SZ
        jr nc, .size
        ld a, INIT_DF_SZ
.size:  ld d, a                     ; D = the lower screen's size for it
        ld a, (DF_SZ)
        sub d
        jr c, .sized
        jr z, .sized                ; Does it shrink?  Its rows go back to the upper screen.
        ld c, a
        ld a, (DF_SZ)
        neg
        add a, ROWS
        ld b, a
        ld a, (ATTR_P)
        push de
        call cl_rows
        pop de
.sized: ld a, d
        ld (DF_SZ), a
        ld c, d                     ; clear the lower screen ...
        ld hl, TV_FLAG
        bit TV_MESSAGE, (hl)
        jr z, .clear                ; Under a message?  Just the line's rows.
        ld c, e
.clear: ld a, ROWS
        sub c
        ld b, a
        ld a, (BORDCR)
        push de
        call cl_rows
        pop de
        ld a, ROWS                  ; the line starts E rows from the bottom
        sub e
        ld b, a
        ld c, 0
        call pr_set_pos
        push de
        call ed_print_line
        pop de
        ld a, (DF_SZ)               ; rows used: as many more as the lower screen grew ...
        sub d
        jr z, .same                 ; Did it grow?
        add a, e
        ld (ECHO_E + 1), a
        ret
.same:  call pr_get_pos             ; ... or as far as the printing went: B - (24 - E) + 1
        ld a, b
        add a, e
        sub ROWS - 1
        cp e
        ret nc                      ; Fewer rows than before?  Again, lower down.
        ld (ECHO_E + 1), a
        jr .again

; ---------------------------------------------------------------------------------------------
; ed_print_line - print the edit line through RST 10h, the cursor where K_CUR is
; Input:   the edit line, K_CUR
; Output:  printed
; Corrupts: AF, BC, DE, HL, BC', DE'
; ---------------------------------------------------------------------------------------------
ed_print_line:
        ld hl, FLAGS
        set FLAG_NO_SPACE, (hl)     ; no space before a keyword at the start
        ld hl, (E_LINE)
.next:  ld de, (K_CUR)
        and a
        sbc hl, de
        add hl, de
        call z, ed_print_cursor     ; At the cursor?
        ld a, (hl)
        cp CC_ENTER
        ret z                       ; The line's end?
        inc hl
        cp CC_NUMBER
        jr z, .hidden               ; A hidden number (not shown)?
        rst ENTRY_PRINT_A
        jr .next
.hidden:
        ld de, NUMBER_SIZE
        add hl, de
        jr .next

; ---------------------------------------------------------------------------------------------
; ed_print_cursor - the mode letter, flashing; the keyword spacing is not disturbed
; Input:   MODE, FLAGS, FLAGS2
; Output:  printed
; Corrupts: AF, BC, BC', DE' (HL kept)
; ---------------------------------------------------------------------------------------------
ed_print_cursor:
        push hl
        ld a, (MODE)
        ld b, "E"
        cp MODE_EXTEND
        jr z, .letter               ; E mode?
        ld b, "G"
        cp MODE_GRAPHICS
        jr z, .letter               ; G mode?
        ld hl, FLAGS
        ld b, "K"
        bit FLAG_L_MODE, (hl)
        jr z, .letter               ; K mode?
        ld hl, FLAGS2
        ld b, "L"
        bit F2_CAPS_LOCK, (hl)
        jr z, .letter               ; L mode, or C (CAPS LOCK)?
        ld b, "C"
.letter:
        ld hl, v_pr_flags
        set PRF_FLASH, (hl)
        ld hl, FLAGS
        ld c, (hl)                  ; C bit FLAG_NO_SPACE: as it was
        ld a, b
        rst ENTRY_PRINT_A
        ld hl, FLAGS
        res FLAG_NO_SPACE, (hl)
        bit FLAG_NO_SPACE, c
        jr z, .done                 ; Was a space last before it?  Then as it was.
        set FLAG_NO_SPACE, (hl)
.done:  pop hl
        ret
