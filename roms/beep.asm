; =============================================================================================
; beep.asm - BEEP duration, pitch: a square wave on the speaker (bit 4 of port 0xFE)
;
; The duration is in seconds, 0 to 10.  This BASIC has no fractions, so BEEP alone reads a
; number written with a decimal point (BEEP .5,0 / BEEP 0.25,12 / BEEP 1,0) from its digits,
; to the millisecond (three decimals; more are ignored); any other expression counts whole
; seconds.  The pitch is an integer -60 .. 69, in semitones from middle C (261.63 Hz):
; f = 261.63 * 2^(p/12).  Report B otherwise.  Interrupts are off while it sounds (FRAMES
; stands still); BREAK stops it with report D.
;
; The wave: a half period H (T-states, 3.5 MHz) from beep_table - the lowest octave,
; p = -60 .. -49 - halved once per octave up.  Each half period the loop toggles bit 4 (the
; border colour from BORDCR in bits 0-2), subtracts the half period from what is left of the
; duration (in 4-T units: ms * 875), looks at BREAK, then waits: BEEP_OVERHEAD T-states of its
; own, 0-5 NOPs (4 T each) and a counted loop of 24 T a turn.  Notes above about p = 65 come
; out at the shortest wave it can make (BEEP_OVERHEAD + 24 T a half period: about 11 kHz).
; =============================================================================================

BEEP_OVERHEAD   equ 132             ; T-states of a half period besides the NOPs and the loop
BEEP_LOOP       equ 24              ; T-states of a turn of the counted loop
BEEP_MAX_MS     equ 10000
BEEP_LOW        equ 60              ; the lowest pitch is -60
BEEP_PITCHES    equ 130             ; -60 .. 69
BEEP_EAR        equ 0x10            ; bit 4 of port 0xFE: the speaker

; beep_table - the half period in T-states of the 12 notes p = -60 .. -49, three bytes each
; (low word, high byte): round(3,500,000 / (2 * 261.63 * 2^(p/12))).
beep_table:
        dw 0x441b
        db 0x03                     ;  0: 214043 T
        dw 0x152d
        db 0x03                     ;  1: 202029 T
        dw 0xe8e2
        db 0x02                     ;  2: 190690 T
        dw 0xbf14
        db 0x02                     ;  3: 179988 T
        dw 0x979e
        db 0x02                     ;  4: 169886 T
        dw 0x725f
        db 0x02                     ;  5: 160351 T
        dw 0x4f37
        db 0x02                     ;  6: 151351 T
        dw 0x2e08
        db 0x02                     ;  7: 142856 T
        dw 0x0eb6
        db 0x02                     ;  8: 134838 T
        dw 0xf127
        db 0x01                     ;  9: 127271 T
        dw 0xd53f
        db 0x01                     ; 10: 120127 T
        dw 0xbae9
        db 0x01                     ; 11: 113385 T

; ---------------------------------------------------------------------------------------------
; BEEP duration, pitch
; ---------------------------------------------------------------------------------------------
st_beep:
        call beep_duration          ; BC = milliseconds
        push bc
        call expect_comma
        call ev_expr                ; the pitch: + 60 must be 0 .. 129
        ld hl, BEEP_LOW
        add hl, bc
        jr nc, .sum
        inc de
.sum:   ld a, d
        or e
        or h
        jp nz, beep_range
        ld a, l
        cp BEEP_PITCHES
        jp nc, beep_range
        push af
        call at_end
        jp nz, stmt_nonsense
        pop af
        ld b, 0xFF                  ; B = octave, A = note in it
.octave:
        inc b
        sub 12
        jr nc, .octave
        add a, 12
        ld l, a
        ld h, 0
        ld e, l
        ld d, h
        add hl, hl
        add hl, de
        ld de, beep_table
        add hl, de
        ld a, (hl)
        inc hl
        ld c, (hl)
        inc hl
        ld e, (hl)
        ld l, a
        ld h, c                     ; E:HL = the half period in the lowest octave ...
        inc b
.halve: dec b
        jr z, .period
        srl e
        rr h
        rr l
        jr .halve                   ; ... and in this one
.period:
        ld bc, BEEP_OVERHEAD        ; the wait: H - the overhead, at least one turn
        and a
        sbc hl, bc
        jr nc, .wait
        dec e
.wait:  bit 7, e
        jr nz, .shortest
        ld a, e
        or h
        jr nz, .split
        ld a, l
        cp BEEP_LOOP
        jr nc, .split
.shortest:
        ld hl, BEEP_LOOP
        ld e, 0
.split: ld a, l                     ; turns = wait / 24 = (wait / 8) / 3
        and 7
        push af
        srl e
        rr h
        rr l
        srl e
        rr h
        rr l
        srl e
        rr h
        rr l
        ld b, h
        ld c, l
        ld de, 3
        call num_div16              ; BC = turns, HL = the rest / 8
        pop af
        ld d, a
        ld a, l
        add a, a
        add a, a
        add a, a
        add a, d                    ; the rest: 0 - 23 T
        srl a
        srl a                       ; NOPs: 0 - 5
        push bc
        ld h, b                     ; the half period as made, in 4-T units:
        ld l, c                     ; turns * 6 + NOPs + overhead / 4
        add hl, bc
        ld d, h
        ld e, l
        add hl, hl
        add hl, de
        ld e, a
        ld d, 0
        add hl, de
        ld e, BEEP_OVERHEAD / 4
        add hl, de
        pop de                      ; DE = turns
        push hl
        neg
        add a, 5
        ld c, a
        ld b, 0
        ld ix, beep_nops
        add ix, bc                  ; where the wait starts
        pop hl
        ex (sp), hl                 ; HL = milliseconds (the half period kept)
        push de
        ld b, h
        ld c, l
        ld de, 875
        call num_mul16              ; E:HL = the duration in 4-T units
        ld a, (BORDCR)
        rrca
        rrca
        rrca
        and 7
        ld c, a                     ; C = port byte (speaker off), B:HL = what is left
        ld b, e
        exx
        pop de                      ; DE' (the main set while beeping) = turns
        exx
        pop de                      ; DE = the half period / 4
        exx                         ; (the main set: turns and the wait's start)
        di
beep_half:
        exx                         ; 4
        ld a, c                     ; 4
        xor BEEP_EAR                ; 7
        ld c, a                     ; 4
        out (ULA_PORT), a           ; 11  the speaker the other way
        and a                       ; 4
        sbc hl, de                  ; 15  a half period less to go
        ld a, b                     ; 4
        sbc a, 0                    ; 7
        ld b, a                     ; 4
        exx                         ; 4
        jr c, beep_done             ; 7
        ld a, HALF_ROW_SPACE_B      ; 7
        in a, (ULA_PORT)            ; 11
        rra                         ; 4   SPACE?
        jr nc, beep_space           ; 7
beep_wait:
        ld b, d                     ; 4
        ld c, e                     ; 4
        jp (ix)                     ; 8   (132 T with the JR at the end)
beep_nops:
        nop
        nop
        nop
        nop
        nop
.turn:  dec bc                      ; 6
        ld a, b                     ; 4
        or c                        ; 4
        jp nz, .turn                ; 10
        jr beep_half                ; 12
beep_space:
        ld a, HALF_ROW_CAPS_V
        in a, (ULA_PORT)
        rra                         ; CAPS SHIFT too: BREAK
        jr c, beep_wait
        ei
        raise REPORT_BREAK_CONT
beep_done:
        ei
        ret

beep_range:
        raise REPORT_RANGE

; ---------------------------------------------------------------------------------------------
; beep_duration - BEEP's first number, in milliseconds
; Output:  BC = 0 - 10000; CH_ADD after it.  Report B if it is more than 10 seconds.
; Corrupts: AF, DE, HL
; ---------------------------------------------------------------------------------------------
beep_duration:
        rst ENTRY_GET_CHAR
        cp "."
        jr z, .literal
        sub "0"
        cp 10
        jr nc, .expr
.literal:                           ; a number as written, if a comma follows it
        push hl
        call num_parse_int          ; whole seconds
        ld a, d
        or e
        or b
        jr nz, .range
        ld a, c
        cp BEEP_MAX_MS / 1000 + 1
        jr nc, .range
        push hl
        ld de, 1000
        call num_mul16
        ld b, h
        ld c, l
        pop hl
        ld a, (hl)
        cp "."
        jr nz, .hidden
        inc hl
        ld de, 100                  ; tenths, hundredths, thousandths
        call .digit
        ld de, 10
        call .digit
        ld de, 1
        call .digit
.rest:  ld a, (hl)
        sub "0"
        cp 10
        jr nc, .hidden
        inc hl
        jr .rest
.hidden:
        ld a, (hl)
        cp CC_NUMBER
        jr nz, .other
        ld de, NUMBER_SIZE + 1
        add hl, de
        ld (CH_ADD), hl
        rst ENTRY_GET_CHAR
        cp ","
        jr nz, .other
        pop af                      ; (the start)
        jr .check
.other: pop hl                      ; not a number alone: an expression from the start
        ld (CH_ADD), hl
.expr:  call ev_expr                ; whole seconds: 0 - 10
        ld a, d
        or e
        or b
        jr nz, .range
        ld a, c
        cp BEEP_MAX_MS / 1000 + 1
        jr nc, .range
        ld de, 1000
        call num_mul16
        ld b, h
        ld c, l
.check: ld hl, BEEP_MAX_MS
        and a
        sbc hl, bc
        ret nc
.range: raise REPORT_RANGE
.digit: ld a, (hl)                  ; BC += the digit at HL * DE, HL on (none: nothing)
        sub "0"
        cp 10
        ret nc
        inc hl
        push hl
        ld h, b
        ld l, c
.times: or a
        jr z, .added
        add hl, de
        dec a
        jr .times
.added: ld b, h
        ld c, l
        pop hl
        ret

; ---------------------------------------------------------------------------------------------
; beeper (BEEPER, 0x03B5) - a square wave on the speaker, as machine code calls the 48K's
; Each half cycle lasts 4 * HL + BEEPER_HALF_FIXED T-states, so for a note of f Hz
; HL = 437500 / f - 30.125 and DE = f * seconds - 1, as BEEP works them out on the 48K.
; (From HL = 1024 up each 256 turns of the wait add 11 T: at most 0.3% lower.)  Interrupts
; are off while it sounds and on again after; the border keeps BORDCR's colour.
; Input:   HL = the tone, DE = the cycles less one (DE + 1 whole cycles are played)
; Output:  interrupts enabled
; Corrupts: AF, BC, DE, IX.  HL kept.
; ---------------------------------------------------------------------------------------------
BEEPER_HALF_FIXED equ 120           ; the 48K's half cycle: 4 * HL + 120.5 T
beeper:
        di
        push hl
        ld a, l
        cpl
        and 3                       ; the sled's NOPs to skip: 3 - (HL mod 4)
        ld c, a
        ld b, 0
        ld ix, .sled
        add ix, bc
        srl h
        rr l
        srl h
        rr l                        ; HL = turns of the 16-T wait, less one (HL / 4)
        inc h                       ; H = passes of the outer count
        inc l                       ; L = turns of the first pass (0 = 256)
        inc de                      ; DE = whole cycles
        ld a, (BORDCR)
        rrca
        rrca
        rrca
        and 7                       ; A = the port byte, speaker off
.half:  ld b, h                     ; 4     (the T-states of a half cycle, besides the
        ld c, l                     ; 4      sled's NOPs and the wait)
        nop                         ; 4
        nop                         ; 4
        and 0xFF                    ; 7     (timing only)
        xor BEEP_EAR                ; 7
        out (ULA_PORT), a           ; 11
        jp (ix)                     ; 8
.sled:  nop                         ; 4 each: HL mod 4 of them
        nop
        nop
.wait:  dec c                       ; 4
        jr nz, .wait                ; 12 / 7
        dec b                       ; 4
        jr nz, .wait                ; 12 / 7
        bit 4, a                    ; 8     (BEEP_EAR: the speaker is on)
        jr nz, .first               ; 12 / 7
        dec de                      ; 6
        ld c, a                     ; 4
        ld a, d                     ; 4
        or e                        ; 4
        ld a, c                     ; 4
        jr nz, .half                ; 12
        pop hl
        ei
        ret
.first: nop                         ; 4     as long as the count after the second half
        nop                         ; 4
        nop                         ; 4
        ld b, 0                     ; 7
        jp .half                    ; 10
        assert BEEP_EAR == 1 << 4
