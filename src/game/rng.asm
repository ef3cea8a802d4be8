; =============================================================================================
; rng.asm - random numbers (xorshift on v_seed) and the dice
;
; A 16-bit xorshift (shifts 7, 9, 8) visits all 65,535 non-zero states.  The title screen
; seeds it from the frame count when a key is pressed; the harness may write v_seed (a test
; hook) before the packs are shuffled, and v_rig_dice to choose the next throw.
; ---------------------------------------------------------------------------------------------

; ---------------------------------------------------------------------------------------------
; rng_next - the next random byte
; Input: none.  Output: A random, HL the new v_seed.  Corrupts: F.
; ---------------------------------------------------------------------------------------------
rng_next:
        ld hl, (v_seed)
        ld a, h
        or l
        jr nz, .go                  ; Is the seed anything but 0 (xorshift's fixed point)?
        inc hl                      ; 0 is xorshift's fixed point: leave it
.go:    ld a, h                     ; x ^= x << 7
        rra
        ld a, l
        rra
        xor h
        ld h, a
        ld a, l
        rra
        ld a, h                     ; x ^= x >> 9
        rra
        xor l
        ld l, a
        xor h                       ; x ^= x << 8
        ld h, a
        ld (v_seed), hl
        ld a, l
        xor h
        ret

; ---------------------------------------------------------------------------------------------
; rng_below - a random number below n
; Input: A = n (1..255).  Output: A = 0..n-1.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
rng_below:
        ld e, a
        call rng_next
        ld h, a                     ; (random * n) >> 8
        ld l, 0
        ld d, l
        ld a, 8
.mul:   add hl, hl                  ; HL = H * E, shift-and-add
        jr nc, .skip                ; Was this bit of the random byte clear (nothing to add)?
        add hl, de
.skip:  dec a
        jr nz, .mul                 ; Another of the eight bits to go?
        ld a, h
        ret

; ---------------------------------------------------------------------------------------------
; dice_throw - throw two dice (or take the rigged throw) into v_dice
; Input: none.  Output: v_dice set; A = total; carry set for a double.  v_rig_dice cleared.
; Corrupts: F, C, DE, HL.
; ---------------------------------------------------------------------------------------------
dice_throw:
        ld hl, (v_rig_dice)         ; L = first face, H = second
        ld a, l
        or a
        jr z, .random               ; No rigged throw waiting (first face 0)?
        ld de, 0
        ld (v_rig_dice), de         ; used once
        jr .store
.random:
        ld a, 6
        call rng_below
        inc a
        ld c, a
        ld a, 6
        call rng_below
        inc a
        ld h, a
        ld l, c
.store: ld (v_dice), hl
        ld a, l
        cp h                        ; Is it a double?
        ld a, l
        jr nz, .single              ; Two different faces (not a double)?
        add a, h
        scf
        ret
.single:
        add a, h                    ; (2..12: no carry)
        ret
