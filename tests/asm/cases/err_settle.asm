; A layout that never settles: the DS size depends on where it ends.
        org 0
        ds 1-(x&1)
x:      db 0
