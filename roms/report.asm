; =============================================================================================
; report.asm - reports: what RST 8 leads to, shown in the lower screen as on the 48K
;
;     C Nonsense in BASIC, 10:2
;
; the report's code (0-9, A-R: ERR_NR + 1), its message, then the line and statement it
; happened in (line 0 for a command typed in).  The next key clears it.
; =============================================================================================

; The messages, in code order: report n is the n-th zero-terminated string.
report_messages:
        dz "OK"                     ; 0
        dz "NEXT without FOR"       ; 1
        dz "Variable not found"     ; 2
        dz "Subscript wrong"        ; 3
        dz "Out of memory"          ; 4
        dz "Out of screen"          ; 5
        dz "Number too big"         ; 6
        dz "RETURN without GO SUB"  ; 7
        dz "End of file"            ; 8
        dz "STOP statement"         ; 9
        dz "Invalid argument"       ; A
        dz "Integer out of range"   ; B
        dz "Nonsense in BASIC"      ; C
        dz "BREAK - CONT repeats"   ; D
        dz "Out of DATA"            ; E
        dz "Invalid file name"      ; F
        dz "No room for line"       ; G
        dz "STOP in INPUT"          ; H
        dz "FOR without NEXT"       ; I
        dz "Invalid I/O device"     ; J
        dz "Invalid colour"         ; K
        dz "BREAK into program"     ; L
        dz "RAMTOP no good"         ; M
        dz "Statement lost"         ; N
        dz "Invalid stream"         ; O
        dz "FN without DEF"         ; P
        dz "Parameter error"        ; Q
        dz "Tape loading error"     ; R

; The copyright line shown at power-on and after NEW (0x7F is the Spectrum's copyright sign).
msg_copyright:
        dz CH_COPYRIGHT, " 2026 zxmonopoly ROM"

; ---------------------------------------------------------------------------------------------
; main_report - the error handler at ERR_SP: RST 8 returns here
; Input:   ERR_NR = the report code - 1; PPC, SUBPPC where it happened
; Output:  the report in the lower screen, the edit line emptied, back to main_loop
; ---------------------------------------------------------------------------------------------
main_report:
        ld hl, (ERR_SP)             ; the stack: only the error return again
        ld sp, hl
        ei                          ; (a report from inside a tape routine comes with DI)
        ld iy, ERR_NR
        xor a
        ld (TVDATA), a              ; no control code half-way
        ld (MODE), a
        ld hl, FLAGS
        res FLAG_RUNNING, (hl)
        ld a, 0xFF
        ld (NSPPC), a               ; no jump pending
        call report_continue_point
        call temps_reset
        call cls_lower
        ld a, STREAM_K
        call chan_open
        ld a, (ERR_NR)
        inc a                       ; the report's number, 0 - 27
        ld c, a
        cp 10
        jr c, .digit
        add a, "A" - "0" - 10
.digit: add a, "0"
        rst ENTRY_PRINT_A
        ld a, CH_SPACE
        rst ENTRY_PRINT_A
        ld a, c
        cp REPORT_COUNT
        jr nc, .where               ; a code of a program's own: no message
        ld hl, report_messages
        call str_nth
        ex de, hl
        call pr_message
.where: ld a, ","
        rst ENTRY_PRINT_A
        ld a, CH_SPACE
        rst ENTRY_PRINT_A
        ld bc, (PPC)
        ld hl, PPC_DIRECT
        and a
        sbc hl, bc
        jr nz, .line
        ld b, h                     ; a command typed in: line 0
        ld c, l
.line:  ld de, 0
        call pr_unsigned
        ld a, ":"
        rst ENTRY_PRINT_A
        ld a, (SUBPPC)
        ld c, a
        ld b, 0
        ld de, 0
        call pr_unsigned
        ld hl, TV_FLAG
        set TV_MESSAGE, (hl)
        call ed_clear_line
        jp main_loop

; ---------------------------------------------------------------------------------------------
; str_nth - the n-th of a list of zero-terminated strings
; Input:   HL = the list, A = n (0 = the first)
; Output:  HL = its first character
; Corrupts: AF, B
; ---------------------------------------------------------------------------------------------
str_nth:
        or a
        ret z
        ld b, a
.skip:  ld a, (hl)
        inc hl
        or a
        jr nz, .skip
        djnz .skip
        ret

; ---------------------------------------------------------------------------------------------
; report_continue_point - where CONTINUE goes after this report (OLDPPC, OSPPC): the statement
; that stopped, or the one after a STOP; nothing changes for 0 OK or a command typed in
; Corrupts: AF, DE, HL
; ---------------------------------------------------------------------------------------------
report_continue_point:
        ld a, (ERR_NR)
        cp REPORT_OK
        ret z
        ld hl, (PPC)
        ld de, PPC_DIRECT
        and a
        sbc hl, de
        ret z
        add hl, de
        ld (OLDPPC), hl
        ld a, (ERR_NR)
        cp REPORT_STOP
        ld a, (SUBPPC)
        jr nz, .same
        inc a                       ; after STOP: the next statement
.same:  ld (OSPPC), a
        ret
