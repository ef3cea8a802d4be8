; Conditional assembly mistakes.
        org 0
        else
        endif
        if 1
        else
        else
        endif
        if undefined_name
        db 1
        endif
        ifdef 5
        endif
        if 1
        db 2
