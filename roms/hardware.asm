; =============================================================================================
; hardware.asm - the 48K Spectrum's memory map, screen, ULA port and key matrix, by name
;
; Shared by the ROM (roms/const.asm includes it) and the game (src/game/const.asm includes it
; as "../../roms/hardware.asm"): the two are separate programs, and this is the one place
; these facts of the machine are defined.  It brings in the colours (colours.asm) too.
; Facts from shared/reference/spectrum_facts.md sections 2.1-2.7 and 3.1.  Nothing here emits a
; byte.
; =============================================================================================

; --- Memory map (section 2.1) ----------------------------------------------------------------
ROM_SIZE        equ 0x4000
RAM_START       equ 0x4000
SCREEN          equ 0x4000          ; display file: 256 x 192 pixels, 1 bit each
SCREEN_SIZE     equ 6144
ATTRS           equ 0x5800          ; attributes: 32 x 24 cells
ATTRS_SIZE      equ 768
SCREEN_THIRD    equ 0x0800          ; bytes in one third (8 character rows) of the display
ROWS            equ 24              ; character rows on the screen
COLUMNS         equ 32              ; character columns
GLYPH_SIZE      equ 8               ; bytes (pixel rows) in a character cell
PRINTER_BUFFER  equ 0x5B00
RAM_END_48K     equ 0xFFFF
RAM_END_16K     equ 0x7FFF
        assert ATTRS == SCREEN + SCREEN_SIZE && ATTRS_SIZE == ROWS * COLUMNS
        assert SCREEN_SIZE == ROWS * COLUMNS * GLYPH_SIZE && SCREEN_THIRD * 3 == SCREEN_SIZE

; --- ULA port 0xFE (sections 2.4, 2.7, 3.1) --------------------------------------------------
ULA_PORT        equ 0xFE
ULA_BORDER      equ 0x07            ; out: border colour bits
ULA_MIC         equ 0x08            ; out: bit 3, MIC (tape out)
ULA_EAR         equ 0x10            ; out: bit 4, EAR (speaker)
ULA_EAR_IN      equ 0x40            ; in: bit 6, the tape signal
ULA_KEYS        equ 0x1F            ; in: bits 0-4, keys of the selected half-rows (0 = down)

; --- The key matrix (section 2.4) ------------------------------------------------------------
; Half-rows: the high byte of the port address selects them (a 0 bit selects).
HALF_ROW_CAPS_V equ 0xFE            ; CAPS SHIFT Z X C V
HALF_ROW_A_G    equ 0xFD
HALF_ROW_Q_T    equ 0xFB
HALF_ROW_1_5    equ 0xF7
HALF_ROW_0_6    equ 0xEF
HALF_ROW_P_Y    equ 0xDF
HALF_ROW_ENTER_H equ 0xBF
HALF_ROW_SPACE_B equ 0x7F           ; SPACE SYMBOL-SHIFT M N B
HALF_ROWS       equ 8
KEYS_PER_ROW    equ 5
; Key numbers: half-row * KEYS_PER_ROW + bit (half-row 0 = port high byte 0xFE)
KEY_CAPS_SHIFT  equ 0               ; half-row 0, bit 0
KEY_SYMBOL_SHIFT equ 36             ; half-row 7, bit 1

; --- Colours and attributes (section 2.3) ----------------------------------------------------
        include "colours.asm"       ; BLACK..WHITE, PAPER, INK_MASK, PAPER_MASK, BRIGHT, FLASH
