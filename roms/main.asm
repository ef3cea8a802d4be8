; =============================================================================================
; main.asm - the zxmonopoly 48K ROM: its map
;
; A ROM of our own for the 48K Spectrum: nothing in it comes from the Sinclair ROM but the
; facts software depends on (shared/reference/spectrum_facts.md sections 3, 5, 6): the entry
; points below at their standard addresses with their standard register interfaces, the
; system variables, the channel and stream layout, the token codes, the report wording and
; the tape signal.  The code, the messages' layout and the font are ours (docs/rom-api.md).
;
; The fixed addresses are placed with DS padding (0xFF, as an erased EPROM) and checked with
; ASSERT; the modules fill the room between them.
; =============================================================================================

        include "const.asm"
        include "sysvars.asm"

        org 0
        include "restarts.asm"      ; 0x0000-0x0077: RST 0-38h, the interrupt, the NMI
        include "keyboard.asm"      ; key tables; keyboard scan at 0x02BF
        include "boot.asm"          ; power-on, NEW

        assert $ <= ENTRY_SA_BYTES
        ds ENTRY_SA_BYTES-$, 0xFF
        include "tape.asm"          ; 0x04C2 SA-BYTES, 0x053F SA/LD-RET, 0x0556 LD-BYTES
        include "memory.asm"

        assert $ <= ENTRY_PO_NONE
        ds ENTRY_PO_NONE-$, 0xFF
; po_none (0x096F) - an output routine that prints nothing: "POKE 23739,111" points channel
; S here (the low byte of its output address) to hide LOAD's "Bytes:" messages.
po_none:
        ret

        assert $ <= ENTRY_PRINT_OUT
        ds ENTRY_PRINT_OUT-$, 0xFF
; print_out (PRINT-OUT, 0x09F4) - the output routine of channels K, S and P (screen.asm)
print_out:
        jp pr_out

        include "tokens.asm"

        assert $ <= ENTRY_CLS
        ds ENTRY_CLS-$, 0xFF
; cls_entry (CLS, 0x0D6B) - clear the whole screen (screen.asm: cls)
cls_entry:
        jp cls

        assert $ <= ENTRY_ADD_CHAR
        ds ENTRY_ADD_CHAR-$, 0xFF
; add_char (ADD-CHAR, 0x0F81) - the output routine of channel R: into the edit line
add_char:
        jp ed_add_char

        assert $ <= ENTRY_KEY_INPUT
        ds ENTRY_KEY_INPUT-$, 0xFF
; ---------------------------------------------------------------------------------------------
; key_input (KEY-INPUT, 0x10A8) - the input routine of channel K
; Output:  carry set and A = the key if a new one was pressed (FLAGS bit 5, which is reset);
;          carry clear if none
; Corrupts: AF, HL
; ---------------------------------------------------------------------------------------------
key_input:
        and a
        ld hl,FLAGS
        bit FLAG_NEW_KEY,(hl)
        ret z
        res FLAG_NEW_KEY,(hl)
        ld a,(LAST_K)
        scf
        ret

        include "editor.asm"

        assert $ <= ENTRY_CHAN_DATA
        ds ENTRY_CHAN_DATA-$, 0xFF
; ---------------------------------------------------------------------------------------------
; chan_data (0x15AF) - the channel table copied to CHANS at power-on: for K, S, R and P the
; output routine, the input routine and the letter; 0x80 ends it (spectrum_facts 5.3)
; ---------------------------------------------------------------------------------------------
chan_data:
        dw ENTRY_PRINT_OUT, ENTRY_KEY_INPUT
        db "K"
        dw ENTRY_PRINT_OUT, ENTRY_REPORT_J
        db "S"
        dw ENTRY_ADD_CHAR, ENTRY_REPORT_J
        db "R"
        dw ENTRY_PRINT_OUT, ENTRY_REPORT_J
        db "P"
        db VARS_END
        assert $ - chan_data == CHANNEL_DATA_SIZE
        assert $ == ENTRY_REPORT_J
; report_j (0x15C4) - the input routine of S, R and P: they have none (report J)
report_j:
        raise REPORT_DEVICE

        assert $ <= ENTRY_CHAN_OPEN
        ds ENTRY_CHAN_OPEN-$, 0xFF
; chan_open_entry (CHAN-OPEN, 0x1601) - A = stream: make its channel current (screen.asm)
chan_open_entry:
        jp chan_open

        include "basic.asm"
        include "expr.asm"

        assert $ <= ENTRY_BREAK_KEY
        ds ENTRY_BREAK_KEY-$, 0xFF
; break_key_entry (BREAK-KEY, 0x1F54) - carry clear if BREAK is pressed (keyboard.asm)
break_key_entry:
        jp break_key

        assert $ <= ENTRY_PR_STRING
        ds ENTRY_PR_STRING-$, 0xFF
; pr_string_entry (PR-STRING, 0x203C) - print BC characters from DE (screen.asm)
pr_string_entry:
        jp pr_string

        include "screen.asm"
        include "loadsave.asm"
        include "report.asm"
        include "variables.asm"
        include "beep.asm"

        assert $ <= FONT
        ds FONT-$, 0xFF
        include "font.asm"
        assert $ == ROM_SIZE
