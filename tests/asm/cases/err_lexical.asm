; Problems found while reading a line.
        org 0
        db "unterminated
        db 'unterminated
        db "bad \q escape"
        db "\x4"
        ld a,0x
        ld a,12az
        ld a,`
        db "€"
        ld a,'ab'
