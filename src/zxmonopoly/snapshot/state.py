"""The machine state a 48K snapshot holds, and the package's one error type."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

RAM_START = 0x4000
RAM_SIZE = 0xC000  # 49,152 bytes: 0x4000–0xFFFF
FRAME_TSTATES = 69_888

#: Register names as the Z80 core spells them (8-bit, 16-bit, then interrupt state).
REGISTERS_8 = ("a", "f", "b", "c", "d", "e", "h", "l",
               "a_", "f_", "b_", "c_", "d_", "e_", "h_", "l_", "i", "r")
REGISTERS_16 = ("ix", "iy", "sp", "pc")
INTERRUPT_STATE = ("iff1", "iff2", "im")
REGISTERS = REGISTERS_8 + REGISTERS_16 + INTERRUPT_STATE
REGISTER_NAMES = REGISTERS


class SnapshotError(Exception):
    """A snapshot that cannot be read or written; the message names the file and the problem."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.problem = message


@dataclass
class Snapshot:
    """Registers by the core's names, the border colour, 48K of RAM and the frame position.

    ``ram`` is 0x4000–0xFFFF (49,152 bytes). ``tstates`` counts from the frame interrupt (only
    .z80 version 3 stores it). ``issue2``: the keyboard's EAR bit behaves as on an Issue 2 board.
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

    def __post_init__(self) -> None:
        self.ram = bytes(self.ram)

    def check(self, name: str = "snapshot") -> None:
        """Raise :class:`SnapshotError` when a field is out of its range."""
        limits = dict.fromkeys(REGISTERS_8, 0xFF) | dict.fromkeys(REGISTERS_16, 0xFFFF)
        limits |= {"iff1": 1, "iff2": 1, "im": 2, "border": 7, "tstates": FRAME_TSTATES - 1}
        for key, top in limits.items():
            value = getattr(self, key)
            if not isinstance(value, int) or not 0 <= value <= top:
                raise SnapshotError(name, f"{key} = {value!r} is outside 0..{top}")
        if len(self.ram) != RAM_SIZE:
            raise SnapshotError(name, f"ram is {len(self.ram)} bytes, expected {RAM_SIZE:,}")

    def registers(self) -> dict[str, int]:
        """The registers and interrupt state as a name -> value dict (see :data:`REGISTERS`)."""
        return {key: getattr(self, key) for key in REGISTERS}

    def word(self, address: int) -> int:
        """The little-endian word at ``address`` (0x4000–0xFFFE) of ``ram``."""
        offset = address - RAM_START
        return self.ram[offset] | self.ram[offset + 1] << 8


#: Every field name of :class:`Snapshot`, in order.
FIELDS = tuple(f.name for f in fields(Snapshot))
