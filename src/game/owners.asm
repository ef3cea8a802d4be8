; =============================================================================================
; owners.asm - the O key (booklet part C "Owner"; seed_rules B1.7): every property listed below
; the board with its owner's number on the right of its name, mortgaged ones in white on red;
; a player's own portfolio; title deeds
;
; The list fills rows OWNERS_TOP..+6 in two columns of 16 characters (14 entries a page, the
; 28 properties on two pages, column by column in board order); row OWNERS_KEY_ROW says the
; keys.  Keys:
;   SPACE        the next page (after the last, the first again)
;   1-6          that player's portfolio: its properties with their houses or hotel (mortgaged
;                ones in white on red) and its Get Out of Jail Free cards
;   O            the whole owners list again
;   P            choose a property for its title deed: the chosen entry flashes; SPACE or
;                CAPS SHIFT+8/6 moves to the next, CAPS SHIFT+5/7 to the one before (pages
;                follow); ENTER or P shows its deed (deed_show) until a key; Q goes back
;   ENTER        leaves; rows 16-23 are blanked for the game to redraw
; =============================================================================================

OWNERS_TOP      equ LOWER_TOP       ; rows 16..22: the entries
OWNERS_ROWS     equ 7
OWNERS_KEY_ROW  equ OWNERS_TOP + OWNERS_ROWS    ; row 23: the keys
OWNERS_ENTRY    equ 16              ; characters an entry (two columns)
OWNERS_PER_PAGE equ OWNERS_ROWS * 2
OWNERS_NAME_LEN equ 11              ; the longest short name (owners_short_names)
OWNERS_FIELD_COL equ 12             ; in an entry: the buildings (portfolio) ...
OWNERS_OWNER_COL equ 14             ; ... or the owner's number (the whole list)
OWNERS_SHOWN    equ OWNERS_ENTRY - 1    ; cells coloured (the last one parts the columns)
OWNERS_PROPERTIES equ 28
OWNERS_CARD     equ 0xF0            ; an item: OWNERS_CARD + JC_* is a Jail Free card held
OWNERS_MAX_ITEMS equ OWNERS_PROPERTIES + 2
OWNERS_ALL      equ 0xFF            ; owners_mode: the whole list (else a player 0..5)
OWNERS_NO_SELECTION equ 0xFF
OWNERS_BANK_MARK equ '-'            ; in the owner's place for the Bank
ATTR_OWNERS_KEYS equ ATTR_PROMPT
KEY_PORTFOLIO_OFF equ 'O'           ; back to the whole list
KEY_DEED        equ 'P'
KEY_QUIT        equ 'Q'

; ---------------------------------------------------------------------------------------------
; owners_run - the owners list and portfolios until ENTER (keys above)
; Input: v_squares, v_players, v_num_players.  Output: rows 16-23 blank (message lines
; cleared).  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
owners_run:
        ld a, OWNERS_ALL
.mode:  ld (owners_mode), a
        call owners_build
        xor a
        ld (owners_page), a
.list:  ld a, OWNERS_NO_SELECTION
        ld (owners_sel), a
        call owners_draw
.key:   call keys_wait_upper
        cp KEY_ENTER
        jr z, .leave                ; ENTER: leave?
        cp KEY_SPACE
        jr z, .next_page            ; SPACE: the next page?
        cp KEY_DEED
        jr z, .choose               ; P: choose a deed?
        cp KEY_PORTFOLIO_OFF
        jr nz, .player              ; Not O (the whole list again)?  A player's number, perhaps.
        ld a, OWNERS_ALL
        jr .mode
.player:
        ld c, a
        sub '1'
        jr c, .other                ; Not a player's number?
        cp MAX_PLAYERS
        jr nc, .other               ; Past player 6 (not a player's number)?
        ld hl, v_num_players
        cp (hl)
        jr c, .mode                 ; A player in the game?  His portfolio.
        call refuse_no_player       ; "No player 5 in the game."
        jr .key
.other: ld a, c
        ld hl, str_owners_list_keys
        call refuse_key
        jr .key
.next_page:
        ld a, (owners_page)
        add a, OWNERS_PER_PAGE
        ld hl, owners_count
        cp (hl)
        jr c, .page                 ; Another page after this one (else the first again)?
        xor a                       ; after the last page the first
.page:  ld (owners_page), a
        jr .list
.choose:
        ld a, (owners_count)
        or a
        jr nz, .listed              ; Anything listed to choose?
        ld hl, str_owners_nothing_listed
        call refuse_keep
        jr .key
.listed:
        ld a, (owners_page)
        call owners_choose
        jr .list
.leave: LD_ROW_COL bc, OWNERS_TOP, 0
        LD_ROW_COL de, MSG_TOP - OWNERS_TOP, COLUMNS
        ld a, ATTR_NORMAL
        call clear_rect
        jp msg_clear

; ---------------------------------------------------------------------------------------------
; owners_choose - P: move a flashing choice through the list; ENTER or P shows the chosen
; property's title deed until a key is pressed; Q goes back without one
; Input: A = the item chosen first.  Output: owners_page = the page of the last choice.
; Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
owners_choose:
        ld (owners_sel), a
.draw:  call owners_page_of_sel
        call owners_draw
.key:   call keys_wait_upper
        cp KEY_QUIT
        ret z                       ; Q: back without a deed?
        cp KEY_ENTER
        jr z, .deed                 ; ENTER: its deed?
        cp KEY_DEED
        jr z, .deed                 ; P: its deed?
        cp KEY_SPACE
        jr z, .forward              ; SPACE: the next?
        cp KEY_RIGHT
        jr z, .forward              ; CAPS SHIFT + 8: the next?
        cp KEY_DOWN
        jr z, .forward              ; CAPS SHIFT + 6: the next?
        cp KEY_LEFT
        jr z, .back                 ; CAPS SHIFT + 5: the one before?
        cp KEY_UP
        jr z, .back                 ; CAPS SHIFT + 7: the one before?
        ld hl, str_owners_choose_help
        call refuse_key
        jr .key
.back:  ld a, (owners_sel)
        or a
        jr nz, .before              ; Past the first (else round to the last)?
        ld a, (owners_count)
.before:
        dec a
        jr .chosen
.forward:
        ld a, (owners_sel)
        inc a
        ld hl, owners_count
        cp (hl)
        jr c, .chosen               ; Before the last (else round to the first)?
        xor a
.chosen:
        ld (owners_sel), a
        jr .draw
.deed:  call owners_sel_item
        cp OWNERS_CARD
        ld hl, str_owners_card_no_deed
        jr nc, .refused             ; A Jail Free card?  It has no deed.
        call deed_show
        LD_ROW_COL bc, MSG_TOP, 0   ; blank the list's rows below the deed
        LD_ROW_COL de, OWNERS_KEY_ROW - MSG_TOP, COLUMNS
        ld a, ATTR_NORMAL
        call clear_rect
        ld hl, str_owners_deed_keys
        call owners_key_row
        call keys_wait
        ret
.refused:
        call refuse_keep
        jr .key

; ---------------------------------------------------------------------------------------------
; owners_sel_item - the chosen item
; Input: owners_sel.  Output: A = the item.  Corrupts: F, HL.
; ---------------------------------------------------------------------------------------------
owners_sel_item:
        ld a, (owners_sel)
        ; continues into owners_item

; ---------------------------------------------------------------------------------------------
; owners_item - an item of the list
; Input: A = index.  Output: A = the item.  Corrupts: F, HL.
; ---------------------------------------------------------------------------------------------
owners_item:
        ld hl, owners_items
        call setup_index
        ld a, (hl)
        ret

; ---------------------------------------------------------------------------------------------
; owners_page_of_sel - turn to the page that holds the choice
; Input: owners_sel.  Output: owners_page.  Corrupts: AF, B.
; ---------------------------------------------------------------------------------------------
owners_page_of_sel:
        ld a, (owners_sel)
.mod:   cp OWNERS_PER_PAGE          ; A = the choice's place on its page
        jr c, .done                 ; Within a page (its place on its page)?
        sub OWNERS_PER_PAGE
        jr .mod
.done:  ld b, a
        ld a, (owners_sel)
        sub b
        ld (owners_page), a
        ret

; ---------------------------------------------------------------------------------------------
; owners_build - make the list: every property (the whole list) or what one player holds and
; its Jail Free cards
; Input: owners_mode.  Output: owners_items, owners_count.  Corrupts: AF, BC, DE, HL, IX.
; ---------------------------------------------------------------------------------------------
owners_build:
        ld de, owners_items
        ld ix, board_squares
        ld hl, v_squares
        ld c, 0                     ; C = square
.square:
        ld a, (ix+BOARD_KIND)       ; a property? (sites, stations, utilities)
        cp KIND_SITE
        jr c, .next                 ; A kind before the sites (not a property)?
        cp KIND_UTILITY + 1
        jr nc, .next                ; A kind after the utilities (not a property)?
        ld a, (owners_mode)
        cp OWNERS_ALL
        jr z, .take                 ; The whole list (every property)?
        inc a
        ld b, a                     ; B = the player's owner field
        ld a, (hl)
        and SQ_OWNER_MASK
        cp b
        jr nz, .next                ; Not this player's?
.take:  ld a, c
        ld (de), a
        inc de
.next:  inc hl
        push de
        ld de, BOARD_RECORD
        add ix, de
        pop de
        inc c
        ld a, c
        cp BOARD_SQUARES
        jr c, .square               ; Another square?
        ld a, (owners_mode)
        cp OWNERS_ALL
        jr z, .count                ; The whole list (no cards in it)?
        push de
        call player_record
        ld bc, P_JAIL_CARDS
        add hl, bc
        ld a, (hl)                  ; the cards held
        pop de
        bit JC_CHANCE, a
        jr z, .chest                ; No Chance Jail Free card?
        ld b, a
        ld a, OWNERS_CARD + JC_CHANCE
        ld (de), a
        inc de
        ld a, b
.chest: bit JC_CHEST, a
        jr z, .count                ; No Community Chest Jail Free card?
        ld a, OWNERS_CARD + JC_CHEST
        ld (de), a
        inc de
.count: ld a, e                     ; items stored = DE - owners_items
        sub LOW owners_items
        ld (owners_count), a
        ret

; ---------------------------------------------------------------------------------------------
; owners_draw - the page of the list at owners_page and the keys' row
; Input: owners_items, owners_count, owners_page, owners_mode, owners_sel.  Output: rows
; OWNERS_TOP..OWNERS_KEY_ROW drawn; print_attr = ATTR_MESSAGE.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
owners_draw:
        LD_ROW_COL bc, OWNERS_TOP, 0
        LD_ROW_COL de, OWNERS_ROWS, COLUMNS
        ld a, ATTR_NORMAL
        call clear_rect
        ld a, (owners_count)
        or a
        jr nz, .entries             ; Anything listed?
        ld a, ATTR_NORMAL
        ld (print_attr), a
        ld hl, str_owners_none
        LD_ROW_COL bc, OWNERS_TOP, 0
        call print_string_at
        jr .keys
.entries:
        ld c, 0                     ; C = the place on the page
.entry: ld a, (owners_page)
        add a, c
        ld hl, owners_count
        cp (hl)
        jr nc, .keys                ; Past the list's end?
        push bc
        call owners_draw_entry
        pop bc
        inc c
        ld a, c
        cp OWNERS_PER_PAGE
        jr c, .entry                ; Room for another on the page?
.keys:  ld a, (owners_sel)
        cp OWNERS_NO_SELECTION
        ld hl, str_owners_choose_keys
        jr nz, owners_key_row       ; A choice being made (its keys)?
        ld a, (owners_mode)
        cp OWNERS_ALL
        ld hl, str_owners_keys
        jr z, owners_key_row        ; The whole list (its keys)?
        LD_ROW_COL bc, OWNERS_KEY_ROW, 0    ; a portfolio: whose it is, then its keys
        ld d, 1
        ld e, COLUMNS
        ld a, ATTR_OWNERS_KEYS
        call clear_rect
        LD_ROW_COL bc, OWNERS_KEY_ROW, 0
        call print_at
        ld a, ATTR_OWNERS_KEYS
        ld (print_attr), a
        ld a, (owners_mode)
        push af
        add a, '1'
        call print_char
        ld a, ' '
        call print_char
        pop af
        call player_record
        ld de, P_NAME
        add hl, de
        call print_string
        ld hl, str_owners_portfolio_keys
        jr owners_key_text

; ---------------------------------------------------------------------------------------------
; owners_key_row - blank the keys' row and print a text there
; Input: HL = the text (it may start with PR_AT).  Output: printed; print_attr = ATTR_MESSAGE.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
owners_key_row:
        push hl
        LD_ROW_COL bc, OWNERS_KEY_ROW, 0
        LD_ROW_COL de, 1, COLUMNS
        ld a, ATTR_OWNERS_KEYS
        call clear_rect
        LD_ROW_COL bc, OWNERS_KEY_ROW, 0
        call print_at
        pop hl

; ---------------------------------------------------------------------------------------------
; owners_key_text - print a text in the keys' colours at the print position
; Input: HL = the text.  Output: printed; print_attr = ATTR_MESSAGE.  Corrupts: AF, BC, HL.
; ---------------------------------------------------------------------------------------------
owners_key_text:
        ld a, ATTR_OWNERS_KEYS
        ld (print_attr), a
        call print_string
        ld a, ATTR_MESSAGE
        ld (print_attr), a
        ret

; ---------------------------------------------------------------------------------------------
; owners_draw_entry - one entry: the short name, then the owner's number (whole list) or the
; buildings (portfolio); white on red if mortgaged; flashing if chosen
; Input: C = place on the page 0..13 (owners_page + C < owners_count).  Output: drawn.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
owners_draw_entry:
        ld a, (owners_page)
        add a, c
        ld e, a                     ; E = the item's index
        ld a, c                     ; B = row, C = column: down the left column, then the right
        ld b, OWNERS_TOP
        ld c, 0
        cp OWNERS_ROWS
        jr c, .left                 ; In the left column?
        sub OWNERS_ROWS
        ld c, OWNERS_ENTRY
.left:  add a, b
        ld b, a
        ld a, e
        call owners_item
        ld d, a                     ; D = the item
        cp OWNERS_CARD
        ld a, ATTR_NORMAL
        jr nc, .attr                ; A Jail Free card (plain colours)?
        push de
        ld a, d
        ld hl, v_squares
        call setup_index
        pop de
        bit SQ_MORTGAGED, (hl)
        ld a, ATTR_NORMAL
        jr z, .attr                 ; Unmortgaged (plain colours)?
        ld a, ATTR_MORTGAGED        ; the booklet: white characters on a red background
.attr:  ld hl, owners_sel
        push af
        ld a, (hl)
        cp e
        jr nz, .plain               ; Not the chosen entry?
        pop af
        or FLASH                    ; the chosen entry
        push af
.plain: pop af
        ld (print_attr), a
        push bc
        push de
        ld d, 1
        ld e, OWNERS_SHOWN
        call fill_attr
        pop de
        pop bc
        call print_at
        ld a, d
        cp OWNERS_CARD
        jr nc, .card                ; A Jail Free card?
        ld hl, owners_short_names
        push bc
        push de
        call setup_string_of
        call print_string
        pop de
        pop bc
        ld a, (owners_mode)
        cp OWNERS_ALL
        jr nz, .buildings           ; A portfolio (the buildings, not the owner)?
        ld a, c                     ; the owner's number on the right of the name
        add a, OWNERS_OWNER_COL
        ld c, a
        call print_at
        ld a, d
        ld hl, v_squares
        call setup_index
        ld a, (hl)
        and SQ_OWNER_MASK
        ld a, OWNERS_BANK_MARK
        jr z, .owner                ; The Bank's (its mark)?
        ld a, (hl)
        and SQ_OWNER_MASK
        add a, '1' - 1              ; the field holds owner + 1
.owner: call print_char
        ret
.buildings:
        ld a, c
        add a, OWNERS_FIELD_COL
        ld c, a
        call print_at
        ld a, d
        ld hl, v_squares
        call setup_index
        ld a, (hl)
        and SQ_BUILD_MASK
        ret z                       ; No buildings?
        cp SQ_HOTEL << SQ_BUILD_SHIFT
        ld a, CH_HOTEL
        jp z, print_char            ; A hotel?
        ld a, CH_HOUSE
        call print_char
        ld a, (hl)
        and SQ_BUILD_MASK
        assert SQ_BUILD_SHIFT == 4
        rrca
        rrca
        rrca
        rrca
        add a, '0'
        jp print_char
.card:  ld hl, str_owners_card
        push bc
        call print_string
        pop bc
        ld a, c
        add a, OWNERS_FIELD_COL
        ld c, a
        call print_at
        ld a, d
        cp OWNERS_CARD + JC_CHANCE
        ld hl, str_owners_chance
        jr z, .pack                 ; The Chance card?
        ld hl, str_owners_chest
.pack:  jp print_string

str_owners_none: db "No property held.", 0
str_owners_keys: db "SPACE:more P:deed 1-6 ENTER:end", 0
str_owners_portfolio_keys: db PR_AT, OWNERS_KEY_ROW, 13, "SPACE P O:all ENTER", 0
str_owners_choose_keys: db "SPACE:next ENTER:deed Q:back", 0
str_owners_deed_keys: db "Press a key for the list", 0
str_owners_list_keys: db "SPACE more, P deed, a player's number, O all, ENTER ends.", 0
str_owners_choose_help: db "SPACE or CAPS+5/8 choose, ENTER or P deed, Q back.", 0
str_owners_nothing_listed: db "Nothing listed to choose.", 0
str_owners_card_no_deed: db "A Get Out of Jail Free card has no deed.", 0
str_owners_card: db "Jail Free", 0
str_owners_chance: db "Ch", 0
str_owners_chest: db "CC", 0

; Names short enough for an entry (OWNERS_NAME_LEN characters at most), by square; 0 for the
; squares nobody can own.
owners_short_names:
        dw 0, sn_1, 0, sn_3, 0, sn_5, sn_6, 0, sn_8, sn_9
        dw 0, sn_11, sn_12, sn_13, sn_14, sn_15, sn_16, 0, sn_18, sn_19
        dw 0, sn_21, 0, sn_23, sn_24, sn_25, sn_26, sn_27, sn_28, sn_29
        dw 0, sn_31, sn_32, 0, sn_34, sn_35, 0, sn_37, 0, sn_39
        assert ($ - owners_short_names) / 2 == BOARD_SQUARES
sn_1:   db "Old Kent Rd", 0
sn_3:   db "Whitechapel", 0
sn_5:   db "Kings Cross", 0
sn_6:   db "The Angel", 0
sn_8:   db "Euston Rd", 0
sn_9:   db "Pentonville", 0
sn_11:  db "Pall Mall", 0
sn_12:  db "Electric Co", 0
sn_13:  db "Whitehall", 0
sn_14:  db "Northumb'd", 0
sn_15:  db "Marylebone", 0
sn_16:  db "Bow Street", 0
sn_18:  db "Marlborough", 0
sn_19:  db "Vine Street", 0
sn_21:  db "The Strand", 0
sn_23:  db "Fleet St", 0
sn_24:  db "Trafalgar", 0
sn_25:  db "Fenchurch", 0
sn_26:  db "Leicester", 0
sn_27:  db "Coventry St", 0
sn_28:  db "Water Works", 0
sn_29:  db "Piccadilly", 0
sn_31:  db "Regent St", 0
sn_32:  db "Oxford St", 0
sn_34:  db "Bond Street", 0
sn_35:  db "Liverpool", 0
sn_37:  db "Park Lane", 0
sn_39:  db "Mayfair", 0
