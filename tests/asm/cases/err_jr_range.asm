; Relative jumps out of range (JR and DJNZ reach -128..+127 from the next instruction).
        org 8000h
back:   ds 126
        jr back                 ; -128: fine
        jr back                 ; -130: too far
        djnz far
        jr far
        ds 130
far:    nop
