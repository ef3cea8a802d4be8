; =============================================================================================
; refuse.asm - refusals: a key the game does not take, or cannot act on now, is answered with a
; line that says why, with the low tone, for REFUSAL_FRAMES at either speed (issue 45)
;
; Two kinds.  refuse_show: the refusal replaces the message lines, and the caller asks its
; question again (the next msg_clear waits out the refusal).  refuse_keep and refuse_key: the
; question on the message lines stays - they are kept, the refusal shown over them for its
; time, then put back as they were, so a question composed of many parts need not be printed
; again.  While a refusal is shown a key typed for the question is kept (keys_ahead_arm) and
; answers it.  refuse_key drops a key that was typed ahead without a word: it was not meant
; for this question.
;
; The message lines under a refusal are kept in the close-up's picture (main.asm, CU_PICTURE):
; its pages are laid out as the display file's third that holds both the close-up's rows and
; the message lines, and the close-up uses only its own rows (offsets 0 .. CU_MSG_OFFSET - 1
; of each page), so the message lines' offsets in those pages (CU_MSG_OFFSET ..) are free for
; them.  The two never meet: closeup_show writes and closeup_copy reads only the close-up's
; rows (closeup.asm), and no close-up is drawn while a refusal is shown anyway.
; =============================================================================================

REFUSE_ROW_ADDR equ SCREEN + (MSG_TOP / 8) * SCREEN_THIRD + (MSG_TOP % 8) * COLUMNS
REFUSE_ROW_BYTES equ MSG_HEIGHT * COLUMNS       ; one pixel line of the message rows ...
        assert MSG_TOP % 8 + MSG_HEIGHT <= 8    ; ... all in one third: the bytes are in a run
REFUSE_ATTR_ADDR equ ATTRS + MSG_TOP * COLUMNS
REFUSE_LINE_STEP equ 256                        ; from one pixel line of a row to the next
REFUSE_PIXELS   equ CU_PICTURE + CU_MSG_OFFSET  ; the kept pixel lines: one a page, as on the
                                                ; screen (the same offset: REFUSE_ROW_ADDR's)
REFUSE_ATTRS    equ CU_PICTURE_ATTRS + CU_MSG_OFFSET ; the kept colours
        assert (REFUSE_ROW_ADDR & 0xFF) == (REFUSE_PIXELS & 0xFF)
        assert (REFUSE_ATTR_ADDR & 0xFF) == (REFUSE_ATTRS & 0xFF)

; ---------------------------------------------------------------------------------------------
; refuse_show - a refusal on the message lines: the line, the low tone; it stays
; REFUSAL_FRAMES at either speed (the next msg_clear waits); a key typed meanwhile is kept
; Input: HL = message.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_show:
        call msg_show
        ; continues into refuse_hold

; ---------------------------------------------------------------------------------------------
; refuse_hold - the message shown is a refusal: REFUSAL_FRAMES at either speed, the low tone,
; and a key typed from now on is kept for the question that follows
; Input: none.  Output: msg_keep_full's hold; keys_ahead armed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_hold:
        ld b, REFUSAL_FRAMES
        call msg_keep_full
        call keys_ahead_arm
        jp snd_low

; ---------------------------------------------------------------------------------------------
; refuse_keep - a refusal over a question that stays: the message lines kept, the refusal
; shown its time, the lines put back (a key typed meanwhile answers the question)
; Input: HL = message.  Output: the question back on the lines.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_keep:
        push hl
        call refuse_save
        pop hl
        call refuse_show
        jr refuse_back

; ---------------------------------------------------------------------------------------------
; refuse_key - a key the question does not take: "K is not a key here: <the keys it takes>"
; over the question (as refuse_keep); a key typed ahead (keys_from_ahead) is dropped without
; a word
; Input: A = the key, HL = the keys the question takes.  Output: shown, the question back.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_key:
        ld c, a
        ld a, (keys_from_ahead)
        or a
        ret nz                      ; Typed ahead?  Not meant for this question.
        push hl
        push bc
        call refuse_begin
        pop bc
        ld a, c
        call refuse_key_name
        ld hl, str_refuse_not_a_key
        call msg_print
        pop hl
        call msg_print
        jr refuse_end

; ---------------------------------------------------------------------------------------------
; refuse_no_player - a player's number with no such player in the game: "No player 5 in the
; game." over the question (refuse_begin, refuse_end); one place for the players' question
; and the portfolios' (ask.asm, owners.asm)
; Input: A = the player's index (0 for player 1).  Output: shown, the question back.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_no_player:
        push af
        call refuse_begin
        ld hl, str_ask_no_player
        call msg_print
        pop af
        add a, '1'
        call msg_char
        ld hl, str_ask_in_game
        call msg_print
        jr refuse_end

; ---------------------------------------------------------------------------------------------
; refuse_begin - a refusal over a question that stays, composed by the caller: the message
; lines kept and cleared for it (the caller prints it, then refuse_end)
; Input: none.  Output: the lines clear.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_begin:
        call refuse_save
        jp msg_clear

; ---------------------------------------------------------------------------------------------
; refuse_end - the refusal composed after refuse_begin is shown its time, then the question
; is back
; Input: refuse_begin's copy.  Output: the question back.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_end:
        call refuse_hold
        jr refuse_back

; ---------------------------------------------------------------------------------------------
; refuse_back - wait out the refusal shown (keeping a key typed meanwhile), then put the
; message lines back as refuse_save kept them
; Input: refuse_save's copy.  Output: the lines and their print position restored.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_back:
        call msg_wait_hold
        ld hl, REFUSE_PIXELS
        ld de, REFUSE_ROW_ADDR
        call refuse_copy            ; (HL = REFUSE_ATTRS: the page after the pixel lines')
        ld de, REFUSE_ATTR_ADDR
        ld bc, REFUSE_ROW_BYTES
        ldir
        ld hl, refuse_msg_line
        ld de, msg_line
        ld bc, COLUMNS * 2          ; msg_line and msg_line_attrs
        ldir
        ld a, (refuse_msg_row)
        ld (msg_row), a
        ld a, (refuse_msg_col)
        ld (msg_col), a
        ld a, (refuse_msg_word)
        ld (msg_word), a
        ld a, (refuse_print_attr)
        ld (print_attr), a
        ld hl, (v_frames)           ; (the question printed on is not a line added later)
        ld (msg_printed_at), hl
        ret

; ---------------------------------------------------------------------------------------------
; refuse_save - keep the message lines (pixels, colours) and their print position
; Input: none.  Output: REFUSE_PIXELS, REFUSE_ATTRS, refuse_msg_*.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_save:
        ld hl, REFUSE_ROW_ADDR
        ld de, REFUSE_PIXELS
        call refuse_copy            ; (DE = REFUSE_ATTRS: the page after the pixel lines')
        ld hl, REFUSE_ATTR_ADDR
        ld bc, REFUSE_ROW_BYTES
        ldir
        ld hl, msg_line
        ld de, refuse_msg_line
        ld bc, COLUMNS * 2          ; msg_line and msg_line_attrs
        ldir
        ld a, (msg_row)
        ld (refuse_msg_row), a
        ld a, (msg_col)
        ld (refuse_msg_col), a
        ld a, (msg_word)
        ld (refuse_msg_word), a
        ld a, (print_attr)
        ld (refuse_print_attr), a
        ret
        assert msg_line_attrs == msg_line + COLUMNS

; ---------------------------------------------------------------------------------------------
; refuse_copy - the message rows' pixel lines from one place to the other (the screen, or
; where refuse_save keeps them: both a pixel line a page)
; Input: HL = from, DE = to (the first pixel line).  Output: copied; HL and DE each
; GLYPH_SIZE pages on (in the close-up's picture: REFUSE_ATTRS).  Corrupts: AF, BC.
; ---------------------------------------------------------------------------------------------
refuse_copy:
        ld a, GLYPH_SIZE
.line:  ld bc, REFUSE_ROW_BYTES
        push hl
        push de
        ldir
        pop de
        pop hl
        inc h                       ; (REFUSE_LINE_STEP: the next pixel line, in both)
        inc d
        dec a
        jr nz, .line                ; Another pixel line?
        ret
        assert REFUSE_LINE_STEP == 256
        assert REFUSE_ATTRS == REFUSE_PIXELS + GLYPH_SIZE * REFUSE_LINE_STEP

; ---------------------------------------------------------------------------------------------
; refuse_key_name - a key's name at the message position: the character, or ENTER, SPACE,
; BREAK, DELETE, CAPS+5 ...
; Input: A = key code.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
refuse_key_name:
        ld hl, refuse_key_names
.find:  ld c, (hl)
        inc hl
        inc c
        jr z, .char                 ; The end of the table?  The character itself.
        dec c
        cp c
        jr z, .named                ; This key?
.skip:  ld c, a
        ld a, (hl)
        inc hl
        or a
        ld a, c
        jr nz, .skip                ; Still in this name (its 0 not reached)?
        jr .find
.named: jp msg_print
.char:  call to_upper
        jp msg_char

; A key's code, then its name (0-terminated); FFh ends the table.
refuse_key_names:
        db KEY_ENTER, "ENTER", 0
        db KEY_SPACE, "SPACE", 0
        db KEY_BREAK, "BREAK", 0
        db KEY_DELETE, "DELETE", 0
        db KEY_LEFT, "CAPS+5", 0
        db KEY_DOWN, "CAPS+6", 0
        db KEY_UP, "CAPS+7", 0
        db KEY_RIGHT, "CAPS+8", 0
        db 0xFF

str_refuse_not_a_key: db " is not a key here: ", 0
