; Corpus for the byte-for-byte comparison with pasmo: directives, expressions and
; numbers written in the syntax both assemblers read the same way. (No operator
; precedence that differs between them: pasmo gives unary minus, HIGH and LOW the
; lowest precedence and puts SHL/SHR with * and /.)

SCREEN      equ 4000h
COLS        equ 32
ROWS        equ 24
ATTRS       equ SCREEN+6144
count       defl 1
count       defl count+2

            org 8000h
start:      di
            ld sp,0FFFFh
            ld hl,SCREEN
            ld de,SCREEN+1
            ld bc,6143
            ld (hl),0
            ldir
            call set_border
            ld a,(ATTR_P)
            ld (variables),a
            jp main

            include "corpus_inc.asm"

; Numbers in every notation.
numbers:    db 255, $FF, #FF, 0xFF, 0FFh, 0ffh
            db %1010, 1010b, 17o, 17q, 10d, 0
            db 'A', "B", 'it''s', "q\"q"
            db "tab\there\r\n", "\x41\101\\"
            dw 1234h, $1234, 4660, -1, 'x'
            defb 1, 2, 3
            defm "defm text"
            defw numbers, $, main

; Expressions.
exprs:      db 1+2*3, (1+2)*3, 100/7, 100 mod 7, 100 % 7
            db 5 and 3, 5 or 8, 5 xor 3, not 0 and 0Fh, ~1 and 0Fh
            db 5 & 3, 5 | 8
            db 1 shl 4, 80h shr 3, 1 << 3, 40h >> 2
            db 2 = 2, 2 = 3, 2 != 3, 1 < 2, 2 <= 2, 3 > 4, 4 >= 4
            db 2 eq 2, 2 ne 2, 1 lt 2, 1 le 0, 1 gt 0, 1 ge 2
            db (1 < 2) and 7, (1 > 2) or 3
            db 1 ? 10 : 20, 0 ? 10 : 20
            db 1 && 1, 1 && 0, 0 || 1, 0 || 0, !0, !7
            db high(1234h), low(1234h), high 5678h, low 5678h
            db -5, +5, -128
            dw -2, COLS*ROWS, ATTRS, finish-start, $-exprs
            db count, ROWS-COLS+40h

; Space.
space:      ds 4
            ds 3, 0AAh
            defs 2, 55h
            ds 2, -1

; Conditionals.
            if COLS = 32
            db 'y'
            if ROWS > 30
            db 'n'
            else
            db 'z'
            endif
            else
            db 'n'
            endif
            if 0
            db 'n'
            endif

; Macros: both definition forms, parameters and LOCAL labels.
fill        macro addr, len, value
            ld hl,addr
            ld bc,len
            ld (hl),value
            endm

            macro wait, ticks
            local again
            ld b,ticks
again:      djnz again
            endm

main:       fill ATTRS, 768, 38h
            wait 10
            wait 20
            rept 3
            nop
            endm
            call delay
            jr main

delay       proc
            local loop
            ld b,0
loop:       djnz loop
            ret
            endp

            incbin "corpus.dat"

variables:  db 0
table:      dw start, numbers, exprs, space, main, delay
            org 9000h
later:      db "second block", 0
            jp start
finish:
