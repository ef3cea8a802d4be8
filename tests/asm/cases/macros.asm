; Macros: both definition forms, parameters, local .labels, nesting.
        macro wait, count
        ld b,count
.loop   djnz .loop              ; private to each expansion
        endm

poke    macro addr, value
        ld hl,addr
        ld (hl),value
        endm

        macro twice, what
        what
        what
        endm

        macro pause
        halt
        endm

        org 8000h
main:   wait 3
        wait 200
        poke 4000h, 0FFh
        poke 5800h, a
        twice pause
        pause
        jr .end
.end    ret                     ; main.end: the macro's .loop did not change the scope
