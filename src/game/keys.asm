; =============================================================================================
; keys.asm - reading the keyboard matrix ourselves, and waiting for a key
;
; Half-rows and their keys are spectrum_facts 3.1: port high byte FEh (CAPS SHIFT Z X C V)
; to 7Fh (SPACE SYMBOL-SHIFT M N B), a key reading 0 in its bit while pressed, bit 0 the key
; nearest the edge of the keyboard.  Codes returned: letters in lower case, in upper case
; with CAPS SHIFT; digits; KEY_ENTER; KEY_SPACE; CAPS SHIFT + 0/5/6/7/8/SPACE give
; KEY_DELETE/LEFT/DOWN/UP/RIGHT/BREAK; SYMBOL SHIFT gives the punctuation a name may hold.
; =============================================================================================

KEY_NUMBER_NONE equ 0xFF            ; keys_read's D: no key but the shifts
SHIFT_CAPS_BIT  equ 0               ; keys_read's E: CAPS SHIFT held
SHIFT_SYMBOL_BIT equ 1              ; keys_read's E: SYMBOL SHIFT held
CH_QUOTE        equ 0x22            ; the double quote (SYMBOL SHIFT + P)

; The character on each key by key number (half-row * KEYS_PER_ROW + bit); 0 for the two shifts.
keys_table:
        db 0, "zxcv"
        db "asdfg"
        db "qwert"
        db "12345"
        db "09876"
        db "poiuy"
        db KEY_ENTER, "lkjh"
        db KEY_SPACE, 0, "mnb"
        assert $ - keys_table == HALF_ROWS * KEYS_PER_ROW

; SYMBOL SHIFT + a key: pairs of (plain character, result), ended by 0.
keys_symbol_table:
        db "m.", "n,", "j-", "7'", "p", CH_QUOTE, "l=", "k+", "z:", "0_", "1!", "3#", "8(", "9)"
        db 0

; CAPS SHIFT + a digit: pairs of (digit, result), ended by 0.
keys_caps_table:
        db "0", KEY_DELETE, "5", KEY_LEFT, "6", KEY_DOWN, "7", KEY_UP, "8", KEY_RIGHT
        db KEY_SPACE, KEY_BREAK
        db 0

; ---------------------------------------------------------------------------------------------
; keys_read - which key is pressed now
; Input: none.  Output: A = key code (KEY_NONE if none or an unused combination); Z if none.
; Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_read:
        ld d, KEY_NUMBER_NONE       ; D = key number of the first non-shift key
        ld e, 0                     ; E bit 0: CAPS SHIFT, bit 1: SYMBOL SHIFT
        ld bc, HALF_ROW_CAPS_V * 256 + ULA_PORT ; B = the half-row's select byte
        ld l, 0                     ; L = key number of bit 0 of this half-row
.row:   in a, (c)
        ld h, KEYS_PER_ROW
.bit:   rra
        jr c, .next                 ; Is this key up?
        push af
        ld a, l
        cp KEY_CAPS_SHIFT
        jr nz, .not_caps            ; Not CAPS SHIFT?
        set SHIFT_CAPS_BIT, e
        jr .noted
.not_caps:
        cp KEY_SYMBOL_SHIFT
        jr nz, .plain               ; Not SYMBOL SHIFT either?
        set SHIFT_SYMBOL_BIT, e
        jr .noted
.plain: ld d, l
.noted: pop af
.next:  inc l
        dec h
        jr nz, .bit                 ; Another key in this half-row?
        rlc b
        jr c, .row                  ; Another half-row?  (till the 0 bit goes round)
        ld a, d
        cp KEY_NUMBER_NONE
        jr z, .none                 ; No key but the shifts?
        ld hl, keys_table
        ld c, d
        ld b, 0
        add hl, bc
        ld a, (hl)                  ; the plain character
        bit SHIFT_CAPS_BIT, e
        jr nz, .caps                ; CAPS SHIFT held?
        bit SHIFT_SYMBOL_BIT, e
        jr nz, .symbol              ; SYMBOL SHIFT held?
        or a
        ret
.caps:  cp 'a'
        jr c, .caps_other           ; Not a letter?
        sub 'a' - 'A'               ; a capital
        or a
        ret
.caps_other:
        ld hl, keys_caps_table
        call keys_pair
        ret nz                      ; DELETE, an arrow or BREAK (CAPS SHIFT's table)?
        ld a, d                     ; another digit with CAPS SHIFT: the digit itself
        ld hl, keys_table
        ld c, a
        ld b, 0
        add hl, bc
        ld a, (hl)
        cp '0'
        jr c, .none                 ; Not a digit either (CAPS SHIFT+ENTER: no key)?
        or a
        ret
.symbol:
        ld hl, keys_symbol_table
        call keys_pair
        ret nz                      ; A symbol of SYMBOL SHIFT's table?
.none:  xor a
        ret

; ---------------------------------------------------------------------------------------------
; keys_pair - look a character up in a table of pairs
; Input: A = character, HL = pairs (key, result) ended by 0.
; Output: A = result and NZ if found; A = 0 and Z if not.  Corrupts: F, HL.
; ---------------------------------------------------------------------------------------------
keys_pair:
        push bc
        ld c, a
.loop:  ld a, (hl)
        or a
        jr z, .done                 ; The table's end (not found)?
        inc hl
        cp c
        ld a, (hl)
        inc hl
        jr nz, .loop                ; Not this pair?
        or a
.done:  pop bc
        ret

; ---------------------------------------------------------------------------------------------
; keys_release - wait (a frame at a time) until no key is pressed
; Input: none.  Output: none.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_release:
        halt
        call keys_idle
        xor a
        in a, (ULA_PORT)            ; all half-rows at once
        cpl
        and ULA_KEYS
        jr nz, keys_release         ; A key still down?
        ret

; ---------------------------------------------------------------------------------------------
; keys_wait - wait for a key for the prompt on the screen: a key typed ahead for it (kept since
; its asking line, keys_ahead_frame) at once; else a new key - one that goes down while all
; others are up, or while another is still held (a key pressed before the last is let go)
; Input: keys_ahead, keys_ahead_on.  Output: A = key code, never KEY_NONE; keys_from_ahead 1
; if it was typed ahead; nothing kept, none to keep; msg_hold 0.  Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_wait:
        xor a
        ld (keys_from_ahead), a
        ld a, (keys_ahead)
        or a
        jr nz, .ahead               ; A key typed ahead for this prompt?
        ld a, (keys_ahead_on)
        or a
        call z, keys_ahead_arm      ; No asking line before it?  The prompt asks from now on.
.release:
        halt
        call keys_idle
        call keys_ahead_frame
        jr nz, .ahead               ; A new key while another is held?
        xor a
        in a, (ULA_PORT)            ; all half-rows at once
        cpl
        and ULA_KEYS
        jr nz, .release             ; Any key still down?
.wait:  halt
        call keys_idle
        call keys_read
        jr z, .wait                 ; No key yet?
        ld (keys_ahead_prev), a
        jr .taken
.ahead: ld a, 1
        ld (keys_from_ahead), a
        ld a, (keys_ahead)
.taken: push af
        xor a                       ; answered: nothing kept, none to keep until the next
        ld (keys_ahead), a          ; asking line
        ld (keys_ahead_on), a
        pop af
        jp msg_hold_end             ; (he has read what he answers: its pace ends)

; ---------------------------------------------------------------------------------------------
; keys_ahead_arm - an asking line is on the screen (issue 45, as the ROM keeps LAST_K): forget
; any key kept so far and keep the next new one for the prompt that follows (keys_ahead_frame)
; Input: none.  Output: keys_ahead 0, keys_ahead_on 1, keys_ahead_prev = the key down now
; (a key already held is not new).  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
keys_ahead_arm:
        push af
        push bc
        push de
        push hl
        call keys_read
        ld (keys_ahead_prev), a
        xor a
        ld (keys_ahead), a
        inc a
        ld (keys_ahead_on), a
        pop hl
        pop de
        pop bc
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; keys_ahead_clear - nothing kept and nothing to keep (a new turn: no key typed before it
; answers its questions; a computer's pause: its key was typed there, not ahead)
; Input: none.  Output: keys_ahead 0, keys_ahead_on 0, keys_from_ahead 0.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
keys_ahead_clear:
        push af
        xor a
        ld (keys_ahead), a
        ld (keys_ahead_on), a
        ld (keys_from_ahead), a
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; keys_ahead_frame - once a frame of a hold: while an asking line is on the screen, a new key
; (down now, not the frame before) is kept for the prompt; the last new key wins
; Input: keys_ahead_on, keys_ahead_prev.  Output: NZ and A = the key kept, if any; Z if none
; (or none to keep).  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_ahead_frame:
        ld a, (keys_ahead_on)
        or a
        ret z                       ; No asking line on the screen?
        call keys_read
        ld hl, keys_ahead_prev
        cp (hl)
        ld (hl), a
        jr z, .kept                 ; The same key (or none) as the frame before?
        or a
        jr z, .kept                 ; Let go?
        ld (keys_ahead), a
.kept:  ld a, (keys_ahead)
        or a
        ret

; ---------------------------------------------------------------------------------------------
; keys_wait_upper - keys_wait with letters in upper case
; Input: none.  Output: A = key code.  Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_wait_upper:
        call keys_wait
        ; continues into to_upper

; ---------------------------------------------------------------------------------------------
; to_upper - a lower-case letter in upper case, anything else unchanged
; Input: A.  Output: A.  Corrupts: F.
; ---------------------------------------------------------------------------------------------
to_upper:
        cp 'a'
        ret c                       ; Below 'a'?
        cp 'z' + 1
        ret nc                      ; Above 'z'?
        sub 'a' - 'A'
        ret

; ---------------------------------------------------------------------------------------------
; keys_idle - what runs once a frame while a key is awaited: the game's idle routine
; Input: none.  Output: whatever keys_idle_hook does.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_idle:
        ld hl, (keys_idle_hook)
        jp (hl)

; ---------------------------------------------------------------------------------------------
; keys_idle_none - the idle routine when there is none: nothing
; Input: none.  Output: none.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
keys_idle_none:
        ret

; ---------------------------------------------------------------------------------------------
; keys_wait_frames - wait up to B frames for a key: one kept since an asking line (a
; computer's prompt, a refusal in its pause) at once, else a new one (not one held already:
; waiting for every key to be up swallowed a key pressed as the prompt came)
; Input: B = frames, keys_ahead, keys_ahead_on.  Output: NZ and A = key if one came (msg_hold
; 0, as keys_wait); Z if none; nothing kept, none to keep.  Corrupts: F, B, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_wait_frames:
        ld a, (keys_ahead_on)
        or a
        call z, keys_ahead_arm      ; No asking line before it?  The pause asks from now on.
        ld a, (keys_ahead)
        or a
        jr nz, .got                 ; A key kept already (typed since the asking line)?
.loop:  halt
        push bc
        call keys_idle
        call keys_ahead_frame       ; NZ: a new key, kept
        pop bc
        jr nz, .got                 ; A key came?
        djnz .loop
        xor a                       ; none
        jp keys_ahead_clear
.got:   call keys_ahead_clear
        jp msg_hold_end             ; (a key taken ends the pace, as keys_wait)
