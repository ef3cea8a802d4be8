; Values out of range for their field.
        org 0
        ld a,256
        ld a,-129
        ld bc,65536
        ld (ix+128),a
        ld a,(iy-129)
        bit 8,a
        set -1,(hl)
        im 3
        rst 7
        out (c),1
        db 300
        dw -32769
        ds 2,256
        in a,(256)
