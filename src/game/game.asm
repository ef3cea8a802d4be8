; =============================================================================================
; game.asm - a game from the first throw to its end: its start, the turns in order, the
; short game's clock, and its end (one player left, CAPS SHIFT+SPACE, time up)
;
; A turn is turn.asm's; moving a token move.asm's; what a square does land.asm's.
; =============================================================================================

; ---------------------------------------------------------------------------------------------
; game_run - play a game set up by setup_run until it ends (one player left, CAPS SHIFT+SPACE
; confirmed, or the short game's time up)
; Input: v_players, v_num_players, v_current, v_options, v_short_game from the setup.
; Output: v_phase = PHASE_PLAYING still (endgame_run takes over).  Corrupts: all.
; ---------------------------------------------------------------------------------------------
game_run:
        ld (game_sp), sp
        call game_new
        ld a, PHASE_PLAYING
        ld (v_phase), a
        call board_draw_all
        call setup_deal             ; (a short game's deeds, if chosen)
        ld hl, game_idle
        ld (keys_idle_hook), hl
        ld a, (v_short_game)
        ld (clock_running), a
.turn:  call game_idle              ; The time up, no debt being paid?  The end now, before a
                                    ; turn is recorded that would never be played
        ld a, (v_current)           ; the record: whose turn, the how-many-th
        ld b, a
        ld a, EVK_TURN
        ld de, 0
        ld hl, (v_turns)
        call event_player
        call turn_play
        call game_players_left
        cp MIN_PLAYERS
        ld e, END_LAST_PLAYER
        jr c, game_end              ; Fewer than two players left?  (the last one wins)
        call turn_next_player
        jr .turn

; ---------------------------------------------------------------------------------------------
; game_abort - leave the game at once from any depth (BREAK confirmed, time up)
; Input: E = END_BREAK or END_TIME_UP.  Output: returns from game_run.  Corrupts: all.
; ---------------------------------------------------------------------------------------------
game_abort:
        ld sp, (game_sp)
        ; continues into game_end

; ---------------------------------------------------------------------------------------------
; game_end - the clock and the idle routine stop (nothing after this is cut short by the
; time); a rent still due is settled (rent_settle: a computer owner claims it, a human owner's
; is recorded lost); then the record says the game has ended and how
; Input: E = END_*.  Output: clock_running 0, keys_idle_hook = keys_idle_none; returns to
; game_run's caller.  Corrupts: all but E, IX.
; ---------------------------------------------------------------------------------------------
game_end:
        xor a
        ld (clock_running), a
        ld hl, keys_idle_none
        ld (keys_idle_hook), hl
        push de
        call rent_settle
        pop de
        ld a, EVK_GAME_END
        ld b, EV_BANK
        ld d, 0
        ld hl, 0
        jp event_player

; ---------------------------------------------------------------------------------------------
; game_new - the state at the start: £1,500 each, all on GO, all property with the Bank,
; 32 houses and 12 hotels, both packs shuffled
; Input: the setup's fields.  Output: the state block ready; rent_watch off.  Corrupts: AF, B,
; DE, HL, IX.
; ---------------------------------------------------------------------------------------------
game_new:
        ld ix, v_players
        ld a, (v_num_players)
        ld b, a
.player:
        ld (ix+P_CASH), LOW STARTING_CASH
        ld (ix+P_CASH+1), HIGH STARTING_CASH
        xor a
        ld (ix+P_SQUARE), a
        ld (ix+P_JAIL_TURNS), a
        ld (ix+P_JAIL_CARDS), a
        res PF_IN_JAIL, (ix+P_FLAGS)
        res PF_BANKRUPT, (ix+P_FLAGS)
        ld de, PLAYER_RECORD
        add ix, de
        djnz .player
        ld hl, v_squares
        ld b, BOARD_SQUARES
.square:
        ld (hl), 0
        inc hl
        djnz .square
        ld a, HOUSES_IN_BANK
        ld (v_houses_left), a
        ld a, HOTELS_IN_BANK
        ld (v_hotels_left), a
        ld hl, 0
        ld (v_jackpot), hl
        ld (v_bank), hl             ; the Bank's account starts again with each game
        ld (v_bank + 2), hl
        ld (v_turns), hl
        ld (v_dice), hl
        ld (v_clock_frames), hl
        ld (clock_changed), hl      ; (and bank_paying: nothing left waiting from a game before)
        assert bank_paying == clock_changed + 1
        xor a
        ld (v_doubles), a
        ld (rent_watch), a          ; (RENT_WATCH_OFF: no R left from a game ended meanwhile)
        ld a, NO_PLAYER
        ld (v_rent_payer), a
        ld (v_rent_owner), a
        jp cards_shuffle_all

; ---------------------------------------------------------------------------------------------
; game_idle - once a frame while a key is awaited, and before each turn: redraw the clock
; each minute; at time-up value the holdings (booklet C, Short game).  A debt being paid when
; the time runs out (bank_paying: a payer short of cash raising it, or going bankrupt; a card
; drawn still being read, or its choice asked) is paid first: the end waits for it, the clock
; at 0:00, and comes at the first key awaited after it, or before the next turn begins if that
; comes first (game_run)
; Input: none.  Output: may leave the game (game_abort); clock_changed 2 and up while the end
; waits.  Corrupts: AF, BC, DE, HL; IX, IY when it leaves.
; ---------------------------------------------------------------------------------------------
game_idle:
        ld hl, clock_changed
        ld a, (hl)
        or a
        ret z                       ; Nothing new on the clock?
        ld (hl), 0
        dec a
        jr nz, .up                  ; The time up already drawn (the end waiting for a payment)?
        push ix
        call board_draw_clock
        pop ix
        ld hl, (v_clock_minutes)
        ld a, h
        or l
        ret nz                      ; Time left?
.up:    ld a, (bank_paying)         ; 0, or 2 and up while a payment is under way
        add a, a
        ld (clock_changed), a       ; (looked at again at the next frame)
        ret nz                      ; A payment under way?  The end waits for it.
        ld hl, str_game_time_up
        call msg_show
        call snd_beep
        ld b, LAND_PAUSE * 2
        call pause_plain
        ld e, END_TIME_UP
        jp game_abort

; ---------------------------------------------------------------------------------------------
; game_players_left - how many players are still in the game
; Input: none.  Output: A = count.  Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
game_players_left:
        ld hl, v_players + P_FLAGS
        ld de, PLAYER_RECORD
        ld a, (v_num_players)
        ld b, a
        ld c, 0
.loop:  bit PF_PLAYING, (hl)
        jr z, .out                  ; Out of the game?
        inc c
.out:   add hl, de
        djnz .loop
        ld a, c
        ret

; ---------------------------------------------------------------------------------------------
; Strings
; ---------------------------------------------------------------------------------------------
str_game_time_up:    db "Time is up! The holdings are valued.", 0
