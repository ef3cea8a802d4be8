; =============================================================================================
; keys.asm - reading the keyboard matrix ourselves, and waiting for a key
;
; Half-rows and their keys are spectrum_facts 3.1: port high byte FEh (CAPS SHIFT Z X C V)
; to 7Fh (SPACE SYMBOL-SHIFT M N B), a key reading 0 in its bit while pressed, bit 0 the key
; nearest the edge of the keyboard.  Codes returned: letters in lower case, in upper case
; with CAPS SHIFT; digits; KEY_ENTER; KEY_SPACE; CAPS SHIFT + 0/5/6/7/8/SPACE give
; KEY_DELETE/LEFT/DOWN/UP/RIGHT/BREAK; SYMBOL SHIFT gives the punctuation a name may hold.
; =============================================================================================

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
        db "m.", "n,", "j-", "7'", "p", 0x22, "l=", "k+", "z:", "0_", "1!", "3#", "8(", "9)"
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
        ld d, 0xFF                  ; D = key number of the first non-shift key, FFh none
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
        jr nz, .not_caps
        set 0, e
        jr .noted
.not_caps:
        cp KEY_SYMBOL_SHIFT
        jr nz, .plain
        set 1, e
        jr .noted
.plain: ld d, l
.noted: pop af
.next:  inc l
        dec h
        jr nz, .bit
        rlc b
        jr c, .row                  ; until the 0 bit has gone round all eight
        ld a, d
        cp 0xFF
        jr z, .none
        ld hl, keys_table
        ld c, d
        ld b, 0
        add hl, bc
        ld a, (hl)                  ; the plain character
        bit 0, e
        jr nz, .caps
        bit 1, e
        jr nz, .symbol
        or a
        ret
.caps:  cp 'a'
        jr c, .caps_other
        sub 'a' - 'A'               ; a capital
        or a
        ret
.caps_other:
        ld hl, keys_caps_table
        call keys_pair
        ret nz
        ld a, d                     ; another digit with CAPS SHIFT: the digit itself
        ld hl, keys_table
        ld c, a
        ld b, 0
        add hl, bc
        ld a, (hl)
        cp '0'
        jr c, .none
        or a
        ret
.symbol:
        ld hl, keys_symbol_table
        call keys_pair
        ret nz
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
        jr z, .done
        inc hl
        cp c
        ld a, (hl)
        inc hl
        jr nz, .loop
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
        jr nz, keys_release
        ret

; ---------------------------------------------------------------------------------------------
; keys_wait - wait for all keys up, then for a key (one frame per look: HALT)
; Input: none.  Output: A = key code, never KEY_NONE.  Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_wait:
        call keys_release
.wait:  halt
        call keys_idle
        call keys_read
        jr z, .wait
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
        ret c
        cp 'z' + 1
        ret nc
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
; keys_wait_frames - wait up to B frames for a key (after all keys are up)
; Input: B = frames.  Output: NZ and A = key if one came; Z if none.  Corrupts: F, B, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_wait_frames:
        push bc
        call keys_release
        pop bc
.loop:  halt
        push bc
        call keys_idle
        call keys_read
        pop bc
        ret nz
        djnz .loop
        xor a
        ret
