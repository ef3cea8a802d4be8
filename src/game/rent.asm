; =============================================================================================
; rent.asm - rent: what is due (A21-A25) and its claim with R before the next throw (A23)
;
; Landing on another player's unmortgaged property makes rent due (v_rent_*); the owner's
; token appears and the owner presses R.  The next throw of the dice clears the claim
; (turn_throw): rent not asked for in time is lost.  A computer owner always claims at once.
; The game's end settles a rent still due (rent_settle).
; The amount is worked out when it is claimed, from the board as it is then.
; =============================================================================================

RENT_CLAIM_PAUSE equ 30             ; frames a computer owner "thinks" before it claims
RENT_WATCH_OFF  equ 0               ; rent_watch: the interrupt does not look for R
RENT_WATCH_ON   equ 1               ; ... looks for R each frame (a rent line is up)
RENT_WATCH_SEEN equ 2               ; ... has seen R down since the rent line
RENT_KEY_MASK   equ 1 << 3          ; R in its half-row (Q W E R T: bit 3)

; ---------------------------------------------------------------------------------------------
; rent_due - the current player stands on another's property: note the claim and show who may
; claim how much from whom with R (the owner's token; an R typed after it claims at once); a
; computer owner claims at once.  The claim begins with its line: the message before it has
; its time first (issue 45: the right is in view while it lasts)
; Input: IX = the payer (current player), A = the owner.  Output: v_rent_* set (or rent paid).
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
rent_due:
        push af
        call msg_clear
        pop af
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
        ld a, (v_rent_owner)
        call player_record
        ld de, P_FLAGS
        add hl, de
        bit PF_COMPUTER, (hl)
        jr nz, .computer            ; A computer owner?  It claims at once.
        call rent_pending           ; "<token> 1 ANNE may press R for £25 rent from 2 BOB
                                    ; before the next throw."
        ret nc                      ; Nothing to claim?  (cannot be: land_property checked)
        call rent_remind
        ld hl, str_rent_before_throw
        call msg_print
        call keys_ahead_arm         ; the line asks for R: an R typed now claims it (from
        ld a, RENT_WATCH_ON         ; now: the beep takes frames), and the interrupt watches
        ld (rent_watch), a          ; for R until the next menu (rent_watch_take)
        call snd_beep
        ld b, LAND_PAUSE
        call pause                  ; NZ: a key typed ahead
        ret z                       ; No key typed ahead (the turn goes on)?
        call to_upper
        cp GAME_KEY_RENT
        ret nz                      ; Not R?  (kept for no one: the turn goes on)
        call keys_ahead_clear
        jr rent_claim
.computer:
        ld hl, str_rent_due         ; "Rent is due to <token> 2 HAL."
        call msg_print
        ld a, (v_rent_owner)
        call msg_player_piece
        call msg_stop
        ld b, RENT_CLAIM_PAUSE
        call pause
        ; continues into rent_claim

; ---------------------------------------------------------------------------------------------
; rent_claim - R: the owner asks for the rent due; the payer pays it (raising money or going
; bankrupt to the owner if short)
; Input: v_rent_*.  Output: paid, or refused saying why.  v_rent_payer = NO_PLAYER after.
; Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
rent_claim:
        xor a                       ; (RENT_WATCH_OFF) claimed or refused: no R to watch for
        ld (rent_watch), a
        ld a, (v_rent_payer)
        cp NO_PLAYER
        ld hl, str_rent_no_rent
        jp z, refuse_show           ; Nothing due?  Said, and why (issue 45).
        ld a, (v_rent_square)       ; Is it still the owner's, unmortgaged?
        call square_owner
        dec a
        ld hl, v_rent_owner
        cp (hl)
        jr nz, .none                ; Has the square changed hands since?
        bit SQ_MORTGAGED, c
        jr nz, .none                ; Mortgaged since?
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
        ld a, NO_PLAYER
        ld (v_rent_owner), a
        ld a, (v_rent_square)
        ld (event_square), a
        EVENT_CAUSE EVK_RENT
        ld a, b
        ld hl, (rent_claimed)
        call bank_pay
        call snd_beep
        ld b, LAND_PAUSE
        jp pause
.none:  ld a, NO_PLAYER
        ld (v_rent_payer), a
        ld (v_rent_owner), a
        ld hl, str_rent_lapsed
        jp refuse_show

; ---------------------------------------------------------------------------------------------
; rent_settle - the game ends before the next throw (the short game's time, CAPS SHIFT+SPACE,
; one player left): a rent still due is settled.  A computer owner claims it: it claims every
; rent at once, and its claim's pause is the game's, not a choice, so the end does not take
; its right away (a right lapses at the next throw, and there is none).  A human owner who has
; not pressed R has not asked: the rent is lost, as at a throw, and the record says the game's
; end was why (issue 45: no rent due leaves the record without its end)
; Input: E = END_*, v_rent_*.  Output: paid (rent_claim) or recorded lost (rent_lapse);
; v_rent_payer = v_rent_owner = NO_PLAYER.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
rent_settle:
        ld a, (v_rent_payer)
        cp NO_PLAYER
        ret z                       ; No rent due?
        ld a, (v_rent_owner)
        push de
        call player_record
        pop de
        bit PF_COMPUTER, (hl)       ; (P_FLAGS is the record's first byte)
        jp nz, rent_claim           ; A computer owner?  It claims, as it always does.
        ; continues into rent_lapse

; ---------------------------------------------------------------------------------------------
; rent_lapse - the owner's right to the rent due has lapsed unclaimed: the record says whose
; rent to whom for which square was lost, and why; nothing is due any more
; Input: E = why (RENT_LOST_THROW: the next throw, A23; END_*: the game ended), v_rent_*.
; Output: EVK_RENT_LOST recorded if a rent was due; v_rent_payer = v_rent_owner = NO_PLAYER.
; Corrupts: AF, BC, D, HL.
; ---------------------------------------------------------------------------------------------
rent_lapse:
        ld a, (v_rent_payer)
        cp NO_PLAYER
        jr z, .none                 ; No rent left unclaimed?
        ld b, a
        ld a, (v_rent_owner)
        ld c, a
        ld a, (v_rent_square)
        ld d, a
        ld hl, 0
        ld a, EVK_RENT_LOST
        call event_emit
.none:  ld a, NO_PLAYER
        ld (v_rent_payer), a
        ld (v_rent_owner), a
        ret

; ---------------------------------------------------------------------------------------------
; rent_pending - whether a human owner may claim rent now for the last move, and how much, as
; R would reckon it (the square still the owner's, unmortgaged)
; Input: v_rent_*.  Output: carry set and HL = the rent; carry clear if none.
; Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
rent_pending:
        ld a, (v_rent_payer)
        cp NO_PLAYER
        jr z, .none                 ; No rent due?
        ld a, (v_rent_owner)
        call player_record
        bit PF_COMPUTER, (hl)       ; (P_FLAGS is the record's first byte)
        jr nz, .none                ; A computer owner?  It has claimed at once.
        ld a, (v_rent_square)
        call square_owner
        dec a
        ld hl, v_rent_owner
        cp (hl)
        jr nz, .none                ; Not the owner's any more?
        ld a, (v_rent_dice)
        ld c, a
        ld a, (v_rent_square)
        call rent_amount            ; (0: mortgaged)
        ld a, h
        or l
        jr z, .none                 ; Nothing to claim?
        scf
        ret
.none:  or a
        ret

; ---------------------------------------------------------------------------------------------
; rent_remind_short - the reminder in one row (under a prompt of two): "<token> 1 ANNE: R for
; £25 rent.", " rent" left out when the row has no room for it
; Input: HL = the rent, v_rent_owner; the message position at a row's start.  Output: printed.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
rent_remind_short:
        push hl
        ld a, (v_rent_owner)
        call msg_player_piece
        ld hl, str_rent_r_for
        call msg_print
        pop hl
        call msg_money
        ld a, (msg_col)
        cp COLUMNS - 6 + 1
        jp nc, msg_stop             ; No room for " rent."?  (a 10-letter name, £1000 or more)
        ld hl, str_rent_rent
        jp msg_print
        assert 2 + 2 + NAME_LENGTH + 8 + 5 + 1 <= COLUMNS   ; (the shortest form fits a row)

; ---------------------------------------------------------------------------------------------
; rent_ahead_clear - a new turn, or a computer's pause: no key typed before it answers its
; questions, but an R typed after the rent line still claims the rent while it may be claimed
; (until the next throw, booklet A23)
; Input: keys_ahead, v_rent_*.  Output: keys_ahead cleared unless it is that R.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
rent_ahead_clear:
        ld a, (keys_ahead)
        call to_upper
        cp GAME_KEY_RENT
        jp nz, keys_ahead_clear     ; Not R?
        call rent_pending
        jp nc, keys_ahead_clear     ; No rent to claim?
        ret

; ---------------------------------------------------------------------------------------------
; rent_watch_scan - while the interrupt watches for R (a rent claimable since its line), R down
; now is noted (issue 45: a tap while the screen is redrawn, with no hold looking, counts)
; Input: rent_watch.  Output: rent_watch RENT_WATCH_SEEN if it watched and R is down.
; Corrupts: AF.
; ---------------------------------------------------------------------------------------------
rent_watch_scan:
        ld a, (rent_watch)
        cp RENT_WATCH_ON
        ret nz                      ; Not watching (or R seen already)?
        ld a, HALF_ROW_Q_T
        in a, (ULA_PORT)
        and RENT_KEY_MASK
        ret nz                      ; R up?
        ld a, RENT_WATCH_SEEN
        ld (rent_watch), a
        ret

; ---------------------------------------------------------------------------------------------
; rent_watch_take - the menu's prompt is up: the watch ends; an R seen since the rent line (or
; down now) is kept for the menu as typed ahead, and claims the rent there
; Input: rent_watch.  Output: rent_watch off; keys_ahead 'R', keys_ahead_on set, if R was
; seen.  Corrupts: AF, HL.
; ---------------------------------------------------------------------------------------------
rent_watch_take:
        call rent_watch_scan
        ld hl, rent_watch
        ld a, (hl)
        ld (hl), RENT_WATCH_OFF
        cp RENT_WATCH_SEEN
        ret nz                      ; No R since the rent line?
        ld a, GAME_KEY_RENT
        ld (keys_ahead), a
        ld (keys_ahead_on), a       ; (not 0: on)
        ret

; ---------------------------------------------------------------------------------------------
; rent_remind - who may claim how much from whom, and the key, at the message position:
; "<token> 1 ANNE may press R for £25 rent from 2 BOB" (the caller ends the sentence)
; Input: HL = the rent, v_rent_owner, v_rent_payer.  Output: printed.  Corrupts: AF, BC, DE,
; HL.
; ---------------------------------------------------------------------------------------------
rent_remind:
        push hl
        ld a, (v_rent_owner)
        call msg_player_piece
        ld hl, str_rent_may_press_r
        call msg_print
        pop hl
        call msg_money
        ld hl, str_rent_from
        call msg_print
        ld a, (v_rent_payer)
        jp msg_player

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
        ret z                       ; The Bank's (no rent)?
        bit SQ_MORTGAGED, c
        ret nz                      ; Mortgaged (no rent)?
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
        jr nz, .by_count            ; A station or a utility (rent by how many are held)?
        ld a, (rent_amount_level)
        or a
        jr nz, .built               ; Houses or a hotel on it?
        call .word                  ; unimproved
        ld a, (rent_amount_count)
        ld c, a
        ld a, (rent_amount_size)
        cp c
        ret nz                      ; Not the whole group, unmortgaged (no double)?
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
        ret nz                      ; A station (its rent as it stands)?
        ld a, (rent_amount_dice)    ; utilities: times the dice
        ld b, a
        ex de, hl
        ld hl, 0
        or a
        ret z                       ; No dice total (nothing to multiply)?
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
        jr nz, .next                ; Another owner's square?
        bit SQ_MORTGAGED, e
        jr nz, .next                ; Mortgaged (not counted)?
        ex (sp), hl
        inc h                       ; the count rides in the pushed B
        ex (sp), hl
.next:  djnz .site
        pop bc
        ret

str_rent_due:   db "Rent is due to ", 0
str_rent_r_for:      db ": R for ", 0
str_rent_rent:       db " rent.", 0
str_rent_may_press_r: db " may press R for ", 0
str_rent_from:       db " rent from ", 0
str_rent_before_throw: db " before the next throw.", 0
str_rent_no_rent:    db "No rent is due: "
str_rent_r_claims:   db "R claims rent for the last move onto your property.", 0
str_rent_lapsed:     db "No rent: the property is mortgaged or has changed hands.", 0
str_rent_pays_rent:  db " pays ", 0
str_rent_to:         db " rent to ", 0
