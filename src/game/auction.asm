; =============================================================================================
; auction.asm - the Bank's auctions (A14-A20; booklet C "Auctioning")
;
; A property nobody buys, and the property of a player bankrupt to the Bank, is auctioned.
; Any player still in the game may bid, the one who declined too; the bidding starts at any
; price.  A bid is the player's number, then the amount; each must beat the last.  A bid
; beyond the value of the bidder's assets (cash and property valued as at the end of a
; game) voids the auction and the property stays with the Bank (booklet C).  ENTER with no number
; closes the bidding: "going, going, gone" to the highest bidder, who pays the Bank.
; Computer players bid for themselves (ai_auction_bid), one raise at a time; with no human
; left in the game the auction closes when no computer raises.
; =============================================================================================

AUCTION_PAUSE   equ 40              ; frames to read each bid of a computer player

; ---------------------------------------------------------------------------------------------
; auction_run - auction a square of the Bank's
; Input: A = square.  Output: sold (owner set, paid) or left with the Bank.
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
auction_run:
        push ix
        ld (auction_square), a
        ld hl, 0
        ld (auction_high), hl
        ld a, NO_PLAYER
        ld (auction_bidder), a
        ld hl, str_auction_auction
        call msg_show
        ld a, (auction_square)
        call msg_square_name
        call msg_stop
        call snd_beep
        ld b, AUCTION_PAUSE
        call pause
.round: call auction_computers      ; carry: a computer raised
        push af
        call auction_humans_left
        jr nz, .humans              ; A human still in the game?
        pop af
        jr c, .round                ; Did a computer raise?  (another round)
        jp .close
.humans:
        pop af
.ask:   call auction_status
        ld hl, str_auction_bidder
        call ask_player
        jp c, .close                ; ENTER: the bidding closed?
        ld (auction_who), a
        call player_record
        bit PF_COMPUTER, (hl)
        jr z, .amount               ; A human bidder?
        ld a, (auction_who)
        call auction_refuse_computer
        jr .ask
.amount:
        ld a, (auction_who)         ; the amount on a line of its own: "1 ANNE bids £" (after a
        call msg_show_player        ; full status it began a part held 2 s, and the digits
        ld hl, str_auction_bid      ; typed meanwhile were lost)
        call ask_number
        jr c, .ask                  ; No amount (ENTER alone)?  Ask again.
        ld (auction_offer), hl
        ld de, (auction_high)
        or a
        sbc hl, de
        jr z, .too_low              ; Only the highest bid again?
        jr c, .too_low              ; Below the highest bid?
        ld a, (auction_who)         ; Is it within the bidder's assets?
        call auction_assets
        ld de, (auction_offer)
        or a
        sbc hl, de
        jr c, .void                 ; Beyond the bidder's assets?
        ld hl, (auction_offer)
        ld (auction_high), hl
        ld a, (auction_who)
        ld (auction_bidder), a
        ld b, a
        ld a, EVK_BID
        ld e, 0
        call auction_record
        jr .round
.too_low:
        call auction_refuse_low
        jr .ask
.void:  ld a, (auction_who)
        ld b, a
        ld a, EVK_AUCTION_VOID
        ld hl, (auction_offer)
        ld e, VOID_ASSETS
        call auction_record
        call auction_show_void              ; beyond its assets: the auction is void
        pop ix
        ret
.close: ld a, (auction_bidder)
        cp NO_PLAYER
        jr nz, .sold                ; A bid made?
        ld b, EV_BANK
        ld a, EVK_AUCTION_NONE
        ld hl, 0
        ld e, 0
        call auction_record
        ld hl, str_auction_no_bids
        call msg_show
        ld b, AUCTION_PAUSE
        call pause
        pop ix
        ret
.sold:  ld hl, str_auction_gone
        call msg_show
        ld a, (auction_bidder)
        call msg_player
        ld hl, str_msg_for
        call msg_print
        ld hl, (auction_high)
        call msg_money
        call msg_stop
        call auction_gavel
        ld a, (auction_square)
        ld (event_square), a
        EVENT_CAUSE EVK_AUCTION
        ld a, (auction_bidder)
        ld c, NO_PLAYER
        ld hl, (auction_high)
        call bank_pay
        jr c, .done                 ; Did paying bankrupt the bidder?  (he bid beyond his cash)
        ld a, (auction_bidder)
        ld c, a
        ld a, (auction_square)
        call property_give
.done:  ld b, AUCTION_PAUSE
        call pause
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; auction_refuse_computer - a computer's number typed as a bidder: refused, saying why; the
; line stays readable at either speed (issue 28)
; Input: A = the player.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
auction_refuse_computer:
        call msg_show_player
        ld hl, str_auction_computer_bids_itself
        call msg_print
        jr auction_refused

; ---------------------------------------------------------------------------------------------
; auction_refuse_low - a bid that does not beat the highest: refused, saying what it must beat
; Input: auction_high.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
auction_refuse_low:
        ld hl, str_auction_too_low
        call msg_show
        ld hl, (auction_high)
        call msg_money
        call msg_stop
        ; continues into auction_refused

; ---------------------------------------------------------------------------------------------
; auction_refused - the low tone, and the refusal shown stays REFUSAL_FRAMES at either speed
; Input: none.  Output: none.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
auction_refused:
        ld b, REFUSAL_FRAMES
        call msg_keep_full
        call snd_low
        ld b, AUCTION_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; auction_show_void - a bid beyond the bidder's assets voids the auction (booklet C): said so,
; the line kept VOID_FRAMES at either speed (a human made the bid)
; Input: none.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
auction_show_void:
        ld hl, str_auction_void
        call msg_show
        call msg_hold_money         ; a money result: read at the money results' pace too
        ld b, VOID_FRAMES
        call msg_keep_full
        call snd_low
        ld b, AUCTION_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; auction_record - declare an event of the auction for its square (the record, events.asm)
; Input: A = kind, B = player, E = EV_EXTRA, HL = pounds.  Output: recorded.
; Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
auction_record:
        push de
        push af
        ld a, (auction_square)
        ld d, a
        pop af
        call event_player
        pop de
        ret

; ---------------------------------------------------------------------------------------------
; auction_status - the square, the highest bid and its bidder on the message lines, then the
; question (whole: in a part of its own if the status fills the lines)
; Input: none.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
auction_status:
        ld hl, str_auction_auction
        call msg_show
        ld a, (auction_square)
        call msg_square_name
        ld a, (auction_bidder)
        cp NO_PLAYER
        ld hl, str_auction_no_bid_yet
        jr z, .print                ; No bid yet?
        ld hl, str_auction_high
        call msg_print
        ld hl, (auction_high)
        call msg_money
        ld hl, str_auction_by
        call msg_print
        ld a, (auction_bidder)
        call msg_player
        call msg_stop
        ld hl, str_auction_stop
.print: jp msg_print_whole          ; (the question's keys seen whole while it waits)

; ---------------------------------------------------------------------------------------------
; auction_computers - each computer player in the game, not the highest bidder, may raise;
; the first that does ends the round
; Input: none.  Output: carry set if one raised (auction_high, auction_bidder).
; Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
auction_computers:
        ld a, (v_num_players)       ; each player once, starting after the highest bidder
        ld (auction_computers_left), a ; (or with the current player), so that no seat is
        ld a, (auction_bidder)      ; always asked first
        cp NO_PLAYER
        jr nz, .start               ; A highest bidder?  (start after him)
        ld a, (v_current)
        dec a
.start: ld b, a
.player:
        ld a, (auction_computers_left)
        or a
        ret z                       ; Every seat asked?  (carry clear: none raised)
        dec a
        ld (auction_computers_left), a
        inc b
        ld a, b
        ld hl, v_num_players
        cp (hl)
        jr c, .seat                 ; A seat in the game?  (else round to the first)
        ld b, 0
.seat:  push bc
        ld a, (auction_bidder)
        cp b
        jr z, .next                 ; The highest bidder already?
        ld a, b
        call player_computer_playing
        jr nz, .next                ; Not a computer still playing?
        pop bc
        push bc
        ld a, b
        ld hl, (auction_high)
        ld c, a
        ld a, (auction_square)
        call ai_auction_bid         ; carry and HL = its bid
        jr nc, .next                ; Does it not raise?
        ld (auction_high), hl
        pop bc
        ld a, b
        ld (auction_bidder), a
        push af
        ld a, EVK_BID
        ld e, 0
        call auction_record
        pop af
        call msg_show_player
        ld hl, str_auction_bids
        call msg_print
        ld hl, (auction_high)
        call msg_money
        call msg_stop
        ld b, AUCTION_PAUSE
        call pause
        scf
        ret
.next:  pop bc
        jr .player

; ---------------------------------------------------------------------------------------------
; auction_humans_left - whether a human player is still in the game
; Input: none.  Output: NZ if there is one.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
auction_humans_left:
        ld hl, v_players + P_FLAGS
        ld de, PLAYER_RECORD
        ld a, (v_num_players)
        ld b, a
.loop:  ld a, (hl)
        and 1 << PF_PLAYING | 1 << PF_COMPUTER
        cp 1 << PF_PLAYING
        jr z, .yes                  ; A human still playing?
        add hl, de
        djnz .loop
        xor a                       ; Z: none
        ret
.yes:   or a                        ; NZ (A is not 0)
        ret

; ---------------------------------------------------------------------------------------------
; auction_assets - "the value of his assets" (booklet C): cash and property at the short
; game's valuation (worth_total), the same measure as the rules model's winning_bid
; Input: A = player.  Output: HL (at most 65535).  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
auction_assets:
        jp worth_total

; ---------------------------------------------------------------------------------------------
; auction_gavel - three knocks of the auctioneer's gavel
; Input: none.  Output: played.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
auction_gavel:
        ld b, 3
.knock: push bc
        call snd_low
        ld b, 8
        call pause_plain
        pop bc
        djnz .knock
        ret

str_auction_auction:    db "AUCTION: ", 0
str_auction_no_bid_yet: db ": no bid yet. Bidder's number, or ENTER to close:", 0
str_auction_high:       db ": highest ", 0
str_auction_by:         db " by ", 0
str_auction_stop:       db " Bidder's number, or ENTER to sell:", 0
str_auction_bidder:     db " ", 0
str_auction_bid:        db " bids ", CH_POUND, 0
str_auction_too_low:    db "The bid must beat ", 0
str_auction_void:       db "A bid beyond the bidder's assets: the auction is void.", 0
str_auction_no_bids:    db "No bids: it stays with the Bank.", 0
str_auction_gone:       db "Going, going, gone! To ", 0
str_auction_bids:       db " bids ", 0
str_auction_computer_bids_itself: db " is a computer player: it bids for itself.", 0
