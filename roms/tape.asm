; =============================================================================================
; tape.asm - SA-BYTES (0x04C2), SA/LD-RET (0x053F) and LD-BYTES (0x0556): the tape
;
; main.asm INCLUDEs this file where its own code stops short of 0x04C2; the file ORGs itself
; there and ends by 0x0700.
;
; Software and emulators call these routines by address with the standard registers
; (spectrum_facts 5.2), so they sit exactly where the 48K keeps them:
;   SA-BYTES   IX = start, DE = length, A = flag byte.  Writes the standard signal (4.1) to MIC.
;   LD-BYTES   IX = destination, DE = length, A = the flag byte wanted, carry set = LOAD,
;              carry clear = VERIFY.  Reads the EAR bit edge by edge.  Carry set on return =
;              every byte came and the checksum is good.
;   SA/LD-RET  the common way out of both: border back from BORDCR, BREAK gives report D.
; Both begin with the bytes that emulators' traps check (SA: LD HL,0x053F / PUSH HL; LD: INC D /
; EX AF,AF' / DEC D), and the other places where emulators of the 48K trap or resume hold the
; instruction they expect there: EX AF,AF' at 0x04D0, RET at 0x053E, RET NZ at 0x056B and
; RET at 0x05E2 (const.asm ENTRY_SA_TRAP, ENTRY_SA_END, ENTRY_LD_TRAP, ENTRY_LD_END).
;
; Timing.  Every pulse SA-BYTES writes is counted in T-states: each OUT-to-OUT interval is a
; fixed part plus 13 T per DJNZ pass, and the fixed parts below are the sums of the instruction
; times noted beside the code (uncontended: this is ROM code).  The only error left is the
; ULA's contention of the OUT itself (and of a BREAK test's IN) when it falls in the 192
; display lines, as on a real 48K: the pilot and sync pulses come out exact, about 2/3 of the
; data pulses too, the rest 1-9 T long (measured in tests/roms/test_tape_routines.py).
; LD-BYTES samples EAR in a loop of 48 T (a multiple of 8, so that the ULA's 8-T contention
; pattern, once met, delays no further pass) and counts the passes in B between edges.
; Tests: tests/roms/test_tape_routines.py.
; =============================================================================================

; --- Constants of this file (const.asm has the rest) -----------------------------------------

TAPE_PILOT_T    equ 2168        ; a pilot pulse (spectrum_facts 4.1)
TAPE_SYNC1_T    equ 667         ; the first sync pulse
TAPE_SYNC2_T    equ 735         ; the second
TAPE_ZERO_T     equ 855         ; each of the two pulses of a 0 bit
TAPE_ONE_T      equ 1710        ; each of the two pulses of a 1 bit
TAPE_DJNZ_T     equ 13          ; one pass of a DJNZ delay (the last pass takes 8)

; Border and MIC while saving: one XOR turns red + MIC low into cyan + MIC high and back, and
; blue + MIC low into yellow + MIC high and back; another turns the pilot's pair into the data's.
TAPE_SA_FLIP    equ RED ^ CYAN ^ ULA_MIC
TAPE_TO_DATA    equ RED ^ BLUE
        assert BLUE ^ YELLOW ^ ULA_MIC == TAPE_SA_FLIP
        assert CYAN ^ YELLOW == TAPE_TO_DATA

; A 1 bit's pulse is a 0 bit's plus 65 DJNZ passes and 10 T (tape_save_pulse).
TAPE_SA_ONE_EXTRA equ (TAPE_ONE_T - TAPE_ZERO_T - 10) / TAPE_DJNZ_T
        assert TAPE_SA_ONE_EXTRA * TAPE_DJNZ_T + 10 == TAPE_ONE_T - TAPE_ZERO_T

; SA-BYTES: the fixed T of each kind of OUT-to-OUT interval (DJNZ passes aside), and the passes.
TAPE_SA_PILOT_FIXED equ 114     ; tape_save_bytes.pilot, one loop
TAPE_SA_LAST_FIXED  equ 114     ; the last pilot pulse: out of that loop into tape_save_pulse
TAPE_SA_SYNC1_FIXED equ 108     ; tape_save_pulse to tape_save_pulse, colours changed between
TAPE_SA_SYNC2_FIXED equ 85      ; tape_save_pulse to tape_save_pulse
TAPE_SA_FLAG_FIXED  equ 140     ; sync 2 to the flag byte's first pulse
TAPE_SA_BIT_FIXED   equ 127     ; a bit's first pulse, within a byte
TAPE_SA_HALF_FIXED  equ 101     ; a bit's second pulse
TAPE_SA_BYTE_FIXED  equ 296     ; the first pulse of a data byte (tape_save_next)
TAPE_SA_SUM_FIXED   equ 205     ; the first pulse of the checksum byte

TAPE_SA_PILOT_LOOPS equ (TAPE_PILOT_T - TAPE_SA_PILOT_FIXED) / TAPE_DJNZ_T
TAPE_SA_LAST_LOOPS  equ (TAPE_PILOT_T - TAPE_SA_LAST_FIXED) / TAPE_DJNZ_T
TAPE_SA_SYNC1_LOOPS equ (TAPE_SYNC1_T - TAPE_SA_SYNC1_FIXED) / TAPE_DJNZ_T
TAPE_SA_SYNC2_LOOPS equ (TAPE_SYNC2_T - TAPE_SA_SYNC2_FIXED) / TAPE_DJNZ_T
TAPE_SA_FLAG_LOOPS  equ (TAPE_ZERO_T - TAPE_SA_FLAG_FIXED) / TAPE_DJNZ_T
TAPE_SA_BIT_LOOPS   equ (TAPE_ZERO_T - TAPE_SA_BIT_FIXED) / TAPE_DJNZ_T
TAPE_SA_HALF_LOOPS  equ (TAPE_ZERO_T - TAPE_SA_HALF_FIXED) / TAPE_DJNZ_T
TAPE_SA_BYTE_LOOPS  equ (TAPE_ZERO_T - TAPE_SA_BYTE_FIXED) / TAPE_DJNZ_T
TAPE_SA_SUM_LOOPS   equ (TAPE_ZERO_T - TAPE_SA_SUM_FIXED) / TAPE_DJNZ_T
        assert (TAPE_PILOT_T - TAPE_SA_PILOT_FIXED) % TAPE_DJNZ_T == 0
        assert (TAPE_PILOT_T - TAPE_SA_LAST_FIXED) % TAPE_DJNZ_T == 0
        assert (TAPE_SYNC1_T - TAPE_SA_SYNC1_FIXED) % TAPE_DJNZ_T == 0
        assert (TAPE_SYNC2_T - TAPE_SA_SYNC2_FIXED) % TAPE_DJNZ_T == 0
        assert (TAPE_ZERO_T - TAPE_SA_FLAG_FIXED) % TAPE_DJNZ_T == 0
        assert (TAPE_ZERO_T - TAPE_SA_BIT_FIXED) % TAPE_DJNZ_T == 0
        assert (TAPE_ZERO_T - TAPE_SA_HALF_FIXED) % TAPE_DJNZ_T == 0
        assert (TAPE_ZERO_T - TAPE_SA_BYTE_FIXED) % TAPE_DJNZ_T == 0
        assert (TAPE_ZERO_T - TAPE_SA_SUM_FIXED) % TAPE_DJNZ_T == 0

; LD-BYTES.  An edge wait (tape_load_edge) started with B = B0 returns with B = B0 + k when the
; edge was seen on its k-th pass; the time from the previous edge wait's sighting to this one is
;       TAPE_LD_EDGE_T + X + TAPE_LD_PASS_T * k
; where X is the T the caller spends between the two waits (excluding the CALL).  For the two
; edges of a bit (tape_load_edge2, K passes in all) it is TAPE_LD_BIT_T + X + TAPE_LD_PASS_T * K.
; Each threshold below is the least B for a pulse (or bit) of at least that many T at its site;
; each B0 makes B overflow, a timeout, for pulses longer than the MAX.
TAPE_LD_PASS_T  equ 48          ; one sampling pass of tape_load_edge
TAPE_LD_EDGE_T  equ 121         ; an edge wait's own T besides its passes
TAPE_LD_BIT_T   equ 247         ; tape_load_edge2's own T besides its passes

TAPE_LD_PILOT_MIN_T equ 1800    ; pilot pulses: at least this (a 1 bit's pulse is 1710) ...
TAPE_LD_PILOT_MAX_T equ 3300    ; ... and below this
TAPE_LD_SYNC_MAX_T  equ 1400    ; sync pulses: below this
TAPE_LD_BIT_MID_T   equ TAPE_ZERO_T + TAPE_ONE_T   ; a bit (two pulses): 1 from here (2565 T)
TAPE_LD_BIT_MAX_T   equ 5500    ; a bit longer than this is a timeout
TAPE_LD_PILOTS      equ 256     ; pilot pulses in a row before a sync pulse counts

TAPE_LD_PILOT_X equ 48          ; X of .pilot's loop
TAPE_LD_SYNC_X  equ 51          ; X of .sync's loop
TAPE_LD_SYNC2_X equ 37          ; X from sync 1 to sync 2
TAPE_LD_BIT_X   equ 47          ; X between the bits of a byte (tape_load_byte)
TAPE_LD_FLAG_X  equ 71          ; X from sync 2 to the flag byte's first bit
TAPE_LD_BYTE_X  equ 195         ; X from a byte to the next byte's first bit (LOAD; 191 VERIFY)

TAPE_LD_PILOT_B0 equ 256 - (TAPE_LD_PILOT_MAX_T - TAPE_LD_EDGE_T - TAPE_LD_PILOT_X) / TAPE_LD_PASS_T
TAPE_LD_PILOT_B  equ TAPE_LD_PILOT_B0 + (TAPE_LD_PILOT_MIN_T - TAPE_LD_EDGE_T - TAPE_LD_PILOT_X + TAPE_LD_PASS_T - 1) / TAPE_LD_PASS_T
TAPE_LD_SYNC_PILOT_B equ TAPE_LD_PILOT_B0 + (TAPE_LD_PILOT_MIN_T - TAPE_LD_EDGE_T - TAPE_LD_SYNC_X + TAPE_LD_PASS_T - 1) / TAPE_LD_PASS_T
TAPE_LD_SYNC1_B  equ TAPE_LD_PILOT_B0 + (TAPE_LD_SYNC_MAX_T - TAPE_LD_EDGE_T - TAPE_LD_SYNC_X + TAPE_LD_PASS_T - 1) / TAPE_LD_PASS_T
TAPE_LD_SYNC2_B  equ TAPE_LD_PILOT_B0 + (TAPE_LD_SYNC_MAX_T - TAPE_LD_EDGE_T - TAPE_LD_SYNC2_X + TAPE_LD_PASS_T - 1) / TAPE_LD_PASS_T
TAPE_LD_BIT_B0   equ 256 - (TAPE_LD_BIT_MAX_T - TAPE_LD_BIT_T - TAPE_LD_BIT_X) / TAPE_LD_PASS_T
TAPE_LD_ONE_B    equ TAPE_LD_BIT_B0 + (TAPE_LD_BIT_MID_T - TAPE_LD_BIT_T - TAPE_LD_BIT_X + TAPE_LD_PASS_T - 1) / TAPE_LD_PASS_T
; A byte's first bit comes after more of the caller's work, which no pass counts: start B
; higher by as many passes, so that TAPE_LD_ONE_B splits its bits at the same length.
TAPE_LD_FLAG_B0  equ TAPE_LD_BIT_B0 + (TAPE_LD_FLAG_X - TAPE_LD_BIT_X + TAPE_LD_PASS_T / 2) / TAPE_LD_PASS_T
TAPE_LD_BYTE_B0  equ TAPE_LD_BIT_B0 + (TAPE_LD_BYTE_X - TAPE_LD_BIT_X + TAPE_LD_PASS_T / 2) / TAPE_LD_PASS_T
        assert TAPE_LD_PILOTS == 256            ; counted by H wrapping round
        assert TAPE_LD_SYNC1_B < TAPE_LD_SYNC_PILOT_B

; =============================================================================================

        assert $ <= ENTRY_SA_BYTES, "the code before tape.asm runs into SA-BYTES"
        org ENTRY_SA_BYTES

; ---------------------------------------------------------------------------------------------
; tape_save_bytes (0x04C2, SA-BYTES) - write a block to tape: pilot, sync, flag, data, checksum
; Input:   IX = the first byte, DE = how many, A = the flag byte (below 0x80: the long pilot
;          of a header, 8063 pulses; else 3223)
; Output:  returns through SA/LD-RET (border restored, interrupts on); carry set when the
;          block went out, clear if BREAK stopped it (SA/LD-RET then gives report D).
;          IX = after the last byte sent, DE = 0.
; Corrupts: AF, BC, DE, HL, AF'
; The signal (spectrum_facts 4.1): each write to port 0xFE flips MIC (an edge) and the border
; (red/cyan during the pilot and sync 1, blue/yellow after).  Each byte goes MSB first, each
; bit as two equal pulses (tape_save_pulse).  A' keeps the running XOR (the checksum).
; ---------------------------------------------------------------------------------------------
tape_save_bytes:
        ld hl, ENTRY_SA_LD_RET          ; (emulators' save traps look for these 4 bytes)
        push hl                         ; every way out goes through SA/LD-RET
        ld hl, PILOT_HEADER
        or a                            ; S = the flag's bit 7: is this a header?
        jp p, .pilot_chosen
        ld hl, PILOT_DATA
.pilot_chosen:
        assert $ == ENTRY_SA_TRAP
        ex af, af'                      ; A' = the flag: first out, and the checksum's start;
                                        ; F' carry clear (OR above): the checksum is not out
        di                              ; the pulses are timed by counting T-states
        ld c, RED                       ; C = the next byte for port 0xFE: red, MIC low

; The pilot: HL writes, 2168 T apart.  Each loop first checks BREAK (50 T when SPACE is up).
; From the OUT to the BREAK test's IN is 72 T, and the loop 2168 T: both multiples of 8, so in
; the display lines the ULA's contention delays the first pilot pulse there and then no more.
.pilot:                                 ; T
        call tape_break_test            ; 50
        jp nc, tape_save_end            ; 10    BREAK: out with carry clear
        ld b, TAPE_SA_PILOT_LOOPS       ; 7
.pilot_wait:
        djnz .pilot_wait                ; 13 per pass, 8 for the last
        ld a, c                         ; 4
        out (ULA_PORT), a               ; 11    the edge
        xor TAPE_SA_FLIP                ; 7
        ld c, a                         ; 4
        dec hl                          ; 6
        ld a, h                         ; 4
        or l                            ; 4
        jr nz, .pilot                   ; 12 (7 when the pilot is done)
        ; 114 T + the passes from one edge to the next.  The edge that ends the pilot's last
        ; pulse (and starts sync 1) comes from tape_save_pulse: 43 T of the loop after the
        ; OUT, then these.
        ld hl, 0                        ; 10    H = 0: the sync pulses have no 1-bit extra
        nop                             ; 4     (HL is 0 already: with the NOPs, 18 T that
        nop                             ; 4     make the pulse a whole number of passes)
        ld b, TAPE_SA_LAST_LOOPS        ; 7
        call tape_save_pulse            ; 17 + 29 before its OUT: 43 + 18 + 7 + 46 = 114
        ld a, c                         ; 4     sync 2 and the data in blue and yellow
        xor TAPE_TO_DATA                ; 7
        ld c, a                         ; 4
        nop                             ; 4     (8 T that make sync 1 a whole number of passes)
        nop                             ; 4
        ld b, TAPE_SA_SYNC1_LOOPS       ; 7
        call tape_save_pulse            ; 32 + 15 + 8 + 7 + 17 + 29 = 108: sync 1 ends
        ld b, TAPE_SA_SYNC2_LOOPS       ; 7
        call tape_save_pulse            ; 32 + 7 + 17 + 29 = 85: sync 2 ends, the data begin

; The flag byte: L = its bits with a marker bit behind them, carry = its bit 7.
        ex af, af'                      ; 4     A = the flag
        ld l, a                         ; 4
        ex af, af'                      ; 4     (A' keeps it as the checksum so far)
        scf                             ; 4
        rl l                            ; 8     carry = bit 7; the marker 1 goes in at bit 0
        sbc a, a                        ; 4
        and TAPE_SA_ONE_EXTRA           ; 7
        ld h, a                         ; 4
        nop                             ; 4     (pad)
        ld b, TAPE_SA_FLAG_LOOPS        ; 7
        jr .send                        ; 12 + 17 + 29, + 32 before: 140

; The bits.  L holds what is left of the byte, then the marker, then zeros.
.bit:                                   ; T
        sla l                           ; 8     carry = the next bit
        jr z, .next_byte                ; 7     only the marker was left: the byte is out
        sbc a, a                        ; 4     A = 0xFF for a 1, 0 for a 0
        and TAPE_SA_ONE_EXTRA           ; 7
        ld h, a                         ; 4     H = the 1 bit's extra passes, or 0
        ld b, TAPE_SA_BIT_LOOPS         ; 7     32 + 12 + 8 + 7 + 4 + 7 + 4 + 7 + 17 + 29 = 127
.send:                                  ; B = passes for the first pulse, H = the bit's extra
        call tape_save_pulse            ; 17
        ld b, TAPE_SA_HALF_LOOPS        ; 7
        nop                             ; 4     (16 T of pad: the second pulse is
        nop                             ; 4     32 + 7 + 16 + 17 + 29 = 101 T + passes)
        nop                             ; 4
        nop                             ; 4
        call tape_save_pulse            ; 17
        jr .bit                         ; 12
.next_byte:
        jp tape_save_next               ; 10

; ---------------------------------------------------------------------------------------------
; tape_save_pulse - wait out one pulse, then write the edge that ends it
; Input:   B = DJNZ passes for a 0 bit's pulse at the caller's site, H = extra passes (0 for
;          a 0 bit and the pilot and sync, TAPE_SA_ONE_EXTRA for a 1 bit), C = the byte to write
; Output:  C = the byte for the next edge (MIC and border flipped)
; Corrupts: AF, B
; 29 T + 13 per pass before the OUT, 32 T after it; a 1 bit adds 10 T (the two taken JRs) and
; its 65 passes: 855 T in all.
; ---------------------------------------------------------------------------------------------
tape_save_pulse:                        ; T
        ld a, h                         ; 4
        or a                            ; 4     NZ for a 1 bit
        jr nz, .one                     ; 7 / 12
.one:   jr nz, .passes                  ; 7 / 12
.passes:
        add a, b                        ; 4
        ld b, a                         ; 4
.wait:  djnz .wait                      ; 13 per pass, 8 for the last
        ld a, c                         ; 4
        out (ULA_PORT), a               ; 11    the edge
        xor TAPE_SA_FLIP                ; 7
        ld c, a                         ; 4
        ret                             ; 10

        assert $ <= ENTRY_SA_END
        ds ENTRY_SA_END - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; tape_save_end (0x053E) - return through SA/LD-RET (its address is on the stack)
; Emulators' save traps resume here after writing the block themselves.
; ---------------------------------------------------------------------------------------------
tape_save_end:
        ret

; ---------------------------------------------------------------------------------------------
; tape_sa_ld_ret (0x053F, SA/LD-RET) - the common way out of SA-BYTES and LD-BYTES
; Input:   carry = the routine's result
; Output:  carry as it came; the border from BORDCR again, MIC and EAR low; interrupts on.
;          If CAPS SHIFT and SPACE are held: report D (BREAK - CONT repeats) instead.
; Corrupts: nothing else (A and the flags are kept)
; ---------------------------------------------------------------------------------------------
        assert $ == ENTRY_SA_LD_RET
tape_sa_ld_ret:
        push af
        ld a, (BORDCR)
        and PAPER_MASK                  ; BORDCR's paper bits (3-5) are the border colour
        rrca
        rrca
        rrca
        out (ULA_PORT), a
        ei
        call tape_break_test
        jr nc, .break
        pop af
        ret
.break:
        raise REPORT_BREAK_CONT

        assert $ <= ENTRY_LD_BYTES
        ds ENTRY_LD_BYTES - $, TRAP_FILL
; ---------------------------------------------------------------------------------------------
; tape_load_bytes (0x0556, LD-BYTES) - load or verify a block from tape
; Input:   IX = where the bytes go, DE = how many, A = the flag byte wanted, carry set = LOAD,
;          carry clear = VERIFY (compare with memory)
; Output:  returns through SA/LD-RET.  Carry set: the block came, flag as wanted, DE bytes
;          loaded (or equal), and the checksum good.  Carry clear: another block's flag (the
;          tape is left playing on, so a second call finds the next block), a VERIFY
;          difference, a checksum error, a pulse missing in the block, or BREAK (report D).
;          IX = after the last byte handled, DE = the bytes not handled.
; Corrupts: AF, BC, HL, AF'
; Until a block's sync has been seen the wait has no time limit (as for LOAD ""): only BREAK
; ends it.  After it, a bit longer than TAPE_LD_BIT_MAX_T (a 1 bit is 3420 T) ends the load.
; The pilot is TAPE_LD_PILOTS pulses in a row of TAPE_LD_PILOT_MIN_T to TAPE_LD_PILOT_MAX_T T;
; then a pulse shorter than TAPE_LD_SYNC_MAX_T is sync 1, and the next, as short, sync 2.
; A bit is 1 when its two pulses last at least TAPE_LD_BIT_MID_T.  Measured with the edge
; quantisation (48 T) included: pilot pulses of 1840-3200 T, syncs up to 1400 T, 0-bit pulses
; up to 1250 T and 1-bit pulses of 1350-2600 T load; a whole tape 15 % fast to 45 % slow.
; C holds the EAR level last seen (bit 6) and the border colour (bits 0-2); each edge flips
; both, which paints the stripes: red/cyan until the sync, blue/yellow in the data.
; ---------------------------------------------------------------------------------------------
tape_load_bytes:
        inc d                           ; (emulators' load traps look for these 3 bytes)
        ex af, af'                      ; A' = the flag wanted, F' carry = LOAD
        dec d
        di                              ; the edges are timed by counting T-states
        ld hl, ENTRY_SA_LD_RET
        push hl                         ; every way out goes through SA/LD-RET
        ld a, WHITE | ULA_MIC           ; white border, MIC high, EAR low (EAR low leaves bit 6
        out (ULA_PORT), a               ; of port 0xFE to the tape alone)
        ld c, RED                       ; EAR taken as low: if it is high, the first wait sees
                                        ; an edge at once and the pilot count drops it
.wait:                                  ; no signal yet: wait for an edge as long as it takes
        ld b, 0
        call tape_load_edge
        jr c, .signal
        assert $ == ENTRY_LD_TRAP
        ret nz                          ; BREAK (NZ; a timeout is Z): out, carry clear
        jr .wait

.signal:                                ; count pilot pulses in a row
        ld h, 0                         ; H = pilot pulses so far
.pilot:                                 ; T
        ld b, TAPE_LD_PILOT_B0          ; 7
        call tape_load_edge
        jr nc, .wait                    ; 7     too long, silence, or BREAK
        ld a, b                         ; 4
        cp TAPE_LD_PILOT_B              ; 7
        jr c, .signal                   ; 7     too short for the pilot: count again
        inc h                           ; 4
        jr nz, .pilot                   ; 12    X = 48
.sync:                                  ; enough pilot: it goes on until a short pulse, sync 1
        ld b, TAPE_LD_PILOT_B0          ; 7
        call tape_load_edge
        jr nc, .wait                    ; 7
        ld a, b                         ; 4
        cp TAPE_LD_SYNC1_B              ; 7
        jr c, .sync2                    ; 7 / 12
        cp TAPE_LD_SYNC_PILOT_B         ; 7
        jr nc, .sync                    ; 12    still pilot; X = 51
        jr .signal                      ;       neither pilot nor sync
.sync2:
        ld b, TAPE_LD_PILOT_B0          ; 7     X = 7 + 4 + 7 + 12 + 7 = 37
        call tape_load_edge
        jr nc, .wait                    ; 7
        ld a, b                         ; 4
        cp TAPE_LD_SYNC2_B              ; 7
        jr nc, .signal                  ; 7     too long for sync 2
        ld a, c                         ; 4
        xor TAPE_TO_DATA                ; 7     the data's stripes: blue and yellow
        ld c, a                         ; 4
        ld b, TAPE_LD_FLAG_B0           ; 7
        call tape_load_byte             ; 17 (+ 7 there) X = 71: L = the flag byte
        ret nc
        ex af, af'                      ; A = the flag wanted
        ld h, a
        ex af, af'                      ; (AF' as it was: the flag, and carry = LOAD)
        ld a, l
        xor h
        ret nz                          ; another block: out, carry clear (XOR cleared it)
                                        ; H = the flag: the checksum so far
.data:                                  ; T     the DE bytes
        ld a, d                         ; 4
        or e                            ; 4
        jr z, .checksum                 ; 7
        ld b, TAPE_LD_BYTE_B0           ; 7
        call tape_load_byte             ; 17 (+ 7 there)
        ret nc                          ; 5
        ld a, h                         ; 4
        xor l                           ; 4
        ld h, a                         ; 4     the checksum so far
        ex af, af'                      ; 4     carry = LOAD
        jr nc, .verify                  ; 7
        ex af, af'                      ; 4
        ld (ix+0), l                    ; 19
        jr .next                        ; 12
.verify:
        ex af, af'
        ld a, (ix+0)
        xor l
        ret nz                          ; a difference: out, carry clear
.next:
        inc ix                          ; 10
        dec de                          ; 6
        jr .data                        ; 12    X = 52 in tape_load_byte + 143 here = 195

        ; (the checksum code ends with the RET that emulators' load traps resume at)
        ds ENTRY_LD_END - ($ + .last - .checksum), TRAP_FILL
.checksum:                              ; then the checksum byte
        ld b, TAPE_LD_BYTE_B0
        call tape_load_byte
        ret nc
        ld a, h
        xor l                           ; 0: the flag, the bytes and the checksum XOR to 0
        ret nz                          ; a tape loading error: carry clear
        scf                             ; loaded
.last:
        assert $ == ENTRY_LD_END
        ret

; ---------------------------------------------------------------------------------------------
; tape_load_byte - read 8 bits from tape, MSB first
; Input:   B = the start of the pass count for the first bit (TAPE_LD_BIT_B0 less the
;          caller's extra work in passes), C = EAR level and border colour (as in LD-BYTES)
; Output:  carry set: L = the byte.  Carry clear: a timeout (or BREAK) in the middle.
;          C updated.
; Corrupts: AF, B
; ---------------------------------------------------------------------------------------------
tape_load_byte:
        ld l, 1                         ; the marker: it reaches carry after the 8th bit
.bit:                                   ; T
        call tape_load_edge2            ; both pulses of the bit
        ret nc                          ; 5
        ld a, b                         ; 4
        cp TAPE_LD_ONE_B                ; 7
        ccf                             ; 4     carry = a long bit: a 1
        ld b, TAPE_LD_BIT_B0            ; 7
        rl l                            ; 8
        jr nc, .bit                     ; 12    X = 47
        ret

; ---------------------------------------------------------------------------------------------
; tape_load_edge2 - wait for two edges (tape_load_edge twice); tape_load_edge - wait for one
; Input:   B = where the pass count starts (below 0xFF), C = EAR level seen last (bit 6) and
;          the border colour (bits 0-2)
; Output:  carry set: an edge came; B = B + the passes it took; C's level and colour flipped,
;          and the border shows the new colour.  Carry clear and Z: B overflowed (a timeout).
;          Carry clear and NZ: BREAK (CAPS SHIFT + SPACE).
; Corrupts: AF
; One call: 86 T to the first sample (CALL and the BREAK test included), a sample every 48 T,
; 83 T from the sample that sees the edge to the return: TAPE_LD_EDGE_T = 83 + 86 - 48.
; The EAR level is read at bit 6 of port 0xFE (with EAR out low it is the tape's alone).
; ---------------------------------------------------------------------------------------------
tape_load_edge2:
        call tape_load_edge
        ret nc
tape_load_edge:                         ; T
        call tape_break_test            ; 50    (17 of it the CALL; SPACE up)
        ret nc                          ; 5
.sample:
        inc b                           ; 4
        jp z, .timeout                  ; 10
        in a, (ULA_PORT)                ; 11    (A = 0 after the first pass: all half-rows)
        xor c                           ; 4
        and ULA_EAR_IN                  ; 7     NZ: the level has changed
        jr z, .sample                   ; 12    48 T a pass
        ld a, c                         ; 4
        xor ULA_EAR_IN | RED ^ CYAN     ; 7     the new level, the other stripe
        ld c, a                         ; 4     (red <-> cyan, blue <-> yellow)
        and ULA_BORDER                  ; 7
        or ULA_MIC                      ; 7
        out (ULA_PORT), a               ; 11
        scf                             ; 4
        ret                             ; 10
.timeout:
        xor a                           ; Z, carry clear
        ret
        assert RED ^ CYAN == BLUE ^ YELLOW

; ---------------------------------------------------------------------------------------------
; tape_break_test - is BREAK (CAPS SHIFT and SPACE) held?
; Output:  carry clear and NZ if both keys are down; carry set otherwise
; Corrupts: A
; 33 T (50 with the CALL) when SPACE is up: the tape loops count on that.
; ---------------------------------------------------------------------------------------------
tape_break_test:                        ; T
        ld a, HALF_ROW_SPACE_B          ; 7
        in a, (ULA_PORT)                ; 11
        rra                             ; 4     carry = SPACE is up
        ret c                           ; 11
        ld a, HALF_ROW_CAPS_V
        in a, (ULA_PORT)
        rra                             ; carry = CAPS SHIFT is up
        ret c
        or 0xFF                         ; both down: NZ, carry clear
        ret

; ---------------------------------------------------------------------------------------------
; tape_save_next - SA-BYTES, between bytes: the next data byte, or the checksum, or the end
; Input:   (reached by JP from tape_save_bytes, 42 T after the last edge) IX, DE = the bytes
;          left; A' = the checksum so far, F' carry set once the checksum has been started
; Output:  continues at tape_save_bytes.send with L, H, B set for the new byte's first bit;
;          or returns (through SA/LD-RET) with carry set when the checksum is out, or clear
;          on BREAK
; Corrupts: AF, B, DE, HL, IX, AF'
; ---------------------------------------------------------------------------------------------
tape_save_next:                         ; T     (42 already: JR, SLA, JR, JP)
        ld a, d                         ; 4
        or e                            ; 4
        jp z, .checksum                 ; 10
        call tape_break_test            ; 50
        ret nc                          ; 5     BREAK: out, carry clear
        ld a, (ix+0)                    ; 19
        inc ix                          ; 10
        dec de                          ; 6
        ld l, a                         ; 4
        ex af, af'                      ; 4     A = the checksum so far
        xor l                           ; 4
        ex af, af'                      ; 4
        nop                             ; 4     (pad)
        nop                             ; 4
        scf                             ; 4
        rl l                            ; 8     carry = bit 7; the marker at bit 0
        sbc a, a                        ; 4
        and TAPE_SA_ONE_EXTRA           ; 7
        ld h, a                         ; 4
        ld b, TAPE_SA_BYTE_LOOPS        ; 7
        jp tape_save_bytes.send         ; 10    32 + 42 + 176 + 17 + 29 = 296
.checksum:
        ex af, af'                      ; 4     A = the checksum; carry: already sent
        jr c, .done                     ; 7
        ld l, a                         ; 4
        scf                             ; 4
        ex af, af'                      ; 4     F' carry set: the checksum is on its way
        scf                             ; 4
        rl l                            ; 8
        sbc a, a                        ; 4
        and TAPE_SA_ONE_EXTRA           ; 7
        ld h, a                         ; 4
        ld b, TAPE_SA_SUM_LOOPS         ; 7
        jp tape_save_bytes.send         ; 10    32 + 42 + 18 + 67 + 17 + 29 = 205
.done:
        ret                             ; carry set: the block is out

        assert $ <= 0x0700, "tape.asm runs past 0x0700"
