; =============================================================================================
; tokens.asm - the keywords' text, for printing tokens 0xA5-0xFF (spectrum_facts 6.3)
;
; tok_pointers gives each token's zero-terminated text, so that printing one is a look-up.
; =============================================================================================

tok_pointers:
        dw tk_a5, tk_a6, tk_a7, tk_a8, tk_a9, tk_aa
        dw tk_ab, tk_ac, tk_ad, tk_ae, tk_af, tk_b0
        dw tk_b1, tk_b2, tk_b3, tk_b4, tk_b5, tk_b6
        dw tk_b7, tk_b8, tk_b9, tk_ba, tk_bb, tk_bc
        dw tk_bd, tk_be, tk_bf, tk_c0, tk_c1, tk_c2
        dw tk_c3, tk_c4, tk_c5, tk_c6, tk_c7, tk_c8
        dw tk_c9, tk_ca, tk_cb, tk_cc, tk_cd, tk_ce
        dw tk_cf, tk_d0, tk_d1, tk_d2, tk_d3, tk_d4
        dw tk_d5, tk_d6, tk_d7, tk_d8, tk_d9, tk_da
        dw tk_db, tk_dc, tk_dd, tk_de, tk_df, tk_e0
        dw tk_e1, tk_e2, tk_e3, tk_e4, tk_e5, tk_e6
        dw tk_e7, tk_e8, tk_e9, tk_ea, tk_eb, tk_ec
        dw tk_ed, tk_ee, tk_ef, tk_f0, tk_f1, tk_f2
        dw tk_f3, tk_f4, tk_f5, tk_f6, tk_f7, tk_f8
        dw tk_f9, tk_fa, tk_fb, tk_fc, tk_fd, tk_fe
        dw tk_ff
        assert ($ - tok_pointers) / 2 == 0x100 - TK_FIRST

tk_a5:  dz "RND"
tk_a6:  dz "INKEY$"
tk_a7:  dz "PI"
tk_a8:  dz "FN"
tk_a9:  dz "POINT"
tk_aa:  dz "SCREEN$"
tk_ab:  dz "ATTR"
tk_ac:  dz "AT"
tk_ad:  dz "TAB"
tk_ae:  dz "VAL$"
tk_af:  dz "CODE"
tk_b0:  dz "VAL"
tk_b1:  dz "LEN"
tk_b2:  dz "SIN"
tk_b3:  dz "COS"
tk_b4:  dz "TAN"
tk_b5:  dz "ASN"
tk_b6:  dz "ACS"
tk_b7:  dz "ATN"
tk_b8:  dz "LN"
tk_b9:  dz "EXP"
tk_ba:  dz "INT"
tk_bb:  dz "SQR"
tk_bc:  dz "SGN"
tk_bd:  dz "ABS"
tk_be:  dz "PEEK"
tk_bf:  dz "IN"
tk_c0:  dz "USR"
tk_c1:  dz "STR$"
tk_c2:  dz "CHR$"
tk_c3:  dz "NOT"
tk_c4:  dz "BIN"
tk_c5:  dz "OR"
tk_c6:  dz "AND"
tk_c7:  dz "<="
tk_c8:  dz ">="
tk_c9:  dz "<>"
tk_ca:  dz "LINE"
tk_cb:  dz "THEN"
tk_cc:  dz "TO"
tk_cd:  dz "STEP"
tk_ce:  dz "DEF FN"
tk_cf:  dz "CAT"
tk_d0:  dz "FORMAT"
tk_d1:  dz "MOVE"
tk_d2:  dz "ERASE"
tk_d3:  dz "OPEN #"
tk_d4:  dz "CLOSE #"
tk_d5:  dz "MERGE"
tk_d6:  dz "VERIFY"
tk_d7:  dz "BEEP"
tk_d8:  dz "CIRCLE"
tk_d9:  dz "INK"
tk_da:  dz "PAPER"
tk_db:  dz "FLASH"
tk_dc:  dz "BRIGHT"
tk_dd:  dz "INVERSE"
tk_de:  dz "OVER"
tk_df:  dz "OUT"
tk_e0:  dz "LPRINT"
tk_e1:  dz "LLIST"
tk_e2:  dz "STOP"
tk_e3:  dz "READ"
tk_e4:  dz "DATA"
tk_e5:  dz "RESTORE"
tk_e6:  dz "NEW"
tk_e7:  dz "BORDER"
tk_e8:  dz "CONTINUE"
tk_e9:  dz "DIM"
tk_ea:  dz "REM"
tk_eb:  dz "FOR"
tk_ec:  dz "GO TO"
tk_ed:  dz "GO SUB"
tk_ee:  dz "INPUT"
tk_ef:  dz "LOAD"
tk_f0:  dz "LIST"
tk_f1:  dz "LET"
tk_f2:  dz "PAUSE"
tk_f3:  dz "NEXT"
tk_f4:  dz "POKE"
tk_f5:  dz "PRINT"
tk_f6:  dz "PLOT"
tk_f7:  dz "RUN"
tk_f8:  dz "SAVE"
tk_f9:  dz "RANDOMIZE"
tk_fa:  dz "IF"
tk_fb:  dz "CLS"
tk_fc:  dz "DRAW"
tk_fd:  dz "CLEAR"
tk_fe:  dz "RETURN"
tk_ff:  dz "COPY"

