; Included by corpus.asm: constants and a routine.
ATTR_P      equ 5C8Dh
BORDER_CYAN equ 5

set_border: ld a,BORDER_CYAN
            out (0FEh),a
            ret
