; =============================================================================================
; events.asm - the record of the game: every event declared by the code that makes it, into
; a ring of event records in the state block (vars.asm, v_event_*) that readers read
;
; Issue 28: a table must be able to follow a game, and a test must know the cause of every
; money move rather than guess it from differences.  The game writes a record into the ring's
; next slot and then counts it in v_event_count, a word stored by one instruction (LD (nn),HL)
; once the record is whole: a reader that stops between any two instructions (a frame's end, a
; breakpoint) never sees half a record or half a count.  The record numbered n (from 0) is in
; slot n mod EV_SLOTS; the ring overwrites its oldest record; nothing is held back for a reader.
;
; Readers only read (issue 44: an observer must not change what it observes): each keeps its
; own count of what it has read, takes the difference to v_event_count modulo 65,536, reads the
; records it has not read yet (at most EV_SLOTS - 1: the slot at the count is the next to be
; overwritten), and knows how many went by unread when more did.  A reader must read at least
; once every 32,767 events to count them; a difference of 32,768 or more is the count gone
; back (a snapshot loaded, the program started again).  With no reader (a real Spectrum) the
; game plays the same.
;
; Money moves are declared by the few routines that move money (bank.asm): the code that
; causes one names its cause first (EVENT_CAUSE and event_square / event_extra), and the
; routine writes one record naming payer, payee, amount and cause.  bank_pay saves the cause
; at its entry, so what is sold or mortgaged to raise the money declares its own causes.
; =============================================================================================

; --- An event record (EV_SIZE bytes) ------------------------------------------------------------
EV_KIND         equ 0               ; EVK_* below
EV_A            equ 1               ; the player who acts or pays (EV_BANK, EV_PARKING)
EV_B            equ 2               ; the other party: payee, owner, creditor (or a byte of data)
EV_SQUARE       equ 3               ; a square 0..39, or the kind's byte (see docs/game.md)
EV_AMOUNT       equ 4               ; word: pounds (or the kind's word)
EV_EXTRA        equ 6               ; a byte of detail (a die, a reason, the interest)
EV_SIZE         equ 8               ; (byte 7 is 0: a slot is a shift away)
EV_SLOTS        equ 32              ; records in the ring: a power of two dividing 65,536, so
                                    ; that the count's low bits are the slot (the bound: see
                                    ; docs/game.md "The record")
        assert (EV_SLOTS & (EV_SLOTS - 1)) == 0
        assert EV_SLOTS * EV_SIZE <= 256    ; (a slot's offset is a byte)

EV_BANK         equ NO_PLAYER       ; a party: the Bank
EV_PARKING      equ 0xFE            ; a party: the money lying on Free Parking (OPT_JACKPOT)

; --- Event kinds (the harness names them from these symbols: keep the EVK_ prefix) -------------
EVK_UNKNOWN     equ 0               ; a money move whose cause nobody declared (a bug: tested)
; money moves: A pays B (a player, EV_BANK or EV_PARKING) AMOUNT
EVK_SALARY      equ 1               ; GO's salary
EVK_BUY         equ 2               ; a purchase at the printed price; SQUARE
EVK_AUCTION     equ 3               ; an auction's winning bid; SQUARE
EVK_RENT        equ 4               ; rent; SQUARE
EVK_TAX         equ 5               ; Income Tax or Super Tax; SQUARE
EVK_CARD        equ 6               ; a card's payment; SQUARE = pack * 16 + card number
EVK_FINE        equ 7               ; the £50 to leave jail
EVK_BUILD       equ 8               ; a house or hotel bought; SQUARE, EXTRA = the new level
EVK_SELL        equ 9               ; a house or hotel sold back; SQUARE, EXTRA = the new level
EVK_MORTGAGE    equ 10              ; a mortgage taken; SQUARE
EVK_LIFT        equ 11              ; a mortgage lifted (the loan and 10 %); SQUARE, EXTRA = the
                                    ; interest
EVK_INTEREST    equ 12              ; the 10 % on a mortgaged property received; SQUARE
EVK_TRADE_CASH  equ 13              ; a deal's cash
EVK_SHORTAGE    equ 14              ; a shortage auction's winning bid; SQUARE, EXTRA = the new
                                    ; level (SQ_HOTEL: the hotel)
EVK_BANKRUPT_CASH equ 15            ; a bankrupt's cash to the creditor
EVK_RETIRE_CASH equ 16              ; a retiring player's cash to the Bank
EVK_JACKPOT     equ 17              ; the Free Parking jackpot
EVK_FINE_CARD   equ 18              ; the £10 fine of "pay a fine or take a Chance"
EVK_DEALT       equ 19              ; the short game's deal (OPT_DEAL): A pays the Bank for the
                                    ; two Title Deeds dealt, SQUARE and EXTRA
EVK_MONEY_LAST  equ 19              ; kinds up to here move money
; the rest move none
EVK_TURN        equ 32              ; A's turn begins; AMOUNT = v_turns
EVK_THROW       equ 33              ; A throws; B, EXTRA = the dice; SQUARE = where A stands
EVK_MOVE        equ 34              ; A's token went from B to SQUARE (EXTRA 1: backwards)
EVK_CARD_DRAWN  equ 35              ; A draws a card; SQUARE = pack * 16 + number
EVK_JAIL_IN     equ 36              ; A goes to jail; EXTRA = JAIL_BY_*
EVK_JAIL_OUT    equ 37              ; A leaves jail; EXTRA = JAIL_OUT_*
EVK_BID         equ 38              ; A bids AMOUNT for SQUARE
EVK_AUCTION_VOID equ 39             ; A's winning bid AMOUNT for SQUARE is void; EXTRA = why
EVK_AUCTION_NONE equ 40             ; nobody bid for SQUARE: it stays with the Bank
EVK_RENT_LOST   equ 41              ; A's rent to B for SQUARE was not claimed in time; EXTRA =
                                    ; RENT_LOST_THROW or END_* (why)
EVK_DEED        equ 42              ; SQUARE passes from A to B (a deal, a bankruptcy)
EVK_TRADE       equ 43              ; A and B agree a deal (EVK_DEED and EVK_TRADE_CASH follow)
EVK_JAIL_CARD   equ 44              ; a Get Out of Jail Free card (EXTRA = JC_* bit) from A to B
EVK_BANKRUPT    equ 45              ; A goes bankrupt to B (EV_BANK: the Bank)
EVK_RETIRE      equ 46              ; A retires
EVK_GAME_END    equ 47              ; the game ends; EXTRA = END_*
EVK_WORTH       equ 48              ; A's holdings are valued at AMOUNT
EVK_WINNER      equ 49              ; A wins (EXTRA 1: a tie on the highest total)
EVK_FIRST_THROW equ 50              ; A throws B+EXTRA for who goes first
EVK_FIRST       equ 51              ; A goes first (the highest throw, ties thrown again)
EVK_DECLINE     equ 52              ; A does not buy SQUARE at its price AMOUNT; EXTRA =
                                    ; DECLINE_* (the auction or the Bank's keeping follows)

; EVK_JAIL_IN's EXTRA
JAIL_BY_SQUARE  equ 0               ; the Go to Jail square
JAIL_BY_CARD    equ 1               ; a card
JAIL_BY_DOUBLES equ 2               ; three doubles in a row
; EVK_JAIL_OUT's EXTRA
JAIL_OUT_DOUBLE equ 0               ; threw a double
JAIL_OUT_CARD   equ 1               ; used a Get Out of Jail Free card
JAIL_OUT_FINE   equ 2               ; paid the fine
; EVK_AUCTION_VOID's EXTRA
VOID_ASSETS     equ 0               ; the bid is more than the bidder's cash and mortgage values
; EVK_DECLINE's EXTRA
DECLINE_CHOICE  equ 0               ; he chose not to (a human's N, a computer's judgement)
DECLINE_CASH    equ 1               ; not enough cash
; EVK_GAME_END's EXTRA
END_LAST_PLAYER equ 0               ; one player left
END_BREAK       equ 1               ; CAPS SHIFT + SPACE, confirmed
END_TIME_UP     equ 2               ; the short game's clock ran out
; EVK_RENT_LOST's EXTRA: why the rent was lost - the next throw (A23), or the game's end
; before the owner asked (END_*: how it ended; rent_settle)
RENT_LOST_THROW equ 3               ; not claimed before the next throw
        assert RENT_LOST_THROW != END_LAST_PLAYER && RENT_LOST_THROW != END_BREAK
        assert RENT_LOST_THROW != END_TIME_UP

; ---------------------------------------------------------------------------------------------
; EVENT_CAUSE - name the cause of the next money move (kept by every register and flag)
; ---------------------------------------------------------------------------------------------
EVENT_CAUSE     macro kind
        push af
        ld a, kind
        ld (event_cause), a
        pop af
        endm

; ---------------------------------------------------------------------------------------------
; event_emit - write one event record into the ring's next slot (over its oldest record) and
; publish it
; Input: A = kind, B = EV_A, C = EV_B, D = EV_SQUARE, E = EV_EXTRA, HL = EV_AMOUNT.
; Output: the record written, published (v_event_count + 1).  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
event_emit:
        push af
        push bc
        push de
        push hl
        push hl                     ; the amount
        push de                     ; the square and the extra byte
        ld e, a                     ; E = the kind
        ld a, (v_event_count)       ; the record numbered count takes slot count mod EV_SLOTS
        and EV_SLOTS - 1
        ld l, a
        ld h, 0
        add hl, hl                  ; * EV_SIZE
        add hl, hl
        add hl, hl
        assert EV_SIZE == 8
        ld a, e
        ld de, v_event_ring
        add hl, de                  ; HL = the slot
        pop de                      ; D = the square, E = the extra byte
        ld (hl), a                  ; the fields in their order
        inc hl
        ld (hl), b
        inc hl
        ld (hl), c
        inc hl
        ld (hl), d
        inc hl
        pop bc                      ; the amount
        ld (hl), c
        inc hl
        ld (hl), b
        inc hl
        ld (hl), e
        assert EV_KIND == 0
        assert EV_A == 1
        assert EV_B == 2
        assert EV_SQUARE == 3
        assert EV_AMOUNT == 4
        assert EV_EXTRA == 6
        ld hl, (v_event_count)      ; last: the one store that publishes the record
        inc hl
        ld (v_event_count), hl
        pop hl
        pop de
        pop bc
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; event_money - declare a money move with the cause named before it (event_cause,
; event_square, event_extra), then forget the cause (a move nobody names is EVK_UNKNOWN);
; the message shown is a money result (msg_hold_money: read longer in a computer's turn)
; Input: A = payer, C = payee (a player 0..5, EV_BANK or EV_PARKING), HL = pounds.
; Output: the record written.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
event_money:
        push af
        push bc
        push de
        ld b, a
        ld a, (event_square)
        ld d, a
        ld a, (event_extra)
        ld e, a
        ld a, (event_cause)
        call event_emit
        call msg_hold_money         ; the message that says so is read at that pace (msg.asm)
        xor a
        ld (event_cause), a
        ld (event_square), a
        ld (event_extra), a
        assert EVK_UNKNOWN == 0
        pop de
        pop bc
        pop af
        ret

; ---------------------------------------------------------------------------------------------
; event_player - declare an event about one player
; Input: A = kind, B = the player, D = EV_SQUARE, E = EV_EXTRA, HL = EV_AMOUNT (EV_B is
; EV_BANK).  Output: the record written.  Corrupts: nothing.
; ---------------------------------------------------------------------------------------------
event_player:
        push bc
        ld c, EV_BANK
        call event_emit
        pop bc
        ret
