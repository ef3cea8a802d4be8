; DW, DS with and without a fill byte, ALIGN.
        org 8001h
words:  dw 1, -1, words, $
        defw 1234h
        ds 3
        ds 2, 0AAh
        defs 1, -1
        align 8
aligned:
        db 1
        align 4, 0EEh
        db 2
        align 1
        byte 3
        word 4
