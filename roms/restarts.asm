; =============================================================================================
; restarts.asm - 0x0000-0x0077: the eight restarts, the frame interrupt and the NMI
;
; These addresses are the ROM's oldest contract: RST n is one byte, so programs use them
; everywhere (spectrum_facts section 5.1).  Each restart has only 8 bytes before the next, so
; most jump to the rest of their work, which lives just after the NMI.
; =============================================================================================

; ---------------------------------------------------------------------------------------------
; rst00_start (0x0000) - power-on, and RANDOMIZE USR 0
; Interrupts off, then the cold start (boot.asm), which never returns.
; ---------------------------------------------------------------------------------------------
rst00_start:
        di
        jp boot_cold

        ds ENTRY_ERROR - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; rst08_error (0x0008) - stop with a report
; Input:   the byte after the RST: report number - 1 (REPORT_OK = 0xFF)
; Output:  does not return: CH_ADD is kept in X_PTR, the code in ERR_NR, the calculator stack
;          emptied, SP loaded from ERR_SP and the handler whose address is there RETurned to.
; ---------------------------------------------------------------------------------------------
rst08_error:
        ld hl, (CH_ADD)
        ld (X_PTR), hl
        jr error_raise

        ds ENTRY_PRINT_A - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; rst10_print_a (0x0010) - print A on the current channel (CURCHL)
; Input:   A = character code
; Corrupts: AF and the alternate BC', DE', HL'; the main BC, DE, HL are kept.
; ---------------------------------------------------------------------------------------------
rst10_print_a:
        jp print_a

        ds ENTRY_GET_CHAR - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; rst18_get_char (0x0018) - the character at CH_ADD, spaces skipped
; Output:  A = character, HL = CH_ADD = its address
; ---------------------------------------------------------------------------------------------
rst18_get_char:
        ld hl, (CH_ADD)
        jr char_fetch

        ds ENTRY_NEXT_CHAR - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; rst20_next_char (0x0020) - step CH_ADD on, then as GET-CHAR
; Output:  A = the next character (spaces skipped), HL = CH_ADD = its address
; ---------------------------------------------------------------------------------------------
rst20_next_char:
        ld hl, (CH_ADD)
        inc hl
        jr char_fetch

        ds ENTRY_FP_CALC - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; rst28_fp_calc (0x0028) - the floating-point calculator: not in this ROM
; Reports C, so a program that calls it stops cleanly instead of running its literals as code.
; ---------------------------------------------------------------------------------------------
rst28_fp_calc:
        raise REPORT_NONSENSE

        ds ENTRY_BC_SPACES - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; rst30_bc_spaces (0x0030) - make BC bytes of room at the end of the workspace
; Input:   BC = bytes
; Output:  DE = first byte of the room, HL = its last byte; BC kept
; Corrupts: AF.  Report 4 if memory is short.
; ---------------------------------------------------------------------------------------------
rst30_bc_spaces:
        jp bc_spaces

        ds ENTRY_MASK_INT - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; rst38_mask_int (0x0038) - the frame interrupt (IM 1), 50 times a second
; Counts FRAMES (3 bytes) and scans the keyboard (keyboard_scan_frame).  Uses no IY, unlike
; the 48K's, so a program that changes IY cannot make it write somewhere else.
; Corrupts: nothing (interrupts are enabled on return)
; ---------------------------------------------------------------------------------------------
rst38_mask_int:
        push af
        push hl
        ld hl, (FRAMES)
        inc hl
        ld (FRAMES), hl
        ld a, h
        or l
        jr nz, .scan
        ld hl, FRAMES + 2           ; the low 16 bits wrapped: carry into the third byte
        inc (hl)
.scan:  push bc
        push de
        call keyboard_scan_frame
        pop de
        pop bc
        pop hl
        pop af
        ei
        ret

; ---------------------------------------------------------------------------------------------
; char_fetch - finish GET-CHAR / NEXT-CHAR: skip spaces from HL
; Input:   HL = address to look at
; Output:  A = first character that is not a space, HL = CH_ADD = its address
; ---------------------------------------------------------------------------------------------
char_fetch:
        ld (CH_ADD), hl
        ld a, (hl)
        cp CH_SPACE
        ret nz
        inc hl
        jr char_fetch

        ds ENTRY_NMI - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; nmi (0x0066) - non-maskable interrupt
; NMI returns, as the issue asks: with NMIADD zero (as after boot) it restores AF and HL and
; RETNs. A program that sets NMIADD gets its handler called, with AF and HL on the stack,
; which is what the 48K meant (its own test is the wrong way round and resets on NMIADD = 0).
; ---------------------------------------------------------------------------------------------
nmi:
        push af
        push hl
        ld hl, (NMIADD)
        ld a, h
        or l
        jr z, .back
        jp (hl)
.back:  pop hl
        pop af
        retn

; ---------------------------------------------------------------------------------------------
; error_raise - the rest of RST 8
; Input:   (SP) = address of the report code byte
; Output:  never returns: RETs to the handler at (ERR_SP) with SP = ERR_SP + 2
; ---------------------------------------------------------------------------------------------
error_raise:
        pop hl
        ld a, (hl)
        ld (ERR_NR), a
        ld hl, (STKBOT)             ; the calculator stack is emptied
        ld (STKEND), hl
        ld sp, (ERR_SP)
        ret
