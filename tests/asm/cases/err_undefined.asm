; Undefined symbols: global, local (with the scope it was looked up in), wrong case.
        org 0
Start:  ld a,nothing
        jp start
.here   jr .there
        dw nothing+1, Start.here
