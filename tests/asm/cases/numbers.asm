; Every number notation, and character constants.
        org 0
        db 255, $FF, #FF, 0xFF, 0FFh, 0ffH      ; hex: six ways
        db %1010, 0b1010, 1010b, 1010B          ; binary
        db 17o, 17q, 99d, 1_0                   ; octal, explicit decimal, digit separator
        db 'A', "A", ''''                        ; characters
        and %00001111                           ; after a blank, % starts a binary number
        db 7%4, 7 % 4                           ; right after an operand it is modulo
        dw $ABCD, 0BEEFh, 0x1234, 65535, -1, -32768
