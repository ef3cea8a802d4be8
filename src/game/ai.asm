; =============================================================================================
; ai.asm - the computer players' decisions, one judgement weighted by six personalities
;
; Each personality (P_PERSONALITY) is a row of ai_personalities: the cash it keeps in
; reserve, how far above the printed price it will bid, and how long into the game it pays
; its way out of jail.  docs/game.md has the table.  Computer players always keep to the
; rules: they only make moves the human players could make.
; =============================================================================================

; ai_personalities record fields
AI_RESERVE      equ 0               ; word: cash kept back when buying or bidding
AI_BID_PERCENT  equ 2               ; the most it bids, in percent of the printed price
AI_JAIL_TURNS   equ 3               ; pays to leave jail while v_turns is below this
AI_TAKE_CHANCE  equ 4               ; 1: takes a Chance rather than a £10 fine
AI_BUILD_RESERVE equ 5              ; word: cash kept back when building
AI_RECORD       equ 7
AI_MAX_BUILDS   equ 6               ; buildings a computer player puts up in one turn at most
AI_BID_STEP     equ 10              ; a computer raises the bid by this much
AI_OPENING_PERCENT equ 50           ; and opens at this percentage of the price

ai_personalities:
        ; reserve, bid %, jail turns, takes a chance, building reserve
        dw 200
        db 90, 20, 0
        dw 400                      ; PERS_MEAN: keeps its money, bids low, builds late
        dw 0
        db 150, 200, 1
        dw 0                        ; PERS_RECKLESS: spends everything, gambles
        dw 100
        db 130, 60, 1
        dw 150                      ; PERS_GREEDY: wants it all
        dw 150
        db 110, 40, 0
        dw 250                      ; PERS_STEADY
        dw 300
        db 80, 10, 0
        dw 500                      ; PERS_CAUTIOUS: a big reserve, sits in jail
        dw 50
        db 125, 100, 1
        dw 50                       ; PERS_ENTERPRISING: invests early and builds high
        assert $ - ai_personalities == PERSONALITIES * AI_RECORD

; ---------------------------------------------------------------------------------------------
; ai_params - IY = the personality record of a player
; Input: IX = player.  Output: IY.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
ai_params:
        ld a, (ix+P_PERSONALITY)
        cp PERSONALITIES
        jr c, .ok
        xor a
.ok:    ld e, a                     ; * AI_RECORD (7 = 8 - 1)
        add a, a
        add a, a
        add a, a
        sub e
        ld e, a
        ld d, 0
        ld iy, ai_personalities
        add iy, de
        ret
        assert AI_RECORD == 7

; ---------------------------------------------------------------------------------------------
; ai_cash_after - the player's cash less a sum less its reserve
; Input: IX = player, IY = its personality, HL = the sum.  Output: carry set if that would
; leave less than the reserve.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_cash_after:
        ld e, (iy+AI_RESERVE)
        ld d, (iy+AI_RESERVE+1)
        add hl, de
        ret c
        ex de, hl
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        or a
        sbc hl, de
        ret

; ---------------------------------------------------------------------------------------------
; ai_wants_to_buy - does a computer player buy a property at its printed price?
; Input: IX = player, A = square.  Output: carry set for yes.  Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
ai_wants_to_buy:
        call board_record
        ld de, BOARD_PRICE
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        push de
        call ai_params
        pop hl
        call ai_cash_after
        ccf                         ; enough left: yes
        ret

; ---------------------------------------------------------------------------------------------
; ai_auction_bid - does a computer player raise the bid, and to what?
; Input: A = square, C = player, HL = the highest bid so far (0: none).
; Output: carry set and HL = its bid; carry clear: it does not bid.
; Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
ai_auction_bid:
        push ix
        ld (.high), hl
        push af
        ld a, c
        call player_record
        push hl
        pop ix
        call ai_params
        pop af
        call board_record
        ld de, BOARD_PRICE
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)                  ; DE = the price
        ld (.price), de
        ld a, (iy+AI_BID_PERCENT)   ; the most it pays: price * percent / 100
        call ai_percent
        ld (.limit), hl
        ld hl, (.high)              ; its bid: the last one + a step, or its opening
        ld a, h
        or l
        jr nz, .raise
        ld de, (.price)
        ld a, AI_OPENING_PERCENT
        call ai_percent
        jr .check
.raise: ld de, AI_BID_STEP
        add hl, de
.check: ld (.bid), hl
        ex de, hl                   ; within its limit?
        ld hl, (.limit)
        or a
        sbc hl, de
        jr c, .no
        ld hl, (.bid)               ; and its cash, keeping the reserve?
        call ai_cash_after
        jr c, .no
        ld hl, (.bid)
        pop ix
        scf
        ret
.no:    pop ix
        or a
        ret
.high:  dw 0
.price: dw 0
.limit: dw 0
.bid:   dw 0

; ---------------------------------------------------------------------------------------------
; ai_percent - a percentage of a sum
; Input: DE = sum (< 65536 / 255), A = percent.  Output: HL = DE * A / 100.
; Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
ai_percent:
        ld hl, 0                    ; HL = DE * A
        ld b, 8
.mul:   add hl, hl
        rla
        jr nc, .skip
        add hl, de
.skip:  djnz .mul
        ld bc, 0                    ; BC = HL / 100
        ld de, 100
.div:   or a
        sbc hl, de
        jr c, .done
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
        ret nz                      ; (carry clear: 256 turns on, never)
        ld a, l
        cp (iy+AI_JAIL_TURNS)
        ret nc
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
; ai_before_throw - what a computer player does before it throws: lift a mortgage when its
; cash allows it twice over its reserve, then build (ai_build)
; Input: IX = the current player (a computer).  Output: perhaps a mortgage lifted.
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
ai_before_throw:
        call ai_params
        ld a, (v_current)
        inc a
        ld (ai_before_throw_owner), a
        ld b, 0
.square:
        push bc
        ld a, b
        call square_owner
        ld hl, ai_before_throw_owner
        cp (hl)
        jr nz, .next
        bit SQ_MORTGAGED, c
        jr z, .next
        pop bc
        push bc
        ld a, b
        call mortgage_interest      ; HL = interest, DE = loan
        add hl, de
        ld e, (iy+AI_RESERVE)       ; twice the reserve must stay
        ld d, (iy+AI_RESERVE+1)
        add hl, de
        jr c, .next
        call ai_cash_after
        jr c, .next
        pop bc
        ld a, b
        call mortgage_toggle        ; lift it (one a turn)
        ld b, LAND_PAUSE
        call pause
        jr ai_build
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SIZE
        jr c, .square
        ; continues into ai_build

; ---------------------------------------------------------------------------------------------
; ai_build - a computer player builds on its complete, unmortgaged groups, always on the
; least built-up site (so evenly), while its cash stays above its building reserve; at most
; AI_MAX_BUILDS a turn.  houses_build validates and pays.
; Input: IX = the current player (a computer).  Output: buildings put up.
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
ai_build:
        xor a
        ld (ai_builds), a
.again: call ai_params
        ld b, 0                     ; B = square
.square:
        push bc
        ld a, b
        call ai_build_here          ; carry: built there
        pop bc
        jr nc, .next
        ld a, (ai_builds)
        inc a
        ld (ai_builds), a
        cp AI_MAX_BUILDS
        ret nc
        jr .again                   ; the groups changed: look again from GO
.next:  inc b
        ld a, b
        cp BOARD_SIZE
        jr c, .square
        ret

ai_builds:      db 0
ai_before_throw_owner: db 0

; ---------------------------------------------------------------------------------------------
; ai_build_here - build on one square if it is the player's, the least built-up site of a
; complete unmortgaged group of its, the Bank has the building, and the cash allows
; Input: IX = player, IY = its personality, A = square.  Output: carry set if built.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
ai_build_here:
        ld (.square), a
        call board_record
        ld a, (hl)
        cp KIND_SITE
        jp nz, .no
        ld a, (.square)
        call property_level         ; A = level, C = the square byte
        ld (.level), a
        cp SQ_HOTEL
        jp nc, .no                  ; a hotel already
        ld a, (v_current)
        inc a
        ld b, a
        ld a, c
        and SQ_OWNER_MASK
        cp b
        jr nz, .no                  ; not its own
        ld a, (.square)
        call houses_group_scan
        ld a, (v_current)
        inc a
        ld b, a
        ld a, (houses_common_owner)
        cp b
        jp nz, .no                  ; not the whole group
        ld a, (houses_mortgaged)
        or a
        jp nz, .no
        ld a, (houses_min)
        ld hl, .level
        cp (hl)
        jp nz, .no                  ; build evenly: the least built-up site first
        ld a, (.level)              ; the Bank's stock
        cp MAX_HOUSES_PER_SITE
        ld a, (v_houses_left)
        jr c, .stock
        ld a, (v_hotels_left)
.stock: or a
        jp z, .no
        ld a, (.square)             ; the cost, keeping the building reserve
        call board_record
        ld de, BOARD_HOUSE_COST
        ld a, (.level)
        cp MAX_HOUSES_PER_SITE
        jr c, .cost
        ld de, BOARD_HOTEL_COST
.cost:  add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld l, (iy+AI_BUILD_RESERVE)
        ld h, (iy+AI_BUILD_RESERVE+1)
        add hl, de
        jp c, .no
        ex de, hl
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        or a
        sbc hl, de
        jp c, .no
        ld a, (v_current)
        ld hl, .square
        ld c, (hl)
        ld b, HOUSES_MODE_ANY
        ld hl, 0
        push iy
        call houses_build
        pop iy
        ccf                         ; houses_build: carry clear = built
        ret
.no:    or a
        ret
.square: db 0
.level: db 0
