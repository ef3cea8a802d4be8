; =============================================================================================
; sysvars.asm - the system variables of the 48K, at their standard addresses
;
; Programs written for the Sinclair ROM PEEK and POKE these, so every name here sits where the
; 48K keeps it and means what it means there (shared/reference/spectrum_facts.md section 5.4).
; Variables this ROM does not use are still named, so that the map documents the whole area.
; Bit fields are tabled below their variable.  Nothing here emits a byte: it is all EQU.
; =============================================================================================

SYSVARS         equ 0x5C00

KSTATE          equ 0x5C00      ; 8  keyboard state: two sets of 4 (KS_* below), one per key
                                ;    the interrupt is following
LAST_K          equ 0x5C08      ; 1  the last key decoded (FLAGS bit 5 says it is new)
REPDEL          equ 0x5C09      ; 1  frames a key is held before it repeats
REPPER          equ 0x5C0A      ; 1  frames between repeats
DEFADD          equ 0x5C0B      ; 2  (user-defined functions: not used)
K_DATA          equ 0x5C0D      ; 1  (colour keys: not used)
TVDATA          equ 0x5C0E      ; 2  +0 control code waiting for parameters (0 = none; bit 7:
                                ;    the first of two has come), +1 that first parameter
STRMS           equ 0x5C10      ; 38 stream table: offsets into CHANS for streams -3..15
CHARS           equ 0x5C36      ; 2  character set - 256 (the font starts at character 32)
RASP            equ 0x5C38      ; 1  length of the warning buzz
PIP             equ 0x5C39      ; 1  length of the key click
ERR_NR          equ 0x5C3A      ; 1  report code - 1 (0xFF = OK).  IY points here.
FLAGS           equ 0x5C3B      ; 1  see FLAG_* below
TV_FLAG         equ 0x5C3C      ; 1  see TV_* below
ERR_SP          equ 0x5C3D      ; 2  address of the stack slot holding the error handler
LIST_SP         equ 0x5C3F      ; 2
MODE            equ 0x5C41      ; 1  keyboard mode: MODE_NORMAL (K/L/C), MODE_EXTEND, MODE_GRAPHICS
NEWPPC          equ 0x5C42      ; 2  line to jump to
NSPPC           equ 0x5C44      ; 1  statement to jump to; bit 7 set = no jump pending
PPC             equ 0x5C45      ; 2  line being run (PPC_DIRECT for the edit line)
SUBPPC          equ 0x5C47      ; 1  statement being run (1 = first)
BORDCR          equ 0x5C48      ; 1  border colour * 8, and the lower screen's attribute
E_PPC           equ 0x5C49      ; 2  the current line (the last one entered)
VARS            equ 0x5C4B      ; 2  variables area (ends with 0x80)
DEST            equ 0x5C4D      ; 2
CHANS           equ 0x5C4F      ; 2  channel information
CURCHL          equ 0x5C51      ; 2  the channel in use
PROG            equ 0x5C53      ; 2  BASIC program
NXTLIN          equ 0x5C55      ; 2  the next line of the program
DATADD          equ 0x5C57      ; 2  (DATA pointer)
E_LINE          equ 0x5C59      ; 2  the line being edited (ends with 0x0D, 0x80)
K_CUR           equ 0x5C5B      ; 2  the cursor's address in the edit line
CH_ADD          equ 0x5C5D      ; 2  the next character the interpreter reads
X_PTR           equ 0x5C5F      ; 2  where an error happened (RST 8 copies CH_ADD here)
WORKSP          equ 0x5C61      ; 2  temporary workspace
STKBOT          equ 0x5C63      ; 2  calculator stack bottom (end of the workspace)
STKEND          equ 0x5C65      ; 2  calculator stack end: free memory begins here
BREG            equ 0x5C67      ; 1
MEM             equ 0x5C68      ; 2  calculator memory (points at MEMBOT)
FLAGS2          equ 0x5C6A      ; 1  see F2_* below
DF_SZ           equ 0x5C6B      ; 1  lines in the lower screen (2 normally)
S_TOP           equ 0x5C6C      ; 2  (top line of an automatic listing)
OLDPPC          equ 0x5C6E      ; 2  line CONTINUE goes to
OSPPC           equ 0x5C70      ; 1  statement CONTINUE goes to
FLAGX           equ 0x5C71      ; 1
STRLEN          equ 0x5C72      ; 2
T_ADDR          equ 0x5C74      ; 2
SEED            equ 0x5C76      ; 2  seed of RND (RANDOMIZE sets it)
FRAMES          equ 0x5C78      ; 3  frames since power-on, least significant byte first
UDG             equ 0x5C7B      ; 2  first user-defined graphic
COORDS          equ 0x5C7D      ; 2  last point plotted
P_POSN          equ 0x5C7F      ; 1  printer column
PR_CC           equ 0x5C80      ; 2  printer buffer position
ECHO_E          equ 0x5C82      ; 2  where the edit line starts in the lower screen (this ROM:
                                ;    +1 = 24 - its first row, i.e. the rows it takes)
DF_CC           equ 0x5C84      ; 2  display address of the upper screen's print position
DF_CCL          equ 0x5C86      ; 2  ... and of the lower screen's
S_POSN          equ 0x5C88      ; 2  upper print position: +0 = 33 - column, +1 = 24 - line
SPOSNL          equ 0x5C8A      ; 2  lower print position, counted the same way
SCR_CT          equ 0x5C8C      ; 1  scroll count (no "scroll?" prompt in this ROM)
ATTR_P          equ 0x5C8D      ; 1  permanent colours
MASK_P          equ 0x5C8E      ; 1  permanent transparency mask (1 bits come from the screen)
ATTR_T          equ 0x5C8F      ; 1  temporary colours
MASK_T          equ 0x5C90      ; 1  temporary mask
P_FLAG          equ 0x5C91      ; 1  see PF_* below
MEMBOT          equ 0x5C92      ; 30 calculator memory; this ROM's scratch (block graphics)
NMIADD          equ 0x5CB0      ; 2  NMI handler (the 48K's test is back to front: see NMI)
RAMTOP          equ 0x5CB2      ; 2  last byte of the BASIC system area
P_RAMT          equ 0x5CB4      ; 2  last byte of RAM

CHANS_AREA      equ 0x5CB6      ; the channel table starts right after the variables
SYSVARS_END     equ CHANS_AREA

; --- FLAGS (23611) ---------------------------------------------------------------------------
FLAG_NO_SPACE   equ 0           ; 1: a space was just printed (no leading space before a token)
FLAG_PRINTER    equ 1           ; 1: output goes to the printer (channel P)
FLAG_L_MODE     equ 3           ; 1: letters are letters (L/C mode); 0: K mode (keywords)
FLAG_NEW_KEY    equ 5           ; 1: LAST_K holds a key nobody has taken yet
FLAG_NUMERIC    equ 6           ; 1: the last expression was a number; 0: a string
FLAG_RUNNING    equ 7           ; 1: statements are being run

; --- TV_FLAG (23612) -------------------------------------------------------------------------
TV_LOWER        equ 0           ; 1: printing goes to the lower screen
TV_MESSAGE      equ 5           ; 1: the lower screen shows a report; the next key clears it

; --- FLAGS2 (23658) --------------------------------------------------------------------------
F2_CAPS_LOCK    equ 3           ; 1: CAPS LOCK on (C mode)
F2_K_CHANNEL    equ 4           ; 1: channel K is in use

; --- P_FLAG (23697) --------------------------------------------------------------------------
PF_OVER_T       equ 0           ; OVER 1, temporary
PF_OVER_P       equ 1           ; OVER 1, permanent
PF_INVERSE_T    equ 2           ; INVERSE 1, temporary
PF_INVERSE_P    equ 3           ; INVERSE 1, permanent
PF_INK9_T       equ 4           ; INK 9 (contrast), temporary
PF_INK9_P       equ 5           ; INK 9, permanent
PF_PAPER9_T     equ 6           ; PAPER 9 (contrast), temporary
PF_PAPER9_P     equ 7           ; PAPER 9, permanent
PF_TEMPS        equ 0x55        ; the temporary bits
PF_PERMS        equ 0xAA        ; the permanent bits

; --- MODE (23617) ----------------------------------------------------------------------------
MODE_NORMAL     equ 0           ; K, L or C (FLAGS and FLAGS2 decide which)
MODE_EXTEND     equ 1           ; E: one key, then back
MODE_GRAPHICS   equ 2           ; G: until GRAPHICS is pressed again

; --- KSTATE (23552): two sets, as on the 48K -------------------------------------------------
KS_KEY          equ 0           ; offset: key number (bit KS_FREE set: the set is free)
KS_HOLD         equ 1           ; offset: interrupts left before the key, up, frees the set
KS_REPEAT       equ 2           ; offset: frames until the held key repeats
KS_CODE         equ 3           ; offset: the code it gave (repeats give it again)
KS_SET_SIZE     equ 4
KS_SET_1        equ KSTATE + KS_SET_SIZE    ; the second set
KS_FREE         equ 7           ; KS_KEY bit: no key (key numbers are below 0x80)
KS_HOLD_FRAMES  equ 5           ; interrupts a key must be up before it counts as new again

; --- Values after power-on (section 5.4) -----------------------------------------------------
PROG_START      equ CHANS_AREA + CHANNEL_DATA_SIZE  ; 23755: the program follows the channels
EMPTY_E_LINE    equ PROG_START + 1      ; edit line after the variables' end marker
EMPTY_WORKSP    equ EMPTY_E_LINE + 2    ; after the edit line's 0x0D, 0x80
INIT_ATTR       equ 0x38                ; white paper, black ink
INIT_BORDCR     equ 0x38                ; white border, black ink on white below
INIT_REPDEL     equ 35
INIT_REPPER     equ 5
INIT_RASP       equ 64
INIT_DF_SZ      equ 2
INIT_P_POSN     equ 33
INIT_FLAGS2     equ 1 << F2_K_CHANNEL
PPC_DIRECT      equ 0xFFFE              ; PPC while the edit line runs (reports show line 0)

; --- This ROM's own scratch variables, in MEMBOT -----------------------------------------------
; MEMBOT is the 48K calculator's memory; this ROM has no floating-point calculator, so its 30
; bytes hold the few variables of our own (nothing else in the system area is free).
v_header        equ MEMBOT          ; 17 a tape header: read by LOAD, built by SAVE
v_ld_type       equ MEMBOT + 17     ; 1  LOAD/SAVE: the header type wanted (TYPE_PROGRAM, ...)
v_ld_namelen    equ MEMBOT + 18     ; 1  LOAD: length of the name asked for (0 = any file)
v_ld_name       equ MEMBOT + 19     ; 2  LOAD: address of the name (in the BASIC line)
v_ld_start      equ MEMBOT + 21     ; 2  LOAD ... CODE start; SAVE: data start
v_ld_length     equ MEMBOT + 23     ; 2  LOAD ... CODE start,length; SAVE: data length
v_ld_opts       equ MEMBOT + 25     ; 1  LDO_* bits below
v_pr_flags      equ MEMBOT + 26     ; 1  PRF_* bits below
v_pr_state      equ MEMBOT + 27     ; 1  PRINT: PRS_* bits below
v_scratch       equ MEMBOT + 28     ; 2  a word that survives memory moves (an offset)
        assert v_scratch + 2 <= MEMBOT + 30

; --- v_ld_opts --------------------------------------------------------------------------------
LDO_START       equ 0               ; 1: LOAD ... CODE gave a start address
LDO_LENGTH      equ 1               ; 1: ... and a length
LDO_VERIFY      equ 2               ; 1: VERIFY, not LOAD

; --- v_pr_flags -------------------------------------------------------------------------------
PRF_FLASH       equ 1               ; 1: the next character drawn gets FLASH (the cursor)

; --- v_pr_state -------------------------------------------------------------------------------
PRS_NEWLINE     equ 0               ; 1: PRINT ends with a new line (its last item was no ; , ')
PRS_ITEM        equ 1               ; 1: the last thing PRINT read was an item (a separator must follow)
