; A listing: addresses, bytes (four a line), values of constants, macro expansions.
VALUE   equ 1234h
        org 8000h
        macro twobytes, a1, a2
        db a1, a2
        endm
start:  ld hl,VALUE
        db 1,2,3,4,5,6,7,8,9
        twobytes 10, 11
        ds 100, 0FFh
        if 0
        db 0
        endif
        ret
