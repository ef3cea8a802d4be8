; IF / ELSEIF / ELSE / ENDIF, nested; IFDEF / IFNDEF; false branches are not assembled.
LEVEL   equ 2
        org 0
        if LEVEL == 1
        db 1
        elseif LEVEL == 2
        db 2
        if 0
        db 99
        else
        db 3
        endif
        else
        db 4
        endif
        ifdef LEVEL
        db 5
        endif
        ifndef UNDEFINED_NAME
        db 6
        endif
        if 0
        this line is never assembled, so it is no error
        endif
        if later > 3            ; a forward reference settles over passes
        db 7
        endif
later:
