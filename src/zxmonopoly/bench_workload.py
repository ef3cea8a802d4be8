"""The benchmarks' programs: the bare Z80's workload and the whole machine's busy ROM.

``benchmarks`` times our engines on them and ``bench_skoolkit`` runs them beside SkoolKit's
simulators; both read them here, so neither imports the other for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zxmonopoly import images

if TYPE_CHECKING:
    from zxmonopoly.z80 import Z80

WORKLOAD_ORG = 0x8000
WORKLOAD_DATA = 0x9000  # IX points here
WORKLOAD_SRC = 0x9100  # LDIR source
WORKLOAD_DST = 0x9200  # LDIR destination
WORKLOAD_STACK = 0xFF00
#: The workload's outer loop (``outer: LD B,16``): a SkoolKit run stops each time PC is back.
WORKLOAD_OUTER = 0x8010

# The workload, assembled by hand: (address, bytes, source line). An outer loop that never ends
# runs 16 times round an inner loop of loads, ALU, 16-bit INC/DEC, indexed loads and stores,
# CB rotations and bit operations, a conditional JR, PUSH/POP, CALL/RET and DJNZ, then copies a
# 32-byte block with LDIR. tests/test_benchmarks.py assembles the source lines with pasmo and
# checks the bytes.
WORKLOAD: tuple[tuple[int, bytes, str], ...] = (
    (0x8000, b"\x31\x00\xff", "start:  LD SP,0FF00h"),
    (0x8003, b"\xdd\x21\x00\x90", "        LD IX,9000h"),
    (0x8007, b"\x01\x00\x00", "        LD BC,0"),
    (0x800A, b"\x11\x34\x12", "        LD DE,1234h"),
    (0x800D, b"\x21\x78\x56", "        LD HL,5678h"),
    (0x8010, b"\x06\x10", "outer:  LD B,16"),
    (0x8012, b"\x78", "inner:  LD A,B"),
    (0x8013, b"\x81", "        ADD A,C"),
    (0x8014, b"\x4f", "        LD C,A"),
    (0x8015, b"\x8a", "        ADC A,D"),
    (0x8016, b"\x93", "        SUB E"),
    (0x8017, b"\xe6\x7f", "        AND 7Fh"),
    (0x8019, b"\xac", "        XOR H"),
    (0x801A, b"\xbd", "        CP L"),
    (0x801B, b"\x14", "        INC D"),
    (0x801C, b"\x1d", "        DEC E"),
    (0x801D, b"\x23", "        INC HL"),
    (0x801E, b"\x1b", "        DEC DE"),
    (0x801F, b"\x2e\x55", "        LD L,55h"),
    (0x8021, b"\xdd\x77\x01", "        LD (IX+1),A"),
    (0x8024, b"\xdd\x66\x02", "        LD H,(IX+2)"),
    (0x8027, b"\xdd\x86\x03", "        ADD A,(IX+3)"),
    (0x802A, b"\xcb\x01", "        RLC C"),
    (0x802C, b"\xcb\x5f", "        BIT 3,A"),
    (0x802E, b"\xcb\xfa", "        SET 7,D"),
    (0x8030, b"\xcb\x83", "        RES 0,E"),
    (0x8032, b"\xcb\x3c", "        SRL H"),
    (0x8034, b"\x28\x01", "        JR Z,skip"),
    (0x8036, b"\x3c", "        INC A"),
    (0x8037, b"\xc5", "skip:   PUSH BC"),
    (0x8038, b"\xe5", "        PUSH HL"),
    (0x8039, b"\xcd\x4e\x80", "        CALL fetch"),
    (0x803C, b"\xe1", "        POP HL"),
    (0x803D, b"\xc1", "        POP BC"),
    (0x803E, b"\x10\xd2", "        DJNZ inner"),
    (0x8040, b"\x21\x00\x91", "        LD HL,9100h"),
    (0x8043, b"\x11\x00\x92", "        LD DE,9200h"),
    (0x8046, b"\x01\x20\x00", "        LD BC,32"),
    (0x8049, b"\xed\xb0", "        LDIR"),
    (0x804B, b"\xc3\x10\x80", "        JP outer"),
    (0x804E, b"\x7e", "fetch:  LD A,(HL)"),
    (0x804F, b"\x3c", "        INC A"),
    (0x8050, b"\xc9", "        RET"),
)


def workload_code() -> bytes:
    """The workload's machine code, to be loaded at WORKLOAD_ORG."""
    return b"".join(data for _, data, _ in WORKLOAD)


def workload_source() -> str:
    """The workload as assembly source (pasmo syntax)."""
    lines = [f"        ORG {WORKLOAD_ORG:04X}h"]
    lines += [text for _, _, text in WORKLOAD]
    return "\n".join(lines) + "\n"


def workload_memory() -> bytearray:
    """64K of memory holding the workload and its data."""
    memory = bytearray(0x10000)
    code = workload_code()
    memory[WORKLOAD_ORG : WORKLOAD_ORG + len(code)] = code
    for i in range(WORKLOAD_SRC + 32 - WORKLOAD_DATA):  # IX data and the LDIR source
        memory[WORKLOAD_DATA + i] = (i * 37 + 11) & 0xFF
    return memory


def make_cpu(engine: str | None = None, memory: bytearray | None = None) -> Z80:
    """A Z80 at the start of the workload, in ``memory`` (default: a new workload_memory())."""
    from zxmonopoly.z80 import Z80

    cpu = Z80(workload_memory() if memory is None else memory, engine=engine)
    cpu.pc = WORKLOAD_ORG
    return cpu


def busy_rom() -> bytes:
    """The busy benchmark ROM (``src/bench/busy.asm``), as the build ships it (16,384 bytes)."""
    return images.busy_rom()
