; An INCLUDE cycle.
        org 0
        include "inc/cycle_a.asm"
