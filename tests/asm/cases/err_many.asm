; Every error of a run is reported, in every file, not only the first.
        org 0
        ld a,missing_one
        include "inc/broken.asm"
        jr missing_two
        ld b,(ix+999)
