; =============================================================================================
; boot.asm - power-on and NEW: RAM, system variables, channels, the first screen
;
; After this the machine looks as a 48K does after power-on to software that PEEKs it
; (spectrum_facts 5.3, 5.4): the system variables at their standard addresses with their
; standard values, CHANS and STRMS laid out as on the 48K, an empty program at PROG = 23755,
; RAMTOP = 0xFF57 with the UDGs (copies of A-U) above it, IY = ERR_NR, IM 1.
; =============================================================================================

BOOT_I          equ 0x3F            ; I as the 48K leaves it (IM 2 vectors would point into ROM)

; boot_clear (macro) - zero RAM from RAM_START to HL, without the stack (it is in that RAM)
; Input:   HL = last byte to clear (above RAM_START)
; Corrupts: AF, BC, DE, HL
boot_clear      macro
        ld de, RAM_START
        and a
        sbc hl, de
        ld b, h                     ; BC = bytes - 1: LDIR copies the first zero on
        ld c, l
        ld hl, RAM_START
        ld de, RAM_START + 1
        ld (hl), 0
        ldir
                endm

; ---------------------------------------------------------------------------------------------
; boot_cold - power-on (from 0x0000, interrupts off)
; Finds the top of RAM (16K or 48K), clears it all, puts the UDGs just under the top and
; continues into boot_system.  Never returns.
; ---------------------------------------------------------------------------------------------
boot_cold:
        ld a, WHITE
        out (ULA_PORT), a
        ld hl, RAM_END_48K          ; a 16K machine has nothing at 0x8000-0xFFFF
        ld a, 0x5A
        ld (hl), a
        cp (hl)
        jr z, .top_found
        ld hl, RAM_END_16K
.top_found:
        ld a, h                     ; the top's high byte waits in A' (its low byte is 0xFF)
        ex af, af'
        boot_clear                  ; (inline: there is no stack until RAM is clear)
        ex af, af'
        ld h, a
        ld l, LOW RAM_END_48K       ; HL = top of RAM
        ld (P_RAMT), hl
        ld de, -UDG_SIZE
        add hl, de                  ; RAMTOP = the byte under the UDGs
        ld (RAMTOP), hl
        inc hl
        ld (UDG), hl
        ex de, hl                   ; the UDGs start as copies of the letters A-U
        ld hl, FONT + ("A" - FONT_FIRST) * GLYPH_SIZE
        ld bc, UDG_SIZE
        ldir
        jr boot_system

; ---------------------------------------------------------------------------------------------
; boot_new - the NEW statement: as power-on, but RAMTOP, P_RAMT and the UDGs are kept
; Never returns.
; ---------------------------------------------------------------------------------------------
boot_new:
        di
        ld hl, (RAMTOP)             ; the three survive in the alternate registers
        ld de, (P_RAMT)
        ld bc, (UDG)
        exx
        ld hl, (RAMTOP)
        boot_clear                  ; (inline: the stack is in the RAM being cleared)
        exx
        ld (RAMTOP), hl
        ld (P_RAMT), de
        ld (UDG), bc
        ; continues into boot_system

; ---------------------------------------------------------------------------------------------
; boot_system - the system variables, channels, stack, interrupts and the first screen
; Input:   RAMTOP, P_RAMT, UDG already set; the rest of RAM is zero
; Never returns: it ends in the editor with the copyright message shown.
; ---------------------------------------------------------------------------------------------
boot_system:
        ld hl, boot_values          ; the table of initial values
.block: ld e, (hl)
        inc hl
        ld d, (hl)                  ; DE = where the values go
        inc hl
        ld a, d
        or e
        jr z, .channels
        ld c, (hl)                  ; how many bytes
        ld b, 0
        inc hl
        ldir
        jr .block
.channels:
        ld hl, chan_data            ; CHANS: K, S, R, P as on the 48K
        ld de, CHANS_AREA
        ld bc, CHANNEL_DATA_SIZE
        ldir
        ld hl, PROG_START           ; the empty program: only the variables' end marker,
        ld (hl), VARS_END           ; then the empty edit line (ENTER) and its end marker
        inc hl
        ld (hl), CC_ENTER
        inc hl
        ld (hl), VARS_END
        ; the machine stack: the GO SUB end marker at RAMTOP, the error return under it
        ld hl, (RAMTOP)
        ld (hl), STACK_MARK
        dec hl
        ld sp, hl
        dec hl
        dec hl
        ld (ERR_SP), hl
        ld hl, main_report
        push hl
        ld iy, ERR_NR               ; for programs that expect it (this ROM itself does not)
        ld a, BOOT_I
        ld i, a
        im 1
        ei
        call cls
        ld a, STREAM_K
        call chan_open
        ld de, msg_copyright
        call pr_message
        ld hl, TV_FLAG
        set TV_MESSAGE, (hl)        ; the next key clears the message
        jp main_loop


; ---------------------------------------------------------------------------------------------
; boot_values - initial system variables: blocks of (address, count, bytes), ended by 0
; Everything not listed starts at zero (spectrum_facts 5.4).
; ---------------------------------------------------------------------------------------------
boot_values:
        dw KSTATE
        db 11, KEY_NONE, 0, 0, 0, KEY_NONE, 0, 0, 0, 0, INIT_REPDEL, INIT_REPPER  ; to REPPER
        dw STRMS                    ; streams -3..3 -> K, S, R, K, K, S, P (offsets into CHANS + 1)
        db STREAMS_INIT_SIZE, 1, 0, 6, 0, 11, 0, 1, 0, 1, 0, 6, 0, 16, 0
        dw CHARS
        db 5, LOW FONT_CHARS, HIGH FONT_CHARS, INIT_RASP, 0, REPORT_OK   ; CHARS RASP PIP ERR_NR
        dw NSPPC
        db 1, 0xFF                  ; no jump pending
        dw BORDCR
        db 1, INIT_BORDCR
        dw VARS                     ; VARS, DEST, CHANS, CURCHL, PROG, NXTLIN, DATADD, E_LINE,
        db 22                       ; K_CUR, CH_ADD, X_PTR
        dw PROG_START, 0, CHANS_AREA, CHANS_AREA, PROG_START, PROG_START, PROG_START - 1
        dw EMPTY_E_LINE, EMPTY_E_LINE, EMPTY_E_LINE, 0
        dw WORKSP                   ; WORKSP, STKBOT, STKEND
        db 6
        dw EMPTY_WORKSP, EMPTY_WORKSP, EMPTY_WORKSP
        dw MEM                      ; MEM, FLAGS2, DF_SZ
        db 4, LOW MEMBOT, HIGH MEMBOT, INIT_FLAGS2, INIT_DF_SZ
        dw P_POSN                   ; printer column and buffer position
        db 3, INIT_P_POSN, LOW PRINTER_BUFFER, HIGH PRINTER_BUFFER
        dw ATTR_P                   ; ATTR_P, MASK_P, ATTR_T, MASK_T, P_FLAG
        db 5, INIT_ATTR, 0, INIT_ATTR, 0, 0
        dw 0
