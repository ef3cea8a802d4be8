        db 2
        include "cycle_a.asm"
