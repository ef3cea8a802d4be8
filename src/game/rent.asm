; =============================================================================================
; rent.asm - rent: what is due (A21-A25) and its claim with R before the next throw (A23)
;
; Landing on another player's unmortgaged property makes rent due (v_rent_*); the owner's
; token appears and the owner presses R.  The next throw of the dice clears the claim
; (turn_throw): rent not asked for in time is lost.  A computer owner always claims at once.
; The amount is worked out when it is claimed, from the board as it is then.
; =============================================================================================

RENT_CLAIM_PAUSE equ 30             ; frames a computer owner "thinks" before it claims

; ---------------------------------------------------------------------------------------------
; rent_due - the current player stands on another's property: note the claim, show the
; owner's token; a computer owner claims at once
; Input: IX = the payer (current player), A = the owner.  Output: v_rent_* set (or rent paid).
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
rent_due:
        ld (v_rent_owner), a
        ld a, (v_current)
        ld (v_rent_payer), a
        ld a, (ix+P_SQUARE)
        ld (v_rent_square), a
        ld a, (v_dice)
        ld b, a
        ld a, (v_dice + 1)
        add a, b
        ld (v_rent_dice), a
        ld hl, str_rent_due         ; "Rent due to <token> 2 ANNE"
        call msg_show
        ld a, (v_rent_owner)
        call msg_player_piece
        ld a, (v_rent_owner)
        call player_record
        ld de, P_FLAGS
        add hl, de
        bit PF_COMPUTER, (hl)
        jr nz, .computer
        ld hl, str_rent_press_r
        call msg_print
        call snd_beep
        ld b, LAND_PAUSE
        jp pause
.computer:
        call msg_stop
        ld b, RENT_CLAIM_PAUSE
        call pause
        ; continues into rent_claim

; ---------------------------------------------------------------------------------------------
; rent_claim - R: the owner asks for the rent due; the payer pays it (raising money or going
; bankrupt to the owner if short)
; Input: v_rent_*.  Output: paid, or "no rent is due".  v_rent_payer = NO_PLAYER after.
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
rent_claim:
        ld a, (v_rent_payer)
        cp NO_PLAYER
        ld hl, str_rent_no_rent
        jp z, msg_show_pause
        ld a, (v_rent_square)       ; Is it still the owner's, unmortgaged?
        call square_owner
        dec a
        ld hl, v_rent_owner
        cp (hl)
        jr nz, .none
        bit SQ_MORTGAGED, c
        jr nz, .none
        ld a, (v_rent_dice)
        ld c, a
        ld a, (v_rent_square)
        call rent_amount
        ld (rent_claimed), hl
        ld a, (v_rent_payer)
        call msg_show_player
        ld hl, str_rent_pays_rent
        call msg_print
        ld hl, (rent_claimed)
        call msg_money
        ld hl, str_rent_to
        call msg_print
        ld a, (v_rent_owner)
        call msg_player
        call msg_stop
        ld a, NO_PLAYER             ; claimed: once only
        ld hl, v_rent_payer
        ld b, (hl)
        ld (hl), a
        ld a, (v_rent_owner)
        ld c, a
        ld (v_rent_owner), a
        ld a, NO_PLAYER
        ld (v_rent_owner), a
        ld a, b
        ld hl, (rent_claimed)
        call bank_pay
        call snd_beep
        ld b, LAND_PAUSE
        jp pause
.none:  ld a, NO_PLAYER
        ld (v_rent_payer), a
        ld (v_rent_owner), a
        ld hl, str_rent_no_rent
        jp msg_show_pause

; ---------------------------------------------------------------------------------------------
; rent_amount - the rent of a square as the board stands (A21-A25)
; Sites: the deed's rent for its houses or hotel; unimproved, double when the owner has the
; whole group and none of it is mortgaged.  Stations: 25/50/100/200 by the owner's
; unmortgaged stations.  Utilities: 4 or 10 times the dice by unmortgaged utilities owned.
; Input: A = square, C = the dice total.  Output: HL = rent (0: the Bank's or mortgaged).
; Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
rent_amount:
        ld (rent_amount_square), a
        ld a, c
        ld (rent_amount_dice), a
        ld a, (rent_amount_square)
        call square_owner
        ld hl, 0
        or a
        ret z                       ; the Bank's
        bit SQ_MORTGAGED, c
        ret nz
        ld (rent_amount_owner), a
        ld a, c
        and SQ_BUILD_MASK
        rrca
        rrca
        rrca
        rrca
        ld (rent_amount_level), a
        ld a, (rent_amount_square)  ; B = the owner's unmortgaged squares in the group,
        call rent_group_count       ; C = the group's size
        ld a, b
        ld (rent_amount_count), a
        ld a, c
        ld (rent_amount_size), a
        ld a, (rent_amount_square)
        call board_record
        ld a, (hl)                  ; BOARD_KIND
        ld de, BOARD_RENTS
        add hl, de                  ; HL = the rents
        cp KIND_SITE
        jr nz, .by_count
        ld a, (rent_amount_level)
        or a
        jr nz, .built
        call .word                  ; unimproved
        ld a, (rent_amount_count)
        ld c, a
        ld a, (rent_amount_size)
        cp c
        ret nz
        add hl, hl                  ; the whole group, none mortgaged: double (A22)
        ret
.built: add a, a                    ; RENTS[level]
        ld e, a
        ld d, 0
        add hl, de
        jr .word
.by_count:
        push af
        ld a, (rent_amount_count)   ; RENTS[count - 1]
        dec a
        add a, a
        ld e, a
        ld d, 0
        add hl, de
        call .word
        pop af
        cp KIND_UTILITY
        ret nz
        ld a, (rent_amount_dice)    ; utilities: times the dice
        ld b, a
        ex de, hl
        ld hl, 0
        or a
        ret z
.times: add hl, de
        djnz .times
        ret
.word:  ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        ret

; ---------------------------------------------------------------------------------------------
; rent_group_count - how many squares of a square's group its owner holds unmortgaged
; Input: A = square (owned).  Output: B = that count, C = squares in the group.
; Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
rent_group_count:
        push af
        call square_owner
        ld (rent_group_count_owner), a
        pop af
        call group_record
        ld c, (hl)
        ld b, 0
        push bc
        ld b, c
.site:  inc hl
        ld a, (hl)
        push hl
        push bc
        call square_owner
        ld e, c                     ; E = the square byte
        pop bc
        pop hl
        push hl
        ld hl, rent_group_count_owner
        cp (hl)
        pop hl
        jr nz, .next
        bit SQ_MORTGAGED, e
        jr nz, .next
        ex (sp), hl
        inc h                       ; the count rides in the pushed B
        ex (sp), hl
.next:  djnz .site
        pop bc
        ret

str_rent_due:   db "Rent is due to ", 0
str_rent_press_r:    db ": press R before the next throw.", 0
str_rent_no_rent:    db "No rent is due.", 0
str_rent_pays_rent:  db " pays ", 0
str_rent_to:         db " rent to ", 0
