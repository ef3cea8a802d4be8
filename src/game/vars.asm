; =============================================================================================
; vars.asm - ALL the game's state, in one block (v_state .. v_state_end)
;
; This block is the contract with the test harness (zxmonopoly.harness.game), which reads it
; by the symbol names below through the assembler's symbol map: rename a field and the harness
; test fails.  Everything the rules depend on is here; the routines' working variables (the
; print position, a routine's counters, buffers) live in scratch.asm's block, which follows
; this one.  main.asm clears this block and game_new fills it.
;
; Money is an unsigned 16-bit word in pounds.  Players are numbered 0..5 inside the program
; and shown as 1..6 on screen.
; =============================================================================================

MAX_PLAYERS     equ 6
MIN_PLAYERS     equ 2
NAME_LENGTH     equ 10              ; characters in a name, not counting the 0 terminator
NO_PLAYER       equ 0xFF

; --- Player record: v_players holds MAX_PLAYERS of these ------------------------------------
P_FLAGS         equ 0               ; PF_* bits below
P_TOKEN         equ 1               ; token design 0..5 (TOKEN_*), as chosen in the setup
P_SQUARE        equ 2               ; board square 0..39 (0 = GO, 10 = Jail)
P_CASH          equ 3               ; word: cash in pounds
P_JAIL_TURNS    equ 5               ; turns already spent in jail (failed throws), 0..2
P_JAIL_CARDS    equ 6               ; Get Out of Jail Free cards held: JC_* bits
P_PERSONALITY   equ 7               ; computer players: PERS_* 0..5 from the setup; PERS_BUYER
                                    ; (6) only when poked, for measurement (humans: 0, unused)
P_NAME          equ 8               ; NAME_LENGTH characters and a 0
PLAYER_RECORD   equ P_NAME + NAME_LENGTH + 1

; P_FLAGS bits
PF_PLAYING      equ 0               ; set: in the game (cleared on bankruptcy or retiring)
PF_COMPUTER     equ 1               ; set: a computer player
PF_IN_JAIL      equ 2               ; set: in jail (not just visiting)
PF_BANKRUPT     equ 3               ; set: went bankrupt (PF_PLAYING is then clear)

; P_JAIL_CARDS bits: which pack each held card goes back to
JC_CHANCE       equ 0
JC_CHEST        equ 1

; Token designs (the order of the setup's piece menu)
TOKEN_BOOT      equ 0
TOKEN_CAR       equ 1
TOKEN_DOG       equ 2
TOKEN_HAT       equ 3
TOKEN_IRON      equ 4
TOKEN_SHIP      equ 5
TOKENS          equ 6

; Computer personalities (issue 11; shown in the player list)
PERS_MEAN       equ 0
PERS_RECKLESS   equ 1
PERS_GREEDY     equ 2
PERS_STEADY     equ 3
PERS_CAUTIOUS   equ 4
PERS_ENTERPRISING equ 5
PERSONALITIES   equ 6               ; the setup allocates one of these six at random
PERS_BUYER      equ 6               ; the tournament's baseline (never allocated by the setup):
                                    ; buys all it can at the price, never builds or trades
AI_PERSONALITIES equ 7              ; rows of ai.asm's ai_personalities (the six + the Buyer)

; --- Square byte: v_squares holds one per board square (0 for squares nobody can own) -------
SQ_OWNER_MASK   equ 0x07            ; bits 0-2: owner + 1 (0 = the Bank / unowned)
SQ_MORTGAGED    equ 3               ; bit 3: mortgaged
SQ_BUILD_SHIFT  equ 4               ; bits 4-6: buildings, 0-4 houses, 5 = a hotel
SQ_BUILD_MASK   equ 0x70
SQ_HOTEL        equ 5

; --- v_phase -----------------------------------------------------------------------------------
PHASE_TITLE     equ 0               ; title screen
PHASE_SETUP     equ 1               ; entering players and options
PHASE_FIRST     equ 2               ; throwing for who goes first
PHASE_PLAYING   equ 3               ; the game
PHASE_OVER      equ 4               ; winner announced

; --- v_options bits (each off by default) ---------------------------------------------------
OPT_JACKPOT     equ 0               ; Free Parking collects taxes and fines (seed 003)
OPT_NO_AUCTION  equ 1               ; declined property stays with the Bank (seed 003)
OPT_RETIRE      equ 2               ; a player may retire, property back to the Bank (seed 003)
OPT_DEAL        equ 3               ; short game: two Title Deeds dealt to each player (booklet A)

; --- Pending rent: v_rent_* (booklet: claimed with R before the next throw) -----------------
; v_rent_payer = NO_PLAYER when no rent is due.

v_state:
v_seed:         dw 0                ; random number state (xorshift); TEST HOOK: write a seed
v_rig_dice:     db 0, 0             ; TEST HOOK: two faces 1..6 used for the next throw only
                                    ; (then cleared); 0, 0 = throw at random
v_frames:       dw 0                ; frames since the program started (the interrupt counts)
v_phase:        db 0                ; PHASE_*
v_options:      db 0                ; OPT_* bits
v_num_players:  db 0                ; players entered, 2..6
v_current:      db 0                ; whose turn: 0..v_num_players-1
v_dice:         db 0, 0             ; the last throw's two faces (0, 0 before any throw)
v_doubles:      db 0                ; doubles thrown in a row this turn, 0..2
v_turns:        dw 0                ; turns played (a computer player's "early in the game")
v_houses_left:  db 0                ; houses in the Bank, 0..32
v_hotels_left:  db 0                ; hotels in the Bank, 0..12
v_jackpot:      dw 0                ; money on Free Parking (OPT_JACKPOT)
v_bank:         ds 4                ; the Bank's takings less its payments since the game
                                    ; began: a signed 32-bit number, low byte first.  Money
                                    ; is conserved: the players' cash + v_jackpot + v_bank is
                                    ; always STARTING_CASH times the players
v_rent_payer:   db NO_PLAYER        ; who owes rent for the last move (NO_PLAYER: none)
v_rent_owner:   db NO_PLAYER        ; to whom
v_rent_square:  db 0                ; for which square
v_rent_dice:    db 0                ; the dice total that brought the payer (utilities)
v_short_game:   db 0                ; 1 = a short game with a clock
v_clock_minutes: dw 0               ; short game: minutes left
v_clock_frames: dw 0                ; short game: frames into the current minute
v_chance:       ds 16               ; Chance pack, top first: card numbers 0..15
v_chance_count: db 0                ; cards in the pack (16 less the Jail Free cards held)
v_chest:        ds 16               ; Community Chest pack, the same way
v_chest_count:  db 0
v_last_card:    db NO_CARD          ; the last card drawn: pack * 16 + number (NO_CARD none)
v_squares:      ds BOARD_SQUARES    ; one square byte per board square (SQ_*)
v_players:      ds MAX_PLAYERS * PLAYER_RECORD
v_speed:        db 0                ; AI_SPEED_*: 0 normal; 1 (AI_SPEED_FAST) shortens the pauses
                                    ; of a computer player's turn (ai_pause_frames); F toggles it
v_flat_board:   db 0                ; 0: the perspective board (perspective.asm, the default);
                                    ; 1: the flat board (board.asm); B in the menu toggles it
v_ai_trade_turn: ds MAX_PLAYERS * 2 ; per player, a word: the v_turns from which that computer
                                    ; may propose a trade again (ai_trade_propose; 0 = at once)
v_event_count:  dw 0                ; events written since the program started, modulo 65,536
                                    ; (events.asm): stored by one instruction once the record
                                    ; numbered count - 1 is whole in slot (count - 1) mod
                                    ; EV_SLOTS; readers only read
v_event_ring:   ds EV_SLOTS * EV_SIZE ; the ring of event records (events.asm: EV_*, EVK_*)
v_state_end:
V_STATE_SIZE    equ v_state_end - v_state
