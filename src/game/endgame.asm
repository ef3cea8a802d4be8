; =============================================================================================
; endgame.asm - the end of the game: the winner (booklet part C "End game", "Short game";
; part A "Bankruptcy" and "Rules for playing the short game"; seed_rules A60, A63, A64, A67)
;
; If one player is left in the game the others went bankrupt (or retired) and that player
; wins.  Otherwise (CAPS SHIFT+SPACE, or the short game's time is up) every player still in
; the game is valued as the short-game rules say (worth.asm): cash, property at its printed
; price, mortgaged at half, houses at cost, hotels at five houses; the highest total wins and
; a tie is announced as one.  A full-screen table shows each player's cash, property and
; total, the winner's row highlighted; then a key starts a new game.
; =============================================================================================

ENDGAME_HEAD_ROW equ 2              ; the table's headings
ENDGAME_TOP     equ 4               ; player 1's row; one player every two rows
ENDGAME_ROW_STEP equ 2
ENDGAME_GLYPH_COL equ 2
ENDGAME_NAME_COL equ 4
ENDGAME_CASH_COL equ 14             ; three money fields of ENDGAME_MONEY_WIDTH
ENDGAME_PROPERTY_COL equ 20
ENDGAME_TOTAL_COL equ 26
ENDGAME_MONEY_WIDTH equ 6           ; the pound sign and up to five digits
ENDGAME_NOTE_ROW equ 17             ; how property was valued
ATTR_WINNER     equ YELLOW * PAPER + BLACK + BRIGHT

; ---------------------------------------------------------------------------------------------
; endgame_run - the game's last line read out (its hold: the rent settled at the end, a
; bankruptcy), then value the players, show the table, announce the winner, wait for a key
; Input: v_players, v_num_players, v_squares; msg_hold.  Output: v_phase = PHASE_OVER; the
; screen shows the result.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
endgame_run:
        call msg_hold_wait
        ld a, PHASE_OVER
        ld (v_phase), a
        ld a, ATTR_NORMAL
        call cls
        ld hl, str_endgame_screen
        call print_string
        xor a
        ld (endgame_in), a
        ld (endgame_player), a
        ld h, a
        ld l, a
        ld (endgame_best), hl
.value: ld a, (endgame_player)      ; each player: value and draw its row
        ld hl, v_num_players
        cp (hl)
        jr nc, .valued              ; Every player valued?
        call endgame_row
        ld hl, endgame_player
        inc (hl)
        jr .value
.valued:
        call endgame_count_best
        ld a, ATTR_MESSAGE
        ld (print_attr), a
        call msg_clear
        ld a, (endgame_in)
        or a
        jr z, .nobody               ; Nobody left in the game?
        dec a
        jr z, .last                 ; One player left?
        ld a, (endgame_ties)
        dec a
        jr nz, .tie                 ; A tie for the highest total?
        ld a, (endgame_last)        ; one player with the highest total
        call endgame_mark           ; (endgame_last: the last with it; only one has it)
        call msg_player
        ld hl, str_endgame_wins_with
        call msg_print
        ld hl, (endgame_best)
        call msg_money
        ld hl, str_endgame_stop
        call msg_print
        jr .key
.last:  ld a, (endgame_last)        ; the others went bankrupt (or retired)
        call endgame_mark
        call msg_player
        ld hl, str_endgame_last
        call msg_print
        jr .key
.nobody:
        ld hl, str_endgame_nobody
        call msg_print
        jr .key
.tie:   ld hl, str_endgame_tie
        call msg_print
        ld hl, (endgame_best)
        call msg_money
        ld hl, str_endgame_colon
        call msg_print
        call endgame_tied
.key:   ld hl, str_endgame_again
        call msg_print
        jp keys_wait

; ---------------------------------------------------------------------------------------------
; endgame_total_of - a player's entry in endgame_totals
; Input: A = player.  Output: HL = the entry.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
endgame_total_of:
        add a, a
        ld hl, endgame_totals
        jp setup_index

; ---------------------------------------------------------------------------------------------
; endgame_row - value one player and draw its row: number, piece, name, then cash, property
; and total, or "Bankrupt" / "Retired" for a player out of the game
; Input: A = player.  Output: endgame_totals, endgame_in, endgame_last, endgame_best.
; Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
endgame_row:
        call endgame_total_of
        ld (hl), 0
        inc hl
        ld (hl), 0
        ld a, ATTR_NORMAL
        ld (print_attr), a
        call endgame_row_of
        ld c, 0
        call print_at
        ld a, (endgame_player)
        add a, '1'
        call print_char
        ld a, (endgame_player)
        call player_record
        push hl
        pop ix
        call endgame_row_of
        ld c, ENDGAME_GLYPH_COL
        call print_at
        ld a, (ix+P_TOKEN)
        add a, CH_TOKEN
        call print_char
        ld c, ENDGAME_NAME_COL
        call print_at
        push ix
        pop hl
        ld de, P_NAME
        add hl, de
        call print_string
        call endgame_row_of
        ld c, ENDGAME_CASH_COL
        bit PF_PLAYING, (ix+P_FLAGS)
        jr nz, .in                  ; Still in the game?
        ld hl, str_endgame_bankrupt
        bit PF_BANKRUPT, (ix+P_FLAGS)
        jr nz, .out                 ; Bankrupt?  (else retired)
        ld hl, str_endgame_retired
.out:   jp print_string_at
.in:    ld hl, endgame_in
        inc (hl)
        ld a, (endgame_player)
        ld (endgame_last), a
        ld a, ENDGAME_MONEY_WIDTH
        ld (deed_width), a
        ld e, (ix+P_CASH)
        ld d, (ix+P_CASH+1)
        ld hl, str_empty
        call deed_item              ; the cash
        ld a, (endgame_player)
        call worth_property
        ex de, hl
        call endgame_row_of
        ld c, ENDGAME_PROPERTY_COL
        ld hl, str_empty
        call deed_item
        ld a, (endgame_player)
        call worth_total
        push hl
        ld a, (endgame_player)
        call endgame_total_of
        pop de
        ld (hl), e
        inc hl
        ld (hl), d
        push de                     ; the record: the player's holdings valued
        ld a, (endgame_player)
        ld b, a
        ex de, hl
        ld de, 0
        ld a, EVK_WORTH
        call event_player
        pop de
        call endgame_row_of
        ld c, ENDGAME_TOTAL_COL
        ld hl, str_empty
        call deed_item
        ld hl, (endgame_best)       ; Is this total the best so far?
        ld a, (endgame_player)
        call endgame_total_of
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld hl, (endgame_best)
        or a
        sbc hl, de
        ret nc                      ; No more than the best so far?
        ld (endgame_best), de
        ret

; ---------------------------------------------------------------------------------------------
; endgame_row_of - the screen row of endgame_player
; Input: endgame_player.  Output: B = row.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
endgame_row_of:
        ld a, (endgame_player)
        ; continues into endgame_row_of_a

; ---------------------------------------------------------------------------------------------
; endgame_row_of_a - the screen row of a player
; Input: A = player.  Output: B = row.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
endgame_row_of_a:
        assert ENDGAME_ROW_STEP == 2
        add a, a
        add a, ENDGAME_TOP
        ld b, a
        ret

; ---------------------------------------------------------------------------------------------
; endgame_in_game - whether a player is still in the game
; Input: A = player.  Output: NZ if PF_PLAYING.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
endgame_in_game:
        call player_record
        bit PF_PLAYING, (hl)
        ret

; ---------------------------------------------------------------------------------------------
; endgame_is_best - whether a player in the game has the highest total
; Input: A = player.  Output: Z if so.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
endgame_is_best:
        push af
        call endgame_in_game
        jr z, .out                  ; Out of the game?
        pop af
        call endgame_total_of
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld hl, (endgame_best)
        or a
        sbc hl, de
        ret
.out:   pop af
        or 1                        ; NZ: out of the game
        ret

; ---------------------------------------------------------------------------------------------
; endgame_count_best - how many players in the game have the highest total, and the last one
; of them (when there is one, that is the winner)
; Input: endgame_totals, endgame_best.  Output: endgame_ties; endgame_last (if any has it).
; Corrupts: AF, C, DE, HL.
; ---------------------------------------------------------------------------------------------
endgame_count_best:
        xor a
        ld (endgame_ties), a
        ld c, a
.each:  ld a, c
        ld hl, v_num_players
        cp (hl)
        ret nc                      ; Every player counted?
        call endgame_is_best
        jr nz, .next                ; Not at the highest total?
        ld hl, endgame_ties
        inc (hl)
        ld a, c
        ld (endgame_last), a
.next:  inc c
        jr .each

; ---------------------------------------------------------------------------------------------
; endgame_mark - highlight a winner's row
; Input: A = player.  Output: the row's attributes ATTR_WINNER; A unchanged.
; Corrupts: BC, DE, HL.
; ---------------------------------------------------------------------------------------------
endgame_mark:
        push af
        push bc
        push de
        push hl
        ld b, a                     ; the record: a winner (EXTRA 1: one of a tie)
        ld a, (endgame_ties)
        dec a
        ld e, 0
        jr z, .alone                ; The only one at the highest total?
        ld e, 1
.alone: ld a, (endgame_in)          ; (one player left: no tie, whatever was counted)
        dec a
        jr nz, .emit                ; More than one left in the game?  (then a tie counts)
        ld e, 0
.emit:  ld a, EVK_WINNER
        ld d, 0
        ld hl, (endgame_best)
        call event_player
        pop hl
        pop de
        pop bc
        pop af
        push af
        call endgame_row_of_a
        ld c, 0
        LD_ROW_COL de, 1, COLUMNS
        ld a, ATTR_WINNER
        call fill_attr
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; endgame_tied - mark and name the players tied for the highest total ("1 ANNE, 3 BOB.")
; Input: endgame_totals, endgame_best.  Output: printed at the message position.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
endgame_tied:
        ld c, 0
        ld b, 0                     ; B = names printed
.each:  ld a, c
        ld hl, v_num_players
        cp (hl)
        jr nc, .done                ; Every player looked at?
        call endgame_is_best
        jr nz, .next                ; Not at the highest total?
        ld a, b
        or a
        jr z, .first                ; The first name?  (no comma before it)
        push bc
        ld hl, str_comma
        call msg_print
        pop bc
.first: inc b
        push bc
        ld a, c
        call endgame_mark
        call msg_player
        pop bc
.next:  inc c
        jr .each
.done:  ld hl, str_endgame_stop
        jp msg_print

str_endgame_screen:
        db PR_AT, 0, 0, PR_ATTR, ATTR_TITLE, "  THE END OF THE GAME: WHO WINS "
        db PR_AT, ENDGAME_HEAD_ROW, ENDGAME_NAME_COL, PR_ATTR, ATTR_NORMAL, "Name"
        db PR_AT, ENDGAME_HEAD_ROW, ENDGAME_CASH_COL + 2, "Cash"
        db PR_AT, ENDGAME_HEAD_ROW, ENDGAME_PROPERTY_COL + 2, "Prop"
        db PR_AT, ENDGAME_HEAD_ROW, ENDGAME_TOTAL_COL + 1, "Total"
        db PR_AT, ENDGAME_NOTE_ROW, 0, "Property at its printed price,"
        db PR_AT, ENDGAME_NOTE_ROW + 1, 0, "mortgaged at half; houses at"
        db PR_AT, ENDGAME_NOTE_ROW + 2, 0, "cost, hotels as five houses.", 0
str_endgame_bankrupt: db "Bankrupt", 0
str_endgame_retired: db "Retired", 0
str_endgame_wins_with: db " wins, worth ", 0
str_endgame_stop: db ".", 0
str_endgame_last: db " wins: the last player left in the game.", 0
str_endgame_nobody: db "Nobody is left in the game.", 0
str_endgame_tie: db "A tie at ", 0
str_endgame_colon: db ": ", 0
str_endgame_again: db PR_NEWLINE, "Press a key for a new game", 0
