"""The machine state a 48K snapshot holds, and the package's one error type."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

# The frame a snapshot's T-state counter runs within; an interrupt can be accepted while the
# counter is below INT_LENGTH.
from zxmonopoly.clock import FRAME_TSTATES, INT_LENGTH
from zxmonopoly.memory_map import RAM_SIZE, RAM_START, ROM_SIZE

PV_FLAG = 0x04

#: Register names as the Z80 core spells them (8-bit, 16-bit, then interrupt state).
REGISTERS_8 = ("a", "f", "b", "c", "d", "e", "h", "l",
               "a_", "f_", "b_", "c_", "d_", "e_", "h_", "l_", "i", "r")
REGISTERS_16 = ("ix", "iy", "sp", "pc")
INTERRUPT_STATE = ("iff1", "iff2", "im")
REGISTERS = REGISTERS_8 + REGISTERS_16 + INTERRUPT_STATE
REGISTER_NAMES = REGISTERS


#: Fields of the CPU's state that not every format holds (see :meth:`Snapshot.settled`).
CPU_EXTRAS = ("halted", "memptr", "q", "ei_last", "ldair_last")


class SnapshotError(Exception):
    """A snapshot that cannot be read or written; the message names the file and the problem."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.problem = message


@dataclass
class Snapshot:
    """Registers by the core's names, the border colour, 48K of RAM and the frame position.

    ``ram`` is 0x4000–0xFFFF (49,152 bytes). ``tstates`` counts from the frame interrupt (.szx
    and .z80 version 3 store it). ``issue2``: the keyboard's EAR bit behaves as on an Issue 2
    board. ``mic_ear``: bits 3 and 4 of the last write to port 0xFE (.szx only).

    The CPU's hidden state, all of which .szx holds except ``ldair_last``: ``halted`` (PC is
    on the HALT, as the core keeps it), ``memptr``, ``q`` (F if the last instruction set the
    flags, else 0), ``ei_last`` (the last instruction was EI or a prefix: no interrupt before
    the next one) and ``ldair_last`` (it was LD A,I or LD A,R: an interrupt now clears P/V).
    A format without them gets an equivalent state from :meth:`settled`.
    """

    a: int = 0
    f: int = 0
    b: int = 0
    c: int = 0
    d: int = 0
    e: int = 0
    h: int = 0
    l: int = 0  # noqa: E741 - the Z80's L register
    a_: int = 0
    f_: int = 0
    b_: int = 0
    c_: int = 0
    d_: int = 0
    e_: int = 0
    h_: int = 0
    l_: int = 0
    i: int = 0
    r: int = 0
    ix: int = 0
    iy: int = 0
    sp: int = 0
    pc: int = 0
    iff1: int = 0
    iff2: int = 0
    im: int = 0
    border: int = 7
    ram: bytes = field(default=bytes(RAM_SIZE), repr=False)
    tstates: int = 0
    issue2: bool = False
    mic_ear: int = 0
    halted: bool = False
    memptr: int = 0
    q: int = 0
    ei_last: bool = False
    ldair_last: bool = False

    def __post_init__(self) -> None:
        self.ram = bytes(self.ram)
        self.halted, self.ei_last = bool(self.halted), bool(self.ei_last)
        self.ldair_last = bool(self.ldair_last)

    def check(self, name: str = "snapshot") -> None:
        """Raise :class:`SnapshotError` when a field is out of its range."""
        limits = dict.fromkeys(REGISTERS_8, 0xFF) | dict.fromkeys(REGISTERS_16, 0xFFFF)
        limits |= {"iff1": 1, "iff2": 1, "im": 2, "border": 7, "tstates": FRAME_TSTATES - 1,
                   "memptr": 0xFFFF, "q": 0xFF}
        for key, top in limits.items():
            value = getattr(self, key)
            if not isinstance(value, int) or not 0 <= value <= top:
                raise SnapshotError(name, f"{key} = {value!r} is outside 0..{top}")
        if self.mic_ear not in (0, 0x08, 0x10, 0x18):
            raise SnapshotError(name, f"mic_ear = {self.mic_ear!r}: only bits 3 and 4 (0x18)")
        if self.q not in (0, self.f):
            raise SnapshotError(name, f"q = {self.q:#04x}: Q is either F ({self.f:#04x}) or 0")
        if self.halted and self.ei_last:
            raise SnapshotError(name, "halted and ei_last together: the last instruction was "
                                      "either HALT or EI")
        if len(self.ram) != RAM_SIZE:
            raise SnapshotError(name, f"ram is {len(self.ram)} bytes, expected {RAM_SIZE:,}")

    def interrupt_due(self) -> bool:
        """Whether the 48K's frame interrupt is accepted before the next instruction."""
        return bool(self.iff1) and self.tstates < INT_LENGTH and not self.ei_last

    def settled(self, *, keep_halted: bool = False,
                rom: bytes | None = None) -> Snapshot:
        """An equivalent snapshot with ``ldair_last`` (and ``halted``, unless kept) false.

        Equivalent: a machine loaded from it runs the same future, T-state for T-state. A
        halted CPU re-runs its HALT as a pass of the halt would (4 T, R + 1, PC stays), so
        ``halted`` only matters when the interrupt is accepted right away (then the return
        address pushed is past the HALT): in that case the acceptance is done here, as the
        core does it (IM 0 with 0xFF on the bus and IM 1: RST 38h, 13 T; IM 2: the vector at
        I·256 + 0xFF, 19 T; no contention in the frame's first T-states). ``rom`` is needed
        only when that vector is in ROM. ``ldair_last`` only matters when the interrupt is
        accepted right away, and then only clears P/V: done here.
        """
        snap = replace(self)
        due = snap.interrupt_due()
        if snap.ldair_last:
            if due:
                snap.f &= ~PV_FLAG & 0xFF
                snap.q = snap.f if snap.q else 0
            snap.ldair_last = False
        if not snap.halted or keep_halted:
            return snap
        snap.halted = False
        if not due:
            return snap
        ret = (snap.pc + 1) & 0xFFFF
        ram = bytearray(snap.ram)
        for byte in (ret >> 8, ret & 0xFF):
            snap.sp = (snap.sp - 1) & 0xFFFF
            if snap.sp >= RAM_START:
                ram[snap.sp - RAM_START] = byte
        snap.ram = bytes(ram)
        snap.iff1 = snap.iff2 = 0
        snap.r = (snap.r & 0x80) | ((snap.r + 1) & 0x7F)
        snap.q = 0
        if snap.im == 2:
            where = snap.i << 8 | 0xFF
            if rom is None and (where < ROM_SIZE or where == 0xFFFF):
                raise SnapshotError("snapshot", f"the IM 2 vector at {where:#06x} is in ROM: "
                                                "settling a halted moment needs the ROM")
            memory = bytes(rom or bytes(ROM_SIZE))[:ROM_SIZE] + snap.ram
            snap.pc = memory[where] | memory[(where + 1) & 0xFFFF] << 8
            snap.tstates += 19
        else:
            snap.pc = 0x38
            snap.tstates += 13
        snap.memptr = snap.pc
        return snap

    def registers(self) -> dict[str, int]:
        """The registers and interrupt state as a name -> value dict (see :data:`REGISTERS`)."""
        return {key: getattr(self, key) for key in REGISTERS}

    def word(self, address: int) -> int:
        """The little-endian word at ``address`` (0x4000–0xFFFE) of ``ram``."""
        offset = address - RAM_START
        return self.ram[offset] | self.ram[offset + 1] << 8


#: Every field name of :class:`Snapshot`, in order.
FIELDS = tuple(f.name for f in fields(Snapshot))
