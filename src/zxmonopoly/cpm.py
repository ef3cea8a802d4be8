"""A CP/M 2.2 host for the bare Z80: runs .COM programs (instruction exercisers such as zexdoc)
with the console functions of the BDOS, for ``zxmonopoly cpm FILE.com``.

The program is loaded at the start of the TPA (0x0100); the BDOS entry (a JP at 0x0005) leads to
a stub at the top of memory that hands C, E and D to the host through ports; warm boot (0x0000)
ends the run.
"""

from __future__ import annotations

import sys
from pathlib import Path

from zxmonopoly.files import read_regular
from zxmonopoly.z80 import Z80, Z80Error

# CP/M memory map used by ``cpm``: the program is loaded at the start of the TPA, BDOS sits at
# the top of memory with its entry point (a JP) at 0x0005, as a CP/M 2.2 system would have it.
CPM_TPA = 0x0100
CPM_BDOS = 0xFE00
CPM_MAX_SIZE = CPM_BDOS - CPM_TPA
CPM_STACK = 0xFFFE

# Ports of the BDOS stub (low byte of the port address, the value written is A).
_PORT_FUNCTION = 0x00  # C, the BDOS function number
_PORT_E = 0x01  # E
_PORT_D = 0x02  # D; writing it performs the function
_PORT_EXIT = 0x03  # warm boot (jump to 0x0000): the program has finished

# 0x0000: OUT (3),A ; HALT            -- warm boot ends the run
_CPM_WARM_BOOT = bytes([0xD3, _PORT_EXIT, 0x76])
# 0x0005: JP CPM_BDOS                 -- programs read the top of memory from 0x0006
_CPM_BDOS_ENTRY = bytes([0xC3, CPM_BDOS & 0xFF, CPM_BDOS >> 8])
# CPM_BDOS: hand C, E and D to the host through ports, then return.
_CPM_BDOS_STUB = bytes(
    [
        0x79,  # LD A,C
        0xD3, _PORT_FUNCTION,  # OUT (0),A
        0x7B,  # LD A,E
        0xD3, _PORT_E,  # OUT (1),A
        0x7A,  # LD A,D
        0xD3, _PORT_D,  # OUT (2),A
        0xC9,  # RET
    ]
)  # fmt: skip

# T-states per call of Z80.run() in ``cpm``: grows from the first to the last, so that a short
# program ends quickly and a long one pays little per-call overhead.
_CPM_FIRST_CHUNK = 1 << 12
_CPM_LAST_CHUNK = 1 << 21


class CpmError(Exception):
    """A program that cannot be run or that failed (the message names the file)."""


def _make_cpu(memory: bytearray, engine: str | None, **ports) -> Z80:
    try:
        return Z80(memory, engine=engine, **ports)
    except Z80Error as exc:  # e.g. a bad ZXMONOPOLY_ENGINE, or jit without numba
        raise CpmError(str(exc)) from None


class _Bdos:
    """The two console functions of CP/M's BDOS that test programs use, and warm boot."""

    def __init__(self, memory: bytearray, out) -> None:
        self.memory = memory
        self.out = out
        self.function = 0
        self.e = 0
        self.done = False
        self.error: str | None = None
        self.cpu = None  # set once the Z80 exists
        self.exit_tstates: int | None = None

    def write_port(self, port: int, value: int) -> None:
        low = port & 0xFF
        if low == _PORT_FUNCTION:
            self.function = value
        elif low == _PORT_E:
            self.e = value
        elif low == _PORT_D:
            self.call(value << 8 | self.e)
        elif low == _PORT_EXIT:
            self.done = True
            # The CPU runs on (halted) to the end of its run() chunk: note when it got here.
            self.exit_tstates = self.cpu.tstates

    def call(self, de: int) -> None:
        if self.function == 0:  # system reset
            self.done = True
        elif self.function == 2:  # console output: E
            self.put(bytes([de & 0xFF]))
        elif self.function == 9:  # print string: DE, terminated by '$'
            memory = self.memory
            text = bytearray()
            address = de
            for _ in range(0x10000):
                byte = memory[address]
                if byte == 0x24:  # '$'
                    break
                text.append(byte)
                address = (address + 1) & 0xFFFF
            self.put(bytes(text))
        elif not self.done:
            self.error = f"unsupported BDOS function {self.function} (only 0, 2 and 9 exist here)"
            self.done = True

    def put(self, data: bytes) -> None:
        self.out.write(data.decode("ascii", errors="replace"))
        self.out.flush()


def run_cpm(
    path: Path,
    *,
    engine: str | None = None,
    max_tstates: int = 0,
    out=None,
) -> int:
    """Run the CP/M program ``path`` until it warm-boots; return the T-states it took.

    The count is the CPU's at the warm boot's port write (its OUT at 0x0000).

    BDOS functions 2 (console output) and 9 (print string) go to ``out`` (stdout by default).
    ``max_tstates`` > 0 stops a program that runs longer with a CpmError.
    """
    out = sys.stdout if out is None else out
    try:
        program = read_regular(path, 16 * 1024 * 1024, "file")  # a device: refused
    except FileNotFoundError:
        raise CpmError(f"{path}: no such file") from None
    except OSError as exc:
        raise CpmError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not program:
        raise CpmError(f"{path}: the file is empty")
    if len(program) > CPM_MAX_SIZE:
        raise CpmError(
            f"{path}: {len(program)} bytes is too large for a CP/M program here "
            f"(at most {CPM_MAX_SIZE} bytes, 0x{CPM_TPA:04X}-0x{CPM_BDOS - 1:04X})"
        )

    memory = bytearray(0x10000)
    memory[0 : len(_CPM_WARM_BOOT)] = _CPM_WARM_BOOT
    memory[5 : 5 + len(_CPM_BDOS_ENTRY)] = _CPM_BDOS_ENTRY
    memory[CPM_BDOS : CPM_BDOS + len(_CPM_BDOS_STUB)] = _CPM_BDOS_STUB
    memory[CPM_TPA : CPM_TPA + len(program)] = program
    # The return address of the program's final RET: the warm boot at 0x0000.
    memory[CPM_STACK] = memory[CPM_STACK + 1] = 0x00

    bdos = _Bdos(memory, out)
    cpu = _make_cpu(memory, engine, write_port=bdos.write_port)
    bdos.cpu = cpu
    cpu.pc = CPM_TPA
    cpu.sp = CPM_STACK
    chunk = _CPM_FIRST_CHUNK
    while not bdos.done:
        if max_tstates and cpu.tstates >= max_tstates:
            raise CpmError(f"{path}: still running after {cpu.tstates} T-states")
        limit = cpu.tstates + chunk
        if max_tstates:
            limit = min(limit, max_tstates)
        cpu.run(limit)
        chunk = min(chunk * 2, _CPM_LAST_CHUNK)
    if bdos.error:
        raise CpmError(f"{path}: {bdos.error}")
    return cpu.tstates if bdos.exit_tstates is None else bdos.exit_tstates
