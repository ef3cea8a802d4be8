; Missing files and bad INCBIN ranges.
        org 0
        include "no_such_file.asm"
        incbin "no_such_file.bin"
        incbin "inc/data.bin", 6
        incbin "inc/data.bin", 2, 4
        include
