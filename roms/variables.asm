; =============================================================================================
; variables.asm - numeric variables with one-letter names: LET, FOR, NEXT
;
; The variables area (VARS up to the 0x80 before E_LINE) holds them in the 48K's format
; (spectrum_facts 6; the 48K manual's chapter 24): a number "a" is the byte 0x60 + letter
; number (a = 1) and its 5-byte value; a FOR control variable is 0xE0 + letter number, then
; its value, limit and step (5 bytes each), the line (2 bytes) and the statement (1 byte)
; the loop goes back to.  Other kinds a loaded program may bring (strings, arrays, long
; names) are stepped over; this ROM cannot make or read them (report C).
; =============================================================================================

VAR_LETTER      equ 0x1F            ; a variable's first byte: the letter's number ...
VAR_KIND        equ 0xE0            ; ... and its kind
VAR_NUMBER      equ 0x60            ; a number with a one-letter name
VAR_FOR         equ 0xE0            ; a FOR control variable
VAR_STRING      equ 0x40            ; (a string: 3 bytes + its length)
VAR_LONG        equ 0xA0            ; (a number with a long name)
VAR_NUMBER_SIZE equ 1 + NUMBER_SIZE
VAR_FOR_SIZE    equ 1 + 3 * NUMBER_SIZE + 3
FOR_LIMIT       equ 1 + NUMBER_SIZE ; offsets in a FOR variable
FOR_STEP        equ 1 + 2 * NUMBER_SIZE
FOR_LINE        equ 1 + 3 * NUMBER_SIZE
FOR_STATEMENT   equ FOR_LINE + 2

; ---------------------------------------------------------------------------------------------
; var_name - read a one-letter variable name at CH_ADD
; Output:  C = the letter's number (1-26); CH_ADD after it
; Corrupts: AF, HL.  Report C if there is no letter, or the name is longer (a1, ab, a$).
; ---------------------------------------------------------------------------------------------
var_name:
        rst ENTRY_GET_CHAR
        call is_letter
        jp nc, stmt_nonsense
        and VAR_LETTER
        ld c, a
        inc hl                      ; the next character may not continue the name
        ld a, (hl)
        call is_letter
        jp c, stmt_nonsense
        cp "$"
        jp z, stmt_nonsense
        sub "0"
        cp 10
        jp c, stmt_nonsense
        rst ENTRY_NEXT_CHAR
        ret

; is_letter - carry set if A is a letter.  A kept; corrupts F.
is_letter:
        push bc
        ld b, a
        or 0x20                     ; either case
        sub "a"
        cp 26
        ld a, b
        pop bc
        ret

; ---------------------------------------------------------------------------------------------
; var_find - find the variable of a letter (a number or a FOR variable)
; Input:   C = the letter's number
; Output:  Z: HL = its first byte, A = its kind; NZ: not there (HL = the area's 0x80)
; Corrupts: AF, DE, HL
; ---------------------------------------------------------------------------------------------
var_find:
        ld hl, (VARS)
.next:  ld a, (hl)
        cp VARS_END
        jr z, .none
        and VAR_LETTER
        cp c
        ld a, (hl)
        jr nz, .skip
        and VAR_KIND
        cp VAR_NUMBER
        ret z
        cp VAR_FOR
        ret z
        ld a, (hl)
.skip:  call var_size               ; DE = its size
        add hl, de
        jr .next
.none:  or a                        ; NZ (A = 0x80)
        ret

; var_size - DE = the size of the variable at HL whose first byte is A.  Corrupts AF.
var_size:
        and VAR_KIND
        ld de, VAR_NUMBER_SIZE
        cp VAR_NUMBER
        ret z
        ld de, VAR_FOR_SIZE
        cp VAR_FOR
        ret z
        cp VAR_LONG
        jr z, .long
        push hl                     ; strings and arrays: 3 bytes and the length after them
        inc hl
        ld e, (hl)
        inc hl
        ld d, (hl)
        inc de
        inc de
        inc de
        pop hl
        ret
.long:  push hl                     ; a long name: up to its last letter (bit 7), 5 bytes
        ld de, VAR_NUMBER_SIZE
.letter:
        inc hl
        inc de
        bit 7, (hl)
        jr z, .letter
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; var_value - the value of a variable (ev_factor, at a letter)
; Output:  DE:BC; CH_ADD after the name
; Corrupts: AF, HL.  Report 2 if it has none.
; ---------------------------------------------------------------------------------------------
var_value:
        call var_name
        call var_find
        jr nz, var_not_found
        inc hl
        jp num_read5

var_not_found:
        raise REPORT_VARIABLE

; ---------------------------------------------------------------------------------------------
; var_set - give a variable a value; a new one goes at the end of the area
; Input:   A = the letter's number, DE:BC = the value
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
var_set:
        push bc
        push de
        ld c, a
        call var_find
        jr nz, .new
        inc hl                      ; a number or a FOR variable: its value is the next 5 bytes
        jr .store
.new:   ld a, c
        or VAR_NUMBER
        push af
        ld bc, VAR_NUMBER_SIZE      ; HL = the area's 0x80: the new one goes before it
        call mem_make_room
        pop af
        ld (hl), a
        inc hl
.store: pop de
        pop bc
        jp num_store5_signed

; ---------------------------------------------------------------------------------------------
; var_clear - remove every variable (CLEAR, RUN)
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
var_clear:
        ld hl, (E_LINE)
        ld de, (VARS)
        scf
        sbc hl, de                  ; everything but the 0x80
        ret z
        ld b, h
        ld c, l
        ex de, hl
        jp mem_reclaim

; ---------------------------------------------------------------------------------------------
; LET v = expression
; ---------------------------------------------------------------------------------------------
st_let: call var_name
        push bc
        ld a, "="
        call expect_char
        call ev_expr
        pop hl
        ld a, l
        jr var_set

; ---------------------------------------------------------------------------------------------
; FOR v = start TO limit [STEP step] - a control variable that NEXT v brings back to the
; statement after this one.  If the start is past the limit already the body does not run:
; the program goes on after the next NEXT v (report I FOR without NEXT if there is none).
; ---------------------------------------------------------------------------------------------
st_for: call var_name
        ld a, c
        ld (v_scratch), a           ; (the letter, while the numbers are read)
        ld a, "="
        call expect_char
        call ev_expr
        push de                     ; start
        push bc
        ld a, TK_TO
        call expect_char
        call ev_expr
        push de                     ; limit
        push bc
        ld de, 0
        ld bc, 1
        rst ENTRY_GET_CHAR
        cp TK_STEP
        jr nz, .step
        rst ENTRY_NEXT_CHAR
        call ev_expr
.step:  push de                     ; step
        push bc
        call at_end
        jp nz, stmt_nonsense
        ld a, (v_scratch)           ; any old variable of this letter goes
        ld c, a
        call var_find
        jr nz, .make
        push hl
        ld a, (hl)
        call var_size
        ld b, d
        ld c, e
        pop hl
        call mem_reclaim
        ld a, (v_scratch)
        ld c, a
        call var_find               ; (now NZ: HL = the area's 0x80)
.make:  ld bc, VAR_FOR_SIZE
        call mem_make_room
        push hl
        pop ix
        ld a, (v_scratch)
        or VAR_FOR
        ld (ix+0), a
        ld de, FOR_STEP
        call .store                 ; the step, the limit, then the start (off the stack)
        ld de, FOR_LIMIT
        call .store
        ld de, 1
        call .store
        ld hl, (PPC)                ; where NEXT goes back to: the next statement
        ld (ix+FOR_LINE), l
        ld (ix+FOR_LINE+1), h
        ld a, (SUBPPC)
        inc a
        ld (ix+FOR_STATEMENT), a
        call for_past               ; the limit passed already: on after the NEXT v
        ret nc
        ld a, (ix+0)
        and VAR_LETTER
        ld c, a
        jp for_skip
.store: push ix                     ; a number from under our return address to IX + DE
        pop hl
        add hl, de
        pop de                      ; (our return address)
        pop bc
        ex (sp), hl
        ex de, hl                   ; DE = high word; HL = return address ...
        ex (sp), hl                 ; ... left on the stack; HL = where it goes
        jp num_store5_signed

; ---------------------------------------------------------------------------------------------
; NEXT v - step the control variable; go back while it has not passed the limit
; ---------------------------------------------------------------------------------------------
st_next:
        call var_name
        call var_find
        jr nz, .none
        cp VAR_FOR
        jr nz, .none
        push hl
        pop ix
        inc hl
        call num_read5              ; value ...
        push de
        push bc
        push ix
        pop hl
        ld de, FOR_STEP
        add hl, de
        call num_read5              ; ... + step
        pop hl
        add hl, bc
        ld b, h
        ld c, l
        pop hl
        adc hl, de
        ex de, hl
        jp pe, num_too_big
        push ix
        pop hl
        inc hl
        call num_store5_signed      ; the new value
        call for_past
        ret c                       ; past the limit: done
.again: ld l, (ix+FOR_LINE)
        ld h, (ix+FOR_LINE+1)
        ld (NEWPPC), hl
        ld a, (ix+FOR_STATEMENT)
        ld (NSPPC), a
        ret
.none:  raise REPORT_NEXT_WITHOUT_FOR

; ---------------------------------------------------------------------------------------------
; for_past - has the FOR variable at IX passed its limit? (value > limit counting up, or
; with STEP 0; value < limit counting down)
; Output:  carry set if so
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
for_past:
        push ix
        pop hl
        inc hl
        call num_read5              ; the value
        push de
        push bc
        push ix
        pop hl
        ld de, FOR_LIMIT
        add hl, de
        call num_read5              ; the limit
        pop hl                      ; value - limit
        and a
        sbc hl, bc
        ld b, h
        ld c, l
        pop hl
        sbc hl, de
        ex de, hl
        ld a, (ix+FOR_STEP+1)       ; the step's sign: bit 7 of its second byte (either form)
        rla
        call c, num_negate          ; counting down: limit - value
        bit 7, d
        jr nz, .not                 ; negative: not past
        ld a, d
        or e
        or b
        or c
        ret z                       ; equal: not past (carry clear)
        scf
        ret
.not:   and a
        ret

; ---------------------------------------------------------------------------------------------
; for_skip - go on after the next NEXT v (from CH_ADD on, through the lines that follow)
; Input:   C = the letter's number
; Output:  NEWPPC, NSPPC: the statement after that NEXT.  Report I if there is none.
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
for_skip:
        ld hl, (PPC)
        ld (NEWPPC), hl
        ld a, (SUBPPC)
        ld b, a                     ; B = the statement here, E bit 0 = in a string
        ld e, 0
        ld hl, (CH_ADD)
.char:  ld a, (hl)
        inc hl
        cp CC_ENTER
        jr z, .line
        cp CC_NUMBER
        jr nz, .not_number
        ld a, l
        add a, NUMBER_SIZE
        ld l, a
        jr nc, .char
        inc h
        jr .char
.not_number:
        cp CH_QUOTE
        jr nz, .not_quote
        inc e
        jr .char
.not_quote:
        bit 0, e
        jr nz, .char
        cp TK_REM
        jr z, .rem
        cp ":"
        jr z, .stmt
        cp TK_THEN
        jr z, .stmt
        cp TK_NEXT
        jr nz, .char
        push hl                     ; NEXT: its letter?
        dec hl
.space: inc hl
        ld a, (hl)
        cp CH_SPACE
        jr z, .space
        call is_letter
        jr nc, .other
        and VAR_LETTER
        cp c
        jr nz, .other
        inc hl
        ld a, (hl)                  ; (one letter only)
        call is_letter
        jr c, .other
        sub "0"
        cp 10
        jr c, .other
        pop hl
        inc b                       ; found: on at the statement after it
        ld a, b
        ld (NSPPC), a
        ret
.other: pop hl
        jr .char
.stmt:  inc b
        jr .char
.rem:   ld hl, (NXTLIN)             ; REM: the rest of the line is text
.line:                              ; the line's end: the next line (none after the edit line)
        ld de, (NEWPPC)
        push hl
        ld hl, PPC_DIRECT
        and a
        sbc hl, de
        pop hl
        jr z, .none
        ld de, (VARS)
        and a
        sbc hl, de
        add hl, de
        jr nc, .none
        ld a, (hl)
        and LINE_NUMBER_MASK
        jr nz, .none
        ld d, (hl)
        inc hl
        ld e, (hl)
        inc hl
        ld (NEWPPC), de
        push bc
        ld c, (hl)
        inc hl
        ld b, (hl)
        inc hl
        push hl
        add hl, bc
        ld (NXTLIN), hl
        pop hl
        pop bc
        ld b, 1
        ld e, 0
        jp .char
.none:  raise REPORT_FOR_WITHOUT_NEXT
