; =============================================================================================
; keyboard.asm - the key matrix: scanning, repeat, and what each key means in each mode
;
; The frame interrupt calls keyboard_scan_frame (ENTRY_KEYBOARD, 0x02BF).  It scans the eight
; half-rows, and when a key goes down (or has been held REPDEL frames, then every REPPER)
; it decodes the key for the current mode into LAST_K and sets FLAGS bit 5, as on the 48K.
;
; Modes (spectrum_facts 3.4): MODE = MODE_EXTEND gives E, MODE_GRAPHICS gives G; otherwise
; FLAGS bit 3 clear gives K (the editor clears it where a keyword is due), and FLAGS2 bit 3
; (CAPS LOCK) picks C over L.  The tables below are the facts sheet's 3.3, 3.5-3.7.
;
; Key numbers: half-row * 5 + bit, half-row 0 being port high byte 0xFE (section 3.1).
; =============================================================================================

; ---------------------------------------------------------------------------------------------
; key_base_table - the character printed on each key (letters as capitals), by key number
; 0 marks the two shift keys.
; ---------------------------------------------------------------------------------------------
key_base_table:
        db 0, "ZXCV"                ; half-row 0 (0xFE): CAPS SHIFT Z X C V
        db "ASDFG"                  ; 0xFD
        db "QWERT"                  ; 0xFB
        db "12345"                  ; 0xF7
        db "09876"                  ; 0xEF
        db "POIUY"                  ; 0xDF
        db CC_ENTER, "LKJH"         ; 0xBF
        db " ", 0, "MNB"            ; 0x7F: SPACE SYMBOL-SHIFT M N B
        assert $ - key_base_table == HALF_ROWS * KEYS_PER_ROW

; SYMBOL SHIFT + letter (K, L, C modes), A to Z.
sym_letter_table:
        db TK_STOP, "*?", TK_STEP, TK_GE, TK_TO, TK_THEN, "^"   ; A-H (^ is the up arrow)
        db TK_AT, "-+=.,;", CH_QUOTE, TK_LE                     ; I-Q
        db "<", TK_NOT, ">", TK_OR, "/", TK_NE, CH_POUND        ; R-X
        db TK_AND, ":"                                          ; Y-Z
        assert $ - sym_letter_table == 26

; SYMBOL SHIFT + digit, 0 to 9.
sym_digit_table:
        db "_!@#$%&'()"

; CAPS SHIFT + digit, 0 to 9: the editing and mode keys.
caps_digit_table:
        db CC_DELETE, CC_EDIT, CC_CAPS_LOCK, CC_TRUE_VIDEO, CC_INV_VIDEO
        db CC_LEFT, CC_DOWN, CC_UP, CC_RIGHT, CC_GRAPHICS

; E mode, letter without a shift, A to Z: the functions.
e_letter_table:
        db TK_READ, TK_BIN, TK_LPRINT, TK_DATA, TK_TAN, TK_SGN, TK_ABS, TK_SQR      ; A-H
        db TK_CODE, TK_VAL, TK_LEN, TK_USR, TK_PI, TK_INKEY_S, TK_PEEK, TK_TAB     ; I-P
        db TK_SIN, TK_INT, TK_RESTORE, TK_RND, TK_CHR_S, TK_LLIST, TK_COS, TK_EXP  ; Q-X
        db TK_STR_S, TK_LN                                                        ; Y-Z
        assert $ - e_letter_table == 26

; E mode, letter with either shift, A to Z.
e_shift_table:
        db "~", TK_BRIGHT, TK_PAPER, "\\", TK_ATN, "{}", TK_CIRCLE                 ; A-H
        db TK_IN, TK_VAL_S, TK_SCREEN_S, TK_ATTR, TK_INVERSE, TK_OVER, TK_OUT      ; I-O
        db CH_COPYRIGHT, TK_ASN, TK_VERIFY, "|", TK_MERGE, "]", TK_FLASH, TK_ACS  ; P-W
        db TK_INK, "[", TK_BEEP                                                   ; X-Z
        assert $ - e_shift_table == 26

; E mode, SYMBOL SHIFT + digit, 0 to 9.
e_digit_table:
        db TK_FORMAT, TK_DEF_FN, TK_FN, TK_LINE, TK_OPEN, TK_CLOSE
        db TK_MOVE, TK_ERASE, TK_POINT, TK_CAT

; ---------------------------------------------------------------------------------------------
; key_decode - the code a key gives in the current mode
; Input:   E = key number (0-39, or KEY_EXTEND_PAIR), D = shift state (SHIFT_* bits)
; Output:  carry set: A = the code; carry clear: this key gives nothing here
; Corrupts: BC, HL
; ---------------------------------------------------------------------------------------------
key_decode:
        ld a, e
        cp KEY_EXTEND_PAIR          ; both shifts and nothing else: E mode on or off
        jr nz, .real
        ld a, CC_EXTEND
        scf
        ret
.real:  ld hl, key_base_table
        ld b, 0
        ld c, e
        add hl, bc
        ld a, (hl)
        or a
        ret z                       ; a shift key on its own (NC)
        cp CC_ENTER
        jp z, .code
        cp CH_SPACE
        jr nz, .not_space
        bit SHIFT_CAPS, d
        ret nz                      ; CAPS SHIFT + SPACE is BREAK: no key (NC from CP)
        jp .code
.not_space:
        ld c, a                     ; C = the key's character
        ld a, (MODE)
        cp MODE_GRAPHICS
        jr z, .graphics
        cp MODE_EXTEND
        jr z, .extend
        ; K, L or C mode
        bit SHIFT_SYMBOL, d
        jr nz, .symbol
        ld a, c
        cp "A"
        jr nc, .letter
        bit SHIFT_CAPS, d           ; a digit: itself, or an editing key with CAPS SHIFT
        jr z, .code
        ld hl, caps_digit_table
        jr .digit_lookup
.letter:
        ld hl, FLAGS
        bit FLAG_L_MODE, (hl)
        jr z, .keyword              ; K mode: the keyword, whatever the shift
        bit SHIFT_CAPS, d
        jr nz, .code                ; capital
        ld hl, FLAGS2
        bit F2_CAPS_LOCK, (hl)
        jr nz, .code                ; C mode: capital
        add a, "a" - "A"
        jr .code
.keyword:
        add a, TK_K_MODE_BASE
        jr .code
.symbol:
        ld a, c
        cp "A"
        ld hl, sym_letter_table
        jr nc, .letter_lookup
        ld hl, sym_digit_table
        jr .digit_lookup
.extend:
        ld a, c
        cp "A"
        jr nc, .e_letter
        bit SHIFT_SYMBOL, d
        ld hl, e_digit_table
        jr nz, .digit_lookup
        bit SHIFT_CAPS, d           ; E mode + CAPS SHIFT + digit: the editing keys still work
        ld hl, caps_digit_table
        jr nz, .digit_lookup
        and a                       ; E mode + digit alone (colour keys): nothing here
        ret
.e_letter:
        ld hl, e_letter_table
        ld a, d
        and (1 << SHIFT_CAPS) | (1 << SHIFT_SYMBOL)
        ld a, c
        jr z, .letter_lookup
        ld hl, e_shift_table
        jr .letter_lookup
.graphics:
        ld a, c
        cp "A"
        jr nc, .udg
        cp "9"
        ld a, CC_GRAPHICS           ; 9 leaves G mode
        jr z, .code
        ld a, c
        cp "0"
        ld a, CC_DELETE             ; 0 deletes
        jr z, .code
        ld a, c
        sub "0"                     ; 1-7: that block pattern; 8: the empty block
        and 7
        bit SHIFT_CAPS, d
        jr z, .block
        xor 0x0F                    ; with CAPS SHIFT: the inverse pattern
.block: add a, CH_BLOCKS
        jr .code
.udg:   add a, CH_UDGS - "A"        ; A-U: the UDGs (and V-Z run on into tokens, as on a 48K)
        jr .code
.letter_lookup:
        sub "A"
        jr .lookup
.digit_lookup:
        sub "0"
.lookup:
        ld c, a
        ld b, 0
        add hl, bc
        ld a, (hl)
.code:  scf
        ret

; ---------------------------------------------------------------------------------------------
; key_scan_48 (KEY-SCAN, 0x028E) - the matrix as the 48K's KEY-SCAN gives it to machine code
; Key values: (4 - bit) * 8 + (7 - half-row), half-row 0 being port 0xFE: so B is 0x00, V 0x07,
; SYMBOL SHIFT KV_SYMBOL, CAPS SHIFT KV_CAPS (spectrum_facts 3.1 has the matrix).
; Output:  E = the key (KV_NONE if none), D = the shift held with it (KV_NONE if none).  A
;          shift alone is the key in E; the two shifts alone give E = KV_SYMBOL,
;          D = KV_CAPS.  Z set if that is the whole reading; NZ for more keys than that.
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
KV_NONE         equ 0xFF
KV_CAPS         equ 0x27
KV_SYMBOL       equ 0x18
key_scan_48:
        call key_scan
        ret nz                      ; two keys besides the shifts
        ld a, e
        cp KEY_NONE
        jr z, .shifts
        call kv_of_key
        ld e, a
        ld a, d
        and (1 << SHIFT_CAPS) | (1 << SHIFT_SYMBOL)
        ld d, KV_NONE
        ret z                       ; a key alone
        cp (1 << SHIFT_CAPS) | (1 << SHIFT_SYMBOL)
        jr z, .three
        ld d, KV_CAPS
        bit SHIFT_CAPS, a
        jr nz, .one
        ld d, KV_SYMBOL
.one:   cp a                        ; Z: a key and one shift
        ret
.three: or a                        ; NZ: a key and both shifts
        ret
.shifts:
        ld a, d
        and (1 << SHIFT_CAPS) | (1 << SHIFT_SYMBOL)
        ld de, (KV_NONE << 8) | KV_NONE
        ret z                       ; nothing down
        cp (1 << SHIFT_CAPS) | (1 << SHIFT_SYMBOL)
        ld de, (KV_CAPS << 8) | KV_SYMBOL
        ret z                       ; both shifts
        ld d, KV_NONE
        ld e, KV_CAPS
        bit SHIFT_CAPS, a
        jr nz, .one
        ld e, KV_SYMBOL
        jr .one

; kv_of_key - the 48K key value of our key number (half-row * 5 + bit)
; Input:   A = key number (0-39).  Output: A = key value.  Corrupts: F, C
kv_of_key:
        ld c, 0xFF
.row:   inc c
        sub KEYS_PER_ROW
        jr nc, .row
        add a, KEYS_PER_ROW         ; A = bit, C = half-row
        neg
        add a, KEYS_PER_ROW - 1
        add a, a
        add a, a
        add a, a                    ; (4 - bit) * 8
        add a, HALF_ROWS - 1
        sub c
        ret

        assert $ <= ENTRY_KEY_SCAN
        ds ENTRY_KEY_SCAN - $, TRAP_FILL
; key_scan_entry (KEY-SCAN, 0x028E) - the matrix in the 48K's key values (key_scan_48 below)
key_scan_entry:
        jp key_scan_48

        ds ENTRY_KEYBOARD - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; keyboard_scan_frame (0x02BF) - the interrupt's keyboard work, with the 48K's bookkeeping
; Two KSTATE sets (KS_*) each follow one key.  Every interrupt each taken set counts down
; KS_HOLD, and is freed when it reaches 0; the key seen down has its set's KS_HOLD put back to
; KS_HOLD_FRAMES.  So a key counts as new only after it has been up for KS_HOLD_FRAMES
; interrupts: pressed again sooner it is the same keystroke (a repeat, given after REPDEL
; frames and then every REPPER), and a third key while two sets are taken is ignored.  A new
; key is decoded for the current mode into KS_CODE and LAST_K, and FLAGS bit 5 is set; a
; repeat gives KS_CODE again.  Two keys at once (shifts apart) leave everything as it was.
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
keyboard_scan_frame:
        call key_scan
        ret nz                      ; ambiguous: wait for a clean reading
        ld hl, KSTATE
        call ks_count_down
        ld hl, KS_SET_1
        call ks_count_down
        ld a, e
        cp KEY_NONE
        jr nz, .key
        ld a, d
        and (1 << SHIFT_CAPS) | (1 << SHIFT_SYMBOL)
        cp (1 << SHIFT_CAPS) | (1 << SHIFT_SYMBOL)
        ret nz                      ; no key down
        ld a, KEY_EXTEND_PAIR       ; both shifts alone count as a key of their own
.key:   ld hl, KSTATE
        cp (hl)
        jr z, .repeat
        ld hl, KS_SET_1
        cp (hl)
        jr z, .repeat
        bit KS_FREE, (hl)           ; a new key: into a free set
        jr nz, .new
        ld hl, KSTATE
        bit KS_FREE, (hl)
        ret z                       ; both taken: ignored until one is freed
.new:   ld (hl), a                  ; KS_KEY
        ld e, a
        inc hl
        ld (hl), KS_HOLD_FRAMES
        inc hl
        ld a, (REPDEL)
        ld (hl), a                  ; KS_REPEAT
        inc hl
        push hl
        call key_decode
        pop hl
        jr c, .code
        xor a                       ; the key gives nothing in this mode: nor do its repeats
.code:  ld (hl), a                  ; KS_CODE
        jr .emit
.repeat:
        inc hl
        ld (hl), KS_HOLD_FRAMES
        inc hl
        dec (hl)                    ; KS_REPEAT
        ret nz
        ld a, (REPPER)
        ld (hl), a
        inc hl
        ld a, (hl)                  ; KS_CODE
.emit:  or a
        ret z                       ; nothing to give (no code is 0)
        ld (LAST_K), a
        ld hl, FLAGS
        set FLAG_NEW_KEY, (hl)
        ret

; ks_count_down - one interrupt of a KSTATE set: KS_HOLD - 1 if taken; freed at 0
; Input:   HL = the set.  Corrupts: F
ks_count_down:
        bit KS_FREE, (hl)
        ret nz
        inc hl
        dec (hl)
        dec hl
        ret nz
        ld (hl), KEY_NONE
        ret

; ---------------------------------------------------------------------------------------------
; key_scan - read the whole matrix
; Output:  E = the key down other than the shifts (KEY_NONE if none)
;          D = shift state: bit SHIFT_CAPS, bit SHIFT_SYMBOL, bit SHIFT_TWO_KEYS (more than one
;          other key: E is then not to be trusted)
;          Z set if the reading is usable (not two keys)
; Corrupts: AF, BC, HL
; ---------------------------------------------------------------------------------------------
key_scan:
        ld de, KEY_NONE             ; D = 0: no shifts; E: no key
        ld bc, (HALF_ROW_CAPS_V << 8) | ULA_PORT
        ld l, 0                     ; key number of bit 0 of this half-row
.row:   in a, (c)
        cpl
        and ULA_KEYS                ; keys down as 1 bits
        jr z, .next_row
        bit 0, b                    ; half-row 0: CAPS SHIFT is bit 0
        jr nz, .not_caps_row
        bit 0, a
        jr z, .not_caps_row
        set SHIFT_CAPS, d
        res 0, a
.not_caps_row:
        bit 7, b                    ; half-row 7: SYMBOL SHIFT is bit 1
        jr nz, .not_sym_row
        bit 1, a
        jr z, .not_sym_row
        set SHIFT_SYMBOL, d
        res 1, a
.not_sym_row:
        ld h, l                     ; H = key number of the bit about to leave A
.bits:  or a
        jr z, .next_row             ; no more keys down in this half-row
        srl a
        jr nc, .next_bit
        inc e                       ; E was KEY_NONE: this is the first key
        jr z, .first
        set SHIFT_TWO_KEYS, d
        jr .next_bit
.first: ld e, h
.next_bit:
        inc h
        jr .bits
.next_row:
        ld a, l
        add a, KEYS_PER_ROW
        ld l, a
        rlc b                       ; select the next half-row; carry clear after the last
        jr c, .row
        bit SHIFT_TWO_KEYS, d
        ret

; ---------------------------------------------------------------------------------------------
; break_key (vector at 0x1F54) - is BREAK (CAPS SHIFT + SPACE) pressed?
; Output:  carry clear if it is
; Corrupts: AF
; ---------------------------------------------------------------------------------------------
break_key:
        ld a, HALF_ROW_SPACE_B
        in a, (ULA_PORT)
        rra                         ; SPACE (bit 0) into carry: set = up
        ret c
        ld a, HALF_ROW_CAPS_V
        in a, (ULA_PORT)
        rra                         ; CAPS SHIFT
        ret
