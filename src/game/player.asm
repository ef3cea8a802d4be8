; =============================================================================================
; player.asm - a player's record, piece and kind: player_* and current_record
;
; The records are v_players (PLAYER_RECORD bytes each, fields P_* in vars.asm).
; =============================================================================================

; ---------------------------------------------------------------------------------------------
; player_record - the address of a player's record in v_players
; Input: A = player 0..5.  Output: HL.  Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
player_record:
        ld hl, v_players
        or a
        ret z                       ; Player 0 (the first record)?
        ld de, PLAYER_RECORD
.add:   add hl, de
        dec a
        jr nz, .add                 ; Another record to step over?
        ret

; ---------------------------------------------------------------------------------------------
; current_record - IX = the current player's record
; Input: none.  Output: IX; A = v_current.  Corrupts: DE, HL.
; ---------------------------------------------------------------------------------------------
current_record:
        ld a, (v_current)
        push af
        call player_record
        push hl
        pop ix
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; player_glyph - the character of a player's piece (its token's glyph)
; Input: A = player 0..5.  Output: A = CH_TOKEN + the player's P_TOKEN.  Corrupts: F, DE, HL.
; ---------------------------------------------------------------------------------------------
player_glyph:
        call player_record
        ld de, P_TOKEN
        add hl, de
        ld a, (hl)
        add a, CH_TOKEN
        ret

; ---------------------------------------------------------------------------------------------
; player_computer_playing - whether a player is a computer still in the game
; Input: A = player 0..5.  Output: HL = its record; Z set if a computer still playing.
; Corrupts: AF, DE.
; ---------------------------------------------------------------------------------------------
player_computer_playing:
        call player_record
        ld a, (hl)                  ; (P_FLAGS)
        and 1 << PF_PLAYING | 1 << PF_COMPUTER
        cp 1 << PF_PLAYING | 1 << PF_COMPUTER
        ret

; ---------------------------------------------------------------------------------------------
; player_of_record - the number of the player whose record is in IX
; Input: IX = a record in v_players.  Output: A = the player 0..5.  Corrupts: F.
; ---------------------------------------------------------------------------------------------
player_of_record:
        push hl
        push de
        push ix
        pop hl
        ld de, v_players
        or a
        sbc hl, de                  ; HL = the record's offset: a multiple of PLAYER_RECORD
        ld a, l                     ; (under 6 * PLAYER_RECORD < 256: L alone)
        assert MAX_PLAYERS * PLAYER_RECORD < 256
        ld e, -1
.count: inc e
        sub PLAYER_RECORD
        jr nc, .count               ; Another whole record in the offset?
        ld a, e
        pop de
        pop hl
        ret
