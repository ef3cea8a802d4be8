; =============================================================================================
; const.asm - every fixed address, port, key, character code, token and report code by name
;
; Facts from shared/reference/spectrum_facts.md (sections 2-6).  The system variables are in
; sysvars.asm.  Nothing here emits a byte.
; =============================================================================================

; --- The machine: memory map, screen, ULA port, key matrix, colours (one file for both programs)
        include "hardware.asm"

; --- Fixed entry points: software calls these addresses (section 5.1, 5.2, 5.3) ---------------
ENTRY_START     equ 0x0000          ; RST 0: power-on
ENTRY_ERROR     equ 0x0008          ; RST 8: report (code byte follows the RST)
ENTRY_PRINT_A   equ 0x0010          ; RST 10h: print A on the current channel
ENTRY_GET_CHAR  equ 0x0018          ; RST 18h
ENTRY_NEXT_CHAR equ 0x0020          ; RST 20h
ENTRY_FP_CALC   equ 0x0028          ; RST 28h: the calculator (a stub here: report C)
ENTRY_BC_SPACES equ 0x0030          ; RST 30h
ENTRY_MASK_INT  equ 0x0038          ; RST 38h / IM 1 interrupt
ENTRY_NMI       equ 0x0066
ENTRY_KEY_SCAN  equ 0x028E          ; read the matrix: DE = key values (48K numbering)
ENTRY_KEYBOARD  equ 0x02BF          ; the interrupt's keyboard scan
ENTRY_BEEPER    equ 0x03B5          ; HL = tone, DE = cycles - 1: a square wave on the speaker
ENTRY_SA_BYTES  equ 0x04C2          ; save a block
ENTRY_SA_TRAP   equ 0x04D0          ; EX AF,AF' in SA-BYTES: emulators' save trap
ENTRY_SA_END    equ 0x053E          ; a RET into SA/LD-RET: where a save trap resumes
ENTRY_SA_LD_RET equ 0x053F          ; common exit of SA-BYTES and LD-BYTES
ENTRY_LD_BYTES  equ 0x0556          ; load (or verify) a block
ENTRY_LD_TRAP   equ 0x056B          ; RET NZ in LD-BYTES: emulators' load trap
ENTRY_LD_END    equ 0x05E2          ; a RET into SA/LD-RET: where a load trap resumes
ENTRY_PO_NONE   equ 0x096F          ; a RET: "POKE 23739,111" sends channel S here to hide text
ENTRY_PRINT_OUT equ 0x09F4          ; output routine of channels K, S and P
ENTRY_CLS       equ 0x0D6B          ; clear the whole screen
ENTRY_CL_ALL    equ 0x0DAF          ; clear the whole screen, COORDS to 0
ENTRY_CL_SET    equ 0x0DD9          ; B = 24 - line, C = 33 - column: set the print position
ENTRY_CL_LINE   equ 0x0E44          ; B = lines to clear at the bottom of the display
ENTRY_ADD_CHAR  equ 0x0F81          ; output routine of channel R (into the edit line)
ENTRY_KEY_INPUT equ 0x10A8          ; input routine of channel K
ENTRY_CHAN_DATA equ 0x15AF          ; the 21 bytes copied to CHANS at power-on
ENTRY_REPORT_J  equ 0x15C4          ; input routine of S, R, P: report J
ENTRY_CHAN_OPEN equ 0x1601          ; A = stream: make it the current channel
ENTRY_BREAK_KEY equ 0x1F54          ; carry clear if BREAK (CAPS SHIFT + SPACE) is pressed
ENTRY_OUT_NUM_1 equ 0x1A1B          ; print BC (0-9999) with no leading zeros or spaces
ENTRY_PR_STRING equ 0x203C          ; print BC characters from DE
ENTRY_PIXEL_ADD equ 0x22AA          ; B = y (0 at the bottom), C = x: HL = screen byte, A = bit
ENTRY_PLOT_SUB  equ 0x22E5          ; B = y, C = x: plot a pixel (OVER, INVERSE, colours)
ENTRY_STACK_A   equ 0x2D28          ; A onto the calculator stack
ENTRY_STACK_BC  equ 0x2D2B          ; BC onto the calculator stack
ENTRY_FP_TO_BC  equ 0x2DA2          ; (not provided: a trap, report C)
ENTRY_PRINT_FP  equ 0x2DE3          ; print (and drop) the top of the calculator stack
; Every byte of the ROM that is not ours - the padding up to each fixed address, and so every
; 48K address this ROM does not provide - is TRAP_FILL: RST 28h, the calculator this ROM does
; not have, which stops with report C.  A program that calls a routine we lack stops there
; with a report instead of running on into unrelated code (docs/rom-api.md).
TRAP_FILL       equ 0xEF            ; RST 28h
FONT            equ 0x3D00          ; characters 32-127, 8 bytes each

FONT_FIRST      equ 0x20            ; the font's first character
FONT_CHARS      equ FONT - GLYPH_SIZE * FONT_FIRST  ; the value of CHARS (0x3C00)

; --- Keys (section 2.4; the half-rows and the shifts' key numbers are in hardware.asm) -------
KEY_EXTEND_PAIR equ 40              ; not a real key: both shifts together, no other key
KEY_NONE        equ 0xFF
SHIFT_CAPS      equ 0               ; bit of the shift state: CAPS SHIFT down
SHIFT_SYMBOL    equ 1               ; SYMBOL SHIFT down
SHIFT_TWO_KEYS  equ 7               ; two keys (other than shifts): the scan is not trusted

; --- Colours (section 2.3: BLACK..WHITE, PAPER, BRIGHT ... are in colours.asm, by hardware.asm)
COLOUR_CLEAR    equ 8               ; INK 8 etc.: keep what is on the screen
COLOUR_CONTRAST equ 9               ; INK 9 / PAPER 9: contrast with the other

; --- Character codes (sections 3.3, 6.3) -----------------------------------------------------
CC_TRUE_VIDEO   equ 0x04            ; key: CAPS SHIFT + 3
CC_INV_VIDEO    equ 0x05            ; key: CAPS SHIFT + 4
CC_COMMA        equ 0x06            ; print: move to the next half of the line
CC_CAPS_LOCK    equ 0x06            ; key: CAPS SHIFT + 2
CC_EDIT         equ 0x07            ; key: CAPS SHIFT + 1
CC_LEFT         equ 0x08            ; CAPS SHIFT + 5
CC_RIGHT        equ 0x09            ; CAPS SHIFT + 8
CC_DOWN         equ 0x0A            ; CAPS SHIFT + 6
CC_UP           equ 0x0B            ; CAPS SHIFT + 7
CC_DELETE       equ 0x0C            ; CAPS SHIFT + 0
CC_ENTER        equ 0x0D
CC_NUMBER       equ 0x0E            ; program text: a hidden 5-byte number follows
CC_EXTEND       equ 0x0E            ; key: CAPS SHIFT + SYMBOL SHIFT (E mode)
CC_GRAPHICS     equ 0x0F            ; key: CAPS SHIFT + 9 (G mode)
CC_INK          equ 0x10            ; print controls, one parameter each ...
CC_PAPER        equ 0x11
CC_FLASH        equ 0x12
CC_BRIGHT       equ 0x13
CC_INVERSE      equ 0x14
CC_OVER         equ 0x15
CC_AT           equ 0x16            ; ... two parameters: line, column
CC_TAB          equ 0x17            ; ... two parameters: column (low, high)
CH_SPACE        equ 0x20
NO_LEADING      equ 0xFF            ; OUT-NUM-1: a leading 0 prints nothing (bit 7 set)
CH_QUOTE        equ 0x22
CH_POUND        equ 0x60            ; the Spectrum's character 0x60
CH_COPYRIGHT    equ 0x7F            ; ... and 0x7F
CH_BLOCKS       equ 0x80            ; 0x80-0x8F: 2 x 2 block graphics
CH_UDGS         equ 0x90            ; 0x90-0xA4: user-defined graphics A-U
NUMBER_SIZE     equ 5               ; bytes of a hidden number

; --- Tokens (section 6.3): one byte each, 0xA5-0xFF ----------------------------------------
TK_RND          equ 0xA5            ; RND
TK_INKEY_S      equ 0xA6            ; INKEY$
TK_PI           equ 0xA7            ; PI
TK_FN           equ 0xA8            ; FN
TK_POINT        equ 0xA9            ; POINT
TK_SCREEN_S     equ 0xAA            ; SCREEN$
TK_ATTR         equ 0xAB            ; ATTR
TK_AT           equ 0xAC            ; AT
TK_TAB          equ 0xAD            ; TAB
TK_VAL_S        equ 0xAE            ; VAL$
TK_CODE         equ 0xAF            ; CODE
TK_VAL          equ 0xB0            ; VAL
TK_LEN          equ 0xB1            ; LEN
TK_SIN          equ 0xB2            ; SIN
TK_COS          equ 0xB3            ; COS
TK_TAN          equ 0xB4            ; TAN
TK_ASN          equ 0xB5            ; ASN
TK_ACS          equ 0xB6            ; ACS
TK_ATN          equ 0xB7            ; ATN
TK_LN           equ 0xB8            ; LN
TK_EXP          equ 0xB9            ; EXP
TK_INT          equ 0xBA            ; INT
TK_SQR          equ 0xBB            ; SQR
TK_SGN          equ 0xBC            ; SGN
TK_ABS          equ 0xBD            ; ABS
TK_PEEK         equ 0xBE            ; PEEK
TK_IN           equ 0xBF            ; IN
TK_USR          equ 0xC0            ; USR
TK_STR_S        equ 0xC1            ; STR$
TK_CHR_S        equ 0xC2            ; CHR$
TK_NOT          equ 0xC3            ; NOT
TK_BIN          equ 0xC4            ; BIN
TK_OR           equ 0xC5            ; OR
TK_AND          equ 0xC6            ; AND
TK_LE           equ 0xC7            ; <=
TK_GE           equ 0xC8            ; >=
TK_NE           equ 0xC9            ; <>
TK_LINE         equ 0xCA            ; LINE
TK_THEN         equ 0xCB            ; THEN
TK_TO           equ 0xCC            ; TO
TK_STEP         equ 0xCD            ; STEP
TK_DEF_FN       equ 0xCE            ; DEF FN
TK_CAT          equ 0xCF            ; CAT
TK_FORMAT       equ 0xD0            ; FORMAT
TK_MOVE         equ 0xD1            ; MOVE
TK_ERASE        equ 0xD2            ; ERASE
TK_OPEN         equ 0xD3            ; OPEN #
TK_CLOSE        equ 0xD4            ; CLOSE #
TK_MERGE        equ 0xD5            ; MERGE
TK_VERIFY       equ 0xD6            ; VERIFY
TK_BEEP         equ 0xD7            ; BEEP
TK_CIRCLE       equ 0xD8            ; CIRCLE
TK_INK          equ 0xD9            ; INK
TK_PAPER        equ 0xDA            ; PAPER
TK_FLASH        equ 0xDB            ; FLASH
TK_BRIGHT       equ 0xDC            ; BRIGHT
TK_INVERSE      equ 0xDD            ; INVERSE
TK_OVER         equ 0xDE            ; OVER
TK_OUT          equ 0xDF            ; OUT
TK_LPRINT       equ 0xE0            ; LPRINT
TK_LLIST        equ 0xE1            ; LLIST
TK_STOP         equ 0xE2            ; STOP
TK_READ         equ 0xE3            ; READ
TK_DATA         equ 0xE4            ; DATA
TK_RESTORE      equ 0xE5            ; RESTORE
TK_NEW          equ 0xE6            ; NEW
TK_BORDER       equ 0xE7            ; BORDER
TK_CONTINUE     equ 0xE8            ; CONTINUE
TK_DIM          equ 0xE9            ; DIM
TK_REM          equ 0xEA            ; REM
TK_FOR          equ 0xEB            ; FOR
TK_GO_TO        equ 0xEC            ; GO TO
TK_GO_SUB       equ 0xED            ; GO SUB
TK_INPUT        equ 0xEE            ; INPUT
TK_LOAD         equ 0xEF            ; LOAD
TK_LIST         equ 0xF0            ; LIST
TK_LET          equ 0xF1            ; LET
TK_PAUSE        equ 0xF2            ; PAUSE
TK_NEXT         equ 0xF3            ; NEXT
TK_POKE         equ 0xF4            ; POKE
TK_PRINT        equ 0xF5            ; PRINT
TK_PLOT         equ 0xF6            ; PLOT
TK_RUN          equ 0xF7            ; RUN
TK_SAVE         equ 0xF8            ; SAVE
TK_RANDOMIZE    equ 0xF9            ; RANDOMIZE
TK_IF           equ 0xFA            ; IF
TK_CLS          equ 0xFB            ; CLS
TK_DRAW         equ 0xFC            ; DRAW
TK_CLEAR        equ 0xFD            ; CLEAR
TK_RETURN       equ 0xFE            ; RETURN
TK_COPY         equ 0xFF            ; COPY
TK_FIRST        equ TK_RND          ; the first token
TK_FIRST_SPACED equ TK_OR           ; listed with a space before it (if it starts with a letter)
TK_FIRST_TRAILING equ TK_FN         ; listed with a space after it (if it ends in a letter or $)
TK_FIRST_STATEMENT equ TK_DEF_FN    ; statements are DEF FN .. COPY
TK_K_MODE_BASE  equ 0xA5            ; in K mode, letter + 0xA5 is its keyword ('A' -> NEW)

; --- Reports: RST 8 is followed by (report number - 1); section 5.1 ---------------------------
REPORT_OK               equ 0xFF    ; 0 OK
REPORT_NEXT_WITHOUT_FOR equ 0x00    ; 1
REPORT_VARIABLE         equ 0x01    ; 2 Variable not found
REPORT_SUBSCRIPT        equ 0x02    ; 3
REPORT_MEMORY           equ 0x03    ; 4 Out of memory
REPORT_SCREEN           equ 0x04    ; 5 Out of screen
REPORT_TOO_BIG          equ 0x05    ; 6 Number too big
REPORT_RETURN           equ 0x06    ; 7
REPORT_END_OF_FILE      equ 0x07    ; 8
REPORT_STOP             equ 0x08    ; 9 STOP statement
REPORT_ARGUMENT         equ 0x09    ; A Invalid argument
REPORT_RANGE            equ 0x0A    ; B Integer out of range
REPORT_NONSENSE         equ 0x0B    ; C Nonsense in BASIC
REPORT_BREAK_CONT       equ 0x0C    ; D BREAK - CONT repeats
REPORT_OUT_OF_DATA      equ 0x0D    ; E
REPORT_FILE_NAME        equ 0x0E    ; F Invalid file name
REPORT_NO_ROOM          equ 0x0F    ; G
REPORT_STOP_IN_INPUT    equ 0x10    ; H
REPORT_FOR_WITHOUT_NEXT equ 0x11    ; I
REPORT_DEVICE           equ 0x12    ; J Invalid I/O device
REPORT_COLOUR           equ 0x13    ; K Invalid colour
REPORT_BREAK_PROGRAM    equ 0x14    ; L BREAK into program
REPORT_RAMTOP           equ 0x15    ; M RAMTOP no good
REPORT_STATEMENT_LOST   equ 0x16    ; N
REPORT_STREAM           equ 0x17    ; O Invalid stream
REPORT_FN_WITHOUT_DEF   equ 0x18    ; P
REPORT_PARAMETER        equ 0x19    ; Q
REPORT_TAPE             equ 0x1A    ; R Tape loading error
REPORT_COUNT            equ 28      ; 0 .. R

; --- Tape (sections 4.1, 4.2, 6.4-6.6) -------------------------------------------------------
FLAG_HEADER     equ 0x00            ; flag byte of a header block
FLAG_DATA       equ 0xFF            ; ... of a data block
HEADER_SIZE     equ 17
HDR_TYPE        equ 0               ; header fields (offsets)
HDR_NAME        equ 1
HDR_LENGTH      equ 11
HDR_PARAM1      equ 13              ; program: LINE (0x8000 up = none); CODE: start
HDR_PARAM2      equ 15              ; program: length without variables
NAME_SIZE       equ 10
TYPE_PROGRAM    equ 0
TYPE_NUMBERS    equ 1
TYPE_CHARACTERS equ 2
TYPE_CODE       equ 3
SCREEN_CODE_LENGTH equ SCREEN_SIZE + ATTRS_SIZE     ; LOAD "" SCREEN$ = CODE 16384,6912
PILOT_HEADER    equ 8063            ; pilot pulses before a header
PILOT_DATA      equ 3223            ; ... before a data block
AUTORUN_LIMIT   equ 0x4000          ; an auto-start line below this runs after LOAD

; --- BASIC program (section 6) ---------------------------------------------------------------
LINE_HEADER     equ 4               ; line number (big-endian), length (little-endian)
MAX_LINE        equ 9999
VARS_END        equ 0x80            ; ends the variables area (and the edit line's area)
STACK_MARK      equ 0x3E            ; (RAMTOP) after power-on: end of the GO SUB stack
CHANNEL_DATA_SIZE equ 21            ; K, S, R, P (5 bytes each) and 0x80
STREAMS_INIT_SIZE equ 14            ; streams -3 .. 3
STREAM_K        equ 0xFD            ; stream -3: the lower screen (editor, reports)
STREAM_S        equ 2               ; the upper screen
STREAM_R        equ 0xFF            ; stream -1: channel R, into the edit line
FREE_MARGIN     equ 80              ; bytes kept free between STKEND and the machine stack
UDG_SIZE        equ 21 * GLYPH_SIZE ; 168 bytes: A-U

; --- Macros ----------------------------------------------------------------------------------

; raise CODE: stop with a report (RST 8 and the code byte; never returns).
raise           macro code
                rst ENTRY_ERROR
                db code
                endm
