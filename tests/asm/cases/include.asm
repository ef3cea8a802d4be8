; INCLUDE (paths relative to the including file) and INCBIN with offset and length.
        org 0
        include "inc/consts.asm"
        incbin "inc/data.bin"
        incbin "inc/data.bin", 3
        incbin 'inc/data.bin', 1, 2
        db ONE+TWO
