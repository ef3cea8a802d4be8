; =============================================================================================
; deed.asm - a square's title deed or details in rows DEED_TOP.. (the lower third, above the
; message lines): what the booklet's P key (Owners) and the cursor's SPACE (Houses, Mortgage,
; Trade: "the property information will appear on the bottom of the screen") show
;
;   row 16  the name on its group's colour, the printed price on the right
;   site    rent unimproved, with 1-4 houses and a hotel; house cost, mortgage value
;   station rent with 1-4 stations owned; mortgage value
;   utility 4 / 10 times the dice; mortgage value
;   row 20  the owner (number and name, or the Bank), "Mortgaged" or the buildings
; A square nobody can own shows its name and what it does.
; =============================================================================================

DEED_TOP        equ LOWER_TOP       ; rows 16..20
DEED_HEIGHT     equ CLOSEUP_HEIGHT
DEED_RENT_ROW   equ DEED_TOP + 1    ; the rents (sites: two rows)
DEED_COST_ROW   equ DEED_TOP + 3    ; house cost and mortgage value
DEED_OWNER_ROW  equ DEED_TOP + 4
DEED_PRICE_COL  equ 22              ; "Price £400" ends in the last column
DEED_COLUMN     equ 11              ; a site's rents: three fields of DEED_NARROW a row
DEED_NARROW     equ 10
DEED_WIDE       equ 15              ; stations and costs: two fields of DEED_WIDE a row
DEED_WIDE_COL   equ 16
DEED_STATUS_COL equ 21              ; "Mortgaged" or the buildings, on the owner's row
SITE_RENTS      equ 6               ; unimproved, 1-4 houses, a hotel
STATION_RENTS   equ 4

; ---------------------------------------------------------------------------------------------
; deed_show - show a square's title deed or details in rows DEED_TOP..DEED_TOP+4 (cleared)
; Input: A = square 0..39.  Output: drawn; print_attr = ATTR_MESSAGE.
; Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
deed_show:
        ld (deed_square), a
        call board_record
        push hl
        pop ix                      ; IX = the square's board record
        LD_ROW_COL bc, DEED_TOP, 0
        LD_ROW_COL de, DEED_HEIGHT, COLUMNS
        ld a, ATTR_NORMAL
        call clear_rect
        ld a, (ix+BOARD_GROUP)      ; the name bar in the group's colours
        ld hl, deed_group_attrs
        cp BOARD_GROUPS
        jr c, .group                ; In a group?  (else the last entry's colours)
        ld a, BOARD_GROUPS          ; the last entry: no group
.group: call setup_index
        ld a, (hl)
        LD_ROW_COL bc, DEED_TOP, 0
        LD_ROW_COL de, 1, COLUMNS
        push af
        call fill_attr
        pop af
        ld (print_attr), a
        ld a, (deed_square)
        call deed_name
        LD_ROW_COL bc, DEED_TOP, 0
        call print_string_at
        ld a, (ix+BOARD_KIND)
        cp KIND_SITE
        jp z, deed_site             ; A site?
        cp KIND_STATION
        jp z, deed_station          ; A station?
        cp KIND_UTILITY
        jp z, deed_utility          ; A utility?
        jp deed_other

; ---------------------------------------------------------------------------------------------
; deed_name - a square's name (tables.asm board_names)
; Input: A = square.  Output: HL = its 0-terminated name.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
deed_name:
        ld hl, board_names
        jp setup_string_of

; ---------------------------------------------------------------------------------------------
; deed_item - a label and a sum of money right-aligned in a field of deed_width characters
; Input: B = row, C = column, HL = label (0-terminated), DE = pounds.  Output: printed.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
deed_item:
        push de
        push bc
        call print_string_at
        pop bc
        pop hl
        push bc
        call number_digits          ; B = digits
        ld a, b
        pop bc
        neg                         ; the pound sign goes at column + width - digits - 1
        add a, c
        ld c, a
        ld a, (deed_width)
        dec a
        add a, c
        ld c, a
        call print_at
        ld a, CH_POUND
        call print_char
        ld hl, number_buffer
        jp print_string

; ---------------------------------------------------------------------------------------------
; deed_word - a word of the board record
; Input: IX = record, A = field offset.  Output: DE = the word.  Corrupts: AF, HL.
; ---------------------------------------------------------------------------------------------
deed_word:
        push ix
        pop hl
        call setup_index
        ld e, (hl)
        inc hl
        ld d, (hl)
        ret

; ---------------------------------------------------------------------------------------------
; deed_price - "Price £n" at the right of the name bar, in the bar's colours
; Input: IX = record.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
deed_price:
        ld a, DEED_NARROW
        ld (deed_width), a
        ld a, BOARD_PRICE
        call deed_word
        ld hl, str_deed_price
        LD_ROW_COL bc, DEED_TOP, DEED_PRICE_COL
        call deed_item
        ld a, ATTR_NORMAL
        ld (print_attr), a
        ret

; ---------------------------------------------------------------------------------------------
; deed_site - the rest of a site's deed: rents, house cost, mortgage value, owner
; Input: IX = record.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
deed_site:
        call deed_price
        ld hl, deed_site_labels
        LD_ROW_COL bc, DEED_RENT_ROW, 0
        ld a, BOARD_RENTS
.rent:  push af                     ; A = the rent's field
        push hl
        push bc
        call deed_word
        pop bc
        pop hl
        ld a, (hl)                  ; HL = the next label's address
        inc hl
        push hl
        ld h, (hl)
        ld l, a
        push bc
        call deed_item
        pop bc
        pop hl
        inc hl
        ld a, c                     ; the next field: across, then down
        add a, DEED_COLUMN
        ld c, a
        cp DEED_COLUMN * 3
        jr c, .same                 ; Room for another field on this row?
        ld c, 0
        inc b
.same:  pop af
        add a, 2
        cp BOARD_RENTS + 2 * SITE_RENTS
        jr c, .rent                 ; Another rent to show?
        ld hl, str_deed_house_cost
        ld a, BOARD_HOUSE_COST
        call deed_costs
        jp deed_owner

; ---------------------------------------------------------------------------------------------
; deed_costs - the cost row: a labelled sum (house cost) on the left, the mortgage value on the
; right
; Input: IX = record, HL = the left label, A = its field (0: none).  Output: printed.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
deed_costs:
        push af
        ld a, DEED_WIDE
        ld (deed_width), a
        pop af
        or a
        jr z, .mortgage             ; No sum on the left?
        push hl
        call deed_word
        pop hl
        LD_ROW_COL bc, DEED_COST_ROW, 0
        call deed_item
.mortgage:
        ld a, BOARD_MORTGAGE
        call deed_word
        ld hl, str_deed_mortgage
        LD_ROW_COL bc, DEED_COST_ROW, DEED_WIDE_COL
        jp deed_item

; ---------------------------------------------------------------------------------------------
; deed_station - a station's rents by stations owned, mortgage value, owner
; Input: IX = record.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
deed_station:
        call deed_price
        ld a, DEED_WIDE
        ld (deed_width), a
        ld hl, deed_station_labels
        LD_ROW_COL bc, DEED_RENT_ROW, 0
        ld a, BOARD_RENTS
.rent:  push af
        push hl
        push bc
        call deed_word
        pop bc
        pop hl
        ld a, (hl)
        inc hl
        push hl
        ld h, (hl)
        ld l, a
        push bc
        call deed_item
        pop bc
        pop hl
        inc hl
        ld a, c
        xor DEED_WIDE_COL           ; left, right, then the next row
        ld c, a
        jr nz, .same                ; The right-hand field next, on the same row?
        inc b
.same:  pop af
        add a, 2
        cp BOARD_RENTS + 2 * STATION_RENTS
        jr c, .rent                 ; Another rent to show?
        xor a
        call deed_costs
        jp deed_owner

; ---------------------------------------------------------------------------------------------
; deed_utility - a utility's dice multipliers (one owned, both owned), mortgage value, owner
; Input: IX = record.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
deed_utility:
        call deed_price
        ld hl, str_deed_one_utility
        ld a, BOARD_RENTS
        ld b, DEED_RENT_ROW
        call deed_times
        ld hl, str_deed_two_utilities
        ld a, BOARD_RENTS + 2
        ld b, DEED_RENT_ROW + 1
        call deed_times
        xor a
        call deed_costs
        jp deed_owner

; ---------------------------------------------------------------------------------------------
; deed_times - "<label> n x the dice" on a row
; Input: IX = record, HL = label, A = the multiplier's field, B = row.  Output: printed.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
deed_times:
        push af
        ld c, 0
        call print_string_at
        pop af
        call deed_word
        ex de, hl
        call print_number
        ld hl, str_deed_times_dice
        jp print_string

; ---------------------------------------------------------------------------------------------
; deed_owner - the owner's row: "Owner: 2 ANNE" or "Owner: Bank"; "Mortgaged" in white on red
; or the buildings
; Input: deed_square.  Output: printed; print_attr = ATTR_MESSAGE.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
deed_owner:
        ld hl, str_deed_owner
        LD_ROW_COL bc, DEED_OWNER_ROW, 0
        call print_string_at
        call deed_square_byte
        and SQ_OWNER_MASK
        jr nz, .player              ; Owned by a player?
        ld hl, str_deed_bank
        call print_string
        jr .status
.player:
        dec a
        push af
        add a, '1'
        call print_char
        ld a, ' '
        call print_char
        pop af
        call player_record
        ld de, P_NAME
        add hl, de
        call print_string
.status:
        LD_ROW_COL bc, DEED_OWNER_ROW, DEED_STATUS_COL
        call print_at
        call deed_square_byte
        bit SQ_MORTGAGED, a
        jr z, .buildings            ; Not mortgaged?
        ld a, ATTR_MORTGAGED
        ld (print_attr), a
        ld hl, str_deed_mortgaged
        call print_string
        jr .done
.buildings:
        and SQ_BUILD_MASK
        jr z, .done                 ; No buildings?
        cp SQ_HOTEL << SQ_BUILD_SHIFT
        jr z, .hotel                ; A hotel?
        rrca
        rrca
        rrca
        rrca
        assert SQ_BUILD_SHIFT == 4
        push af
        add a, '0'
        call print_char
        ld hl, str_deed_house
        call print_string
        pop af
        dec a
        jr z, .done                 ; One house?  (no plural)
        ld a, 's'                   ; plural
        call print_char
        jr .done
.hotel: ld hl, str_deed_hotel
        call print_string
.done:  ld a, ATTR_MESSAGE
        ld (print_attr), a
        ret

; ---------------------------------------------------------------------------------------------
; deed_square_byte - the v_squares byte of deed_square
; Input: deed_square.  Output: A.  Corrupts: F, HL.
; ---------------------------------------------------------------------------------------------
deed_square_byte:
        ld a, (deed_square)
        ld hl, v_squares
        call setup_index
        ld a, (hl)
        ret

; ---------------------------------------------------------------------------------------------
; deed_other - what a square nobody can own does: a text, with a sum where it has one
; Input: IX = record, deed_square.  Output: printed; print_attr = ATTR_MESSAGE.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
deed_other:
        ld a, ATTR_NORMAL
        ld (print_attr), a
        ld a, (ix+BOARD_KIND)
        ld hl, deed_kind_texts      ; per kind: text, sum (DEED_NO_SUM / DEED_TAX_SUM), text
        ld e, a
        add a, a
        add a, a
        add a, e
        add a, e                    ; 6 bytes an entry
        call setup_index
        ld e, (hl)
        inc hl
        ld d, (hl)
        inc hl
        push hl
        ex de, hl
        call print_string           ; the first text (it starts with PR_AT)
        pop hl
        ld e, (hl)
        inc hl
        ld d, (hl)
        inc hl
        push hl
        ex de, hl                   ; HL = the sum
        ld a, h
        cp HIGH DEED_NO_SUM
        jr nz, .sum                 ; A sum, not a marker?  (both markers are 0xFFxx)
        ld a, l
        cp LOW DEED_NO_SUM
        jr z, .text                 ; DEED_NO_SUM: no sum at all?
        cp LOW DEED_TAX_SUM
        jr nz, .sum                 ; Not DEED_TAX_SUM either?  (a sum after all)
        ld a, BOARD_RENTS           ; a tax square keeps its amount as its first rent
        call deed_word
        ex de, hl
.sum:   call print_money
.text:  pop hl
        ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        call print_string
        ld a, (ix+BOARD_KIND)
        cp KIND_FREE_PARKING
        jr nz, .done                ; Not Free Parking?
        ld a, (v_options)           ; our jackpot option: what lies there now
        bit OPT_JACKPOT, a
        jr z, .done                 ; No jackpot?
        ld hl, str_deed_jackpot
        call print_string
        ld hl, (v_jackpot)
        call print_money
.done:  ld a, ATTR_MESSAGE
        ld (print_attr), a
        ret

DEED_NO_SUM     equ 0xFFFF          ; deed_kind_texts: no sum between the texts
DEED_TAX_SUM    equ 0xFFFE          ; the tax square's own amount

deed_kind_texts:                    ; in KIND_* order (tables.asm)
        dw str_deed_go, GO_SALARY, str_deed_go_2
        dw 0, DEED_NO_SUM, 0                            ; KIND_SITE: not used
        dw 0, DEED_NO_SUM, 0                            ; KIND_STATION
        dw 0, DEED_NO_SUM, 0                            ; KIND_UTILITY
        dw str_deed_card, DEED_NO_SUM, str_empty        ; KIND_CHANCE
        dw str_deed_card, DEED_NO_SUM, str_empty        ; KIND_CHEST
        dw str_deed_tax, DEED_TAX_SUM, str_deed_tax_2
        dw str_deed_jail, JAIL_FINE, str_deed_jail_2
        dw str_deed_parking, DEED_NO_SUM, str_empty
        dw str_deed_to_jail, GO_SALARY, str_deed_to_jail_2
        assert ($ - deed_kind_texts) / 6 == KIND_GO_TO_JAIL + 1

; The name bar's colours by group (board_groups order), then for a square in none.
deed_group_attrs:
        db RED * PAPER + WHITE                  ; brown: the Spectrum has no brown
        db CYAN * PAPER + BLACK + BRIGHT        ; light blue
        db MAGENTA * PAPER + WHITE + BRIGHT     ; pink
        db RED * PAPER + YELLOW + BRIGHT        ; orange
        db RED * PAPER + WHITE + BRIGHT         ; red
        db YELLOW * PAPER + BLACK + BRIGHT      ; yellow
        db GREEN * PAPER + BLACK                ; green
        db BLUE * PAPER + WHITE + BRIGHT        ; dark blue
        db BLACK * PAPER + WHITE + BRIGHT       ; stations
        db WHITE * PAPER + BLUE                 ; utilities
        db ATTR_INVERSE                         ; no group
        assert $ - deed_group_attrs == BOARD_GROUPS + 1

deed_site_labels:
        dw str_deed_rent, str_deed_1h, str_deed_2h, str_deed_3h, str_deed_4h, str_deed_hotel_rent
        assert ($ - deed_site_labels) / 2 == SITE_RENTS
deed_station_labels:
        dw str_deed_1s, str_deed_2s, str_deed_3s, str_deed_4s
        assert ($ - deed_station_labels) / 2 == STATION_RENTS

str_deed_price: db "Price", 0
str_deed_rent:  db "Rent", 0
str_deed_1h:    db "1", CH_HOUSE, 0
str_deed_2h:    db "2", CH_HOUSE, 0
str_deed_3h:    db "3", CH_HOUSE, 0
str_deed_4h:    db "4", CH_HOUSE, 0
str_deed_hotel_rent: db CH_HOTEL, 0
str_deed_1s:    db "1 station", 0
str_deed_2s:    db "2 stations", 0
str_deed_3s:    db "3 stations", 0
str_deed_4s:    db "4 stations", 0
str_deed_house_cost: db "Houses", 0
str_deed_mortgage: db "Mortgage", 0
str_deed_one_utility: db "Rent if one is owned: ", 0
str_deed_two_utilities: db "Rent if both owned:   ", 0
str_deed_times_dice: db " x dice", 0
str_deed_owner: db "Owner: ", 0
str_deed_bank:  db "Bank", 0
str_deed_mortgaged: db "Mortgaged", 0
str_deed_house: db " house", 0
str_deed_hotel: db "Hotel", 0
str_deed_go:    db PR_AT, DEED_TOP + 1, 0, "Collect ", 0
str_deed_go_2:  db " salary each time", PR_AT, DEED_TOP + 2, 0, "you pass or land on GO.", 0
str_deed_card:  db PR_AT, DEED_TOP + 1, 0, "Take the top card of the pack", PR_AT, DEED_TOP + 2, 0
                db "and do what it says.", 0
str_deed_tax:   db PR_AT, DEED_TOP + 1, 0, "Pay ", 0
str_deed_tax_2: db " to the Bank.", 0
str_deed_jail:  db PR_AT, DEED_TOP + 1, 0, "Just visiting, unless sent here."
                db PR_AT, DEED_TOP + 2, 0, "Out of Jail by a double, a card"
                db PR_AT, DEED_TOP + 3, 0, "or a fine of ", 0
str_deed_jail_2: db ".", 0
str_deed_parking: db PR_AT, DEED_TOP + 1, 0, "A free rest: nothing happens.", 0
str_deed_jackpot: db PR_AT, DEED_TOP + 2, 0, "Jackpot: ", 0
str_deed_to_jail: db PR_AT, DEED_TOP + 1, 0, "Go directly to Jail. Do not pass"
                db PR_AT, DEED_TOP + 2, 0, "GO, do not collect ", 0
str_deed_to_jail_2: db ".", 0
