; EQU constants, DEFL and = for values that change.
SCREEN  equ 4000h
ROWS    equ 24
SIZE    equ table_end-table     ; a forward reference
n       defl 1
n       defl n*3
k = 10
k = k+n
        org 8000h
table:  dw SCREEN, ROWS*32, SIZE, n, k
table_end:
n       defl 0                  ; redefined again: the last value goes in the map
        db n
