; Undocumented instructions.
        org 0
        ld ixh,1
        ld ixl,ixh
        ld a,iyl
        add a,iyh
        sll b
        sll (ix+3)
        in f,(c)
        out (c),0
        res 0,(ix+3),b
        set 7,(iy-1),a
        rlc (ix+0),c
        srl (iy+127),l
