; =============================================================================================
; busy.asm - the busy ROM of `zxmonopoly bench --machine`: a 48K kept busy, never halting
;
; IM 1 with interrupts on: the routine at 0x38 counts frames and sets the border.  The main
; loop never HALTs.  Each pass scrolls the display one byte to the left with LDIR (contended
; RAM), writes a new column with ALU and rotate work, bumps a row of attributes (contended
; read-modify-write), then runs a mixed uncontended inner loop with indexed loads, CB ops,
; PUSH/POP and CALL/RET.  Built by tools/build.py into src/zxmonopoly/data/busy.bin; the
; benchmark runs that shipped image (zxmonopoly.images.busy_rom), never the assembler.
; =============================================================================================

; The machine: SCREEN, SCREEN_THIRD, ATTRS, COLUMNS, ULA_PORT, ULA_BORDER (one file for the ROM,
; the game and this)
        include "../../roms/hardware.asm"

STACK_TOP       equ 0xFF00          ; the stack grows down from here
WORK_AREA       equ 0x9000          ; IX points here: the inner loop's indexed operands
FRAME_COUNT     equ 0x8000          ; the interrupt counts frames here (a word)
DISPLAY_COPY    equ 2 * SCREEN_THIRD - 1    ; bytes LDIR moves: two thirds of the bitmap less one
LAST_COLUMN     equ SCREEN + COLUMNS - 1    ; the right-hand column, rewritten each pass
DISPLAY_END_HI  equ HIGH (SCREEN + 2 * SCREEN_THIRD)    ; the column wraps there
INNER_PASSES    equ 200
WORK_RESULT     equ 0x9010          ; where `work` stores its result

        org 0

; ---------------------------------------------------------------------------------------------
; reset - power-on: the stack, IX, IM 1 with interrupts on, then the busy loop
; Input: none.  Output: never returns.
; ---------------------------------------------------------------------------------------------
reset:
        di
        ld sp, STACK_TOP
        ld ix, WORK_AREA
        im 1
        ei
        jp main

        ds 0x38 - $

; ---------------------------------------------------------------------------------------------
; isr - the frame interrupt (IM 1): count the frame, show its low bits in the border
; Input: none.  Output: (FRAME_COUNT) one more.  Corrupts: nothing (AF and HL saved).
; ---------------------------------------------------------------------------------------------
isr:
        push af
        push hl
        ld hl, (FRAME_COUNT)
        inc hl
        ld (FRAME_COUNT), hl
        ld a, l
        and ULA_BORDER
        out (ULA_PORT), a
        pop hl
        pop af
        ei
        ret

; ---------------------------------------------------------------------------------------------
; main - one pass of the busy work, for ever
; Input: IX = WORK_AREA.  Output: never returns.  Corrupts: everything but IX and SP.
; ---------------------------------------------------------------------------------------------
main:
        ld hl, SCREEN + 1
        ld de, SCREEN
        ld bc, DISPLAY_COPY
        ldir                        ; scroll the bitmap a byte left (contended RAM)
        ld hl, LAST_COLUMN
        ld b, 0                     ; 256 bytes of the new column
        ld a, r
.column:
        xor l
        rlca
        ld (hl), a
        inc h
        ld c, a
        ld a, h
        cp DISPLAY_END_HI           ; Past the first two thirds of the display?
        jr c, .in_third
        ld h, HIGH SCREEN           ; yes: back to its top, one column on
        inc l
.in_third:
        ld a, c
        djnz .column
        ld hl, ATTRS
        ld b, COLUMNS
.attribute:
        inc (hl)                    ; a contended read-modify-write
        inc hl
        djnz .attribute
        ld b, INNER_PASSES
.inner:
        ld a, b
        add a, (ix + 1)
        ld (ix + 2), a
        rlc (ix + 3)
        bit 3, a                    ; bit 3 set: take 3 off
        jr z, .kept
        sub 3
.kept:
        push bc
        call work
        pop bc
        djnz .inner
        jp main

; ---------------------------------------------------------------------------------------------
; work - a little ALU work stored away, for the CALL/RET of the inner loop
; Input: A, B.  Output: (WORK_RESULT) and A = (A XOR B) AND 0x3C OR A.  Corrupts: C.
; ---------------------------------------------------------------------------------------------
work:
        ld c, a
        xor b
        and 0x3C
        or c
        ld (WORK_RESULT), a
        ret
