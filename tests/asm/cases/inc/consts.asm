; Included by include.asm (through a second level).
ONE     equ 1
        include "more.asm"
