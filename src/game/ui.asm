; =============================================================================================
; ui.asm - the message lines (MSG_TOP..MSG_TOP+MSG_HEIGHT-1) and the questions asked there
;
; Messages wrap at word boundaries and scroll within their three lines.  A word is whatever
; lies between two spaces, however many strings and numbers print it ("£" and its digits and
; the stop after them, a name and its full stop): the characters of the line are kept in
; msg_line, so a word that outgrows the line is carried whole to the next (issue 28).  Every
; question waits with keys_wait, so the frame's idle routine (the short game's clock) keeps
; running.
; =============================================================================================

MSG_BOTTOM      equ MSG_TOP + MSG_HEIGHT - 1
; The reading pace (issue 28): in a computer's turn at the normal speed a message stays at
; least this many frames before the next one replaces it (msg_clear waits out the rest)
PACE_READ_FRAMES equ 50             ; any line
PACE_MONEY_FRAMES equ 75            ; a result that moves money (msg_money, msg_hold_money)
PACE_DEAL_FRAMES equ 150            ; a deal (msg_hold_deal), or until a key
INPUT_DIGITS    equ 5               ; ask_number takes at most this many digits
CH_FIELD        equ '.'             ; marks the room left in a typed field
REFUSAL_FRAMES  equ 50              ; a refusal of a human's key stays this long at either speed
VOID_FRAMES     equ 75              ; so does a voided auction (a result that changes money)

; ---------------------------------------------------------------------------------------------
; msg_clear - blank the message lines; the next message starts at their top left.  The
; message shown is first given the rest of its time to be read: a time msg_keep set for it
; (msg_wait_hold: a refusal, a voided auction) and the reading pace of a computer's turn
; (msg_hold_wait); then the next one's pace starts (msg_hold_start)
; Input: none.  Output: cleared.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_clear:
        call msg_wait_hold
        call msg_hold_wait
        call msg_hold_start
        ld bc, MSG_TOP * 256 + 0
        ld de, MSG_HEIGHT * 256 + COLUMNS
        ld a, ATTR_MESSAGE
        call clear_rect
        ld a, MSG_TOP
        ld (msg_row), a
        xor a
        ld (msg_col), a
        ld (msg_word), a
        ld a, ATTR_MESSAGE
        ld (print_attr), a
        ret

; ---------------------------------------------------------------------------------------------
; msg_keep - the message shown now stays at least B frames: the next msg_clear waits until
; they are over (fewer in a computer's turn with the fast setting, as pauses are; issue 28)
; Input: B = frames.  Output: msg_hold_until, msg_holding.  Corrupts: AF, B.
; ---------------------------------------------------------------------------------------------
msg_keep:
        call ai_pause_frames
        ; continues into msg_keep_full

; ---------------------------------------------------------------------------------------------
; msg_keep_full - msg_keep at either speed: for what answers a human's key (a refusal, a
; voided auction), which the fast setting must not hide
; Input: B = frames.  Output: msg_hold_until, msg_holding.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
msg_keep_full:
        push de
        push hl
        ld hl, (v_frames)
        ld e, b
        ld d, 0
        add hl, de
        ld (msg_hold_until), hl
        ld a, 1
        ld (msg_holding), a
        pop hl
        pop de
        ret

; ---------------------------------------------------------------------------------------------
; msg_wait_hold - wait until the time msg_keep gave the message shown is over (plain frames:
; the idle routine may itself print a message)
; Input: msg_holding, msg_hold_until.  Output: msg_holding 0.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_wait_hold:
        ld a, (msg_holding)
        or a
        ret z
.wait:  ld hl, (v_frames)
        ld de, (msg_hold_until)
        or a
        sbc hl, de
        bit 7, h                    ; still before it (the difference is negative)?
        jr z, .over
        halt
        jr .wait
.over:  xor a
        ld (msg_holding), a
        ret

; ---------------------------------------------------------------------------------------------
; msg_stop - end a sentence with a full stop, unless its last character already ends one
; (a name such as "Old Kent Rd.", or "?" or "!")
; Input: msg_line, msg_col.  Output: printed.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_stop:
        ld a, (msg_col)
        or a
        ret z                       ; a fresh line: nothing to end
        dec a
        ld e, a
        ld d, 0
        push hl
        ld hl, msg_line
        add hl, de
        ld a, (hl)
        pop hl
        cp '.'
        ret z
        cp '?'
        ret z
        cp '!'
        ret z
        ld a, '.'
        jp msg_char
; msg_hold_start - the message about to be printed stays PACE_READ_FRAMES at least if a
; computer is playing its turn at the normal speed (msg_hold 0: no minimum)
; Input: none.  Output: msg_hold, msg_shown_at, msg_hold_keys.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_hold_start:
        ld hl, (v_frames)
        ld (msg_shown_at), hl
        xor a
        ld (msg_hold_keys), a
        ld (msg_hold), a
        ld a, (v_phase)             ; only in the game, ...
        cp PHASE_PLAYING
        ret nz
        ld a, (v_speed)             ; ... at the normal speed (F keeps its purpose), ...
        cp AI_SPEED_FAST
        ret z
        ld a, (v_current)           ; ... in a computer's turn
        call player_record
        bit PF_COMPUTER, (hl)       ; (P_FLAGS is the record's first byte)
        ret z
        ld a, PACE_READ_FRAMES
        ld (msg_hold), a
        ret

; ---------------------------------------------------------------------------------------------
; msg_hold_wait - wait until the message shown has stayed msg_hold whole frames on the screen
; (counted from the frame after msg_hold_start's; a deal's hold ends at a key too); then no
; hold
; Input: msg_hold, msg_shown_at, msg_hold_keys.  Output: msg_hold 0.  Corrupts: AF, BC, DE,
; HL.
; ---------------------------------------------------------------------------------------------
msg_hold_wait:
.loop:  ld a, (msg_hold)
        or a
        ret z
        ld hl, (v_frames)
        ld de, (msg_shown_at)
        or a
        sbc hl, de                  ; HL = frames it has been shown
        ld e, a
        ld d, 0
        scf                         ; one frame more: the text may be finished only after
        sbc hl, de                  ; the frame's end that follows msg_hold_start
        jr nc, .done                ; Shown long enough?
        ld a, (msg_hold_keys)
        or a
        jr z, .frame
        call keys_read
        jr nz, .done                ; A key ends a deal's hold?
.frame: halt
        jr .loop
.done:  xor a
        ld (msg_hold), a
        ret

; ---------------------------------------------------------------------------------------------
; msg_hold_money - the message shown is a money result: held PACE_MONEY_FRAMES when a pace
; holds (msg_hold not 0), nothing otherwise
; Input: none.  Output: msg_hold raised.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
msg_hold_money:
        push af
        ld a, PACE_MONEY_FRAMES
        jr msg_hold_raise

; ---------------------------------------------------------------------------------------------
; msg_hold_deal - the message shown is a deal: held PACE_DEAL_FRAMES or until a key when a
; pace holds (msg_hold not 0), nothing otherwise
; Input: none.  Output: msg_hold raised, msg_hold_keys.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
msg_hold_deal:
        push af
        ld a, (msg_hold)
        or a
        jr z, .none                 ; No pace now?
        ld a, 1
        ld (msg_hold_keys), a
        ld a, PACE_DEAL_FRAMES
        jr msg_hold_raise
.none:  pop af
        ret

; ---------------------------------------------------------------------------------------------
; msg_hold_raise - msg_hold at least A when a pace holds (the tail of msg_hold_money)
; Input: A = frames, AF pushed.  Output: msg_hold; AF popped.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
msg_hold_raise:
        push hl
        ld hl, msg_hold
        inc (hl)
        dec (hl)
        jr z, .none                 ; No pace now?
        cp (hl)
        jr c, .none                 ; Held longer already?
        ld (hl), a
.none:  pop hl
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; msg_show - clear the message lines and print a message
; Input: HL = string (print_string's codes except PR_AT).  Output: HL after it.
; Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_show:
        push hl
        call msg_clear
        pop hl
        ; continues into msg_print

; ---------------------------------------------------------------------------------------------
; msg_print - print a string at the message position, wrapping words and scrolling
; Input: HL = string (0-terminated; PR_NEWLINE and PR_ATTR honoured).  Output: HL after it.
; Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_print:
        ld a, (hl)
        or a
        jr z, .end
        cp PR_ATTR
        jr z, .attr
        cp PR_NEWLINE
        jr z, .newline
        call msg_char
        inc hl
        jr msg_print
.attr:  inc hl
        ld a, (hl)
        ld (print_attr), a
        inc hl
        jr msg_print
.newline:
        call msg_newline
        inc hl
        jr msg_print
.end:   inc hl
        ret

; ---------------------------------------------------------------------------------------------
; msg_char - print one character at the message position.  At a full line a space is dropped
; (wrapped lines start flush) and any other character takes the word it ends to the next line
; with it (msg_carry_word), so no word is split unless it is longer than a line.
; Input: A = character.  Output: position advanced.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_char:
        ld c, a
        ld a, (msg_col)
        cp COLUMNS
        jr c, .fits
        ld a, c                     ; the line is full: is this a space?
        cp ' '
        jp z, msg_newline
        push bc
        call msg_carry_word
        pop bc
.fits:  push hl
        ld a, (msg_col)
        ld e, a
        ld d, 0
        ld hl, msg_line             ; keep the character and its colours for a carry
        add hl, de
        ld (hl), c
        ld hl, msg_line_attrs
        add hl, de
        ld a, (print_attr)
        ld (hl), a
        ld a, (msg_row)
        ld b, a
        ld d, c                     ; D = the character
        ld c, e
        call print_at
        ld a, d
        call print_char
        ld a, (msg_col)
        inc a
        ld (msg_col), a
        ld b, a
        ld a, d
        cp ' '                      ; after a space the next word starts
        jr nz, .done
        ld a, b
        ld (msg_word), a
.done:  pop hl
        ret

; ---------------------------------------------------------------------------------------------
; msg_carry_word - at a full line, start the next line with the word that ends the full one
; (its characters from msg_word on, blanked where they were); a word that fills the whole
; line stays and the next line starts empty
; Input: msg_word, msg_line, msg_line_attrs.  Output: msg_row, msg_col after the word.
; Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_carry_word:
        ld a, (msg_word)
        or a
        jp z, msg_newline
        cp COLUMNS
        jp nc, msg_newline          ; the line ended with a space: nothing to carry
        push hl
        push af                     ; (msg_newline clears msg_word)
        call msg_newline            ; the full line is now the row above msg_row
        pop af
        ld c, a                     ; C = the word's column
        ld a, COLUMNS
        sub c
        ld e, a                     ; E = the word's length so far
        ld (msg_col), a
        ld a, (msg_row)
        dec a
        ld b, a
        ld d, 1
        push bc
        push de
        ld a, ATTR_MESSAGE
        call clear_rect             ; blank the word where it was
        pop de
        pop bc
        ld b, 0
        ld a, c                     ; A = the word's column
        ld c, e                     ; BC = its length
        push af
        push bc
        ld e, a
        ld d, b
        ld hl, msg_line             ; the word to the start of the line buffers
        add hl, de
        ld de, msg_line
        ldir
        pop bc
        pop af
        push bc
        ld e, a
        ld d, b
        ld hl, msg_line_attrs
        add hl, de
        ld de, msg_line_attrs
        ldir
        pop bc                      ; C = length
        ld a, (print_attr)
        push af
        ld a, (msg_row)
        ld b, a
        ld e, 0                     ; E = column
.print: push bc
        ld c, e
        call print_at
        ld d, 0
        ld hl, msg_line_attrs
        add hl, de
        ld a, (hl)
        ld (print_attr), a
        ld hl, msg_line
        add hl, de
        ld a, (hl)
        call print_char
        pop bc
        inc e
        dec c
        jr nz, .print
        pop af
        ld (print_attr), a
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; msg_newline - move the message position to the next line, scrolling at the bottom
; Input: none.  Output: msg_row, msg_col, msg_word.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_newline:
        xor a
        ld (msg_col), a
        ld (msg_word), a
        ld a, (msg_row)
        cp MSG_BOTTOM
        jr nc, .scroll
        inc a
        ld (msg_row), a
        ret
.scroll:
        push hl
        ld b, MSG_TOP
        ld d, MSG_HEIGHT
        call scroll_rows_up
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; msg_number - print a number at the message position
; Input: HL = number.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_number:
        call number_digits
        ld hl, number_buffer
        jp msg_print

; ---------------------------------------------------------------------------------------------
; msg_money - print the pound sign and a number at the message position
; Input: HL = pounds.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_money:
        call msg_hold_money         ; an amount: a money result is read longer
        push hl
        ld a, CH_POUND
        call msg_char
        pop hl
        jr msg_number

; ---------------------------------------------------------------------------------------------
; msg_player - print a player's number and name ("2 ANNE") at the message position
; Input: A = player 0..5.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_player:
        push af
        add a, '1'
        call msg_char
        ld a, ' '
        call msg_char
        pop af
        call player_record
        ld de, P_NAME
        add hl, de
        jp msg_print

; ---------------------------------------------------------------------------------------------
; msg_player_piece - print a player's piece, number and name ("<piece> 2 ANNE") at the
; message position
; Input: A = player 0..5.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_player_piece:
        push af
        call player_glyph
        call msg_char
        ld a, ' '
        call msg_char
        pop af
        jr msg_player

; ---------------------------------------------------------------------------------------------
; player_glyph - the character of a player's piece (its token's glyph)
; Input: A = player 0..5.  Output: A = CH_TOKEN + the player's P_TOKEN.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
player_glyph:
        call player_record
        ld de, P_TOKEN
        add hl, de
        ld a, (hl)
        add a, CH_TOKEN
        ret

; ---------------------------------------------------------------------------------------------
; player_record - the address of a player's record in v_players
; Input: A = player 0..5.  Output: HL.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
player_record:
        ld hl, v_players
        or a
        ret z
        ld de, PLAYER_RECORD
.add:   add hl, de
        dec a
        jr nz, .add
        ret

; ---------------------------------------------------------------------------------------------
; player_computer_playing - whether a player is a computer still in the game
; Input: A = player 0..5.  Output: HL = its record; Z set if a computer still playing.
; Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
player_computer_playing:
        call player_record
        ld a, (hl)                  ; (P_FLAGS)
        and 1 << PF_PLAYING | 1 << PF_COMPUTER
        cp 1 << PF_PLAYING | 1 << PF_COMPUTER
        ret

; ---------------------------------------------------------------------------------------------
; ask_yn - ask a yes/no question
; Input: HL = question.  Output: carry set for Y, clear for N (the answer is echoed).
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ask_yn:
        call msg_print
        ld hl, str_yn
        call msg_print
.key:   call keys_wait_upper
        cp 'Y'
        jr z, .yes
        cp 'N'
        jr nz, .key
        call msg_char
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
; only, and ENTER alone ends it)
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
        jr c, .room
        push bc
        push de
        call msg_newline
        pop de
        pop bc
.room:  ld a, (msg_col)             ; the field starts here
        ld (ask_text_core_col), a
        xor a
        ld (ask_text_core_len), a
.draw:  ld a, (ask_text_core_col)   ; redraw: the text, then dots to the field's end
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
        ld a, CH_FIELD
        jr z, .dot
        ld a, (hl)
        inc hl
        dec c
.dot:   push bc
        push hl
        call msg_char
        pop hl
        pop bc
        djnz .show
.key:   call keys_wait
        cp KEY_ENTER
        jr z, .enter
        cp KEY_DELETE
        jr z, .delete
        cp ' '
        jr c, .key
        cp 0x80
        jr nc, .key
        ld c, a
        ld a, (digits_only)
        or a
        jr z, .any
        ld a, c
        cp '0'
        jr c, .key
        cp '9' + 1
        jr nc, .key
.any:   ld a, (ask_text_core_len)
        ld hl, ask_text_core_max
        cp (hl)
        jr nc, .key                 ; the field is full
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
        jr z, .key
        dec a
        ld (ask_text_core_len), a
        jr .draw
.enter: ld a, (digits_only)
        or a
        ld a, (ask_text_core_len)
        ret nz                      ; digits: ENTER alone is an answer too
        or a
        jr z, .key
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
        ret z                       ; nothing typed
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
        jr c, .big
        add hl, hl
        jr c, .big
        add hl, bc
        jr c, .big
        add hl, hl
        jr c, .big
        ld c, a
        ld b, 0
        add hl, bc
        jr c, .big
        pop bc
        pop de
        djnz .value
        or a
        ret
.big:   pop bc
        pop de
        ld hl, 0xFFFF
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
; ENTER (no one).  Players out of the game are refused.  Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ask_player:
        call msg_print
.key:   call keys_wait
        cp KEY_ENTER
        scf
        ret z
        sub '1'
        jr c, .key
        ld hl, v_num_players
        cp (hl)
        jr nc, .key
        ld c, a
        call player_record
        bit PF_PLAYING, (hl)
        jr z, .key
        push bc
        ld a, c
        add a, '1'
        call msg_char
        pop bc
        ld a, c
        or a
        ret

; ---------------------------------------------------------------------------------------------
; pause - wait a number of frames (the idle routine runs each frame); shorter in a
; computer's turn with the fast setting (issue 11: ai_pause_frames, v_speed)
; Input: B = frames.  Output: none.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
pause:
        call ai_pause_frames
.frame: halt
        push bc
        call keys_idle
        pop bc
        djnz .frame
        ret

str_yn:         db " (Y/N) ", 0
