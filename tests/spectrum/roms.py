"""Small ROMs for machine tests, written here and built with our assembler."""

from __future__ import annotations

from zxmonopoly.asm import assemble

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


def rom(source: str) -> bytes:
    """Assemble ``source`` (ORG 0) into a 16,384-byte ROM image."""
    program = assemble(source, "<test rom>")
    image = bytearray(program.binary(0, 0x4000))
    return bytes(image.ljust(0x4000, b"\xff"))[:0x4000]
