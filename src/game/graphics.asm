; =============================================================================================
; graphics.asm - the game's own pictures: characters 80h up, and the board's small patterns
;
; graphics_glyphs holds the characters that print_char draws for codes CH_TOKEN..CH_CURSOR
; (const.asm), 8 bytes each, top row first, in the order of the CH_* codes.  The rest are
; patterns that board.asm draws itself with draw_glyph_at or ORs into a square's token area:
; the small tokens (one per player slot), house counts, and the symbols of the squares that
; are not sites.  Every design here is our own.
;
; Conventions: the six pieces leave column 7 blank, as the font's letters do, so that a piece
; never touches the number printed after it; row 7 and column 7 of the board patterns are
; left blank where a pattern sits next to another cell, so that neighbours never touch.
; =============================================================================================

; --- Characters 80h.. -------------------------------------------------------------------------
graphics_glyphs:
; CH_TOKEN + TOKEN_BOOT: a boot, toe to the right
        db %00000000
        db %01111000
        db %01111000
        db %00111000
        db %00111100
        db %01111110
        db %01111110
        db %00000000
; CH_TOKEN + TOKEN_CAR: a racing car from the side
        db %00000000
        db %00110000
        db %01111000
        db %01111110
        db %11111110
        db %01101100
        db %01101100
        db %00000000
; CH_TOKEN + TOKEN_DOG: a terrier, head up on the right
        db %00001100
        db %00001110
        db %10001100
        db %11111100
        db %01111000
        db %01001000
        db %01001000
        db %00000000
; CH_TOKEN + TOKEN_HAT: a top hat
        db %00000000
        db %00111000
        db %00111000
        db %00111000
        db %00101000
        db %00111000
        db %11111110
        db %00000000
; CH_TOKEN + TOKEN_IRON: a flat iron, handle on top, point to the left
        db %00000000
        db %00111100
        db %00100100
        db %01111110
        db %11111110
        db %11111110
        db %00000000
        db %00000000
; CH_TOKEN + TOKEN_SHIP: a battleship
        db %00100000
        db %00100000
        db %01110000
        db %11111000
        db %11111110
        db %01111100
        db %00111000
        db %00000000
; CH_DIE + 0..5: the faces 1..6, a white block (ink) with the pips cut out (paper), 7 x 7
        db %01111100               ; 1
        db %11111110
        db %11111110
        db %11101110
        db %11111110
        db %11111110
        db %01111100
        db %00000000
        db %01111100               ; 2
        db %10111110
        db %11111110
        db %11111110
        db %11111110
        db %11111010
        db %01111100
        db %00000000
        db %01111100               ; 3
        db %10111110
        db %11111110
        db %11101110
        db %11111110
        db %11111010
        db %01111100
        db %00000000
        db %01111100               ; 4
        db %10111010
        db %11111110
        db %11111110
        db %11111110
        db %10111010
        db %01111100
        db %00000000
        db %01111100               ; 5
        db %10111010
        db %11111110
        db %11101110
        db %11111110
        db %10111010
        db %01111100
        db %00000000
        db %01111100               ; 6
        db %10111010
        db %11111110
        db %10111010
        db %11111110
        db %10111010
        db %01111100
        db %00000000
; CH_HOUSE: a house
        db %00010000
        db %00111000
        db %01111100
        db %11111110
        db %01101100
        db %01101100
        db %01111100
        db %00000000
; CH_HOTEL: a hotel, wider and taller, rows of windows
        db %11111110
        db %10101010
        db %11111110
        db %10101010
        db %11111110
        db %11101110
        db %11101110
        db %00000000
; CH_CURSOR: a hollow square with corner ticks, to frame a board square
        db %11101110
        db %10000010
        db %10000010
        db %00000000
        db %10000010
        db %10000010
        db %11101110
        db %00000000
        assert $ - graphics_glyphs == (CH_GRAPHICS_END - CH_TOKEN) * GLYPH_SIZE

; --- Small tokens: what a square's token area shows of each player ----------------------------
; SMALL_TOKEN_ROWS rows per token design (TOKEN_* order), the picture in the top
; SMALL_TOKEN_WIDTH bits of each byte; board.asm shifts it into the player's slot.
SMALL_TOKEN_ROWS  equ 3
SMALL_TOKEN_WIDTH equ 4
gfx_small_tokens:
        db %10000000, %10000000, %11100000      ; boot: an L
        db %01100000, %11110000, %10010000      ; car: body on two wheels
        db %00110000, %11100000, %10100000      ; dog: head up, legs down
        db %01100000, %01100000, %11110000      ; hat: crown on a brim
        db %00100000, %01110000, %11110000      ; iron: a wedge
        db %01000000, %11110000, %01100000      ; ship: funnel, deck, hull
        assert $ - gfx_small_tokens == TOKENS * SMALL_TOKEN_ROWS

; --- Buildings on a site: 1..4 small houses (a hotel is CH_HOTEL) -----------------------------
gfx_houses:
        db %00000000               ; 1 house
        db %00100000
        db %01110000
        db %01110000
        db %00000000
        db %00000000
        db %00000000
        db %00000000
        db %00000000               ; 2 houses
        db %00100010
        db %01110111
        db %01110111
        db %00000000
        db %00000000
        db %00000000
        db %00000000
        db %00000000               ; 3 houses
        db %00100010
        db %01110111
        db %01110111
        db %00000000
        db %00100000
        db %01110000
        db %01110000
        db %00000000               ; 4 houses
        db %00100010
        db %01110111
        db %01110111
        db %00000000
        db %00100010
        db %01110111
        db %01110111
        assert $ - gfx_houses == MAX_HOUSES_PER_SITE * GLYPH_SIZE

; --- Symbols of the squares that are not sites ------------------------------------------------
gfx_station:                        ; a steam engine, chimney at the front
        db %00000000
        db %01000000
        db %01001110
        db %11111010
        db %11111110
        db %11111110
        db %01010100
        db %00000000
gfx_electric:                       ; a light bulb
        db %00111000
        db %01000100
        db %01000100
        db %01000100
        db %00101000
        db %00111000
        db %00111000
        db %00000000
gfx_water:                          ; a tap with a drop
        db %00000000
        db %00111000
        db %00010000
        db %11111110
        db %11111110
        db %00000110
        db %00000000
        db %00000100
gfx_chest:                          ; a treasure chest
        db %00000000
        db %01111100
        db %10000010
        db %11111110
        db %11101110
        db %11111110
        db %11111110
        db %00000000
gfx_bars:                           ; a barred window (Jail)
        db %11111110
        db %10101010
        db %10101010
        db %10101010
        db %10101010
        db %10101010
        db %11111110
        db %00000000
gfx_helmet:                         ; a policeman's helmet (Go To Jail)
        db %00010000
        db %00111000
        db %00111000
        db %01111100
        db %01111100
        db %11111110
        db %01000100
        db %00000000
gfx_arrow:                          ; GO's arrow, pointing the way play goes
        db %00010000
        db %00110000
        db %01111110
        db %11111110
        db %01111110
        db %00110000
        db %00010000
        db %00000000
gfx_way:                            ; the close-up's arrow between two squares: the way
        db %00000000                ; the piece went (closeup.asm)
        db %00100000
        db %00110000
        db %00111000
        db %00111100
        db %00111000
        db %00110000
        db %00100000
gfx_dither:                         ; a fine chequer: two inks mixed into a third colour
        db %10101010
        db %01010101
        db %10101010
        db %01010101
        db %10101010
        db %01010101
        db %10101010
        db %01010101
