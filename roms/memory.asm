; =============================================================================================
; memory.asm - opening and closing gaps in the BASIC areas, and keeping the pointers right
;
; From PROG up, memory holds: the program, its variables (ending 0x80), the edit line (ending
; 0x0D 0x80), the workspace and the (empty) calculator stack up to STKEND; the machine stack
; grows down from RAMTOP towards it.  Inserting or removing bytes moves everything above the
; place up to STKEND, and every system variable that points above the place with it.
;
; The rule for a pointer equal to the place itself: it does NOT move (it keeps pointing at the
; start of the gap).  Callers for whom it should move (appending a line at VARS) move it.
; =============================================================================================

; The system variables that point into the areas that move; 0 ends the list.
mem_pointers:
        dw VARS, NXTLIN, DATADD, E_LINE, K_CUR, CH_ADD, X_PTR, WORKSP, STKBOT, STKEND, DEST
        dw 0

; ---------------------------------------------------------------------------------------------
; mem_check_room - is there room for BC more bytes between STKEND and the machine stack?
; Input:   BC = bytes
; Output:  returns only if there is (else report 4 Out of memory)
; Corrupts: AF, DE, HL
; ---------------------------------------------------------------------------------------------
mem_check_room:
        ld hl, (STKEND)
        add hl, bc
        jr c, .full
        ld de, FREE_MARGIN          ; the stack's own room, for interrupts and calls
        add hl, de
        jr c, .full
        ex de, hl                   ; DE = the lowest the stack may come
        ld hl, 0
        add hl, sp
        sbc hl, de                  ; (carry is clear)
        ret nc
.full:  raise REPORT_MEMORY

; ---------------------------------------------------------------------------------------------
; mem_make_room - open a gap of BC bytes at HL
; Input:   HL = address of the gap (the bytes from here to STKEND move up), BC = size (1 up)
; Output:  HL, BC kept; the gap's bytes are as they were (garbage); pointers above HL moved
; Corrupts: AF, DE.  Report 4 if memory is short.
; ---------------------------------------------------------------------------------------------
mem_make_room:
        push hl
        call mem_check_room
        pop hl
        push hl
        push bc
        ld de, (STKEND)             ; bytes to move: STKEND - HL
        ex de, hl
        and a
        sbc hl, de
        push hl                     ; (count)
        ex de, hl                   ; HL = place
        call mem_pointers_up
        pop hl                      ; count
        ld a, h
        or l
        jr z, .moved                ; nothing above the gap
        pop bc                      ; size
        push bc
        push hl                     ; count
        ld hl, (STKEND)             ; (already moved up) last byte of the new area
        dec hl
        ld d, h
        ld e, l
        and a
        sbc hl, bc                  ; HL = last byte of the old area
        pop bc                      ; count
        lddr
.moved: pop bc
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; mem_reclaim - remove BC bytes at HL
; Input:   HL = first byte to remove, BC = how many (1 up)
; Output:  HL, BC kept; pointers above HL moved down (those inside the removed bytes to HL)
; Corrupts: AF, DE
; ---------------------------------------------------------------------------------------------
mem_reclaim:
        push hl
        push bc
        call mem_pointers_down      ; STKEND becomes the new end
        ld hl, (STKEND)             ; bytes to move: new STKEND - place
        pop bc
        pop de                      ; DE = place
        push de
        push bc
        and a
        sbc hl, de
        jr z, .moved                ; nothing was above the removed bytes
        ex de, hl                   ; HL = place, DE = count
        push hl
        add hl, bc                  ; HL = first byte kept
        pop bc                      ; (place)
        push de
        ld d, b
        ld e, c                     ; DE = place
        pop bc                      ; BC = count
        ldir
.moved: pop bc
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; mem_pointers_up - every pointer in mem_pointers above HL goes up by BC
; Input:   HL = place, BC = size
; Corrupts: AF, DE (HL, BC kept)
; ---------------------------------------------------------------------------------------------
mem_pointers_up:
        ld de, mem_pointers
.next:  push hl                     ; place
        ex de, hl
        ld e, (hl)
        inc hl
        ld d, (hl)                  ; DE = address of the system variable
        inc hl
        ld a, d
        or e
        jr z, .done
        ex (sp), hl                 ; HL = place; the table position waits on the stack
        push hl
        ex de, hl                   ; HL = variable, DE = place
        ld a, (hl)
        inc hl
        push hl
        ld h, (hl)
        ld l, a                     ; HL = its value
        ex de, hl                   ; HL = place, DE = value
        and a
        sbc hl, de                  ; carry: the value is above the place
        jr nc, .keep
        ex de, hl
        add hl, bc
        ex de, hl
.keep:  pop hl                      ; the variable's high byte
        ld (hl), d
        dec hl
        ld (hl), e
        pop hl                      ; place
        pop de                      ; table position
        jr .next
.done:  pop hl
        ret

; ---------------------------------------------------------------------------------------------
; mem_pointers_down - every pointer above HL goes down by BC, but not below HL
; Input:   HL = place, BC = size
; Corrupts: AF, DE (HL, BC kept)
; ---------------------------------------------------------------------------------------------
mem_pointers_down:
        ld de, mem_pointers
.next:  push hl
        ex de, hl
        ld e, (hl)
        inc hl
        ld d, (hl)
        inc hl
        ld a, d
        or e
        jr z, .done
        ex (sp), hl
        push hl
        ex de, hl                   ; HL = variable, DE = place
        ld a, (hl)
        inc hl
        push hl
        ld h, (hl)
        ld l, a                     ; HL = value
        ex de, hl                   ; HL = place, DE = value
        push hl
        and a
        sbc hl, de                  ; carry: the value is above the place
        pop hl
        jr nc, .keep
        ex de, hl
        and a
        sbc hl, bc                  ; value - size ...
        ex de, hl
        push hl
        and a
        sbc hl, de                  ; ... unless that is below the place (it pointed into the
        pop hl                      ;     removed bytes): then the place
        jr c, .keep
        ld d, h
        ld e, l
.keep:  pop hl
        ld (hl), d
        dec hl
        ld (hl), e
        pop hl
        pop de
        jr .next
.done:  pop hl
        ret

; ---------------------------------------------------------------------------------------------
; bc_spaces (RST 30h) - BC bytes of room at the end of the workspace
; Input:   BC = bytes
; Output:  DE = first byte of the room, HL = its last byte; BC kept.  Report 4 if short.
; Corrupts: AF
; ---------------------------------------------------------------------------------------------
bc_spaces:
        call mem_check_room
        ld de, (STKEND)             ; the calculator stack is always empty in this ROM, so the
        ld hl, (STKEND)             ; room is simply taken from the free memory above it
        add hl, bc
        ld (STKBOT), hl
        ld (STKEND), hl
        dec hl
        ret
