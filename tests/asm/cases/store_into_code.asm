; A store (LD (nn),r) whose address names a label on an instruction changes the code:
; a warning, at the label in the address.  Stores into data, and addresses that are
; numbers or EQU constants, are quiet.
        org 8000h
CODE_TOP equ patch                  ; an EQU is a number, not a label
routine:
        ld (.mode), a               ; warning: .mode labels "ld a,0"
        ld (patch + 1), hl          ; warning: the operand of the CALL at patch
        ld (flag), a                ; data: no warning
        ld (scratch), bc            ; data in a DS: no warning
        ld (CODE_TOP), a            ; no label named: no warning
        ld (8003h), a               ; a number: no warning
.mode:
        ld a, 0                     ; the label sits on the next line's instruction
patch:  call 0
        ld ix, (routine)            ; a load, not a store: no warning
        ld (routine), ix            ; warning
        ret
flag:   db 0
scratch: ds 2
