; =============================================================================================
; interrupt.asm - the frame interrupt (IM 2): frame counter and the short game's clock
;
; IM 2 with a 257-byte table of IM2_VECTOR_BYTE at IM2_TABLE, so whatever byte the data bus
; holds during the acknowledge (FFh on a bare 48K, spectrum_facts 2.6) the vector read is
; IM2_JUMP, where a JP to isr sits.  The ROM is never entered.
; =============================================================================================

OPCODE_JP       equ 0xC3            ; the Z80's JP nn, written at IM2_JUMP

; ---------------------------------------------------------------------------------------------
; interrupt_install - build the vector table and the jump, select IM 2
; Input: interrupts disabled.  Output: IM 2, I = HIGH IM2_TABLE.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
interrupt_install:
        ld hl, IM2_TABLE
        ld (hl), IM2_VECTOR_BYTE
        ld de, IM2_TABLE + 1
        ld bc, 256
        ldir
        ld a, OPCODE_JP             ; JP nn
        ld (IM2_JUMP), a
        ld hl, isr
        ld (IM2_JUMP + 1), hl
        ld a, HIGH IM2_TABLE
        ld i, a
        im 2
        ret

; ---------------------------------------------------------------------------------------------
; isr - once a frame: count frames; note R while a rent may be claimed (rent_watch_scan); run
; the short game's clock
; Input: none.  Output: v_frames + 1; rent_watch; clock fields updated.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
isr:
        push af
        push hl
        ld hl, (v_frames)
        inc hl
        ld (v_frames), hl
        call rent_watch_scan        ; R for a rent claimable, seen at any frame (as the
                                    ; ROM's interrupt keeps LAST_K)
        ld a, (clock_running)       ; Is a short game's clock running?
        or a
        jr z, .done                 ; No clock running?
        ld hl, (v_clock_frames)
        inc hl
        ld (v_clock_frames), hl
        ld a, l
        cp LOW FRAMES_PER_MINUTE
        jr nz, .done                ; Not a minute yet (the low byte)?
        ld a, h
        cp HIGH FRAMES_PER_MINUTE
        jr nz, .done                ; Not a minute yet?
        ld hl, 0                    ; a minute has passed
        ld (v_clock_frames), hl
        ld hl, (v_clock_minutes)
        ld a, h
        or l
        jr z, .done                 ; No minutes left?  (the clock stays at 0)
        dec hl
        ld (v_clock_minutes), hl
        ld a, 1
        ld (clock_changed), a
.done:
        pop hl
        pop af
        ei
        reti

