TWO     equ 2
inc_label:
        db ONE, TWO
