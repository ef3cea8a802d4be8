; =============================================================================================
; trade.asm - the T key: a deal between two players; and the X key: a player retires
;
; Booklet part C "Trade", part A "Selling property" and "Mortgages" (A46-A50, A54); the rules
; model is zxmonopoly.rules.estate.trade.  As the user sees it:
;   "TRADE: who is trading? Player's number (ENTER: nobody):"          (a human player)
;   "Trading with whom? Player's number:" (issue 45: whom first, then what)
;   the ONE property he gives: cursor (CAPS+5/8), SPACE details, ENTER chooses, Q gives up
;   "Add a property wanted from 2 BOB? (Y/N)": Y - the cursor again, ENTER adds it (the
;       partner's only); N - no more ("Another property wanted?" after the first)
;   a choice refused (not his, its group built, not the partner's ...) says why, and the
;       reason stays in view while the cursor waits for him to choose again (issue 45)
;   going beyond the original: for each side holding a Get Out of Jail Free card,
;       "... adds a Get Out of Jail Free card? (Y/N)"
;   "A cash adjustment? (Y/N)" - "To which player?" - "How much? £" (the payer must have it:
;       players may not borrow)
;   the deal in the lower third; "... agrees? (Y/N)" asked of the other player (a computer
;   player decides by trade_ai_accepts); then the transfer.
; A computer player proposes deals of its own before it throws (issue 11: ai.asm's
; ai_trade_propose fills these variables with the owner of the site it wants as trade_a, and
; uses trade_summary, trade_ai_accepts_a, trade_transfer).
; No site changes hands while its colour group has buildings (A47).  A mortgaged property
; changes hands with the booklet's interest (A54): the new owner pays the Bank 10 % of the
; loan at once, and may lift the mortgage at once for the principal alone ("Lift it now?");
; lifting later costs the usual loan + 10 % (mortgage_toggle).  Before anything moves, each
; side must be able to pay the interest on what it receives.
;
; The retire option (OPT_RETIRE, seed 003 option 7 "Quitar"; seed_rules 62): X in the turn
; menu, "RETIRE: who leaves the game?", confirmed Y/N.  The player's property goes back to
; the Bank unowned (buildings to the stock, mortgages cleared), his cash to the Bank, his Get
; Out of Jail Free cards back to their packs; he is out of the game (PF_PLAYING clear, not
; PF_BANKRUPT) and his token leaves the board.
; =============================================================================================

TRADE_MAX_TAKE  equ 28              ; the most properties wanted in one deal (there are 28)
TRADE_CARD_VALUE equ JAIL_FINE      ; a computer values a Jail Free card at the fine it saves
TRADE_MARGIN_SHIFT equ 4            ; AI_TRADE_MARGIN is in sixteenths of what it gives

; ---------------------------------------------------------------------------------------------
; trade_run - T: a trade between two players (booklet C "Trade")
; Input: none.  Output: done or given up; the lower third back to the close-up.
; Corrupts: all.
; ---------------------------------------------------------------------------------------------
trade_run:
        call trade_deal
        jp turn_lower_restore

; ---------------------------------------------------------------------------------------------
; trade_clear - an empty deal: nothing wanted, no card, no cash, no partner yet
; Input: none.  Output: the deal's fields (trade_a and trade_give are left).  Corrupts: AF, HL.
; ---------------------------------------------------------------------------------------------
trade_clear:
        xor a
        ld (trade_take_count), a
        ld (trade_card_a), a
        ld (trade_card_b), a
        ld h, a
        ld l, a
        ld (trade_cash), hl
        ld a, NO_PLAYER
        ld (trade_b), a
        ld (trade_cash_to), a
        ret

; ---------------------------------------------------------------------------------------------
; trade_deal - the dialogue: who, what, cash, agreement, then the transfer
; Input: none.  Output: done or given up.  Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
trade_deal:
        call cursor_home            ; one activity: the property given and those wanted
        call trade_clear
        call msg_clear
        ld hl, str_trade_who
        call ask_player
        ret c                       ; ENTER: nobody trading?
        ld (trade_a), a
        call player_record
        bit PF_COMPUTER, (hl)
        ld hl, str_trade_computer
        jp nz, trade_refuse_pause   ; A computer?  It trades on its own: refused.
.with:  call msg_clear
        ld hl, str_trade_with
.ask_with:
        call ask_player
        ret c                       ; ENTER: nobody?  Given up.
        ld hl, trade_a
        cp (hl)
        jr nz, .partner             ; Another player?  (else a trade with himself)
        ld hl, str_trade_himself    ; the reason, which asks again: in view while he answers
        call trade_refuse
        ld hl, str_trade_nothing
        jr .ask_with
.partner:
        ld (trade_b), a
        ld a, (trade_a)
        call msg_show_player
        ld hl, str_trade_give_help
        call msg_print
.give:  ld hl, trade_details
        call cursor_select
        ret c                       ; Q: given up?
        ld (trade_give), a
        ld c, a
        ld a, (trade_a)
        call trade_check
        jr nc, .wanted              ; May he trade it?  (else the reason shown, and choose again:
        jr .give                    ; it stays in view until his next key, issue 45)
.wanted:
        call msg_clear
        ld hl, str_trade_another
        ld a, (trade_take_count)
        or a
        jr nz, .ask_more            ; One wanted already?  (else "... wanted from 2 BOB?")
        ld hl, str_trade_more
        call msg_print
        ld a, (trade_b)
        call msg_player
        ld hl, str_trade_question
.ask_more:
        call ask_yn
        jr nc, .cards               ; N: no more wanted?
        ld hl, str_trade_want_help
        call msg_show
.want:  ld hl, trade_details
        call cursor_select
        jr c, .wanted               ; Q: none after all?
        call trade_add_wanted
        jr nc, .wanted              ; Added?  (else refused, the reason shown: it stays in view
        jr .want                    ; while he chooses again)
.cards: ld a, (trade_a)
        ld hl, trade_card_a
        call trade_ask_card
        ld a, (trade_b)
        ld hl, trade_card_b
        call trade_ask_card
.cash:  xor a                       ; (asked again after a refusal: start afresh)
        ld h, a
        ld l, a
        ld (trade_cash), hl
        ld a, NO_PLAYER
        ld (trade_cash_to), a
        call msg_clear
        ld hl, str_trade_cash_question
        call ask_yn
        jr nc, .costs               ; No cash adjustment?
.to:    ld hl, str_trade_cash_to
        call ask_player
        jr c, .cash                 ; ENTER: no cash after all?
        ld hl, trade_a
        cp (hl)
        jr z, .to_ok                ; To trade_a?
        ld hl, trade_b
        cp (hl)
        jr nz, .to                  ; Not to trade_b either?  Ask again.
.to_ok: ld (trade_cash_to), a
        ld hl, str_trade_how_much
        call ask_number
        jr c, .cash                 ; ENTER: no sum?  The cash question again.
        ld (trade_cash), hl
        call trade_cash_payer       ; has the payer that much?
        call trade_player_cash
        ld de, (trade_cash)
        or a
        sbc hl, de
        jr nc, .costs               ; Has the payer that much?
        ld hl, str_trade_no_borrowing
        call trade_refuse
        call houses_pause
        jr .cash
.costs: call trade_interest_check
        jp c, houses_pause          ; Could a side not pay the interest?  (refused: the reason shown)
        call trade_summary
        ld a, (trade_b)
        call player_record
        bit PF_COMPUTER, (hl)
        jr nz, .computer            ; trade_b a computer?  It decides by itself.
        call msg_clear
        ld a, (trade_b)
        call msg_player
        ld hl, str_trade_agree
        call ask_yn
        jr nc, .refused             ; N: refused?
        jr .deal
.computer:
        call trade_ai_accepts
        push af
        call msg_clear
        ld a, (trade_b)
        call msg_player
        pop af
        jr nc, .computer_no         ; Declined?
        ld hl, str_trade_accepts
        call msg_print
        call houses_pause
        jr .deal
.computer_no:
        ld hl, str_trade_declines
        call msg_print
        call snd_low
        jp houses_pause
.refused:
        ld hl, str_trade_refused
        call trade_refuse
        jp houses_pause
.deal:  call trade_transfer
        ld hl, str_trade_done
        call msg_show
        call snd_beep
        jp houses_pause

; ---------------------------------------------------------------------------------------------
; trade_in_kind - A51 (booklet A "Miscellaneous"): a payer short of cash offers the player he
; owes one property in part payment.  The property must be his with its colour group bare (as
; in any sale between players: A46, A47); he names its value in payment (at most what he
; owes); the creditor agrees (a human: Y/N; a computer: trade_ai_accepts' judgement, the debt
; it forgoes counting as what it gives) and must be able to pay the 10 % on a mortgaged one.
; Then it changes hands as in a trade (trade_transfer: the interest, lifting at once or later)
; and no cash moves: the caller takes the value off the debt.
; Input: A = payer, C = square, bank_creditor (a player), bank_amount (what is owed).
; Output: carry clear: HL = the value taken in payment; carry set: no deal (the reason shown).
; Corrupts: AF, BC, DE, HL, IY (keeps IX).
; ---------------------------------------------------------------------------------------------
trade_in_kind:
        ld (trade_a), a
        ld a, c
        ld (trade_give), a
        ld a, (trade_a)
        call trade_check            ; his, the group bare
        jp c, houses_pause          ; Not his, or its group built?  (the reason shown)
        call trade_clear
        ld a, (bank_creditor)
        ld (trade_b), a
        call trade_interest_check   ; can the creditor pay the interest on it?
        jp c, houses_pause          ; Could the creditor not pay the interest?  (the reason shown)
.value: call msg_clear
        ld a, (trade_give)
        call msg_square_name
        ld hl, str_trade_kind_value
        call ask_number
        ret c                       ; ENTER alone?  No offer.
        ld a, h
        or l
        jr z, .value                ; Nothing?  Ask again.
        ld (trade_kind_value), hl
        ex de, hl
        ld hl, (bank_amount)
        or a
        sbc hl, de
        jr nc, .offer               ; No more than is owed?
        ld hl, str_trade_kind_too_much
        call trade_refuse
        call houses_pause
        jr .value
.offer: call msg_clear
        ld a, (trade_a)
        call msg_player
        ld hl, str_trade_kind_offers
        call msg_print
        ld a, (trade_give)
        call msg_square_name
        ld hl, str_trade_kind_for
        call msg_print
        ld hl, (trade_kind_value)
        call msg_money
        ld hl, str_trade_kind_of_debt
        call msg_print
        ld a, (trade_b)
        call player_record
        bit PF_COMPUTER, (hl)
        jr nz, .computer            ; The creditor a computer?  It decides by itself.
        ld a, (trade_b)
        call msg_player
        ld hl, str_trade_agree
        call ask_yn
        jr c, .deal                 ; Y: agreed?
        ld hl, str_trade_refused
        call trade_refuse
        call houses_pause
        scf
        ret
.computer:
        call trade_ai_accepts_kind
        push af
        ld a, (trade_b)
        call msg_player
        pop af
        jr c, .accepts              ; Accepted?
        ld hl, str_trade_declines
        call msg_print
        call snd_low
        call houses_pause
        scf
        ret
.accepts:
        ld hl, str_trade_accepts
        call msg_print
        call houses_pause
.deal:  call trade_transfer         ; the property, the interest (no cash: trade_cash is 0)
        ld hl, str_trade_done
        call msg_show
        call snd_beep
        call houses_pause
        ld hl, (trade_kind_value)
        or a
        ret

; ---------------------------------------------------------------------------------------------
; trade_refuse_pause - trade_refuse, then a pause to read it
; Input: HL = message.  Output: carry set.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_refuse_pause:
        call trade_refuse
        call houses_pause
        scf
        ret

; ---------------------------------------------------------------------------------------------
; trade_refuse - show why a deal or a choice is refused, with the low tone
; Input: HL = message.  Output: carry set.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_refuse:
        jp houses_refuse

; ---------------------------------------------------------------------------------------------
; trade_details - the cursor's SPACE: the square's deed (keeping IX and IY for cursor_select)
; Input: A = square.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_details:
        push ix
        push iy
        call deed_show
        pop iy
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; trade_check - whether a player may trade a square: his property, its group bare (A46, A47)
; Input: A = player, C = square.  Output: carry set if not (the reason shown).
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_check:
        ld b, a
        ld a, c
        push bc
        call square_owner
        pop bc
        inc b
        cp b
        ld hl, str_trade_not_theirs
        jr nz, trade_refuse         ; Not his?
        ld a, c
        call group_built
        ld hl, str_trade_group_built
        jr c, trade_refuse          ; Its group built?
        or a
        ret

; ---------------------------------------------------------------------------------------------
; trade_refuse_not_partner - refuse a property wanted that is not the partner's, naming him
; ("That is not 2 BOB's property.")
; Input: trade_b.  Output: carry set.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_refuse_not_partner:
        call msg_clear
        ld hl, str_trade_not_partner
        call msg_print
        ld a, (trade_b)
        call msg_player
        ld hl, str_trade_partners
        call msg_print
        ld b, REFUSAL_FRAMES        ; as houses_refuse: readable at either speed
        call msg_keep_full
        call snd_low
        scf
        ret

; ---------------------------------------------------------------------------------------------
; trade_add_wanted - add a square to the properties wanted: the partner's (trade_b), not yet
; in the list, its group bare
; Input: A = square, trade_b.  Output: carry clear: added; carry set: refused, the reason
; shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_add_wanted:
        ld (trade_square), a
        call square_owner
        or a
        ld hl, str_trade_nobodys
        jr z, trade_refuse          ; Nobody's?
        dec a
        ld hl, trade_a
        cp (hl)
        ld hl, str_trade_yours
        jr z, trade_refuse          ; The trader's own?
        ld c, a                     ; C = its owner
        ld a, (trade_b)
        cp c
        jr nz, trade_refuse_not_partner ; Not the partner's?
.listed:
        ld a, (trade_take_count)    ; chosen already?
        or a
        jr z, .new                  ; None listed yet?
        ld b, a
        ld hl, trade_take
        ld a, (trade_square)
.dup:   cp (hl)
        jr z, .twice                ; Chosen already?
        inc hl
        djnz .dup                   ; Another listed to compare?
        ld a, (trade_take_count)
        cp TRADE_MAX_TAKE
        jr nc, .twice               ; The list full?
.new:   push bc
        ld a, (trade_square)
        ld b, c
        ld c, a
        ld a, b
        call trade_check            ; the group bare?
        pop bc
        ret c                       ; Its group built?  (the reason shown)
        ld a, (trade_take_count)
        ld e, a
        ld d, 0
        ld hl, trade_take
        add hl, de
        ld a, (trade_square)
        ld (hl), a
        ld hl, trade_take_count
        inc (hl)
        ld hl, str_trade_added
        call msg_show
        ld a, (trade_square)
        call msg_square_name
        or a
        ret
.twice: ld hl, str_trade_twice
        jp trade_refuse

; ---------------------------------------------------------------------------------------------
; trade_ask_card - a side holding a Get Out of Jail Free card is asked whether it adds one
; Input: A = player, HL = trade_card_a or trade_card_b.  Output: (HL) = the JC_* bit of the
; card given (the Chance one first), or unchanged.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
trade_ask_card:
        push hl
        push af
        call player_record
        ld de, P_JAIL_CARDS
        add hl, de
        ld b, (hl)
        pop af
        pop hl
        ld c, a
        ld a, b
        or a
        ret z                       ; No card held?
        push hl
        push bc
        call msg_clear
        pop bc
        push bc
        ld a, c
        call msg_player
        ld hl, str_trade_card_question
        call ask_yn
        pop bc                      ; B = the cards held
        pop hl
        ret nc                      ; N: no card?
        ld a, b
        and 1 << JC_CHANCE
        jr nz, .one                 ; A Chance card held?  It goes first.
        ld a, 1 << JC_CHEST
.one:   ld (hl), a
        ret

; ---------------------------------------------------------------------------------------------
; trade_cash_payer - who pays the cash balance: the side that does not receive it
; Input: trade_cash_to (a or b).  Output: A = the payer.  Corrupts: F, HL.
; ---------------------------------------------------------------------------------------------
trade_cash_payer:
        ld a, (trade_cash_to)
        ld hl, trade_a
        cp (hl)
        ld a, (hl)
        ret nz                      ; To trade_b?  trade_a pays.
        ld a, (trade_b)
        ret

; ---------------------------------------------------------------------------------------------
; trade_player_cash - a player's cash
; Input: A = player.  Output: HL.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
trade_player_cash:
        call player_record
        ld de, P_CASH
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        ret

; ---------------------------------------------------------------------------------------------
; trade_cash_after - a side's cash after the balance (the payer was checked to have it)
; Input: A = a or b.  Output: HL (65535 at most).  Corrupts: AF, C, DE.
; ---------------------------------------------------------------------------------------------
trade_cash_after:
        ld c, a
        call trade_player_cash
        ex de, hl                   ; DE = its cash
        ld a, (trade_cash_to)
        cp c
        ld hl, (trade_cash)
        jr z, .gets                 ; Does it receive the balance?
        ex de, hl                   ; pays (0 when there is no balance)
        or a
        sbc hl, de
        ret
.gets:  add hl, de
        ret nc                      ; Within 65535?
        ld hl, 0xFFFF
        ret

; ---------------------------------------------------------------------------------------------
; trade_received - the properties a side receives
; Input: A = a or b.  Output: HL = the list, B = its length (may be 0).  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
trade_received:
        ld hl, trade_b
        cp (hl)
        ld hl, trade_give
        ld b, 1
        ret z                       ; Is it trade_b?  It receives the one property given.
        ld hl, trade_take
        ld a, (trade_take_count)
        ld b, a
        ret

; ---------------------------------------------------------------------------------------------
; trade_interest_due - the 10 % interest due at once on the mortgaged properties a side
; receives (A54)
; Input: A = a or b.  Output: HL = pounds.  Corrupts: AF, B, DE.
; ---------------------------------------------------------------------------------------------
trade_interest_due:
        call trade_received
        ld de, 0
        ld a, b
        or a
        jr z, .done                 ; Nothing received?
.square:
        push bc
        push hl
        push de
        ld a, (hl)
        push af
        call square_owner           ; C = its byte
        pop af
        ld hl, 0
        bit SQ_MORTGAGED, c
        call nz, mortgage_interest  ; Mortgaged?  HL = 10 % of the loan.
        pop de
        add hl, de
        ex de, hl
        pop hl
        pop bc
        inc hl
        djnz .square                ; Another property received?
.done:  ex de, hl
        ret

; ---------------------------------------------------------------------------------------------
; trade_interest_check - each side must be able to pay the interest on what it receives
; Input: the deal.  Output: carry set if a side cannot (the reason shown).
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_interest_check:
        ld a, (trade_a)
        call .side
        ret c                       ; Can trade_a not pay?
        ld a, (trade_b)
.side:  ld (trade_side), a
        call trade_interest_due
        push hl
        ld a, (trade_side)
        call trade_cash_after
        pop de
        or a
        sbc hl, de
        ret nc                      ; Can it pay?
        call msg_clear
        ld a, (trade_side)
        call msg_player
        ld hl, str_trade_no_interest
        call msg_print
        call snd_low
        scf
        ret

; ---------------------------------------------------------------------------------------------
; trade_summary - the deal in the lower third (rows LOWER_TOP..MSG_TOP-1), printed through
; the message printer started at LOWER_TOP so that long lists wrap by words
; Input: the deal.  Output: shown; the message lines cleared.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_summary:
        LD_ROW_COL bc, LOWER_TOP, 0
        LD_ROW_COL de, MSG_TOP - LOWER_TOP, COLUMNS
        ld a, ATTR_MESSAGE
        call clear_rect
        call msg_clear
        ld a, LOWER_TOP
        ld (msg_row), a
        ld hl, str_trade_the_deal
        call msg_print
        ld a, (trade_a)
        call msg_player
        ld hl, str_trade_gives
        call msg_print
        ld a, (trade_give)
        call msg_square_name
        ld a, (trade_a)
        call trade_summary_extras
        ld hl, str_trade_and
        call msg_print
        ld a, (trade_b)
        call msg_player
        ld hl, str_trade_gives
        call msg_print
        ld a, (trade_take_count)
        or a
        ld hl, str_trade_no_property
        jr z, .none                 ; No property wanted?
        ld b, a
        ld hl, trade_take
.take:  push bc
        push hl
        ld a, (hl)
        call msg_square_name
        pop hl
        pop bc
        inc hl
        ld a, b
        dec a
        jr z, .last                 ; The last one?  No comma after it.
        push bc
        push hl
        ld hl, str_houses_comma
        call msg_print
        pop hl
        pop bc
.last:  djnz .take                  ; Another property wanted?
        jr .extras
.none:  call msg_print
.extras:
        ld a, (trade_b)
        call trade_summary_extras
        ld hl, str_trade_stop
        call msg_print
        jp msg_clear                ; the messages at their own lines again

; ---------------------------------------------------------------------------------------------
; trade_summary_extras - " + a Jail Free card" and " + £n" for what a side adds
; Input: A = a or b.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_summary_extras:
        ld c, a
        ld hl, trade_a
        cp (hl)
        ld a, (trade_card_a)
        jr z, .card                 ; trade_a?  Its card.
        ld a, (trade_card_b)
.card:  or a
        jr z, .cash                 ; No card?
        push bc
        ld hl, str_trade_plus_card
        call msg_print
        pop bc
.cash:  ld a, (trade_cash_to)
        cp NO_PLAYER
        ret z                       ; No cash balance?
        cp c
        ret z                       ; Does it receive the balance?  The other side adds it.
        ld hl, str_trade_plus
        call msg_print
        ld hl, (trade_cash)
        jp msg_money

; ---------------------------------------------------------------------------------------------
; trade_transfer - carry the deal out: the cash balance (player to player), the cards, the
; properties (property_give), then the interest on mortgaged ones (trade_mortgaged)
; Input: the deal, checked.  Output: done.  Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
trade_transfer:
        push ix
        ld a, (trade_b)             ; the record: the deal, then each thing that changes hands
        ld c, a
        ld a, (trade_a)
        ld b, a
        ld de, 0
        ld hl, (trade_cash)
        ld a, EVK_TRADE
        call event_emit
        ld hl, (trade_cash)
        ld a, h
        or l
        jr z, .cards                ; No cash balance?
        call trade_cash_payer
        call player_record
        push hl
        pop ix
        ld hl, (trade_cash)
        call cash_sub               ; from one player to the other: not the Bank's
        EVENT_CAUSE EVK_TRADE_CASH
        call trade_cash_payer
        ld hl, trade_cash_to
        ld c, (hl)
        ld hl, (trade_cash)
        call event_money
        ld a, (trade_cash_to)
        ld hl, (trade_cash)
        call cash_credit
.cards: ld a, (trade_card_a)
        ld b, a
        ld a, (trade_b)
        ld c, a
        ld a, (trade_a)
        call trade_move_card
        ld a, (trade_card_b)
        ld b, a
        ld a, (trade_a)
        ld c, a
        ld a, (trade_b)
        call trade_move_card
        ld a, (trade_b)             ; the properties
        ld c, a
        ld a, (trade_a)
        ld b, a
        ld a, (trade_give)
        call trade_record_deed
        call property_give
        ld a, (trade_take_count)
        or a
        jr z, .interest             ; No property wanted?
        ld b, a
        ld hl, trade_take
.take:  push bc
        push hl
        ld a, (trade_a)
        ld c, a
        ld a, (trade_b)
        ld b, a
        ld a, (hl)
        call trade_record_deed
        call property_give
        pop hl
        pop bc
        inc hl
        djnz .take                  ; Another property wanted?
.interest:
        ld a, (trade_b)
        ld c, a
        ld a, (trade_give)
        call trade_mortgaged
        ld a, (trade_take_count)
        or a
        jr z, .done                 ; No property wanted?
        ld b, a
        ld hl, trade_take
.mortgaged:
        push bc
        push hl
        ld a, (trade_a)
        ld c, a
        ld a, (hl)
        call trade_mortgaged
        pop hl
        pop bc
        inc hl
        djnz .mortgaged             ; Another property wanted?
.done:  call board_draw_players
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; trade_record_deed - declare a property changing hands (the record, events.asm)
; Input: A = square, B = from, C = to.  Output: recorded.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
trade_record_deed:
        push af
        push de
        push hl
        ld d, a
        ld e, 0
        ld hl, 0
        ld a, EVK_DEED
        call event_emit
        pop hl
        pop de
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; trade_move_card - a Jail Free card from one player to another
; Input: A = from, C = to, B = the JC_* bit (0: none).  Output: P_JAIL_CARDS.
; Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_move_card:
        push bc
        ld e, a
        ld a, b
        or a
        jr z, .none                 ; No card?
        push bc                     ; the record: the card changes hands
        ld d, 0
        ld hl, 0
        ld a, b
        ld b, e
        ld e, a
        ld a, EVK_JAIL_CARD
        call event_emit
        ld a, b
        pop bc
        ld e, a
        ld a, e
        call player_record
        ld de, P_JAIL_CARDS
        add hl, de
        ld a, b
        cpl
        and (hl)
        ld (hl), a
        ld a, c
        call player_record
        ld de, P_JAIL_CARDS
        add hl, de
        pop bc
        push bc
        ld a, (hl)
        or b
        ld (hl), a
.none:  pop bc
        ret

; ---------------------------------------------------------------------------------------------
; trade_mortgaged - a property just handed over, if mortgaged: the new owner pays the Bank
; 10 % now and may lift the mortgage at once for the principal (A54).  A human is asked; a
; computer lifts it when the principal leaves it its reserve.
; Input: A = square, C = the new owner (able to pay the interest: trade_interest_check).
; Output: paid, perhaps lifted.  Corrupts: AF, BC, DE, HL, IY (keeps IX).
; ---------------------------------------------------------------------------------------------
trade_mortgaged:
        ld (trade_square), a
        ld a, c
        ld (trade_side), a
        ld a, (trade_square)
        call square_owner
        bit SQ_MORTGAGED, c
        ret z                       ; Not mortgaged?  Nothing to pay.
        push ix
        ld a, (trade_side)
        call player_record
        push hl
        pop ix
        ld a, (trade_square)
        ld (event_square), a
        call mortgage_interest      ; HL = interest, DE = the loan
        ld (trade_loan), de
        push hl
        push hl
        EVENT_CAUSE EVK_INTEREST
        call bank_pay_ix_exact
        ld a, (trade_side)
        call msg_show_player
        ld hl, str_trade_pays_interest
        call msg_print
        pop hl
        call msg_money
        ld hl, str_trade_on
        call msg_print
        ld a, (trade_square)
        call msg_square_name
        call msg_stop
        pop hl
        ld l, (ix+P_CASH)           ; can it lift it now?
        ld h, (ix+P_CASH+1)
        ld de, (trade_loan)
        or a
        sbc hl, de
        jr c, .keep                 ; Is the loan more than its cash?  It stays mortgaged.
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .ask                  ; A human?  Asked.
        call ai_params
        ld hl, (trade_loan)
        call ai_cash_after
        jr c, .keep                 ; Would lifting leave less than its reserve?
        jr .lift
.ask:   ld hl, str_trade_lift_question
        call msg_print
        ld hl, (trade_loan)
        call msg_money
        ld hl, str_trade_question
        call ask_yn
        jr nc, .keep                ; N: kept mortgaged?
.lift:  ld a, (trade_square)       ; the record: the principal (the 10 % is paid)
        ld (event_square), a
        EVENT_CAUSE EVK_LIFT
        ld hl, (trade_loan)
        call bank_pay_ix_exact
        ld a, (trade_square)
        call square_owner
        res SQ_MORTGAGED, (hl)
        ld a, (trade_square)
        call board_draw_square
        ld a, (trade_side)
        call msg_show_player
        ld hl, str_mortgage_lifts
        call msg_print
        ld a, (trade_square)
        call msg_square_name
        call msg_stop
.keep:  call houses_pause
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; trade_value - a property's value to a computer judging a deal: its printed price, half
; (the mortgage value) if mortgaged - the short game's valuation (A63)
; Input: A = square.  Output: DE = pounds.  Corrupts: AF, C, HL.
; ---------------------------------------------------------------------------------------------
trade_value:
        push af
        call square_owner
        pop af
        push bc
        call board_record
        pop bc
        ld de, BOARD_PRICE
        bit SQ_MORTGAGED, c
        jr z, .price                ; Not mortgaged?  The printed price.
        ld de, BOARD_MORTGAGE
.price: add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ret

; ---------------------------------------------------------------------------------------------
; trade_take_worth - the properties wanted from trade_b, valued as a computer values them
; (trade_value each; the sum stops at 65535)
; Input: trade_take_count, trade_take.  Output: HL = pounds.  Corrupts: AF, B, DE.
; ---------------------------------------------------------------------------------------------
trade_take_worth:
        ld hl, 0
        ld a, (trade_take_count)
        or a
        ret z                       ; Nothing wanted?
        ld b, a
        ld de, trade_take
.take:  push bc
        push de
        push hl
        ld a, (de)
        call trade_value            ; DE = its worth
        pop hl
        call trade_add_sum
        pop de
        pop bc
        inc de
        djnz .take                  ; Another property wanted?
        ret

; ---------------------------------------------------------------------------------------------
; trade_add_sum - HL + DE, stopping at 65535
; Input: HL, DE.  Output: HL.  Corrupts: F.
; ---------------------------------------------------------------------------------------------
trade_add_sum:
        add hl, de
        ret nc                      ; Within 65535?
        ld hl, 0xFFFF
        ret

; ---------------------------------------------------------------------------------------------
; trade_ai_self - a computer about to judge a deal: its record and its personality
; Input: A = player.  Output: IX = its record, IY = its personality's row.
; Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
trade_ai_self:
        call player_record
        push hl
        pop ix
        jp ai_params

; ---------------------------------------------------------------------------------------------
; trade_ai_accepts - does the computer player trade_b accept the deal?  It values both sides
; at printed prices (mortgaged: half), a Jail Free card at TRADE_CARD_VALUE, plus the cash;
; the interest it must pay at once counts against the deal.  It accepts when what it gets is
; worth more than what it gives plus its personality's margin (AI_TRADE_MARGIN, sixteenths
; of what it gives; AI_NEVER_TRADES: never), and the cash it pays out leaves it its reserve (AI_RESERVE).
; Input: the deal.  Output: carry set: accepts.  Corrupts: AF, BC, DE, HL, IY (keeps IX).
; ---------------------------------------------------------------------------------------------
trade_ai_accepts:
        push ix
        ld a, (trade_b)
        call trade_ai_self          ; IX = its record, IY = its personality
        ld a, (trade_give)          ; what it gets
        call trade_value
        ex de, hl
        ld a, (trade_card_a)
        or a
        jr z, .no_card_a            ; No card from trade_a?
        ld de, TRADE_CARD_VALUE
        call trade_add_sum
.no_card_a:
        ld (trade_gets), hl
        call trade_take_worth       ; what it gives: the properties wanted of it
        ld a, (trade_card_b)
        or a
        jr z, .no_card_b            ; No card from trade_b?
        ld de, TRADE_CARD_VALUE
        call trade_add_sum
.no_card_b:
        ld (trade_gives), hl
        ld a, (trade_b)             ; the interest it pays now: paid out, and a cost
        call trade_interest_due
        ld (trade_pays), hl
        ex de, hl
        ld hl, (trade_gives)
        call trade_add_sum
        ld (trade_gives), hl
        ld a, (trade_cash_to)       ; the cash balance
        cp NO_PLAYER
        jr z, .judge                ; No cash balance?
        ld hl, trade_b
        cp (hl)
        ld de, (trade_cash)
        jr nz, .pays                ; Does trade_a receive it?  trade_b pays.
        ld hl, (trade_gets)
        call trade_add_sum
        ld (trade_gets), hl
        jr .judge
.pays:  ld hl, (trade_gives)
        call trade_add_sum
        ld (trade_gives), hl
        ld hl, (trade_pays)
        call trade_add_sum
        ld (trade_pays), hl
.judge: ld b, (iy+AI_TRADE_MARGIN)  ; the margin: gives / 16 * margin (issue 11: the margins
        ld a, b                     ; are a column of ai.asm's ai_personalities now)
        cp AI_NEVER_TRADES
        jr z, .no                   ; Does it never trade?  (the Buyer baseline)
        ld hl, (trade_gives)
        ld c, TRADE_MARGIN_SHIFT
.shift: srl h
        rr l
        dec c
        jr nz, .shift               ; Shifted four times?
        ex de, hl                   ; DE = a sixteenth
        ld hl, (trade_gives)
        ld a, b
        or a
        jr z, .threshold            ; No margin?
.margin:
        call trade_add_sum
        djnz .margin                ; Another sixteenth to add?
.threshold:                         ; HL = gives + margin: gets must be more
        ex de, hl
        ld hl, (trade_gets)
        or a
        sbc hl, de
        jr c, .no                   ; Gets less than gives and the margin?
        jr z, .no                   ; Just as much?  Not enough.
        ld hl, (trade_pays)         ; and it keeps its reserve
        call ai_cash_after
        jr c, .no                   ; Would the cash it pays leave less than its reserve?
        pop ix
        scf
        ret
.no:    pop ix
        or a
        ret

; ---------------------------------------------------------------------------------------------
; trade_ai_accepts_kind - trade_ai_accepts' judgement of a property offered in part payment
; (trade_in_kind): what the computer trade_b gets is the property; what it gives is the debt
; it forgoes (trade_kind_value) and the interest it pays at once, which is all the cash it
; pays out (the reserve is kept).
; Input: the offer.  Output: carry set: accepts.  Corrupts: AF, BC, DE, HL, IY (keeps IX).
; ---------------------------------------------------------------------------------------------
trade_ai_accepts_kind:
        push ix                     ; (popped by trade_ai_accepts' judge)
        ld a, (trade_b)
        call trade_ai_self          ; IX = its record, IY = its personality
        ld a, (trade_give)
        call trade_value
        ld (trade_gets), de
        ld a, (trade_b)
        call trade_interest_due
        ld (trade_pays), hl
        ld de, (trade_kind_value)
        call trade_add_sum
        ld (trade_gives), hl
        jp trade_ai_accepts.judge

; ---------------------------------------------------------------------------------------------
; trade_ai_accepts_a - issue 11 hook: the same judgement made by trade_a, for a computer's
; proposal to a computer owner (ai_trade_propose builds its deals with the owner as trade_a,
; giving the wanted property, so that a cash-only offer fits the deal's shape).  What a gets:
; b's properties and card and a balance paid to a; what it gives: its property and card, the
; interest it pays at once and a balance it pays.  The rest is trade_ai_accepts' own judge.
; Input: the deal.  Output: carry set: accepts.  Corrupts: AF, BC, DE, HL, IY (keeps IX).
; ---------------------------------------------------------------------------------------------
trade_ai_accepts_a:
        push ix                     ; (popped by trade_ai_accepts' judge)
        ld a, (trade_a)
        call trade_ai_self          ; IX = its record, IY = its personality
        call trade_take_worth       ; what it gets: b's properties
        ld a, (trade_card_b)
        or a
        jr z, .no_card_b            ; No card from trade_b?
        ld de, TRADE_CARD_VALUE
        call trade_add_sum
.no_card_b:
        ld (trade_gets), hl
        ld a, (trade_give)          ; what it gives: its property
        call trade_value
        ex de, hl
        ld a, (trade_card_a)
        or a
        jr z, .no_card_a            ; No card from trade_a?
        ld de, TRADE_CARD_VALUE
        call trade_add_sum
.no_card_a:
        ld (trade_gives), hl
        ld a, (trade_a)             ; the interest it pays now: paid out, and a cost
        call trade_interest_due
        ld (trade_pays), hl
        ex de, hl
        ld hl, (trade_gives)
        call trade_add_sum
        ld (trade_gives), hl
        ld a, (trade_cash_to)       ; the cash balance
        cp NO_PLAYER
        jp z, trade_ai_accepts.judge    ; No cash balance?
        ld hl, trade_a
        cp (hl)
        ld de, (trade_cash)
        jp nz, trade_ai_accepts.pays    ; Does trade_b receive it?  trade_a pays.
        ld hl, (trade_gets)
        call trade_add_sum
        ld (trade_gets), hl
        jp trade_ai_accepts.judge

; ---------------------------------------------------------------------------------------------
; trade_retire - X with OPT_RETIRE: a player leaves the game after a Y (seed 003 "Quitar")
; Input: none.  Output: perhaps a player out.  Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
trade_retire:
        ld a, (v_options)
        bit OPT_RETIRE, a
        ret z                       ; The retire option off?
        call msg_clear
        ld hl, str_trade_retire_who
        call ask_player
        ret c                       ; ENTER: nobody?
        ld (trade_side), a
        call msg_clear
        ld a, (trade_side)
        call msg_player
        ld hl, str_trade_retire_sure
        call ask_yn
        ret nc                      ; N: not sure?
        ld a, (trade_side)
        ; continues into trade_retire_player

; ---------------------------------------------------------------------------------------------
; trade_retire_player - a player leaves: property back to the Bank unowned (buildings to the
; stock, mortgages cleared), cash to the Bank, Jail Free cards to their packs, out of the
; game (not bankrupt), the token off the board, rent pending to or from him forgotten
; Input: A = player.  Output: done and shown.  Corrupts: AF, BC, DE, HL, IY (keeps IX).
; ---------------------------------------------------------------------------------------------
trade_retire_player:
        push ix
        ld (trade_side), a
        ld b, a                     ; the record
        ld a, EVK_RETIRE
        ld de, 0
        ld hl, 0
        call event_player
        ld a, (trade_side)
        call player_record
        push hl
        pop ix
        ld b, 0                     ; B = square
.square:
        push bc
        ld a, (trade_side)
        inc a
        ld c, a
        ld a, b
        push bc
        call square_owner
        pop bc
        cp c
        jr nz, .next                ; Not his?
        ld a, b
        call group_built
        jr nc, .bare                ; No buildings in its group?
        pop bc
        push bc
        ld a, b
        call group_clear_buildings  ; back to the stock (no payment: his cash goes too)
.bare:  pop bc
        push bc
        ld a, (trade_side)          ; the record: the deed back to the Bank
        ld c, EV_BANK
        ld d, b
        ld b, a
        ld a, d
        call trade_record_deed
        pop bc
        push bc
        ld a, b
        call square_owner
        ld (hl), 0                  ; the Bank's, unmortgaged
        pop bc
        push bc
        ld a, b
        call board_draw_square
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .square               ; Another square?
        ld l, (ix+P_CASH)           ; the cash to the Bank
        ld h, (ix+P_CASH+1)
        ld (ix+P_CASH), 0
        ld (ix+P_CASH+1), 0
        EVENT_CAUSE EVK_RETIRE_CASH
        ld a, (trade_side)
        ld c, EV_BANK
        call event_money
        call bank_gain
        ld a, (ix+P_JAIL_CARDS)     ; the cards back to their packs
        ld (ix+P_JAIL_CARDS), 0
        call cards_return_held
        res PF_PLAYING, (ix+P_FLAGS)
        res PF_IN_JAIL, (ix+P_FLAGS)
        ld a, (ix+P_SQUARE)         ; the token leaves the board
        call board_draw_square
        ld a, (trade_side)
        ld hl, v_rent_payer
        cp (hl)
        jr z, .no_rent              ; Does he owe rent now?  Forgotten.
        ld hl, v_rent_owner
        cp (hl)
        jr nz, .shown               ; Not owed rent either?
.no_rent:
        ld a, NO_PLAYER
        ld (v_rent_payer), a
        ld (v_rent_owner), a
.shown: call board_draw_players
        ld a, (trade_side)
        call msg_show_player
        ld hl, str_trade_retired
        call msg_print
        call snd_low
        call houses_pause
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; Strings
; ---------------------------------------------------------------------------------------------
str_trade_who:       db "TRADE: who is trading? Player's number (ENTER: nobody): ", 0
str_trade_computer:  db "A computer player trades on its own.", 0
str_trade_give_help: db ": the ONE property you give. CAPS+5/8 move, SPACE details, ENTER choose, Q quit.", 0
str_trade_not_theirs: db "That is not the trader's property.", 0
str_trade_group_built: db "No trade while its colour group has buildings: sell them to the Bank first.", 0
str_trade_more:      db "Add a property wanted from ", 0
str_trade_another:   db "Another property wanted?", 0
str_trade_want_help: db "Property wanted: CAPS+5/8 move, SPACE details, ENTER choose, Q none.", 0
str_trade_nobodys:   db "Nobody owns that.", 0
str_trade_yours:     db "That is the trader's own.", 0
str_trade_not_partner: db "That is not ", 0
str_trade_partners:  db "'s property.", 0
str_trade_himself:   db "A trade is between two players. Trading with whom? Player's number: ", 0
str_trade_nothing:   db 0
str_trade_twice:     db "Chosen already.", 0
str_trade_added:     db "Wanted: ", 0
str_trade_with:      db "Trading with whom? Player's number: ", 0
str_trade_card_question: db " adds a Get Out of Jail Free card?", 0
str_trade_cash_question: db "A cash adjustment?", 0
str_trade_cash_to:   db " To which player? ", 0
str_trade_how_much:  db " How much? ", CH_POUND, 0
str_trade_no_borrowing: db "Players may not borrow: the payer has not that much cash.", 0
str_trade_no_interest: db " could not pay the 10% interest on mortgaged property: no deal.", 0
str_trade_the_deal:  db "THE DEAL: ", 0
str_trade_gives:     db " gives ", 0
str_trade_and:       db "; ", 0
str_trade_no_property: db "no property", 0
str_trade_plus_card: db " + a Jail Free card", 0
str_trade_plus:      db " + ", 0
str_trade_stop:      db ".", 0
str_trade_agree:     db " agrees?", 0
str_trade_accepts:   db " accepts the deal.", 0
str_trade_declines:  db " declines the deal.", 0
str_trade_refused:   db "The deal is refused.", 0
str_trade_done:      db "The deal is done.", 0
str_trade_kind_value: db ": its value in payment? ", CH_POUND, 0
str_trade_kind_too_much: db "More than is owed.", 0
str_trade_kind_offers: db " offers ", 0
str_trade_kind_for:  db " for ", 0
str_trade_kind_of_debt: db " of the debt.", 0
str_trade_pays_interest: db " pays the Bank 10% interest, ", 0
str_trade_on:        db ", on ", 0
str_trade_lift_question: db ". Lift it now for ", 0
str_trade_question:  db "?", 0
str_trade_retire_who: db "RETIRE: who leaves the game? Player's number (ENTER: nobody): ", 0
str_trade_retire_sure: db " leaves; his property goes back to the Bank. Sure?", 0
str_trade_retired:   db " has retired from the game.", 0
