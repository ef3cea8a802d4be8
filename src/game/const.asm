; =============================================================================================
; const.asm - the game's fixed addresses, ports, key codes, colours and screen layout, by name
;
; Spectrum facts from shared/reference/spectrum_facts.md (memory map 2.1, ULA port 2.4/3.1,
; attributes 2.3).  Nothing here emits a byte.
; =============================================================================================

; --- The machine: memory map, screen, ULA port, key matrix, colours (one file for both programs:
; SCREEN, ATTRS and their sizes, ROWS, COLUMNS, GLYPH_SIZE, ULA_PORT, ULA_EAR, HALF_ROWS ...)
        include "../../roms/hardware.asm"

; --- Memory ----------------------------------------------------------------------------------
SYS_CHARS       equ 0x5C36          ; the ROM's CHARS variable: we point it at our font (- 256)
                                    ; so that any screen reader that follows CHARS reads our text
GAME_ORIGIN     equ 0x6000          ; where the code block loads
IM2_TABLE       equ 0xFE00          ; 257 bytes of IM2_VECTOR_BYTE: any bus value finds the ISR
IM2_VECTOR_BYTE equ 0xFD
IM2_JUMP        equ 0xFDFD          ; JP isr lives here (IM2_VECTOR_BYTE * 257)
STACK_TOP       equ IM2_JUMP        ; the machine stack grows down from just below the JP
STACK_LIMIT     equ 0xFC00          ; the stack's floor, on a page boundary so that the
                                    ; close-up's page-aligned picture can end right under it
                                    ; (main.asm); code and data must end below it
STACK_SIZE      equ STACK_TOP - STACK_LIMIT ; 509 bytes (the deepest measured: 64, docs/game.md "Memory")

; --- Attributes (the colours BLACK..WHITE, PAPER, BRIGHT ... are hardware.asm's) --------------
ATTR_NORMAL     equ WHITE * PAPER + BLACK           ; black on white
ATTR_INVERSE    equ BLACK * PAPER + WHITE + BRIGHT  ; white on black
ATTR_MENU       equ BLUE * PAPER + WHITE + BRIGHT   ; the player menu
ATTR_MENU_KEY   equ BLUE * PAPER + YELLOW + BRIGHT  ; a menu entry's initial letter
ATTR_MESSAGE    equ WHITE * PAPER + BLACK + BRIGHT  ; the message lines
ATTR_PROMPT     equ WHITE * PAPER + BLUE + BRIGHT   ; questions asked of a player
ATTR_MORTGAGED  equ RED * PAPER + WHITE + BRIGHT    ; a mortgaged property (booklet: white on red)
ATTR_TITLE      equ BLACK * PAPER + YELLOW + BRIGHT
BORDER_COLOUR   equ BLACK

; --- Character codes of our font and of keys_read --------------------------------------------
CH_POUND        equ 0x60            ; the pound sign (Spectrum character set)
CH_COPYRIGHT    equ 0x7F
KEY_NONE        equ 0               ; no key
WORD_MAX        equ 0xFFFF          ; the largest 16-bit amount (cash stops there)
NO_SQUARE       equ 0xFF            ; no square (0..39 are the board's)
NO_CARD         equ 0xFF            ; no card drawn yet (v_last_card)
CH_TYPED_END    equ 0x80            ; the first code that is no typed character
KEY_LEFT        equ 8               ; CAPS SHIFT + 5
KEY_RIGHT       equ 9               ; CAPS SHIFT + 8
KEY_DOWN        equ 10              ; CAPS SHIFT + 6
KEY_UP          equ 11              ; CAPS SHIFT + 7
KEY_DELETE      equ 12              ; CAPS SHIFT + 0
KEY_ENTER       equ 13
KEY_BREAK       equ 27              ; CAPS SHIFT + SPACE: ends the game (booklet C)
KEY_SPACE       equ 32

; --- Print control codes (print_string) -------------------------------------------------------
PR_END          equ 0               ; end of string
PR_NEWLINE      equ 13              ; to column 0 of the next row
PR_AT           equ 0x16            ; followed by row, column
PR_ATTR         equ 0x13            ; followed by the attribute for what follows

; --- Frames and time -------------------------------------------------------------------------
FRAMES_PER_SECOND equ 50
FRAMES_PER_MINUTE equ 3000
MINUTES_PER_HOUR equ 60

; --- Characters of graphics.asm (codes 80h up; print_char draws them like letters) -----------
CH_TOKEN        equ 0x80            ; + token design 0..5: the six playing pieces
CH_DIE          equ 0x86            ; + face - 1: the six die faces
CH_HOUSE        equ 0x8C            ; a house
CH_HOTEL        equ 0x8D            ; a hotel
CH_CURSOR       equ 0x8E            ; the board cursor
CH_GRAPHICS_END equ 0x8F            ; first code with no glyph

; --- Screen layout (character rows and columns) ----------------------------------------------
; LD_ROW_COL - load a register pair with a character row and column packed as the screen
; routines take them (print_at: B = row, C = column; fill_attr, clear_rect: B, C the top left
; and D = height, E = width): the row, or a height in rows, in the high byte; the column, or a
; width in columns, in the low byte.
LD_ROW_COL      macro pair, row, col
        assert (row) >= 0 && (row) <= 255 && (col) >= 0 && (col) <= 255
        ld pair, (row) * 256 + (col)
        endm
MENU_ROW        equ 0               ; the player menu, two rows
BOARD_TOP       equ 2               ; the board: rows 2..14, columns 0..25
BOARD_LEFT      equ 0
BOARD_HEIGHT    equ 13
BOARD_WIDTH     equ 26
PANEL_LEFT      equ 26              ; right of the board: dice and clock, columns 26..31
PANEL_WIDTH     equ 6
STATUS_ROW      equ 15              ; the current player's name, number and piece
LOWER_TOP       equ 16              ; the lower third: close-up, lists, title deeds
CLOSEUP_TOP     equ 16              ; close-up of three squares, rows 16..20
CLOSEUP_HEIGHT  equ 5
MSG_TOP         equ 21              ; messages and questions, rows 21..23
MSG_HEIGHT      equ 3
