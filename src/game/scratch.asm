; =============================================================================================
; scratch.asm - the game's working variables, in one block (v_scratch .. v_scratch_end)
;
; Every byte the program writes lives in vars.asm's state block (the rules' state, the
; harness contract) or here (and the close-up's picture drawn off the screen, CU_PICTURE above
; the program, whose pages also keep the message lines under a refusal: main.asm, refuse.asm);
; the code and the read-only tables and strings never change.  A
; test (tests/game/test_scratch.py) checks it: every LD (nn),r stores into one of the two
; blocks or outside the program, and a played game leaves GAME_ORIGIN .. v_state as loaded.
;
; Where: main.asm includes this file last, right after vars.asm, so the program is two runs
; - code and read-only data from GAME_ORIGIN up to v_state, then everything written, from
; v_state up to v_scratch_end (= program_end).  Nothing here is rules state: each variable
; holds a routine's working value, the screen's print position, or a setting a caller makes
; for the next call.
;
; Initial values: the block loads with the program and main.asm does NOT clear it (only the
; state block).  The few non-zero values below (NO_PLAYER, print_attr's ATTR_NORMAL, the
; hooks' default routines, ...) are what the code expects before their first store.
;
; Grouped by the module that uses them (the order of main.asm's includes).  A routine's own
; variable is named after the routine (rent_amount_owner: rent_amount's); no other routine
; uses it.
; =============================================================================================

v_scratch:

; --- interrupt.asm ---------------------------------------------------------------------------
clock_running:  db 0                ; 1 while a short game's clock counts down
clock_changed:  db 0                ; set by the interrupt when a minute passes; 2 and up:
                                    ; the time is up, drawn, and the end waits (game_idle)
bank_paying:    db 0                ; bank.asm's: bank_pay's depth, a payment under way (the
                                    ; end waits for it), and one more while a card drawn is
                                    ; read or its choice asked (cards.asm); next to
                                    ; clock_changed: game_new clears both with one store

; --- screen.asm ------------------------------------------------------------------------------
print_row:      db 0                ; the print position: character row 0..23
print_col:      db 0                ; ... and column 0..31
print_attr:     db ATTR_NORMAL      ; the attribute print_char gives the cells it prints
number_buffer:  ds 6                ; number_digits: the digits of a number, 0-terminated
scr_offscreen:  db 0                ; 1: cells of the close-up's rows go to CU_PICTURE
                                    ; (closeup_show), not the screen

; --- keys.asm --------------------------------------------------------------------------------
keys_idle_hook: dw keys_idle_none   ; the game sets this to its clock routine
keys_ahead:     db KEY_NONE         ; a key typed ahead for the next prompt (issue 45)
keys_ahead_on:  db 0                ; 1: an asking line is shown: a new key is kept
keys_ahead_prev: db KEY_NONE        ; the key read at the last look (a new key differs)
keys_from_ahead: db 0               ; 1: keys_wait's key was typed ahead
rent_watch:     db 0                ; RENT_WATCH_*: the interrupt looks for R (rent.asm)

; --- msg.asm ---------------------------------------------------------------------------------
msg_row:        db MSG_TOP          ; the message lines' print position: row
msg_col:        db 0                ; ... and column
msg_shown_at:   dw 0                ; v_frames when the message lines were last cleared
msg_hold:       db 0                ; frames the message shown must stay (0: none; msg.asm PACE_*)
msg_hold_keys:  db 0                ; 1: a key ends the hold (a deal)
msg_word:       db 0                ; the column where the line's last word starts
msg_holding:    db 0                ; 1: the message shown stays until msg_hold_until (msg_keep)
msg_hold_until: dw 0                ; ... the frame count (v_frames) it stays to
msg_line:       ds COLUMNS          ; the characters of the message line being printed ...
msg_line_attrs: ds COLUMNS          ; ... and their attributes, for carrying a word over
msg_printed_at: dw 0                ; v_frames at the last character printed (an added line)
msg_clears:     db 0                ; messages begun (msg_clear), modulo 256

; --- ask.asm ---------------------------------------------------------------------------------
ask_text_core_max: db 0             ; the most characters the field takes
ask_text_core_len: db 0             ; characters typed so far
ask_text_core_col: db 0             ; the screen column where the field starts
ask_text_core_pad: db 0             ; what fills the room left: CH_FIELD, or ' ' once answered
ask_text_core_buffer: dw 0          ; the caller's buffer the text goes into
ask_number_digits: ds INPUT_DIGITS + 1 ; ask_number: the digits typed, 0-terminated
digits_only:    db 0                ; 1 while ask_text_digits runs: ask_text_core takes digits

; --- refuse.asm ------------------------------------------------------------------------------
; (the message rows' pixels and colours under a refusal: in the close-up's picture, above the
; program, REFUSE_PIXELS and REFUSE_ATTRS)
refuse_msg_line: ds COLUMNS * 2     ; the message lines under a refusal: msg_line and
                                    ; msg_line_attrs ...
refuse_msg_row: db 0                ; ... and the print position
refuse_msg_col: db 0
refuse_msg_word: db 0
refuse_print_attr: db 0

; --- events.asm ------------------------------------------------------------------------------
event_cause:    db EVK_UNKNOWN      ; the cause of the next money move (EVENT_CAUSE; cleared
                                    ; by event_money)
event_square:   db 0                ; ... its EV_SQUARE (a square, a card)
event_extra:    db 0                ; ... its EV_EXTRA
        assert event_square == event_cause + 1 && event_extra == event_cause + 2

; --- setup.asm -------------------------------------------------------------------------------
setup_taken:    db 0                ; bit n set: piece n has a player
setup_deal_player: db 0             ; setup_deal: the player dealt to
setup_deal_square: db 0             ; ... the square just dealt
setup_deal_squares: ds SETUP_DEAL_CARDS ; ... the squares dealt to him, in order
setup_deal_paid: dw 0               ; ... what his deeds cost
setup_contender: ds MAX_PLAYERS     ; 1: throws in this round for who goes first
setup_totals:   ds MAX_PLAYERS      ; each player's last who-goes-first total
setup_hours:    db 0                ; the short game's hours, as typed (the minutes follow)

; --- board.asm -------------------------------------------------------------------------------
board_tokens:   ds TOKEN_AREA_BYTES ; a token area being composed: 8 rows of 2 bytes
bd_square:      db 0                ; the square being drawn
bd_kind:        db 0                ; its KIND_*
bd_group:       db 0                ; its GROUP_*
bd_state:       db 0                ; its square byte (v_squares)
bd_token_at:    dw 0                ; its token area: low byte column, high byte row
bd_band_at:     dw 0                ; its band: the same
bd_token_attr:  db 0                ; its token area's attribute
bd_band_attr:   db 0                ; its band's attribute
bd_fill:        dw 0                ; the glyph of an empty band cell
bd_filter:      dw 0                ; board_compose_tokens: E mask, D wanted
bd_count:       db 0                ; board_compose_tokens: tokens found
bd_first:       db 0                ; ... the first one's design
bd_second:      db 0                ; ... the last one's (the second, when there are two)
bd_list_at:     dw 0                ; the list's first player row (high) and column (low)
cu_square:      db 0                ; closeup_show: the square landed on (the right box)
cu_attr:        db 0                ; a close-up box's band or picture colours (closeup_colours)
closeup_wrap_name: dw 0             ; closeup_wrap: the name's first character
closeup_wrap_width: db 0            ; the line width in characters
closeup_wrap_lines: db 0            ; the lines left for the name
closeup_wrap_dry: db 0              ; 1: only counting the lines a name takes
closeup_wrap_hyphen: db 0           ; 1: the word being printed is broken at the line's end
closeup_wrap_row: dw 0              ; low byte the column, high byte the row (as BC)

; --- perspective.asm -------------------------------------------------------------------------
b3_shift:       db 0                ; b3_or_area: pixels right of the cell boundary
b3_next:        dw 0                ; b3_background: the next cell's entry in b3_map

; --- cursor.asm ------------------------------------------------------------------------------
cursor_square:  db 0                ; the square under the cursor
cursor_details: dw cursor_none      ; the caller's routine for SPACE
cursor_extra_key: db KEY_NONE       ; a second key that chooses (set by the caller, one call)

; --- game.asm --------------------------------------------------------------------------------
game_sp:        dw 0                ; the stack pointer at game_run's entry: game_abort's way out

; --- turn.asm --------------------------------------------------------------------------------
turn_prompt_shown: db 0             ; msg_clears when the menu's prompt was last printed
turn_prompt_rent: dw 0              ; turn_prompt: the rent a human may claim (rent_pending)
turn_pause_kind: db 0               ; TURN_PAUSE_*: the computer's pause begun in this menu
turn_pause_frames: db 0             ; ... the fewest frames it has had (F fast: fewer)
turn_pause_start: dw 0              ; ... and the v_frames at which it began

; --- move.asm --------------------------------------------------------------------------------
move_pays:      db 1                ; move_forward_salary's C: pay the salary at GO
move_from:      db 0                ; move_forward_salary / move_backward: the square left

; --- land.asm --------------------------------------------------------------------------------
land_buy_offer_price: dw 0          ; land_buy_offer: the property's printed price

; --- bank.asm --------------------------------------------------------------------------------
bank_payer:     db 0                ; bank_pay: who pays
bank_creditor:  db 0                ; ... to whom (NO_PLAYER: the Bank)
bank_amount:    dw 0                ; ... how much
bank_cause:     ds 3                ; ... the cause named for it: event_cause, _square, _extra
raise_player:   db 0                ; bank_raise: the player raising money
raise_target:   dw 0                ; ... the cash he must have
raise_sell_building_owner: db 0     ; the seller + 1 (as in a square byte)
raise_sell_building_best_level: db 0 ; the most buildings on a site of his so far
raise_sell_building_best_square: db 0 ; ... on which site
raise_mortgage_one_owner: db 0      ; the player + 1 (as in a square byte)
raise_mortgage_one_best: db 0       ; the square with the smallest loan so far (NO_SQUARE: none)
raise_mortgage_one_loan: dw 0       ; ... that loan
bankrupt_player: db 0               ; bankrupt: who goes bankrupt
bankrupt_creditor: db 0             ; ... to whom (NO_PLAYER: the Bank)

; --- mortgage.asm ----------------------------------------------------------------------------
mortgage_run_square: db 0           ; mortgage_run: the square chosen with the cursor
mortgage_run_owner: db 0            ; ... its owner (the player whose money changes)
mortgage_square: db 0               ; mortgage_take, mortgage_toggle: the square
mortgage_owner: db 0                ; ... its owner

; --- houses.asm ------------------------------------------------------------------------------
houses_groups_owner: db 0           ; houses_groups: the player + 1 whose groups are looked at
houses_groups_complete: db 0        ; ... his complete groups (bit n: group n)
houses_groups_open: db 0            ; ... those he may build on now
houses_survey_humans: db 0          ; houses_survey: 1 if only human players count
houses_survey_player: db 0          ; ... the player looked at
houses_survey_complete: db 0        ; ... the groups complete for one of them
houses_survey_open: db 0            ; ... those open to building
houses_survey_built: db 0           ; ... not 0: one of them has a building
houses_want_houses: ds MAX_PLAYERS  ; the houses each player ordered (0..HOUSES_IN_BANK)
houses_want_hotels: ds MAX_PLAYERS  ; and the hotels (0..HOTELS_IN_BANK); must follow
        assert houses_want_hotels == houses_want_houses + MAX_PLAYERS
houses_player:  db 0                ; houses_build / houses_sell_at: whose
houses_square:  db 0                ; ... and where
houses_cause:   db 0                ; houses_build: EVK_BUILD, or EVK_SHORTAGE for a bid
houses_mode:    db 0                ; ... HOUSES_MODE_*
houses_price:   dw 0                ; ... what is paid (0 in: the printed cost)
houses_level:   db 0                ; the site's buildings before / after
houses_min:     db 0                ; houses_group_scan: the least built-up site's level
houses_max:     db 0                ; ... the most built-up site's level
houses_mortgaged: db 0              ; ... 1 if a site of the group is mortgaged
houses_common_owner: db 0           ; ... owner + 1 of every site, 0 if they differ
houses_shown:   db 0                ; houses_details' square
houses_turn:    db 0                ; houses_buy: whose turn to develop
houses_count:   db 0                ; ... players still to come
houses_dev_player: db 0             ; houses_develop's player
houses_unit_mode: db 0              ; houses_shortage: HOUSES_MODE_HOUSE or _HOTEL auctioned
houses_bidder:  db NO_PLAYER        ; houses_auction: the highest bidder
houses_high:    dw 0                ; ... the highest bid
houses_who:     db 0                ; ... the player bidding
houses_offer:   dw 0                ; ... his bid
houses_raise_player: db 0           ; houses_raise_human: the payer
houses_raise_target: dw 0           ; ... the cash he must have

; --- trade.asm -------------------------------------------------------------------------------
trade_a:        db 0                ; the player trading: gives ONE property
trade_b:        db NO_PLAYER        ; the other player
trade_give:     db 0                ; the property a gives
trade_take_count: db 0              ; properties b gives
trade_take:     ds TRADE_MAX_TAKE   ; ... which
trade_card_a:   db 0                ; JC_* bit of the Jail Free card a gives (0: none)
trade_card_b:   db 0                ; ... b gives
trade_cash:     dw 0                ; the cash balance
trade_cash_to:  db NO_PLAYER        ; who receives it (NO_PLAYER: none)
trade_square:   db 0                ; scratch: a square being checked / handed over
trade_side:     db 0                ; scratch: a player being checked / handed to
trade_loan:     dw 0                ; scratch: a mortgage's principal
trade_gets:     dw 0                ; trade_ai_accepts: what the computer receives
trade_gives:    dw 0                ; ... what it gives
trade_pays:     dw 0                ; ... cash it pays out (balance and interest)
trade_kind_value: dw 0              ; trade_in_kind: the value agreed

; --- rent.asm --------------------------------------------------------------------------------
rent_claimed:   dw 0                ; rent_claim: the rent the payer owes
rent_amount_square: db 0            ; the square whose rent is worked out
rent_amount_dice: db 0              ; the dice total (utilities)
rent_amount_owner: db 0             ; its owner + 1
rent_amount_level: db 0             ; its buildings
rent_amount_count: db 0             ; the owner's unmortgaged squares of its group
rent_amount_size: db 0              ; the squares in the group
rent_group_count_owner: db 0        ; the owner + 1 whose squares are counted

; --- cards.asm -------------------------------------------------------------------------------
card_pack:      db 0                ; the pack of the card drawn (0 Chance, 1 Community Chest)
card_number:    db 0                ; ... its number 0..15
card_repairs_owner: db 0            ; the player paying for repairs + 1

; --- auction.asm -----------------------------------------------------------------------------
auction_square: db 0                ; the square auctioned
auction_bidder: db NO_PLAYER        ; the highest bidder so far
auction_high:   dw 0                ; the highest bid so far
auction_who:    db 0                ; the player bidding now
auction_offer:  dw 0                ; ... his bid
auction_computers_left: db 0        ; computer players still to ask this round

; --- ai.asm ----------------------------------------------------------------------------------
ai_player:      db 0                ; the computer player the building routines act for
ai_square:      db 0                ; scratch: a square being judged
ai_level:       db 0                ; ... its buildings
ai_cost:        dw 0                ; ... the cost of its next building
ai_budget:      dw 0                ; scratch: cash a computer may spend (orders, proposals)
ai_count:       db 0                ; scratch: buildings counted / built
ai_target:      db 0                ; ai_trade_propose: the property wanted
ai_target_price: dw 0               ; ... its printed price
ai_offer:       dw 0                ; ... what it offers for it in all
ai_owner:       db 0                ; ... its owner
ai_give:        db 0                ; ... the property offered (0FFh: none, cash only)
ai_give_value:  dw 0                ; ... its value (trade_value)
ai_completes_group_square: db 0     ; the square judged
ai_completes_group_owner: db 0      ; the player + 1 whose group it would complete
ai_auction_bid_high: dw 0           ; the highest bid so far
ai_auction_bid_price: dw 0          ; the square's printed price
ai_auction_bid_limit: dw 0          ; the most this computer bids for it
ai_auction_bid_player: db 0         ; the computer bidding
ai_find_site_mode: db 0             ; what is to be built (ai_build_check's C)
ai_build_check_mode: db 0           ; ... the same, for the check
ai_trade_target_owner: db 0         ; the owner of the square judged
ai_trade_target_mode: db 0          ; the pass: 0 completing a group, 1 collecting towards one
ai_trade_choose_give_group: db 0    ; the group of the property wanted (not offered from)
ai_owned_in_group_owner: db 0       ; the player + 1
ai_owned_in_group_count: db 0       ; squares of the group he owns, so far
ai_order_count_houses: db 0         ; the houses ordered so far
ai_order_count_hotels: db 0         ; ... the hotels
ai_houses_develop_build_mode: db 0  ; the building put up next (houses_order_mode)
ai_house_bid_high: dw 0             ; the highest bid so far
ai_house_bid_limit: dw 0            ; the most this computer bids
ai_house_bid_bid: dw 0              ; its bid

; --- worth.asm -------------------------------------------------------------------------------
worth_sum:      dw 0                ; the running total of worth_property / worth_mortgage_value
worth_valuer:   dw 0                ; scratch: the routine worth_scan calls for each square

; --- deed.asm --------------------------------------------------------------------------------
deed_width:     db DEED_NARROW      ; the field width of deed_item
deed_square:    db 0                ; the square whose deed is shown

; --- owners.asm ------------------------------------------------------------------------------
owners_items:   ds OWNERS_MAX_ITEMS ; what is listed: squares, or OWNERS_CARD + JC_*
owners_count:   db 0                ; items in owners_items
owners_page:    db 0                ; the item at the top of the left column
owners_mode:    db OWNERS_ALL       ; the whole list, or one player's portfolio (0..5)
owners_sel:     db OWNERS_NO_SELECTION ; the item selected in a portfolio

; --- endgame.asm -----------------------------------------------------------------------------
endgame_player: db 0                ; the player being valued or drawn
endgame_in:     db 0                ; players still in the game
endgame_last:   db 0                ; the last of them met
endgame_best:   dw 0                ; the highest total
endgame_ties:   db 0                ; players with the highest total
endgame_totals: ds MAX_PLAYERS * 2  ; each player's worth (0 if out of the game)

v_scratch_end:
V_SCRATCH_SIZE  equ v_scratch_end - v_scratch
