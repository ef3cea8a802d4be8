; =============================================================================================
; mortgage.asm - mortgages: the M key, taking a mortgage and lifting it with its 10 %
;
; Booklet part A "Mortgages" (A52-A53) and part C "Mortgage".  Raising money by mortgaging
; (bank_raise, raise_mortgage_one) is bank.asm's; a mortgaged property in a trade trade.asm's.
; =============================================================================================

MORTGAGE_INTEREST_DIVISOR equ 100 / MORTGAGE_INTEREST_PERCENT   ; 10 %: a tenth

; ---------------------------------------------------------------------------------------------
; mortgage_run - M: choose a property with the cursor and mortgage it or lift its mortgage
; (booklet C, Mortgage; A52-A53).  SPACE shows a square's deed; ENTER acts; Q leaves.  With no
; human player owning property it says so at once.
; Input: none.  Output: done.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
mortgage_run:
        call mortgage_humans_own
        ld hl, str_mortgage_nothing
        jp z, refuse_show           ; No human owns property?  Said at once (issue 45).
        call cursor_home
        ld hl, str_mortgage_help
        call msg_show
        ld hl, deed_show
        call cursor_select
        jp c, turn_lower_restore    ; Q: given up?
        ld (mortgage_run_square), a
        call square_owner           ; A = owner + 1, C = the square byte
        or a
        jr z, .act                  ; Nobody's?  (mortgage_toggle says so)
        dec a
        ld (mortgage_run_owner), a
        call player_record          ; The owner decides: a computer for itself, a human
        ld de, P_FLAGS              ; with Y (one keyboard: whoever pressed M may not be
        add hl, de                  ; the owner)
        bit PF_COMPUTER, (hl)
        ld hl, str_mortgage_computer_own
        jr nz, .refused             ; A computer's?  (it mortgages its own)
        call msg_clear
        ld a, (mortgage_run_owner)
        call msg_player
        ld a, (mortgage_run_square)
        call square_owner
        ld hl, str_mortgage_takes
        bit SQ_MORTGAGED, c
        jr z, .ask                  ; Not mortgaged yet?  (then it is taken)
        ld hl, str_mortgage_lifts
.ask:   call msg_print
        ld a, (mortgage_run_square)
        call msg_square_name
        ld hl, str_msg_for
        call msg_print
        ld a, (mortgage_run_square)
        call mortgage_sum
        call msg_money
        ld hl, str_msg_question
        call ask_yn
        jp nc, turn_lower_restore   ; N: left as it is?
.act:   ld a, (mortgage_run_square)
        call mortgage_toggle
        jr .shown
.refused:
        call refuse_show            ; (kept REFUSAL_FRAMES: the menu's prompt waits)
.shown: ld b, LAND_PAUSE
        call pause
        jp turn_lower_restore

; ---------------------------------------------------------------------------------------------
; mortgage_toggle - the M key's ENTER on a square: mortgage it (no buildings on it) or
; lift its mortgage (the loan plus 10 %), for its owner (A52, A53; booklet C Mortgage)
; Input: A = square.  Output: done or refused with a message.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
mortgage_toggle:
        ld (mortgage_square), a
        call square_owner
        or a
        ld hl, str_mortgage_not_owned
        jp z, refuse_show           ; The Bank's, or not a property?
        dec a
        ld (mortgage_owner), a
        bit SQ_MORTGAGED, c
        jr nz, .lift                ; Mortgaged?  (then it is lifted)
        ld a, c                     ; "All buildings on the Site must be sold back to the
        and SQ_BUILD_MASK           ; Bank before any property can be mortgaged" (booklet A)
        ld hl, str_mortgage_sell_buildings_first
        jp nz, refuse_show          ; Buildings on it?
        ld a, (mortgage_square)
        jp mortgage_take
.lift:  ld a, (mortgage_square)
        ld (event_square), a
        call mortgage_interest
        ld a, l                     ; (10 % of at most 200: a byte)
        ld (event_extra), a
        add hl, de                  ; HL = loan + interest
        ld (bank_amount), hl
        push ix
        ld a, (mortgage_owner)
        call player_record
        push hl
        pop ix
        call bank_short
        jr c, .cannot               ; Short of the loan and its 10 %?
        ld hl, (bank_amount)
        EVENT_CAUSE EVK_LIFT
        call bank_pay_ix_exact
        pop ix
        ld a, (mortgage_square)
        call square_owner
        res SQ_MORTGAGED, (hl)
        ld a, (mortgage_owner)
        call msg_show_player
        ld hl, str_mortgage_lifts
        call msg_print
        ld a, (mortgage_square)
        call msg_square_name
        ld hl, str_mortgage_paying
        call msg_print
        ld hl, (bank_amount)
        call msg_money
        call msg_stop
        ld a, (mortgage_square)
        push ix
        call board_draw_square
        pop ix
        ret
.cannot:
        pop ix
        ld hl, str_mortgage_lift_cost
        call msg_show
        ld hl, (bank_amount)
        call msg_money
        call msg_stop
        jp refuse_hold

; ---------------------------------------------------------------------------------------------
; mortgage_take - mortgage a square: its owner receives the mortgage value (half the price)
; Input: A = square (owned, unmortgaged, bare: the rest of its group may keep buildings,
;        booklet A52).  Output: done, shown.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
mortgage_take:
        ld (mortgage_square), a
        call square_owner
        set SQ_MORTGAGED, (hl)
        dec a
        ld (mortgage_owner), a
        call msg_show_player
        ld hl, str_mortgage_takes
        call msg_print
        ld a, (mortgage_square)
        call msg_square_name
        ld a, (mortgage_square)
        call board_record
        ld de, BOARD_MORTGAGE
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        push hl
        ld hl, str_msg_for
        call msg_print
        pop hl
        push hl
        call msg_money
        call msg_stop
        pop hl
        ld a, (mortgage_square)
        ld (event_square), a
        EVENT_CAUSE EVK_MORTGAGE
        ld a, (mortgage_owner)
        call bank_receive
        ld a, (mortgage_square)
        push ix
        call board_draw_square
        pop ix
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; mortgage_humans_own - whether a human player in the game owns any property (M's cursor has
; something to choose)
; Input: v_squares, v_players.  Output: NZ if one does.  Corrupts: AF, C, DE, HL.
; ---------------------------------------------------------------------------------------------
mortgage_humans_own:
        ld c, 0                     ; C = square
.square:
        ld a, c
        push bc
        call square_owner
        pop bc
        or a
        jr z, .next                 ; The Bank's (or not a property)?
        dec a
        call player_record
        ld a, (hl)                  ; (P_FLAGS is the record's first byte)
        and 1 << PF_PLAYING | 1 << PF_COMPUTER
        cp 1 << PF_PLAYING
        jr nz, .next                ; Not a human's in the game?
        or a                        ; NZ
        ret
.next:  inc c
        ld a, c
        cp BOARD_SQUARES
        jr c, .square               ; Another square to look at?
        xor a
        ret

; ---------------------------------------------------------------------------------------------
; mortgage_interest - 10 % of a square's mortgage value, rounded up to a pound (A53)
; Input: A = square.  Output: HL = interest, DE = the mortgage value.  Corrupts: AF, BC.
; ---------------------------------------------------------------------------------------------
mortgage_interest:
        call board_record
        ld de, BOARD_MORTGAGE
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        push de
        ld hl, MORTGAGE_INTEREST_DIVISOR - 1    ; (value + 9) / 10
        add hl, de
        ld bc, 0                    ; BC = quotient
        ld de, MORTGAGE_INTEREST_DIVISOR
.div:   or a
        sbc hl, de
        jr c, .done                 ; No whole tenth left?
        inc bc
        jr .div
.done:  ld h, b
        ld l, c
        pop de
        ret

; ---------------------------------------------------------------------------------------------
; mortgage_sum - what mortgaging a square brings its owner (the mortgage value), or what
; lifting its mortgage costs (the value and 10 %, A53), as the M question says (issue 28)
; Input: A = square.  Output: HL = pounds.  Corrupts: AF, C, DE.
; ---------------------------------------------------------------------------------------------
mortgage_sum:
        push af
        call square_owner           ; C = the square byte
        pop af
        push bc
        call mortgage_interest      ; HL = interest, DE = value
        pop bc
        bit SQ_MORTGAGED, c
        jr nz, .lift                ; Mortgaged?  (lifting costs the value and 10 %)
        ex de, hl
        ret
.lift:  add hl, de
        ret

str_mortgage_nothing: db "No human player owns property to mortgage.", 0
str_mortgage_computer_own: db "A computer player mortgages its own property.", 0
str_mortgage_help:   db "MORTGAGE: CAPS+5/8 move, SPACE deed, ENTER mortgage/lift, Q quit.", 0
str_mortgage_takes:  db " mortgages ", 0
str_mortgage_lifts:  db " lifts the mortgage on ", 0
str_mortgage_paying: db ", paying ", 0
str_mortgage_lift_cost: db "Not enough cash: lifting costs ", 0
str_mortgage_not_owned: db "Nobody owns that square.", 0
str_mortgage_sell_buildings_first: db "Sell the buildings on it first.", 0
