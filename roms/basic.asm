; =============================================================================================
; basic.asm - the main loop, lines into the program, and running BASIC
;
; ENTER with a line number (1-9999) stores the line in the program (replacing a line with the
; same number; a number alone deletes it); without one the line runs at once.  Either way its
; numbers first get their hidden 5-byte form (spectrum_facts 6.1, 6.2).
;
; Running: CH_ADD walks the text; PPC/SUBPPC say which line and statement (PPC = PPC_DIRECT
; for the edit line, reported as line 0).  A statement is a keyword token (DEF FN .. COPY)
; and its handler; after it comes ":" or the line's ENTER.  GO TO and friends set NEWPPC and
; NSPPC (bit 7 clear = a jump is due), which the loop honours after the statement.
; The machine stack at statement level holds only the error return at ERR_SP, so CLEAR and
; RUN can set up a new stack and carry on.
;
; Supported: LOAD / VERIFY / SAVE (loadsave.asm), LET / FOR / NEXT (variables.asm), CLEAR,
; CONTINUE,
; RANDOMIZE, RUN, GO TO, GO SUB, RETURN, IF ... THEN, REM, NEW, CLS, BORDER, PRINT, POKE,
; STOP, LIST, PAUSE, OUT, BEEP (beep.asm), INK, PAPER, FLASH, BRIGHT, INVERSE, OVER;
; every other keyword gives C Nonsense in BASIC.
; =============================================================================================

LINE_NUMBER_MASK equ 0xC0           ; a line-number byte with these bits marks the variables
CLEAR_MARGIN    equ 0x80            ; CLEAR n: at least this much between STKEND and n

; ---------------------------------------------------------------------------------------------
; main_loop - edit a line, then store or run it; for ever
; The stack is reset to the error return at ERR_SP each time round.
; ---------------------------------------------------------------------------------------------
main_loop:
        ld hl, (ERR_SP)
        ld sp, hl
        ld hl, FLAGS
        res FLAG_RUNNING, (hl)
        call ed_edit_line
        ; continues into line_enter

; ---------------------------------------------------------------------------------------------
; line_enter - ENTER was pressed: store the edit line in the program, or run it
; Output:  back to main_loop after storing (the edit line emptied); running ends in a report.
;          It is jumped to, so that a running line finds only the error return on the stack.
; ---------------------------------------------------------------------------------------------
line_enter:
        ld hl, PPC_DIRECT           ; (a report from here on is about the line typed: 0:1)
        ld (PPC), hl
        ld a, 1
        ld (SUBPPC), a
        ld hl, (E_LINE)
        call skip_spaces
        cp CC_ENTER
        jr z, main_loop             ; an empty line: nothing happens
        sub "0"
        cp 10
        jr nc, .run
        call num_parse_decimal      ; the line number: 1 - 9999
        ld a, d
        or e
        jr nz, .bad_number
        ld a, b
        or c
        jr z, .bad_number
        push hl
        ld hl, MAX_LINE
        and a
        sbc hl, bc
        pop hl
        jr c, .bad_number
        ld d, b
        ld e, c                     ; DE = line number
        call skip_spaces
        push de
        push hl
        call line_hide_numbers
        pop hl
        pop de
        call prog_store_line
        call ed_clear_line
        jr main_loop
.bad_number:
        jp stmt_nonsense
.run:   push hl
        call line_hide_numbers
        call cls_lower
        pop hl
        ld (CH_ADD), hl
        ld a, REPORT_OK
        ld (ERR_NR), a
        jp run_first

; skip_spaces - HL forward past spaces: A = the first other character.
skip_spaces:
        ld a, (hl)
        cp CH_SPACE
        ret nz
        inc hl
        jr skip_spaces

; ---------------------------------------------------------------------------------------------
; line_hide_numbers - give every number in the edit line its hidden 5-byte form
; A number starts with a digit that does not follow a letter or digit (a1 is a name) outside
; strings and REM text; 0x0E and its value go in after its digits.
; Input:   HL = where to start (after any line number)
; Corrupts: AF, BC, DE, HL.  Reports C (a fraction), 6 (too big), 4 (memory).
; ---------------------------------------------------------------------------------------------
LHN_QUOTE       equ 0               ; state bits: in a string
LHN_REM         equ 1               ; after REM
LHN_NAME        equ 2               ; the last character was part of a name

line_hide_numbers:
        ld c, 0
.next:  ld a, (hl)
        cp CC_ENTER
        ret z
        cp CC_NUMBER
        jr nz, .plain
        ld de, NUMBER_SIZE + 1      ; (one made already)
        add hl, de
        res LHN_NAME, c
        jr .next
.plain: inc hl
        bit LHN_REM, c
        jr nz, .next
        bit LHN_QUOTE, c
        jr z, .outside
        cp CH_QUOTE
        jr nz, .next
        res LHN_QUOTE, c
        jr .next
.outside:
        cp CH_QUOTE
        jr nz, .not_quote
        set LHN_QUOTE, c
        jr .not_name
.not_quote:
        cp TK_REM
        jr nz, .not_rem
        set LHN_REM, c
        jr .next
.not_rem:
        cp "."
        jr z, .number
        cp "0"
        jr c, .not_name
        cp "9" + 1
        jr c, .digit
        cp "$"
        jr z, .name
        cp "A"
        jr c, .not_name
        cp "Z" + 1
        jr c, .name
        cp "a"
        jr c, .not_name
        cp "z" + 1
        jr c, .name
.not_name:
        res LHN_NAME, c
        jr .next
.name:  set LHN_NAME, c
        jr .next
.digit: bit LHN_NAME, c
        jr nz, .next                ; a digit in a name
.number:
        dec hl                      ; back to its first character
        push bc
        call num_parse_literal      ; DE:BC (a fraction dropped), HL after the digits
        push de
        push bc
        ld bc, NUMBER_SIZE + 1
        call mem_make_room
        ld (hl), CC_NUMBER
        inc hl
        pop bc
        pop de
        call num_store5
        pop bc
        res LHN_NAME, c
        jr .next

; ---------------------------------------------------------------------------------------------
; prog_store_line - put a line into the program (or delete it)
; Input:   DE = line number, HL = its text in the edit line (up to the ENTER at WORKSP - 2)
; Output:  E_PPC = the number
; Corrupts: AF, BC, DE, HL.  Report 4 if memory is short.
; ---------------------------------------------------------------------------------------------
prog_store_line:
        ld bc, (E_LINE)             ; the text's place in the edit line (the edit line moves
        and a                       ; when the program changes)
        sbc hl, bc
        ld (v_scratch), hl
        ld (E_PPC), de
        push de
        call prog_find_line
        jr nz, .no_old
        call prog_line_size         ; a line with this number goes first
        call mem_reclaim
.no_old:
        push hl                     ; where the line goes
        ld hl, (WORKSP)             ; the text's length, with its ENTER:
        dec hl                      ; (WORKSP - 1) - (E_LINE + offset)
        ld bc, (E_LINE)
        and a
        sbc hl, bc
        ld bc, (v_scratch)
        and a
        sbc hl, bc
        ld b, h
        ld c, l
        pop hl
        pop de
        ld a, b                     ; only ENTER: the line was just deleted
        or a
        jr nz, .store
        ld a, c
        dec a
        ret z
.store: push bc                     ; text length
        push de                     ; number
        inc bc
        inc bc
        inc bc
        inc bc                      ; BC = size of the whole line
        ld de, (VARS)               ; a line going at the end moves VARS too
        and a
        sbc hl, de
        add hl, de
        push af
        call mem_make_room
        pop af
        jr nz, .header
        push hl
        ld hl, (VARS)
        add hl, bc
        ld (VARS), hl
        pop hl
.header:
        pop de
        ld (hl), d                  ; the number, high byte first
        inc hl
        ld (hl), e
        inc hl
        pop bc
        ld (hl), c                  ; the length, low byte first
        inc hl
        ld (hl), b
        inc hl
        ex de, hl
        ld hl, (E_LINE)
        push bc
        ld bc, (v_scratch)
        add hl, bc
        pop bc
        ldir
        ret

; ---------------------------------------------------------------------------------------------
; prog_find_line - where line DE is, or would go
; Input:   DE = line number
; Output:  HL = the line with that number (Z), or the first one after it, or VARS (NZ)
; Corrupts: AF, BC
; ---------------------------------------------------------------------------------------------
prog_find_line:
        ld hl, (PROG)
.next:  ld bc, (VARS)
        and a
        sbc hl, bc
        add hl, bc
        jr nc, .end                 ; at the variables: not there
        ld a, (hl)
        cp d
        jr c, .skip
        ret nz                      ; a greater number
        inc hl
        ld a, (hl)
        dec hl
        cp e
        ret nc                      ; Z: this one; NZ: a greater one
.skip:  call prog_next_line
        jr .next
.end:   or 1                        ; NZ
        ret

; prog_next_line - HL from a line to the next one.  Corrupts BC.
prog_next_line:
        call prog_line_size
        add hl, bc
        ret

; prog_line_size - BC = the size of the line at HL, its 4 header bytes included.  HL kept.
prog_line_size:
        push hl
        inc hl
        inc hl
        ld c, (hl)
        inc hl
        ld b, (hl)
        inc bc
        inc bc
        inc bc
        inc bc
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; run_line - run the program from the line at HL (VARS: the end)
; run_first / run_stmt - run from the statement at CH_ADD
; run_next - where every statement handler returns
; None of these return: a program ends in a report.
; ---------------------------------------------------------------------------------------------
run_line:
        call run_line_setup
        ; continues into run_first
run_first:
        ld a, 1
        ld (SUBPPC), a
        ld hl, FLAGS
        set FLAG_RUNNING, (hl)
run_stmt:
        call break_key
        jr c, .go
        raise REPORT_BREAK_PROGRAM
.go:    rst ENTRY_GET_CHAR
        sub TK_FIRST_STATEMENT
        jr c, stmt_nonsense
        ld l, a
        ld h, 0
        add hl, hl
        ld de, stmt_table
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        push de
        rst ENTRY_NEXT_CHAR         ; past the keyword
        pop hl
        call jp_hl
run_next:
        ld a, (NSPPC)
        bit 7, a
        jr z, run_jump
        rst ENTRY_GET_CHAR
        cp ":"
        jr nz, .not_colon
        rst ENTRY_NEXT_CHAR         ; the next statement
        ld hl, SUBPPC
        inc (hl)
        jr run_stmt
.not_colon:
        cp CC_ENTER
        jr z, run_line_end
stmt_nonsense:
        raise REPORT_NONSENSE

; run_line_end - the line is done: the next one (the edit line ends the run)
run_line_end:
        ld hl, (PPC)
        ld de, PPC_DIRECT
        and a
        sbc hl, de
        jr z, run_end
        ld hl, (NXTLIN)
        jr run_line
run_end:
        raise REPORT_OK

; run_jump - to statement NSPPC of line NEWPPC (the first line from it), as GO TO, NEXT,
; RETURN asked; line PPC_DIRECT is the edit line
run_jump:
        ld hl, NSPPC
        ld a, (hl)
        ld (hl), 0xFF
        push af                     ; the statement
        ld hl, (NEWPPC)
        ld de, PPC_DIRECT
        and a
        sbc hl, de
        jr nz, .program
        ld (PPC), de                ; back into the line typed in
        ld hl, (E_LINE)
        ld (CH_ADD), hl
        jr .statement
.program:
        ld de, (NEWPPC)
        call prog_find_line
        call run_line_setup
.statement:
        pop af
        call stmt_skip
        jp c, run_line_end          ; the line has fewer statements: on to the next one
        ld hl, FLAGS
        set FLAG_RUNNING, (hl)
        jp run_stmt

; ---------------------------------------------------------------------------------------------
; run_line_setup - start the program line at HL: PPC, NXTLIN, CH_ADD at its text
; Does not return if HL is past the program (report 0 OK).
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
run_line_setup:
        ld de, (VARS)
        and a
        sbc hl, de
        add hl, de
        jr nc, run_end
        ld a, (hl)
        and LINE_NUMBER_MASK
        jr nz, run_end
        ld d, (hl)
        inc hl
        ld e, (hl)
        inc hl
        ld (PPC), de
        ld c, (hl)
        inc hl
        ld b, (hl)
        inc hl
        ld (CH_ADD), hl
        add hl, bc
        ld (NXTLIN), hl
        ret

; ---------------------------------------------------------------------------------------------
; stmt_skip - from the start of a line (CH_ADD) to its statement A (0 or 1: the first)
; Statements end at ":" or THEN outside strings; REM ends the line.
; Output:  carry clear: CH_ADD there, SUBPPC = A; carry set: the line has fewer
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
stmt_skip:
        or a
        jr nz, .wanted
        inc a
.wanted:
        ld (SUBPPC), a
        ld c, a
        ld b, 1                     ; B = the statement here, E bit 0 = in a string
        ld e, 0
        ld hl, (CH_ADD)
.here:  ld a, b
        cp c
        jr z, .found
.char:  ld a, (hl)
        inc hl
        cp CC_ENTER
        jr z, .short
        cp CC_NUMBER
        jr nz, .not_number
        push bc
        ld bc, NUMBER_SIZE
        add hl, bc
        pop bc
        jr .char
.not_number:
        cp CH_QUOTE
        jr nz, .not_quote
        inc e
        jr .char
.not_quote:
        bit 0, e
        jr nz, .char
        cp TK_REM
        jr z, .short
        cp ":"
        jr z, .next
        cp TK_THEN
        jr nz, .char
.next:  inc b
        jr .here
.found: ld (CH_ADD), hl
        and a
        ret
.short: scf
        ret

; at_end - Z if CH_ADD is at the end of a statement (":" or ENTER).  A = that character.
; Corrupts: HL
at_end:
        rst ENTRY_GET_CHAR
        cp ":"
        ret z
        cp CC_ENTER
        ret

; ---------------------------------------------------------------------------------------------
; stmt_table - statement keywords DEF FN (0xCE) .. COPY (0xFF) to their handlers
; Each handler starts with CH_ADD after its keyword and returns with CH_ADD at the end of the
; statement.
; ---------------------------------------------------------------------------------------------
stmt_table:
        dw stmt_nonsense            ; DEF FN
        dw stmt_nonsense            ; CAT
        dw stmt_nonsense            ; FORMAT
        dw stmt_nonsense            ; MOVE
        dw stmt_nonsense            ; ERASE
        dw stmt_nonsense            ; OPEN #
        dw stmt_nonsense            ; CLOSE #
        dw stmt_nonsense            ; MERGE
        dw st_verify                ; VERIFY
        dw st_beep                  ; BEEP
        dw stmt_nonsense            ; CIRCLE
        dw st_ink                   ; INK
        dw st_paper                 ; PAPER
        dw st_flash                 ; FLASH
        dw st_bright                ; BRIGHT
        dw st_inverse               ; INVERSE
        dw st_over                  ; OVER
        dw st_out                   ; OUT
        dw stmt_nonsense            ; LPRINT
        dw stmt_nonsense            ; LLIST
        dw st_stop                  ; STOP
        dw stmt_nonsense            ; READ
        dw stmt_nonsense            ; DATA
        dw stmt_nonsense            ; RESTORE
        dw boot_new                 ; NEW
        dw st_border                ; BORDER
        dw st_continue              ; CONTINUE
        dw stmt_nonsense            ; DIM
        dw st_rem                   ; REM
        dw st_for                   ; FOR
        dw st_go_to                 ; GO TO
        dw st_go_sub                ; GO SUB
        dw stmt_nonsense            ; INPUT
        dw st_load                  ; LOAD
        dw st_list                  ; LIST
        dw st_let                   ; LET
        dw st_pause                 ; PAUSE
        dw st_next                  ; NEXT
        dw st_poke                  ; POKE
        dw st_print                 ; PRINT
        dw stmt_nonsense            ; PLOT
        dw st_run                   ; RUN
        dw st_save                  ; SAVE
        dw st_randomize             ; RANDOMIZE
        dw st_if                    ; IF
        dw st_cls                   ; CLS
        dw stmt_nonsense            ; DRAW
        dw st_clear                 ; CLEAR
        dw st_return                ; RETURN
        dw stmt_nonsense            ; COPY
        assert ($ - stmt_table) / 2 == 0x100 - TK_FIRST_STATEMENT

; ---------------------------------------------------------------------------------------------
; The statements
; ---------------------------------------------------------------------------------------------

; STOP - report 9
st_stop:
        raise REPORT_STOP

; REM - the rest of the line is ignored
st_rem: pop hl                      ; (no return to run_next: straight to the next line)
        jp run_line_end

; CLS - clear the screen
st_cls: jp cls

; GO TO n
st_go_to:
        call ev_u16
        ; continues into go_to

; go_to - make the program continue at line BC (from its first statement)
go_to:  ld (NEWPPC), bc
        xor a
        ld (NSPPC), a
        ret

; CONTINUE - carry on where the last report stopped a program (OLDPPC, statement OSPPC)
st_continue:
        ld hl, (OLDPPC)
        ld (NEWPPC), hl
        ld a, (OSPPC)
        ld (NSPPC), a
        ret

; IF condition THEN statements - the rest of the line only if the condition is not 0
st_if:  call ev_expr
        ld a, TK_THEN
        call expect_char
        call num_is_zero
        pop hl                      ; (no return to run_next)
        jp z, run_line_end
        ld hl, SUBPPC               ; what follows THEN is the next statement
        inc (hl)
        jp run_stmt

; GO SUB n - GO TO n, keeping where to come back on the GO SUB stack: a line word and a
; statement word (A in its high byte) between the error return (at ERR_SP) and the end
; marker under RAMTOP (its high byte STACK_MARK)
st_go_sub:
        call ev_u16                 ; BC = the line to go to
        pop hl                      ; our return address
        pop de                      ; the error return
        ld a, (SUBPPC)              ; come back to the next statement ...
        inc a
        push af
        push hl
        ld hl, (PPC)                ; ... of this line
        ex (sp), hl
        push de
        ld (ERR_SP), sp
        push hl
        jp go_to

; RETURN - back to where the last GO SUB came from.  Report 7 if there was none.
st_return:
        pop hl                      ; our return address
        pop de                      ; the error return
        pop bc                      ; the line
        ld a, b
        cp STACK_MARK               ; the end marker: nothing to return to
        jr nz, .back
        raise REPORT_RETURN
.back:  pop af                      ; the statement
        push de
        ld (ERR_SP), sp
        push hl
        ld (NEWPPC), bc
        ld (NSPPC), a
        ret

; RUN [n] - CLEAR, then GO TO n (the first line if no n)
st_run: ld bc, 0
        call at_end
        call nz, ev_u16
        call go_to
        ld bc, (RAMTOP)
        jr st_clear.set

; CLEAR [n] - clear the screen, reset the machine stack under a new RAMTOP n
st_clear:
        ld bc, (RAMTOP)
        call at_end
        call nz, ev_u16
.set:   ld hl, (P_RAMT)             ; n may not pass the top of RAM ...
        and a
        sbc hl, bc
        jr c, .bad
        ld hl, (STKEND)             ; ... nor come down to the BASIC areas
        ld de, CLEAR_MARGIN
        add hl, de
        and a
        sbc hl, bc
        jr nc, .bad
        push bc
        call var_clear
        call cls
        pop hl
        ld (RAMTOP), hl
        ld (hl), STACK_MARK         ; the new stack, as at power-on
        dec hl
        ld sp, hl
        dec hl
        dec hl
        ld (ERR_SP), hl
        ld hl, main_report
        push hl
        jp run_next
.bad:   raise REPORT_RAMTOP

; RANDOMIZE [n] - SEED = n, or the frame count if n is 0 or missing
st_randomize:
        ld bc, 0
        call at_end
        call nz, ev_u16
        ld a, b
        or c
        jr nz, .seed
        ld bc, (FRAMES)
.seed:  ld (SEED), bc
        ret

; BORDER n - the border colour (and the lower screen's colours: ink to contrast with it)
st_border:
        call ev_colour
        out (ULA_PORT), a
        rlca
        rlca
        rlca
        bit 5, a                    ; a light border: black ink below; a dark one: white
        jr nz, .light
        or WHITE
.light: ld (BORDCR), a
        ret

; ev_colour - an expression 0-7: A = it.  Report K otherwise.
ev_colour:
        call ev_u16
        ld a, b
        or a
        jr nz, .bad
        ld a, c
        cp 8
        ret c
.bad:   raise REPORT_COLOUR

; POKE address, value
st_poke:
        call ev_u16
        push bc
        call expect_comma
        call ev_expr
        call num_to_byte
        pop hl
        ld (hl), a
        ret

; num_to_byte - DE:BC as a byte for POKE and OUT: 0-255, or -255..-1 (taken as 256 + n)
; Output:  A.  Report B otherwise.
num_to_byte:
        ld a, d
        or e
        jr nz, .negative
        ld a, b
        or a
        ld a, c
        ret z
        jr .bad
.negative:
        ld a, d
        and e
        inc a
        jr nz, .bad                 ; the high word must be 0xFFFF ...
        ld a, b
        inc a
        jr nz, .bad                 ; ... and the low one 0xFF01 up
        ld a, c
        or a
        ret nz
.bad:   raise REPORT_RANGE

; OUT port, value
st_out: call ev_u16
        push bc
        call expect_comma
        call ev_expr
        call num_to_byte
        pop bc
        out (c), a
        ret

; PAUSE n - wait n frames, or until a key is pressed (PAUSE 0: only the key)
st_pause:
        call ev_u16
        ld hl, FLAGS
        res FLAG_NEW_KEY, (hl)
.wait:  ei
        halt
        ld a, (FLAGS)
        bit FLAG_NEW_KEY, a
        jr nz, .key
        ld a, b
        or c
        jr z, .wait                 ; PAUSE 0: for ever
        dec bc
        ld a, b
        or c
        jr nz, .wait
        ret
.key:   ld hl, FLAGS
        res FLAG_NEW_KEY, (hl)
        ret

; INK, PAPER, FLASH, BRIGHT, INVERSE, OVER n - the permanent colours
st_ink: ld a, CC_INK
        jr st_colour
st_paper:
        ld a, CC_PAPER
        jr st_colour
st_flash:
        ld a, CC_FLASH
        jr st_colour
st_bright:
        ld a, CC_BRIGHT
        jr st_colour
st_inverse:
        ld a, CC_INVERSE
        jr st_colour
st_over:
        ld a, CC_OVER
        ; continues into st_colour

; st_colour - A = the control code: set the temporary colour, then make it permanent
st_colour:
        push af
        call ev_u8
        ld c, a
        pop af
        call pr_colour
        ld a, (ATTR_T)              ; permanent = temporary
        ld (ATTR_P), a
        ld a, (MASK_T)
        ld (MASK_P), a
        ld hl, P_FLAG
        ld a, (hl)
        and PF_TEMPS
        ld b, a
        rlca                        ; the temporary bits copied to the permanent ones above them
        or b
        ld (hl), a
        ret

; ---------------------------------------------------------------------------------------------
; PRINT items - strings, numbers, AT y,x, TAB n, colours; separated by ; , or '
; ---------------------------------------------------------------------------------------------
st_print:
        ld a, STREAM_S
        call chan_open
        ld a, 1 << PRS_NEWLINE
        ld (v_pr_state), a
.item:  call at_end
        jr z, .end
        ld hl, v_pr_state
        cp ";"
        jr z, .separator
        cp ","
        jr z, .comma
        cp "'"
        jr z, .newline
        bit PRS_ITEM, (hl)
        jp nz, stmt_nonsense        ; two items need something between them
        ld (hl), (1 << PRS_ITEM) | (1 << PRS_NEWLINE)
        call pr_item
        jr .item
.comma: ld a, CC_COMMA
        rst ENTRY_PRINT_A
        jr .separator
.newline:
        ld a, CC_ENTER
        rst ENTRY_PRINT_A
.separator:
        ld hl, v_pr_state
        ld (hl), 0
        rst ENTRY_NEXT_CHAR
        jr .item
.end:   ld a, (v_pr_state)
        bit PRS_NEWLINE, a
        ld a, CC_ENTER
        call nz, print_a
        jp temps_reset

; pr_item - one PRINT item.  Input: A = its first character.
pr_item:
        cp CH_QUOTE
        jr z, .string
        cp TK_AT
        jr z, .at
        cp TK_TAB
        jr z, .tab
        cp TK_INK
        jr c, .number
        cp TK_OVER + 1
        jr c, .colour
.number:
        call ev_expr
        jp pr_number
.string:
        ld hl, (CH_ADD)
.char:  inc hl
        ld a, (hl)
        cp CC_ENTER
        jp z, stmt_nonsense
        cp CH_QUOTE
        jr nz, .print
        inc hl
        ld a, (hl)
        cp CH_QUOTE                 ; "" prints one quote
        jr nz, .done
.print: rst ENTRY_PRINT_A
        jr .char
.done:  ld (CH_ADD), hl
        ret
.at:    rst ENTRY_NEXT_CHAR
        call ev_u8
        push af
        call expect_comma
        call ev_u8
        ld c, a
        pop af
        ld b, a
        ld a, CC_AT
        rst ENTRY_PRINT_A
        ld a, b
        rst ENTRY_PRINT_A
        ld a, c
        rst ENTRY_PRINT_A
        ret
.tab:   rst ENTRY_NEXT_CHAR
        call ev_u16
        ld a, CC_TAB
        rst ENTRY_PRINT_A
        ld a, c
        rst ENTRY_PRINT_A
        ld a, b
        rst ENTRY_PRINT_A
        ret
.colour:                            ; INK n etc. inside PRINT: for this PRINT only
        sub TK_INK - CC_INK
        push af
        rst ENTRY_NEXT_CHAR
        call ev_u8
        ld c, a
        pop af
        jp pr_colour

; ---------------------------------------------------------------------------------------------
; LIST [n] - the program on the upper screen, from line n
; ---------------------------------------------------------------------------------------------
st_list:
        ld bc, 0
        call at_end
        call nz, ev_u16
        push bc
        ld a, STREAM_S
        call chan_open
        pop de
        call prog_find_line
.line:  ld de, (VARS)
        and a
        sbc hl, de
        add hl, de
        ret nc
        push hl
        call list_line
        pop hl
        call prog_next_line
        jr .line

; list_line - print the program line at HL: its number right-aligned in 4 columns, its text
; (the hidden numbers left out), then ENTER.  Corrupts: AF, BC, DE, HL
list_line:
        ld b, (hl)
        inc hl
        ld c, (hl)
        inc hl
        inc hl
        inc hl
        push hl
        ld de, 1000                 ; a space for each power of ten the number is under
        call .pad
        ld de, 100
        call .pad
        ld de, 10
        call .pad
        ld de, 0
        call pr_unsigned
        ld hl, FLAGS
        res FLAG_NO_SPACE, (hl)     ; (the first keyword gets its space)
        pop hl
.text:  ld a, (hl)
        inc hl
        cp CC_NUMBER
        jr z, .hidden
        push af
        rst ENTRY_PRINT_A           ; (the ENTER too)
        pop af
        cp CC_ENTER
        jr nz, .text
        ret
.hidden:
        ld de, NUMBER_SIZE
        add hl, de
        jr .text
.pad:   ld h, b
        ld l, c
        and a
        sbc hl, de
        ret nc
        ld a, CH_SPACE
        rst ENTRY_PRINT_A
        ret
