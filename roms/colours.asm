; =============================================================================================
; colours.asm - the Spectrum's eight colours and the fields of an attribute byte
;
; Shared by the ROM (roms/const.asm includes it) and the game (src/game/const.asm includes
; it as "../../roms/colours.asm"): the two are separate programs, and this is the one place
; the colours are defined.  An attribute byte (spectrum_facts 2.3): bits 0-2 ink, 3-5 paper,
; 6 bright, 7 flash.  Nothing here emits a byte.
; =============================================================================================

BLACK           equ 0
BLUE            equ 1
RED             equ 2
MAGENTA         equ 3
GREEN           equ 4
CYAN            equ 5
YELLOW          equ 6
WHITE           equ 7
PAPER           equ 8               ; a colour times this: its paper bits
INK_MASK        equ 0x07            ; the ink bits
PAPER_MASK      equ 7 * PAPER       ; the paper bits
BRIGHT          equ 0x40
FLASH           equ 0x80
