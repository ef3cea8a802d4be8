; =============================================================================================
; main.asm - the zxmonopoly 48K ROM: its map
;
; A ROM of our own for the 48K Spectrum: nothing in it comes from the Sinclair ROM but the
; facts software depends on (shared/reference/spectrum_facts.md sections 3, 5, 6): the entry
; points below at their standard addresses with their standard register interfaces, the
; system variables, the channel and stream layout, the token codes, the report wording and
; the tape signal.  The code, the messages' layout and the font are ours (docs/rom-api.md).
;
; The fixed addresses are placed with DS padding and checked with ASSERT; the modules fill the
; room between them.  The padding is TRAP_FILL (RST 28h: report C), so a call to a 48K address
; this ROM does not provide stops with a report instead of running into other code.  The
; entries machine code calls with the 48K's register conventions (rom_conventions.md) are each
; a JP at the fixed address to the routine, which keeps the 48K's registers (docs/rom-api.md).
; =============================================================================================

        include "const.asm"
        include "sysvars.asm"

        org 0
        include "restarts.asm"      ; 0x0000-0x0077: RST 0-38h, the interrupt, the NMI
        include "keyboard.asm"      ; key tables; KEY-SCAN at 0x028E, keyboard scan at 0x02BF

        assert $ <= ENTRY_BEEPER
        ds ENTRY_BEEPER - $, TRAP_FILL
; beeper_entry (BEEPER, 0x03B5) - HL = tone, DE = cycles - 1 (beep.asm)
beeper_entry:
        jp beeper

        assert $ <= ENTRY_SA_BYTES
        ds ENTRY_SA_BYTES - $, TRAP_FILL
        include "tape.asm"          ; 0x04C2 SA-BYTES, 0x053F SA/LD-RET, 0x0556 LD-BYTES
        include "memory.asm"
        include "boot.asm"          ; power-on, NEW

        assert $ <= ENTRY_PO_NONE
        ds ENTRY_PO_NONE - $, TRAP_FILL
; po_none (0x096F) - an output routine that prints nothing: "POKE 23739,111" points channel
; S here (the low byte of its output address) to hide LOAD's "Bytes:" messages.
po_none:
        ret

        assert $ <= ENTRY_PRINT_OUT
        ds ENTRY_PRINT_OUT - $, TRAP_FILL
; print_out (PRINT-OUT, 0x09F4) - the output routine of channels K, S and P (screen.asm)
print_out:
        jp pr_out

        include "tokens.asm"

        assert $ <= ENTRY_CLS
        ds ENTRY_CLS - $, TRAP_FILL
; cls_entry (CLS, 0x0D6B) - clear the whole screen (screen.asm: cls)
cls_entry:
        jp cls

        assert $ <= ENTRY_CL_ALL
        ds ENTRY_CL_ALL - $, TRAP_FILL
; cl_all_entry (CL-ALL, 0x0DAF) - clear the whole screen, COORDS to 0 (screen.asm)
cl_all_entry:
        jp cl_all

        assert $ <= ENTRY_CL_SET
        ds ENTRY_CL_SET - $, TRAP_FILL
; cl_set_entry (CL-SET, 0x0DD9) - B = 24 - line, C = 33 - column: the print position (screen.asm)
cl_set_entry:
        jp cl_set

        assert $ <= ENTRY_CL_LINE
        ds ENTRY_CL_LINE - $, TRAP_FILL
; cl_line_entry (CL-LINE, 0x0E44) - B = lines to clear at the bottom (screen.asm)
cl_line_entry:
        jp cl_line

        assert $ <= ENTRY_ADD_CHAR
        ds ENTRY_ADD_CHAR - $, TRAP_FILL
; add_char (ADD-CHAR, 0x0F81) - the output routine of channel R: into the edit line
add_char:
        jp ed_add_char

        assert $ <= ENTRY_KEY_INPUT
        ds ENTRY_KEY_INPUT - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; key_input (KEY-INPUT, 0x10A8) - the input routine of channel K
; Output:  carry set and A = the key if a new one was pressed (FLAGS bit 5, which is reset);
;          carry clear if none
; Corrupts: AF, HL
; ---------------------------------------------------------------------------------------------
key_input:
        and a
        ld hl, FLAGS
        bit FLAG_NEW_KEY, (hl)
        ret z
        res FLAG_NEW_KEY, (hl)
        ld a, (LAST_K)
        scf
        ret

        include "editor.asm"

        assert $ <= ENTRY_CHAN_DATA
        ds ENTRY_CHAN_DATA - $, TRAP_FILL
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
        ds ENTRY_CHAN_OPEN - $, TRAP_FILL
; chan_open_entry (CHAN-OPEN, 0x1601) - A = stream: make its channel current (screen.asm)
chan_open_entry:
        jp chan_open

        include "expr.asm"

        assert $ <= ENTRY_OUT_NUM_1
        ds ENTRY_OUT_NUM_1 - $, TRAP_FILL
; out_num_1_entry (OUT-NUM-1, 0x1A1B) - BC printed with no leading zeros (screen.asm)
out_num_1_entry:
        jp out_num_1

        include "report.asm"
        include "variables.asm"

        assert $ <= ENTRY_BREAK_KEY
        ds ENTRY_BREAK_KEY - $, TRAP_FILL
; break_key_entry (BREAK-KEY, 0x1F54) - carry clear if BREAK is pressed (keyboard.asm)
break_key_entry:
        jp break_key

        assert $ <= ENTRY_PR_STRING
        ds ENTRY_PR_STRING - $, TRAP_FILL
; pr_string_entry (PR-STRING, 0x203C) - print BC characters from DE (screen.asm)
pr_string_entry:
        jp pr_string

        include "beep.asm"

        assert $ <= ENTRY_PIXEL_ADD
        ds ENTRY_PIXEL_ADD - $, TRAP_FILL
; pixel_add_entry (PIXEL-ADD, 0x22AA) - B = y, C = x: HL = the screen byte, A = the bit (plot.asm)
pixel_add_entry:
        jp pixel_add

        assert $ <= ENTRY_PLOT_SUB
        ds ENTRY_PLOT_SUB - $, TRAP_FILL
; plot_sub_entry (PLOT-SUB, 0x22E5) - B = y, C = x: plot a pixel (plot.asm)
plot_sub_entry:
        jp plot_sub

        include "screen.asm"
        include "loadsave.asm"
        include "plot.asm"

        assert $ <= ENTRY_STACK_A
        ds ENTRY_STACK_A - $, TRAP_FILL
; stack_a_entry (STACK-A, 0x2D28) - A onto the calculator stack: stack_a, 3 bytes on
stack_a_entry:
        jr stack_a
        ds ENTRY_STACK_BC - $, TRAP_FILL
; stack_bc_entry (STACK-BC, 0x2D2B) - BC onto the calculator stack (calcstack.asm)
stack_bc_entry:
        jp stack_bc
; ---------------------------------------------------------------------------------------------
; stack_a - A onto the calculator stack, as a number 0-255
; Input:   A.  Output, Corrupts: as stack_bc (calcstack.asm)
; ---------------------------------------------------------------------------------------------
stack_a:
        ld c, a
        ld b, 0
        jp stack_bc

        ds ENTRY_FP_TO_BC - $, TRAP_FILL
; fp_to_bc_missing (FP-TO-BC, 0x2DA2) - not in this ROM: the trap, stated (report C)
fp_to_bc_missing:
        db TRAP_FILL

        ds ENTRY_PRINT_FP - $, TRAP_FILL
; print_fp_entry (PRINT-FP, 0x2DE3) - print and drop the top of the calculator stack
print_fp_entry:
        jp print_fp

        include "calcstack.asm"
        include "basic.asm"

        assert $ <= FONT
        ds FONT - $, TRAP_FILL
        include "font.asm"
        assert $ == ROM_SIZE
