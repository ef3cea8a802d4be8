; =============================================================================================
; ask.asm - the questions asked on the message lines: yes or no, a number, a line of text,
; a player
;
; Every question waits with keys_wait, so the frame's idle routine (the short game's clock)
; keeps running.
; =============================================================================================

INPUT_DIGITS    equ 5               ; ask_number takes at most this many digits
CH_FIELD        equ '.'             ; marks the room left in a typed field

; ---------------------------------------------------------------------------------------------
; ask_yn - ask a yes/no question; another key is refused, saying which two are taken
; Input: HL = question.  Output: carry set for Y, clear for N (the answer is echoed).
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ask_yn:
        call msg_print
        ld hl, str_yn
        call msg_print
        call keys_ahead_arm         ; (nothing typed before the question answers it)
.key:   call keys_wait_upper
        cp 'Y'
        jr z, .yes                  ; Is it Y (yes)?
        cp 'N'
        jr z, .no                   ; Is it N (no)?
        ld hl, str_ask_yn_keys      ; another key: which two it takes
        call refuse_key
        jr .key
.no:    call msg_char
        or a
        ret
.yes:   call msg_char
        scf
        ret

; ---------------------------------------------------------------------------------------------
; ask_text - type a line (a name): letters, digits, punctuation; DELETE edits; ENTER ends
; Input: DE = buffer (B + 1 bytes), B = the most characters (the field shows them as dots).
; Output: the buffer holds the text and a 0; A = its length (ENTER is refused while empty).
; Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ask_text:
        xor a
        ld (digits_only), a

; ---------------------------------------------------------------------------------------------
; ask_text_core - the line editor of ask_text and ask_text_digits (digits_only set: digits
; only, and ENTER alone ends it); a key it cannot take is refused, saying why.  The field shows
; what is typed and a dot for each character of room left; ENTER leaves only what was typed
; (the dots cleared) and the message position right after it
; Input: DE = buffer (B + 1 bytes), B = the most characters, digits_only.
; Output: the buffer holds the text and a 0; A = its length.  Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ask_text_core:
        ld a, b
        ld (ask_text_core_max), a
        ld (ask_text_core_buffer), de
        ld a, (msg_col)             ; a field that would not fit starts the next line
        add a, b
        cp COLUMNS + 1
        jr c, .room                 ; Does the field fit on this line?
        push bc
        push de
        call msg_newline
        pop de
        pop bc
.room:  ld a, (msg_col)             ; the field starts here
        ld (ask_text_core_col), a
        xor a
        ld (ask_text_core_len), a
.draw:  ld a, CH_FIELD              ; the text, then dots to the field's end
        call .field
        call keys_ahead_arm         ; (nothing typed before the field is shown fills it)
.key:   call keys_wait
        cp KEY_ENTER
        jr z, .enter                ; Is it ENTER?
        cp KEY_DELETE
        jr z, .delete               ; Is it DELETE?
        cp ' '
        jr c, .other                ; A key with no character (a cursor key)?
        cp CH_TYPED_END
        jr nc, .other               ; A code of 128 or more (no typed character)?
        ld c, a
        ld a, (digits_only)
        or a
        jr z, .any                  ; Does the field take any character (not digits only)?
        ld a, c
        cp '0'
        jr c, .other                ; Below '0' (not a digit)?
        cp '9' + 1
        jr nc, .other               ; Above '9' (not a digit)?
.any:   ld a, (ask_text_core_len)
        ld hl, ask_text_core_max
        cp (hl)
        ld hl, str_ask_full
        jr nc, .refused             ; Is the field full?
        ld hl, (ask_text_core_buffer)
        ld e, a
        ld d, 0
        add hl, de
        ld (hl), c
        inc a
        ld (ask_text_core_len), a
        jr .draw
.delete:
        ld a, (ask_text_core_len)
        or a
        ld hl, str_ask_nothing_to_delete
        jr z, .refused              ; Nothing typed to delete?
        dec a
        ld (ask_text_core_len), a
        jp .draw
.enter: ld a, (ask_text_core_len)
        or a
        jr nz, .end                 ; Something typed?
        ld a, (digits_only)
        or a
        ld hl, str_ask_name_first
        jr z, .refused              ; A name field (ENTER alone is no name)?
.end:   ld a, (msg_word)            ; answered: what was typed stays, the dots go (issue 45;
        push af                     ; the word the field is part of goes on as it was)
        ld a, ' '
        call .field
        pop af
        ld (msg_word), a
        ld a, (ask_text_core_col)   ; the message goes on right after what was typed
        ld hl, ask_text_core_len
        add a, (hl)
        ld (msg_col), a
        ld a, (hl)
        ret
.refused:
        call refuse_keep
        jp .key
.other: ld c, a                     ; a key the field does not take: which it does
        ld a, (digits_only)
        or a
        ld hl, str_ask_text_keys
        jr z, .keys                 ; Does the field take any character (not digits only)?
        ld hl, str_ask_digit_keys
.keys:  ld a, c
        call refuse_key
        jp .key
.field: ld (ask_text_core_pad), a   ; the field drawn: the text, then A to its end
        ld a, (ask_text_core_col)
        ld (msg_col), a
        ld hl, (ask_text_core_buffer)
        ld a, (ask_text_core_len)
        ld c, a
        ld e, c
        ld d, 0
        add hl, de
        ld (hl), 0
        ld hl, (ask_text_core_buffer)
        ld a, (ask_text_core_max)
        ld b, a
.show:  ld a, c
        or a
        ld a, (ask_text_core_pad)
        jr z, .pad                  ; All the text shown (the room left from here on)?
        ld a, (hl)
        inc hl
        dec c
.pad:   push bc
        push hl
        call msg_char
        pop hl
        pop bc
        djnz .show
        ret

; ---------------------------------------------------------------------------------------------
; ask_number - type a number: digits, DELETE edits, ENTER ends
; Input: HL = question.  Output: HL = the number (at most 65535) and carry clear; carry set
; if ENTER was pressed with no digits.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
ask_number:
        call msg_print
        ld de, ask_number_digits
        ld b, INPUT_DIGITS
        call ask_text_digits
        or a
        scf
        ret z                       ; Was nothing typed (ENTER alone)?
        ld b, a
        ld hl, 0
        ld de, ask_number_digits
.value: ld a, (de)
        inc de
        sub '0'
        push de
        push bc
        ld b, h                     ; HL = HL * 10 + digit, stopping at 65535
        ld c, l
        add hl, hl
        jr c, .big                  ; Past 65535 (at 2 times)?
        add hl, hl
        jr c, .big                  ; Past 65535 (at 4 times)?
        add hl, bc
        jr c, .big                  ; Past 65535 (at 5 times)?
        add hl, hl
        jr c, .big                  ; Past 65535 (at 10 times)?
        ld c, a
        ld b, 0
        add hl, bc
        jr c, .big                  ; Past 65535 with the digit added?
        pop bc
        pop de
        djnz .value
        or a
        ret
.big:   pop bc
        pop de
        ld hl, WORD_MAX
        or a
        ret

; ---------------------------------------------------------------------------------------------
; ask_text_digits - ask_text that takes only digits, and ENTER alone
; Input: DE = buffer, B = most digits.  Output: A = digits typed (0: ENTER alone), buffer
; 0-terminated.  Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ask_text_digits:
        ld a, 1
        ld (digits_only), a
        call ask_text_core
        push af
        xor a
        ld (digits_only), a
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; ask_player - ask for a player's number
; Input: HL = question.  Output: A = player 0..v_num_players-1, carry clear; carry set for
; ENTER (no one).  A number of nobody, a player out of the game and any other key are refused,
; saying why.  Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ask_player:
        call msg_print
        call keys_ahead_arm         ; (nothing typed before the question answers it)
.key:   call keys_wait
        cp KEY_ENTER
        scf
        ret z                       ; Is it ENTER (no one)?
        ld c, a
        sub '1'
        jr c, .other                ; A key below '1'?
        cp MAX_PLAYERS
        jr nc, .other               ; Above the sixth player's number?
        ld hl, v_num_players
        cp (hl)
        jr nc, .nobody              ; Nobody with that number?
        ld c, a
        call player_record
        bit PF_PLAYING, (hl)
        jr z, .out                  ; Out of the game?
        push bc
        ld a, c
        add a, '1'
        call msg_char
        pop bc
        ld a, c
        or a
        ret
.other: ld a, c
        ld hl, str_ask_player_keys
        call refuse_key
        jr .key
.nobody:
        call refuse_no_player       ; "No player 5 in the game."
        jr .key
.out:   push bc
        call refuse_begin           ; "3 CAT is out of the game."
        pop bc
        ld a, c
        call msg_player
        ld hl, str_ask_out
        call msg_print
        call refuse_end
        jr .key

str_yn:         db " (Y/N) ", 0
str_ask_yn_keys: db "Y or N.", 0
str_ask_full:   db "No more room: DELETE, or ENTER to end.", 0
str_ask_nothing_to_delete: db "Nothing to delete: type, or ENTER.", 0
str_ask_name_first: db "Type a name first, then ENTER.", 0
str_ask_text_keys: db "letters, digits, DELETE, ENTER.", 0
str_ask_digit_keys: db "digits, DELETE, ENTER.", 0
str_ask_player_keys: db "a player's number, or ENTER.", 0
str_ask_no_player: db "No player ", 0
str_ask_in_game: db " in the game.", 0
str_ask_out:    db " is out of the game.", 0
