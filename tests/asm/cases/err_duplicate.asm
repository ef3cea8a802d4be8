; Duplicate labels and symbols.
        org 0
main:   nop
.loop   nop
main:   nop                     ; duplicate label
.loop   nop                     ; duplicate: the scope is still main
K       equ 1
K       equ 2                   ; duplicate symbol
V       defl 1
V       equ 2                   ; DEFL and EQU mixed
