; =============================================================================================
; ai.asm - the computer players' decisions, one judgement weighted by personalities
;
; Each personality (P_PERSONALITY) is a row of ai_personalities: the cash it keeps in
; reserve, how far above the printed price it bids (more for a property that completes one
; of its colour groups), how long into the game it pays its way out of jail, how early (the
; cash it keeps when building) and how high it builds, how readily it accepts a trade and
; how much it offers in one of its own.  docs/game.md has the table.  Rows 0-5 are the
; original's six personalities, allocated at random by the setup; row 6, PERS_BUYER, is a
; baseline for measurement (the tournament) that buys everything it can and nothing else.
; Computer players always keep to the rules: they only make moves the human players could
; make, through the same routines (houses_build, trade_transfer, mortgage_toggle...).
;
; On its turn, before it throws (ai_before_throw), a computer player may propose one trade
; that completes a colour group of its (ai_trade_propose), lifts a mortgage, and builds
; (ai_build).  In the Bank's building-shortage auctions (houses.asm) it orders buildings for
; itself (ai_houses_orders), bids (ai_houses_bids), places what it wins (ai_place_unit) and
; builds its order (ai_houses_develop).  With v_speed set (F in the menu) the pauses of a
; computer's turn are shortened (ai_pause_frames).
; =============================================================================================

; ai_personalities record fields
AI_RESERVE      equ 0               ; word: cash kept back when buying or bidding
AI_BID_PERCENT  equ 2               ; the most it bids, in percent of the printed price
AI_JAIL_TURNS   equ 3               ; pays to leave jail while v_turns is below this
AI_TAKE_CHANCE  equ 4               ; 1: takes a Chance rather than a £10 fine
AI_BUILD_RESERVE equ 5              ; word: cash kept back when building
AI_BUILD_MAX    equ 7               ; how high it builds: houses a site 0-4, 5 (SQ_HOTEL) a
                                    ; hotel; 0 never builds
AI_SET_PERCENT  equ 8               ; the most it bids for a property that completes one of
                                    ; its colour groups (and buys it keeping no reserve), and
                                    ; for a house or hotel in a shortage auction: percent of
                                    ; the printed price / cost
AI_TRADE_MARGIN equ 9               ; trade_ai_accepts: sixteenths of what it gives that it
                                    ; wants on top (AI_NEVER_TRADES: refuses every deal)
AI_OFFER_PERCENT equ 10             ; its own proposals: offers this percent of the wanted
                                    ; property's price (0: never proposes)
AI_RECORD       equ 11
AI_NEVER_TRADES equ 0xFF

AI_MAX_BUILDS   equ 6               ; buildings a computer player puts up in one turn at most
AI_BID_STEP     equ 10              ; a computer raises the bid by this much
AI_OPENING_PERCENT equ 50           ; and opens at this percentage of the price
AI_TRADE_WAIT   equ 24              ; turns (all players') before a computer proposes again
AI_OFFER_SHIFT  equ 3               ; offers rise by 1 % of the price every 2^3 turns, so that
AI_OFFER_MAX    equ 250             ; no refusal stands for ever (at most this percent)
AI_COLLECT_TURNS equ 150            ; from this turn on, with no group to complete, it also
                                    ; buys towards one (ai_trade_target)
AI_SPEED_NORMAL equ 0               ; v_speed
AI_SPEED_FAST   equ 1
AI_FAST_SHIFT   equ 3               ; fast: a computer turn's pauses last 1/8 (at least 1 frame)
AI_KEY_SPEED    equ 'F'             ; the menu key that toggles v_speed

; personality - one row of ai_personalities: its PERS_* number, then each field by name in the
; order of the AI_* offsets above (each asserted, so a field moved in one place and not the
; other stops the assembly)
personality     macro pers, reserve, bid_percent, jail_turns, take_chance, build_reserve, build_max, set_percent, trade_margin, offer_percent
        local row
row:
        assert row - ai_personalities == pers * AI_RECORD
        dw reserve
        assert $ - row == AI_BID_PERCENT
        db bid_percent
        assert $ - row == AI_JAIL_TURNS
        db jail_turns
        assert $ - row == AI_TAKE_CHANCE
        db take_chance
        assert $ - row == AI_BUILD_RESERVE
        dw build_reserve
        assert $ - row == AI_BUILD_MAX
        db build_max
        assert $ - row == AI_SET_PERCENT
        db set_percent
        assert $ - row == AI_TRADE_MARGIN
        db trade_margin
        assert $ - row == AI_OFFER_PERCENT
        db offer_percent
        assert $ - row == AI_RECORD
        endm

; The rows, fields as the macro names them: reserve, bid %, jail turns, takes a chance,
; building reserve, builds up to, set bid %, trade margin (16ths), offer %
ai_personalities:
        ; Mean keeps its money, bids low, builds late and low, wants a third more from a deal,
        ; offers little
        personality PERS_MEAN, 200, 90, 20, 0, 400, 3, 120, 5, 110
        ; Reckless spends everything, gambles, builds hotels, takes any deal that gains,
        ; offers much
        personality PERS_RECKLESS, 0, 150, 200, 1, 0, 5, 200, 0, 150
        ; Greedy wants it all: bids high for sets, builds high, wants half as much again
        ; from a deal
        personality PERS_GREEDY, 100, 130, 60, 1, 150, 5, 180, 8, 120
        ; Steady: the middle of the road
        personality PERS_STEADY, 150, 110, 40, 0, 250, 5, 140, 2, 130
        ; Cautious keeps a big reserve, sits in jail, builds four houses at most
        personality PERS_CAUTIOUS, 300, 80, 10, 0, 500, 4, 110, 4, 115
        ; Entrepreneurial invests early and builds high, deals readily and offers most
        personality PERS_ENTERPRISING, 50, 125, 100, 1, 50, 5, 160, 1, 160
        ; Buyer (the baseline) buys all it can afford at the price, bids up to the price,
        ; never builds or trades
        personality PERS_BUYER, 0, 100, 40, 0, 0, 0, 100, AI_NEVER_TRADES, 0
        assert $ - ai_personalities == AI_PERSONALITIES * AI_RECORD

; ---------------------------------------------------------------------------------------------
; ai_params - IY = the personality record of a player
; Input: IX = player.  Output: IY.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
ai_params:
        ld a, (ix+P_PERSONALITY)
        cp AI_PERSONALITIES
        jr c, .ok                   ; A personality the table knows?
        xor a                       ; (out of range: the first row)
.ok:    ld iy, ai_personalities
        ld de, AI_RECORD
        or a
        ret z                       ; The first row?
.row:   add iy, de
        dec a
        jr nz, .row                 ; Another row to step over?
        ret

; ---------------------------------------------------------------------------------------------
; ai_index - the number of the player whose record IX points to
; Input: IX.  Output: A = 0..MAX_PLAYERS-1.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_index:
        push ix
        pop hl
        ld de, v_players
        or a
        sbc hl, de
        ld de, PLAYER_RECORD
        ld a, 0xFF
        or a
.count: inc a                       ; (inc keeps the carry of the last sbc)
        sbc hl, de
        jr nc, .count               ; Another whole record before IX?
        ret

; ---------------------------------------------------------------------------------------------
; ai_board_word - a word field of a square's board record
; Input: A = square, DE = the field (BOARD_PRICE, BOARD_HOUSE_COST...).  Output: DE.
; Corrupts: AF, HL.
; ---------------------------------------------------------------------------------------------
ai_board_word:
        push de
        call board_record
        pop de
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ret

; ---------------------------------------------------------------------------------------------
; ai_cash_after - the player's cash less a sum less its reserve
; Input: IX = player, IY = its personality, HL = the sum.  Output: carry set if that would
; leave less than the reserve.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_cash_after:
        ld e, (iy+AI_RESERVE)
        ld d, (iy+AI_RESERVE+1)
        ; continues into ai_cash_keeping

; ---------------------------------------------------------------------------------------------
; ai_cash_keeping - the player's cash less a sum less an amount kept back
; Input: IX = player, HL = the sum, DE = the amount kept.  Output: carry set if the cash
; does not cover both; else HL = what is left over.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_cash_keeping:
        add hl, de
        ret c                       ; The sum and the amount kept past 65535?  Not covered.
        ex de, hl
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        or a
        sbc hl, de
        ret

; ---------------------------------------------------------------------------------------------
; ai_completes_group - whether a site would complete one of a player's colour groups: every
; other site of its group is the player's already
; Input: A = square, C = player.  Output: carry set if so.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_completes_group:
        ld (ai_completes_group_square), a
        inc c
        ld a, c
        ld (ai_completes_group_owner), a
        ld a, (ai_completes_group_square)
        call board_record
        ld a, (hl)
        cp KIND_SITE
        jr nz, .no                  ; Not a site?  Stations and utilities complete no colour group.
        ld a, (ai_completes_group_square)
        call group_record
        ld b, (hl)
.site:  inc hl
        ld a, (ai_completes_group_square)
        cp (hl)
        jr z, .next                 ; The square itself?  (it is the one being bought)
        push hl
        push bc
        ld a, (hl)
        call square_owner
        ld hl, ai_completes_group_owner
        cp (hl)
        pop bc
        pop hl
        jr nz, .no                  ; Another owner's (or the Bank's)?  Not complete.
.next:  djnz .site                  ; Another site of the group?
        scf
        ret
.no:    or a
        ret

; ---------------------------------------------------------------------------------------------
; ai_wants_to_buy - does a computer player buy a property at its printed price?  It keeps its
; reserve, except for a property that completes one of its colour groups
; Input: IX = player, A = square.  Output: carry set for yes.  Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
ai_wants_to_buy:
        ld (ai_square), a
        call ai_params
        ld de, BOARD_PRICE
        ld a, (ai_square)
        call ai_board_word
        push de
        call ai_index
        ld c, a
        ld a, (ai_square)
        call ai_completes_group
        pop hl
        ld de, 0                    ; a set: no reserve kept
        jr c, .keep                 ; Would it complete a group?  No reserve kept.
        ld e, (iy+AI_RESERVE)
        ld d, (iy+AI_RESERVE+1)
.keep:  call ai_cash_keeping
        ccf                         ; enough left: yes
        ret

; ---------------------------------------------------------------------------------------------
; ai_auction_bid - does a computer player raise the bid, and to what?  Its limit is
; AI_BID_PERCENT of the price, AI_SET_PERCENT for a property that completes its group
; Input: A = square, C = player, HL = the highest bid so far (0: none).
; Output: carry set and HL = its bid; carry clear: it does not bid.
; Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
ai_auction_bid:
        push ix
        ld (ai_auction_bid_high), hl
        ld (ai_square), a
        ld a, c
        ld (ai_auction_bid_player), a
        call player_record
        push hl
        pop ix
        call ai_params
        ld de, BOARD_PRICE
        ld a, (ai_square)
        call ai_board_word          ; DE = the price
        ld (ai_auction_bid_price), de
        ld a, (ai_auction_bid_player)
        ld c, a
        ld a, (ai_square)
        call ai_completes_group
        ld a, (iy+AI_BID_PERCENT)   ; the most it pays: price * percent / 100
        jr nc, .percent             ; No group completed?  The usual percent.
        ld a, (iy+AI_SET_PERCENT)
.percent:
        ld de, (ai_auction_bid_price)
        call ai_percent
        ld (ai_auction_bid_limit), hl
        ld hl, (ai_auction_bid_high) ; its bid: the last one + a step, or its opening
        ld de, (ai_auction_bid_price)
        call ai_next_bid
        ld de, (ai_auction_bid_limit)
        call ai_bid_allowed         ; within its limit, keeping its reserve?
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; ai_next_bid - a computer's next bid: AI_OPENING_PERCENT of the price first, then the
; highest bid + AI_BID_STEP
; Input: HL = the highest bid so far (0: none), DE = the price.  Output: HL = the bid.
; Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
ai_next_bid:
        ld a, h
        or l
        jr nz, .raise               ; A bid already?  Raise it (else open).
        ld a, AI_OPENING_PERCENT
        jp ai_percent
.raise: ld de, AI_BID_STEP
        add hl, de
        ret

; ---------------------------------------------------------------------------------------------
; ai_bid_allowed - whether a bid is within a computer's limit and leaves its reserve
; Input: IX = player, IY = personality, HL = the bid, DE = its limit.  Output: carry set and
; HL = the bid if allowed; carry clear if not.  Corrupts: F, DE.
; ---------------------------------------------------------------------------------------------
ai_bid_allowed:
        ex de, hl
        or a
        sbc hl, de                  ; limit - bid
        ex de, hl
        jr c, .no                   ; Above its limit?
        push hl
        call ai_cash_after
        pop hl
        jr c, .no                   ; Would it leave less than its reserve?
        scf
        ret
.no:    or a
        ret

; ---------------------------------------------------------------------------------------------
; ai_percent - a percentage of a sum, as (sum / 2) * percent / 50 so that a £400 price at
; 255 % still fits 16 bits (an odd sum loses its last pound)
; Input: DE = sum (< 514), A = percent.  Output: HL = DE * A / 100.
; Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
ai_percent:
        srl d
        rr e
        ld hl, 0                    ; HL = DE * A
        ld b, 8
.mul:   add hl, hl
        rla
        jr nc, .skip                ; This bit of the percent clear?
        add hl, de
.skip:  djnz .mul                   ; Another bit?
        ld bc, 0                    ; BC = HL / 50
        ld de, 50
.div:   or a
        sbc hl, de
        jr c, .done                 ; Less than 50 left?
        inc bc
        jr .div
.done:  ld h, b
        ld l, c
        ret

; ---------------------------------------------------------------------------------------------
; ai_jail_pay - does a computer player in jail pay the £50 fine now?  Early in the game it
; pays to get round the board and buy; later, sitting in jail is safer than the board
; Input: IX = player.  Output: carry set for yes.  Corrupts: AF, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
ai_jail_pay:
        call ai_params
        ld hl, (v_turns)
        ld a, h
        or a
        ret nz                      ; 256 turns or more?  Never (carry clear).
        ld a, l
        cp (iy+AI_JAIL_TURNS)
        ret nc                      ; As late as this, or later?  It stays in.
        ld hl, JAIL_FINE
        call ai_cash_after
        ccf
        ret

; ---------------------------------------------------------------------------------------------
; ai_fine_or_chance - "pay a £10 fine or take a Chance": carry set to take the Chance
; Input: IX = player.  Output: carry.  Corrupts: AF, DE, IY.
; ---------------------------------------------------------------------------------------------
ai_fine_or_chance:
        call ai_params
        ld a, (iy+AI_TAKE_CHANCE)
        rra
        ret

; ---------------------------------------------------------------------------------------------
; ai_before_throw - what a computer player does before it throws: perhaps propose a trade
; that completes a colour group (ai_trade_propose), lift a mortgage when its cash allows it
; twice over its reserve, then build (ai_build)
; Input: IX = the current player (a computer).  Output: done.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
ai_before_throw:
        call ai_index
        ld (ai_player), a
        call ai_trade_propose
        call ai_params
        ld b, 0
.square:
        push bc
        ld a, b
        call square_owner
        ld hl, ai_player
        ld b, (hl)
        inc b
        cp b
        jr nz, .next                ; Not its own?
        bit SQ_MORTGAGED, c
        jr z, .next                 ; Not mortgaged?
        pop bc
        push bc
        ld a, b
        call mortgage_interest      ; HL = interest, DE = loan
        add hl, de
        ld e, (iy+AI_RESERVE)       ; twice the reserve must stay
        ld d, (iy+AI_RESERVE+1)
        add hl, de
        jr c, .next                 ; Twice the reserve and the lift past 65535?
        call ai_cash_after
        jr c, .next                 ; Would the lift leave less than twice its reserve?
        pop bc
        ld a, b
        call mortgage_toggle        ; lift it (one a turn)
        ld b, LAND_PAUSE
        call pause
        jr ai_build
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .square               ; Another square?
        ; continues into ai_build

; ---------------------------------------------------------------------------------------------
; ai_build - a computer player builds on its complete, unmortgaged groups, always on the
; least built-up site (so evenly), up to its personality's height, while its cash stays
; above its building reserve; at most AI_MAX_BUILDS a turn.  houses_build validates and pays.
; Input: IX = the player (a computer), ai_player its number.  Output: buildings put up.
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
ai_build:
        xor a
        ld (ai_count), a
.again: call ai_params
        ld a, HOUSES_MODE_ANY
        call ai_find_site           ; carry: A = a square to build on
        ret nc                      ; Nowhere to build?
        call ai_build_here
        ret nc                      ; Not built?  (houses_build refused)
        ld a, (ai_count)
        inc a
        ld (ai_count), a
        cp AI_MAX_BUILDS
        jr c, .again                ; Fewer than AI_MAX_BUILDS this turn?
        ret

; ---------------------------------------------------------------------------------------------
; ai_find_site - the first site (from GO) where a computer may build now and can pay the next
; building keeping its building reserve
; Input: IX = player, IY = personality, ai_player, A = HOUSES_MODE_* (what may be built).
; Output: carry set, A = square and ai_cost = the building's printed cost; carry clear: none.
; Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_find_site:
        ld (ai_find_site_mode), a
        ld b, 0
.square:
        push bc
        ld a, (ai_find_site_mode)
        ld c, a
        ld a, b
        call ai_build_check         ; carry: allowed, DE = the cost
        jr nc, .next                ; May it not build here?
        ld (ai_cost), de
        ex de, hl                   ; and the cash, keeping the building reserve?
        ld e, (iy+AI_BUILD_RESERVE)
        ld d, (iy+AI_BUILD_RESERVE+1)
        call ai_cash_keeping
        jr nc, .found               ; Does its cash cover the cost and its building reserve?
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .square               ; Another square?
        or a
        ret
.found: pop bc
        ld a, b
        scf
        ret

; ---------------------------------------------------------------------------------------------
; ai_build_check - whether a computer may put up its next building on a site now: the rules
; (its whole unmortgaged group, evenly, the Bank's stock) and its personality's height
; Input: A = square, C = HOUSES_MODE_* (what may be built), IY = personality, ai_player.
; Output: carry set if allowed: DE = the printed cost of that building, ai_level = the
; site's level before, ai_square = the square.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_build_check:
        ld (ai_square), a
        ld a, c
        ld (ai_build_check_mode), a
        ld a, (ai_square)
        call board_record
        ld a, (hl)
        cp KIND_SITE
        jr nz, .no                  ; Not a site?
        ld a, (ai_square)
        call property_level         ; A = level, C = the square byte
        ld (ai_level), a
        cp (iy+AI_BUILD_MAX)
        jr nc, .no                  ; As high as this personality builds (or a hotel)?
        ld a, (ai_player)
        inc a
        ld b, a
        ld a, c
        and SQ_OWNER_MASK
        cp b
        jr nz, .no                  ; Not its own?
        ld a, (ai_square)
        call houses_group_scan
        ld a, (ai_player)
        inc a
        ld hl, houses_common_owner
        cp (hl)
        jr nz, .no                  ; Not the whole group its own?
        ld a, (houses_mortgaged)
        or a
        jr nz, .no                  ; A mortgaged site in the group?
        ld a, (houses_min)
        ld hl, ai_level
        cp (hl)
        jr nz, .no                  ; Built up more than another site of the group?  Build evenly.
        ld a, (ai_level)
        cp MAX_HOUSES_PER_SITE
        jr nc, .hotel               ; Four houses already?  A hotel next.
        ld a, (ai_build_check_mode) ; a house next
        cp HOUSES_MODE_HOTEL
        jr z, .no                   ; Only hotels wanted?
        ld a, (v_houses_left)
        ld de, BOARD_HOUSE_COST
        jr .stock
.hotel: ld a, (ai_build_check_mode) ; a hotel next
        cp HOUSES_MODE_HOUSE
        jr z, .no                   ; Only houses wanted?
        ld a, (v_hotels_left)
        ld de, BOARD_HOTEL_COST
.stock: or a
        jr z, .no                   ; Has the Bank none?
        ld a, (ai_square)
        call ai_board_word
        scf
        ret
.no:    or a
        ret

; ---------------------------------------------------------------------------------------------
; ai_build_here - build the next building on a square checked by ai_build_check / found by
; ai_find_site, at the printed cost (houses_build validates and pays)
; Input: A = square, ai_player.  Output: carry set if built.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_build_here:
        ld c, a
        ld a, (ai_player)
        ld b, HOUSES_MODE_ANY
        ld hl, 0
        push iy
        call houses_build
        pop iy
        ccf                         ; houses_build: carry clear = built
        ret

; ---------------------------------------------------------------------------------------------
; ai_pause_frames - the fast setting: with v_speed = AI_SPEED_FAST and a computer player's
; turn, a pause lasts 1 / 2^AI_FAST_SHIFT of its frames (at least one).  Called by pause,
; pause_plain and the computer's wait before it throws.
; Input: B = frames.  Output: B = frames to wait.  Corrupts: nothing else (not even F).
; ---------------------------------------------------------------------------------------------
ai_pause_frames:
        push af
        ld a, (v_speed)
        cp AI_SPEED_FAST
        jr nz, .done                ; Normal speed?  The pause as it is.
        push hl
        push de
        ld a, (v_current)
        call player_record
        bit PF_COMPUTER, (hl)
        pop de
        pop hl
        jr z, .done                 ; A human's turn?  The usual time to read.
        ld a, b
        rept AI_FAST_SHIFT
        srl a
        endm
        or a
        jr nz, .store               ; Any frames left?  (else at least one)
        inc a                       ; at least one frame
.store: ld b, a
.done:  pop af
        ret

; ---------------------------------------------------------------------------------------------
; ai_speed_toggle - F in the menu: fast computer turns on or off (v_speed)
; Input: none.  Output: v_speed toggled and shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_speed_toggle:
        ld a, (v_speed)
        xor AI_SPEED_FAST
        ld (v_speed), a
        ld hl, str_ai_fast_on
        jr nz, .show                ; Now fast?
        ld hl, str_ai_fast_off
.show:  call msg_show
        push ix
        call board_draw_status      ; the status line's FAST marker
        pop ix
        call snd_click
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; ai_trade_propose - a computer player's own trade, at most one a turn and none again for
; AI_TRADE_WAIT turns: when one property of another player's would complete one of its
; colour groups (ai_trade_target), it offers AI_OFFER_PERCENT of that property's price in a
; lone property of its own (ai_trade_choose_give) and/or cash, keeping its reserve.  The deal
; is trade.asm's, with the owner as trade_a (giving the property wanted) and the computer as
; trade_b: a computer owner decides by trade_ai_accepts_a, a human owner answers Y/N; an
; accepted deal goes through trade_transfer (interest on mortgaged property, the lift).
; Input: IX = the player (a computer), ai_player its number.  Output: perhaps a deal done.
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
ai_trade_propose:
        call ai_params
        ld a, (iy+AI_OFFER_PERCENT)
        or a
        ret z                       ; Does it never propose?
        ld a, (ai_player)           ; not again soon: v_turns must have reached its stamp
        call ai_trade_stamp
        ld e, (hl)
        inc hl
        ld d, (hl)                  ; DE = the stamp
        ld hl, (v_turns)
        or a
        sbc hl, de
        jr nc, .may                 ; Has v_turns reached its stamp?
        ld hl, (v_turns)            ; (a stamp further off than AI_TRADE_WAIT is left from a
        ld bc, AI_TRADE_WAIT        ; longer game before: ignored)
        add hl, bc
        or a
        sbc hl, de
        ret nc                      ; A stamp further off than AI_TRADE_WAIT?  (left from a game before: ignored)
.may:   call ai_trade_target        ; carry: ai_target, ai_owner, ai_target_price
        ret nc                      ; No property it wants?
        call ai_offer_percent       ; the offer in all: price * offer %
        ld de, (ai_target_price)
        call ai_percent
        ld (ai_offer), hl
        ld a, (ai_target)           ; the cash it may pay: cash less reserve less the 10 %
        call square_owner           ; interest due on a mortgaged property received
        ld hl, 0
        bit SQ_MORTGAGED, c
        jr z, .interest             ; Not mortgaged?  No interest.
        ld a, (ai_target)
        call mortgage_interest      ; HL = the interest
.interest:
        call ai_cash_after          ; HL = what is over; carry: it could not pay the interest
        ret c                       ; Can it not pay the interest and keep its reserve?  No proposal.
        ld (ai_budget), hl
        call ai_trade_choose_give   ; ai_give (0FFh: none), ai_give_value
        ld hl, (ai_offer)           ; the cash: the offer less the property's value ...
        ld de, (ai_give_value)
        or a
        sbc hl, de
        jr nc, .cash                ; The property worth less than the offer?  Cash makes up the rest.
        ld hl, 0
.cash:  ld de, (ai_budget)          ; ... at most what it may pay
        push hl
        or a
        sbc hl, de
        pop hl
        jr c, .fits                 ; Within what it may pay?
        ex de, hl
.fits:  ld (trade_cash), hl
        ld de, (ai_give_value)      ; the whole offer must reach the printed price at least
        add hl, de
        ld de, (ai_target_price)
        or a
        sbc hl, de
        ret c                       ; Can it not offer the printed price at least?  No proposal.
        ld a, (ai_owner)            ; the deal, in trade.asm's variables
        ld (trade_a), a
        ld a, (ai_target)
        ld (trade_give), a
        ld a, (ai_player)
        ld (trade_b), a
        xor a
        ld (trade_card_a), a
        ld (trade_card_b), a
        ld (trade_take_count), a
        ld a, (ai_give)
        cp AI_NO_SQUARE
        jr z, .cash_to              ; No property offered?  Cash only.
        ld (trade_take), a
        ld a, 1
        ld (trade_take_count), a
.cash_to:
        ld hl, (trade_cash)
        ld a, h
        or l
        ld a, NO_PLAYER
        jr z, .to                   ; No cash?  Nobody receives any.
        ld a, (ai_owner)
.to:    ld (trade_cash_to), a
        ld a, (trade_a)             ; the owner must be able to pay the interest on a
        call trade_interest_due     ; mortgaged property it receives
        push hl
        ld a, (trade_a)
        call trade_cash_after
        pop de
        or a
        sbc hl, de
        ret c                       ; Could the owner not pay the interest due?  No proposal.
        ld a, (ai_player)           ; proposed: not again for AI_TRADE_WAIT turns
        call ai_trade_stamp
        push hl
        ld hl, (v_turns)
        ld de, AI_TRADE_WAIT
        add hl, de
        ex de, hl
        pop hl
        ld (hl), e
        inc hl
        ld (hl), d
        push ix
        call trade_summary          ; the deal in the lower third
        ld a, (ai_player)
        call msg_show_player
        ld hl, str_ai_offers
        call msg_print
        ld a, (ai_owner)
        call msg_player
        ld hl, str_ai_stop
        call msg_print
        call msg_hold_deal          ; the deal is read (150 frames, or until a key)
        ld a, (ai_owner)
        call msg_player
        ld a, (ai_owner)
        call player_record
        bit PF_COMPUTER, (hl)
        jr nz, .computer            ; A computer owner?  It decides by itself.
        ld hl, str_trade_agree      ; a human owner answers
        call ask_yn
        jr c, .deal                 ; Yes?
        ld hl, str_trade_refused
        call msg_show
        call snd_low
        jr .end
.computer:
        ld hl, str_ai_considers
        call msg_print
        call houses_pause
        call trade_ai_accepts_a
        push af
        ld a, (ai_owner)
        call msg_show_player
        pop af
        ld hl, str_trade_declines
        jr nc, .declined            ; Declined?
        ld hl, str_trade_accepts
        call msg_print
        call msg_hold_deal
        call houses_pause
.deal:  call trade_transfer
        ld hl, str_trade_done
        call msg_show
        call snd_beep
        jr .end
.declined:
        call msg_print
        call snd_low
.end:   call houses_pause
        call turn_lower_restore
        pop ix
        ret

AI_NO_SQUARE    equ NO_SQUARE       ; ai_give: no property offered, cash only

; ---------------------------------------------------------------------------------------------
; ai_trade_stamp - the address of a player's word in v_ai_trade_turn
; Input: A = player.  Output: HL.  Corrupts: F, DE.
; ---------------------------------------------------------------------------------------------
ai_trade_stamp:
        ld e, a
        ld d, 0
        ld hl, v_ai_trade_turn
        add hl, de
        add hl, de
        ret

; ---------------------------------------------------------------------------------------------
; ai_offer_percent - what a computer offers in its proposals: AI_OFFER_PERCENT, rising with
; the game's turns (1 % every 2^AI_OFFER_SHIFT) up to AI_OFFER_MAX: an owner who refused
; is asked again later for more, so that games where every group is split still move on
; Input: IY = personality.  Output: A = percent.  Corrupts: F, HL.
; ---------------------------------------------------------------------------------------------
ai_offer_percent:
        ld hl, (v_turns)
        rept AI_OFFER_SHIFT
        srl h
        rr l
        endm
        ld a, h
        or a
        ld a, AI_OFFER_MAX
        ret nz                      ; 2048 turns or more?  The most.
        ld a, l
        add a, (iy+AI_OFFER_PERCENT)
        jr c, .max                  ; Past 255?  The most.
        cp AI_OFFER_MAX
        ret c                       ; Below the most?
.max:   ld a, AI_OFFER_MAX
        ret

; ---------------------------------------------------------------------------------------------
; ai_trade_target - the property a computer asks for: the dearest of another player's that
; would complete one of its colour groups (every other site of the group its own); failing
; that, from turn AI_COLLECT_TURNS on, the dearest site of a group it has a share of that is
; its owner's only one there (so that groups split three ways come together in time)
; Input: ai_player.  Output: carry set: ai_target, ai_owner, ai_target_price; carry clear:
; none.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_trade_target:
        xor a                       ; first the sites that complete a group
        call .pass
        ret c                       ; Found one that completes a group?
        ld hl, (v_turns)
        ld de, AI_COLLECT_TURNS
        or a
        sbc hl, de
        ccf
        ret nc                      ; Before turn AI_COLLECT_TURNS?  None (carry clear).
        ld a, 1                     ; then the sites that collect towards one
.pass:  ld (ai_trade_target_mode), a
        ld hl, 0
        ld (ai_target_price), hl
        ld b, 0
.square:
        push bc
        ld a, b
        call square_owner
        or a
        jr z, .next                 ; The Bank's (or no property)?
        dec a
        ld hl, ai_player
        cp (hl)
        jr z, .next                 ; Its own?
        ld (ai_trade_target_owner), a
        pop bc
        push bc
        ld a, (ai_trade_target_mode)
        or a
        jr nz, .collect             ; The second pass?  Collecting towards a group.
        ld a, (ai_player)
        ld c, a
        ld a, b
        call ai_completes_group
        jr nc, .next                ; Would it not complete a group?
        jr .price
.collect:
        ld a, b                     ; a site of a group it has a share of ...
        call board_record
        ld a, (hl)
        cp KIND_SITE
        jr nz, .next                ; Not a site?
        pop bc
        push bc
        ld a, (ai_player)
        ld c, a
        ld a, b
        call ai_owned_in_group
        or a
        jr z, .next                 ; Has it no share of the group?
        pop bc
        push bc
        ld a, (ai_trade_target_owner) ; ... the owner's only one there
        ld c, a
        ld a, b
        call ai_owned_in_group
        cp 2
        jr nc, .next                ; Has the owner two or more there?
.price: pop bc
        push bc
        ld a, b
        ld de, BOARD_PRICE
        call ai_board_word          ; DE = the price
        ld hl, (ai_target_price)
        or a
        sbc hl, de
        jr nc, .next                ; Not dearer than one found?
        ld (ai_target_price), de
        pop bc
        push bc
        ld a, b
        ld (ai_target), a
        ld a, (ai_trade_target_owner)
        ld (ai_owner), a
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .square               ; Another square?
        ld hl, (ai_target_price)
        ld a, h
        or l
        ret z                       ; Nothing found?  (carry clear)
        scf
        ret

; ---------------------------------------------------------------------------------------------
; ai_trade_choose_give - the property a computer offers with its proposal: its most valuable
; lone one (the only one it holds of that group, so no group it collects or builds on is
; broken), outside the group it is completing, its group bare, worth no more than the offer
; Input: ai_player, ai_target, ai_offer.  Output: ai_give (AI_NO_SQUARE: none) and
; ai_give_value (0: none).  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_trade_choose_give:
        ld a, AI_NO_SQUARE
        ld (ai_give), a
        ld hl, 0
        ld (ai_give_value), hl
        ld a, (ai_target)
        call ai_group_of
        ld (ai_trade_choose_give_group), a
        ld b, 0
.square:
        push bc
        ld a, b
        call square_owner
        ld hl, ai_player
        ld c, (hl)
        inc c
        cp c
        jr nz, .next                ; Not its own?
        pop bc
        push bc
        ld a, b
        call ai_group_of
        ld hl, ai_trade_choose_give_group
        cp (hl)
        jr z, .next                 ; In the group it wants to complete?
        pop bc
        push bc
        ld a, b
        call group_built
        jr c, .next                 ; Buildings in its group?  No trade (A47).
        pop bc
        push bc
        ld a, (ai_player)
        ld c, a
        ld a, b
        call ai_owned_in_group
        cp 2
        jr nc, .next                ; Two or more of the group?  It collects that group: kept.
        pop bc
        push bc
        ld a, b
        call trade_value            ; DE = its value (mortgaged: half)
        ld hl, (ai_offer)
        or a
        sbc hl, de
        jr c, .next                 ; Worth more than the whole offer?
        ld hl, (ai_give_value)
        or a
        sbc hl, de
        jr nc, .next                ; Not better than one found?
        ld (ai_give_value), de
        pop bc
        push bc
        ld a, b
        ld (ai_give), a
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .square               ; Another square?
        ret

; ---------------------------------------------------------------------------------------------
; ai_group_of - a square's group (GROUP_*, GROUP_NONE for squares of no group)
; Input: A = square.  Output: A.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_group_of:
        call board_record
        inc hl                      ; BOARD_GROUP follows BOARD_KIND
        ld a, (hl)
        ret

; ---------------------------------------------------------------------------------------------
; ai_owned_in_group - how many squares of a square's group a player owns
; Input: A = square (a property), C = player.  Output: A = count.  Corrupts: F, B, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_owned_in_group:
        push af
        ld a, c
        inc a
        ld (ai_owned_in_group_owner), a
        xor a
        ld (ai_owned_in_group_count), a
        pop af
        call group_record
        ld b, (hl)
.site:  inc hl
        push hl
        push bc
        ld a, (hl)
        call square_owner
        ld hl, ai_owned_in_group_owner
        cp (hl)
        jr nz, .other               ; Not the player's?
        ld hl, ai_owned_in_group_count
        inc (hl)
.other: pop bc
        pop hl
        djnz .site                  ; Another site of the group?
        ld a, (ai_owned_in_group_count)
        ret

; ---------------------------------------------------------------------------------------------
; ai_houses_orders - H, buying: each computer player in the game orders for itself what it
; would build now (ai_order_count) in houses_want_houses / houses_want_hotels; shown
; Input: none.  Output: the computers' orders.  Corrupts: AF, B, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
ai_houses_orders:
        push ix
        ld b, 0
.player:
        ld a, (v_num_players)
        cp b
        jr z, .done                 ; Past the last player?
        push bc
        ld a, b
        call player_computer_playing
        jr nz, .next                ; Not a computer in the game?
        push hl
        pop ix
        pop bc
        push bc
        ld a, b
        ld (ai_player), a
        call ai_params
        call ai_order_count         ; D = houses, E = hotels
        ld a, (ai_player)
        ld c, HOUSES_MODE_HOUSE
        push de
        call houses_want_address
        pop de
        ld (hl), d
        ld a, (ai_player)
        ld c, HOUSES_MODE_HOTEL
        push de
        call houses_want_address
        pop de
        ld (hl), e
        ld a, d
        or e
        jr z, .next                 ; Nothing ordered?  Nothing said.
        push de                     ; "P3 orders 2 house(s) and 0 hotel(s)."
        ld a, (ai_player)
        call msg_show_player
        ld hl, str_ai_orders
        call msg_print
        pop de
        push de
        ld l, d
        ld h, 0
        call msg_number
        ld hl, str_ai_houses_and
        call msg_print
        pop de
        ld l, e
        ld h, 0
        call msg_number
        ld hl, str_ai_hotels
        call msg_print
        call houses_pause
.next:  pop bc
        inc b
        jr .player
.done:  pop ix
        ret

; ---------------------------------------------------------------------------------------------
; ai_order_count - what a computer would build now on its complete unmortgaged groups: houses
; up to its height (AI_BUILD_MAX), a hotel where a site has four and it builds hotels, while
; the printed costs leave its building reserve, AI_MAX_BUILDS at most
; Input: IX = player, IY = personality, ai_player.  Output: D = houses, E = hotels.
; Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_order_count:
        xor a
        ld (ai_order_count_houses), a
        ld (ai_order_count_hotels), a
        ld (ai_count), a
        ld hl, 0                    ; the budget: cash less the building reserve
        ld e, (iy+AI_BUILD_RESERVE)
        ld d, (iy+AI_BUILD_RESERVE+1)
        call ai_cash_keeping
        jr nc, .budget              ; Is its cash above the building reserve?  (else no budget)
        ld hl, 0
.budget:
        ld (ai_budget), hl
        ld b, 0
.square:
        push bc
        ld a, b
        ld (ai_square), a
        call board_record
        ld a, (hl)
        cp KIND_SITE
        jr nz, .next                ; Not a site?
        ld a, (ai_square)
        call property_level         ; A = level, C = the byte
        ld (ai_level), a
        ld a, (ai_player)
        inc a
        ld b, a
        ld a, c
        and SQ_OWNER_MASK
        cp b
        jr nz, .next                ; Not its own?
        ld a, (ai_square)
        call houses_group_scan
        ld a, (ai_player)
        inc a
        ld hl, houses_common_owner
        cp (hl)
        jr nz, .next                ; Not the whole group its own?
        ld a, (houses_mortgaged)
        or a
        jr nz, .next                ; A mortgaged site in the group?
        ld a, (ai_square)           ; houses: up to min(height, 4)
        ld de, BOARD_HOUSE_COST
        call ai_board_word
        ld (ai_cost), de
.house: ld a, (ai_level)
        cp MAX_HOUSES_PER_SITE
        jr nc, .hotel               ; Four houses on it?  A hotel next.
        cp (iy+AI_BUILD_MAX)
        jr nc, .next                ; As high as it builds?
        ld hl, ai_order_count_houses
        call .take                  ; carry: no more
        jr c, .next                 ; No budget left, or AI_MAX_BUILDS reached?
        ld hl, ai_level
        inc (hl)
        jr .house
.hotel: ld a, (ai_level)            ; a hotel on a site that had four already
        cp (iy+AI_BUILD_MAX)
        jr nc, .next                ; As high as it builds?  (no hotel)
        pop bc
        push bc
        ld a, b
        call property_level
        cp MAX_HOUSES_PER_SITE
        jr nz, .next                ; Not four houses on it yet?  No hotel.
        ld a, (ai_square)
        ld de, BOARD_HOTEL_COST
        call ai_board_word
        ld (ai_cost), de
        ld hl, ai_order_count_hotels
        call .take
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SQUARES
        jp c, .square               ; Another square?
        ld a, (ai_order_count_houses)
        ld d, a
        ld a, (ai_order_count_hotels)
        ld e, a
        ret
; .take - one more of (HL) if the budget and AI_MAX_BUILDS allow: carry set if not
.take:  ld a, (ai_count)
        cp AI_MAX_BUILDS
        ccf
        ret c                       ; AI_MAX_BUILDS reached?
        push hl
        ld hl, (ai_budget)
        ld de, (ai_cost)
        or a
        sbc hl, de
        pop de
        ret c                       ; Over the budget?
        ld (ai_budget), hl
        ex de, hl
        inc (hl)
        ld hl, ai_count
        inc (hl)
        or a
        ret

; ---------------------------------------------------------------------------------------------
; ai_houses_develop - houses_develop for a computer: it builds its order one building at a
; time where allowed (ai_find_site), at the printed cost, keeping its building reserve; what
; cannot be built is dropped from the order
; Input: A = player (a computer).  Output: built; its order 0.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
ai_houses_develop:
        push ix
        ld (ai_player), a
        call player_record
        push hl
        pop ix
.next:  call ai_params
        ld a, (ai_player)
        ld c, HOUSES_MODE_HOUSE
        call houses_want_address
        ld b, (hl)                  ; B = houses still ordered
        ld a, (ai_player)
        ld c, HOUSES_MODE_HOTEL
        call houses_want_address
        ld c, (hl)                  ; C = hotels still ordered
        ld a, b
        or c
        jr z, .done                 ; Is the order all built?
        call houses_order_mode
        ld (ai_houses_develop_build_mode), a
        call ai_find_site
        jr nc, .drop                ; Nowhere to build?  The rest is dropped.
        ld c, a
        ld a, (ai_houses_develop_build_mode)
        ld b, a
        ld a, (ai_player)
        ld hl, 0
        push iy
        call houses_build
        pop iy
        jr c, .drop                 ; Refused?  The rest is dropped.
        ld c, HOUSES_MODE_HOUSE     ; one fewer of what was built
        ld a, (houses_level)
        cp SQ_HOTEL
        jr nz, .less                ; A hotel built?  One hotel fewer, else one house.
        ld c, HOUSES_MODE_HOTEL
.less:  ld a, (ai_player)
        call houses_want_address
        dec (hl)
        call houses_pause
        jr .next
.drop:  ld a, (ai_player)           ; nothing more it can build: the order is done
        ld c, HOUSES_MODE_HOUSE
        call houses_want_address
        ld (hl), 0
        ld a, (ai_player)
        ld c, HOUSES_MODE_HOTEL
        call houses_want_address
        ld (hl), 0
.done:  pop ix
        ret

; ---------------------------------------------------------------------------------------------
; ai_houses_bids - a round of the shortage auction (houses_auction): each computer player in
; the game that ordered the kind auctioned and is not the highest bidder may raise; the first
; that does ends the round
; Input: houses_unit_mode, houses_high, houses_bidder.  Output: carry set if one raised
; (houses_high, houses_bidder; shown).  Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
ai_houses_bids:
        ld b, 0
.player:
        ld a, (v_num_players)
        cp b
        ret z                       ; Past the last player?  None raised (carry clear).
        push bc
        ld a, (houses_bidder)
        cp b
        jr z, .next                 ; The highest bidder already?
        ld a, b
        call player_computer_playing
        jr nz, .next                ; Not a computer in the game?
        pop bc
        push bc
        ld a, b
        call houses_wants_unit
        jr z, .next                 ; Did it not order this kind?
        pop bc
        push bc
        ld a, b
        ld hl, (houses_high)
        call ai_house_bid           ; carry and HL = its bid
        jr nc, .next                ; Does it not raise?
        ld (houses_high), hl
        pop bc
        ld a, b
        ld (houses_bidder), a
        call msg_show_player
        ld hl, str_auction_bids
        call msg_print
        ld hl, (houses_high)
        call msg_money
        call msg_stop
        ld b, AUCTION_PAUSE
        call pause
        scf
        ret
.next:  pop bc
        inc b
        jr .player

; ---------------------------------------------------------------------------------------------
; ai_house_bid - does a computer raise the bid for the house or hotel auctioned, and to what?
; Its limit is AI_SET_PERCENT of the printed cost on a site where it may put one now; the bid
; must leave its building reserve
; Input: A = player, HL = the highest bid so far (0: none), houses_unit_mode.
; Output: carry set and HL = its bid; carry clear: it does not bid.
; Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
ai_house_bid:
        push ix
        ld (ai_house_bid_high), hl
        ld (ai_player), a
        call player_record
        push hl
        pop ix
        call ai_params
        ld a, (houses_unit_mode)
        call ai_find_site           ; ai_cost = the printed cost there
        jr nc, .no                  ; Nowhere it may put one?
        ld de, (ai_cost)            ; the limit
        ld a, (iy+AI_SET_PERCENT)
        call ai_percent
        ld (ai_house_bid_limit), hl
        ld hl, (ai_house_bid_high)
        ld de, (ai_cost)
        call ai_next_bid
        ld (ai_house_bid_bid), hl
        ex de, hl                   ; within the limit?
        ld hl, (ai_house_bid_limit)
        or a
        sbc hl, de
        jr c, .no                   ; Above its limit?
        ld hl, (ai_house_bid_bid)   ; keeping the building reserve?
        ld e, (iy+AI_BUILD_RESERVE)
        ld d, (iy+AI_BUILD_RESERVE+1)
        call ai_cash_keeping
        jr c, .no                   ; Would it leave less than its building reserve?
        ld hl, (ai_house_bid_bid)
        pop ix
        scf
        ret
.no:    pop ix
        or a
        ret

; ---------------------------------------------------------------------------------------------
; ai_houses_humans_bidding - whether a human player in the game ordered the kind auctioned
; (else the shortage auction closes when no computer raises)
; Input: houses_unit_mode.  Output: NZ if one did.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_houses_humans_bidding:
        ld b, 0
.player:
        ld a, (v_num_players)
        cp b
        jr z, .none                 ; Past the last player?
        push bc
        ld a, b
        call player_record
        ld a, (hl)
        and 1 << PF_PLAYING | 1 << PF_COMPUTER
        cp 1 << PF_PLAYING
        jr nz, .next                ; Not a human in the game?
        pop bc
        push bc
        ld a, b
        call houses_wants_unit
        jr z, .next                 ; Did he not order this kind?
        pop bc
        ld a, 1
        or a                        ; NZ
        ret
.next:  pop bc
        inc b
        jr .player
.none:  xor a                       ; Z
        ret

; ---------------------------------------------------------------------------------------------
; ai_place_unit - where a computer that won a shortage auction puts its house or hotel: the
; first site where the rules and its height allow it
; Input: houses_bidder (a computer), houses_unit_mode.  Output: carry clear and A = square;
; carry set: nowhere (it gives it back).  Corrupts: AF, B, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
ai_place_unit:
        push ix
        ld a, (houses_bidder)
        ld (ai_player), a
        call player_record
        push hl
        pop ix
        call ai_params
        ld b, 0
.square:
        push bc
        ld a, (houses_unit_mode)
        ld c, a
        ld a, b
        call ai_build_check
        pop bc
        jr c, .found                ; May it go here?
        inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .square               ; Another square?
        pop ix
        scf
        ret
.found: ld a, b
        pop ix
        or a
        ret

; ---------------------------------------------------------------------------------------------
; Strings
; ---------------------------------------------------------------------------------------------
str_ai_fast_on:      db "Fast computer turns: ON (F again for normal speed).", 0
str_ai_fast_off:     db "Fast computer turns: OFF.", 0
str_ai_offers:       db " offers the deal above to ", 0
str_ai_stop:         db ". ", 0
str_ai_considers:    db " considers it...", 0
str_ai_orders:       db " orders ", 0
str_ai_houses_and:   db " house(s) and ", 0
str_ai_hotels:       db " hotel(s).", 0
