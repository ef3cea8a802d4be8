; Expression errors.
        org 0
        db 1/0
        db 5 % 0
        db 1 << 99
        db (1+2
        db 1 2
        db 1 ? 2
        db 1 +
        dw mod 3
