; Macro mistakes.
        macro two, x, y
        db x, y
        endm
        macro two               ; defined twice
        endm
        macro m                 ; M is a condition name: reserved
        endm
        macro bad, 1            ; parameters are names
        endm
        macro bad2, hl          ; and not reserved words
        endm
        org 0
        two 1                   ; too few arguments
        two 1, 2, 3             ; too many
        two 1,                  ; an empty argument
        three 1                 ; no such macro
        local x                 ; LOCAL outside a macro
        endm                    ; ENDM without MACRO
        macro unfinished
        nop
