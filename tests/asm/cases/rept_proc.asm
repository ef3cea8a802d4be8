; REPT blocks (with a DEFL counter) and pasmo-style PROC / LOCAL.
i_      defl 0
        org 0
        rept 4
        db i_*i_
i_      defl i_+1
        endm
        rept 2
.self   jr .self                ; each repetition has its own .self
        endr
delay   proc
        local loop
        ld b,0
loop    djnz loop
        ret
        endp
wait    proc
        local loop
loop    jr loop
        endp
