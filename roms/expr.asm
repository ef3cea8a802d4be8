; =============================================================================================
; expr.asm - numbers and integer expressions
;
; This ROM has no floating-point calculator: BASIC numbers are signed 32-bit integers, held
; in DE:BC (DE the high word).  Program text keeps every number in the standard way
; (spectrum_facts 6.2): its digits, 0x0E, then 5 hidden bytes, which is what is read back.
;
; Expressions:   expr    = and { OR and }          (a OR b: 1 if b is not 0, else a)
;                and     = not { AND not }         (a AND b: a if b is not 0, else 0)
;                not     = NOT not | compare       (1 if 0, else 0)
;                compare = sum [ ("=" | "<" | ">" | "<=" | ">=" | "<>") sum ]   (1 or 0)
;                sum     = term { ("+" | "-") term }
;                term    = factor { ("*" | "/") factor }
;                factor  = ["-" | "+"] factor | number | "(" sum ")" | PEEK factor
;                          | USR factor | USR "letter" | VAL "digits"
; * and / take operands of up to 16 bits (else 6 Number too big); / truncates; / 0 is 6.
; Anything else where a number is due is C Nonsense in BASIC.
; =============================================================================================

MAX_SHIFT       equ 31              ; bits a hidden floating number may be shifted right
FP_BIAS         equ 128             ; exponent of the hidden form: value = 0.1m * 2^(e - 128)
FP_INT_TOP      equ FP_BIAS + 32    ; mantissa as a 32-bit integer: value = m * 2^(e - 160)
SIGN_BIT        equ 7

; ---------------------------------------------------------------------------------------------
; ev_u16 - a numeric expression that must be 0-65535
; Output:  BC = the value, DE = 0; CH_ADD after it
; Corrupts: AF, HL.  Report B if it is out of range.
; ---------------------------------------------------------------------------------------------
ev_u16:
        call ev_expr
        ld a, d
        or e
        ret z
        raise REPORT_RANGE

; ev_u8 - a numeric expression that must be 0-255: A = C = it (B = 0).  Report B otherwise.
ev_u8:
        call ev_u16
        ld a, b
        or a
        ld a, c
        ret z
        raise REPORT_RANGE

; ---------------------------------------------------------------------------------------------
; ev_expr - a numeric expression, comparisons and AND / OR / NOT included
; Output:  DE:BC = its value; CH_ADD after it
; Corrupts: AF, HL.  Reports C (nonsense), 6 (too big), B, 2, and whatever USR code does.
; ---------------------------------------------------------------------------------------------
ev_expr:
        call ev_and
.next:  rst ENTRY_GET_CHAR
        cp TK_OR
        ret nz
        push de                     ; left
        push bc
        rst ENTRY_NEXT_CHAR
        call ev_and                 ; right
        call num_is_zero
        pop bc                      ; left (POP keeps the flags)
        pop de
        jr z, .next                 ; b = 0: a
        call num_one                ; else 1
        jr .next

; ev_and - NOT-terms joined by AND
ev_and: call ev_not
.next:  rst ENTRY_GET_CHAR
        cp TK_AND
        ret nz
        push de
        push bc
        rst ENTRY_NEXT_CHAR
        call ev_not
        call num_is_zero
        pop bc
        pop de
        jr nz, .next                ; b not 0: a
        call num_zero               ; else 0
        jr .next

; ev_not - [NOT] a comparison
ev_not: rst ENTRY_GET_CHAR
        cp TK_NOT
        jr nz, ev_compare
        rst ENTRY_NEXT_CHAR
        call ev_not
        call num_is_zero
        jp z, num_one
        jp num_zero

; ev_compare - a sum, or two compared: 1 if the relation holds, else 0
REL_LESS        equ 1
REL_EQUAL       equ 2
REL_MORE        equ 4
ev_compare:
        call ev_sum
        rst ENTRY_GET_CHAR
        ld h, REL_LESS
        cp "<"
        jr z, .relation
        ld h, REL_EQUAL
        cp "="
        jr z, .relation
        ld h, REL_MORE
        cp ">"
        jr z, .relation
        ld h, REL_LESS | REL_EQUAL
        cp TK_LE
        jr z, .relation
        ld h, REL_MORE | REL_EQUAL
        cp TK_GE
        jr z, .relation
        ld h, REL_LESS | REL_MORE
        cp TK_NE
        ret nz
.relation:
        push hl                     ; H = the relations that make it true
        push de
        push bc
        rst ENTRY_NEXT_CHAR
        call ev_sum
        pop hl                      ; left - right
        and a
        sbc hl, bc
        ld b, h
        ld c, l
        pop hl
        sbc hl, de                  ; HL:BC = the difference; S and V say its sign
        ld a, h
        jp po, .sign
        xor 0x80                    ; overflow: the sign bit is the wrong way round
.sign:  rla
        ld a, REL_LESS
        jr c, .found
        ld a, h
        or l
        or b
        or c
        ld a, REL_EQUAL
        jr z, .found
        ld a, REL_MORE
.found: pop hl
        and h
        jp z, num_zero
        jp num_one

; num_is_zero - Z if DE:BC is 0.  Corrupts A.
num_is_zero:
        ld a, d
        or e
        or b
        or c
        ret

; num_zero, num_one - DE:BC = 0, 1
num_zero:
        ld bc, 0
        ld d, b
        ld e, c
        ret
num_one:
        ld bc, 1
        ld de, 0
        ret

; ---------------------------------------------------------------------------------------------
; ev_sum - a numeric expression
; Output:  DE:BC = its value; CH_ADD after it
; Corrupts: AF, HL.  Reports C (nonsense), 6 (too big), B, and whatever USR code does.
; ---------------------------------------------------------------------------------------------
ev_sum:
        call ev_term
.next:  rst ENTRY_GET_CHAR
        cp "+"
        jr z, .add
        cp "-"
        ret nz
        call .right                 ; left - right
        pop hl
        and a
        sbc hl, bc
        ld b, h
        ld c, l
        pop hl
        sbc hl, de
        jr .result
.add:   call .right                 ; left + right
        pop hl
        add hl, bc
        ld b, h
        ld c, l
        pop hl
        adc hl, de
.result:
        ex de, hl
        jp pe, num_too_big          ; signed overflow of the high word
        jr .next
.right: pop hl                      ; (our return address) - left goes under it
        push de
        push bc
        push hl
        rst ENTRY_NEXT_CHAR
        jp ev_term                  ; returns to our caller, right in DE:BC

; ---------------------------------------------------------------------------------------------
; ev_term - factors multiplied and divided
; Output:  DE:BC = value
; ---------------------------------------------------------------------------------------------
ev_term:
        call ev_factor
.next:  rst ENTRY_GET_CHAR
        cp "*"
        jr z, .op
        cp "/"
        ret nz
.op:    push af                     ; the operator
        push de                     ; the left operand
        push bc
        rst ENTRY_NEXT_CHAR
        call ev_factor              ; the right one
        call num_sign_split         ; BC = |right|, H bit 7 = its sign
        ld a, h
        pop hl                      ; left low word
        ex (sp), hl                 ; HL = left high word, (SP) = left low word
        ex de, hl                   ; DE = left high
        pop hl                      ; left low
        push bc                     ; |right|
        push af                     ; right's sign (A bit 7)
        ld b, h
        ld c, l
        call num_sign_split         ; BC = |left|, H = its sign
        pop af
        xor h                       ; A bit 7: the result's sign
        pop de                      ; DE = |right|
        pop hl                      ; H = the operator
        push af
        ld a, h
        cp "/"
        jr z, .divide
        call num_mul16              ; DE:HL = BC * DE
        ld b, h
        ld c, l
        bit SIGN_BIT, d             ; must stay a positive 32-bit number
        jp nz, num_too_big
        jr .sign
.divide:
        ld a, d
        or e
        jp z, num_too_big           ; division by zero
        call num_div16              ; BC = BC / DE
        ld de, 0
.sign:  pop af
        rla
        call c, num_negate
        jr .next

; ---------------------------------------------------------------------------------------------
; num_sign_split - the magnitude and sign of DE:BC, if the magnitude fits 16 bits
; Input:   DE:BC
; Output:  BC = |value|, H bit 7 = sign (1 negative)
; Corrupts: AF, DE.  Report 6 if |value| > 65535.
; ---------------------------------------------------------------------------------------------
num_sign_split:
        ld a, d
        push af                     ; A bit 7: the sign
        bit SIGN_BIT, d
        call nz, num_negate
        pop hl                      ; H = that A
        ld a, d
        or e
        ret z
        ; continues into num_too_big

num_too_big:
        raise REPORT_TOO_BIG

; ---------------------------------------------------------------------------------------------
; ev_factor - a number, a bracket, a sign or a function
; Output:  DE:BC = value; CH_ADD after it
; ---------------------------------------------------------------------------------------------
ev_factor:
        rst ENTRY_GET_CHAR
        cp "-"
        jr z, .minus
        cp "+"
        jr z, .plus
        cp "("
        jr z, .bracket
        cp TK_PEEK
        jr z, .peek
        cp TK_USR
        jr z, .usr
        cp TK_VAL
        jr z, .val
        cp "."
        jr z, .number
        call is_letter
        jp c, var_value
        sub "0"
        cp 10
        jr c, .number
        jp stmt_nonsense
.minus: rst ENTRY_NEXT_CHAR
        call ev_factor
        jp num_negate
.plus:  rst ENTRY_NEXT_CHAR
        jr ev_factor
.bracket:
        rst ENTRY_NEXT_CHAR
        call ev_expr
        ld a, ")"
        jp expect_char
.peek:  rst ENTRY_NEXT_CHAR
        call ev_factor
        call .u16
        ld a, (bc)
        ld c, a
        ld b, 0
        ret
.usr:   rst ENTRY_NEXT_CHAR
        cp CH_QUOTE
        jr z, .usr_udg
        call ev_factor
        call .u16
        call usr_call               ; BC = what the code leaves in BC
        ld de, 0
        ret
.usr_udg:                           ; USR "a": the address of user-defined graphic a
        call ev_string
        ld a, c
        dec a
        jr nz, .range               ; exactly one letter
        ld a, (hl)
        or 0x20                     ; either case
        sub "a"
        cp CH_UDGS_COUNT
        jr nc, .range
        ld l, a
        ld h, 0
        add hl, hl
        add hl, hl
        add hl, hl
        ld bc, (UDG)
        add hl, bc
        ld b, h
        ld c, l
        ld de, 0
        ret
.val:   rst ENTRY_NEXT_CHAR         ; VAL "digits" (an optional - first)
        cp CH_QUOTE
        jp nz, stmt_nonsense
        call ev_string
        jp num_from_text
.number:
        ld hl, (CH_ADD)             ; the digits as typed, then the hidden form
.digit: ld a, (hl)
        inc hl
        cp CC_NUMBER
        jr z, .hidden
        cp CC_ENTER
        jp z, stmt_nonsense
        cp "."
        jp z, stmt_nonsense         ; a fraction (only BEEP reads them, from its digits)
        jr .digit
.hidden:
        call num_read5
        ld (CH_ADD), hl
        ret
.u16:   ld a, d                     ; DE:BC must be 0-65535
        or e
        ret z
.range: raise REPORT_RANGE

CH_UDGS_COUNT   equ TK_FIRST - CH_UDGS

; ---------------------------------------------------------------------------------------------
; ev_string - a string literal
; Input:   CH_ADD at its opening quote
; Output:  HL = its first character, BC = its length (a doubled quote inside counts twice);
;          CH_ADD after the closing quote
; Corrupts: F; A = the character after it.  Report C if the line ends first.
; ---------------------------------------------------------------------------------------------
ev_string:
        ld hl, (CH_ADD)
        inc hl
        push hl
        ld bc, 0
.next:  ld a, (hl)
        inc hl
        cp CC_ENTER
        jp z, stmt_nonsense
        cp CH_QUOTE
        jr z, .quote
.count: inc bc
        jr .next
.quote: ld a, (hl)
        cp CH_QUOTE
        jr nz, .end
        inc bc                      ; "" is a quote inside the string
        inc hl
        jr .count
.end:   ld (CH_ADD), hl
        rst ENTRY_GET_CHAR          ; (skip spaces after it)
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; num_from_text - the value of a string of decimal digits (VAL)
; Input:   HL = text, BC = its length
; Output:  DE:BC = value.  Report C if it is not digits (with an optional leading - or +).
; Corrupts: AF, HL
; ---------------------------------------------------------------------------------------------
num_from_text:
        ld a, b
        or c
        jp z, stmt_nonsense
        ld a, (hl)
        cp "-"
        jr z, .sign
        cp "+"
        jr nz, .digits
.sign:  push af
        inc hl
        dec bc
        call num_from_text
        pop af
        cp "-"
        ret nz
        jp num_negate
.digits:
        push bc                     ; characters left
        ld bc, 0
        ld de, 0
.digit: ld a, (hl)
        sub "0"
        cp 10
        jp nc, stmt_nonsense        ; every character must be a digit
        push hl
        call num_times10_plus
        pop hl
        inc hl
        ex (sp), hl
        dec hl
        ld a, h
        or l
        ex (sp), hl
        jr nz, .digit
        pop af                      ; (the count, now 0)
        ret

; ---------------------------------------------------------------------------------------------
; num_parse_decimal - read decimal digits
; Input:   HL = the first digit
; Output:  DE:BC = value (0 - 2,147,483,647), HL after the digits
; Corrupts: AF.  Report 6 if too big, C if a decimal point follows (no fractions here).
; ---------------------------------------------------------------------------------------------
num_parse_decimal:
        call num_parse_int
        cp "."
        ret nz
        jp stmt_nonsense

; num_parse_literal - as num_parse_decimal, but a decimal point and digits after it are
; stepped over (the value is the whole part: BEEP reads the digits themselves)
num_parse_literal:
        call num_parse_int
        cp "."
        ret nz
.fraction:
        inc hl
        ld a, (hl)
        sub "0"
        cp 10
        jr c, .fraction
        ret

; num_parse_int - the digits at HL: DE:BC, HL after them, A = the character there
num_parse_int:
        ld bc, 0
        ld de, 0
.digit: ld a, (hl)
        sub "0"
        cp 10
        jr nc, .end
        push hl
        call num_times10_plus
        pop hl
        inc hl
        jr .digit
.end:   ld a, (hl)
        ret

; ---------------------------------------------------------------------------------------------
; num_times10_plus - DE:BC = DE:BC * 10 + A
; Corrupts: AF, HL.  Report 6 if the result passes 2,147,483,647.
; ---------------------------------------------------------------------------------------------
num_times10_plus:
        push af
        call .double                ; * 2
        push de
        push bc
        call .double                ; * 4
        call .double                ; * 8
        pop hl
        add hl, bc                  ; * 8 + * 2
        ld b, h
        ld c, l
        pop hl
        adc hl, de
        jp c, num_too_big
        ex de, hl
        pop af
        ld l, a
        ld h, 0
        add hl, bc
        ld b, h
        ld c, l
        jr nc, .check
        inc de
.check: bit SIGN_BIT, d
        jp nz, num_too_big
        ret
.double:
        sla c
        rl b
        rl e
        rl d
        jp c, num_too_big
        ret

; ---------------------------------------------------------------------------------------------
; num_read5 - the value of a hidden 5-byte number
; Input:   HL = its first byte
; Output:  DE:BC = value (fractions dropped), HL after the 5 bytes
; Corrupts: AF.  Report 6 if it does not fit 32 signed bits.
; ---------------------------------------------------------------------------------------------
num_read5:
        ld a, (hl)
        inc hl
        or a
        jr nz, .float
        ld a, (hl)                  ; the integer form: 0, sign, low, high, 0
        inc hl
        ld c, (hl)
        inc hl
        ld b, (hl)
        inc hl
        inc hl
        ld de, 0
        or a
        ret z
        dec de                      ; negative: the word is the two's complement
        ret
.float: push hl
        ld d, (hl)                  ; mantissa, most significant byte first; its top bit is
        inc hl                      ; the sign, the leading 1 being understood
        ld e, (hl)
        inc hl
        ld b, (hl)
        inc hl
        ld c, (hl)
        pop hl
        inc hl
        inc hl
        inc hl
        inc hl
        push hl
        ld h, d                     ; H bit 7 = sign
        set SIGN_BIT, d
        sub FP_BIAS + 1
        jr c, .zero                 ; below 1: no integer part
        cp MAX_SHIFT
        jp nc, num_too_big
        ld l, a                     ; shift right by 160 - e = 31 - (e - 129)
        ld a, MAX_SHIFT
        sub l
        ld l, a
.shift: srl d
        rr e
        rr b
        rr c
        dec l
        jr nz, .shift
        bit SIGN_BIT, h
        pop hl
        ret z
        jr num_negate
.zero:  pop hl
        ld de, 0
        ld b, d
        ld c, e
        ret

; ---------------------------------------------------------------------------------------------
; num_store5 - write a number (0 up) in the hidden 5-byte form
; Input:   DE:BC = value (not negative), HL = where
; Output:  HL after the 5 bytes
; Corrupts: AF, BC, DE
; ---------------------------------------------------------------------------------------------
num_store5:
        ld a, d
        or e
        jr nz, .float
        ld (hl), a                  ; up to 65535: the integer form 0, 0 (+), low, high, 0
        inc hl
        ld (hl), a
        inc hl
        ld (hl), c
        inc hl
        ld (hl), b
        inc hl
        ld (hl), a
        inc hl
        ret
.float: ld a, FP_INT_TOP            ; shift left until the top bit is set
.norm:  bit SIGN_BIT, d
        jr nz, .normal
        sla c
        rl b
        rl e
        rl d
        dec a
        jr .norm
.normal:
        res SIGN_BIT, d             ; the understood 1 makes way for the sign (+)
        ld (hl), a
        inc hl
        ld (hl), d
        inc hl
        ld (hl), e
        inc hl
        ld (hl), b
        inc hl
        ld (hl), c
        inc hl
        ret

; ---------------------------------------------------------------------------------------------
; num_store5_signed - write any number in the hidden 5-byte form: -65535..65535 in the integer
; form (0, sign 0 or 0xFF, the low word - two's complement if negative -, 0), others floating
; Input:   DE:BC = value, HL = where
; Output:  HL after the 5 bytes
; Corrupts: AF, BC, DE
; ---------------------------------------------------------------------------------------------
num_store5_signed:
        bit SIGN_BIT, d
        jp z, num_store5
        ld a, d
        and e
        inc a
        jr nz, .float               ; below -65535 ...
        ld a, b
        or c
        jr z, .float                ; ... or -65536: the floating form
        xor a                       ; -65535..-1: the integer form
        ld (hl), a
        inc hl
        ld (hl), 0xFF
        inc hl
        ld (hl), c
        inc hl
        ld (hl), b
        inc hl
        ld (hl), a
        inc hl
        ret
.float: push hl
        call num_negate
        pop hl
        push hl
        call num_store5             ; the magnitude ...
        ex (sp), hl
        inc hl
        set SIGN_BIT, (hl)          ; ... and the sign in the mantissa's top bit
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; num_negate - DE:BC = -DE:BC
; Corrupts: AF, HL
; ---------------------------------------------------------------------------------------------
num_negate:
        xor a
        ld h, a
        ld l, a
        sbc hl, bc
        ld b, h
        ld c, l
        ld h, a
        ld l, a
        sbc hl, de
        ex de, hl
        ret

; ---------------------------------------------------------------------------------------------
; num_div10 - DE:BC = DE:BC / 10 (unsigned), A = the remainder
; Corrupts: F, H
; ---------------------------------------------------------------------------------------------
num_div10:
        xor a
        ld h, 32
.bit:   sla c                       ; the dividend's top bit into the remainder ...
        rl b
        rl e
        rl d
        rla
        cp 10
        jr c, .next
        sub 10                      ; ... and a quotient bit in its place when 10 fits
        inc c
.next:  dec h
        jr nz, .bit
        ret

; ---------------------------------------------------------------------------------------------
; num_mul16 - DE:HL = BC * DE (unsigned)
; Corrupts: AF
; ---------------------------------------------------------------------------------------------
num_mul16:
        ld hl, 0
        ld a, 16
.bit:   add hl, hl                  ; the product moves up through HL into DE as the
        rl e                        ; multiplier's bits leave DE at the top
        rl d
        jr nc, .next
        add hl, bc
        jr nc, .next
        inc de
.next:  dec a
        jr nz, .bit
        ret

; ---------------------------------------------------------------------------------------------
; num_div16 - BC = BC / DE (unsigned), HL = the remainder
; Input:   DE not 0
; Corrupts: AF
; ---------------------------------------------------------------------------------------------
num_div16:
        ld hl, 0
        ld a, 16
.bit:   sla c
        rl b
        adc hl, hl                  ; the dividend's top bit into the remainder
        jr c, .fits                 ; (17 bits: certainly more than the divisor)
        sbc hl, de                  ; (carry is clear)
        jr nc, .one
        add hl, de
        jr .next
.fits:  and a
        sbc hl, de
.one:   inc c
.next:  dec a
        jr nz, .bit
        ret

; ---------------------------------------------------------------------------------------------
; usr_call - call machine code (USR)
; Input:   BC = its address (the code finds it in BC too, as on the 48K)
; Output:  BC = what the code leaves in BC
; Corrupts: everything the code corrupts; IY is put back to ERR_NR
; ---------------------------------------------------------------------------------------------
usr_call:
        call .go
        ld iy, ERR_NR
        ret
.go:    push bc
        ret

; ---------------------------------------------------------------------------------------------
; expect_char - the character at CH_ADD must be A: step past it
; Corrupts: AF, HL.  Report C otherwise.
; ---------------------------------------------------------------------------------------------
expect_char:
        push bc
        ld b, a
        rst ENTRY_GET_CHAR
        cp b
        pop bc
        jp nz, stmt_nonsense
        rst ENTRY_NEXT_CHAR
        ret

; expect_comma - as expect_char with ","
expect_comma:
        ld a, ","
        jr expect_char
