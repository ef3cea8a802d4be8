; =============================================================================================
; calcstack.asm - the calculator stack as machine code uses it: STACK-A (0x2D28), STACK-BC
; (0x2D2B) and PRINT-FP (0x2DE3), the 48K's way to print a number from machine code
;
; This ROM has no floating-point calculator, but the stack itself is the 48K's: 5-byte values
; from STKBOT up to STKEND (spectrum_facts section 6.2), so "ld bc,n / call 0x2D2B / call
; 0x2DE3" prints n.  PRINT-FP prints whole numbers (the integer form, and the floating form of
; a whole number up to 2,147,483,647); a fraction stops with report C, as everything this
; BASIC has no fractions for.
; =============================================================================================

CALC_VALUE      equ 5               ; bytes of a value on the calculator stack
CALC_IY         equ ERR_NR          ; what STACK-BC leaves in IY, as the 48K does

; ---------------------------------------------------------------------------------------------
; stack_bc (STACK-BC, 0x2D2B) - BC onto the calculator stack, in the integer form
; Input:   BC = the value (0-65535)
; Output:  STKEND 5 bytes on; IY = 0x5C3A (ERR_NR), as the 48K leaves it
; Corrupts: AF, BC, DE, HL.  Report 4 if there is no room.
; ---------------------------------------------------------------------------------------------
stack_bc:
        ld iy, CALC_IY
        push bc
        ld bc, CALC_VALUE
        call mem_check_room
        pop bc
        ld hl, (STKEND)
        ld de, 0                    ; DE:BC below 65536: num_store5 writes the integer form
        call num_store5
        ld (STKEND), hl
        ret

; ---------------------------------------------------------------------------------------------
; print_fp (PRINT-FP, 0x2DE3) - print the top of the calculator stack, and drop it
; Input:   the value at STKEND - 5
; Output:  its digits (a "-" first if negative) through RST 10h; STKEND 5 bytes back
; Corrupts: AF, BC, DE, HL and the alternate AF', BC', DE' (RST 10h).  Report C for a
;           fraction, 6 above 2,147,483,647.
; ---------------------------------------------------------------------------------------------
print_fp:
        ld hl, (STKEND)
        ld de, -CALC_VALUE
        add hl, de
        ld (STKEND), hl
        ld a, (hl)
        or a
        jr z, .whole                ; the integer form
        sub FP_BIAS
        jr c, .fraction             ; below 1/2 (not 0: that is the integer form)
        jr z, .fraction             ; 1/2 to 1
        cp FP_INT_TOP - FP_BIAS
        jr nc, .whole               ; no bits below the point (num_read5 judges the size)
        push hl                     ; the bits of the mantissa below the point must be 0
        inc hl
        ld d, (hl)
        inc hl
        ld e, (hl)
        inc hl
        ld b, (hl)
        inc hl
        ld c, (hl)
.shift: sla c                       ; out go the whole number's bits (and the sign)
        rl b
        rl e
        rl d
        dec a
        jr nz, .shift
        ld a, d
        or e
        or b
        or c
        pop hl
        jr nz, .fraction
.whole: call num_read5
        jp pr_number
.fraction:
        raise REPORT_NONSENSE
