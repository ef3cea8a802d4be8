; Bad operands.
        org 0
        ld (bc),b               ; no such combination
        jr po,0                 ; JR has no PO condition
        push af'
        ld a                    ; wrong number of operands
        nop 1
        ld a,(hl+1)             ; not an indirection
        ld a,(a)
        ld a,b+1                ; a register in an expression
        ld a,
        ex de,ix
        im
