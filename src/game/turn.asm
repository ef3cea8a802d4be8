; =============================================================================================
; turn.asm - a player's turn: the player menu and its keys, the throw, the double, the
; computer's pause and the rent window
;
; Booklet part C (the player menu, "a short pause occurs before the computer moves on to the
; next player") and part A "Dice" (A9: the third double goes to jail).  The current player's
; record is in IX throughout a turn.
; =============================================================================================

COMPUTER_PAUSE  equ 60              ; frames a computer player waits before it throws: the
                                    ; "short pause" in which an owner may press R
RENT_WINDOW_FRAMES equ 200          ; ... and when a human is owed rent, at either speed: a
                                    ; window a person can use, not a reflex test (issue 28)
TUMBLE_FACES    equ 6               ; faces the dice show, tumbling, before they settle
TUMBLE_FRAMES   equ 2               ; frames each of them shows
DICE_FRAMES     equ 50              ; the throw's line stays at least this long (issue 28)
GAME_KEY_BOARD  equ 'B'             ; the flat board (status always shown) or the perspective one
GAME_KEY_RETIRE equ 'X'             ; retire a player (OPT_RETIRE; seed 003's "Quitar")
GAME_KEY_RENT   equ 'R'             ; the menu's keys (booklet C; D is KEY_THROW): claim rent
GAME_KEY_CREDIT equ 'C'             ; the current player's cash
GAME_KEY_ASSETS equ 'A'             ; cash, property and their total
GAME_KEY_OWNERS equ 'O'             ; the owners list
GAME_KEY_MORTGAGE equ 'M'           ; mortgage and unmortgage
GAME_KEY_HOUSES equ 'H'             ; buy and sell buildings
GAME_KEY_TRADE  equ 'T'             ; trade between players
THREE_DOUBLES   equ 3               ; the third double in a row goes to jail (A9)
TURN_PAUSE_USUAL equ 0              ; turn_pause_kind: the usual pause begun (SBC A,A of no
TURN_PAUSE_WINDOW equ 0xFF          ; carry), the rent window begun (of carry), or no pause
TURN_PAUSE_NONE equ 1               ; begun yet in this menu

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
        jr c, .store                ; Below the player count (else back to player 0)?
        xor a
.store: ld (v_current), a
        call player_record
        bit PF_PLAYING, (hl)
        ret nz                      ; Is this player still in the game?
        djnz .next
        ret

; ---------------------------------------------------------------------------------------------
; turn_play - the current player's turn: the menu until D, the throw, again after a double
; Input: v_current.  Output: the turn played (the player may be in jail or out of the game).
; Corrupts: all.
; ---------------------------------------------------------------------------------------------
turn_play:
        call turn_lower_restore     ; the close-up of this player's square, not the last
        call msg_hold_wait          ; mover's (issue 28); the last line read out first, an R
        call rent_ahead_clear       ; typed for its rent kept (nothing else typed before this
.again: call board_draw_status      ; turn answers its questions)
        call board_draw_players
        call turn_menu
        call game_players_left      ; X may have ended the game or the player's part in it
        cp MIN_PLAYERS
        ret c                       ; Too few players left (X has ended the game)?
        call current_record
        bit PF_PLAYING, (ix+P_FLAGS)
        ret z                       ; Has the current player left the game (X)?
        call turn_throw             ; carry: the same player throws again
        ret nc                      ; No throw again (no double, or jail, or out)?
        jr .again

; ---------------------------------------------------------------------------------------------
; turn_menu - the player menu until the current player throws (D)
; M Mortgage, H Houses, R Rent, O Owners, T Trade, D Dice; C credit, A assets; CAPS SHIFT +
; SPACE ends the game; X retires a player when OPT_RETIRE is on (not a booklet key).  A
; computer player throws by itself after COMPUTER_PAUSE frames, in which a human owner may
; still press R (the menu's keys work there too; any other key is refused, saying which; in
; the rent window only R, any other key refused saying R claims the rent).  The pause begins
; with the computer's prompt and no key begins it again or lengthens it (turn_pause_left; F
; shortens it): when it is over the computer throws, at the latest right after the refusal
; then shown.
; Input: v_current.  Output: when D is chosen.  Corrupts: all.
; ---------------------------------------------------------------------------------------------
turn_menu:
        ld a, TURN_PAUSE_NONE       ; no computer's pause begun yet (turn_pause_left)
        ld (turn_pause_kind), a
.prompt:
        call turn_prompt
.key:   call rent_watch_take        ; an R since the rent line: kept for the menu
        call current_record
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .wait                 ; A human's turn (he answers the menu himself)?
        call rent_ahead_clear       ; (only an owner's R typed before the prompt is kept)
        ld a, (keys_ahead)
        or a
        call z, keys_ahead_arm      ; No R kept?  The prompt asks: a key from now on counts.
        call ai_before_throw
.pause: call turn_rent_window       ; B = the frames of the pause; carry: the rent window
        call turn_pause_left        ; B = what is left of it since it began (carry kept)
        inc b
        dec b
        jr z, .over                 ; Is the pause over (keys meanwhile have taken its time)?
        jr c, .window               ; Is a human owed rent (the rent window)?
        call keys_wait_frames
        jr nz, .got                 ; A key pressed within the pause?
.throw: ld a, KEY_THROW
        jr .got
.over:  ld a, (keys_ahead)          ; a key typed over the last refusal still counts if the
        call keys_ahead_clear       ; menu takes it (C: the credit); another is dropped
        or a                        ; without a word; with none the computer throws
        jr z, .throw                ; No key kept?
        ld hl, keys_from_ahead      ; (typed ahead: refuse_key drops it unsaid)
        inc (hl)
        jr .got
.window:
        call turn_rent_wait         ; carry: a key (R, or one refused); else D: it closed
        jr nc, .got                 ; Has the window closed (he throws)?
        call msg_hold_end           ; a key is answered at once (the pace is for reading,
        cp GAME_KEY_RENT            ; and he has read the line)
        jr z, .got                  ; The owner's R?
        ld hl, str_rent_r_claims    ; any other key: refused, saying R claims the rent; the
        call refuse_key             ; reminder back, the rest of the window
        jr .pause
.wait:  call keys_wait_upper
.got:   call to_upper
        cp KEY_THROW
        ret z                       ; D: throw?
        cp GAME_KEY_RETIRE
        jr z, .retire               ; X?  (only with OPT_RETIRE)
        ld hl, .prompt
        push hl                     ; each choice returns to the prompt
        cp GAME_KEY_RENT
        jp z, rent_claim            ; R: claim rent?
        cp GAME_KEY_CREDIT
        jp z, turn_show_credit      ; C: credit?
        cp GAME_KEY_ASSETS
        jp z, turn_show_assets      ; A: assets?
        cp GAME_KEY_OWNERS
        jp z, turn_owners           ; O: owners?
        cp GAME_KEY_MORTGAGE
        jp z, mortgage_run          ; M: mortgage?
        cp GAME_KEY_HOUSES
        jp z, houses_run            ; H: houses?
        cp GAME_KEY_TRADE
        jp z, trade_run             ; T: trade?
        cp AI_KEY_SPEED             ; F: fast computer turns on / off (issue 11)
        jp z, ai_speed_toggle       ; F: fast computer turns on or off?
        cp GAME_KEY_BOARD           ; B: the flat board or the perspective one
        jp z, turn_board_view       ; B: the other board?
        cp KEY_BREAK
        jp z, turn_end_game         ; CAPS SHIFT + SPACE: end the game?
        pop hl
        ld hl, str_turn_menu_keys   ; which keys the menu takes (a computer's pause too)
        call refuse_key
.refused:
        bit PF_COMPUTER, (ix+P_FLAGS)
        jp nz, .pause               ; A computer's pause?  On with the rest of it: a key typed
        jr .wait                    ; meanwhile counts (else a human's next key)
.retire:
        ld hl, v_options
        bit OPT_RETIRE, (hl)
        ld hl, str_turn_no_retire
        jr nz, .retire_on           ; Was the retire option chosen?
        ld a, (keys_from_ahead)
        or a
        call z, refuse_keep         ; Typed at the menu (else typed ahead: dropped unsaid)?
        jr .refused
.retire_on:
        call trade_retire
        call game_players_left
        cp MIN_PLAYERS
        ret c                       ; Too few players left?  The game ends.
        call current_record
        bit PF_PLAYING, (ix+P_FLAGS)
        jp nz, .prompt              ; Still in the game (back to the menu)?  Else his turn ends.
        ret                         ; the current player left: his turn ends

; ---------------------------------------------------------------------------------------------
; turn_prompt - the player menu's prompt: whose turn, D to throw (a computer's: about to throw),
; and while a human may claim rent for the last move, the line saying who may claim how much
; from whom with R (issue 45: in view until the next throw or the claim).  All in the three
; rows: after a prompt of two rows the reminder is rent_remind_short's one row
; Input: v_current, v_rent_*.  Output: shown; turn_prompt_shown = msg_clears.  Corrupts: AF,
; BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
turn_prompt:
        call current_record
        ld hl, str_turn_turn_of
        call msg_show
        ld a, (v_current)
        call msg_player
        bit PF_IN_JAIL, (ix+P_FLAGS)
        ld hl, str_turn_in_jail
        call nz, msg_print          ; In jail (said after the name)?
        call rent_pending           ; carry: rent may be claimed, HL = how much
        ld (turn_prompt_rent), hl
        ld hl, str_turn_press_d
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .human                ; A human's turn (D to throw)?  A computer throws by itself.
        ld hl, str_turn_computer_turn
        jr nc, .human               ; No rent due?  Else the prompt is short: the reminder
        ld hl, str_turn_computer    ; follows in full
.human: push af
        call msg_print
        pop af
        jr c, .rent                 ; Rent due to a human?  The reminder instead of X's.
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr nz, .shown               ; A computer's turn?
        ld a, (v_options)
        bit OPT_RETIRE, a
        ld hl, str_turn_retire_key
        call nz, msg_print          ; Was the retire option chosen (X is offered)?
        jr .shown
.rent:  ld a, (msg_row)             ; the prompt on one row: two for the reminder in full;
        push af                     ; on two (a long name, in jail): one, in short
        call msg_newline
        pop af
        ld hl, (turn_prompt_rent)
        cp MSG_TOP
        jr nz, .short               ; Has the prompt taken two rows?
        call rent_remind
        call msg_stop
        jr .shown
.short: call rent_remind_short
.shown: ld a, (msg_clears)
        ld (turn_prompt_shown), a
        ret

; ---------------------------------------------------------------------------------------------
; turn_rent_window - how long a computer waits before it throws: COMPUTER_PAUSE frames, cut
; by the fast setting (ai_pause_frames) unless a human is owed rent for the last move: then
; the whole pause, with the owner's token and the line saying who may press R for how much
; (booklet C: "If rent is due, the owner's token will appear on the screen during the short
; pause"), printed again with the prompt if a message of the computer's replaced them
; Input: v_rent_*.  Output: B = frames, carry set for the rent window (RENT_WINDOW_FRAMES);
; carry clear for the usual pause.  Corrupts: AF, C, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
turn_rent_window:
        call rent_pending
        ld b, COMPUTER_PAUSE
        jr nc, .usual               ; No rent a human may claim?  The usual (perhaps fast) pause.
        ld a, (msg_clears)
        ld hl, turn_prompt_shown
        cp (hl)
        call nz, turn_prompt        ; Has another message replaced the prompt and its reminder?
        ld b, RENT_WINDOW_FRAMES    ; the whole window, fast setting or not
        scf
        ret
.usual: call ai_pause_frames
        or a
        ret

; ---------------------------------------------------------------------------------------------
; turn_pause_left - the frames left of a computer's pause before it throws.  The pause begins
; with its prompt and ends when its frames are over, whatever keys come meanwhile: a key
; refused (its line still stands its REFUSAL_FRAMES), a look at the credit, F or B do not
; begin it again, so no key sequence holds the throw off for ever (issue 45: each refusal
; began the rent window anew, and a key pressed every few frames stalled the game).  F (the
; fast setting) shortens the pause running: it ends as if it had begun at that speed, never
; later than it would have (F again, back to normal, does not lengthen it).  Only a pause of
; the other kind begins anew: the usual pause once R has closed the rent window
; Input: B = the frames of this pause and carry for the rent window (turn_rent_window);
; turn_pause_kind, turn_pause_frames, turn_pause_start.  Output: B = the frames left of it, 0
; when it is over; flags as given.  Corrupts: DE, HL.
; ---------------------------------------------------------------------------------------------
turn_pause_left:
        push af
        sbc a, a                    ; TURN_PAUSE_WINDOW (carry) or TURN_PAUSE_USUAL
        ld hl, turn_pause_kind
        cp (hl)
        jr z, .begun                ; Has this pause begun already?
        ld (hl), a                  ; it begins now, with B frames
        inc hl
        ld (hl), b
        ld hl, (v_frames)
        ld (turn_pause_start), hl
.begun: ld hl, turn_pause_frames
        ld a, b
        cp (hl)
        jr nc, .fewest              ; Not fewer frames than it has had (F has not made it fast)?
        ld (hl), b                  ; fast now: as if it had begun at this speed
.fewest:
        ld e, (hl)
        ld d, 0
        ld hl, (turn_pause_start)
        add hl, de                  ; HL = its end
        ld de, (v_frames)
        or a
        sbc hl, de                  ; HL = the frames to its end, modulo 65,536
        ld b, l
        ld a, h
        or a
        jr z, .left                 ; Not past its end (a pause is under 256 frames)?
        ld b, 0                     ; past it: the last refusal's time, or F, took it beyond
.left:  pop af
        ret
        assert turn_pause_frames == turn_pause_kind + 1
        assert RENT_WINDOW_FRAMES < 256 && COMPUTER_PAUSE < 256
        assert TURN_PAUSE_NONE != TURN_PAUSE_USUAL && TURN_PAUSE_NONE != TURN_PAUSE_WINDOW

; ---------------------------------------------------------------------------------------------
; turn_rent_wait - the rent window: wait B frames for a key: R (held already counts: it may
; have been pressed while the computer thought; typed after the rent line or the prompt, or
; over a refusal, and kept, too) or a new key (the caller refuses it: no reflex throws)
; Input: B = frames, keys_ahead.  Output: carry and A = the key in upper case; no carry and
; A = 'D' when the window closes.  Nothing kept.  Corrupts: F, B, DE, HL.
; ---------------------------------------------------------------------------------------------
turn_rent_wait:
        ld a, (keys_ahead)
        or a
        jr nz, .got                 ; A key typed ahead (after the line, over a refusal)?
        call keys_ahead_arm         ; (else a new key from now on counts)
.loop:  halt
        push bc
        call keys_idle
        call keys_ahead_frame       ; NZ: a new key
        pop bc
        jr nz, .got                 ; A new key?
        ld a, (keys_ahead_prev)     ; the key down now
        call to_upper
        cp GAME_KEY_RENT
        jr z, .got                  ; R held (pressed while the computer thought)?
        djnz .loop
        ld a, KEY_THROW
        or a                        ; (no carry: the window closed)
        ret
.got:   call keys_ahead_clear
        call to_upper
        scf
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
; turn_show_credit - C: the current player's cash
; Input: none.  Output: shown until a key.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
turn_show_credit:
        call current_record
        ld hl, str_turn_credit
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
        ld hl, str_turn_assets_cash
        call msg_show
        ld l, (ix+P_CASH)
        ld h, (ix+P_CASH+1)
        call msg_money
        ld hl, str_turn_assets_property
        call msg_print
        ld a, (v_current)
        call worth_property
        call msg_money
        ld hl, str_turn_assets_total
        call msg_print
        ld a, (v_current)
        call worth_total
        call msg_money
        ; continues into turn_any_key

; ---------------------------------------------------------------------------------------------
; turn_any_key - "press a key" on the message lines, and wait for one; a key other than SPACE
; or ENTER is kept for the menu that follows (keys_ahead)
; Input: none.  Output: keys_ahead.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
turn_any_key:
        ld hl, str_turn_any_key
        call msg_print
        call keys_wait
        cp KEY_SPACE
        ret z                       ; SPACE (only "go on")?
        cp KEY_ENTER
        ret z                       ; ENTER (only "go on")?
        ld (keys_ahead), a          ; another key goes on to the menu as typed ahead (it takes
        ld a, 1                     ; it if it is one of its keys: not swallowed, issue 45)
        ld (keys_ahead_on), a
        ret

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
        ld hl, str_turn_end_game
        call ask_yn
        ret nc                      ; N: the game goes on?
        ld e, END_BREAK
        jp game_abort

; ---------------------------------------------------------------------------------------------
; turn_throw - D: throw and move (or the jail's throw); the third double goes to jail
; Input: v_current.  Output: carry set if the same player throws again.  Corrupts: all.
; ---------------------------------------------------------------------------------------------
turn_throw:
        ld e, RENT_LOST_THROW       ; rent not claimed before this throw is lost (A23)
        call rent_lapse
        call current_record
        bit PF_IN_JAIL, (ix+P_FLAGS)
        jp nz, jail_turn            ; In jail (the jail's throw)?

; ---------------------------------------------------------------------------------------------
; turn_throw_free - the throw and the move of a player not in jail (jail_turn comes here once
; the player is out)
; Input: v_current.  Output: carry set if the same player throws again.  Corrupts: all.
; ---------------------------------------------------------------------------------------------
turn_throw_free:
        call turn_dice
        push af
        jr nc, .single              ; Not a double?
        ld hl, v_doubles
        inc (hl)
        ld a, (hl)
        cp THREE_DOUBLES
        jr c, .single               ; Fewer than three doubles in a row?
        pop af
        ld hl, str_turn_three_doubles    ; the third double: to jail without moving (A9)
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
        ret nc                      ; Not a double (the turn ends)?
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
        jr z, .no                   ; Out of the game (bankrupt on the way)?
        bit PF_IN_JAIL, (ix+P_FLAGS)
        jr nz, .no                  ; Sent to jail (by the square or a card)?
        call msg_stop               ; (after whatever the square said)
        ld hl, str_turn_double_again
        call msg_print_whole        ; (whole, in a part of its own after a long rent line)
        bit PF_COMPUTER, (ix+P_FLAGS)
        call z, keys_ahead_arm      ; A human's?  It asks for D: a D typed now is his throw.
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
        ld hl, str_turn_threw
        call msg_show
        ld a, (v_current)
        call msg_player
        ld hl, str_turn_threw_a
        call msg_print
        ld a, (v_dice)
        call msg_digit
        ld a, '+'
        call msg_char
        ld a, (v_dice + 1)
        call msg_digit
        pop af
        push af
        ld hl, str_turn_double
        call c, msg_print           ; A double (said)?
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
        jr c, .face1                ; Below 6 (else 6 and 7 fold onto 2 and 3)?
        sub 4
.face1: inc a
        ret

str_turn_turn_of:    db "Turn of ", 0
str_turn_in_jail:    db " (in jail)", 0
str_turn_press_d:    db ". D to throw.", 0          ; (the other keys: the menu above)
str_turn_retire_key: db " X retires a player.", 0
str_turn_computer_turn: db " (computer) is about to throw.", 0
str_turn_computer:   db " (computer).", 0
str_turn_menu_keys:  db "D throws; M H R O T C A B F as above.", 0
str_turn_no_retire:  db "X retires a player only with that option, chosen at the start.", 0
str_turn_credit:     db "Credit: ", 0
str_turn_assets_cash: db "Cash ", 0
str_turn_assets_property: db ", property ", 0
str_turn_assets_total: db ", total ", 0
str_turn_any_key:    db ". Press a key", 0
str_turn_end_game:   db "End the game and value everyone's holdings?", 0
str_turn_three_doubles: db "Three doubles in a row: go to jail!", 0
str_turn_double_again: db " Throw again.", 0
str_turn_threw:      db 0
str_turn_threw_a:    db " throws ", 0
str_turn_double:     db ", a double", 0
