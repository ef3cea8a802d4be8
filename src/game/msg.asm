; =============================================================================================
; msg.asm - the message lines (MSG_TOP..MSG_TOP+MSG_HEIGHT-1): printing, wrapping, the pace
;
; Messages wrap at word boundaries within their three lines.  A word is whatever lies between
; two spaces, however many strings and numbers print it ("£" and its digits and the stop after
; them, a name and its full stop): the characters of the line are kept in msg_line, so a word
; that outgrows the line is carried whole to the next (issue 28).  A message longer than the
; three lines is shown in parts: the full lines stay MSG_PART_FRAMES, then the rest follows on
; cleared lines (msg_part; issue 45: nothing scrolls away before it is read).  The questions
; asked on these lines are ask.asm's.
; =============================================================================================

MSG_BOTTOM      equ MSG_TOP + MSG_HEIGHT - 1
; The reading pace (issue 28): in a computer's turn at the normal speed a message stays at
; least this many frames before the next one replaces it (msg_clear waits out the rest)
PACE_READ_FRAMES equ 50             ; any line
PACE_MONEY_FRAMES equ 75            ; a result that moves money (msg_money, msg_hold_money)
PACE_DEAL_FRAMES equ 150            ; a deal (msg_hold_deal), or until a key
REFUSAL_FRAMES  equ 50              ; a refusal of a human's key stays this long at either speed
VOID_FRAMES     equ 75              ; so does a voided auction (a result that changes money)
MSG_PART_FRAMES equ 100             ; each full part of a longer message (as a card: CARD_PAUSE;
                                    ; an eighth in a computer's turn with the fast setting)
MSG_ADDED_FRAMES equ 2              ; text printed this long after the last is a line added

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
        LD_ROW_COL bc, MSG_TOP, 0
        LD_ROW_COL de, MSG_HEIGHT, COLUMNS
        ld a, ATTR_MESSAGE
        call clear_rect
        ld a, MSG_TOP
        ld (msg_row), a
        xor a
        ld (msg_col), a
        ld (msg_word), a
        ld a, ATTR_MESSAGE
        ld (print_attr), a
        ld hl, msg_clears
        inc (hl)
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
; the idle routine may itself print a message); a key typed for the prompt that follows is kept
; Input: msg_holding, msg_hold_until.  Output: msg_holding 0.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_wait_hold:
        ld a, (msg_holding)
        or a
        ret z                       ; No hold set (nothing to wait out)?
.wait:  ld hl, (v_frames)
        ld de, (msg_hold_until)
        or a
        sbc hl, de
        bit 7, h                    ; still before it (the difference is negative)?
        jr z, .over                 ; Is its time over (the difference not negative)?
        halt
        push bc
        call keys_ahead_frame       ; (a key typed for the prompt that follows is kept)
        pop bc
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
        ret z                       ; A fresh line (nothing to end)?
        dec a
        ld e, a
        ld d, 0
        push hl
        ld hl, msg_line
        add hl, de
        ld a, (hl)
        pop hl
        cp '.'
        ret z                       ; A full stop already?
        cp '?'
        ret z                       ; A question mark?
        cp '!'
        ret z                       ; An exclamation mark?
        ld a, '.'
        jp msg_char

; ---------------------------------------------------------------------------------------------
; msg_hold_start - the message about to be printed stays PACE_READ_FRAMES at least where the
; pace holds (msg_paced; msg_hold 0: no minimum)
; Input: none.  Output: msg_hold, msg_shown_at, msg_printed_at, msg_hold_keys.
; Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_hold_start:
        ld hl, (v_frames)
        ld (msg_shown_at), hl
        ld (msg_printed_at), hl
        xor a
        ld (msg_hold_keys), a
        ld (msg_hold), a
        call msg_paced
        ret z                       ; No pace now?
        ld a, PACE_READ_FRAMES
        ld (msg_hold), a
        ret

; ---------------------------------------------------------------------------------------------
; msg_paced - whether the reading pace holds now: in the game, in a human's turn (at either
; speed: a key he presses ends it, keys_wait) or in a computer's at the normal speed (F keeps
; its purpose)
; Input: v_phase, v_speed, v_current.  Output: NZ if it holds.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_paced:
        ld a, (v_phase)             ; only in the game
        cp PHASE_PLAYING
        jr nz, .no                  ; Not in the game (no pace)?
        ld a, (v_current)
        call player_record
        bit PF_COMPUTER, (hl)       ; (P_FLAGS is the record's first byte)
        jr z, .yes                  ; A human's turn (his own lines are read too)?
        ld a, (v_speed)
        cp AI_SPEED_FAST
        jr z, .no                   ; A computer's turn at the fast setting (no pace)?
.yes:   or 1
        ret
.no:    xor a
        ret

; ---------------------------------------------------------------------------------------------
; msg_hold_added - before a character: text printed two frames or more after the last is a
; line added to the message shown (" Throw again."), and where the pace holds (msg_hold not 0:
; no key has answered the message) it gets its own PACE_READ_FRAMES from now, the rest of the
; message's own hold kept if longer (issue 45)
; Input: msg_printed_at, msg_hold, msg_shown_at.  Output: msg_printed_at = now; msg_hold,
; msg_shown_at restarted for an added line.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
msg_hold_added:
        push hl
        ld hl, (v_frames)
        ld de, (msg_printed_at)
        ld (msg_printed_at), hl
        or a
        sbc hl, de                  ; HL = frames since the last character
        ld a, h
        or a
        jr nz, .added               ; 256 frames or more since the last character (a line added)?
        ld a, l
        cp MSG_ADDED_FRAMES
        jr c, .done                 ; Printed on from the last character?
.added: ld a, (msg_hold)
        or a
        push bc
        call nz, msg_hold_restart   ; A line added where the pace holds?  (not a key's echo:
        pop bc                      ; a key taken has ended it)
.done:  pop hl
        ret

; ---------------------------------------------------------------------------------------------
; msg_hold_restart - the message shown stays PACE_READ_FRAMES from now, or the rest of its own
; hold if that is longer
; Input: msg_hold, msg_shown_at.  Output: msg_hold, msg_shown_at = now.  Corrupts: AF, BC, DE,
; HL.
; ---------------------------------------------------------------------------------------------
msg_hold_restart:
        ld hl, (v_frames)
        ld de, (msg_shown_at)
        ld (msg_shown_at), hl
        or a
        sbc hl, de                  ; HL = frames shown so far
        ld a, (msg_hold)
        ld c, a
        ld b, 0
        ex de, hl
        ld h, b
        ld l, c
        or a
        sbc hl, de                  ; HL = the rest of its hold (negative: none)
        ld a, PACE_READ_FRAMES
        jr c, .store                ; Its hold over?
        ld b, a
        ld a, h
        or a
        ld a, b
        jr nz, .store               ; A rest over 255?  (cannot be: msg_hold is a byte)
        ld a, l
        cp b
        jr nc, .store               ; Is the rest longer than a line's?
        ld a, b
.store: ld (msg_hold), a
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
        ret z                       ; No hold (nothing to wait for)?
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
        jr z, .frame                ; Not a deal's hold (no key ends it)?
        call keys_read
        jr nz, .done                ; A key ends a deal's hold?
.frame: halt
        call keys_ahead_frame       ; (a key typed for the prompt that follows is kept)
        jr .loop
.done:  xor a
        ld (msg_hold), a
        ret

; ---------------------------------------------------------------------------------------------
; msg_hold_end - a human's key answers the message shown: its reading pace ends (he has read
; it; a refusal's or a voided auction's msg_keep stays)
; Input: none.  Output: msg_hold 0.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
msg_hold_end:
        push af
        xor a
        ld (msg_hold), a
        pop af
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
        jr z, .end                  ; The terminator?
        cp PR_ATTR
        jr z, .attr                 ; PR_ATTR (an attribute follows)?
        cp PR_NEWLINE
        jr z, .newline              ; PR_NEWLINE?
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
        call msg_hold_added         ; (a line added to the one shown has its own time)
        ld a, (msg_col)
        cp COLUMNS
        jr c, .fits                 ; Room on this line?
        ld a, c                     ; the line is full: is this a space?
        cp ' '
        jp z, msg_newline           ; A space (dropped: the next line starts flush)?
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
        jr nz, .done                ; Not a space (the word goes on)?
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
        jp z, msg_newline           ; Does the word fill the whole line (it stays)?
        cp COLUMNS
        jp nc, msg_newline          ; Did the line end with a space (nothing to carry)?
        push hl
        ld c, a                     ; C = the word's column
        ld a, COLUMNS
        sub c
        ld e, a                     ; E = the word's length so far
        ld a, (msg_row)
        ld b, a
        ld d, 1
        ld a, ATTR_MESSAGE
        call clear_rect             ; blank the word where it was (before a full part is held)
        push bc
        push de
        call msg_newline            ; the next line, or the next part (msg_newline clears
        pop de                      ; msg_word)
        pop bc
        ld a, e
        ld (msg_col), a
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
        jr nz, .print               ; Another letter of the word?
        pop af
        ld (print_attr), a
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; msg_newline - move the message position to the next line; at the bottom, the next part
; (msg_part)
; Input: none.  Output: msg_row, msg_col, msg_word.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_newline:
        xor a
        ld (msg_col), a
        ld (msg_word), a
        ld a, (msg_row)
        cp MSG_BOTTOM
        jr nc, msg_part             ; The last line full?  The next part.
        inc a
        ld (msg_row), a
        ret

; ---------------------------------------------------------------------------------------------
; msg_print_whole - msg_print for a string that must be seen whole (a prompt's keys): when it
; would not fit in what is left of the message lines, the part shown so far is held first
; (msg_part) and the string starts the next part
; Input: HL = string (words parted by single spaces).  Output: HL after it.  Corrupts: AF, BC,
; DE.
; ---------------------------------------------------------------------------------------------
msg_print_whole:
        call msg_fits
        jp c, msg_print             ; Does it fit?
        xor a                       ; a new part: the string from its first word
        ld (msg_col), a
        ld (msg_word), a
        call msg_part
.space: ld a, (hl)
        cp ' '
        jp nz, msg_print            ; Its first word?
        inc hl
        jr .space

; ---------------------------------------------------------------------------------------------
; msg_fits - whether a string, wrapped as msg_char wraps it, fits in what is left of the
; message lines (its first characters go on the word being printed, as msg_char carries them)
; Input: HL = string, msg_row, msg_col, msg_word.  Output: carry set if it fits.
; Corrupts: AF, C, DE.
; ---------------------------------------------------------------------------------------------
msg_fits:
        push hl
        ld a, (msg_row)
        ld d, a
        ld a, MSG_BOTTOM
        sub d
        ld d, a                     ; D = the lines below this one
        ld a, (msg_col)
        ld e, a                     ; E = the column
        ld a, (msg_word)            ; C = the word begun on this line: it goes along
        ld c, a
        ld a, e
        sub c
        ld c, a
        jr .letters
.run:   ld a, (hl)
        or a
        jr z, .yes                  ; The end?  It fits.
        ld c, 0                     ; C = a word's letters
.spaces:
        ld a, (hl)
        cp ' '
        jr nz, .letters             ; A letter?
        inc e                       ; (a space at a line's end is dropped: the test below
        inc hl                      ; takes the word to the next line all the same)
        jr .spaces
.letters:
        ld a, (hl)
        or a
        jr z, .end                  ; The end of the string?
        cp ' '
        jr z, .end                  ; The word's end?
        inc c
        inc e
        inc hl
        jr .letters
.end:   ld a, e
        cp COLUMNS + 1
        jr c, .run                  ; On this line?
        ld e, c                     ; the next line, the word at its start
.long:  ld a, d
        or a
        jr z, .no                   ; No line left?
        dec d
        ld a, e
        cp COLUMNS + 1
        jr c, .run                  ; The word within a line?  (else it breaks: more lines)
        sub COLUMNS
        ld e, a
        jr .long
.yes:   pop hl
        scf
        ret
.no:    pop hl
        or a
        ret

; ---------------------------------------------------------------------------------------------
; msg_part - the message lines are full and the message goes on: the part shown stays
; MSG_PART_FRAMES (plain frames, as pause_plain: fewer in a computer's fast turn), then the
; lines are cleared and the message goes on at their top, its reading time counted afresh
; Input: none.  Output: msg_row = MSG_TOP, the lines blank.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_part:
        push hl
        ld b, MSG_PART_FRAMES
        call pause_plain
        ld hl, (v_frames)           ; the next part's own time to be read (msg_hold_wait)
        ld (msg_shown_at), hl
        LD_ROW_COL bc, MSG_TOP, 0
        LD_ROW_COL de, MSG_HEIGHT, COLUMNS
        ld a, ATTR_MESSAGE
        call clear_rect
        ld a, MSG_TOP
        ld (msg_row), a
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
; msg_show_pause - msg_show, then LAND_PAUSE frames to read it (the caller's prompt would
; replace it at once)
; Input: HL = message.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_show_pause:
        call msg_show
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; msg_digit - one digit 0..9 at the message position
; Input: A = 0..9.  Output: printed.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_digit:
        add a, '0'
        jp msg_char

; ---------------------------------------------------------------------------------------------
; msg_square_name - a square's name at the message position
; Input: A = square.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_square_name:
        call square_name
        jp msg_print

; ---------------------------------------------------------------------------------------------
; msg_show_player - clear the message lines and print a player's number and name
; Input: A = player.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_show_player:
        push af
        call msg_clear
        pop af
        jp msg_player

str_msg_for:         db " for ", 0
str_msg_question:    db "?", 0
