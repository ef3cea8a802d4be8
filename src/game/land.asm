; =============================================================================================
; land.asm - what the square a player lands on does: buy or auction, rent, tax, a card,
; jail, the Free Parking jackpot
;
; Booklet part A (A14 buying, A21 rent, Income Tax, Free Parking, Chance and Community Chest,
; Go to Jail); the cards are cards.asm's, the jail jail.asm's, the rent rent.asm's.
; =============================================================================================

LAND_PAUSE      equ 25              ; frames to read what a square did (and many other results)

; ---------------------------------------------------------------------------------------------
; land - what the square the current player stands on does
; Input: IX = player.  Output: the square's effect done (may move the player again, send it
; to jail, or put it out of the game).  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
land:
        ld a, (ix+P_SQUARE)
        call board_record           ; HL = the square's record
        ld a, (hl)                  ; BOARD_KIND is the first byte
        cp KIND_SITE
        jp z, land_property         ; A site?
        cp KIND_STATION
        jp z, land_property         ; A station?
        cp KIND_UTILITY
        jp z, land_property         ; A utility?
        cp KIND_CHANCE
        jp z, cards_chance_draw     ; Chance?
        cp KIND_CHEST
        jp z, cards_chest_draw      ; Community Chest?
        cp KIND_TAX
        jp z, land_tax              ; Income Tax or Super Tax?
        cp KIND_GO_TO_JAIL
        jp z, jail_send             ; Go to Jail?
        cp KIND_FREE_PARKING
        jp z, land_free_parking     ; Free Parking?
        ret                         ; GO, Jail (just visiting)

; ---------------------------------------------------------------------------------------------
; land_tax - Income Tax or Super Tax: the amount on the square to the Bank (or the jackpot)
; Input: IX = player, HL = the square's record.  Output: paid.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
land_tax:
        ld de, BOARD_RENTS
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        push de
        ld hl, str_land_tax
        call msg_show
        ld a, (ix+P_SQUARE)
        call msg_square_name
        ld hl, str_land_tax_pay
        call msg_print
        pop hl
        push hl
        call msg_money
        call msg_stop
        ld a, (ix+P_SQUARE)
        ld (event_square), a
        EVENT_CAUSE EVK_TAX
        pop hl
        call bank_pay_fine
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; land_free_parking - nothing, or the jackpot under OPT_JACKPOT (seed 003's house rule)
; Input: IX = player.  Output: the jackpot collected.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
land_free_parking:
        ld a, (v_options)
        bit OPT_JACKPOT, a
        ret z                       ; No jackpot (the option off)?
        ld hl, (v_jackpot)
        ld a, h
        or l
        ret z                       ; Nothing on Free Parking?
        push hl
        ld hl, str_land_jackpot
        call msg_show
        pop hl
        push hl
        call msg_money
        pop hl
        call cash_add               ; from Free Parking, not from the Bank
        EVENT_CAUSE EVK_JACKPOT
        call player_of_record
        ld c, a
        ld a, EV_PARKING
        call event_money
        call bank_redraw
        ld hl, 0
        ld (v_jackpot), hl
        call snd_beep
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; land_property - a site, station or utility: buy or auction if the Bank has it; rent if
; another player has it (A14, A21)
; Input: IX = player.  Output: done.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
land_property:
        ld a, (ix+P_SQUARE)
        call square_owner           ; A = owner + 1 (0: the Bank), C = the square byte
        or a
        jp z, land_buy_offer        ; The Bank's?
        dec a
        ld hl, v_current
        cp (hl)
        ret z                       ; The player's own?
        bit SQ_MORTGAGED, c
        jr nz, .mortgaged           ; Mortgaged?  (no rent)
        jp rent_due
.mortgaged:
        ld hl, str_land_mortgaged_no_rent
        jp msg_show

; ---------------------------------------------------------------------------------------------
; land_buy_offer - offer an unowned property at its price; declined, the Bank auctions it
; (A14), or, with OPT_NO_AUCTION, keeps it
; Input: IX = player (standing on it).  Output: bought, auctioned or left.  Corrupts: all
; but IX.
; ---------------------------------------------------------------------------------------------
land_buy_offer:
        ld a, (ix+P_SQUARE)
        call board_record
        ld de, BOARD_PRICE
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)                  ; DE = the price
        ld (land_buy_offer_price), de
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        or a
        sbc hl, de
        jr c, .cannot               ; Less cash than the price?
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .ask                  ; A human?  (asked; a computer decides)
        ld a, (ix+P_SQUARE)
        call ai_wants_to_buy
        jr c, .buy                  ; Does the computer buy it?
        ld hl, str_land_declines
        call msg_show
        ld b, LAND_PAUSE
        call pause
        jr .decline
.ask:   ld hl, str_land_buy
        call msg_show
        ld a, (ix+P_SQUARE)
        call msg_square_name
        ld hl, str_msg_for
        call msg_print
        ld hl, (land_buy_offer_price)
        call msg_money
        ld hl, str_msg_question
        call ask_yn
        jr nc, .decline             ; N: declined?
.buy:   ld a, (ix+P_SQUARE)
        ld (event_square), a
        EVENT_CAUSE EVK_BUY
        ld hl, (land_buy_offer_price)
        call bank_pay_ix_exact
        ld a, (v_current)
        ld c, a
        ld a, (ix+P_SQUARE)
        call property_give
        ld hl, str_land_bought
        call msg_show
        ld a, (v_current)
        call msg_player
        ld hl, str_land_bought_a
        call msg_print
        ld a, (ix+P_SQUARE)
        call msg_square_name
        call msg_stop
        call msg_hold_money         ; a purchase: read at the money results' pace
        call snd_beep
        ld b, LAND_PAUSE
        jp pause
.cannot:
        ld hl, str_land_cannot_afford
        call msg_show
        ld b, LAND_PAUSE
        call pause
        ld e, DECLINE_CASH
        jr .declined
.decline:
        ld e, DECLINE_CHOICE
.declined:
        call player_of_record          ; the record: who did not buy what, and why
        ld b, a
        ld d, (ix+P_SQUARE)
        ld hl, (land_buy_offer_price)
        ld a, EVK_DECLINE
        call event_player
        ld a, (v_options)
        bit OPT_NO_AUCTION, a
        jr nz, .kept                ; No auctions (OPT_NO_AUCTION)?
        ld a, (ix+P_SQUARE)
        jp auction_run
.kept:  ld hl, str_land_stays_with_bank
        call msg_show
        ld b, LAND_PAUSE
        jp pause

str_land_tax:        db 0
str_land_tax_pay:    db ": pay ", 0
str_land_jackpot:    db "Free Parking jackpot: ", 0
str_land_mortgaged_no_rent: db "It is mortgaged: no rent.", 0
str_land_declines:   db "The computer declines to buy it.", 0
str_land_buy:        db "Buy ", 0
str_land_bought:     db 0
str_land_bought_a:   db " buys ", 0
str_land_cannot_afford: db "Not enough cash to buy it.", 0
str_land_stays_with_bank: db "It stays with the Bank.", 0
