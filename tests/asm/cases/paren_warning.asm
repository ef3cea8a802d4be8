; "(5+3)" is memory where the instruction has a memory form; where it has none,
; the parentheses only group, with a warning (as pasmo does).
        org 0
        ld a,(5+3)              ; LD A,(nn)
        ld a,(5)+3              ; a value: the first ( does not close at the end
        ld a,(1)*(2)
        ld b,(5+3)              ; LD B,(nn) does not exist: a value, and a warning
