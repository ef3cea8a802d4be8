        db 1
        include "cycle_b.asm"
