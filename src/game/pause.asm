; =============================================================================================
; pause.asm - waiting a number of frames: pause (the idle routine runs) and pause_plain
; (it does not)
;
; Both are shorter in a computer's turn with the fast setting (issue 11: ai_pause_frames,
; v_speed).
; =============================================================================================

; ---------------------------------------------------------------------------------------------
; pause - wait a number of frames (the idle routine runs each frame); shorter in a
; computer's turn with the fast setting (issue 11: ai_pause_frames, v_speed).  While an asking
; line is shown a key typed for the prompt that follows is kept, and it ends the pause: the
; player has read the line (issue 45, keys_ahead_frame)
; Input: B = frames.  Output: NZ and A = a key typed ahead, or Z.  Corrupts: AF, B, DE, HL.
; ---------------------------------------------------------------------------------------------
pause:
        call ai_pause_frames
.frame: halt
        push bc
        call keys_idle
        call keys_ahead_frame
        pop bc
        ret nz                      ; A key typed ahead?  The line has been read.
        djnz .frame
        ret

; ---------------------------------------------------------------------------------------------
; pause_plain - wait frames without the idle routine (so time-up cannot re-enter itself);
; shorter in a computer's turn with the fast setting (ai_pause_frames)
; Input: B = frames.  Output: none.  Corrupts: B.
; ---------------------------------------------------------------------------------------------
pause_plain:
        call ai_pause_frames
.frame: halt
        djnz .frame
        ret
