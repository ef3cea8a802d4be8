; =============================================================================================
; loadsave.asm - the LOAD, VERIFY and SAVE statements
;
;   LOAD "name" | LOAD "" [CODE [start[,length]] | SCREEN$]     (VERIFY the same)
;   SAVE "name" [LINE n | CODE start,length | SCREEN$]
;
; LOAD reads headers (flag 0x00, 17 bytes) until one of the right type and name comes, showing
; each as "Program: name" / "Bytes: name" on the upper screen, then loads its data block
; (flag 0xFF).  A program replaces the one in memory (VARS = PROG + the header's second
; parameter) and runs from its LINE if it was saved with one (spectrum_facts 6.4 - 6.6).
; The header and the statement's requests are kept in v_header and v_ld_* (MEMBOT).
; =============================================================================================

FLAG_DATA_FIRST equ 0x80            ; flags from here up are data blocks (shorter tone)
CODE_PARAM2     equ 0x8000          ; a CODE header's second parameter, by convention
NO_AUTORUN      equ 0x8000          ; a program header's LINE when there is none
SAVE_GAP_FRAMES equ 50              ; about a second between a header and its data
SCREEN_START    equ SCREEN

; ---------------------------------------------------------------------------------------------
; st_load / st_verify - LOAD and VERIFY
; ---------------------------------------------------------------------------------------------
st_verify:
        ld a, 1 << LDO_VERIFY
        jr load_verify
st_load:
        xor a
load_verify:
        ld (v_ld_opts), a
        rst ENTRY_GET_CHAR
        cp CH_QUOTE
        jp nz, stmt_nonsense
        call ev_string              ; HL = the name, BC = its length
        ld (v_ld_name), hl
        ld a, b
        or a
        jp nz, load_bad_name
        ld a, c
        cp NAME_SIZE + 1
        jp nc, load_bad_name
        ld (v_ld_namelen), a
        ld a, TYPE_PROGRAM
        ld (v_ld_type), a
        call at_end
        jr z, load_go
        ld hl, v_ld_type
        ld (hl), TYPE_CODE
        cp TK_SCREEN_S
        jr z, .screen
        cp TK_CODE
        jp nz, stmt_nonsense
        rst ENTRY_NEXT_CHAR         ; CODE [start [,length]]
        call at_end
        jr z, load_go
        call ev_u16
        ld (v_ld_start), bc
        ld hl, v_ld_opts
        set LDO_START, (hl)
        rst ENTRY_GET_CHAR
        cp ","
        jr nz, load_go
        rst ENTRY_NEXT_CHAR
        call ev_u16
        ld (v_ld_length), bc
        ld hl, v_ld_opts
        set LDO_LENGTH, (hl)
        jr load_go
.screen:                            ; SCREEN$: CODE 16384,6912
        rst ENTRY_NEXT_CHAR
        ld hl, SCREEN_START
        ld (v_ld_start), hl
        ld hl, SCREEN_CODE_LENGTH
        ld (v_ld_length), hl
        ld hl, v_ld_opts
        ld a, (1 << LDO_START) | (1 << LDO_LENGTH)
        or (hl)
        ld (hl), a
        ; continues into load_go

; load_go - find the header, then the data
load_go:
        call at_end
        jp nz, stmt_nonsense
.header:
        ld ix, v_header
        ld de, HEADER_SIZE
        ld a, FLAG_HEADER
        scf
        call ENTRY_LD_BYTES
        jr nc, .header              ; not a header, or a bad one: the next
        call load_show_header
        ld a, (v_ld_type)
        ld hl, v_header + HDR_TYPE
        cp (hl)
        jr nz, .header
        call load_name_matches
        jr nz, .header
        ld a, (v_ld_type)
        cp TYPE_PROGRAM
        jr z, load_program
        ; continues into load_code

; load_code - the data of a CODE file: to the start asked for, or the header's
load_code:
        ld hl, v_ld_opts
        ld de, (v_header + HDR_LENGTH)
        bit LDO_LENGTH, (hl)
        jr z, .start
        push hl                     ; a length was asked for: the block may not be longer
        ld hl, (v_ld_length)
        and a
        sbc hl, de
        pop hl
        jr c, load_error
.start: ld ix, (v_header + HDR_PARAM1)
        bit LDO_START, (hl)
        jr z, .data
        ld ix, (v_ld_start)
.data:  call load_data
        ret c
        ; continues into load_error

load_error:
        raise REPORT_TAPE
load_bad_name:
        raise REPORT_FILE_NAME

; load_data - LD-BYTES for the data block: IX, DE as given; LOAD or VERIFY as the statement
; Output: carry set on success
load_data:
        ld a, (v_ld_opts)
        and 1 << LDO_VERIFY         ; (clears carry: VERIFY)
        jr nz, .go
        scf                         ; LOAD
.go:    ld a, FLAG_DATA
        jp ENTRY_LD_BYTES

; load_program - the data of a program: it replaces the program and variables in memory
load_program:
        ld a, (v_ld_opts)
        bit LDO_VERIFY, a
        jr z, .replace
        ld ix, (PROG)               ; VERIFY: against the program as it is
        ld de, (v_header + HDR_LENGTH)
        call load_data
        jr nc, load_error
        raise REPORT_OK
.replace:
        ld hl, (E_LINE)             ; the old program and variables go, but for the 0x80 at
        ld de, (PROG)               ; their end (so that E_LINE stays above PROG and moves
        scf                         ; with the room made there)
        sbc hl, de
        ld b, h
        ld c, l
        ex de, hl
        ld a, b
        or c
        call nz, mem_reclaim
        ld bc, (v_header + HDR_LENGTH)
        ld a, b
        or c
        jr z, load_error            ; (a program block is never empty)
        call mem_make_room          ; room for the new ones at PROG
        push hl
        add hl, bc
        ld bc, 1                    ; the old 0x80 now follows the room: the new data has its own
        call mem_reclaim
        pop ix
        ld de, (v_header + HDR_LENGTH)
        ld (VARS), ix               ; (until the load is done: an empty program)
        call load_data
        jr nc, .failed
        ld hl, (PROG)
        ld de, (v_header + HDR_PARAM2)
        add hl, de
        ld (VARS), hl
        ld hl, (v_header + HDR_PARAM1)  ; LINE n: run it from there
        ld a, h
        and HIGH (0x10000 - AUTORUN_LIMIT)
        jr nz, .no_run
        ld b, h
        ld c, l
        jp go_to
.no_run:
        raise REPORT_OK
.failed:                            ; what came is no program: leave an empty one
        ld hl, (PROG)
        ld (hl), VARS_END
        inc hl
        ld bc, (v_header + HDR_LENGTH)
        dec bc
        ld a, b
        or c
        call nz, mem_reclaim
        jp load_error

; ---------------------------------------------------------------------------------------------
; load_show_header - "Program: name" etc. on the upper screen
; Corrupts: AF, BC, DE, HL
; ---------------------------------------------------------------------------------------------
load_show_header:
        ld a, STREAM_S
        call chan_open
        ld a, (v_header + HDR_TYPE)
        cp TYPE_CODE + 1
        jr c, .known
        ld a, TYPE_CODE             ; (another type: shown as bytes)
.known: ld hl, msg_file_types
        call str_nth
        ex de, hl
        call pr_message
        ld de, v_header + HDR_NAME
        ld b, NAME_SIZE
.name:  ld a, (de)
        inc de
        cp CH_SPACE
        jr nc, .show
        ld a, "?"                   ; a control code in a name: not obeyed
.show:  rst ENTRY_PRINT_A
        djnz .name
        ld a, CC_ENTER
        rst ENTRY_PRINT_A
        ret

msg_file_types:
        dz "Program: "
        dz "Number array: "
        dz "Character array: "
        dz "Bytes: "

; ---------------------------------------------------------------------------------------------
; load_name_matches - Z if the header's name is the one asked for (any name for "")
; Corrupts: AF, B, DE, HL
; ---------------------------------------------------------------------------------------------
load_name_matches:
        ld a, (v_ld_namelen)
        or a
        ret z
        ld b, a
        ld hl, (v_ld_name)
        ld de, v_header + HDR_NAME
.same:  ld a, (de)
        cp (hl)
        ret nz
        inc hl
        inc de
        djnz .same
        ld a, (v_ld_namelen)        ; the rest of the header's name must be spaces
        sub NAME_SIZE
        ret z
        neg
        ld b, a
.space: ld a, (de)
        cp CH_SPACE
        ret nz
        inc de
        djnz .space
        ret

; ---------------------------------------------------------------------------------------------
; st_save - SAVE "name" [LINE n | CODE start,length | SCREEN$]
; ---------------------------------------------------------------------------------------------
st_save:
        rst ENTRY_GET_CHAR
        cp CH_QUOTE
        jp nz, stmt_nonsense
        call ev_string              ; a name of 1 - 10 characters
        ld a, b
        or a
        jp nz, load_bad_name
        ld a, c
        or a
        jp z, load_bad_name
        cp NAME_SIZE + 1
        jp nc, load_bad_name
        push hl
        ld hl, v_header + HDR_NAME  ; padded with spaces
        ld b, NAME_SIZE
.pad:   ld (hl), CH_SPACE
        inc hl
        djnz .pad
        pop hl
        ld de, v_header + HDR_NAME
        ldir
        call at_end
        ld bc, NO_AUTORUN
        jr z, .program
        cp TK_LINE
        jr z, .line
        cp TK_SCREEN_S
        jr z, .screen
        cp TK_CODE
        jp nz, stmt_nonsense
        rst ENTRY_NEXT_CHAR         ; CODE start,length
        call ev_u16
        push bc
        call expect_comma
        call ev_u16
        pop hl
.code:  ld (v_ld_start), hl         ; HL = start, BC = length
        ld (v_header + HDR_PARAM1), hl
        ld (v_header + HDR_LENGTH), bc
        ld hl, CODE_PARAM2
        ld (v_header + HDR_PARAM2), hl
        ld a, TYPE_CODE
        jr .save
.screen:
        rst ENTRY_NEXT_CHAR
        ld hl, SCREEN_START
        ld bc, SCREEN_CODE_LENGTH
        jr .code
.line:  rst ENTRY_NEXT_CHAR
        call ev_u16
.program:                           ; BC = the LINE to run from (0x8000: none)
        ld (v_header + HDR_PARAM1), bc
        ld de, (PROG)               ; the data: the program and its variables
        ld (v_ld_start), de
        ld hl, (E_LINE)
        and a
        sbc hl, de
        ld (v_header + HDR_LENGTH), hl
        ld hl, (VARS)
        and a
        sbc hl, de
        ld (v_header + HDR_PARAM2), hl
        ld a, TYPE_PROGRAM
.save:  ld (v_header + HDR_TYPE), a
        call at_end
        jp nz, stmt_nonsense
        call save_prompt
        ld ix, v_header
        ld de, HEADER_SIZE
        ld a, FLAG_HEADER
        call ENTRY_SA_BYTES
        ld b, SAVE_GAP_FRAMES
.gap:   ei
        halt
        djnz .gap
        ld ix, (v_ld_start)
        ld de, (v_header + HDR_LENGTH)
        ld a, FLAG_DATA
        jp ENTRY_SA_BYTES

; save_prompt - "Start tape, then press any key." in the lower screen until a key comes
; Corrupts: AF, BC, DE, HL
save_prompt:
        call cls_lower
        ld a, STREAM_K
        call chan_open
        ld de, msg_start_tape
        call pr_message
        ld hl, FLAGS
        res FLAG_NEW_KEY, (hl)
.wait:  ei
        halt
        bit FLAG_NEW_KEY, (hl)
        jr z, .wait
        res FLAG_NEW_KEY, (hl)
        jp cls_lower

msg_start_tape:
        dz "Start tape, then press any key."
