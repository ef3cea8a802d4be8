; =============================================================================================
; title.asm - the title screen with our credits; a key starts the setup
; =============================================================================================

TITLE_TOKENS_ROW equ 9
TITLE_TOKENS_COL equ (COLUMNS - (2 * TOKENS - 1)) / 2  ; the row of pieces centred, a gap apart

; ---------------------------------------------------------------------------------------------
; title_show - draw the title screen and wait for a key; seed the random numbers from the
; moment it is pressed
; Input: none.  Output: v_phase = PHASE_TITLE; v_seed mixed with the frame count and R.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
title_show:
        xor a
        ld (v_phase), a
        ld a, BORDER_COLOUR
        out (ULA_PORT), a
        ld a, ATTR_TITLE
        call cls
        ld hl, str_title
        call print_string
        ld b, 0                     ; the six pieces in a row
        ld c, TITLE_TOKENS_COL
.tokens:
        push bc
        ld a, b
        add a, CH_TOKEN
        ld b, TITLE_TOKENS_ROW
        call print_at
        call print_char
        pop bc
        inc c
        inc c
        inc b
        ld a, b
        cp TOKENS
        jr c, .tokens               ; Another piece to draw?
        call keys_wait
        ld hl, (v_frames)           ; the human's timing is the randomness
        ld a, r
        xor l
        ld l, a
        ld (v_seed), hl
        ret

str_title:                          ; each line centred: (COLUMNS - length) / 2 to its left
        db PR_AT, 3, 7, PR_ATTR, RED * PAPER + WHITE + BRIGHT, " M O N O P O L Y "
        db PR_AT, 5, 2, PR_ATTR, ATTR_TITLE, "The Computer Edition of the"
        db PR_AT, 6, 5, "classic property game"
        db PR_AT, 12, 0, PR_ATTR, BLACK * PAPER + CYAN + BRIGHT, "A remake for the ZX Spectrum 48K"
        db PR_AT, 13, 0, "of Leisure Genius's 1985 program"
        db PR_AT, 15, 1, PR_ATTR, BLACK * PAPER + WHITE, "Written by the zxmonopoly team"
        db PR_AT, 16, 4, "Code, font and graphics"
        db PR_AT, 17, 9, "our own, 2026"
        db PR_AT, 21, 9, PR_ATTR, BLACK * PAPER + YELLOW + BRIGHT + FLASH, "PRESS ANY KEY"
        db PR_AT, 21, 22, PR_ATTR, ATTR_TITLE, 0
