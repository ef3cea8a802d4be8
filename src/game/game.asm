; =============================================================================================
; game.asm - a game from the first throw to its end: the turn loop, its keys, moving tokens
; and what each square does
;
; Booklet part A (Dice, GO, Jail, Chance/Community Chest, Income Tax, Free Parking) and part C
; (the player menu, "a short pause occurs before the computer moves on to the next player").
; The current player's record is in IX throughout a turn.
; =============================================================================================

COMPUTER_PAUSE  equ 60              ; frames a computer player waits before it throws: the
                                    ; "short pause" in which an owner may press R
RENT_WINDOW_FRAMES equ 200          ; ... and when a human is owed rent, at either speed: a
                                    ; window a person can use, not a reflex test (issue 28)
STEP_FRAMES     equ 1               ; frames a token rests on each square it passes (drawing
                                    ; its close-up takes about two more)
TUMBLE_FACES    equ 6               ; faces the dice show, tumbling, before they settle
TUMBLE_FRAMES   equ 2               ; frames each of them shows
LAND_PAUSE      equ 25              ; frames to read what a square did
DICE_FRAMES     equ 50              ; the throw's line stays at least this long (issue 28)
SALARY_PAUSE    equ 15              ; frames the GO salary's message stays before the move goes on
GAME_KEY_BOARD  equ 'B'             ; the flat board (status always shown) or the perspective one
GAME_KEY_RETIRE equ 'X'             ; retire a player (OPT_RETIRE; seed 003's "Quitar")
THREE_DOUBLES   equ 3               ; the third double in a row goes to jail (A9)
BOARD_SIZE      equ 40

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
.turn:  ld a, (v_current)           ; the record: whose turn, the how-many-th
        ld b, a
        ld a, EVK_TURN
        ld de, 0
        ld hl, (v_turns)
        call event_player
        call turn_play
        call game_players_left
        cp MIN_PLAYERS
        ld e, END_LAST_PLAYER
        jr c, game_end
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
; game_end - declare the game's end and how (the record), then game_stop
; Input: E = END_*.  Output: returns to game_run's caller.  Corrupts: AF, B, D, HL.
; ---------------------------------------------------------------------------------------------
game_end:
        ld a, EVK_GAME_END
        ld b, EV_BANK
        ld d, 0
        ld hl, 0
        call event_player
        ; continues into game_stop

; ---------------------------------------------------------------------------------------------
; game_stop - stop the clock and the idle routine; return to game_run's caller
; Input: none.  Output: clock_running 0; keys_idle_hook = keys_idle_none.  Corrupts: AF, HL.
; ---------------------------------------------------------------------------------------------
game_stop:
        xor a
        ld (clock_running), a
        ld hl, keys_idle_none
        ld (keys_idle_hook), hl
        ret

; ---------------------------------------------------------------------------------------------
; game_new - the state at the start: £1,500 each, all on GO, all property with the Bank,
; 32 houses and 12 hotels, both packs shuffled
; Input: the setup's fields.  Output: the state block ready.  Corrupts: AF, B, DE, HL, IX.
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
        ld b, BOARD_SIZE
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
        xor a
        ld (v_doubles), a
        ld a, NO_PLAYER
        ld (v_rent_payer), a
        ld (v_rent_owner), a
        jp cards_shuffle_all

; ---------------------------------------------------------------------------------------------
; game_idle - once a frame while a key is awaited: redraw the clock each minute; at time-up
; value the holdings (booklet C, Short game)
; Input: none.  Output: may leave the game (game_abort).  Corrupts: AF, BC, DE, HL; IX, IY
; when it leaves.
; ---------------------------------------------------------------------------------------------
game_idle:
        ld a, (clock_changed)
        or a
        ret z
        xor a
        ld (clock_changed), a
        push ix
        call board_draw_clock
        pop ix
        ld hl, (v_clock_minutes)
        ld a, h
        or l
        ret nz
        ld hl, str_game_time_up
        call msg_show
        call snd_beep
        ld b, LAND_PAUSE * 2
        call pause_plain
        ld e, END_TIME_UP
        jp game_abort

; ---------------------------------------------------------------------------------------------
; msg_show_pause - msg_show, then LAND_PAUSE frames to read it (the caller's prompt would
; replace it at once)
; Input: HL = message.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_show_pause:
        call msg_show
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; pause_plain - wait frames without the idle routine (so time-up cannot re-enter itself);
; shorter in a computer's turn with the fast setting (ai_pause_frames)
; Input: B = frames.  Output: none.  Corrupts: B.
; ---------------------------------------------------------------------------------------------
pause_plain:
        call ai_pause_frames
.frame: halt
        djnz .frame
        ret

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
        jr z, .out
        inc c
.out:   add hl, de
        djnz .loop
        ld a, c
        ret

; ---------------------------------------------------------------------------------------------
; turn_next_player - pass the dice to the next player still in the game (the order in which
; the names were entered, booklet C)
; Input: none.  Output: v_current; v_turns + 1; v_doubles 0.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
turn_next_player:
        ld hl, (v_turns)
        inc hl
        ld (v_turns), hl
        xor a                       ; the next player has thrown no double yet
        ld (v_doubles), a
        ld a, (v_num_players)
        ld b, a                     ; at most this many tries
.next:  ld a, (v_current)
        inc a
        ld hl, v_num_players
        cp (hl)
        jr c, .store
        xor a
.store: ld (v_current), a
        call player_record
        bit PF_PLAYING, (hl)
        ret nz
        djnz .next
        ret

; ---------------------------------------------------------------------------------------------
; current_record - IX = the current player's record
; Input: none.  Output: IX; A = v_current.  Corrupts: DE, HL.
; ---------------------------------------------------------------------------------------------
current_record:
        ld a, (v_current)
        push af
        call player_record
        push hl
        pop ix
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; turn_play - the current player's turn: the menu until D, the throw, again after a double
; Input: v_current.  Output: the turn played (the player may be in jail or out of the game).
; Corrupts: all.
; ---------------------------------------------------------------------------------------------
turn_play:
        call turn_lower_restore     ; the close-up of this player's square, not the last
.again: call board_draw_status      ; mover's (issue 28)
        call board_draw_players
        call turn_menu
        call game_players_left      ; X may have ended the game or the player's part in it
        cp MIN_PLAYERS
        ret c
        call current_record
        bit PF_PLAYING, (ix+P_FLAGS)
        ret z
        call turn_throw             ; carry: the same player throws again
        ret nc
        jr .again

; ---------------------------------------------------------------------------------------------
; turn_menu - the player menu until the current player throws (D)
; M Mortgage, H Houses, R Rent, O Owners, T Trade, D Dice; C credit, A assets; CAPS SHIFT +
; SPACE ends the game; X retires a player when OPT_RETIRE is on (not a booklet key).  A
; computer player throws by itself after COMPUTER_PAUSE frames, in which a human owner may
; still press R.
; Input: v_current.  Output: when D is chosen.  Corrupts: all.
; ---------------------------------------------------------------------------------------------
turn_menu:
.prompt:
        call current_record
        ld hl, str_game_turn_of
        call msg_show
        ld a, (v_current)
        call msg_player
        bit PF_IN_JAIL, (ix+P_FLAGS)
        ld hl, str_game_in_jail
        call nz, msg_print
        ld hl, str_game_press_d
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .human
        ld hl, str_game_computer_turn
.human: call msg_print
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr nz, .key
        ld a, (v_options)
        bit OPT_RETIRE, a
        ld hl, str_game_retire_key
        call nz, msg_print
.key:   call current_record
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .wait
        call ai_before_throw
        call turn_rent_window       ; B = the frames of the pause; carry: the rent window
        jr c, .window
        call keys_wait_frames
        jr nz, .got
        ld a, 'D'
        jr .got
.window:
        call turn_rent_wait         ; R, or D when the window closes
        jr .got
.wait:  call keys_wait_upper
.got:   call to_upper
        cp 'D'
        ret z
        cp GAME_KEY_RETIRE
        jr z, .retire
        ld hl, .prompt
        push hl                     ; each choice returns to the prompt
        cp 'R'
        jp z, rent_claim
        cp 'C'
        jp z, turn_show_credit
        cp 'A'
        jp z, turn_show_assets
        cp 'O'
        jp z, turn_owners
        cp 'M'
        jp z, turn_mortgage
        cp 'H'
        jp z, houses_run
        cp 'T'
        jp z, trade_run
        cp AI_KEY_SPEED             ; F: fast computer turns on / off (issue 11)
        jp z, ai_speed_toggle
        cp GAME_KEY_BOARD           ; B: the flat board or the perspective one
        jp z, turn_board_view
        cp KEY_BREAK
        jp z, turn_end_game
        pop hl
        jr .key
.retire:
        call trade_retire           ; (only with OPT_RETIRE)
        call game_players_left
        cp MIN_PLAYERS
        ret c                       ; one player left: the game ends
        call current_record
        bit PF_PLAYING, (ix+P_FLAGS)
        jp nz, .prompt
        ret                         ; the current player left: his turn ends

; ---------------------------------------------------------------------------------------------
; turn_rent_window - how long a computer waits before it throws: COMPUTER_PAUSE frames, cut
; by the fast setting (ai_pause_frames) unless a human is owed rent for the last move: then
; the whole pause, with the owner's token and a line saying who may press R (booklet C: "If
; rent is due, the owner's token will appear on the screen during the short pause")
; Input: v_rent_payer, v_rent_owner.  Output: B = frames, carry set for the rent window
; (RENT_WINDOW_FRAMES, the line printed); carry clear for the usual pause.
; Corrupts: AF, C, DE, HL.
; ---------------------------------------------------------------------------------------------
turn_rent_window:
        ld b, COMPUTER_PAUSE
        ld a, (v_rent_payer)
        cp NO_PLAYER
        jr z, .usual                ; no rent due: the usual (perhaps fast) pause
        ld a, (v_rent_owner)
        call player_record
        bit PF_COMPUTER, (hl)       ; (P_FLAGS is the record's first byte)
        ld b, COMPUTER_PAUSE
        jr nz, .usual               ; a computer owner has claimed already
        assert P_FLAGS == 0
        ld hl, str_game_rent_window ; a new line: "<token> 2 ANNE may press R for rent"
        call msg_print
        ld a, (v_rent_owner)
        call msg_player_piece
        ld hl, str_game_may_press_r
        call msg_print
        ld b, RENT_WINDOW_FRAMES    ; the whole window, fast setting or not
        scf
        ret
.usual: call ai_pause_frames
        or a
        ret

; ---------------------------------------------------------------------------------------------
; turn_rent_wait - the rent window: wait B frames for R (held already counts: it may have
; been pressed while the computer thought); no other key ends it, so no reflex throws
; Input: B = frames.  Output: A = 'R', or 'D' when the window closes.  Corrupts: F, B, DE,
; HL.
; ---------------------------------------------------------------------------------------------
turn_rent_wait:
.loop:  halt
        push bc
        call keys_idle
        call keys_read
        call to_upper
        pop bc
        cp 'R'
        ret z
        djnz .loop
        ld a, 'D'
        ret

; ---------------------------------------------------------------------------------------------
; turn_board_view - B: switch between the perspective board (the default) and the flat one
; Input: v_flat_board.  Output: toggled, the screen redrawn.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
turn_board_view:
        ld a, (v_flat_board)
        xor 1
        ld (v_flat_board), a
        jp board_draw_all

; ---------------------------------------------------------------------------------------------
; keys_wait_frames - wait up to B frames for a key (after all keys are up)
; Input: B = frames.  Output: NZ and A = key if one came; Z if none.  Corrupts: F, B, DE, HL.
; ---------------------------------------------------------------------------------------------
keys_wait_frames:
        push bc
        call keys_release
        pop bc
.loop:  halt
        push bc
        call keys_idle
        call keys_read
        pop bc
        ret nz
        djnz .loop
        xor a
        ret

; ---------------------------------------------------------------------------------------------
; turn_show_credit - C: the current player's cash
; Input: none.  Output: shown until a key.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
turn_show_credit:
        call current_record
        ld hl, str_game_credit
        call msg_show
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        call msg_money
        jp turn_any_key

; ---------------------------------------------------------------------------------------------
; turn_show_assets - A: cash, property value and their total (worth.asm's valuation)
; Input: none.  Output: shown until a key.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
turn_show_assets:
        call current_record
        ld hl, str_game_assets_cash
        call msg_show
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        call msg_money
        ld hl, str_game_assets_property
        call msg_print
        ld a, (v_current)
        call worth_property
        call msg_money
        ld hl, str_game_assets_total
        call msg_print
        ld a, (v_current)
        call worth_total
        call msg_money
        ; continues into turn_any_key

; ---------------------------------------------------------------------------------------------
; turn_any_key - "press a key" on the message lines, and wait for one
; Input: none.  Output: none.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
turn_any_key:
        ld hl, str_game_any_key
        call msg_print
        jp keys_wait

; ---------------------------------------------------------------------------------------------
; turn_owners - O: the owners list, then the close-up again
; Input: none.  Output: none.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
turn_owners:
        call owners_run
        jp turn_lower_restore

; ---------------------------------------------------------------------------------------------
; turn_lower_restore - the lower third back to the current player's close-up
; Input: none.  Output: drawn.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
turn_lower_restore:
        call current_record
        ld a, (ix+P_SQUARE)
        jp closeup_show

; ---------------------------------------------------------------------------------------------
; turn_end_game - CAPS SHIFT+SPACE: end the game after a Y (a BREAK pressed by accident must
; not end an evening's game)
; Input: none.  Output: leaves the game on Y.  Corrupts: AF, BC, DE, HL; IX, IY when it
; leaves.
; ---------------------------------------------------------------------------------------------
turn_end_game:
        call msg_clear
        ld hl, str_game_end_game
        call ask_yn
        ret nc
        ld e, END_BREAK
        jp game_abort

; ---------------------------------------------------------------------------------------------
; turn_throw - D: throw and move (or the jail's throw); the third double goes to jail
; Input: v_current.  Output: carry set if the same player throws again.  Corrupts: all.
; ---------------------------------------------------------------------------------------------
turn_throw:
        ld a, (v_rent_payer)        ; rent not claimed before this throw is lost (A23)
        cp NO_PLAYER
        jr z, .no_claim
        ld b, a                     ; the record says so
        ld a, (v_rent_owner)
        ld c, a
        ld a, (v_rent_square)
        ld d, a
        ld e, 0
        ld hl, 0
        ld a, EVK_RENT_LOST
        call event_emit
.no_claim:
        ld a, NO_PLAYER
        ld (v_rent_payer), a
        ld (v_rent_owner), a
        call current_record
        bit PF_IN_JAIL, (ix+P_FLAGS)
        jp nz, jail_turn

; ---------------------------------------------------------------------------------------------
; turn_throw_free - the throw and the move of a player not in jail (jail_turn comes here once
; the player is out)
; Input: v_current.  Output: carry set if the same player throws again.  Corrupts: all.
; ---------------------------------------------------------------------------------------------
turn_throw_free:
        call turn_dice
        push af
        jr nc, .single
        ld hl, v_doubles
        inc (hl)
        ld a, (hl)
        cp THREE_DOUBLES
        jr c, .single
        pop af
        ld hl, str_game_three_doubles    ; the third double: to jail without moving (A9)
        call msg_show
        call snd_low
        jp jail_send_now
.single:
        ld a, (v_dice)
        ld b, a
        ld a, (v_dice + 1)
        add a, b
        call move_forward
        call land
        pop af
        ret nc
        ; continues into turn_again

; ---------------------------------------------------------------------------------------------
; turn_again - after a double: carry set if the player still may throw (in the game, not sent
; to jail by the square or a card)
; Input: v_current.  Output: carry; IX = the current player's record.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
turn_again:
        call current_record
        bit PF_PLAYING, (ix+P_FLAGS)
        jr z, .no                   ; bankrupt on the way
        bit PF_IN_JAIL, (ix+P_FLAGS)
        jr nz, .no
        call msg_stop               ; (after whatever the square said)
        ld hl, str_game_double_again
        call msg_print
        ld b, LAND_PAUSE            ; time to read it before the menu's prompt
        call pause
        scf
        ret
.no:    or a
        ret

; ---------------------------------------------------------------------------------------------
; turn_dice - throw the dice with their rattle and show them
; Input: none.  Output: v_dice; A = total; carry set for a double.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
turn_dice:
        call snd_rattle
        call turn_tumble
        call dice_throw
        push af
        ld a, (v_current)           ; the record: the throw, and where from
        ld b, a
        ld a, (v_dice)
        ld c, a
        ld a, (v_dice + 1)
        ld e, a
        ld d, (ix+P_SQUARE)
        ld hl, 0
        ld a, EVK_THROW
        call event_emit
        push ix
        call board_draw_dice
        pop ix
        ld hl, str_game_threw
        call msg_show
        ld a, (v_current)
        call msg_player
        ld hl, str_game_threw_a
        call msg_print
        ld a, (v_dice)
        call msg_digit
        ld a, '+'
        call msg_char
        ld a, (v_dice + 1)
        call msg_digit
        pop af
        push af
        ld hl, str_game_double
        call c, msg_print
        call msg_stop
        ld b, DICE_FRAMES           ; (the token moves meanwhile; the next message waits)
        call msg_keep
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; turn_tumble - the dice tumble a moment before they show the throw: TUMBLE_FACES pairs of
; faces, each for TUMBLE_FRAMES frames.  The faces come from the frame count, not from the
; random numbers, so a seed gives the same game with or without the tumble
; Input: none.  Output: v_dice shows the last tumbling faces (dice_throw sets the real ones).
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
turn_tumble:
        ld a, (v_frames)
        ld c, a                     ; C = a face source that changes each frame
        ld b, TUMBLE_FACES
.face:  push bc
        ld a, c
        call .die
        ld (v_dice), a
        ld a, c
        rrca
        rrca
        rrca
        call .die
        ld (v_dice + 1), a
        push ix
        call board_draw_dice
        pop ix
        ld b, TUMBLE_FRAMES
        call pause_plain
        pop bc
        ld a, c
        add a, 7                    ; (7 is prime to 6: every face comes round)
        ld c, a
        djnz .face
        ret
.die:   and 7                       ; A mod 8 folded onto 1..6
        cp 6
        jr c, .face1
        sub 4
.face1: inc a
        ret

; ---------------------------------------------------------------------------------------------
; msg_digit - one digit 0..9 at the message position
; Input: A = 0..9.  Output: printed.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
msg_digit:
        add a, '0'
        jp msg_char

; ---------------------------------------------------------------------------------------------
; move_forward - move the current token forward square by square, collecting the salary on
; passing or landing on GO (A10)
; Input: IX = player, A = squares (1..39).  Output: P_SQUARE; the close-up shows the square.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_forward:
        ld c, 1
        ; continues into move_forward_salary

; ---------------------------------------------------------------------------------------------
; move_forward_salary - move_forward, paying the salary at GO only if C is not 0 (a card may
; say "if you pass GO")
; Input: IX = player, A = squares, C = 1 to pay at GO, 0 not.  Output: as move_forward.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_forward_salary:
        ld b, a
        ld a, c
        ld (move_pays), a
        ld a, (ix+P_SQUARE)
        ld (move_from), a
.step:  push bc
        ld a, (ix+P_SQUARE)
        inc a
        cp BOARD_SIZE
        jr c, .same_lap
        xor a
.same_lap:
        call move_token_to
        ld a, (ix+P_SQUARE)
        or a
        jr nz, .on
        ld a, (move_pays)
        or a
        call nz, move_salary
.on:    pop bc
        djnz .step
        ld e, 0
        call move_record
        ld a, (ix+P_SQUARE)
        push ix
        call closeup_show
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; move_record - declare a move from move_from to the square the token stands on now
; Input: IX = player, E = 0 forwards, 1 backwards.  Output: recorded.  Corrupts: AF, BC, D,
; HL.
; ---------------------------------------------------------------------------------------------
move_record:
        call record_player
        ld b, a
        ld a, (move_from)
        ld c, a
        ld d, (ix+P_SQUARE)
        ld hl, 0
        ld a, EVK_MOVE
        jp event_emit

; ---------------------------------------------------------------------------------------------
; move_backward - move the current token back square by square (no salary going back)
; Input: IX = player, A = squares.  Output: P_SQUARE; the close-up.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_backward:
        ld b, a
        ld a, (ix+P_SQUARE)
        ld (move_from), a
.step:  push bc
        ld a, (ix+P_SQUARE)
        or a
        jr nz, .down
        ld a, BOARD_SIZE
.down:  dec a
        call move_token_to
        pop bc
        djnz .step
        ld e, 1
        call move_record
        ld a, (ix+P_SQUARE)
        push ix
        call closeup_show
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; move_token_to - put the token on a square: redraw both squares, click, a short pause
; Input: IX = player, A = the new square.  Output: P_SQUARE = A.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_token_to:
        ld c, (ix+P_SQUARE)
        ld (ix+P_SQUARE), a
        push af
        ld a, c
        push ix
        call board_draw_square
        pop ix
        pop af
        push ix
        call board_draw_square
        ld a, (ix+P_SQUARE)         ; the close-up follows the token, square by square
        call closeup_show
        call snd_click
        pop ix
        ld b, STEP_FRAMES
        jp pause_plain

; ---------------------------------------------------------------------------------------------
; move_salary - GO passed or landed on: £200 from the Bank (A10)
; Input: IX = player.  Output: P_CASH + GO_SALARY.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_salary:
        ld hl, str_game_salary
        call msg_show
        ld hl, GO_SALARY
        EVENT_CAUSE EVK_SALARY
        call bank_receive_ix
        call snd_beep
        ld b, SALARY_PAUSE          ; seen even when the move ends on GO
        jp pause_plain

; ---------------------------------------------------------------------------------------------
; land - what the square the current player stands on does
; Input: IX = player.  Output: the square's effect done (may move the player again, send it
; to jail, or put it out of the game).  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
land:
        ld a, (ix+P_SQUARE)
        call board_record           ; HL = the square's record
        ld a, (hl)                  ; BOARD_KIND is the first byte
        cp KIND_SITE
        jp z, land_property
        cp KIND_STATION
        jp z, land_property
        cp KIND_UTILITY
        jp z, land_property
        cp KIND_CHANCE
        jp z, cards_chance_draw
        cp KIND_CHEST
        jp z, cards_chest_draw
        cp KIND_TAX
        jp z, land_tax
        cp KIND_GO_TO_JAIL
        jp z, jail_send
        cp KIND_FREE_PARKING
        jp z, land_free_parking
        ret                         ; GO, Jail (just visiting)

; ---------------------------------------------------------------------------------------------
; land_tax - Income Tax or Super Tax: the amount on the square to the Bank (or the jackpot)
; Input: IX = player, HL = the square's record.  Output: paid.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
land_tax:
        ld de, BOARD_RENTS
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        push de
        ld hl, str_game_tax
        call msg_show
        ld a, (ix+P_SQUARE)
        call msg_square_name
        ld hl, str_game_tax_pay
        call msg_print
        pop hl
        push hl
        call msg_money
        call msg_stop
        ld a, (ix+P_SQUARE)
        ld (event_square), a
        EVENT_CAUSE EVK_TAX
        pop hl
        call bank_pay_fine
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; land_free_parking - nothing, or the jackpot under OPT_JACKPOT (seed 003's house rule)
; Input: IX = player.  Output: the jackpot collected.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
land_free_parking:
        ld a, (v_options)
        bit OPT_JACKPOT, a
        ret z
        ld hl, (v_jackpot)
        ld a, h
        or l
        ret z
        push hl
        ld hl, str_game_jackpot
        call msg_show
        pop hl
        push hl
        call msg_money
        pop hl
        call cash_add               ; from Free Parking, not from the Bank
        EVENT_CAUSE EVK_JACKPOT
        call record_player
        ld c, a
        ld a, EV_PARKING
        call event_money
        call bank_redraw
        ld hl, 0
        ld (v_jackpot), hl
        call snd_beep
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; msg_square_name - a square's name at the message position
; Input: A = square.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
msg_square_name:
        call square_name
        jp msg_print

; ---------------------------------------------------------------------------------------------
; square_name - the address of a square's name
; Input: A = square 0..39.  Output: HL.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
square_name:
        add a, a
        ld e, a
        ld d, 0
        ld hl, board_names
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ex de, hl
        ret

; ---------------------------------------------------------------------------------------------
; land_property - a site, station or utility: buy or auction if the Bank has it; rent if
; another player has it (A14, A21)
; Input: IX = player.  Output: done.  Corrupts: all but IX.
; ---------------------------------------------------------------------------------------------
land_property:
        ld a, (ix+P_SQUARE)
        call square_owner           ; A = owner + 1 (0: the Bank), C = the square byte
        or a
        jp z, buy_offer
        dec a
        ld hl, v_current
        cp (hl)
        ret z                       ; the player's own
        bit SQ_MORTGAGED, c
        jr nz, .mortgaged
        jp rent_due
.mortgaged:
        ld hl, str_game_mortgaged_no_rent
        jp msg_show

; ---------------------------------------------------------------------------------------------
; square_owner - who owns a square
; Input: A = square.  Output: A = owner + 1 (0: the Bank), C = the square byte, HL = its
; address in v_squares.  Corrupts: F, DE.
; ---------------------------------------------------------------------------------------------
square_owner:
        ld e, a
        ld d, 0
        ld hl, v_squares
        add hl, de
        ld a, (hl)
        ld c, a
        and SQ_OWNER_MASK
        ret

; ---------------------------------------------------------------------------------------------
; buy_offer - offer an unowned property at its price; declined, the Bank auctions it (A14)
; (or, with OPT_NO_AUCTION, keeps it)
; Input: IX = player (standing on it).  Output: bought, auctioned or left.  Corrupts: all
; but IX.
; ---------------------------------------------------------------------------------------------
buy_offer:
        ld a, (ix+P_SQUARE)
        call board_record
        ld de, BOARD_PRICE
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)                  ; DE = the price
        ld (buy_price), de
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        or a
        sbc hl, de
        jr c, .cannot               ; Can the player pay for it?
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .ask
        ld a, (ix+P_SQUARE)
        call ai_wants_to_buy
        jr c, .buy
        ld hl, str_game_declines
        call msg_show
        ld b, LAND_PAUSE
        call pause
        jr .decline
.ask:   ld hl, str_game_buy
        call msg_show
        ld a, (ix+P_SQUARE)
        call msg_square_name
        ld hl, str_game_for
        call msg_print
        ld hl, (buy_price)
        call msg_money
        ld hl, str_game_question
        call ask_yn
        jr nc, .decline
.buy:   ld a, (ix+P_SQUARE)
        ld (event_square), a
        EVENT_CAUSE EVK_BUY
        ld hl, (buy_price)
        call bank_pay_ix_exact
        ld a, (v_current)
        ld c, a
        ld a, (ix+P_SQUARE)
        call property_give
        ld hl, str_game_bought
        call msg_show
        ld a, (v_current)
        call msg_player
        ld hl, str_game_bought_a
        call msg_print
        ld a, (ix+P_SQUARE)
        call msg_square_name
        call msg_stop
        call msg_hold_money         ; a purchase: read at the money results' pace
        call snd_beep
        ld b, LAND_PAUSE
        jp pause
.cannot:
        ld hl, str_game_cannot_afford
        call msg_show
        ld b, LAND_PAUSE
        call pause
.decline:
        ld a, (v_options)
        bit OPT_NO_AUCTION, a
        jr nz, .kept
        ld a, (ix+P_SQUARE)
        jp auction_run
.kept:  ld hl, str_game_stays_with_bank
        call msg_show
        ld b, LAND_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; property_give - make a player the owner of a square (its mortgage and buildings unchanged)
; and redraw it
; Input: A = square, C = player 0..5.  Output: v_squares.  Corrupts: BC, DE, HL.
; ---------------------------------------------------------------------------------------------
property_give:
        push af
        push ix
        push af
        inc c
        ld b, c                     ; B = the new owner + 1
        call square_owner           ; HL = its byte
        ld a, (hl)
        and 0xFF - SQ_OWNER_MASK
        or b
        ld (hl), a
        pop af
        call board_draw_square
        call board_draw_players
        pop ix
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; turn_mortgage - M: choose a property with the cursor and mortgage it or lift its mortgage
; (booklet C, Mortgage; A52-A53).  SPACE shows a square's deed; ENTER acts; Q leaves.
; Input: none.  Output: done.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
turn_mortgage:
        call cursor_home
        ld hl, str_game_mortgage_help
        call msg_show
        ld hl, deed_show
        call cursor_select
        jp c, turn_lower_restore
        ld (turn_mortgage_square), a
        call square_owner           ; A = owner + 1, C = the square byte
        or a
        jr z, .act                  ; nobody's: mortgage_toggle says so
        dec a
        ld (turn_mortgage_owner), a
        call player_record          ; The owner decides: a computer for itself, a human
        ld de, P_FLAGS              ; with Y (one keyboard: whoever pressed M may not be
        add hl, de                  ; the owner)
        bit PF_COMPUTER, (hl)
        ld hl, str_game_computer_own
        jr nz, .refused
        call msg_clear
        ld a, (turn_mortgage_owner)
        call msg_player
        ld a, (turn_mortgage_square)
        call square_owner
        ld hl, str_game_confirm_mortgage
        bit SQ_MORTGAGED, c
        jr z, .ask
        ld hl, str_game_confirm_lift
.ask:   call msg_print
        ld a, (turn_mortgage_square)
        call msg_square_name
        ld hl, str_game_for
        call msg_print
        ld a, (turn_mortgage_square)
        call mortgage_sum
        call msg_money
        ld hl, str_game_question
        call ask_yn
        jp nc, turn_lower_restore
.act:   ld a, (turn_mortgage_square)
        call mortgage_toggle
        jr .shown
.refused:
        call msg_show
.shown: ld b, LAND_PAUSE
        call pause
        jp turn_lower_restore

; ---------------------------------------------------------------------------------------------
; Strings
; ---------------------------------------------------------------------------------------------
str_game_turn_of:    db "Turn of ", 0
str_game_computer_own: db "A computer player mortgages its own property.", 0
str_game_confirm_mortgage: db " mortgages ", 0
str_game_confirm_lift: db " lifts the mortgage on ", 0
str_game_in_jail:    db " (in jail)", 0
str_game_press_d:    db ". D to throw.", 0          ; (the other keys: the menu above)
str_game_retire_key: db " X retires a player.", 0
str_game_computer_turn: db " (computer) is about to throw.", 0
str_game_rent_window: db PR_NEWLINE, 0
str_game_may_press_r: db " may press R for rent.", 0
str_game_credit:     db "Credit: ", 0
str_game_assets_cash: db "Cash ", 0
str_game_assets_property: db ", property ", 0
str_game_assets_total: db ", total ", 0
str_game_any_key:    db ". Press a key", 0
str_game_end_game:   db "End the game and value everyone's holdings?", 0
str_game_three_doubles: db "Three doubles in a row: go to jail!", 0
str_game_double_again: db " Throw again.", 0
str_game_threw:      db 0
str_game_threw_a:    db " throws ", 0
str_game_double:     db ", a double", 0
str_game_salary:     db "GO: collect ", CH_POUND, "200 salary.", 0
str_game_tax:        db 0
str_game_tax_pay:    db ": pay ", 0
str_game_jackpot:    db "Free Parking jackpot: ", 0
str_game_mortgaged_no_rent: db "It is mortgaged: no rent.", 0
str_game_declines:   db "The computer declines to buy it.", 0
str_game_buy:        db "Buy ", 0
str_game_for:        db " for ", 0
str_game_question:   db "?", 0
str_game_bought:     db 0
str_game_bought_a:   db " buys ", 0
str_game_cannot_afford: db "Not enough cash to buy it.", 0
str_game_stays_with_bank: db "It stays with the Bank.", 0
str_game_time_up:    db "Time is up! The holdings are valued.", 0
str_game_mortgage_help: db "MORTGAGE: CAPS+5/8 move, SPACE deed, ENTER mortgage/lift, Q quit.", 0
