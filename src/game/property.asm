; =============================================================================================
; property.asm - who owns a square and what stands on it: square_* (a square's owner
; and name), property_* (its owner set, its buildings) and group_* (its colour group)
;
; The square bytes are v_squares (SQ_* in vars.asm); the board's records are tables.asm's.
; =============================================================================================

; ---------------------------------------------------------------------------------------------
; square_name - the address of a square's name
; Input: A = square 0..39.  Output: HL.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
square_name:
        add a, a
        ld e, a
        ld d, 0
        ld hl, board_names
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        ret

; ---------------------------------------------------------------------------------------------
; square_owner - who owns a square
; Input: A = square.  Output: A = owner + 1 (0: the Bank), C = the square byte, HL = its
; address in v_squares.  Corrupts: F, DE.
; ---------------------------------------------------------------------------------------------
square_owner:
        ld e, a
        ld d, 0
        ld hl, v_squares
        add hl, de
        ld a, (hl)
        ld c, a
        and SQ_OWNER_MASK
        ret

; ---------------------------------------------------------------------------------------------
; property_give - make a player the owner of a square (its mortgage and buildings unchanged)
; and redraw it
; Input: A = square, C = player 0..5.  Output: v_squares.  Corrupts: BC, DE, HL.
; ---------------------------------------------------------------------------------------------
property_give:
        push af
        push ix
        push af
        inc c
        ld b, c                     ; B = the new owner + 1
        call square_owner           ; HL = its byte
        ld a, (hl)
        and 0xFF - SQ_OWNER_MASK
        or b
        ld (hl), a
        pop af
        call board_draw_square
        call board_draw_players
        pop ix
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; property_level - a square's buildings: 0-4 houses, 5 a hotel
; Input: A = square.  Output: A = level, C = the square byte, HL = its address.
; Corrupts: F, DE.
; ---------------------------------------------------------------------------------------------
property_level:
        call square_owner
        ld a, c
        and SQ_BUILD_MASK
        rrca
        rrca
        rrca
        rrca
        ret

; ---------------------------------------------------------------------------------------------
; group_record - the group record (count, then GROUP_SLOTS squares) of a square
; Input: A = square (a site, station or utility).  Output: HL.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
group_record:
        call board_record
        inc hl                      ; BOARD_GROUP follows BOARD_KIND
        ld l, (hl)
        ld h, 0
        ld d, h
        ld e, l
        add hl, hl
        add hl, hl
        add hl, de                  ; group * 5
        ld de, board_groups
        add hl, de
        ret
        assert GROUP_RECORD == 5
        assert BOARD_GROUP == BOARD_KIND + 1

; ---------------------------------------------------------------------------------------------
; group_built - whether any site of a square's colour group has buildings
; Input: A = square.  Output: carry set if built on.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
group_built:
        push bc
        call group_record
        ld b, (hl)
.site:  inc hl
        ld a, (hl)
        push hl
        push bc
        call property_level
        pop bc
        pop hl
        or a
        jr nz, .yes                 ; Has this site buildings?
        djnz .site
        pop bc
        or a
        ret
.yes:   pop bc
        scf
        ret

; ---------------------------------------------------------------------------------------------
; group_clear_buildings - return every building of a square's colour group to the Bank
; Input: A = a square of the group.  Output: DE = half of what they cost (the Bank's payment);
; the stock counts updated; the squares redrawn.  Corrupts: AF, B, HL.
; ---------------------------------------------------------------------------------------------
group_clear_buildings:
        call group_record           ; HL = count, then the squares
        ld b, (hl)
        inc hl
        ld de, 0
.site:  push bc
        push hl
        ld a, (hl)
        push de
        call property_level         ; A = level, HL = square byte address, C = the byte
        ld b, a
        ld a, c
        and 0xFF - SQ_BUILD_MASK
        ld (hl), a
        pop de
        pop hl
        push hl
        ld a, b
        or a
        jr z, .none                 ; Has this site no buildings?
        ld c, a                     ; C = level
        cp SQ_HOTEL
        jr nz, .houses              ; Houses only (not a hotel)?
        ld a, (v_hotels_left)       ; a hotel: the hotel and its four houses' cost
        inc a
        ld (v_hotels_left), a
        ld a, (hl)
        push de
        call board_record
        ld de, BOARD_HOTEL_COST
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        pop de
        add hl, de
        ex de, hl                   ; DE += hotel cost
        pop hl
        push hl
        ld c, HOTEL_HOUSES
        jr .cost
.houses:
        ld a, (v_houses_left)
        add a, c
        ld (v_houses_left), a
.cost:  ld a, (hl)                  ; DE += C houses' cost
        push de
        call board_record
        ld de, BOARD_HOUSE_COST
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld hl, 0
.mul:   add hl, de
        dec c
        jr nz, .mul                 ; Another house's cost to add?
        pop de
        add hl, de
        ex de, hl
        pop hl
        push hl
        ld a, (hl)
        push de
        push ix
        call board_draw_square
        pop ix
        pop de
.none:  pop hl
        pop bc
        inc hl
        djnz .site
        srl d                       ; the Bank pays half
        rr e
        ret
