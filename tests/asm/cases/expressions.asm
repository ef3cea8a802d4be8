; Operator precedence (C-like) and every operator.
        org 0
        db 1+2*3, (1+2)*3, 1<<2+1, 7&3|8, 1|2^3&1
        db 10-2-3, 100/10/5, -7/2, -7%3, 7 mod 3
        db ~0 & 0Fh, !0 & 1, !5, -(-3)
        db 1==1, 1=2, 1!=2, 1<>1, 1<2, 2<=1, 3>2, 3>=4
        db 1 eq 1, 1 ne 1, 1 lt 2, 1 le 0, 2 gt 1, 1 ge 2
        db 1 && 2, 0 || 0, 1 ? 5 : 6, 0 ? 5 : 6
        db 5 and 3, 5 or 8, 5 xor 3, not 0 and 0Fh, 1 shl 4, 100h shr 4
        db LOW(1234h), HIGH(1234h), low 5678h, high 5678h, HIGH(1234h)+1
        dw $, $+2, ($-2)/2
