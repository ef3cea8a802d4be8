; Strings in DB/DM, with escapes, and the DC / DZ terminator conventions.
        org 0
        db "plain", 0
        dm "esc:\n\r\t\\\"\x41\101\0"
        defm 'single ''quotes'' take no \escapes'
        dc "END"                ; bit 7 set on the last character: "EN",'D'+80h
        dc "a", "bc"            ; each string is marked
        dz "zero"               ; a 0 terminator after everything
        db "A"+1, 'a'-32        ; one-character strings are numbers in expressions
