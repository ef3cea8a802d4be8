; =============================================================================================
; sound.asm - the beeper: tones, the click of a moving token, the rattle of the dice
;
; Sound is bit 4 (EAR) of port FEh (spectrum_facts 2.7); the border bits are written with it
; as BORDER_COLOUR so the border does not change.  Pitches are loop counts, not notes: code
; in contended memory (below 8000h) runs a little slower, which only lowers them slightly.
; =============================================================================================

; ---------------------------------------------------------------------------------------------
; snd_tone - a square wave
; Input: DE = half-periods to play, HL = delay per half-period (loop counts, 1..65535).
; Output: played.  Corrupts: AF, BC, DE.
; ---------------------------------------------------------------------------------------------
snd_tone:
        ld a, BORDER_COLOUR
.half:  xor ULA_EAR
        out (ULA_PORT), a
        ld b, h
        ld c, l
.delay: dec bc                      ; 6 + 4 + 4 + 12 = 26 T-states a loop
        push af
        ld a, b
        or c
        jr z, .done
        pop af
        jr .delay
.done:  pop af
        dec de
        push af
        ld a, d
        or e
        jr z, .end
        pop af
        jr .half
.end:   pop af
        ld a, BORDER_COLOUR
        out (ULA_PORT), a
        ret

; ---------------------------------------------------------------------------------------------
; snd_click - the short click of a token stepping one square
; Input: none.  Output: played.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
snd_click:
        ld de, 6
        ld hl, 20
        jr snd_tone

; ---------------------------------------------------------------------------------------------
; snd_rattle - the dice rattling: a burst of random clicks
; Input: none.  Output: played.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
snd_rattle:
        ld b, 24
.loop:  push bc
        call rng_next
        and 0x3F
        add a, 8
        ld l, a
        ld h, 0
        ld de, 4
        call snd_tone
        pop bc
        djnz .loop
        ret

; ---------------------------------------------------------------------------------------------
; snd_beep - a short tone for a message or a key
; Input: none.  Output: played.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
snd_beep:
        ld de, 60
        ld hl, 40
        jr snd_tone

; ---------------------------------------------------------------------------------------------
; snd_low - a low tone: refused, or money lost
; Input: none.  Output: played.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
snd_low:
        ld de, 40
        ld hl, 120
        jr snd_tone
