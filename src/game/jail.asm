; =============================================================================================
; jail.asm - going to jail and the ways out (A33-A37; booklet A "Jail")
;
; In: landing on GO TO JAIL, a Go to Jail card, a third double.  No salary on the way.
; Out: a Get Out of Jail Free card or the £50 fine before throwing on the next or the
; following turn; a double on any of the next three turns (move by it and throw again: the
; booklet's "he also has another throw"); after the third failed throw, pay £50 and move.
; A jailed player still collects rent, builds and trades.
; =============================================================================================

JAIL_LAST_FREE_TURN equ 1           ; the fine may be paid before the 1st and 2nd throws
JAIL_TURNS      equ MAX_TURNS_IN_JAIL

; ---------------------------------------------------------------------------------------------
; jail_send - the current player goes straight to jail from the Go to Jail square; the turn
; ends
; Input: IX = player.  Output: on JAIL_SQUARE, PF_IN_JAIL, no jail turns yet; the record
; says how.  Corrupts: all but IX, IY.
; ---------------------------------------------------------------------------------------------
jail_send:
        ld e, JAIL_BY_SQUARE
        jr jail_send_by

; ---------------------------------------------------------------------------------------------
; jail_send_card - jail_send for a "Go to jail" card
; Input: IX = player.  Output: as jail_send.  Corrupts: all but IX, IY.
; ---------------------------------------------------------------------------------------------
jail_send_card:
        ld e, JAIL_BY_CARD
        ; continues into jail_send_by

; ---------------------------------------------------------------------------------------------
; jail_send_by - the message and the low tone, then jail_send_record
; Input: IX = player, E = JAIL_BY_*.  Output: as jail_send.  Corrupts: all but IX, IY.
; ---------------------------------------------------------------------------------------------
jail_send_by:
        push de
        ld hl, str_jail_go_to_jail
        call msg_show
        call snd_low
        pop de
        jr jail_send_record

; ---------------------------------------------------------------------------------------------
; jail_send_now - jail_send without its message and tone (the caller has said why: the
; third double)
; Input: IX = player.  Output: as jail_send.  Corrupts: all but IX, IY.
; ---------------------------------------------------------------------------------------------
jail_send_now:
        ld e, JAIL_BY_DOUBLES
        ; continues into jail_send_record

; ---------------------------------------------------------------------------------------------
; jail_send_record - declare the way in (the record), move the token there and end the turn
; Input: IX = player, E = JAIL_BY_*.  Output: as jail_send.  Corrupts: all but IX, IY.
; ---------------------------------------------------------------------------------------------
jail_send_record:
        call player_of_record
        ld b, a
        ld a, EVK_JAIL_IN
        ld d, JAIL_SQUARE
        ld hl, 0
        call event_player
        ld a, JAIL_SQUARE
        call move_token_to          ; straight there, not round the board
        set PF_IN_JAIL, (ix+P_FLAGS)
        ld (ix+P_JAIL_TURNS), 0
        xor a
        ld (v_doubles), a
        ld a, (ix+P_SQUARE)
        push ix
        call closeup_show
        call board_draw_status
        pop ix
        ld b, LAND_PAUSE
        call pause
        or a                        ; the turn ends
        ret

; ---------------------------------------------------------------------------------------------
; jail_record_out - declare the current player's way out of jail (the record, events.asm)
; Input: IX = player, E = JAIL_OUT_*.  Output: recorded.  Corrupts: AF, B, D, HL.
; ---------------------------------------------------------------------------------------------
jail_record_out:
        call player_of_record
        ld b, a
        ld a, EVK_JAIL_OUT
        ld d, JAIL_SQUARE
        ld hl, 0
        jp event_player

; ---------------------------------------------------------------------------------------------
; jail_release - out of jail
; Input: IX = player.  Output: PF_IN_JAIL clear, P_JAIL_TURNS 0.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
jail_release:
        res PF_IN_JAIL, (ix+P_FLAGS)
        ld (ix+P_JAIL_TURNS), 0
        ret

; ---------------------------------------------------------------------------------------------
; jail_turn - D pressed by a player in jail: a card or the fine first (if the player wants),
; else the throw for a double
; Input: IX = the current player, in jail.  Output: carry set if the player throws again;
; IX = the current player's record again.  Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
jail_turn:
        ld a, (ix+P_JAIL_CARDS)     ; Has the player a Get Out of Jail Free card?
        or a
        jr z, .fine                 ; No card held?
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr nz, .use                 ; A computer?  (it always uses its card)
        call msg_clear
        ld hl, str_jail_use_card
        call ask_yn
        jr nc, .fine                ; N: keep the card?
.use:   ld a, (ix+P_JAIL_CARDS)     ; the Chance card first
        ld c, a
        ld b, 1 << JC_CHANCE
        bit JC_CHANCE, c
        jr nz, .give                ; A Chance card held?  (it goes back first)
        ld b, 1 << JC_CHEST
.give:  ld a, b
        cpl
        and c
        ld (ix+P_JAIL_CARDS), a
        ld a, b
        call cards_return_held
        ld e, JAIL_OUT_CARD
        call jail_record_out
        ld hl, str_jail_card_used
        call msg_show
        jr .out
.fine:  ld a, (ix+P_JAIL_TURNS)     ; Before the next or the following throw: pay £50?
        cp JAIL_LAST_FREE_TURN + 1
        jr nc, .throw               ; Too late for the fine by choice?  (past the second throw)
        ld a, (ix+P_CASH+1)         ; Only with the cash in hand: a fine paid by choice is
        or a                        ; not a debt to raise money for
        jr nz, .can_pay             ; Over 255 in hand?
        ld a, (ix+P_CASH)
        cp JAIL_FINE
        jr c, .throw                ; Less than the fine in hand?
.can_pay:
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .ask_fine             ; A human?  (asked; a computer decides)
        call ai_jail_pay
        jr nc, .throw               ; Does the computer keep its cash?
        jr .pay
.ask_fine:
        call msg_clear
        ld hl, str_jail_pay_fine
        call ask_yn
        jr nc, .throw               ; N: throw for a double instead?
.pay:   ld hl, JAIL_FINE
        EVENT_CAUSE EVK_FINE
        call bank_pay_fine
        jr c, .bankrupt             ; Did the fine bankrupt him?
        ld e, JAIL_OUT_FINE
        call jail_record_out
        ld hl, str_jail_fine_paid
        call msg_show
.out:   call jail_release
        ld b, LAND_PAUSE
        call pause
        jp turn_throw_free          ; and throw as usual
.throw: call turn_dice
        jr nc, .no_double           ; No double?
        ld hl, str_jail_double_out       ; out by a double: move, and throw again
        call msg_print
        ld e, JAIL_OUT_DOUBLE
        call jail_record_out
        call jail_release
        ld a, 1
        ld (v_doubles), a
        ld b, LAND_PAUSE
        call pause
        call jail_move
        jp turn_again
.no_double:
        inc (ix+P_JAIL_TURNS)
        ld a, (ix+P_JAIL_TURNS)
        cp JAIL_TURNS
        jr nc, .third               ; The third failed throw?
        ld hl, str_jail_stay
        call msg_print
        ld b, LAND_PAUSE
        call pause
        or a
        ret
.third: ld hl, str_jail_third_fine       ; the third failed throw: pay and move by it
        call msg_show
        ld b, LAND_PAUSE
        call pause
        ld hl, JAIL_FINE
        EVENT_CAUSE EVK_FINE
        call bank_pay_fine
        jr c, .bankrupt             ; Did the fine bankrupt him?
        ld e, JAIL_OUT_FINE
        call jail_record_out
        call jail_release
        call jail_move
.bankrupt:
        or a                        ; no other throw
        ret

; ---------------------------------------------------------------------------------------------
; jail_move - move out of jail by the dice thrown, and land
; Input: IX = player.  Output: moved and landed.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
jail_move:
        ld a, (v_dice)
        ld b, a
        ld a, (v_dice + 1)
        add a, b
        call move_forward
        jp land

str_jail_go_to_jail: db "Go to jail! Do not pass GO.", 0
str_jail_use_card:   db "Use your Get Out of Jail Free card?", 0
str_jail_card_used:  db "The card is used and goes back to its pack.", 0
str_jail_pay_fine:   db "Pay the ", CH_POUND, "50 fine and leave jail?", 0
str_jail_fine_paid:  db "Fine paid: out of jail.", 0
str_jail_double_out: db " Out of jail!", 0         ; (turn_dice ended its sentence)
str_jail_stay:       db " Still in jail.", 0
str_jail_third_fine: db "Third throw in jail: pay ", CH_POUND, "50 and move.", 0
