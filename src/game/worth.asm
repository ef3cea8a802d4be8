; =============================================================================================
; worth.asm - what a player's holdings are worth: the booklet's short-game valuation (part A,
; "Rules for playing the short game", seed_rules A63) and what a player could raise on them
;
; Valuation: (1) cash; (2) sites, stations and utilities at the price printed on the board;
; (3) mortgaged property at half that price, which is its mortgage value; (4) houses at cost;
; (5) a hotel at the cost of five houses.  The game uses it for the A key, the end of the game
; and the short game's time-up.
; =============================================================================================

WORTH_HOTEL_HOUSES equ 5            ; a hotel is valued at the cost of five houses (A63)
HOTEL_TRADES_HOUSES equ 4           ; a hotel was bought with four houses plus its own cost (A43)

; ---------------------------------------------------------------------------------------------
; worth_property - a player's property at the short-game valuation: printed prices (mortgaged:
; half, the mortgage value), houses at cost, a hotel at five houses
; Input: A = player 0..5.  Output: HL = the value in pounds.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
worth_property:
        push ix
        ld hl, worth_square_value
        call worth_scan
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; worth_total - a player's worth: cash plus worth_property (A63)
; Input: A = player 0..5.  Output: HL = pounds, 65535 if the sum is larger.
; Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
worth_total:
        push af
        call worth_property
        pop af
        push hl
        call player_record
        ld de, P_CASH
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)                  ; DE = cash
        pop hl
        add hl, de
        ret nc                      ; Do cash and property together fit in 16 bits?
        ld hl, 0xFFFF               ; saturate rather than wrap to a small worth
        ret

; ---------------------------------------------------------------------------------------------
; worth_mortgage_value - what a player could raise from the Bank on its property: the mortgage
; value (half the price) of each unmortgaged property and half what its buildings cost (a
; hotel: its four houses and its own cost).  Cash is not included: a player's assets for an
; auction bid (booklet C "Auctioning") are P_CASH plus this.
; Input: A = player 0..5.  Output: HL = pounds.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
worth_mortgage_value:
        push ix
        ld hl, worth_square_raise
        call worth_scan
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; worth_scan - add up a value over the squares a player owns
; Input: A = player 0..5; HL = the routine that values one square (Input: A = its square byte,
; IX = its board record; Output: DE = value; may corrupt AF, BC, HL).
; Output: HL = the sum (worth_sum).  Corrupts: AF, BC, DE, IX.
; ---------------------------------------------------------------------------------------------
worth_scan:
        ld (worth_valuer), hl
        inc a
        ld c, a                     ; C = the owner field of the player's squares (player + 1)
        ld hl, 0
        ld (worth_sum), hl
        ld ix, board_squares
        ld hl, v_squares
        ld b, BOARD_SQUARES
.square:
        ld a, (hl)
        and SQ_OWNER_MASK
        cp c
        jr nz, .next                ; Is the square someone else's, or the Bank's?
        push bc
        push hl
        ld a, (hl)
        call .value
        ld hl, (worth_sum)
        add hl, de
        ld (worth_sum), hl
        pop hl
        pop bc
.next:  inc hl
        ld de, BOARD_RECORD
        add ix, de
        djnz .square
        ld hl, (worth_sum)
        ret
.value: ld hl, (worth_valuer)       ; a CALL through the valuer's address
        jp (hl)

; ---------------------------------------------------------------------------------------------
; worth_buildings - how many houses' cost a square's buildings count as, and the house cost
; Input: A = square byte, IX = board record.  Output: A = buildings field (0-4 houses, SQ_HOTEL),
; Z if none; DE = the house cost.  Corrupts: F.
; ---------------------------------------------------------------------------------------------
worth_buildings:
        ld e, (ix+BOARD_HOUSE_COST)
        ld d, (ix+BOARD_HOUSE_COST+1)
        and SQ_BUILD_MASK
        assert SQ_BUILD_SHIFT == 4
        rrca
        rrca
        rrca
        rrca
        ret

; ---------------------------------------------------------------------------------------------
; worth_square_value - one square at the short-game valuation (a worth_scan valuer)
; Input: A = square byte, IX = board record.  Output: DE = pounds.  Corrupts: AF, HL.
; ---------------------------------------------------------------------------------------------
worth_square_value:
        ld l, (ix+BOARD_PRICE)
        ld h, (ix+BOARD_PRICE+1)
        bit SQ_MORTGAGED, a
        jr z, .built                ; Unmortgaged (valued at its printed price)?
        ld l, (ix+BOARD_MORTGAGE)   ; half the printed price, as the title deed says
        ld h, (ix+BOARD_MORTGAGE+1)
.built: call worth_buildings
        jr z, .done                 ; Has the square no buildings?
        cp SQ_HOTEL
        jr nz, .houses              ; Houses, not a hotel (a hotel counts five)?
        ld a, WORTH_HOTEL_HOUSES
.houses:
        add hl, de
        dec a
        jr nz, .houses              ; Another house's cost to add?
.done:  ex de, hl
        ret

; ---------------------------------------------------------------------------------------------
; worth_square_raise - what one square could raise (a worth_scan valuer): its mortgage value
; unless mortgaged, plus half its buildings' cost
; Input: A = square byte, IX = board record.  Output: DE = pounds.  Corrupts: AF, BC, HL.
; ---------------------------------------------------------------------------------------------
worth_square_raise:
        ld bc, 0                    ; BC = the mortgage value, if it can still be raised
        bit SQ_MORTGAGED, a
        jr nz, .built               ; Mortgaged already (nothing to raise on it)?
        ld c, (ix+BOARD_MORTGAGE)
        ld b, (ix+BOARD_MORTGAGE+1)
.built: ld hl, 0                    ; HL = what the buildings cost
        call worth_buildings
        jr z, .half                 ; Has the square no buildings?
        cp SQ_HOTEL
        jr nz, .houses              ; Houses, not a hotel (a hotel counts its own cost and four houses)?
        ld l, (ix+BOARD_HOTEL_COST)
        ld h, (ix+BOARD_HOTEL_COST+1)
        ld a, HOTEL_TRADES_HOUSES
.houses:
        add hl, de
        dec a
        jr nz, .houses              ; Another house's cost to add?
.half:  srl h                       ; the Bank buys buildings back at half price (A45)
        rr l
        add hl, bc
        ex de, hl
        ret
