; =============================================================================================
; sound.asm - the beeper: tones, the click of a moving token, the rattle of the dice
;
; Sound is bit 4 (EAR) of port FEh (spectrum_facts 2.7); the border bits are written with it
; as BORDER_COLOUR so the border does not change.  Pitches are loop counts, not notes: code
; in contended memory (below 8000h) runs a little slower, which only lowers them slightly.
; =============================================================================================

; Each sound by name: its PITCH is snd_tone's delay per half-period (loop counts: more is
; lower; a loop is 54 T-states, so a count of n is about 3,500,000 / (108 n) Hz) and its
; LENGTH the half-periods played.
SND_CLICK_PITCH equ 20              ; a token's step: about 1,600 Hz ...
SND_CLICK_LENGTH equ 6              ; ... for three periods, a tick
SND_RATTLE_CLICKS equ 24            ; the dice: this many clicks, each ...
SND_RATTLE_LENGTH equ 4             ; ... two periods long ...
SND_RATTLE_PITCH_MIN equ 8          ; ... at a random pitch from this count ...
SND_RATTLE_PITCH_MASK equ 0x3F      ; ... up to this much more
SND_BEEP_PITCH  equ 40              ; a message or a key: about 800 Hz ...
SND_BEEP_LENGTH equ 60              ; ... for 30 periods (about 40 ms)
SND_LOW_PITCH   equ 120             ; refused, or money lost: about 270 Hz ...
SND_LOW_LENGTH  equ 40              ; ... for 20 periods (about 75 ms)

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
.delay: dec bc                      ; 6 + 11 + 4 + 4 + 7 + 10 + 12 = 54 T-states a loop
        push af
        ld a, b
        or c
        jr z, .done                 ; Is this half-period's delay over?
        pop af
        jr .delay
.done:  pop af
        dec de
        push af
        ld a, d
        or e
        jr z, .end                  ; Are all the half-periods played?
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
        ld de, SND_CLICK_LENGTH
        ld hl, SND_CLICK_PITCH
        jr snd_tone

; ---------------------------------------------------------------------------------------------
; snd_rattle - the dice rattling: a burst of random clicks
; Input: none.  Output: played.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
snd_rattle:
        ld b, SND_RATTLE_CLICKS
.loop:  push bc
        call rng_next
        and SND_RATTLE_PITCH_MASK
        add a, SND_RATTLE_PITCH_MIN
        ld l, a
        ld h, 0
        ld de, SND_RATTLE_LENGTH
        call snd_tone
        pop bc
        djnz .loop
        ret

; ---------------------------------------------------------------------------------------------
; snd_beep - a short tone for a message or a key
; Input: none.  Output: played.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
snd_beep:
        ld de, SND_BEEP_LENGTH
        ld hl, SND_BEEP_PITCH
        jr snd_tone

; ---------------------------------------------------------------------------------------------
; snd_low - a low tone: refused, or money lost
; Input: none.  Output: played.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
snd_low:
        ld de, SND_LOW_LENGTH
        ld hl, SND_LOW_PITCH
        jr snd_tone
