; =============================================================================================
; cards.asm - the Chance and Community Chest packs: shuffled at the start, drawn from the top,
; put back at the bottom; every card's effect (A28-A30; cards_uk.json)
;
; A pack is an array of card numbers (v_chance / v_chest, top first) and a count.  A Get Out
; of Jail Free card leaves its pack while a player holds it (P_JAIL_CARDS) and goes back to
; the bottom when used (A29).
; =============================================================================================

PACK_CHANCE     equ 0
PACK_CHEST      equ 1
CARDS_IN_PACK   equ CARDS_PER_PACK
CARD_PAUSE      equ 100             ; frames to read a card
FINE_OR_CHANCE_TAKE equ 1           ; the pack a "fine or Chance" card sends to

; ---------------------------------------------------------------------------------------------
; cards_shuffle_all - both packs in order 0..15, then shuffled (Fisher-Yates with rng_below)
; Input: v_seed.  Output: v_chance, v_chest full and shuffled.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
cards_shuffle_all:
        ld hl, v_chance
        call .pack
        ld hl, v_chest
.pack:  push hl                     ; the cards in order; count = 16
        ld b, CARDS_IN_PACK
        xor a
.fill:  ld (hl), a
        inc hl
        inc a
        djnz .fill
        ld (hl), CARDS_IN_PACK      ; the count follows the 16 cards
        pop hl
        ld b, CARDS_IN_PACK         ; swap card i-1 with a random card 0..i-1, i = 16..2
.swap:  push bc
        push hl
        ld a, b
        call rng_below              ; A = 0..i-1
        pop hl
        push hl
        ld e, a
        ld d, 0
        add hl, de                  ; HL = the random card
        ex de, hl
        pop hl
        pop bc
        push bc
        push hl
        ld a, b
        dec a
        add a, l
        ld l, a
        adc a, h
        sub l
        ld h, a                     ; HL = card i-1
        ld a, (de)
        ld c, (hl)
        ld (hl), a
        ld a, c
        ld (de), a
        pop hl
        pop bc
        dec b
        ld a, b
        cp 2
        jr nc, .swap                ; Two cards or more still to shuffle?
        ret
        assert v_chance_count == v_chance + CARDS_IN_PACK
        assert v_chest_count == v_chest + CARDS_IN_PACK

; ---------------------------------------------------------------------------------------------
; cards_chance_draw - the current player draws a Chance card and obeys
; Input: IX = the current player.  Output: the card's effect done.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
cards_chance_draw:
        ld c, PACK_CHANCE
        jr cards_draw

; ---------------------------------------------------------------------------------------------
; cards_chest_draw - the current player draws a Community Chest card and obeys
; Input: IX = the current player.  Output: the card's effect done.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
cards_chest_draw:
        ld c, PACK_CHEST
        ; continues into cards_draw

; ---------------------------------------------------------------------------------------------
; cards_draw - take the top card of a pack, show it, put it at the bottom (a Get Out of Jail
; Free card is kept by the player instead) and carry out its effect.  bank_paying is one more
; while the card is shown: a card drawn is obeyed though the short game's time runs out as it
; is read (booklet A: the player in play completes his move and its transactions)
; Input: IX = the current player, C = PACK_*.  Output: done.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
cards_draw:
        ld a, c
        ld (card_pack), a
        call cards_pack_address     ; HL = the pack
        ld a, (hl)                  ; the top card
        ld (card_number), a
        push hl                     ; move the others up by one
        ld d, h
        ld e, l
        inc hl
        ld bc, CARDS_IN_PACK - 1
        ldir
        pop hl
        ld a, (card_number)
        call cards_record           ; IY = the card's record
        ld a, (iy+CARD_EFFECT)
        cp EFFECT_JAIL_FREE
        jr z, .kept                 ; Get Out of Jail Free?  (kept, not put back)
        ld de, CARDS_IN_PACK        ; to the bottom: position count - 1
        push hl
        add hl, de
        ld a, (hl)                  ; the count
        pop hl
        dec a
        ld e, a
        add hl, de
        ld a, (card_number)
        ld (hl), a
        jr .shown
.kept:  ld de, CARDS_IN_PACK        ; the pack is a card shorter while it is held
        add hl, de
        dec (hl)
        ld a, (card_pack)
        or a
        ld a, 1 << JC_CHANCE
        jr z, .bit                  ; From the Chance pack?
        ld a, 1 << JC_CHEST
.bit:   or (ix+P_JAIL_CARDS)
        ld (ix+P_JAIL_CARDS), a
.shown: ld a, (card_pack)           ; v_last_card = pack * 16 + card
        rrca
        rrca
        rrca
        rrca
        ld hl, card_number
        or (hl)
        ld (v_last_card), a
        ld d, a                     ; the record: who drew which card
        call player_of_record
        ld b, a
        ld a, EVK_CARD_DRAWN
        ld e, 0
        ld hl, 0
        call event_player
        ld hl, bank_paying          ; the card drawn is owed: the short game's time running
        inc (hl)                    ; out while it is read does not cut it (game_idle)
        call cards_show
        ld hl, bank_paying          ; its effect holds the end itself while a debt is paid
        dec (hl)
        ld a, (iy+CARD_EFFECT)      ; the effect
        add a, a
        ld e, a
        ld d, 0
        ld hl, cards_effects
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        jp (hl)
        assert CARDS_IN_PACK == 16

; The effect routines by EFFECT_* code: each gets IX = player, IY = the card's record.
cards_effects:
        dw card_move_to             ; EFFECT_MOVE_TO
        dw card_move_back_to        ; EFFECT_MOVE_BACK_TO
        dw card_move_by             ; EFFECT_MOVE_BY
        dw jail_send_card           ; EFFECT_GO_TO_JAIL
        dw card_pay_bank            ; EFFECT_PAY_BANK
        dw card_collect_bank        ; EFFECT_COLLECT_BANK
        dw card_repairs             ; EFFECT_REPAIRS
        dw card_collect_from_each   ; EFFECT_COLLECT_FROM_EACH
        dw card_jail_free           ; EFFECT_JAIL_FREE
        dw card_fine_or_chance      ; EFFECT_FINE_OR_CHANCE
        assert ($ - cards_effects) / 2 == EFFECT_FINE_OR_CHANCE + 1

; ---------------------------------------------------------------------------------------------
; cards_pack_address - a pack's card array (its count follows the 16 bytes)
; Input: A = PACK_*.  Output: HL.  Corrupts: F.
; ---------------------------------------------------------------------------------------------
cards_pack_address:
        ld hl, v_chance
        or a
        ret z                       ; The Chance pack?
        ld hl, v_chest
        ret

; ---------------------------------------------------------------------------------------------
; cards_record - a card's record in its pack's table
; Input: A = card 0..15, card_pack.  Output: IY = the record.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
cards_record:
        add a, a
        add a, a
        add a, a                    ; * CARD_RECORD
        ld e, a
        ld d, 0
        ld iy, cards_chance
        ld a, (card_pack)
        or a
        jr z, .add                  ; The Chance pack?
        ld iy, cards_chest
.add:   add iy, de
        ret
        assert CARD_RECORD == 8

; ---------------------------------------------------------------------------------------------
; cards_show - the pack's name and the card's text on the message lines, then a pause
; Input: card_pack, card_number.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
cards_show:
        ld a, (card_pack)
        or a
        ld hl, str_cards_chance
        ld de, cards_chance_texts
        jr z, .name                 ; The Chance pack?
        ld hl, str_cards_chest
        ld de, cards_chest_texts
.name:  push de
        call msg_show
        pop hl
        ld a, (card_number)
        add a, a
        ld e, a
        ld d, 0
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        call msg_print
        call msg_stop               ; (the cards' texts end without one)
        call snd_beep
        ld b, CARD_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; card_move_to - advance to a square, with the salary if GO is passed and the card says so
; Input: IX = player, IY = card.  Output: moved; the square's effect done.  Corrupts: all
; but IX.
; ---------------------------------------------------------------------------------------------
card_move_to:
        ld a, (iy+CARD_SQUARE)
        sub (ix+P_SQUARE)
        jr nc, .ahead               ; Is the square ahead without passing GO?
        add a, BOARD_SQUARES
.ahead: jr nz, .move                ; Not the square it is on?  (else all the way round)
        ld a, BOARD_SQUARES            ; to the square it is on: all the way round
.move:  ld c, (iy+CARD_SALARY)
        call move_forward_salary
        jp land

; ---------------------------------------------------------------------------------------------
; card_move_back_to - go back to a square (no salary going backwards)
; Input: IX = player, IY = card.  Output: moved, landed.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
card_move_back_to:
        ld a, (ix+P_SQUARE)
        sub (iy+CARD_SQUARE)
        jr nc, .behind              ; Is the square behind without passing GO?
        add a, BOARD_SQUARES
.behind:
        or a
        jp z, land                  ; On that square already?
        call move_backward
        jp land

; ---------------------------------------------------------------------------------------------
; card_move_by - move a number of squares, back if negative ("Go back three spaces")
; Input: IX = player, IY = card.  Output: moved, landed.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
card_move_by:
        ld a, (iy+CARD_STEPS)
        or a
        jp z, land                  ; No steps?
        jp m, .back                 ; Backwards?
        ld c, (iy+CARD_SALARY)
        call move_forward_salary
        jp land
.back:  neg
        call move_backward
        jp land

; ---------------------------------------------------------------------------------------------
; card_pay_bank - pay the card's amount to the Bank (the jackpot with OPT_JACKPOT)
; Input: IY = card.  Output: paid.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
card_pay_bank:
        call cards_cause
        ld l, (iy+CARD_AMOUNT)
        ld h, (iy+CARD_AMOUNT+1)
        jp bank_pay_fine

; ---------------------------------------------------------------------------------------------
; card_collect_bank - the Bank pays the card's amount
; Input: IX = player, IY = card.  Output: received.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
card_collect_bank:
        call cards_cause
        ld l, (iy+CARD_AMOUNT)
        ld h, (iy+CARD_AMOUNT+1)
        jp bank_receive_ix

; ---------------------------------------------------------------------------------------------
; card_repairs - pay per house and per hotel owned
; Input: IX = player, IY = card.  Output: paid (nothing without buildings).
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
card_repairs:
        ld a, (v_current)
        inc a
        ld (card_repairs_owner), a
        ld hl, 0                    ; HL = the bill
        ld b, 0                     ; B = square
.square:
        push bc
        push hl
        ld a, b
        call square_owner           ; A = owner + 1, C = the square byte
        ld hl, card_repairs_owner
        cp (hl)
        pop hl
        jr nz, .next                ; Not the player's?
        ld a, c
        and SQ_BUILD_MASK
        jr z, .next                 ; No buildings on it?
        cp SQ_HOTEL << SQ_BUILD_SHIFT
        jr z, .hotel                ; A hotel?
        rrca
        rrca
        rrca
        rrca
        ld b, a                     ; houses
        ld e, (iy+CARD_AMOUNT)
        ld d, (iy+CARD_AMOUNT+1)
.house: add hl, de
        djnz .house
        jr .next
.hotel: ld e, (iy+CARD_PER_HOTEL)
        ld d, (iy+CARD_PER_HOTEL+1)
        add hl, de
.next:  pop bc
        inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .square               ; Another square to look at?
        ld a, h
        or l
        ret z                       ; Nothing to pay (no buildings)?
        push hl
        ld hl, str_cards_repairs_bill
        call msg_show
        pop hl
        push hl
        call msg_money
        call msg_stop
        pop hl
        call cards_cause
        jp bank_pay_fine

; ---------------------------------------------------------------------------------------------
; card_collect_from_each - every other player still in the game pays the card's amount
; Input: IX = player, IY = card.  Output: paid (a short payer raises money or goes bankrupt
; to the player).  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
card_collect_from_each:
        ld b, 0
.player:
        ld a, (v_num_players)
        cp b
        ret z                       ; Every player asked?
        ret c                       ; Past the last player?
        push bc
        ld a, (v_current)
        cp b
        jr z, .next                 ; The player who drew the card?
        ld a, b
        call player_record
        bit PF_PLAYING, (hl)
        jr z, .next                 ; Out of the game?
        pop bc
        push bc
        ld a, (v_current)
        ld c, a
        ld a, b
        ld l, (iy+CARD_AMOUNT)
        ld h, (iy+CARD_AMOUNT+1)
        call cards_cause
        push iy
        call bank_pay
        pop iy
.next:  pop bc
        inc b
        jr .player

; ---------------------------------------------------------------------------------------------
; cards_cause - name the card drawn last (v_last_card) as the cause of the next money move
; Input: v_last_card.  Output: event_cause = EVK_CARD, event_square = the card.
; Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
cards_cause:
        push af
        ld a, (v_last_card)
        ld (event_square), a
        pop af
        EVENT_CAUSE EVK_CARD
        ret

; ---------------------------------------------------------------------------------------------
; card_jail_free - a Get Out of Jail Free card: kept (cards_draw has noted it)
; Input: none.  Output: none.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
card_jail_free:
        ret

; ---------------------------------------------------------------------------------------------
; card_fine_or_chance - "Pay a £10 fine or take a Chance": the player chooses.  bank_paying
; is one more while a human is asked: the card is owed either way, so the short game's time
; running out at the question waits for the answer (game_idle)
; Input: IX = player, IY = card.  Output: the fine paid, or a Chance card drawn and obeyed.
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
card_fine_or_chance:
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .ask                  ; A human?  (asked; a computer decides)
        push iy
        call ai_fine_or_chance
        pop iy
        jr c, .chance               ; Does the computer take a Chance?
        jr .fine
.ask:   ld hl, bank_paying          ; the answer is owed: the end waits for it
        inc (hl)
        call msg_clear
        ld hl, str_cards_take_chance
        push iy
        call ask_yn
        pop iy
        ld hl, bank_paying          ; (DEC keeps the carry; the fine or the Chance card drawn
        dec (hl)                    ; holds the end itself)
        jr c, .chance               ; Y: take a Chance?
.fine:  call cards_cause
        EVENT_CAUSE EVK_FINE_CARD
        ld l, (iy+CARD_AMOUNT)
        ld h, (iy+CARD_AMOUNT+1)
        jp bank_pay_fine
.chance:
        jp cards_chance_draw

; ---------------------------------------------------------------------------------------------
; cards_return_held - put Get Out of Jail Free cards back at the bottom of their packs
; Input: A = JC_* bits of the cards.  Output: the packs one card longer each.
; Corrupts: AF, BC, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
cards_return_held:
        ld c, a
        bit JC_CHANCE, c
        jr z, .chest                ; No Chance card among them?
        push bc
        ld a, PACK_CHANCE
        call cards_return_jail_card
        pop bc
.chest: bit JC_CHEST, c
        ret z                       ; No Community Chest card among them?
        ld a, PACK_CHEST
        ; continues into cards_return_jail_card

; ---------------------------------------------------------------------------------------------
; cards_return_jail_card - a pack's Get Out of Jail Free card back to its bottom
; Input: A = PACK_*.  Output: the card appended.  Corrupts: AF, B, DE, HL, IY.
; ---------------------------------------------------------------------------------------------
cards_return_jail_card:
        ld (card_pack), a
        ld b, 0                     ; find the card by its effect
.find:  ld a, b
        call cards_record
        ld a, (iy+CARD_EFFECT)
        cp EFFECT_JAIL_FREE
        jr z, .found                ; The Get Out of Jail Free card?
        inc b
        ld a, b
        cp CARDS_IN_PACK
        jr c, .find                 ; Another card to look at?
        ret
.found: ld a, (card_pack)
        call cards_pack_address
        ld de, CARDS_IN_PACK
        push hl
        add hl, de
        ld a, (hl)                  ; the count
        cp CARDS_IN_PACK
        jr c, .room                 ; Room at the bottom?
        pop hl                      ; a full pack holds the card already: nothing to do
        ret
.room:  inc (hl)
        pop hl
        ld e, a
        add hl, de
        ld (hl), b
        ret

str_cards_chance:     db "CHANCE: ", 0
str_cards_chest:      db "COMMUNITY CHEST: ", 0
str_cards_repairs_bill: db "Repairs cost ", 0
str_cards_take_chance: db "Take a Chance (N: pay the ", CH_POUND, "10 fine)?", 0
