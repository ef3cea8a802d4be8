; =============================================================================================
; bank.asm - money between the players and the Bank: receipts, payments (bank_*), a player's
; cash (cash_*), raising money by selling buildings and mortgaging (raise_*), bankruptcy
;
; Booklet part A: "Bank", "Selling property", "Mortgages", "Bankruptcy".  The M key and the
; mortgages themselves are mortgage.asm's.
; The Bank never runs out of money (A4).  Cash is an unsigned word: receipts stop at 65535.
; =============================================================================================

HOTEL_HOUSES    equ MAX_HOUSES_PER_SITE ; a hotel stands for four houses (A43)

; ---------------------------------------------------------------------------------------------
; bank_receive - the Bank (or another player, already debited) pays a player
; Input: A = player, HL = pounds.  Output: P_CASH + HL (at most 65535); the list redrawn.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
bank_receive:
        push ix
        push hl
        call player_record
        push hl
        pop ix
        pop hl
        call bank_receive_ix
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; bank_receive_ix - bank_receive for the player whose record is in IX
; Input: IX = record, HL = pounds.  Output: as bank_receive.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
bank_receive_ix:
        call cash_add               ; HL = what was added (the record says what arrived)
        call player_of_record
        ld c, a
        ld a, EV_BANK
        call event_money
        call bank_lose
        jr bank_redraw

; ---------------------------------------------------------------------------------------------
; bank_pay_ix_exact - the player pays the Bank money it is known to have
; Input: IX = record, HL = pounds (<= P_CASH).  Output: P_CASH - HL; the list redrawn.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
bank_pay_ix_exact:
        push hl
        call cash_sub
        pop hl
        call player_of_record
        ld c, EV_BANK
        call event_money
        call bank_gain
        jr bank_redraw

; ---------------------------------------------------------------------------------------------
; cash_add - add to a player's cash, stopping at 65535 (no Bank account: the caller says
; where the money came from)
; Input: IX = record, HL = pounds.  Output: P_CASH; HL = what was added.  Corrupts: F, DE.
; ---------------------------------------------------------------------------------------------
cash_add:
        ld e, (ix+P_CASH)
        ld d, (ix+P_CASH+1)
        push de
        add hl, de
        jr nc, .store               ; Within 65535?  (else the cash stops there)
        ld hl, WORD_MAX
.store: ld (ix+P_CASH), l
        ld (ix+P_CASH+1), h
        pop de
        or a
        sbc hl, de
        ret

; ---------------------------------------------------------------------------------------------
; cash_sub - take from a player's cash
; Input: IX = record, HL = pounds (<= P_CASH).  Output: P_CASH.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
cash_sub:
        ex de, hl
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        or a
        sbc hl, de
        ld (ix+P_CASH), l
        ld (ix+P_CASH+1), h
        ret

; ---------------------------------------------------------------------------------------------
; bank_gain - the Bank's account (v_bank, 32 bits) takes in a sum
; Input: HL = pounds.  Output: v_bank.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
bank_gain:
        ex de, hl
        ld hl, (v_bank)
        add hl, de
        ld (v_bank), hl
        ld hl, (v_bank + 2)
        ld de, 0
        adc hl, de
        ld (v_bank + 2), hl
        ret

; ---------------------------------------------------------------------------------------------
; bank_lose - the Bank's account (v_bank, 32 bits) pays out a sum
; Input: HL = pounds.  Output: v_bank.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
bank_lose:
        ex de, hl
        ld hl, (v_bank)
        or a
        sbc hl, de
        ld (v_bank), hl
        ld hl, (v_bank + 2)
        ld de, 0
        sbc hl, de
        ld (v_bank + 2), hl
        ret

; ---------------------------------------------------------------------------------------------
; bank_redraw - show the new cash in the player list
; Input: none.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
bank_redraw:
        push ix
        call board_draw_players
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; bank_pay_fine - the current player pays a tax or fine to the Bank (onto Free Parking with
; OPT_JACKPOT); a short payer raises money or goes bankrupt to the Bank
; Input: HL = pounds.  Output: paid; carry set if the player went bankrupt.
; Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
bank_pay_fine:
        push hl
        ld a, (v_current)
        ld c, NO_PLAYER
        call bank_pay
        pop hl
        ret c                       ; Did the player go bankrupt?
        ld a, (v_options)
        bit OPT_JACKPOT, a
        ret z                       ; No jackpot?  (the fine stays the Bank's)
        push hl                     ; not the Bank's: it lies on Free Parking
        call bank_lose
        pop hl
        ld de, (v_jackpot)
        add hl, de
        ld (v_jackpot), hl
        or a
        ret

; ---------------------------------------------------------------------------------------------
; bank_pay - a player pays a sum to the Bank or to another player; short of cash, the payer
; sells buildings and mortgages (a computer: bank_raise; a human chooses with the cursor:
; houses_raise_human); still short, goes bankrupt to the creditor
; Input: A = payer, C = creditor (NO_PLAYER: the Bank), HL = pounds.
; Output: carry clear: paid; carry set: the payer went bankrupt (everything handed over).
; bank_paying is one more while it runs: the short game's time running out meanwhile does not
; cut it short (game_idle: the end waits for it).  Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
bank_pay:
        push ix
        ld (bank_payer), a
        ld (bank_amount), hl
        ld hl, bank_paying          ; a payment under way: a debt the end must not drop
        inc (hl)
        ld a, c
        ld (bank_creditor), a
        ld hl, (event_cause)        ; the cause named for this payment: what is sold or
        ld (bank_cause), hl         ; mortgaged to raise it names its own on the way
        ld a, (event_extra)
        ld (bank_cause + 2), a
        xor a
        ld (event_cause), a
        assert EVK_UNKNOWN == 0
        ld a, (bank_payer)
        call player_record
        push hl
        pop ix
        call bank_short             ; Has the payer enough cash?
        jr nc, .pay                 ; Has the payer the cash?
        ld a, (bank_payer)
        ld hl, (bank_amount)
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr nz, .auto                ; A computer payer?
        call houses_raise_human     ; a human is led through it (houses.asm)
        jr .raised
.auto:  call bank_raise             ; a computer chooses for itself
.raised:
        call bank_short
        jr nc, .pay                 ; Has the payer the cash now?
        ld a, (bank_payer)          ; still short: bankrupt
        ld hl, bank_creditor
        ld c, (hl)
        call bank_bankrupt
        scf
        jr .exit
.pay:   ld hl, (bank_cause)
        ld (event_cause), hl
        ld a, (bank_cause + 2)
        ld (event_extra), a
        ld hl, (bank_amount)
        ld a, (bank_creditor)
        cp NO_PLAYER
        jr nz, .player              ; Paid to a player, not the Bank?
        call bank_pay_ix_exact
        jr .done
.player:
        call cash_sub               ; from one player to another: not the Bank's
        ld a, (bank_creditor)
        ld c, a
        ld a, (bank_payer)
        ld hl, (bank_amount)
        call event_money
        ld a, (bank_creditor)
        call cash_credit
        call bank_redraw
.done:  or a
.exit:  ld hl, bank_paying          ; (DEC keeps the carry)
        dec (hl)
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; bank_short - whether the player in IX has less cash than bank_amount
; Input: IX = record.  Output: carry set if short.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
bank_short:
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        ld de, (bank_amount)
        or a
        sbc hl, de
        ret

; ---------------------------------------------------------------------------------------------
; bank_raise - sell buildings (the most built-up site first, so selling stays even: A40) and
; then mortgage (the smallest loan first) until the player has a sum in cash
; Input: A = player, HL = the cash wanted.  Output: carry clear if the cash is there now, set
; if everything is sold and mortgaged and it is still short.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
bank_raise:
        push ix
        ld (raise_player), a
        ld (raise_target), hl
        call player_record
        push hl
        pop ix
.loop:  ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        ld de, (raise_target)
        or a
        sbc hl, de
        jr nc, .done                ; Has the player the cash wanted?
        ld a, (raise_player)
        call raise_sell_building
        jr nc, .loop                ; A building sold?  (then look again)
        ld a, (raise_player)
        call raise_mortgage_one
        jr nc, .loop                ; A property mortgaged?  (then look again)
.done:  pop ix
        ret                         ; carry set: nothing left to sell

; ---------------------------------------------------------------------------------------------
; raise_sell_building - sell one building of a player's to the Bank at half its cost: a house
; from the most built-up site; a hotel becomes four houses again if the Bank has them, else the
; whole group's buildings go (A45)
; Input: A = player.  Output: carry clear if one was sold, set if the player has none.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
raise_sell_building:
        inc a
        ld (raise_sell_building_owner), a
        xor a
        ld (raise_sell_building_best_level), a
        ld b, 0                     ; B = square
.scan:  ld a, b
        call square_owner
        ld hl, raise_sell_building_owner
        cp (hl)
        jr nz, .next                ; Not the player's?
        ld a, b
        push bc
        call property_level
        pop bc
        ld hl, raise_sell_building_best_level
        cp (hl)
        jr c, .next                 ; Less built than the best so far?
        jr z, .next                 ; No more built than the best so far (or none)?
        ld (hl), a
        ld a, b
        ld (raise_sell_building_best_square), a
.next:  inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .scan                 ; Another square to look at?
        ld a, (raise_sell_building_best_level)
        or a
        scf
        ret z                       ; No buildings at all?
        cp SQ_HOTEL
        jr z, .hotel                ; Is the most built-up a hotel?
        ld a, (raise_sell_building_best_square) ; a house: one fewer, half its cost
        call property_level
        ld a, c
        sub 1 << SQ_BUILD_SHIFT
        ld (hl), a
        ld hl, v_houses_left
        inc (hl)
        ld a, (raise_sell_building_best_square)
        call board_record
        ld de, BOARD_HOUSE_COST
        add hl, de
        call half_word_at
        ld hl, str_bank_sells_house
        jr .paid
.hotel: ld a, (v_houses_left)
        cp HOTEL_HOUSES
        jr c, .group                ; Fewer than four houses left in the Bank?
        sub HOTEL_HOUSES            ; the hotel goes back; four houses come out
        ld (v_houses_left), a
        ld hl, v_hotels_left
        inc (hl)
        ld a, (raise_sell_building_best_square)
        call property_level
        ld a, c
        and 0xFF - SQ_BUILD_MASK
        or HOTEL_HOUSES << SQ_BUILD_SHIFT
        ld (hl), a
        ld a, (raise_sell_building_best_square)
        call board_record
        ld de, BOARD_HOTEL_COST
        add hl, de
        call half_word_at
        ld hl, str_bank_sells_hotel
        jr .paid
; Not four houses in the Bank: the group's buildings go.
.group: ld a, (raise_sell_building_best_square)
        call group_clear_buildings
        ld hl, str_bank_sells_group
.paid:  push de
        push hl
        ld a, (raise_sell_building_owner)
        dec a
        call msg_show_player
        pop hl
        call msg_print
        ld a, (raise_sell_building_best_square)
        call msg_square_name
        call msg_stop
        ld a, (raise_sell_building_best_square)
        push ix
        call board_draw_square
        pop ix
        ld a, (raise_sell_building_best_square)
        ld (event_square), a        ; the record: sold back, and what stands there now
        call property_level
        ld (event_extra), a
        EVENT_CAUSE EVK_SELL
        pop hl
        ld a, (raise_sell_building_owner)
        dec a
        call bank_receive
        ld b, LAND_PAUSE
        call pause
        or a
        ret

; ---------------------------------------------------------------------------------------------
; half_word_at - half of the word at an address
; Input: HL = address.  Output: DE = word / 2.  Corrupts: F, HL.
; ---------------------------------------------------------------------------------------------
half_word_at:
        ld e, (hl)
        inc hl
        ld d, (hl)
        srl d
        rr e
        ret

; ---------------------------------------------------------------------------------------------
; raise_mortgage_one - mortgage the player's unmortgaged property with the smallest loan that
; has no buildings on it (A52)
; Input: A = player.  Output: carry clear if one was mortgaged, set if none can be.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
raise_mortgage_one:
        inc a
        ld (raise_mortgage_one_owner), a
        ld a, NO_SQUARE
        ld (raise_mortgage_one_best), a
        ld hl, WORD_MAX             ; (any loan is smaller)
        ld (raise_mortgage_one_loan), hl
        ld b, 0
.scan:  push bc
        ld a, b
        call square_owner
        ld hl, raise_mortgage_one_owner
        cp (hl)
        jr nz, .next                ; Not the player's?
        bit SQ_MORTGAGED, c
        jr nz, .next                ; Mortgaged already?
        ld a, c                     ; buildings on the site are sold first (booklet A)
        and SQ_BUILD_MASK
        jr nz, .next                ; Buildings on it?
        ld a, b
        call board_record
        ld de, BOARD_MORTGAGE
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld hl, (raise_mortgage_one_loan)
        or a
        sbc hl, de
        jr c, .next                 ; A bigger loan than the best so far?
        jr z, .next                 ; The same loan as the best so far?
        ld (raise_mortgage_one_loan), de
        ld a, b
        ld (raise_mortgage_one_best), a
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .scan                 ; Another square to look at?
        ld a, (raise_mortgage_one_best)
        cp NO_SQUARE
        scf
        ret z                       ; Nothing left to mortgage?
        call mortgage_take
        or a
        ret

; ---------------------------------------------------------------------------------------------
; bank_bankrupt - a player cannot pay: to another player, everything goes to the creditor
; (cash, property - mortgaged property with the 10 % interest paid by the creditor at once -
; and Get Out of Jail Free cards, A57); to the Bank, the property is auctioned to the others
; and the cards go back to their packs (A58, A59).  The player leaves the game.
; Input: A = the bankrupt player, C = creditor (NO_PLAYER: the Bank).  Output: done.
; Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
bank_bankrupt:
        push ix
        ld (bankrupt_player), a
        ld a, c
        ld (bankrupt_creditor), a
        ld a, (bankrupt_player)
        call player_record
        push hl
        pop ix
        res PF_PLAYING, (ix+P_FLAGS)
        set PF_BANKRUPT, (ix+P_FLAGS)
        res PF_IN_JAIL, (ix+P_FLAGS)
        push bc
        push de
        ld a, (bankrupt_creditor)   ; the record: to whom
        ld c, a
        ld a, (bankrupt_player)
        ld b, a
        ld a, EVK_BANKRUPT
        ld de, 0
        ld h, d
        ld l, e
        call event_emit
        pop de
        pop bc
        ld a, (bankrupt_player)
        call msg_show_player
        ld hl, str_bank_bankrupt
        call msg_print
        call msg_hold_money         ; a bankruptcy: read at the money results' pace
        call snd_low
        ld a, (ix+P_SQUARE)         ; the token leaves the board
        push ix
        call board_draw_square
        pop ix
        ld l, (ix+P_CASH)           ; the cash goes to the creditor
        ld h, (ix+P_CASH+1)
        ld (ix+P_CASH), 0
        ld (ix+P_CASH+1), 0
        EVENT_CAUSE EVK_BANKRUPT_CASH
        ld a, (bankrupt_creditor)
        ld c, a
        ld a, (bankrupt_player)
        call event_money
        ld a, (bankrupt_creditor)
        cp NO_PLAYER
        jr z, .to_the_bank          ; Bankrupt to the Bank?
        call cash_credit
        jr .cash_done
.to_the_bank:
        call bank_gain
.cash_done:
        ld a, (ix+P_JAIL_CARDS)     ; the Get Out of Jail Free cards
        ld (ix+P_JAIL_CARDS), 0
        ld c, a
        ld a, (bankrupt_creditor)
        cp NO_PLAYER
        jr z, .cards_back           ; Bankrupt to the Bank?  (the cards go back to their packs)
        push bc
        call player_record
        ld de, P_JAIL_CARDS
        add hl, de
        pop bc
        ld a, (hl)
        or c
        ld (hl), a
        jr .property
.cards_back:
        ld a, c
        call cards_return_held
.property:
        ld b, 0                     ; each square of the bankrupt's
.square:
        push bc
        ld a, (bankrupt_player)
        inc a
        ld c, a
        ld a, b
        push bc
        call square_owner
        pop bc
        cp c
        jr nz, .next                ; Not the bankrupt's?
        ld a, (bankrupt_creditor)
        cp NO_PLAYER
        jr z, .to_bank              ; Bankrupt to the Bank?  (the square is auctioned)
        ld c, a                     ; to the creditor, mortgage and all
        ld a, (bankrupt_player)
        push bc
        push de
        ld d, b                     ; the record: the deed changes hands
        ld b, a
        ld a, EVK_DEED
        ld e, 0
        push hl
        ld hl, 0
        call event_emit
        pop hl
        pop de
        pop bc
        ld a, b
        push bc
        call property_give
        pop bc
        ld a, b
        push af
        call square_owner
        pop af
        bit SQ_MORTGAGED, c
        jr z, .next                 ; Not mortgaged?
        ld (event_square), a
        call mortgage_interest      ; the creditor pays 10 % now (A54, A57)
        EVENT_CAUSE EVK_INTEREST
        ld a, (bankrupt_creditor)
        call bank_take_upto
        jr .next
.to_bank:
        ld a, b
        push af
        call square_owner
        ld (hl), 0                  ; back to the Bank, unmortgaged
        pop af
        push af
        push ix
        call board_draw_square
        pop ix
        pop af
        call auction_run            ; the Bank auctions it to the others (A58)
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .square               ; Another square to look at?
        call bank_redraw
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; bank_take_upto - a player pays the Bank a sum, or all its cash if it has less
; Input: A = player, HL = pounds.  Output: paid.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
bank_take_upto:
        push ix
        push hl
        call player_record
        push hl
        pop ix
        pop de                      ; DE = the sum
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        or a
        sbc hl, de
        jr nc, .enough              ; Has the player the whole sum?
        ld e, (ix+P_CASH)           ; less: all it has
        ld d, (ix+P_CASH+1)
        ld hl, 0
.enough:
        ld (ix+P_CASH), l
        ld (ix+P_CASH+1), h
        ex de, hl                   ; HL = what was taken: the Bank's
        call player_of_record
        ld c, EV_BANK
        call event_money
        call bank_gain
        call bank_redraw
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; cash_credit - money from another player (already taken from it) to a player; what
; would take the cash past 65535 goes into the Bank's account instead
; Input: A = player, HL = pounds.  Output: P_CASH (at most 65535).  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
cash_credit:
        push ix
        push hl
        call player_record
        push hl
        pop ix
        pop hl
        push hl
        call cash_add               ; HL = what fitted under 65535
        ex de, hl
        pop hl
        or a
        sbc hl, de                  ; what did not fit goes to the Bank: money is conserved
        call nz, bank_gain          ; Did some not fit?  (the Bank takes it)
        pop ix
        ret

str_bank_sells_house: db " sells a house on ", 0
str_bank_sells_hotel: db " sells the hotel on ", 0
str_bank_sells_group: db " sells the buildings of the group of ", 0
str_bank_bankrupt:   db " is bankrupt!", 0
