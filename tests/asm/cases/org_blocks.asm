; Several ORG blocks: the binary runs from the lowest to the highest address,
; gaps are zeros.
        org 8010h
        db 1,2
        org 8000h
        db 3
        org 8020h
        db 4
