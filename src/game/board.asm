; =============================================================================================
; board.asm - the game screen: the player menu, the board with owners, buildings and tokens,
; the player list in the board's middle, the dice and the clock and the status line (the
; close-up of three squares in the lower third is closeup.asm's)
;
; The board (rows BOARD_TOP.., columns BOARD_LEFT.., 13 x 26 cells) runs round the edge as on
; the real board: GO at the bottom right, Jail bottom left, Free Parking top left, Go To Jail
; top right; play goes clockwise (right to left along the bottom, up the left side, ...).
;
;   corners           4 x 2 cells: a label on both rows; the tokens in the middle two cells
;                     of the outer row (Jail: visitors left, prisoners right, behind bars)
;   top and bottom    2 x 2 cells: the colour band on the row towards the middle, the token
;                     area on the outer row
;   left and right    4 x 1 cells: the token area on the outer two cells, the band on the inner
;
; A band is two cells: [owner][symbol].  The owner cell shows the owner's number 1-6; the
; symbol cell shows 1-4 houses or a hotel on a site, a picture on a station, a utility, Chance,
; Community Chest or a tax, and "M" when mortgaged.  A mortgaged square is white on red
; throughout (the booklet's colours).  An empty band cell shows the group's fill pattern: a
; chequer of ink and paper mixes the two colours that the Spectrum lacks (brown, orange).
;
; The token area is 16 x 8 pixels with a fixed slot for each player (three across, two down),
; so six tokens on one square are all visible: each slot shows its player's piece in small
; (graphics.asm: gfx_small_tokens).  Token areas alternate light and dark paper so that
; neighbouring squares stand apart.
; =============================================================================================

; --- Geometry -----------------------------------------------------------------------------------
BOARD_BOTTOM    equ BOARD_TOP + BOARD_HEIGHT - 1    ; the last row of the board
BOARD_RIGHT     equ BOARD_LEFT + BOARD_WIDTH - 1    ; its last column
SIDE_SQUARES    equ 10              ; squares from one corner to the next
CORNER_WIDTH    equ 4
CORNER_HEIGHT   equ 2
EDGE_WIDTH      equ 2               ; a top or bottom square's width in cells
PAIR            equ 2               ; cells in a band and in a token area
ROW_TOP_OUTER   equ BOARD_TOP                       ; top edge: token areas
ROW_TOP_INNER   equ BOARD_TOP + 1                   ; top edge: bands
ROW_BOTTOM_OUTER equ BOARD_BOTTOM                   ; bottom edge: token areas
ROW_BOTTOM_INNER equ BOARD_BOTTOM - 1               ; bottom edge: bands
COL_LEFT_OUTER  equ BOARD_LEFT                      ; left edge: token areas
COL_LEFT_INNER  equ BOARD_LEFT + PAIR               ; left edge: bands
COL_RIGHT_INNER equ BOARD_RIGHT + 1 - CORNER_WIDTH  ; right edge: bands
COL_RIGHT_OUTER equ COL_RIGHT_INNER + PAIR          ; right edge: token areas
CENTRE_TOP      equ BOARD_TOP + CORNER_HEIGHT       ; the middle: the player list
CENTRE_LEFT     equ BOARD_LEFT + CORNER_WIDTH
CENTRE_HEIGHT   equ BOARD_HEIGHT - 2 * CORNER_HEIGHT
CENTRE_WIDTH    equ BOARD_WIDTH - 2 * CORNER_WIDTH
SQ_GO           equ 0
SQ_JAIL         equ JAIL_SQUARE
SQ_FREE_PARKING equ 2 * SIDE_SQUARES
SQ_GO_TO_JAIL   equ GO_TO_JAIL_SQUARE
SQ_ELECTRIC     equ 12              ; the utility that shows a bulb (the other shows a tap)
        assert COL_RIGHT_OUTER + PAIR == BOARD_RIGHT + 1
        assert CENTRE_WIDTH == (SIDE_SQUARES - 1) * EDGE_WIDTH
        assert CENTRE_HEIGHT == SIDE_SQUARES - 1

; The player list: one row per player, in the middle of the board
PLIST_TITLE_ROW equ CENTRE_TOP                      ; "MONOPOLY"
PLIST_TOP       equ CENTRE_TOP + 2                  ; player 0's row
PLIST_BANK_ROW  equ CENTRE_TOP + CENTRE_HEIGHT - 1  ; the Bank's houses and hotels
PL_TOKEN_COL    equ CENTRE_LEFT                     ; piece
PL_NUMBER_COL   equ PL_TOKEN_COL + 1                ; number 1-6
PL_NAME_COL     equ PL_NUMBER_COL + 1               ; name, NAME_LENGTH cells
PL_KIND_COL     equ PL_NAME_COL + NAME_LENGTH       ; computer: its personality's initial
PL_CASH_COL     equ PL_KIND_COL + 1                 ; cash, right-aligned
PL_CASH_WIDTH   equ CENTRE_LEFT + CENTRE_WIDTH - PL_CASH_COL
        assert PL_CASH_WIDTH == 5
        assert PLIST_TOP + MAX_PLAYERS <= PLIST_BANK_ROW

; The panel right of the board
DICE_LABEL_ROW  equ BOARD_TOP + 1
DICE_ROW        equ BOARD_TOP + 2   ; two dice drawn double size: 2 x 2 cells each
DIE1_COL        equ PANEL_LEFT + 1
DIE2_COL        equ DIE1_COL + 2
DOUBLE_ROW      equ DICE_ROW + 2    ; "DOUBLE" under a double
CLOCK_LABEL_ROW equ BOARD_BOTTOM - 2
CLOCK_ROW       equ BOARD_BOTTOM - 1
CLOCK_COL       equ PANEL_LEFT + 1
CLOCK_TENS      equ 10              ; minutes below this get a leading 0

; --- Colours --------------------------------------------------------------------------------------
ATTR_BOARD_LIGHT equ WHITE * PAPER + BLACK + BRIGHT ; token areas of even squares
ATTR_BOARD_DARK equ WHITE * PAPER + BLACK           ; ... of odd squares (grey)
ATTR_CENTRE     equ WHITE * PAPER + BLACK + BRIGHT  ; the board's middle
ATTR_PL_TITLE   equ WHITE * PAPER + RED + BRIGHT
ATTR_PL_NORMAL  equ WHITE * PAPER + BLACK + BRIGHT  ; a player in the game
ATTR_PL_CURRENT equ YELLOW * PAPER + BLACK + BRIGHT ; whose turn it is
ATTR_PL_OUT     equ WHITE * PAPER + BLUE            ; out of the game: dim
ATTR_CORNER_GO  equ WHITE * PAPER + RED + BRIGHT
ATTR_CORNER_FP  equ WHITE * PAPER + RED + BRIGHT
ATTR_CORNER_GTJ equ WHITE * PAPER + BLUE + BRIGHT
ATTR_JAIL       equ BLACK * PAPER + WHITE + BRIGHT  ; the jail itself
ATTR_PANEL      equ BLACK * PAPER + WHITE + BRIGHT  ; dice and clock
ATTR_PANEL_LABEL equ BLACK * PAPER + CYAN + BRIGHT
ATTR_STATUS     equ BLUE * PAPER + WHITE + BRIGHT   ; row 15
ATTR_STATUS_NAME equ BLUE * PAPER + YELLOW + BRIGHT
ATTR_STATUS_FAST equ RED * PAPER + WHITE + BRIGHT  ; the FAST marker: the fast setting is on
ATTR_LOWER      equ ATTR_NORMAL                     ; rows 16-20 when blank

; Each group's band: attribute, and the fill pattern of its empty band cells
board_group_attrs:
        db RED * PAPER + YELLOW             ; brown: dark red and dark yellow mixed
        db CYAN * PAPER + BLACK + BRIGHT    ; light blue
        db MAGENTA * PAPER + BLACK + BRIGHT ; pink
        db RED * PAPER + YELLOW + BRIGHT    ; orange: bright red and yellow mixed
        db RED * PAPER + BLACK + BRIGHT     ; red (white ink is the mortgage)
        db YELLOW * PAPER + BLACK + BRIGHT  ; yellow
        db GREEN * PAPER + WHITE            ; green
        db BLUE * PAPER + WHITE + BRIGHT    ; dark blue
        db BLACK * PAPER + WHITE + BRIGHT   ; stations
        db CYAN * PAPER + BLUE              ; utilities
        assert $ - board_group_attrs == BOARD_GROUPS
board_group_fills:
        dw gfx_dither                       ; brown
        dw board_blank, board_blank
        dw gfx_dither                       ; orange
        dw board_blank, board_blank, board_blank, board_blank, board_blank, board_blank
        assert $ - board_group_fills == BOARD_GROUPS * 2

board_blank     equ font                    ; the space: an empty cell

; The symbol cell of squares nobody owns: glyph and ink, by kind (KIND_CHANCE..KIND_TAX)
board_kind_symbols:
        dw font + ('?' - ' ') * GLYPH_SIZE
        db MAGENTA                          ; Chance
        dw gfx_chest
        db BLUE                             ; Community Chest
        dw font + (CH_POUND - ' ') * GLYPH_SIZE
        db RED                              ; a tax
KIND_SYMBOL_RECORD equ 3
        assert $ - board_kind_symbols == (KIND_TAX - KIND_CHANCE + 1) * KIND_SYMBOL_RECORD

; Corners: square, top row, left column, label attribute, token area row and column, the
; label (top row, then bottom row).  A label's middle cells give way to tokens when any stand
; there (Free Parking, Go To Jail); Jail shows visitors and prisoners side by side.
CORNER_SQUARE   equ 0
CORNER_ROW      equ 1
CORNER_COL      equ 2
CORNER_ATTR     equ 3
CORNER_TOKEN_ROW equ 4
CORNER_TOKEN_COL equ 5
CORNER_LABEL    equ 6
CORNER_RECORD   equ CORNER_LABEL + 2 * CORNER_WIDTH
CORNERS         equ 4
board_corners:
        db SQ_GO, ROW_BOTTOM_INNER, COL_RIGHT_INNER, ATTR_CORNER_GO
        db ROW_BOTTOM_OUTER, COL_RIGHT_INNER + 1
        db " GO ", "<  <"
        db SQ_JAIL, ROW_BOTTOM_INNER, COL_LEFT_OUTER, ATTR_JAIL
        db ROW_BOTTOM_OUTER, COL_LEFT_OUTER
        db "JAIL", "    "
        db SQ_FREE_PARKING, ROW_TOP_OUTER, COL_LEFT_OUTER, ATTR_CORNER_FP
        db ROW_TOP_OUTER, COL_LEFT_OUTER + 1
        db "FREE", "PARK"
        db SQ_GO_TO_JAIL, ROW_TOP_OUTER, COL_RIGHT_INNER, ATTR_CORNER_GTJ
        db ROW_TOP_OUTER, COL_RIGHT_INNER + 1
        db "GOTO", "JAIL"
        assert $ - board_corners == CORNERS * CORNER_RECORD

; Token areas: player p's slot is column p mod 3, row p / 3 of the area.  Each entry: the
; slot's x in pixels (how far its pattern shifts right), the offset of its first row in
; board_tokens (2 bytes a pixel row).
SLOT_COLUMNS    equ 3
SLOT_X0         equ 1               ; a blank pixel column parts squares
SLOT_PITCH_X    equ SMALL_TOKEN_WIDTH + 1
SLOT_Y0         equ 1
SLOT_PITCH_Y    equ SMALL_TOKEN_ROWS + 1
TOKEN_AREA_BYTES equ PAIR * GLYPH_SIZE
board_slots:
        db SLOT_X0, SLOT_Y0 * PAIR
        db SLOT_X0 + SLOT_PITCH_X, SLOT_Y0 * PAIR
        db SLOT_X0 + 2 * SLOT_PITCH_X, SLOT_Y0 * PAIR
        db SLOT_X0, (SLOT_Y0 + SLOT_PITCH_Y) * PAIR
        db SLOT_X0 + SLOT_PITCH_X, (SLOT_Y0 + SLOT_PITCH_Y) * PAIR
        db SLOT_X0 + 2 * SLOT_PITCH_X, (SLOT_Y0 + SLOT_PITCH_Y) * PAIR
        assert $ - board_slots == MAX_PLAYERS * 2
        assert SLOT_X0 + 3 * SLOT_PITCH_X <= PAIR * 8
        assert (SLOT_Y0 + SLOT_PITCH_Y + SMALL_TOKEN_ROWS) <= GLYPH_SIZE

; Jail bars: pixel columns 0, 5, 10 and 15 of the token area, between the slots
JAIL_BARS_LEFT  equ %10000100
JAIL_BARS_RIGHT equ %00100001
; Token filters for board_compose_tokens: E = P_FLAGS bits looked at, D = their wanted value
FILTER_ALL      equ 0
FILTER_VISITING equ (1 << PF_IN_JAIL)
FILTER_IN_JAIL  equ (1 << PF_IN_JAIL) * 256 + (1 << PF_IN_JAIL)

; =============================================================================================
; board_draw_all - clear the screen and draw the whole game screen
; Input: the state block.  Output: menu, board, player list, dice, clock, status line; the
; close-up of the current player's square (if there are players); empty message lines.
; Corrupts: AF, BC, DE, HL.
; =============================================================================================
board_draw_all:
        ld a, ATTR_MESSAGE          ; the message lines keep this after cls
        call cls
        call board_draw_menu
        call board_is_flat
        jr nz, .flat                ; Is the board drawn flat (B)?
        call b3_draw_all            ; the default: the perspective board
        jr .list
.flat:  LD_ROW_COL bc, CENTRE_TOP, CENTRE_LEFT
        LD_ROW_COL de, CENTRE_HEIGHT, CENTRE_WIDTH
        ld a, ATTR_CENTRE
        call clear_rect
        ld hl, str_board_title
        call print_string
        xor a                       ; every square
.square:
        push af
        call board_draw_square
        pop af
        inc a
        cp BOARD_SQUARES
        jr c, .square               ; Another square to draw?
        LD_ROW_COL bc, BOARD_TOP, PANEL_LEFT
        LD_ROW_COL de, BOARD_HEIGHT, PANEL_WIDTH
        ld a, ATTR_PANEL
        call clear_rect
.list:  call board_draw_players
        call board_draw_dice
        call board_draw_clock
        call board_draw_status
        ld a, (v_num_players)
        or a
        jp z, lower_clear           ; No players yet?  No close-up: the lower third blank.
        call board_current_record
        ld a, (hl)
        jp closeup_show

; ---------------------------------------------------------------------------------------------
; board_is_flat - which board is drawn: the flat one (B) or the perspective one (the default,
; perspective.asm).  The one place that reads v_flat_board: every drawing routine that has a
; perspective twin asks here
; Input: v_flat_board.  Output: NZ for the flat board, Z for the perspective one.
; Corrupts: F.
; ---------------------------------------------------------------------------------------------
board_is_flat:
        push bc
        ld b, a
        ld a, (v_flat_board)
        or a                        ; (LD does not touch the flags: A comes back as it was)
        ld a, b
        pop bc
        ret

; ---------------------------------------------------------------------------------------------
; board_current_record - where the current player's square is
; Input: v_current.  Output: HL = address of the current player's P_SQUARE.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
board_current_record:
        ld a, (v_current)
        call player_record
        ld de, P_SQUARE
        add hl, de
        ret

; =============================================================================================
; board_draw_menu - the player menu on rows MENU_ROW, MENU_ROW+1, initial letters highlighted
; Input: none.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; =============================================================================================
board_draw_menu:
        LD_ROW_COL bc, MENU_ROW, 0
        LD_ROW_COL de, 2, COLUMNS
        ld a, ATTR_MENU
        call clear_rect
        ld hl, str_menu
        jp print_string

MENU_COL1       equ 1               ; the menu's four columns of words
MENU_COL2       equ 10
MENU_COL3       equ 18
MENU_COL4       equ 25
str_menu:
        db PR_AT, MENU_ROW, MENU_COL1
        db PR_ATTR, ATTR_MENU_KEY, "M", PR_ATTR, ATTR_MENU, "ortgage"
        db PR_AT, MENU_ROW, MENU_COL2
        db PR_ATTR, ATTR_MENU_KEY, "H", PR_ATTR, ATTR_MENU, "ouses"
        db PR_AT, MENU_ROW, MENU_COL3
        db PR_ATTR, ATTR_MENU_KEY, "R", PR_ATTR, ATTR_MENU, "ent"
        db PR_AT, MENU_ROW, MENU_COL4
        db PR_ATTR, ATTR_MENU_KEY, "O", PR_ATTR, ATTR_MENU, "wners"
        db PR_AT, MENU_ROW + 1, MENU_COL1
        db PR_ATTR, ATTR_MENU_KEY, "T", PR_ATTR, ATTR_MENU, "rade"
        db PR_AT, MENU_ROW + 1, MENU_COL2
        db PR_ATTR, ATTR_MENU_KEY, "D", PR_ATTR, ATTR_MENU, "ice"
        db PR_AT, MENU_ROW + 1, MENU_COL3
        db PR_ATTR, ATTR_MENU_KEY, "C", PR_ATTR, ATTR_MENU, "redit"
        db PR_AT, MENU_ROW + 1, MENU_COL4
        db PR_ATTR, ATTR_MENU_KEY, "A", PR_ATTR, ATTR_MENU, "ssets"
        db 0

str_board_title:
        db PR_AT, PLIST_TITLE_ROW, CENTRE_LEFT + (CENTRE_WIDTH - 8) / 2
        db PR_ATTR, ATTR_PL_TITLE, "MONOPOLY", 0

; =============================================================================================
; board_draw_square - redraw one square: colours, owner, mortgage, buildings, and the tokens
; of the players in the game who stand on it
; Input: A = square 0..39.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; =============================================================================================
board_draw_square:
        call board_is_flat
        jp z, b3_draw_square        ; The perspective board?  It draws its own.
        push ix
        call board_square_info
        ld a, (bd_square)
        call board_find_corner
        jr nz, .edge                ; An edge square?  (a corner has its own drawing)
        call board_draw_corner
        pop ix
        ret
.edge:  ld a, (bd_square)
        call board_geometry
        ld (bd_token_at), bc
        ld (bd_band_at), de
        call board_band_style
        call board_owner_glyph      ; the owner cell: number 1-6, or the fill
        ld bc, (bd_band_at)
        ld a, (bd_band_attr)
        call board_cell
        call board_symbol           ; the symbol cell
        ld bc, (bd_band_at)
        inc c
        call board_cell
        ld a, (bd_square)           ; the tokens
        ld de, FILTER_ALL
        call board_compose_tokens
        ld bc, (bd_token_at)
        ld a, (bd_token_attr)
        call board_draw_tokens
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; board_band_style - the colours of the square in bd_*: token area paper (light and dark
; alternate), band attribute and the fill of an empty band cell; all white on red when
; mortgaged (the booklet's colours)
; Input: bd_square, bd_group, bd_state.  Output: bd_token_attr, bd_band_attr, bd_fill.
; Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
board_band_style:
        ld a, (bd_square)           ; light and dark token areas alternate
        rrca
        ld a, ATTR_BOARD_LIGHT
        jr nc, .paper               ; An odd square?  Dark paper.
        ld a, ATTR_BOARD_DARK
.paper: ld (bd_token_attr), a
        ld a, ATTR_BOARD_DARK       ; a band of no group: grey, apart from the white middle
        ld (bd_band_attr), a
        ld hl, board_blank
        ld (bd_fill), hl
        ld a, (bd_group)
        cp BOARD_GROUPS
        jr nc, .colours             ; No group (the band is plain board)?
        ld e, a
        ld d, 0
        ld hl, board_group_attrs
        add hl, de
        ld a, (hl)
        ld (bd_band_attr), a
        ld hl, board_group_fills
        add hl, de
        add hl, de
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        ld (bd_fill), hl
.colours:
        ld a, (bd_state)
        bit SQ_MORTGAGED, a
        ret z                       ; Not mortgaged?  The colours stand.
        ld a, ATTR_MORTGAGED        ; mortgaged: all of it white on red, no fill
        ld (bd_token_attr), a
        ld (bd_band_attr), a
        ld hl, board_blank
        ld (bd_fill), hl
        ret

; ---------------------------------------------------------------------------------------------
; board_owner_glyph - what a band's owner cell shows: the owner's number 1-6, or the fill
; Input: bd_state, bd_fill.  Output: DE = the glyph.  Corrupts: AF, HL.
; ---------------------------------------------------------------------------------------------
board_owner_glyph:
        ld a, (bd_state)
        and SQ_OWNER_MASK
        ld de, (bd_fill)
        ret z                       ; Nobody owns it?  The fill.
        add a, '0'                  ; the square byte holds owner + 1: the number shown
        call glyph_addr
        ex de, hl
        ret

; ---------------------------------------------------------------------------------------------
; board_square_info - look a square up: kind, group and square byte into bd_*
; Input: A = square.  Output: bd_square, bd_kind, bd_group, bd_state.  Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
board_square_info:
        ld (bd_square), a
        call board_record
        ld a, (hl)
        ld (bd_kind), a
        inc hl
        ld a, (hl)
        ld (bd_group), a
        ld a, (bd_square)
        ld e, a
        ld d, 0
        ld hl, v_squares
        add hl, de
        ld a, (hl)
        ld (bd_state), a
        ret

; ---------------------------------------------------------------------------------------------
; board_record - the address of a square's record in board_squares (tables.asm)
; Input: A = square 0..39.  Output: HL = its record (BOARD_RECORD bytes; fields BOARD_*).
; Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
board_record:
        ld hl, board_squares
        or a
        ret z                       ; Square 0 (the first record)?
        ld de, BOARD_RECORD
.add:   add hl, de
        dec a
        jr nz, .add                 ; Another record to step over?
        ret

; ---------------------------------------------------------------------------------------------
; board_find_corner - is a square a corner, and which
; Input: A = square.  Output: Z and IX = its board_corners record if a corner; NZ if not.
; Corrupts: F, B, DE, IX.
; ---------------------------------------------------------------------------------------------
board_find_corner:
        ld ix, board_corners
        ld de, CORNER_RECORD
        ld b, CORNERS
.look:  cp (ix+CORNER_SQUARE)
        ret z                       ; Is it this corner?
        add ix, de
        djnz .look                  ; Another corner to look at?
        or a                        ; B ran out: NZ (A = a square, never 0 here: GO is a corner)
        ret

; ---------------------------------------------------------------------------------------------
; board_geometry - where an edge square's cells are (not for corners)
; Input: A = square.  Output: B, C = row, column of its token area (two cells across);
; D, E = row, column of its band (two cells across).  Corrupts: AF.
; ---------------------------------------------------------------------------------------------
board_geometry:
        cp SQ_JAIL
        jr nc, .left                ; Past the bottom edge?
        add a, a                    ; bottom: right to left from GO
        neg
        add a, COL_RIGHT_INNER
        ld c, a
        ld e, a
        ld b, ROW_BOTTOM_OUTER
        ld d, ROW_BOTTOM_INNER
        ret
.left:  cp SQ_FREE_PARKING
        jr nc, .top                 ; Past the left edge?
        neg                         ; left: upwards from Jail
        add a, ROW_BOTTOM_INNER + SQ_JAIL
        ld b, a
        ld d, a
        ld c, COL_LEFT_OUTER
        ld e, COL_LEFT_INNER
        ret
.top:   cp SQ_GO_TO_JAIL
        jr nc, .right               ; Past the top edge?  The right edge, then.
        sub SQ_FREE_PARKING         ; top: left to right from Free Parking
        add a, a
        add a, CENTRE_LEFT - EDGE_WIDTH
        ld c, a
        ld e, a
        ld b, ROW_TOP_OUTER
        ld d, ROW_TOP_INNER
        ret
.right: sub SQ_GO_TO_JAIL + 1 - CENTRE_TOP  ; right: downwards from Go To Jail
        ld b, a
        ld d, a
        ld c, COL_RIGHT_OUTER
        ld e, COL_RIGHT_INNER
        ret

; ---------------------------------------------------------------------------------------------
; board_symbol - what the symbol cell of the square in bd_* shows
; Input: bd_square, bd_kind, bd_state, bd_fill, bd_band_attr.
; Output: DE = glyph, A = attribute.  Corrupts: F, HL.
; ---------------------------------------------------------------------------------------------
board_symbol:
        ld a, (bd_state)
        bit SQ_MORTGAGED, a
        ld de, font + ('M' - ' ') * GLYPH_SIZE
        jr nz, .band                ; Mortgaged?  "M".
        ld a, (bd_kind)
        cp KIND_SITE
        jr z, .site                 ; A site?  Its buildings.
        ld de, gfx_station
        cp KIND_STATION
        jr z, .band                 ; A station?
        cp KIND_UTILITY
        jr nz, .other               ; Not a utility?  Chance, Community Chest or a tax.
        ld de, gfx_electric
        ld a, (bd_square)
        cp SQ_ELECTRIC
        jr z, .band                 ; The Electric Company?  The bulb (else the tap).
        ld de, gfx_water
        jr .band
.other: sub KIND_CHANCE             ; Chance, Community Chest, tax: a picture in ink
        ld e, a
        add a, a
        add a, e
        ld e, a
        ld d, 0
        ld hl, board_kind_symbols
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        inc hl
        ld a, (bd_band_attr)
        and ~INK_MASK
        or (hl)
        ret
.site:  ld a, (bd_state)            ; a site: its buildings
        and SQ_BUILD_MASK
        ld de, (bd_fill)
        jr z, .band                 ; No buildings?  The fill.
        cp SQ_HOTEL << SQ_BUILD_SHIFT
        ld de, graphics_glyphs + (CH_HOTEL - CH_TOKEN) * GLYPH_SIZE
        jr z, .band                 ; A hotel?
        rrca                        ; (houses - 1) * GLYPH_SIZE: the field is houses * 16
        sub GLYPH_SIZE
        ld e, a
        ld d, 0
        ld hl, gfx_houses
        add hl, de
        ex de, hl
.band:  ld a, (bd_band_attr)
        ret
        assert SQ_BUILD_SHIFT == 4 && GLYPH_SIZE == 8

; ---------------------------------------------------------------------------------------------
; board_cell - draw a glyph into a cell and colour it
; Input: B = row, C = column, DE = 8 bytes, A = attribute.  Output: drawn.
; Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
board_cell:
        push bc
        push af
        call scr_attr_addr
        pop af
        ld (hl), a
        call draw_glyph_at
        pop bc
        ret

; ---------------------------------------------------------------------------------------------
; board_compose_tokens - build a square's token area in board_tokens: the pieces of the players
; in the game who stand there (and pass the filter).  One or two: drawn full size, one a cell;
; three to six: each drawn small in his own player's slot, so that all are seen
; Input: A = square; DE = filter: E = P_FLAGS bits to test, D = the value they must have
; (FILTER_ALL, FILTER_VISITING, FILTER_IN_JAIL).  Output: board_tokens; A = tokens drawn.
; Corrupts: F, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
board_compose_tokens:
        push ix
        ld (bd_filter), de
        ld c, a                     ; C = square
        ld hl, board_tokens
        ld b, TOKEN_AREA_BYTES
.clear: ld (hl), 0
        inc hl
        djnz .clear
        xor a
        ld (bd_count), a
        ld ix, v_players
        ld b, 0                     ; B = player
.player:
        ld a, (v_num_players)
        cp b
        jr z, .done                 ; Past the last player?
        jr c, .done                 ; Past the last player?
        ld a, (bd_filter)           ; in the game, and the filter's flags as wanted?
        or 1 << PF_PLAYING
        and (ix+P_FLAGS)
        ld e, a
        ld a, (bd_filter + 1)
        or 1 << PF_PLAYING
        cp e
        jr nz, .next                ; Not in the game, or the filter refuses him?
        ld a, c
        cp (ix+P_SQUARE)
        jr nz, .next                ; Not on this square?
        ld hl, bd_count
        inc (hl)
        ld a, (ix+P_TOKEN)          ; note the first two pieces
        ld (bd_second), a
        ld a, (hl)
        dec a
        jr nz, .small               ; Not the first piece here?  (the first is noted for full size)
        ld a, (ix+P_TOKEN)
        ld (bd_first), a
.small: push bc
        ld a, (ix+P_TOKEN)
        call board_token_slot
        pop bc
.next:  ld de, PLAYER_RECORD
        add ix, de
        inc b
        jr .player
.done:  pop ix
        ld a, (bd_count)
        cp PAIR + 1
        ret nc                      ; Three or more (the small ones, each in his slot)?
        or a
        ret z                       ; Nobody here?
        ld de, board_tokens         ; one or two: the full pieces, one in each cell
        ld hl, board_tokens         ; (clear the small ones first)
        ld b, TOKEN_AREA_BYTES
.wipe:  ld (hl), 0
        inc hl
        djnz .wipe
        ld a, (bd_first)
        call .piece
        ld a, (bd_count)
        dec a
        jr z, .count                ; Only one piece?
        ld de, board_tokens + 1
        ld a, (bd_second)
        call .piece
.count: ld a, (bd_count)
        ret
.piece: add a, CH_TOKEN             ; copy its glyph into every other byte
        call glyph_addr
        ld b, GLYPH_SIZE
.copy:  ld a, (hl)
        ld (de), a
        inc hl
        inc de
        inc de
        djnz .copy
        ret

; ---------------------------------------------------------------------------------------------
; board_token_slot - OR one small token into its player's slot of board_tokens
; Input: A = token design 0..5, B = player 0..5 (the slot).  Output: board_tokens.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
board_token_slot:
        ld e, a                     ; DE = the design's SMALL_TOKEN_ROWS bytes
        add a, a
        add a, e
        assert SMALL_TOKEN_ROWS == 3
        ld e, a
        ld d, 0
        ld hl, gfx_small_tokens
        add hl, de
        ex de, hl
        ld l, b                     ; the slot: shift and first row
        ld h, 0
        add hl, hl
        ld bc, board_slots
        add hl, bc
        ld b, (hl)                  ; B = pixels to shift right
        inc hl
        ld a, (hl)
        ld hl, board_tokens
        add a, l
        ld l, a
        adc a, h
        sub l
        ld h, a                     ; HL = the slot's first row in board_tokens
        ld c, SMALL_TOKEN_ROWS
.row:   push bc
        push de
        ld a, (de)
        ld d, a                     ; D:E = the row, moved right B pixels across the pair
        ld e, 0
.shift: srl d
        rr e
        djnz .shift                 ; Shifted far enough?
        ld a, (hl)
        or d
        ld (hl), a
        inc hl
        ld a, (hl)
        or e
        ld (hl), a
        inc hl
        pop de
        inc de
        pop bc
        dec c
        jr nz, .row                 ; Another row of the token?
        ret

; ---------------------------------------------------------------------------------------------
; board_draw_tokens - put board_tokens on the screen
; Input: B = row, C = column of the left cell, A = attribute of both cells.  Output: drawn.
; Corrupts: AF, DE, HL.
; ---------------------------------------------------------------------------------------------
board_draw_tokens:
        push bc
        push af
        call scr_attr_addr
        pop af
        ld (hl), a
        inc l
        ld (hl), a
        call scr_cell_addr
        ld de, board_tokens
        ld b, GLYPH_SIZE
.row:   ld a, (de)
        ld (hl), a
        inc de
        inc l
        ld a, (de)
        ld (hl), a
        inc de
        dec l
        inc h
        djnz .row                   ; Another pixel row?
        pop bc
        ret

; ---------------------------------------------------------------------------------------------
; board_draw_corner - a corner square: its label, and the tokens on it
; Input: IX = its board_corners record.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
board_draw_corner:
        ld a, (ix+CORNER_ATTR)
        ld (print_attr), a
        ld b, (ix+CORNER_ROW)
        ld c, (ix+CORNER_COL)
        call print_at
        push ix
        pop hl
        ld de, CORNER_LABEL
        add hl, de
        call .four
        inc b
        call print_at
        call .four
        ld a, (ix+CORNER_SQUARE)
        cp SQ_JAIL
        jr z, .jail                 ; The jail?  Visitors and prisoners apart.
        ld de, FILTER_ALL
        call board_compose_tokens
        or a
        ret z                       ; Nobody there (the label stays whole)?
        ld b, (ix+CORNER_TOKEN_ROW)
        ld c, (ix+CORNER_TOKEN_COL)
        ld a, ATTR_BOARD_LIGHT
        jp board_draw_tokens
.jail:  ld de, FILTER_VISITING      ; visitors on the left, in the open
        call board_compose_tokens
        ld b, (ix+CORNER_TOKEN_ROW)
        ld c, (ix+CORNER_TOKEN_COL)
        ld a, ATTR_BOARD_LIGHT
        call board_draw_tokens
        ld a, SQ_JAIL               ; prisoners on the right, behind bars
        ld de, FILTER_IN_JAIL
        call board_compose_tokens
        call board_jail_bars
        ld b, (ix+CORNER_TOKEN_ROW)
        ld a, (ix+CORNER_TOKEN_COL)
        add a, PAIR
        ld c, a
        ld a, ATTR_JAIL
        jp board_draw_tokens
.four:  ld e, CORNER_WIDTH          ; print four characters from HL
.char:  ld a, (hl)
        inc hl
        call print_char
        dec e
        jr nz, .char                ; Another letter?
        ret

; ---------------------------------------------------------------------------------------------
; board_jail_bars - OR the jail's bars into the composed token area (board_tokens)
; Input: board_tokens.  Output: board_tokens.  Corrupts: AF, B, HL.
; ---------------------------------------------------------------------------------------------
board_jail_bars:
        ld hl, board_tokens
        ld b, GLYPH_SIZE
.bars:  ld a, (hl)
        or JAIL_BARS_LEFT
        ld (hl), a
        inc hl
        ld a, (hl)
        or JAIL_BARS_RIGHT
        ld (hl), a
        inc hl
        djnz .bars                  ; Another pixel row?
        ret

; =============================================================================================
; board_mark_square - make a square's cells flash (the cursor); board_draw_square undoes it
; Input: A = square.  Output: FLASH set on its cells.  Corrupts: AF, BC, DE, HL.
; =============================================================================================
board_mark_square:
        call board_is_flat
        jp z, b3_mark_square        ; The perspective board?  It marks its own.
        push ix
        call board_find_corner
        jr nz, .edge                ; An edge square?  (a corner flashes whole)
        ld b, (ix+CORNER_ROW)
        ld c, (ix+CORNER_COL)
        LD_ROW_COL de, CORNER_HEIGHT, CORNER_WIDTH
        call board_flash_rect
        pop ix
        ret
.edge:  call board_geometry
        push de
        LD_ROW_COL de, 1, PAIR
        call board_flash_rect
        pop bc
        LD_ROW_COL de, 1, PAIR
        call board_flash_rect
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; board_flash_rect - set FLASH on a rectangle of cells, keeping their colours
; Input: B = top row, C = left column, D = height, E = width.  Output: done.
; Corrupts: AF, BC, D, HL.
; ---------------------------------------------------------------------------------------------
board_flash_rect:
        call scr_attr_addr
.rows:  push hl
        ld b, e
.cols:  set 7, (hl)
        inc hl
        djnz .cols                  ; Another cell of the row?
        pop hl
        ld bc, COLUMNS
        add hl, bc
        dec d
        jr nz, .rows                ; Another row?
        ret
        assert FLASH == 1 << 7

; =============================================================================================
; board_draw_players - the player list in the middle of the board: for each player his piece,
; number, name, a computer's personality and the cash; the current player highlighted, a
; player out of the game dimmed with OUT (BUST if bankrupt); and the Bank's houses and hotels
; Input: the state block.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; =============================================================================================
board_draw_players:
        LD_ROW_COL bc, PLIST_TOP, CENTRE_LEFT
        call board_is_flat
        jr nz, .origin              ; Flat (B)?  The list sits in the board's middle.
        LD_ROW_COL bc, B3_LIST_TOP + 1, B3_LIST_LEFT
.origin:
        ld (bd_list_at), bc
        push ix
        ld ix, v_players
        ld c, 0                     ; C = player
.player:
        push bc
        ld a, (bd_list_at + 1)
        add a, c
        ld b, a
        ld a, (v_num_players)
        dec a
        cp c
        jr c, .empty                ; No such player (a blank row)?
        ld a, c
        call board_player_row
        jr .next
.empty: ld a, (bd_list_at)
        ld c, a
        LD_ROW_COL de, 1, CENTRE_WIDTH
        ld a, ATTR_CENTRE
        call clear_rect
.next:  pop bc
        ld de, PLAYER_RECORD
        add ix, de
        inc c
        ld a, c
        cp MAX_PLAYERS
        jr c, .player               ; Another row of the list?
        pop ix
        ld bc, (bd_list_at)         ; the Bank's buildings, under the players
        ld a, b
        add a, MAX_PLAYERS
        ld b, a
        inc c
        call print_at
        ld hl, str_bank
        call print_string
        ld a, (v_houses_left)
        call .count
        ld hl, str_bank_hotels
        call print_string
        ld a, (v_hotels_left)
.count: ld l, a
        ld h, 0
        ld a, BANK_DIGITS
        jp print_number_right

BANK_COL        equ CENTRE_LEFT + 1
BANK_DIGITS     equ 2               ; 0..32 houses, 0..12 hotels
str_bank:
        db PR_ATTR, ATTR_PL_TITLE, "Bank ", CH_HOUSE, 0
        assert PLIST_BANK_ROW == PLIST_TOP + MAX_PLAYERS && BANK_COL == CENTRE_LEFT + 1
str_bank_hotels:
        db "  ", CH_HOTEL, 0

; ---------------------------------------------------------------------------------------------
; board_player_row - one player's row of the list
; Input: A = player, B = row, IX = his record.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
board_player_row:
        ld e, a                     ; E = player
        ld d, ATTR_PL_NORMAL        ; D = the row's colours
        bit PF_PLAYING, (ix+P_FLAGS)
        jr nz, .in                  ; In the game?  (else dimmed)
        ld d, ATTR_PL_OUT
.in:    ld a, (v_current)
        cp e
        jr nz, .colour              ; Not whose turn it is?
        ld d, ATTR_PL_CURRENT
.colour:
        ld a, d
        call board_inverse          ; piece and number inverted: a badge
        ld (print_attr), a
        ld a, (bd_list_at)          ; (PL_TOKEN_COL on the flat board)
        ld c, a
        call print_at
        ld a, (ix+P_TOKEN)
        add a, CH_TOKEN
        call print_char
        ld a, e
        add a, '1'
        call print_char
        ld a, d
        ld (print_attr), a
        push ix                     ; the name, padded to its field
        pop hl
        ld de, P_NAME
        add hl, de
        ld c, NAME_LENGTH
.name:  ld a, (hl)
        or a
        jr z, .pad                  ; The name's end?  Pad the field with spaces.
        call print_char
        inc hl
        dec c
        jr nz, .name                ; Room for another letter?
        jr .kind
.pad:   ld b, c
        call print_spaces
.kind:  ld a, ' '                   ; a computer: its personality's initial
        bit PF_COMPUTER, (ix+P_FLAGS)
        jr z, .human                ; A human?  No initial.
        ld a, (ix+P_PERSONALITY)
        cp AI_PERSONALITIES
        jr c, .known                ; A personality the table knows?  (else the first)
        xor a
.known: ld e, a
        ld d, 0
        ld hl, board_personality_initials
        add hl, de
        ld a, (hl)
.human: push af
        ld a, (print_attr)          ; the initial in red: apart from a five-digit sum
        push af
        and ~INK_MASK
        or RED
        ld (print_attr), a
        pop hl
        pop af
        call print_char
        ld a, h
        ld (print_attr), a
        bit PF_PLAYING, (ix+P_FLAGS)
        jr z, .out                  ; Out of the game?  OUT or BUST instead of cash.
        ld l, (ix+P_CASH)           ; cash: the pound sign if there is room
        ld h, (ix+P_CASH+1)
        call number_digits
        ld a, PL_CASH_WIDTH - 1
        sub b
        jr c, .digits               ; Five digits (no room for the sign)?
        ld b, a
        call print_spaces
        ld a, CH_POUND
        call print_char
.digits:
        ld hl, number_buffer
        jp print_string
.out:   ld hl, str_out
        bit PF_BANKRUPT, (ix+P_FLAGS)
        jr z, .gone                 ; Out but not bankrupt?  OUT.
        ld hl, str_bust
.gone:  jp print_string

str_out:        db "  OUT", 0
str_bust:       db " BUST", 0
board_personality_initials:
        db "MRGSCEB"                ; Mean, Reckless, Greedy, Steady, Cautious, Entrepreneurial,
                                    ; and the Buyer the tournament measures them against
        assert $ - board_personality_initials == AI_PERSONALITIES

; ---------------------------------------------------------------------------------------------
; board_inverse - an attribute with ink and paper swapped
; Input: A = attribute.  Output: A.  Corrupts: F.
; ---------------------------------------------------------------------------------------------
board_inverse:
        push bc
        ld b, a
        and INK_MASK
        rlca
        rlca
        rlca
        ld c, a                     ; the ink as paper
        ld a, b
        and PAPER_MASK
        rrca
        rrca
        rrca
        or c                        ; the paper as ink
        ld c, a
        ld a, b
        and BRIGHT + FLASH
        or c
        pop bc
        ret

; =============================================================================================
; board_draw_status - row STATUS_ROW: the current player's piece, number and name
; Input: v_current, v_num_players.  Output: drawn (blank while there are no players).
; Corrupts: AF, BC, DE, HL.
; =============================================================================================
board_draw_status:
        LD_ROW_COL bc, STATUS_ROW, 0
        LD_ROW_COL de, 1, COLUMNS
        ld a, ATTR_STATUS
        call clear_rect
        ld a, (v_num_players)
        or a
        ret z                       ; No players yet?  The line stays blank.
        ld a, ATTR_STATUS
        ld (print_attr), a
        LD_ROW_COL bc, STATUS_ROW, 1
        call print_at
        ld a, (v_current)
        call player_record
        push hl
        inc hl
        assert P_TOKEN == 1
        ld a, (hl)
        add a, CH_TOKEN
        call print_char
        ld hl, str_board_player
        call print_string
        ld a, (v_current)
        add a, '1'
        call print_char
        ld a, ' '
        call print_char
        ld a, ATTR_STATUS_NAME
        ld (print_attr), a
        pop hl
        ld de, P_NAME
        add hl, de
        call print_string
        ld a, (v_speed)             ; the fast setting shows that it is on (issue 28)
        cp AI_SPEED_FAST
        ret nz                      ; Not the fast setting?
        ld hl, str_board_fast
        jp print_string

str_board_player:     db " Player ", 0
str_board_fast:       db PR_AT, STATUS_ROW, COLUMNS - 6, PR_ATTR, ATTR_STATUS_FAST, " FAST ", 0

; =============================================================================================
; board_draw_dice - the last throw in the panel: two dice, double size, and DOUBLE under a
; double; nothing before the first throw (v_dice = 0, 0)
; Input: v_dice.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; =============================================================================================
board_draw_dice:
        call board_is_flat
        jp z, b3_draw_dice          ; The perspective board?  It draws its own dice.
        LD_ROW_COL bc, DICE_LABEL_ROW, PANEL_LEFT
        LD_ROW_COL de, DOUBLE_ROW - DICE_LABEL_ROW + 1, PANEL_WIDTH
        ld a, ATTR_PANEL
        call clear_rect
        ld a, (v_dice)
        or a
        ret z                       ; No throw yet?  No dice.
        ld hl, str_dice
        call print_string
        ld a, (v_dice)
        ld c, DIE1_COL
        call .die
        ld a, (v_dice + 1)
        ld c, DIE2_COL
        call .die
        ld a, (v_dice)
        ld hl, v_dice + 1
        cp (hl)
        ret nz                      ; Not a double?
        ld hl, str_double
        jp print_string
.die:   add a, CH_DIE - 1
        call glyph_addr
        ex de, hl
        ld b, DICE_ROW
        jp board_draw_double

str_dice:       db PR_AT, DICE_LABEL_ROW, PANEL_LEFT + 1, PR_ATTR, ATTR_PANEL_LABEL, "DICE", 0
str_double:     db PR_AT, DOUBLE_ROW, PANEL_LEFT, PR_ATTR, ATTR_PANEL, "DOUBLE", 0

; ---------------------------------------------------------------------------------------------
; board_draw_double - draw a glyph at twice the size over 2 x 2 cells (their colours kept)
; Input: B = top row, C = left column, DE = the 8 bytes.  Output: drawn.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
board_draw_double:
        push bc
        call scr_cell_addr
        call .half                  ; glyph rows 0-3 fill the top cells
        pop bc
        inc b
        call scr_cell_addr          ; rows 4-7 the bottom ones
.half:  ld c, GLYPH_SIZE / 2
.row:   ld a, (de)
        inc de
        push de
        push af                     ; D, E = the left and right halves, each bit doubled
        rrca
        rrca
        rrca
        rrca
        call .nibble
        ld d, a
        pop af
        call .nibble
        ld e, a
        ld b, 2                     ; each glyph row twice
.twice: ld (hl), d
        inc l
        ld (hl), e
        dec l
        inc h
        djnz .twice                 ; Drawn twice?
        pop de
        dec c
        jr nz, .row                 ; Another glyph row?
        ret
.nibble:
        and 0x0F
        push hl
        ld hl, board_doubled
        add a, l
        ld l, a
        adc a, h
        sub l
        ld h, a
        ld a, (hl)
        pop hl
        ret

board_doubled:                      ; a nibble with each bit doubled
        db 0x00, 0x03, 0x0C, 0x0F, 0x30, 0x33, 0x3C, 0x3F
        db 0xC0, 0xC3, 0xCC, 0xCF, 0xF0, 0xF3, 0xFC, 0xFF

; =============================================================================================
; board_draw_clock - the short game's clock in the panel: minutes left as H:MM
; Input: v_short_game, v_clock_minutes.  Output: drawn; nothing unless v_short_game.
; Corrupts: AF, BC, DE, HL.
; =============================================================================================
board_draw_clock:
        call board_is_flat
        jp z, b3_draw_clock         ; The perspective board?  It draws its own clock.
        ld a, (v_short_game)
        or a
        ret z                       ; Not a short game?  No clock.
        LD_ROW_COL bc, CLOCK_LABEL_ROW, PANEL_LEFT
        LD_ROW_COL de, 2, PANEL_WIDTH
        ld a, ATTR_PANEL
        call clear_rect
        ld hl, str_clock
        call print_string
        ; continues into board_clock_time

; ---------------------------------------------------------------------------------------------
; board_clock_time - print the minutes left as H:MM at the print position
; Input: v_clock_minutes.  Output: printed.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
board_clock_time:
        ld hl, (v_clock_minutes)
        ld de, MINUTES_PER_HOUR
        ld c, 0                     ; C = hours
.hours: or a
        sbc hl, de
        jr c, .minutes              ; Fewer than 60 minutes left to count?
        inc c
        jr .hours
.minutes:
        add hl, de
        push hl
        ld l, c
        ld h, 0
        call print_number
        ld a, ':'
        call print_char
        pop hl
        ld a, l
        cp CLOCK_TENS               ; minutes always in two digits
        jr nc, .two                 ; Ten minutes or more?  No leading 0.
        ld a, '0'
        call print_char
.two:   jp print_number

str_clock:      db PR_AT, CLOCK_LABEL_ROW, PANEL_LEFT + 1, PR_ATTR, ATTR_PANEL_LABEL, "TIME"
                db PR_AT, CLOCK_ROW, CLOCK_COL, PR_ATTR, ATTR_PANEL, 0

; =============================================================================================
; lower_clear - blank the lower third above the messages (rows LOWER_TOP..MSG_TOP-1)
; Input: none.  Output: cleared to ATTR_LOWER.  Corrupts: AF, BC, DE, HL.
; =============================================================================================
lower_clear:
        LD_ROW_COL bc, LOWER_TOP, 0
        LD_ROW_COL de, MSG_TOP - LOWER_TOP, COLUMNS
        ld a, ATTR_LOWER
        jp clear_rect
