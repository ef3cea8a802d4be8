; END stops the assembly and gives the entry point.
        org 8000h
data:   db 1, 2
start:  ret
        end start
        this line is never read
