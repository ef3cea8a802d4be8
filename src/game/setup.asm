; =============================================================================================
; setup.asm - before the game: the pieces, computer players, names, the short game, our
; options, and who goes first (booklet part C: "Piece selection", "Short game", "Who goes
; first?"; seed_rules B1.2-B1.4, A6)
;
; The screen lists the six pieces, one per two rows; a piece's row gets its player's number
; and name when it is taken, the row below "Human player" or a computer's personality, and the columns
; on the right the who-goes-first throw.  Questions are asked on the message lines.
; setup_run fills only the players' flags, tokens, names and personalities, v_num_players,
; the short game and v_options, and v_current: the game deals cash, squares and packs.
; =============================================================================================

SETUP_PIECE_TOP equ 3               ; the row of piece 1; each piece has three rows: the piece
SETUP_PIECE_ROWS equ 3              ; and its player, who plays it, a gap before the next
SETUP_DIGIT_COL equ 1               ; the piece's number (the key that takes it)
SETUP_GLYPH_COL equ 3               ; the piece's picture
SETUP_PIECE_COL equ 5               ; its name; a computer's personality goes below it
SETUP_PLAYER_COL equ 11             ; the player's number, then a space and the name
SETUP_DIE_COL   equ 25              ; the two dice of the who-goes-first throw
SETUP_TOTAL_COL equ 29              ; "=" and the total
SETUP_TOTAL_WIDTH equ 2
SETUP_CPU_PAUSE equ 40              ; frames before a computer player throws (a short pause)
SETUP_TIE_PAUSE equ 75              ; frames showing who throws again
SETUP_START_PAUSE equ 100           ; frames showing who goes first
SETUP_DEAL_CARDS equ 2              ; Title Deeds the Banker deals each player (short game)
SETUP_DEAL_PAUSE equ 100            ; frames showing a player's deeds and what he paid
MAX_HOURS       equ 23              ; a short game lasts at most 23 hours 59 minutes
KEY_THROW       equ 'D'             ; "each player in turn throws the dice by pressing D"

; ---------------------------------------------------------------------------------------------
; setup_run - the whole setup, from the piece menu to who goes first
; Input: none.  Output: v_players (P_FLAGS PF_PLAYING/PF_COMPUTER, P_TOKEN, P_NAME,
; P_PERSONALITY), v_num_players 2..6, v_short_game and v_clock_minutes, v_options, v_current
; = the starter; v_phase = PHASE_FIRST.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
setup_run:
        ld a, PHASE_SETUP
        ld (v_phase), a
        call setup_clear
        call setup_draw
        call setup_players
        call setup_short_game
        call setup_options
        ld a, PHASE_FIRST
        ld (v_phase), a
        jp setup_first

; ---------------------------------------------------------------------------------------------
; setup_clear - forget the last game's players and choices (main clears the state block only
; once, at power-on; a new game comes back here)
; Input: none.  Output: v_players zeroed; v_num_players, v_options, v_short_game,
; v_clock_minutes, setup_taken 0.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
setup_clear:
        ld hl, v_players
        ld de, v_players + 1
        ld bc, MAX_PLAYERS * PLAYER_RECORD - 1
        ld (hl), 0
        ldir
        xor a
        ld (v_num_players), a
        ld (v_options), a
        ld (v_short_game), a
        ld (setup_taken), a
        ld h, a
        ld l, a
        ld (v_clock_minutes), hl
        ret

; ---------------------------------------------------------------------------------------------
; setup_draw - the piece menu: a title and the six pieces, numbered 1-6, with their names
; Input: none.  Output: drawn; print_attr = ATTR_MESSAGE.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
setup_draw:
        ld a, ATTR_NORMAL
        call cls
        ld hl, str_setup_screen
        call print_string
        ld c, 0                     ; C = piece
.piece: ld a, c
        call setup_token_row
        push bc
        ld c, SETUP_DIGIT_COL
        call print_at
        pop bc
        ld a, c
        add a, '1'
        call print_char
        push bc
        ld c, SETUP_GLYPH_COL
        call print_at
        pop bc
        ld a, c
        add a, CH_TOKEN
        call print_char
        push bc
        ld c, SETUP_PIECE_COL
        call print_at
        pop bc
        ld a, c
        ld hl, setup_piece_names
        call setup_string_of
        push bc
        call print_string
        pop bc
        inc c
        ld a, c
        cp TOKENS
        jr c, .piece                ; Another piece?
        ld a, ATTR_MESSAGE
        ld (print_attr), a
        ret

; ---------------------------------------------------------------------------------------------
; setup_string_of - the Nth string of a table of string addresses
; Input: A = N, HL = the table (DW per entry).  Output: HL = the string.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
setup_string_of:
        add a, a
        ld e, a
        ld d, 0
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        ret

; ---------------------------------------------------------------------------------------------
; setup_players - enter the players: a piece's number, computer Y/N, the name; ENTER when all
; are in (refused below MIN_PLAYERS); after the sixth it goes on by itself
; Input: none.  Output: v_players, v_num_players.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
setup_players:
        ld a, (v_num_players)
        cp MAX_PLAYERS
        ret nc                      ; Are all six pieces taken?
        ld hl, str_empty
.ask:   call msg_show               ; HL: why the last key was refused, or nothing
        call setup_prompt_piece
.key:   call keys_wait
        cp KEY_ENTER
        jr z, .enter                ; ENTER: are all the players in?
        ld c, a
        sub '1'
        jr c, .other                ; Not a piece's number?
        cp TOKENS
        jr nc, .other               ; Past piece 6 (not a piece's number)?
        ld c, a                     ; C = the piece
        ld b, a
        inc b
        ld a, 0x80                  ; A = 1 << piece, for setup_taken
.bit:   rlca
        djnz .bit
        ld hl, setup_taken
        ld b, a
        and (hl)
        jr nz, .taken               ; Is the piece taken already?
        ld a, b
        or (hl)
        ld (hl), a
        call setup_enter_player
        jr setup_players
.taken: call snd_low
        ld hl, str_taken
        jr .ask
.other: ld a, c
        ld hl, str_piece_keys
        call refuse_key
        jr .key
.enter: ld a, (v_num_players)
        cp MIN_PLAYERS
        ret nc                      ; Two players or more (enough)?
        call snd_low
        ld hl, str_too_few
        jr .ask

; ---------------------------------------------------------------------------------------------
; setup_prompt_piece - "Player n: press a piece's number", and ENTER once enough are in
; Input: none.  Output: printed at the message position.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
setup_prompt_piece:
        ld hl, str_player
        call msg_print
        ld a, (v_num_players)
        add a, '1'
        call msg_char
        ld hl, str_choose_piece
        call msg_print
        ld a, (v_num_players)
        cp MIN_PLAYERS
        ret c                       ; Fewer than two so far (no ENTER offered)?
        ld hl, str_or_enter
        jp msg_print

; ---------------------------------------------------------------------------------------------
; setup_record - IX = the record of the player being entered (number v_num_players)
; Input: none.  Output: IX, HL = the record.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
setup_record:
        ld a, (v_num_players)
        call player_record
        push hl
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; setup_enter_player - the next player takes a piece: computer or not, personality, name
; Input: C = piece 0..5 (free).  Output: the record filled, shown; v_num_players + 1.
; Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
setup_enter_player:
        call setup_record
        ld (ix+P_TOKEN), c
        ld (ix+P_FLAGS), 1 << PF_PLAYING
        ld hl, str_player
        call msg_show
        ld a, (v_num_players)
        add a, '1'
        call msg_char
        ld hl, str_takes
        call msg_print
        ld a, (ix+P_TOKEN)          ; (the message routines corrupt BC)
        ld hl, setup_piece_names
        call setup_string_of
        call msg_print
        ld hl, str_ask_computer
        call ask_yn
        jr nc, .name                ; N: a human player?
        call setup_record
        set PF_COMPUTER, (ix+P_FLAGS)
        ld a, PERSONALITIES         ; one of the six personalities, at random
        call rng_below
        ld (ix+P_PERSONALITY), a
.name:  ld hl, str_ask_name
        call msg_show
        call setup_record
        ld de, P_NAME
        add hl, de
        ex de, hl                   ; DE = the name's buffer in the record
        ld b, NAME_LENGTH
        call ask_text
        ld a, (v_num_players)
        call setup_draw_player
        ld hl, v_num_players
        inc (hl)
        ret

; ---------------------------------------------------------------------------------------------
; setup_piece_row - the screen row of a player's piece
; Input: IX = the player's record.  Output: B = row.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
setup_piece_row:
        ld a, (ix+P_TOKEN)
        ; continues into setup_token_row

; ---------------------------------------------------------------------------------------------
; setup_token_row - the screen row of a piece in the list
; Input: A = piece 0..5.  Output: B = row.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
setup_token_row:
        assert SETUP_PIECE_ROWS == 3
        ld b, a
        add a, a
        add a, b
        add a, SETUP_PIECE_TOP
        ld b, a
        ret

; ---------------------------------------------------------------------------------------------
; setup_draw_player - show a player against its piece: number and name, and below the piece
; name a computer player's personality
; Input: A = player.  Output: printed; print_attr = ATTR_MESSAGE.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
setup_draw_player:
        ld c, a
        call player_record
        push hl
        pop ix
        ld a, ATTR_NORMAL
        ld (print_attr), a
        call setup_piece_row
        ld a, c
        ld c, SETUP_PLAYER_COL
        call print_at
        add a, '1'
        call print_char
        ld a, ' '
        call print_char
        push ix
        pop hl
        ld de, P_NAME
        add hl, de
        call print_string
        call setup_piece_row        ; every player's second line says who plays, right under
        inc b                       ; the piece, a gap before the next piece's row
        ld c, SETUP_PIECE_COL
        ld hl, str_human
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .who                  ; A human player (no personality)?
        ld hl, str_computer
        call print_string_at
        ld a, (ix+P_PERSONALITY)
        ld hl, setup_personality_names
        call setup_string_of
        call print_string
        jr .done
.who:   call print_string_at
.done:  ld a, ATTR_MESSAGE
        ld (print_attr), a
        ret

; ---------------------------------------------------------------------------------------------
; setup_short_game - "Short game?"; if so its length in hours and minutes (at least a minute,
; at most MAX_HOURS hours 59)
; Input: none.  Output: v_short_game = 1 and v_clock_minutes for a short game, else both 0.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
setup_short_game:
        call msg_clear
        ld hl, str_ask_short
        call ask_yn
        ret nc                      ; N: the full game?
        ld hl, str_how_long
.ask:   call msg_show               ; HL: the question, or why the last answer was refused
        ld hl, str_hours
        call ask_number
        jr nc, .hours               ; Hours typed (not ENTER alone)?
        ld hl, 0                    ; ENTER alone: no hours
.hours: ld de, MAX_HOURS + 1
        or a
        sbc hl, de
        jr nc, .bad                 ; More than MAX_HOURS hours?
        add hl, de
        ld a, l
        ld (setup_hours), a
        ld hl, str_minutes
        call ask_number
        jr nc, .minutes             ; Minutes typed (not ENTER alone)?
        ld hl, 0
.minutes:
        ld de, MINUTES_PER_HOUR
        or a
        sbc hl, de
        jr nc, .bad                 ; 60 minutes or more?
        add hl, de                  ; HL = minutes 0..59
        ld a, (setup_hours)
        or a
        jr z, .total                ; No whole hours to add?
        ld b, a
.hour:  add hl, de                  ; + 60 a hour
        djnz .hour
.total: ld a, h
        or l
        jr z, .bad                  ; No time at all?
        ld (v_clock_minutes), hl
        ld a, 1
        ld (v_short_game), a
        call msg_clear              ; booklet A's short game deals deeds; part C is silent,
        ld hl, str_ask_deal         ; so the players choose (issue 28)
        call ask_yn
        ret nc                      ; N: no deeds dealt?
        ld a, (v_options)
        set OPT_DEAL, a
        ld (v_options), a
        ret
.bad:   call snd_low
        ld hl, str_bad_time
        jr .ask

; ---------------------------------------------------------------------------------------------
; setup_deal - the short game's start with OPT_DEAL (booklet A, "Rules for playing the short
; game"): "the Banker shuffles the Title Deed cards and ... deals two cards to each player.
; The players immediately pay the Bank the price"; each deed is drawn at random from those
; the Bank holds, each player's shown with what he paid
; Input: v_options, v_players.  Output: SETUP_DEAL_CARDS properties owned by each player and
; paid for.  Corrupts: all but IX, IY.
; ---------------------------------------------------------------------------------------------
setup_deal:
        ld a, (v_options)
        bit OPT_DEAL, a
        ret z                       ; No deeds to deal (OPT_DEAL not chosen)?
        push ix
        xor a
.player:
        ld (setup_deal_player), a
        call player_record
        push hl
        pop ix
        ld hl, 0
        ld (setup_deal_paid), hl
        ld a, (setup_deal_player)
        call msg_show_player
        ld hl, str_deal_dealt
        call msg_print
        ld b, SETUP_DEAL_CARDS
.card:  push bc
        call setup_deal_one         ; A = the square, HL = its price
        ld de, (setup_deal_paid)
        add hl, de
        ld (setup_deal_paid), hl
        pop bc
        push bc
        ld hl, setup_deal_squares + SETUP_DEAL_CARDS ; its place: the B-th from the end
        ld e, b
        ld d, 0
        or a
        sbc hl, de
        ld (hl), a
        call msg_square_name
        pop bc
        push bc
        ld a, b
        cp 1
        ld hl, str_deal_and
        call nz, msg_print          ; Not the last card (" and " follows)?
        pop bc
        djnz .card
        ld hl, str_deal_paying
        call msg_print
        ld hl, (setup_deal_paid)
        call msg_money
        call msg_stop
        ld a, (setup_deal_squares)  ; he pays for both at once, the record naming them
        ld (event_square), a
        ld a, (setup_deal_squares + 1)
        ld (event_extra), a
        assert SETUP_DEAL_CARDS == 2 ; (the record has room for two squares)
        EVENT_CAUSE EVK_DEALT
        ld hl, (setup_deal_paid)
        call bank_pay_ix_exact      ; (two deeds cost at most 750 of the 1,500)
        ld b, SETUP_DEAL_PAUSE
        call pause
        ld a, (setup_deal_player)
        inc a
        ld hl, v_num_players
        cp (hl)
        jr c, .player               ; Another player to deal to?
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; setup_deal_one - deal a player one Title Deed at random from the Bank's (setup_deal has him
; pay for his deeds together)
; Input: setup_deal_player.  Output: A = the square, HL = its price.  Corrupts: F, BC, DE.
; ---------------------------------------------------------------------------------------------
setup_deal_one:
        call setup_bank_deeds       ; A = how many deeds the Bank holds
        call rng_below
        ld c, a                     ; C = how many of them to pass over
        ld b, 0                     ; B = square
.find:  ld a, b
        call setup_bank_deed
        jr nz, .next                ; Not a deed the Bank holds?
        ld a, c
        or a
        jr z, .found                ; Passed over enough (this is the one)?
        dec c
.next:  inc b
        jr .find
.found: ld a, b
        ld (setup_deal_square), a
        ld a, (setup_deal_player)
        ld c, a
        ld a, (setup_deal_square)
        call property_give
        ld a, (setup_deal_square)
        call board_record
        ld de, BOARD_PRICE
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        ld a, (setup_deal_square)
        ret

; ---------------------------------------------------------------------------------------------
; setup_bank_deeds - how many Title Deeds the Bank holds (properties nobody owns)
; Input: v_squares.  Output: A = the count.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
setup_bank_deeds:
        push bc
        ld bc, 0                    ; B = square, C = count
.square:
        ld a, b
        call setup_bank_deed
        jr nz, .next                ; Not a deed the Bank holds?
        inc c
.next:  inc b
        ld a, b
        cp BOARD_SQUARES
        jr c, .square               ; Another square?
        ld a, c
        pop bc
        ret

; ---------------------------------------------------------------------------------------------
; setup_bank_deed - whether the Bank holds a square's Title Deed (a site, station or utility
; that nobody owns)
; Input: A = square.  Output: Z if so.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
setup_bank_deed:
        push bc
        ld b, a
        call board_record
        assert BOARD_KIND == 0
        ld a, (hl)
        dec a                       ; KIND_SITE, KIND_STATION, KIND_UTILITY: 0..2
        assert KIND_SITE == 1
        assert KIND_UTILITY == 3
        cp KIND_UTILITY
        jr nc, .not                 ; Not a site, station or utility (no deed)?
        ld a, b
        call square_owner           ; A = owner + 1: 0 for the Bank
        pop bc
        or a
        ret
.not:   pop bc
        or 1                        ; (NZ: no deed)
        ret

; ---------------------------------------------------------------------------------------------
; setup_options - our options, each a Y/N question, off unless Y (seed 003's variants)
; Input: none.  Output: v_options.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
setup_options:
        ld hl, setup_option_table
.next:  ld e, (hl)
        inc hl
        ld d, (hl)
        inc hl
        ld a, d
        or e
        ret z                       ; The table's end (its 0)?
        ld a, (hl)                  ; the option's bit
        inc hl
        push hl
        push af
        ex de, hl
        call msg_show
        ld hl, str_option_end
        call ask_yn
        pop bc                      ; B = the bit
        jr nc, .no                  ; N: the option stays off?
        ld a, (v_options)
        or b
        ld (v_options), a
.no:    pop hl
        jr .next

setup_option_table:
        dw str_opt_jackpot
        db 1 << OPT_JACKPOT
        dw str_opt_no_auction
        db 1 << OPT_NO_AUCTION
        dw str_opt_retire
        db 1 << OPT_RETIRE
        dw 0

; ---------------------------------------------------------------------------------------------
; setup_first - who goes first: each contender throws (a human presses D; a computer player
; throws after a short pause); the highest total starts; those tied for it throw again
; Input: v_num_players, v_players.  Output: v_current = the starter.  Corrupts: AF, BC, DE, HL,
; IX.
; ---------------------------------------------------------------------------------------------
setup_first:
        ld hl, str_dice_title
        call print_string
        ld a, ATTR_MESSAGE
        ld (print_attr), a
        ld hl, setup_contender      ; everybody throws in the first round
        ld b, MAX_PLAYERS
        ld a, (v_num_players)
        ld c, a
.all:   xor a
        dec c
        bit 7, c
        jr nz, .set                 ; Past the last player (no throw)?
        inc a
.set:   ld (hl), a
        inc hl
        djnz .all
.round: ld c, 0
.each:  ld a, (v_num_players)
        cp c
        jr z, .judge                ; Has every player thrown this round?
        call setup_is_contender
        jr z, .skip                 ; Not throwing this round?
        push bc
        ld a, c
        call setup_throw_turn
        pop bc
.skip:  inc c
        jr .each
.judge: ld c, 0                     ; D = the best total among the contenders
        ld d, 0
.best:  call setup_is_contender
        jr z, .best_next            ; Not throwing this round?
        ld a, (hl)                  ; setup_is_contender: HL = the total
        cp d
        jr c, .best_next            ; Below the best so far?
        ld d, a
.best_next:
        inc c
        ld a, (v_num_players)
        cp c
        jr nz, .best                ; Another player to look at?
        ld c, 0                     ; keep only those with the best; E counts them
        ld e, 0
.keep:  call setup_is_contender
        jr z, .keep_next            ; Not throwing this round?
        ld a, (hl)
        cp d
        jr z, .kept                 ; Has he the best total (kept)?
        ld hl, setup_contender
        ld a, c
        call setup_index
        ld (hl), 0
        jr .keep_next
.kept:  inc e
        ld a, c
        ld (v_current), a
.keep_next:
        inc c
        ld a, (v_num_players)
        cp c
        jr nz, .keep                ; Another player?
        ld a, e
        dec a
        jr z, .starter              ; Only one with the best total (he starts)?
        call setup_tie
        jr .round
.starter:
        ld a, (v_current)           ; the record: who goes first
        ld b, a
        ld a, EVK_FIRST
        ld de, 0
        ld hl, 0
        call event_player
        call msg_clear
        ld a, (v_current)
        call msg_player
        ld hl, str_goes_first
        call msg_print
        ld b, SETUP_START_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; setup_index - HL + A
; Input: HL, A.  Output: HL = HL + A.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
setup_index:
        add a, l
        ld l, a
        ret nc                      ; No carry into H?
        inc h
        ret

; ---------------------------------------------------------------------------------------------
; setup_is_contender - whether a player throws in this round, and its total
; Input: C = player.  Output: NZ if it throws; HL = its entry in setup_totals.  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
setup_is_contender:
        ld hl, setup_totals
        ld a, c
        call setup_index
        push hl
        ld hl, setup_contender
        ld a, c
        call setup_index
        ld a, (hl)
        pop hl
        or a
        ret

; ---------------------------------------------------------------------------------------------
; setup_tie - say who throws again ("A tie: 1 ANNE, 3 BOB throw again.") and pause
; Input: setup_contender.  Output: shown.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
setup_tie:
        ld hl, str_tie
        call msg_show
        ld c, 0
        ld b, 0                     ; B = names printed so far
.each:  call setup_is_contender
        jr z, .next                 ; Not throwing again?
        ld a, b
        or a
        jr z, .first                ; The first name (no comma before it)?
        ld hl, str_comma
        push bc
        call msg_print
        pop bc
.first: inc b
        push bc
        ld a, c
        call msg_player
        pop bc
.next:  inc c
        ld a, (v_num_players)
        cp c
        jr nz, .each                ; Another player?
        ld hl, str_throw_again
        call msg_print
        ld b, SETUP_TIE_PAUSE
        jp pause

; ---------------------------------------------------------------------------------------------
; setup_throw_turn - one player's who-goes-first throw: a human is asked to press D, a computer
; player throws by itself after a short pause
; Input: A = player.  Output: setup_totals[player], the dice shown.  Corrupts: AF, BC, DE, HL,
; IX.
; ---------------------------------------------------------------------------------------------
setup_throw_turn:
        ld c, a
        push bc
        call msg_clear
        pop bc
        push bc
        ld a, c
        call msg_player
        pop bc
        ld a, c
        call player_record
        bit PF_COMPUTER, (hl)
        jr nz, .computer            ; A computer player (it throws by itself)?
        push bc
        ld hl, str_press_d
        call msg_print
.key:   call keys_wait_upper
        cp KEY_THROW
        jr z, .thrown               ; D: throw?
        ld hl, str_d_throws
        call refuse_key
        jr .key
.thrown:
        pop bc
        jr .throw
.computer:
        push bc
        ld hl, str_computer_throws
        call msg_print
        ld a, (v_speed)             ; the line is read at the pace of computer turns (issue 45)
        cp AI_SPEED_FAST
        ld b, PACE_READ_FRAMES
        call nz, msg_keep_full      ; The normal speed?
        ld b, SETUP_CPU_PAUSE
        call pause
        pop bc
.throw: ld a, c
        ; continues into setup_throw

; ---------------------------------------------------------------------------------------------
; setup_throw - throw the dice for a player and show them by its piece (a test may write
; v_rig_dice when the PC reaches here)
; Input: A = player.  Output: setup_totals[player]; v_dice; the dice and total drawn.
; Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
setup_throw:
        push af
        call snd_rattle
        call dice_throw             ; A = the total
        pop bc                      ; B = player
        ld c, a
        ld hl, setup_totals
        ld a, b
        call setup_index
        ld (hl), c
        push bc
        ld a, (v_dice)              ; the record: the throw (B = the player)
        ld c, a
        ld a, (v_dice + 1)
        ld e, a
        ld d, 0
        ld hl, 0
        ld a, EVK_FIRST_THROW
        call event_emit
        ld a, b
        call player_record
        push hl
        pop ix
        call setup_piece_row
        ld c, SETUP_DIE_COL
        call print_at
        ld a, ATTR_NORMAL
        ld (print_attr), a
        ld a, (v_dice)
        add a, CH_DIE - 1           ; a face's glyph
        call print_char
        ld a, ' '
        call print_char
        ld a, (v_dice + 1)
        add a, CH_DIE - 1
        call print_char
        ld a, ' '
        call print_char
        ld a, '='
        call print_char
        pop bc
        ld l, c
        ld h, 0
        ld a, SETUP_TOTAL_WIDTH
        call print_number_right
        ld a, ATTR_MESSAGE
        ld (print_attr), a
        ret

; --- Strings ----------------------------------------------------------------------------------
str_setup_screen:
        db PR_AT, 0, 0, PR_ATTR, ATTR_TITLE, "   MONOPOLY - the players       "
        db PR_AT, 1, 1, PR_ATTR, ATTR_NORMAL, "Piece     Player", 0
str_dice_title:
        db PR_AT, 1, SETUP_DIE_COL, PR_ATTR, ATTR_NORMAL, "Dice", 0
str_empty:      db 0
str_player:     db "Player ", 0
str_choose_piece: db ": press a piece's number (1-6)", 0
str_or_enter:   db " or ENTER if all are in", 0
str_piece_keys: db "a piece's number 1-6, or ENTER when all are in.", 0
str_d_throws:   db "D throws the dice.", 0
str_taken:      db "That piece is taken. ", 0
str_too_few:    db "At least two players, please. ", 0
str_takes:      db " takes the ", 0
str_ask_computer: db ". Computer player?", 0
str_ask_name:   db "Name (then ENTER): ", 0
str_computer:   db "Computer: ", 0
str_human:      db "Human player", 0
str_ask_short:  db "Short game?", 0
str_how_long:   db "How long shall the game last? ", 0
str_hours:      db "Hours: ", 0
str_minutes:    db " Minutes: ", 0
str_bad_time:   db "From 1 minute to 23 hours 59, please. ", 0
str_ask_deal:   db "Deal each player two Title Deeds, paid for at their price?", 0
str_deal_dealt: db " is dealt ", 0
str_deal_and:   db " and ", 0
str_deal_paying: db ", paying ", 0
str_opt_jackpot: db "Option: taxes and fines go to Free Parking, for whoever lands there", 0
str_opt_no_auction: db "Option: no auctions - property nobody buys stays with the Bank", 0
str_opt_retire: db "Option: players may retire, their property going back to the Bank", 0
str_option_end: db "?", 0
str_press_d:    db ": press D to throw for who goes first.", 0
str_computer_throws: db " throws for who goes first.", 0
str_tie:        db "A tie: ", 0
str_comma:      db ", ", 0
str_throw_again: db " throw again.", 0
str_goes_first: db " goes first.", 0

setup_piece_names:
        dw str_boot, str_car, str_dog, str_hat, str_iron, str_ship
        assert ($ - setup_piece_names) / 2 == TOKENS
str_boot:       db "Boot", 0
str_car:        db "Car", 0
str_dog:        db "Dog", 0
str_hat:        db "Hat", 0
str_iron:       db "Iron", 0
str_ship:       db "Ship", 0

setup_personality_names:
        dw str_mean, str_reckless, str_greedy, str_steady, str_cautious, str_enterprising
        assert ($ - setup_personality_names) / 2 == PERSONALITIES
str_mean:       db "Mean", 0
str_reckless:   db "Reckless", 0
str_greedy:     db "Greedy", 0
str_steady:     db "Steady", 0
str_cautious:   db "Cautious", 0
str_enterprising: db "Entrepreneurial", 0
