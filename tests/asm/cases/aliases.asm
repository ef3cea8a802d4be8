; Other spellings of instructions that common assemblers accept.
        org 0
        in (c)                  ; IN F,(C)
        sub a,b                 ; SUB B
        and a,0Fh
        cp a,(hl)
        add b                   ; ADD A,B
        sbc 5
        sl1 c                   ; SLL C
        sli d
        ex af,af                ; EX AF,AF'
        jp hl                   ; JP (HL)
        jp ix
        ld a,(ix)               ; (IX+0)
        ld a,[iy+2]             ; brackets always mean memory
        ld hl,[4000h]
        ld xh,5                 ; IXH
        ld a,ly                 ; IYL
        LD A,B                  ; any case
