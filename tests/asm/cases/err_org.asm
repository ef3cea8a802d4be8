; ORG overlap and code past the end of memory.
        org 8000h
first:  ld hl,0
        ret
        org 8002h
        db 1,2,3                ; overlaps first's block
        org 0FFFEh
        dw 1
        db 2                    ; past $FFFF
        org 70000
