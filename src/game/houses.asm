; =============================================================================================
; houses.asm - the H key: buying and selling houses and hotels, the Bank's building-shortage
; auctions, and the human payer's lead through raising money (sell or mortgage by cursor)
;
; Booklet part A "Houses", "Hotels", "Building shortage", "Selling property" (A38-A45) and
; part C "Houses"; the rules model is zxmonopoly.rules.estate (build, sell_building,
; sell_group_buildings, shortage_auction_needed).
;
; Buying, as the user sees it:
;   "HOUSES: B buy or S sell? (Q quits)"
;   requirements: "Who wants to build? Player's number, ENTER when all are in:" then for that
;   player "houses wanted?" and "hotels wanted?" (numbers; ENTER alone = none), again and
;   again: every player enters his order before any building is done (booklet C).
;   shortage: while the Bank has fewer houses (hotels) than two or more players want in all
;   (rules.estate.shortage_auction_needed), the Bank auctions ONE of them among those who
;   want one: a bid is the player's number then the amount (as auction.asm; a bid beyond the
;   bidder's assets voids it).  The winner places it at once with the cursor and pays his bid
;   instead of the printed cost (rules.estate.build's price); Q gives it back unsold.  When
;   an auction has no bids, or is void, or the winner gives it back, the remaining orders are
;   served in turn, first come first served.
;   development: each player with an order, from the current one on, builds one building at a
;   time with the cursor: CAPS+5/8 move, SPACE shows the deed and the set's buildings, ENTER
;   builds there (validated, refused with a message), Q ends his turn.
; Selling: "Who is selling?" then the cursor; each ENTER sells one building at half its cost,
; evenly.  A hotel goes back for four houses when the Bank has four; if not, the player is
; asked whether to sell all the group's buildings (A45; rules.estate.sell_group_buildings).
;
; Computer players (issue 11, ai.asm) build on their own turns; here, when the orders are in,
; each computer in the game orders for itself what it would build now (ai_houses_orders),
; bids in the shortage auctions for the kinds it ordered (ai_houses_bids; typing its number
; is refused: it bids for itself), places what it wins (ai_place_unit) and builds the rest of
; its order in its turn of the development (ai_houses_develop).
; =============================================================================================

HOUSES_KEY_BUY  equ 'B'
HOUSES_KEY_SELL equ 'S'
HOUSES_KEY_QUIT equ 'Q'
KEY_IN_KIND     equ 'P'             ; raising money owed to a player: pay him in property (A51)
HOUSES_MODE_ANY equ 0               ; houses_build: whichever building the site takes next
HOUSES_MODE_HOUSE equ 1             ; only a house (an auctioned house; an order of houses)
HOUSES_MODE_HOTEL equ 2             ; only a hotel
HOUSES_CH_HOTEL equ CH_HOTEL        ; a hotel in the set's summary
HOUSES_SITE_GROUPS equ GROUP_DARK_BLUE + 1      ; the colour groups (then stations, utilities)
        assert GROUP_BROWN == 0 && GROUP_STATIONS == HOUSES_SITE_GROUPS

; ---------------------------------------------------------------------------------------------
; houses_run - H: buy or sell houses and hotels (booklet C "Houses"); with no player holding a
; complete colour group it says so at once, and B or S when no one can
; Input: none.  Output: done; the lower third back to the close-up.  Corrupts: all.
; ---------------------------------------------------------------------------------------------
houses_run:
        xor a                       ; every player's: C complete groups, B those open to
        call houses_survey          ; building
        ld a, c
        or a
        ld hl, str_houses_nothing
        jp z, refuse_show           ; No complete group anywhere?  Said at once (issue 45).
        call cursor_home            ; one activity: buying or selling, with every player's part
        ld hl, str_houses_buy_or_sell
        call msg_show
.key:   call keys_wait_upper
        cp HOUSES_KEY_BUY
        jr z, .buy                  ; B: buy?
        cp HOUSES_KEY_SELL
        jr z, .sell                 ; S: sell?
        cp HOUSES_KEY_QUIT
        jr z, .done                 ; Q?  Nothing.
        cp KEY_BREAK
        jr z, .done                 ; BREAK?  Nothing.
        ld hl, str_houses_bs_keys
        call refuse_key
        jr .key
.buy:   push af
        xor a                       ; (every player's groups: the computers order too)
        call houses_survey
        pop af
        ld hl, str_houses_none_open
        inc b
        dec b
        jr z, .refused              ; Can nobody build now?
        call msg_char               ; echo the answer
        call houses_buy
        jr .done
.sell:  push af
        ld a, 1                     ; (the humans': a computer sells for itself)
        call houses_survey
        or a
        ld hl, str_houses_none_built
        jr z, .refused_af           ; Has no human a building to sell?
        pop af
        call msg_char
        call houses_sell
.done:  jp turn_lower_restore
.refused_af:
        pop af
.refused:
        call refuse_keep
        jr .key

; ---------------------------------------------------------------------------------------------
; houses_buy - every player's order first, the shortage auctions, then each player builds
; Input: none.  Output: done.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
houses_buy:
        ld hl, houses_want_houses
        ld b, MAX_PLAYERS * 2
.clear: ld (hl), 0
        inc hl
        djnz .clear
.ask:   call msg_clear
        ld hl, str_houses_who_wants
        call ask_player
        jr c, .in                   ; ENTER: are all the orders in?
        ld (houses_player), a
        call player_record
        bit PF_COMPUTER, (hl)
        jr z, .human                ; A computer?  It orders for itself: refused.
        ld hl, str_houses_computer
        call houses_refuse
        call houses_pause
        jr .ask
.human: ld a, (houses_player)       ; can he build?  (else said at once, issue 45)
        call houses_groups          ; C: his complete groups, B: those open to building
        ld a, c
        or a
        ld hl, str_houses_no_group
        jr z, .cannot               ; No complete colour group?
        ld a, b
        or a
        ld hl, str_houses_all_closed
        jr z, .cannot               ; None he may build on now (mortgaged, or hotels)?
        ld a, (houses_player)       ; (a fresh message: the question fits on the lines)
        call houses_prompt_prices   ; "1 ANNE (£50 brown, £100 pink each)"
        ld hl, str_houses_how_many_houses
        ld c, HOUSES_IN_BANK
        call houses_ask_count
        ld hl, houses_want_houses
        call houses_store_want
        ld hl, str_houses_how_many_hotels
        ld c, HOTELS_IN_BANK
        call houses_ask_count
        ld hl, houses_want_hotels
        call houses_store_want
        jr .ask
.cannot:
        push hl
        call msg_clear
        ld a, (houses_player)       ; "2 BOB has no complete colour group."
        call msg_player
        pop hl
        call msg_print
        call refuse_hold
        jp .ask
.in:    call ai_houses_orders       ; issue 11: the computers order for themselves
        call houses_shortage
        ld a, (v_current)           ; development: from the current player on
        ld (houses_turn), a
        ld a, (v_num_players)
        ld (houses_count), a
.each:  ld a, (houses_turn)
        call houses_develop
        ld a, (houses_turn)
        inc a
        ld hl, v_num_players
        cp (hl)
        jr c, .store                ; Past the last player?  Back to player 0.
        xor a
.store: ld (houses_turn), a
        ld hl, houses_count
        dec (hl)
        jr nz, .each                ; Has everyone had his turn?
        ret

; ---------------------------------------------------------------------------------------------
; houses_store_want - store an order: array[houses_player] = A
; Input: A = count, HL = houses_want_houses or houses_want_hotels.  Output: stored.
; Corrupts: DE, HL.
; ---------------------------------------------------------------------------------------------
houses_store_want:
        push af
        ld a, (houses_player)
        ld e, a
        ld d, 0
        add hl, de
        pop af
        ld (hl), a
        ret

; ---------------------------------------------------------------------------------------------
; houses_want_address - the address of a player's order of houses, or of hotels
; Input: A = player, C = HOUSES_MODE_HOUSE or HOUSES_MODE_HOTEL.  Output: HL.  Corrupts: F, DE.
; ---------------------------------------------------------------------------------------------
houses_want_address:
        ld e, a
        ld d, 0
        ld hl, houses_want_houses
        add hl, de
        ld a, c
        cp HOUSES_MODE_HOTEL
        ld a, e
        ret nz                      ; Houses?  (else the hotels, MAX_PLAYERS on)
        ld e, MAX_PLAYERS
        add hl, de
        ret

; ---------------------------------------------------------------------------------------------
; houses_ask_count - ask for a count; ENTER alone is none; more than a limit is the limit
; Input: HL = question, C = the limit.  Output: A = count.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_ask_count:
        push bc
        call ask_number
        pop bc
        jr nc, .typed               ; ENTER alone?  None.
        ld hl, 0
.typed: ld a, h
        or a
        jr nz, .limit               ; Over 255?  The limit.
        ld a, l
        cp c
        ret c                       ; Below the limit?
        ret z                       ; The limit itself?
.limit: ld a, c
        ret

; ---------------------------------------------------------------------------------------------
; houses_develop - a player builds his order one building at a time with the cursor
; Input: A = player.  Output: done when the order is built or Q.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
houses_develop:
        ld (houses_dev_player), a
        call player_record          ; issue 11: a computer builds its order by itself
        bit PF_COMPUTER, (hl)
        ld a, (houses_dev_player)
        jp nz, ai_houses_develop    ; A computer?  It builds its order by itself.
.next:  ld a, (houses_dev_player)
        ld c, HOUSES_MODE_HOUSE
        call houses_want_address
        ld b, (hl)                  ; B = houses still wanted
        ld a, (houses_dev_player)
        ld c, HOUSES_MODE_HOTEL
        call houses_want_address
        ld c, (hl)                  ; C = hotels still wanted
        ld a, b
        or c
        ret z                       ; Is the order all built?
        call houses_order_mode
        ld (houses_mode), a
        push bc
        ld a, (houses_dev_player)
        call msg_show_player
        ld hl, str_houses_build
        call msg_print
        pop bc
        push bc
        ld l, b
        ld h, 0
        call msg_number
        ld hl, str_houses_houses_and
        call msg_print
        pop bc
        ld l, c
        ld h, 0
        call msg_number
        ld hl, str_houses_build_help
        call msg_print
        ld hl, houses_details
        call cursor_select
        ret c                       ; Q?  His turn ends.
        ld c, a
        ld a, (houses_mode)
        ld b, a
        ld a, (houses_dev_player)
        ld hl, 0
        call houses_build
        jr c, .pause                ; Refused?  (the message says why)
        ld c, HOUSES_MODE_HOUSE     ; one fewer of what was built
        ld a, (houses_level)
        cp SQ_HOTEL
        jr nz, .less                ; A hotel built?  One hotel fewer, else one house.
        ld c, HOUSES_MODE_HOTEL
.less:  ld a, (houses_dev_player)
        call houses_want_address
        dec (hl)
.pause: call houses_pause
        jr .next

; ---------------------------------------------------------------------------------------------
; houses_pause - a pause to read a message; a key typed meanwhile is kept for the question
; that follows (the cursor's next move: issue 45) and ends the pause
; Input: none.  Output: none.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_pause:
        call keys_ahead_arm         ; (a key typed while it is read goes to the next question)
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; houses_refuse - show why something is refused, with the low tone
; Input: HL = message.  Output: carry set.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_refuse:
        call refuse_show            ; readable even in a computer's fast turn (issue 28)
        scf
        ret

; ---------------------------------------------------------------------------------------------
; houses_group_scan - the state of a square's colour group
; Input: A = a square of a group.  Output: houses_min, houses_max (levels 0-5),
; houses_mortgaged (1: a site is mortgaged), houses_common_owner (owner + 1 of every site,
; 0 if not all one player's).  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_group_scan:
        call group_record           ; HL = count, then the squares
        ld b, (hl)
        ld a, SQ_HOTEL
        ld (houses_min), a
        xor a
        ld (houses_max), a
        ld (houses_mortgaged), a
        ld a, 0xFF                  ; no site seen yet
        ld (houses_common_owner), a
.site:  inc hl
        push hl
        push bc
        ld a, (hl)
        call property_level         ; A = level, C = the square byte
        ld hl, houses_min
        cp (hl)
        jr nc, .not_min             ; Less built-up than any so far?
        ld (hl), a
.not_min:
        ld hl, houses_max
        cp (hl)
        jr c, .not_max              ; As built-up as any so far, or more?
        ld (hl), a
.not_max:
        bit SQ_MORTGAGED, c
        jr z, .owner                ; Is this site mortgaged?
        ld a, 1
        ld (houses_mortgaged), a
.owner: ld a, c
        and SQ_OWNER_MASK
        ld hl, houses_common_owner
        ld c, (hl)
        inc c
        jr z, .store                ; The first site (0xFF)?  It sets the owner.
        dec c
        cp c
        jr z, .same                 ; The same owner as the sites before?  (else 0: two owners)
        xor a                       ; two owners: not one player's group
.store: ld (hl), a
.same:  pop bc
        pop hl
        djnz .site
        ret

; ---------------------------------------------------------------------------------------------
; houses_build - build the next building on a site after validation (A38-A44): the whole
; colour group the player's, none of it mortgaged, evenly, at most four houses then one
; hotel (the four houses back to the Bank), the Bank's stock, the cash
; Input: A = player, C = square, B = HOUSES_MODE_*, HL = the price (0: the printed cost).
; Output: carry clear: built, paid to the Bank, shown and drawn; houses_level = the new level
; (SQ_HOTEL for a hotel).  Carry set: refused, the reason shown.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_build:
        ld (houses_player), a
        ld a, c
        ld (houses_square), a
        ld a, b
        ld (houses_mode), a
        ld (houses_price), hl
        ld a, h                     ; the record's cause: a price given is a shortage
        or l                        ; auction's bid, else the printed cost
        ld a, EVK_BUILD
        jr z, .cause                ; No price given (a plain build)?
        ld a, EVK_SHORTAGE
.cause: ld (houses_cause), a
        ld a, (houses_square)
        call board_record
        ld a, (hl)                  ; BOARD_KIND
        cp KIND_SITE
        ld hl, str_houses_not_site
        jp nz, houses_refuse        ; Is it a site at all?
        ld a, (houses_square)
        call houses_group_scan
        ld a, (houses_player)
        inc a
        ld hl, houses_common_owner
        cp (hl)
        ld hl, str_houses_not_group
        jp nz, houses_refuse        ; Is the whole group the player's?
        ld a, (houses_mortgaged)
        or a
        ld hl, str_houses_mortgaged
        jp nz, houses_refuse        ; Is any of the group mortgaged?
        ld a, (houses_square)
        call property_level
        cp SQ_HOTEL
        ld hl, str_houses_one_hotel
        jp z, houses_refuse         ; Has it a hotel already?
        ld hl, houses_min           ; evenly: only on a least built-up site
        cp (hl)
        ld hl, str_houses_evenly
        jp nz, houses_refuse        ; Evenly: is it a least built-up site of the group?
        cp HOTEL_HOUSES
        jr z, .hotel                ; Four houses on every site?  A hotel next.
        ld a, (houses_mode)
        cp HOUSES_MODE_HOTEL
        ld hl, str_houses_house_next
        jp z, houses_refuse         ; Only a hotel may be built (a hotel won or ordered)?
        ld a, (v_houses_left)
        or a
        ld hl, str_houses_no_houses
        jp z, houses_refuse         ; Has the Bank a house left?
        ld de, BOARD_HOUSE_COST
        jr .cost
.hotel: ld a, (houses_mode)         ; four on every site (min = 4): a hotel
        cp HOUSES_MODE_HOUSE
        ld hl, str_houses_hotel_next
        jp z, houses_refuse         ; Only a house may be built?
        ld a, (v_hotels_left)
        or a
        ld hl, str_houses_no_hotels
        jp z, houses_refuse         ; Has the Bank a hotel left?
        ld de, BOARD_HOTEL_COST
.cost:  ld hl, (houses_price)
        ld a, h
        or l
        jr nz, .priced              ; A price given (an auction's bid)?
        ld a, (houses_square)
        push de
        call board_record
        pop de
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        ld (houses_price), hl
.priced:
        push ix
        ld a, (houses_player)
        call player_record
        push hl
        pop ix
        ld l, (ix+P_CASH)           ; players may not borrow: the cash must be there
        ld h, (ix+P_CASH+1)
        ld de, (houses_price)
        or a
        sbc hl, de
        jr c, .poor                 ; Can the player afford it?  (players may not borrow)
        ld a, (houses_square)       ; the record: the square, the level it will have
        ld (event_square), a
        call property_level
        inc a                       ; (four houses + 1 = SQ_HOTEL)
        assert SQ_HOTEL == HOTEL_HOUSES + 1
        ld (event_extra), a
        ld a, (houses_cause)
        ld (event_cause), a
        ld hl, (houses_price)
        call bank_pay_ix_exact
        pop ix
        ld a, (houses_square)
        call property_level         ; A = level, C = byte, HL = its address
        cp HOTEL_HOUSES
        jr z, .place_hotel          ; Four houses there: is this the hotel?
        inc a
        ld (houses_level), a
        ld a, c
        add a, 1 << SQ_BUILD_SHIFT
        ld (hl), a
        ld hl, v_houses_left
        dec (hl)
        ld hl, str_houses_builds_house
        jr .placed
.place_hotel:
        ld a, SQ_HOTEL
        ld (houses_level), a
        ld a, c
        and 0xFF - SQ_BUILD_MASK
        or SQ_HOTEL << SQ_BUILD_SHIFT
        ld (hl), a
        ld hl, v_hotels_left
        dec (hl)
        ld a, (v_houses_left)       ; the four houses go back to the Bank (A43)
        add a, HOTEL_HOUSES
        ld (v_houses_left), a
        ld hl, str_houses_builds_hotel
.placed:
        push hl
        ld a, (houses_player)
        call msg_show_player
        pop hl
        call msg_print
        ld a, (houses_square)
        call msg_square_name
        ld hl, str_msg_for
        call msg_print
        ld hl, (houses_price)
        call msg_money
        call msg_stop
        ld a, (houses_square)
        call board_draw_square
        call board_draw_players     ; the Bank's stock in the list
        call snd_beep
        or a
        ret
.poor:  pop ix
        ld hl, str_houses_no_cash
        call msg_show
        ld hl, (houses_price)
        call msg_money
        call snd_low
        scf
        ret

; ---------------------------------------------------------------------------------------------
; houses_sell_at - sell one building of a player's to the Bank at half its cost, evenly
; (A40, A45): a house from a most built-up site; a hotel back to four houses when the Bank
; has four, else (asked Y/N) all the group's buildings at half their cost
; Input: A = player, C = square.  Output: carry clear: sold, paid, shown and drawn; carry
; set: refused (the reason shown) or declined.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_sell_at:
        ld (houses_player), a
        ld a, c
        ld (houses_square), a
        call square_owner
        ld hl, houses_player
        ld b, (hl)
        inc b
        cp b
        ld hl, str_houses_none_there
        jp nz, houses_refuse        ; Is the site his?
        ld a, (houses_square)
        call property_level
        or a
        ld hl, str_houses_none_there
        jp z, houses_refuse         ; Has it a building to sell?
        ld (houses_level), a
        ld a, (houses_square)
        call houses_group_scan
        ld a, (houses_level)
        ld hl, houses_max           ; evenly: only from a most built-up site
        cp (hl)
        ld hl, str_houses_sell_evenly
        jp nz, houses_refuse        ; Evenly: is it a most built-up site of the group?
        cp SQ_HOTEL
        jr z, .hotel                ; A hotel?
        ld a, (houses_square)       ; a house
        call property_level
        ld a, c
        sub 1 << SQ_BUILD_SHIFT
        ld (hl), a
        ld hl, v_houses_left
        inc (hl)
        ld de, BOARD_HOUSE_COST
        ld hl, str_bank_sells_house
        jr .half
.hotel: ld a, (v_houses_left)
        cp HOTEL_HOUSES
        jr c, .short                ; Has the Bank four houses to put back for the hotel?
        sub HOTEL_HOUSES            ; the hotel back, four houses out again
        ld (v_houses_left), a
        ld hl, v_hotels_left
        inc (hl)
        ld a, (houses_square)
        call property_level
        ld a, c
        and 0xFF - SQ_BUILD_MASK
        or HOTEL_HOUSES << SQ_BUILD_SHIFT
        ld (hl), a
        ld de, BOARD_HOTEL_COST
        ld hl, str_bank_sells_hotel
.half:  push hl
        ld a, (houses_square)
        push de
        call board_record
        pop de
        add hl, de
        call half_word_at           ; DE = half the cost
        ld (houses_price), de
        jr .show
.short: ld hl, str_houses_group_question    ; no four houses to put back: all must go
        call msg_show
        ld hl, str_houses_group_question_b
        call ask_yn
        ccf
        ret c                       ; Declined?
        ld a, (houses_square)
        call group_clear_buildings  ; DE = half their cost; the stock; drawn
        ld (houses_price), de
        ld hl, str_bank_sells_group
        push hl
.show:  ld a, (houses_player)
        call msg_show_player
        pop hl
        call msg_print
        ld a, (houses_square)
        call msg_square_name
        ld hl, str_msg_for
        call msg_print
        ld hl, (houses_price)
        call msg_money
        call msg_stop
        ld a, (houses_square)
        call board_draw_square
        ld a, (houses_square)       ; the record: sold back, and what stands there now
        ld (event_square), a
        call property_level
        ld (event_extra), a
        EVENT_CAUSE EVK_SELL
        ld a, (houses_player)
        ld hl, (houses_price)
        call bank_receive           ; (redraws the list: cash and the Bank's stock)
        call snd_beep
        or a
        ret

; ---------------------------------------------------------------------------------------------
; houses_sell - S: a player sells buildings one at a time with the cursor until Q
; Input: none.  Output: done.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_sell:
.ask:   call msg_clear
        ld hl, str_houses_who_sells
        call ask_player
        ret c                       ; ENTER: no one sells?
        ld (houses_dev_player), a
        call player_record
        bit PF_COMPUTER, (hl)
        ld hl, str_houses_computer
        jr z, .human                ; A computer?  It sells for itself: refused.
        call houses_refuse
        jp houses_pause
.human: ld a, (houses_dev_player)
        call houses_has_buildings
        jr nz, .loop                ; A building to sell?  (else said at once)
        call msg_clear
        ld a, (houses_dev_player)   ; "2 BOB has no buildings to sell."
        call msg_player
        ld hl, str_houses_no_buildings
        call msg_print
        call refuse_hold
        jr .ask
.loop:  ld a, (houses_dev_player)
        call msg_show_player
        ld hl, str_houses_sell_help
        call msg_print
        ld hl, houses_details
        call cursor_select
        ret c                       ; Q?  Done.
        ld c, a
        ld a, (houses_dev_player)
        call houses_sell_at
        call houses_pause
        jr .loop

; ---------------------------------------------------------------------------------------------
; houses_details - the cursor's SPACE: the square's deed, and for a site its set's buildings
; on the message lines ("SET: Old Kent Road 2, Whitechapel Road 1 (ENTER chooses, Q quits)")
; Input: A = square.  Output: shown.  Corrupts: AF, BC, DE, HL (keeps IX, IY: cursor_select).
; ---------------------------------------------------------------------------------------------
houses_details:
        ld (houses_shown), a
        push ix
        push iy
        call deed_show              ; (corrupts IX)
        pop iy
        pop ix
        ld a, (houses_shown)
        call board_record
        ld a, (hl)
        cp KIND_SITE
        ret nz                      ; Not a site?  The deed alone.
        ld hl, str_houses_set
        call msg_show
        ld a, (houses_shown)
        call group_record
        ld b, (hl)
.site:  inc hl
        push bc
        push hl
        ld a, (hl)
        push af
        call msg_square_name
        ld a, ' '
        call msg_char
        pop af
        call property_level
        cp SQ_HOTEL
        jr z, .hotel                ; A hotel?  (else 0-4 houses)
        add a, '0'
        jr .level
.hotel: ld a, HOUSES_CH_HOTEL
.level: call msg_char
        pop hl
        pop bc
        ld a, b
        dec a
        jr z, .last                 ; The group's last site?  No comma after it.
        push bc
        push hl
        ld hl, str_houses_comma
        call msg_print
        pop hl
        pop bc
.last:  djnz .site
        ld hl, str_houses_set_cue   ; (the cursor still waits: say so)
        jp msg_print

; ---------------------------------------------------------------------------------------------
; houses_shortage - the Bank's building-shortage auctions (A44; booklet C "Auctioning"):
; houses first, then hotels, one at a time while rules.estate.shortage_auction_needed holds
; Input: the orders.  Output: auctioned units built and paid; orders reduced.
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
houses_shortage:
        ld a, HOUSES_MODE_HOUSE
        call .kind
        ld a, HOUSES_MODE_HOTEL
.kind:  ld (houses_unit_mode), a
.again: call houses_shortage_needed
        ret nc                      ; Is an auction needed (still short)?
        call houses_auction
        jr nc, .again               ; Sold?  Perhaps another auction.
        ret                         ; (no sale: the orders are served in turn)

; ---------------------------------------------------------------------------------------------
; houses_shortage_needed - whether two or more players want more of a kind than the Bank has
; (and it has some: with none, they must wait - A44)
; Input: houses_unit_mode.  Output: carry set if an auction is needed.  Corrupts: AF, BC, DE,
; HL.
; ---------------------------------------------------------------------------------------------
houses_shortage_needed:
        ld a, (houses_unit_mode)
        cp HOUSES_MODE_HOTEL
        ld hl, houses_want_houses
        ld a, (v_houses_left)
        jr nz, .stock               ; Hotels?  (else houses)
        ld hl, houses_want_hotels
        ld a, (v_hotels_left)
.stock: or a
        ret z                       ; Has the Bank none at all?  They must wait (carry clear).
        ld c, a                     ; C = the stock
        ld a, (v_num_players)
        ld b, a
        ld de, 0                    ; D = all wanted (at most 6 x 32), E = players wanting
.player:
        ld a, (hl)
        or a
        jr z, .none                 ; Does this player want some?
        inc e
        add a, d
        ld d, a
.none:  inc hl
        djnz .player
        ld a, e
        cp 2
        jr c, .no                   ; Do two or more players want some?
        ld a, c
        cp d                        ; Is the stock less than all wanted?  (carry)
        ret
.no:    or a
        ret

; ---------------------------------------------------------------------------------------------
; houses_auction - the Bank auctions one house or hotel among the players who ordered one;
; the winner places it at once with the cursor, paying his bid (Q: no sale)
; Input: houses_unit_mode.  Output: carry clear: sold and built; carry set: no bids, void, or
; given back.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
houses_auction:
        ld hl, 0
        ld (houses_high), hl
        ld a, NO_PLAYER
        ld (houses_bidder), a
        ld hl, str_houses_shortage
        call msg_show
        call houses_print_unit
        call snd_beep
        ld b, AUCTION_PAUSE
        call pause
.round: call ai_houses_bids         ; issue 11: the computers that ordered one bid first
        push af                     ; (carry: one raised); with no human bidding, the
        call ai_houses_humans_bidding   ; auction closes when no computer raises
        jr nz, .humans              ; Is a human bidding too?
        pop af
        jr c, .round                ; Did a computer raise?  Another round; else it closes.
        jp .close
.humans:
        pop af
.ask:   call houses_auction_status
        ld hl, str_auction_bidder
        call ask_player
        jp c, .close                ; ENTER?  The bidding closes.
        ld (houses_who), a
        call player_record          ; issue 11: a computer bids for itself
        bit PF_COMPUTER, (hl)
        jr z, .human_bidder         ; A computer?  It bids for itself: refused, saying why.
        ld a, (houses_who)
        call auction_refuse_computer
        jr .ask
.human_bidder:
        ld a, (houses_who)
        call houses_wants_unit
        jr nz, .amount              ; Did he order one of these?
        ld hl, str_houses_not_bidder
.refused:
        call houses_refuse
        ld b, AUCTION_PAUSE
        call pause
        jr .ask
.amount:
        ld hl, str_auction_bid
        call ask_number
        jr c, .ask                  ; ENTER alone?  No bid.
        ld (houses_offer), hl
        ld de, (houses_high)
        or a
        sbc hl, de
        jr z, .too_low              ; Is it no more than the highest bid?
        jr c, .too_low              ; Below it?
        ld a, (houses_who)          ; within the bidder's assets?
        call auction_assets
        ld de, (houses_offer)
        or a
        sbc hl, de
        jr c, .void                 ; Is it beyond his assets?  The auction is void.
        ld hl, (houses_offer)
        ld (houses_high), hl
        ld a, (houses_who)
        ld (houses_bidder), a
        jp .round                   ; (the computers may answer it)
.too_low:
        ld hl, str_auction_too_low
        call msg_show
        ld hl, (houses_high)
        call msg_money
        call snd_low
        ld b, AUCTION_PAUSE
        call pause
        jr .ask
.void:  call auction_show_void       ; (readable at either speed)
        scf
        ret
.close: ld a, (houses_bidder)
        cp NO_PLAYER
        jr nz, .sold                ; Is there a bid?
        ld hl, str_houses_no_bids
.unsold:
        call houses_refuse
        ld b, AUCTION_PAUSE
        call pause
        scf
        ret
.sold:  ld hl, str_auction_gone
        call msg_show
        ld a, (houses_bidder)
        call msg_player
        ld hl, str_msg_for
        call msg_print
        ld hl, (houses_high)
        call msg_money
        call msg_stop
        call auction_gavel
        ld b, AUCTION_PAUSE
        call pause
.place: ld a, (houses_bidder)       ; issue 11: a computer places it by itself
        call player_record
        bit PF_COMPUTER, (hl)
        jr z, .human_place          ; A computer?  It places it by itself.
        call ai_place_unit          ; carry: nowhere to put it
        jr c, .given_back           ; Nowhere for it to go?
        ld c, a
        ld a, (houses_unit_mode)
        ld b, a
        ld a, (houses_bidder)
        ld hl, (houses_high)
        call houses_build
        jr nc, .placed              ; Built?
        jr .given_back
.human_place:
        ld a, (houses_bidder)
        call msg_show_player
        ld hl, str_houses_place
        call msg_print
        call houses_print_unit
        ld hl, str_houses_place_help
        call msg_print
        ld hl, houses_details
        call cursor_select
        jr c, .given_back           ; Q?  Given back.
        ld c, a
        ld a, (houses_unit_mode)
        ld b, a
        ld a, (houses_bidder)
        ld hl, (houses_high)
        call houses_build
        jr nc, .placed              ; Built?  (else the reason is shown: again)
        call houses_pause
        jr .place
.given_back:
        ld hl, str_houses_given_back
        jp .unsold
.placed:
        ld a, (houses_unit_mode)
        ld c, a
        ld a, (houses_bidder)
        call houses_want_address
        dec (hl)
        call houses_pause
        or a
        ret

; ---------------------------------------------------------------------------------------------
; houses_auction_status - the unit auctioned, the highest bid and bidder, the question
; Input: none.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_auction_status:
        ld hl, str_auction_auction
        call msg_show
        call houses_print_unit
        ld a, (houses_bidder)
        cp NO_PLAYER
        ld hl, str_auction_no_bid_yet
        jr z, .print                ; No bid yet?
        ld hl, str_auction_high
        call msg_print
        ld hl, (houses_high)
        call msg_money
        ld hl, str_auction_by
        call msg_print
        ld a, (houses_bidder)
        call msg_player
        ld hl, str_auction_stop
.print: jp msg_print

; ---------------------------------------------------------------------------------------------
; houses_print_unit - "a house" or "a hotel" (houses_unit_mode) at the message position
; Input: none.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_print_unit:
        ld a, (houses_unit_mode)
        cp HOUSES_MODE_HOTEL
        ld hl, str_houses_a_house
        jr nz, .print               ; A hotel?  (else a house)
        ld hl, str_houses_a_hotel
.print: jp msg_print

; ---------------------------------------------------------------------------------------------
; houses_wants_unit - whether a player ordered one of the kind auctioned
; Input: A = player.  Output: NZ if so.  Corrupts: AF, C, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_wants_unit:
        ld c, a
        ld a, (houses_unit_mode)
        ld e, a
        ld a, c
        ld c, e
        call houses_want_address
        ld a, (hl)
        or a
        ret

; ---------------------------------------------------------------------------------------------
; houses_order_mode - what a part-built order still allows: either building, only a hotel
; (no houses left in it) or only a house (no hotels left in it)
; Input: B = houses still ordered, C = hotels still ordered (not both 0).
; Output: A = HOUSES_MODE_ANY, HOUSES_MODE_HOTEL or HOUSES_MODE_HOUSE.  Corrupts: F.
; ---------------------------------------------------------------------------------------------
houses_order_mode:
        ld a, b
        or a
        ld a, HOUSES_MODE_HOTEL
        ret z                       ; No houses left in the order?  Only a hotel.
        ld a, c
        or a
        ld a, HOUSES_MODE_HOUSE
        ret z                       ; No hotels left in it?  Only a house.
        ld a, HOUSES_MODE_ANY
        ret

; ---------------------------------------------------------------------------------------------
; houses_raise_human - a human payer short of cash is led through raising it: what he owes
; and his cash are shown; with the cursor he picks a site to sell a building on (evenly) or a
; property to mortgage (no buildings on it), until the cash is there or nothing is left; Q lets
; the computer choose the rest (bank_raise).  Owing a player, he may also press P to offer
; the property under the cursor in part payment (A51, booklet A "Miscellaneous":
; trade_in_kind); what the creditor accepts comes off the debt.  bank_pay calls it for human
; payers.
; Input: A = player, HL = the cash wanted (bank_amount), bank_creditor.  Output: carry clear
; if the cash is there, set if everything is sold and mortgaged and it is still short;
; bank_amount less what was paid in property.  Corrupts: AF, BC, DE, HL (keeps IX, IY).
; ---------------------------------------------------------------------------------------------
houses_raise_human:
        call cursor_home            ; one activity: every sale and mortgage of the raising
        push ix
        ld (houses_raise_player), a
        ld (houses_raise_target), hl
        call player_record
        push hl
        pop ix
.loop:  ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        ld de, (houses_raise_target)
        or a
        sbc hl, de
        jp nc, .done                ; Is the cash there (carry clear)?
        ld a, (houses_raise_player) ; anything left to sell or mortgage?
        call worth_mortgage_value
        ld a, h
        or l
        scf
        jp z, .done                 ; Is anything left to sell or mortgage?  (else carry set)
        ld a, (houses_raise_player)
        call msg_show_player
        ld hl, str_houses_raise_owes
        call msg_print
        ld a, (bank_creditor)       ; owed to a player: who
        cp NO_PLAYER
        jr z, .sum                  ; Owed to a player?  His name.
        call msg_player
        ld a, ' '
        call msg_char
.sum:   ld hl, (houses_raise_target)
        call msg_money
        ld hl, str_houses_raise_has
        call msg_print
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        call msg_money
        call msg_stop
        ld hl, str_houses_raise_help
        ld a, (bank_creditor)
        cp NO_PLAYER
        jr z, .help                 ; Owed to a player?  P offers him the property (A51).
        ld a, KEY_IN_KIND           ; owed to a player: P offers him the property (A51)
        ld (cursor_extra_key), a
        ld hl, str_houses_raise_help_kind
.help:  call msg_print_whole        ; (the keys seen whole while he chooses)
        ld hl, houses_details
        call cursor_select
        jr c, .auto                 ; Q?  The computer chooses the rest.
        ld c, a
        ld a, b
        cp KEY_IN_KIND
        jr z, .in_kind              ; P: pay in property?  (else ENTER: sell or mortgage)
        ld a, (houses_raise_player)
        call houses_raise_at
        call houses_pause
        jr .loop
.in_kind:
        ld a, (houses_raise_player)
        push iy
        call trade_in_kind          ; HL = the value the creditor took
        pop iy
        jp c, .loop                 ; Refused (or not taken)?
        ex de, hl
        ld hl, (houses_raise_target) ; it comes off what is wanted and what is owed
        or a
        sbc hl, de
        ld (houses_raise_target), hl
        ld hl, (bank_amount)
        or a
        sbc hl, de
        ld (bank_amount), hl
        jp .loop
.auto:  ld a, (houses_raise_player)
        ld hl, (houses_raise_target)
        call bank_raise
.done:  pop ix
        ret

; ---------------------------------------------------------------------------------------------
; houses_raise_at - raise money on one square of a player's: sell a building there, or, when
; it has none, mortgage it
; Input: A = player, C = square.  Output: carry clear if money was raised, set if refused
; (the reason shown).  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_raise_at:
        ld (houses_player), a
        ld a, c
        ld (houses_square), a
        call square_owner           ; A = owner + 1, C = the byte
        ld hl, houses_player
        ld b, (hl)
        inc b
        cp b
        ld hl, str_houses_not_yours
        jp nz, houses_refuse        ; Is it the payer's?
        ld a, (houses_square)
        call property_level
        or a
        jr z, .mortgage             ; A building there?  Sell it; else mortgage the square.
        ld a, (houses_square)
        ld c, a
        ld a, (houses_player)
        jp houses_sell_at
.mortgage:
        bit SQ_MORTGAGED, c         ; (a bare site may be mortgaged: A52, rules.estate)
        ld hl, str_houses_already_mortgaged
        jp nz, houses_refuse        ; Is it mortgaged already?
        ld a, (houses_square)
        call mortgage_take
        or a
        ret

; ---------------------------------------------------------------------------------------------
; houses_groups - a player's complete colour groups, and those he may build on now (none of
; the group mortgaged, not every site a hotel)
; Input: A = player.  Output: C = complete groups, B = open groups (bit n: group n, GROUP_*).
; Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_groups:
        inc a
        ld (houses_groups_owner), a
        xor a
        ld (houses_groups_complete), a
        ld (houses_groups_open), a
        ld c, GROUP_BROWN
.group: push bc
        ld a, c
        call houses_group_first
        call houses_group_scan
        pop bc
        ld a, (houses_groups_owner)
        ld hl, houses_common_owner
        cp (hl)
        jr nz, .next                ; Not all his?
        ld a, c
        call houses_bit
        ld hl, houses_groups_complete
        or (hl)
        ld (hl), a
        ld a, (houses_mortgaged)
        or a
        jr nz, .next                ; A site of it mortgaged?
        ld a, (houses_min)
        cp SQ_HOTEL
        jr z, .next                 ; A hotel on every site?
        ld a, c
        call houses_bit
        ld hl, houses_groups_open
        or (hl)
        ld (hl), a
.next:  inc c
        ld a, c
        cp HOUSES_SITE_GROUPS
        jr c, .group                ; Another group of sites?
        ld a, (houses_groups_complete)
        ld c, a
        ld a, (houses_groups_open)
        ld b, a
        ret

; ---------------------------------------------------------------------------------------------
; houses_group_first - the first square of a colour group
; Input: A = group.  Output: A = square, HL = the group's record.  Corrupts: F, DE.
; ---------------------------------------------------------------------------------------------
houses_group_first:
        ld l, a
        ld h, 0
        ld d, h
        ld e, l
        add hl, hl
        add hl, hl
        add hl, de                  ; group * GROUP_RECORD
        assert GROUP_RECORD == 5
        ld de, board_groups
        add hl, de
        inc hl
        ld a, (hl)
        dec hl
        ret

; ---------------------------------------------------------------------------------------------
; houses_bit - a bit mask
; Input: A = bit 0..7.  Output: A = 1 << bit.  Corrupts: F.
; ---------------------------------------------------------------------------------------------
houses_bit:
        push bc
        ld b, a
        inc b
        ld a, 0x80
.bit:   rlca
        djnz .bit
        pop bc
        ret

; ---------------------------------------------------------------------------------------------
; houses_has_buildings - whether a player has a house or hotel anywhere
; Input: A = player.  Output: NZ if he has.  Corrupts: AF, B, E, HL.
; ---------------------------------------------------------------------------------------------
houses_has_buildings:
        inc a
        ld e, a                     ; E = owner + 1
        ld hl, v_squares
        ld b, BOARD_SQUARES
.square:
        ld a, (hl)
        and SQ_OWNER_MASK
        cp e
        jr nz, .next                ; Not his?
        ld a, (hl)
        and SQ_BUILD_MASK
        ret nz                      ; Built on?
.next:  inc hl
        djnz .square
        xor a
        ret
        assert SQ_OWNER_MASK == 7   ; (the owner + 1 in the square byte's low bits)

; ---------------------------------------------------------------------------------------------
; houses_survey - what the players in the game (or only the human ones) could do with H
; Input: A = 0 for every player, 1 for the humans only.  Output: C = the groups complete for
; one of them, B = those open to building, A = 0 if none of them has a building (else not 0),
; flags as A.  Corrupts: DE, HL.
; ---------------------------------------------------------------------------------------------
houses_survey:
        ld (houses_survey_humans), a
        xor a
        ld (houses_survey_complete), a
        ld (houses_survey_open), a
        ld (houses_survey_built), a
        ld (houses_survey_player), a
.player:
        ld a, (houses_survey_player)
        call player_record
        bit PF_PLAYING, (hl)        ; (P_FLAGS is the record's first byte)
        jr z, .next                 ; Out of the game?
        bit PF_COMPUTER, (hl)
        jr z, .counted              ; A human?
        ld a, (houses_survey_humans)
        or a
        jr nz, .next                ; A computer, and only humans count?
.counted:
        ld a, (houses_survey_player)
        call houses_groups
        ld a, (houses_survey_complete)
        or c
        ld (houses_survey_complete), a
        ld a, (houses_survey_open)
        or b
        ld (houses_survey_open), a
        ld a, (houses_survey_player)
        call houses_has_buildings
        jr z, .next                 ; No building of his?
        ld (houses_survey_built), a
.next:  ld hl, houses_survey_player
        inc (hl)
        ld a, (v_num_players)
        cp (hl)
        jr nz, .player              ; Another player?
        ld a, (houses_survey_complete)
        ld c, a
        ld a, (houses_survey_open)
        ld b, a
        ld a, (houses_survey_built)
        or a
        ret

; ---------------------------------------------------------------------------------------------
; houses_prompt_prices - a fresh message: the player and what a building costs on each group he
; may build on: "1 ANNE (£50 brown, £100 pink each)"
; Input: A = player, B = his open groups (houses_groups).  Output: printed.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
houses_prompt_prices:
        push bc
        call msg_show_player
        ld hl, str_houses_open_paren
        call msg_print
        pop bc
        ld c, GROUP_BROWN           ; C = group, B = the groups left to name
.group: srl b
        jr nc, .next                ; Not open to him?
        push bc
        ld a, c
        call houses_group_first     ; the first site's cost: the group's
        call board_record
        ld de, BOARD_HOUSE_COST
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        call msg_money
        ld a, ' '
        call msg_char
        pop bc
        push bc
        ld l, c
        ld h, 0
        add hl, hl
        ld de, houses_group_names
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        call msg_print
        pop bc
        ld a, b
        or a
        jr z, .next                 ; The last one?  No comma after it.
        push bc
        ld hl, str_houses_comma
        call msg_print
        pop bc
.next:  inc c
        ld a, b
        or a
        jr nz, .group               ; More to name?
        ld hl, str_houses_each
        jp msg_print

; The colour groups' names, GROUP_* order.
houses_group_names:
        dw str_houses_brown, str_houses_light_blue, str_houses_pink, str_houses_orange
        dw str_houses_red, str_houses_yellow, str_houses_green, str_houses_dark_blue
        assert ($ - houses_group_names) / 2 == HOUSES_SITE_GROUPS
str_houses_brown:    db "brown", 0
str_houses_light_blue: db "light blue", 0
str_houses_pink:     db "pink", 0
str_houses_orange:   db "orange", 0
str_houses_red:      db "red", 0
str_houses_yellow:   db "yellow", 0
str_houses_green:    db "green", 0
str_houses_dark_blue: db "dark blue", 0

; ---------------------------------------------------------------------------------------------
; Strings
; ---------------------------------------------------------------------------------------------
str_houses_buy_or_sell: db "HOUSES: B buy or S sell (Q quits)? ", 0
str_houses_who_wants: db "HOUSES: who wants to build? Player's number, ENTER when all are in: ", 0
str_houses_computer: db "A computer player builds for itself.", 0
str_houses_nothing:  db "No player has a complete colour group: no houses to buy or sell.", 0
str_houses_bs_keys:  db "B buys, S sells, Q quits.", 0
str_houses_none_open: db "Nobody can build now: each complete group has a mortgage or hotels.", 0
str_houses_none_built: db "No human player has a house or hotel to sell.", 0
str_houses_no_group: db " has no complete colour group to build on.", 0
str_houses_all_closed: db " cannot build now: his groups have a mortgage or hotels.", 0
str_houses_no_buildings: db " has no houses or hotels to sell.", 0
str_houses_open_paren: db " (", 0
str_houses_each:     db " each)", 0
str_houses_set_cue:  db " (ENTER chooses, Q quits)", 0
str_houses_how_many_houses: db ": houses wanted? ", 0
str_houses_how_many_hotels: db " hotels wanted? ", 0
str_houses_build:    db ": build ", 0
str_houses_houses_and: db " house(s), ", 0
str_houses_build_help: db " hotel(s). CAPS+5/8 move, SPACE set, ENTER build, Q done.", 0
str_houses_not_site: db "Houses go only on building sites.", 0
str_houses_not_group: db "Houses go only on a complete colour group of the builder's.", 0
str_houses_mortgaged: db "No building while a site of the group is mortgaged.", 0
str_houses_one_hotel: db "Only one hotel on a site.", 0
str_houses_evenly:   db "Build evenly: every site of the group first.", 0
str_houses_house_next: db "A house goes there next, not a hotel.", 0
str_houses_hotel_next: db "A hotel goes there next, not a house.", 0
str_houses_no_houses: db "The Bank has no houses left: wait for some to come back.", 0
str_houses_no_hotels: db "The Bank has no hotels left: wait for one to come back.", 0
str_houses_no_cash:  db "Not enough cash: it costs ", 0
str_houses_builds_house: db " builds a house on ", 0
str_houses_builds_hotel: db " builds a hotel on ", 0
str_houses_none_there: db "None of that player's buildings stand there.", 0
str_houses_sell_evenly: db "Sell evenly: from the most built-up sites first.", 0
str_houses_group_question: db "The Bank has not four houses to put back for the hotel.", 0
str_houses_group_question_b: db " Sell all the group's buildings?", 0
str_houses_who_sells: db "HOUSES: who is selling? Player's number (ENTER: nobody): ", 0
str_houses_sell_help: db ": sell. CAPS+5/8 move, SPACE set, ENTER sell one there, Q done.", 0
str_houses_set:      db "SET: ", 0
str_houses_comma:    db ", ", 0
str_houses_shortage: db "Too few in the Bank for every order: the Bank auctions ", 0
str_houses_a_house:  db "a house", 0
str_houses_a_hotel:  db "a hotel", 0
str_houses_not_bidder: db "Only players who ordered one may bid.", 0
str_houses_no_bids:  db "No sale: the orders are served in turn.", 0
str_houses_place:    db ": place ", 0
str_houses_place_help: db ". CAPS+5/8 move, SPACE set, ENTER build, Q give it back.", 0
str_houses_given_back: db "Given back: no sale.", 0
str_houses_raise_owes: db " owes ", 0
str_houses_raise_has: db ", has ", 0
str_houses_raise_help: db " ENTER: sell a building or mortgage there. Q: the computer chooses.", 0
str_houses_raise_help_kind: db " ENTER: sell/mortgage. P: pay in property. Q: the computer chooses.", 0
str_houses_not_yours: db "That is not the payer's.", 0
str_houses_already_mortgaged: db "It is mortgaged already.", 0
