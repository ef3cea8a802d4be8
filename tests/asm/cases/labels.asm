; Labels with and without colons, local labels, forward references.
        org 8000h
start:  ld b,10
.loop   djnz .loop              ; start.loop
        jr z,finish
        call other.done         ; a local label from outside its scope
other   ld a,(data)
.loop:  dec a                   ; other.loop
        jr nz,.loop
.done   ret
finish: jp start
data:   db 3
