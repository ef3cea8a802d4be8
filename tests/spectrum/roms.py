"""Small ROMs for machine tests, written here and built with our assembler."""

from __future__ import annotations

from zxmonopoly.asm import assemble
from zxmonopoly.memory_map import ROM_SIZE

# IM 1, interrupts on, HALT forever; the interrupt counts frames in FRAMES_ADDR.
FRAMES_ADDR = 0x8000
COUNTER_ROM = f"""
        ORG 0
        DI
        LD SP,0xFF00
        IM 1
        EI
loop:   HALT
        JR loop
        DS 0x38-$
isr:    PUSH HL
        LD HL,({FRAMES_ADDR})
        INC HL
        LD ({FRAMES_ADDR}),HL
        POP HL
        EI
        RET
"""


# A ROM of our own with the standard tape interface: LD-BYTES at 0x0556 and SA-BYTES at
# 0x04C2 begin as the standard routines do (what the traps check), SA/LD-RET at 0x053F.
# Their bodies here just fail (carry clear): only the traps can load or save.
TAPE_ROM = """
        ORG 0
        DI
        LD SP,0xFF00
        JP 0x8000
        DS 0x04C2-$
sa_bytes:
        LD HL,0x053F
        PUSH HL
        AND A
        RET
        DS 0x053F-$
sa_ld_ret:
        EI
        RET
        DS 0x0556-$
ld_bytes:
        INC D
        EX AF,AF'
        DEC D
        DI
        AND A
        RET
"""


# LD IX,4000h; LD DE,nn; LD A,FFh; CALL 04C2h; LD HL,(9000h); INC HL; LD (9000h),HL; JR back
# to the CALL's set-up: SAVE in a loop, counting the SAVEs that return.
def save_loop(length: int) -> bytes:
    """The SAVE loop's code (at 0x8000) saving ``length`` bytes a time."""
    return bytes.fromhex(f"DD210040 11{length & 0xFF:02X}{length >> 8:02X} 3EFF CDC204 "
                         "2A0090 23 220090 18EB")


def rom(source: str) -> bytes:
    """Assemble ``source`` (ORG 0) into a 16,384-byte ROM image."""
    program = assemble(source, "<test rom>")
    image = bytearray(program.binary(0, ROM_SIZE))
    return bytes(image.ljust(ROM_SIZE, b"\xff"))[:ROM_SIZE]
