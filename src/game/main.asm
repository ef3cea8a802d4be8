; =============================================================================================
; main.asm - Waddingtons Monopoly for the ZX Spectrum 48K: entry point and the module list
;
; Loaded by the tape's BASIC loader to GAME_ORIGIN and entered at `start`.  From there the
; program owns the machine: its own stack, its own IM 2 interrupt, keyboard, printing, font
; and sound.  It calls no ROM routine, so it runs the same under any 48K ROM.
;
; Memory: code and read-only data from GAME_ORIGIN up to v_state; then all that the program
; writes, the state block (vars.asm) and the working variables (scratch.asm), up to
; `program_end` (asserted below STACK_LIMIT); above it the close-up's picture drawn off the
; screen (CU_PICTURE, below); the stack grows down from STACK_TOP; the IM 2 vector table fills
; IM2_TABLE..+256.
; =============================================================================================

        include "const.asm"

        org GAME_ORIGIN

; ---------------------------------------------------------------------------------------------
; start - the entry point: take over the machine and run the game for ever
; Input: none (entered from the loader's RANDOMIZE USR).  Output: never returns.  Corrupts: all.
; ---------------------------------------------------------------------------------------------
start:
        di
        ld sp, STACK_TOP
        call interrupt_install
        ld hl, font - 256           ; CHARS convention: the address of character 0's glyph
        ld (SYS_CHARS), hl
        call state_clear
        ei
.again:
        call title_show             ; title screen, then a key
        call setup_run              ; players, short game, options, who goes first
        call game_run               ; the game, until it ends
        call endgame_run            ; valuation and the winner
        jr .again

; ---------------------------------------------------------------------------------------------
; state_clear - clear the state block (v_state .. v_state_end), keeping the frame count
; Input: none.  Output: the block zeroed, v_rent_payer = NO_PLAYER, v_last_card = NO_CARD.
; Corrupts: AF, BC, HL.
; ---------------------------------------------------------------------------------------------
state_clear:
        ld hl, v_state
        ld bc, V_STATE_SIZE
.clear: ld (hl), 0
        inc hl
        dec bc
        ld a, b
        or c
        jr nz, .clear               ; More of the block to clear?
        ld a, NO_PLAYER
        ld (v_rent_payer), a
        ld (v_rent_owner), a
        assert NO_CARD == NO_PLAYER
        ld (v_last_card), a
        ret

        include "interrupt.asm"
        include "screen.asm"
        include "keys.asm"
        include "pause.asm"
        include "sound.asm"
        include "rng.asm"
        include "msg.asm"
        include "ask.asm"
        include "refuse.asm"
        include "player.asm"
        include "events.asm"        ; (early: its EVENT_CAUSE macro is used from here on)
        include "title.asm"
        include "setup.asm"
        include "graphics.asm"
        include "board.asm"
        include "closeup.asm"
        include "perspective.asm"
        include "cursor.asm"
        include "game.asm"
        include "turn.asm"
        include "move.asm"
        include "land.asm"
        include "property.asm"
        include "bank.asm"
        include "mortgage.asm"
        include "houses.asm"
        include "trade.asm"
        include "rent.asm"
        include "cards.asm"
        include "jail.asm"
        include "auction.asm"
        include "ai.asm"
        include "worth.asm"
        include "deed.asm"
        include "owners.asm"
        include "endgame.asm"
        include "tables.asm"
; The close-up's band in the status row's colours (closeup_colours): a line along its top, then
; seven blank lines - this byte and the first seven of the font's space, which is all blank
cu_band_top:    db 0xFF
        include "../../roms/font.asm"
        assert font == cu_band_top + 1
        include "vars.asm"          ; the state block: the rules' state, the harness contract
        include "scratch.asm"       ; every other byte the program writes (last: see its header)

program_end:
        assert program_end <= STACK_LIMIT

; The close-up drawn off the screen (closeup.asm): above the program, never loaded from the
; tape.  Its pages are the display file's for the third of the close-up's rows (a pixel line a
; page, GLYPH_SIZE of them: offset (row & 7) * COLUMNS + column), then one for the attributes
; (the same offsets).  The close-up uses the offsets of its own rows, 0 .. CU_MSG_OFFSET - 1
; of each page, written only through scr_cell_addr and scr_attr_addr while scr_offscreen is
; set; the rest of each page, the message lines' offsets, keeps the message lines under a
; refusal (refuse.asm: REFUSE_PIXELS, REFUSE_ATTRS), so the two share the nine pages.
CU_PICTURE      equ (program_end + 0xFF) & 0xFF00
CU_PICTURE_ATTRS equ CU_PICTURE + GLYPH_SIZE * 256
CU_PICTURE_END  equ CU_PICTURE_ATTRS + 256
CU_MSG_OFFSET   equ (MSG_TOP & (HALF_ROWS - 1)) * COLUMNS   ; the message lines in a page
        assert CU_PICTURE_END <= STACK_LIMIT
        assert (CLOSEUP_TOP & ~(HALF_ROWS - 1)) == (MSG_TOP & ~(HALF_ROWS - 1)) ; one third
        assert (CLOSEUP_TOP & (HALF_ROWS - 1)) + CLOSEUP_HEIGHT <= (MSG_TOP & (HALF_ROWS - 1))
        assert CU_MSG_OFFSET + MSG_HEIGHT * COLUMNS <= 256

        end start
