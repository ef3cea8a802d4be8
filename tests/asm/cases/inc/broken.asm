; Included by err_many.asm: errors here are reported too.
        ld a,nowhere
        db 1,
