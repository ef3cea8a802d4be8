; =============================================================================================
; move.asm - moving a token square by square, and the salary at GO
;
; Booklet part A "GO" (A10: £200 on passing or landing on GO; a card may say otherwise).
; =============================================================================================

STEP_FRAMES     equ 1               ; frames a token rests on each square it passes (drawing
                                    ; its close-up takes about two more)
SALARY_PAUSE    equ 15              ; frames the GO salary's message stays before the move goes on

; ---------------------------------------------------------------------------------------------
; move_forward - move the current token forward square by square, collecting the salary on
; passing or landing on GO (A10)
; Input: IX = player, A = squares (1..39).  Output: P_SQUARE; the close-up shows the square.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_forward:
        ld c, 1
        ; continues into move_forward_salary

; ---------------------------------------------------------------------------------------------
; move_forward_salary - move_forward, paying the salary at GO only if C is not 0 (a card may
; say "if you pass GO")
; Input: IX = player, A = squares, C = 1 to pay at GO, 0 not.  Output: as move_forward.
; Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_forward_salary:
        ld b, a
        ld a, c
        ld (move_pays), a
        ld a, (ix+P_SQUARE)
        ld (move_from), a
.step:  push bc
        ld a, (ix+P_SQUARE)
        inc a
        cp BOARD_SQUARES
        jr c, .same_lap             ; Is the next square on this lap (not round to GO)?
        xor a
.same_lap:
        call move_token_to
        ld a, (ix+P_SQUARE)
        or a
        jr nz, .on                  ; Did this step miss GO?
        ld a, (move_pays)
        or a
        call nz, move_salary        ; Does this move pay the salary at GO (passing or landing)?
.on:    pop bc
        djnz .step
        ld e, 0
        call move_record
        ld a, (ix+P_SQUARE)
        push ix
        call closeup_show
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; move_record - declare a move from move_from to the square the token stands on now
; Input: IX = player, E = 0 forwards, 1 backwards.  Output: recorded.  Corrupts: AF, BC, D,
; HL.
; ---------------------------------------------------------------------------------------------
move_record:
        call player_of_record
        ld b, a
        ld a, (move_from)
        ld c, a
        ld d, (ix+P_SQUARE)
        ld hl, 0
        ld a, EVK_MOVE
        jp event_emit

; ---------------------------------------------------------------------------------------------
; move_backward - move the current token back square by square (no salary going back)
; Input: IX = player, A = squares.  Output: P_SQUARE; the close-up.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_backward:
        ld b, a
        ld a, (ix+P_SQUARE)
        ld (move_from), a
.step:  push bc
        ld a, (ix+P_SQUARE)
        or a
        jr nz, .down                ; Is the token anywhere but GO (no wrap back to the last square)?
        ld a, BOARD_SQUARES
.down:  dec a
        call move_token_to
        pop bc
        djnz .step
        ld e, 1
        call move_record
        ld a, (ix+P_SQUARE)
        push ix
        call closeup_show
        pop ix
        ret

; ---------------------------------------------------------------------------------------------
; move_token_to - put the token on a square: redraw both squares, click, a short pause
; Input: IX = player, A = the new square.  Output: P_SQUARE = A.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_token_to:
        ld c, (ix+P_SQUARE)
        ld (ix+P_SQUARE), a
        push af
        ld a, c
        push ix
        call board_draw_square
        pop ix
        pop af
        push ix
        call board_draw_square
        ld a, (ix+P_SQUARE)         ; the close-up follows the token, square by square
        call closeup_show
        call snd_click
        pop ix
        ld b, STEP_FRAMES
        jp pause_plain

; ---------------------------------------------------------------------------------------------
; move_salary - GO passed or landed on: £200 from the Bank (A10)
; Input: IX = player.  Output: P_CASH + GO_SALARY.  Corrupts: AF, BC, DE, HL.
; ---------------------------------------------------------------------------------------------
move_salary:
        ld hl, str_move_salary
        call msg_show
        ld hl, GO_SALARY
        EVENT_CAUSE EVK_SALARY
        call bank_receive_ix
        call snd_beep
        ld b, SALARY_PAUSE          ; seen even when the move ends on GO
        jp pause_plain

str_move_salary:     db "GO: collect ", CH_POUND, "200 salary.", 0
