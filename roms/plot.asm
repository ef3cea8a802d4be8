; =============================================================================================
; plot.asm - pixels: PIXEL-ADD (0x22AA) and PLOT-SUB (0x22E5) with the 48K's conventions
;
; Pixel coordinates are as BASIC's PLOT counts them: x 0-255 from the left, y 0-175 from the
; bottom of the upper 22 rows (the lower screen's two rows have no pixel coordinates).
; =============================================================================================

PLOT_TOP        equ 175             ; the highest y: 22 rows of 8 pixel lines, less one

; ---------------------------------------------------------------------------------------------
; pixel_add (PIXEL-ADD, 0x22AA) - where a pixel is in the display file
; Input:   B = y (0-175, 0 at the bottom), C = x (0-255)
; Output:  HL = the display byte holding it, A = its place in that byte (0 = the leftmost,
;          bit 7)
; Corrupts: F.  BC kept.  Report B if y is above 175.
; ---------------------------------------------------------------------------------------------
pixel_add:
        ld a, PLOT_TOP
        sub b
        jr c, .range                ; A = the pixel line from the top, 0-175
        ld l, a
        and 0xC0                    ; the third of the screen: display address bits 11-12
        rrca
        rrca
        rrca
        ld h, a
        ld a, l
        and 7                       ; the line within the character row: bits 8-10
        or h
        or HIGH SCREEN
        ld h, a
        ld a, l
        and 0x38                    ; the character row within the third: bits 5-7
        rlca
        rlca
        ld l, a
        ld a, c
        rrca
        rrca
        rrca
        and 0x1F                    ; the column: bits 0-4
        or l
        ld l, a
        ld a, c
        and 7
        ret
.range: raise REPORT_RANGE

; ---------------------------------------------------------------------------------------------
; plot_sub (PLOT-SUB, 0x22E5) - plot one pixel as PLOT does
; The pixel is set (INVERSE 1: reset; OVER 1: changed, or left with INVERSE 1 too) by the
; temporary P_FLAG, and its cell takes the temporary colours as printing gives them.
; Input:   B = y (0-175), C = x
; Output:  COORDS = x, y
; Corrupts: AF, BC, DE, HL.  Report B if y is above 175.
; ---------------------------------------------------------------------------------------------
plot_sub:
        call pixel_add
        ld (COORDS), bc             ; x, then y
        ld b, a
        inc b
        ld a, 1
.mask:  rrca                        ; 0x80 for place 0, 0x40 for 1, ...
        djnz .mask
        ld b, a
        ld a, (P_FLAG)
        ld c, a
        ld a, b
        bit PF_OVER_T, c
        jr nz, .over
        cpl
        and (hl)                    ; not OVER: the pixel starts as paper
        jr .ink
.over:  ld a, (hl)
.ink:   bit PF_INVERSE_T, c
        jr nz, .store               ; INVERSE: paper (nothing to add)
        xor b                       ; ink (OVER: whatever it was changed)
.store: ld (hl), a
        ld bc, (COORDS)             ; the cell of the pixel: row (175 - y) / 8, column x / 8
        ld a, PLOT_TOP
        sub b
        rrca
        rrca
        rrca
        and 0x1F
        ld b, a
        ld a, c
        rrca
        rrca
        rrca
        and 0x1F
        ld c, a
        jp pr_attr
