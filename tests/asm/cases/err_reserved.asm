; Reserved words cannot be labels.
a:      nop
hl      equ 1
ld:     nop
nz = 1
and:    nop
