"""Helpers for Z80 tests: run an instruction, compare registers, explain a difference."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

# The state the FUSE vectors give, in their order.
REGISTERS = (
    "af", "bc", "de", "hl", "af_", "bc_", "de_", "hl_", "ix", "iy", "sp", "pc", "memptr",
    "i", "r", "iff1", "iff2", "im", "halted",
)  # fmt: skip

_WORDS = {"af", "bc", "de", "hl", "af_", "bc_", "de_", "hl_", "ix", "iy", "sp", "pc", "memptr"}
_BYTES = {"a", "f", "b", "c", "d", "e", "h", "l", "ixh", "ixl", "iyh", "iyl", "i", "r"}
_FLAG_NAMES = "SZ5H3PNC"


def format_value(name: str, value: int) -> str:
    """A register value as a Z80 programmer reads it."""
    if name in _WORDS:
        return f"{value:04X}"
    if name in _BYTES:
        return f"{value:02X}"
    return str(value)


def flags_text(f: int) -> str:
    """F as 'SZ5H3PNC' with '-' for each reset bit."""
    return "".join(n if f & (0x80 >> k) else "-" for k, n in enumerate(_FLAG_NAMES))


def snapshot(cpu, names: Sequence[str] = REGISTERS) -> dict[str, int]:
    """The named registers of ``cpu`` (plus tstates) as plain ints."""
    state = {name: int(getattr(cpu, name)) for name in names}
    state["tstates"] = int(cpu.tstates)
    return state


def register_table(expected: Mapping[str, int], actual: Mapping[str, int]) -> str:
    """A table of the registers in ``expected``; differing rows are marked with '*'."""
    lines = ["reg       expected    actual"]
    for name, want in expected.items():
        got = actual.get(name)
        mark = " " if got == want else "*"
        got_text = "?" if got is None else format_value(name, got)
        lines.append(f"{mark} {name:<7} {format_value(name, want):>8}  {got_text:>8}")
        if name in ("af", "af_") and got is not None and got != want:
            lines.append(f"  {'F':<7} {flags_text(want & 0xFF):>8}  {flags_text(got & 0xFF):>8}")
    return "\n".join(lines)


def memory_diff(expected: bytes, actual: bytes, limit: int = 16) -> str:
    """The first ``limit`` addresses where two memories differ, one per line."""
    lines = []
    count = 0
    for address, (want, got) in enumerate(zip(expected, actual, strict=True)):
        if want != got:
            count += 1
            if count <= limit:
                lines.append(f"  {address:04X}: expected {want:02X}, got {got:02X}")
    if count > limit:
        lines.append(f"  ... {count - limit} more")
    return "\n".join(lines)


def disassemble(memory: bytes, address: int) -> str:
    """The instruction at ``address`` as text, or '?' if the disassembler cannot say."""
    try:
        from zxmonopoly.z80.disasm import decode

        return decode(memory, address).text
    except Exception:  # only labels failure messages: never hide a failure behind it
        return "?"


@dataclass
class InstructionRun:
    """The outcome of :func:`run_instruction`."""

    cpu: object
    memory: bytearray
    code: bytes
    mnemonic: str
    inputs: dict[str, int]
    tstates: int  # T-states the instruction(s) took
    initial_memory: bytes = field(repr=False)

    def describe(self) -> str:
        inputs = ", ".join(f"{k}={format_value(k, v)}" for k, v in self.inputs.items())
        return f"{self.mnemonic} [{self.code.hex(' ').upper()}] with {inputs or 'no inputs'}"

    def expect(
        self,
        *,
        tstates: int | None = None,
        memory: Mapping[int, int | bytes | Sequence[int]] | None = None,
        **registers: int,
    ) -> None:
        """Assert the registers, T-states taken and changed memory; a failure shows a diff.

        ``memory`` maps an address to the byte(s) expected there; every other byte must be
        unchanged.
        """
        actual = {name: int(getattr(self.cpu, name)) for name in registers}
        problems = []
        if actual != registers:
            problems.append(register_table(registers, actual))
        if tstates is not None and tstates != self.tstates:
            problems.append(f"T-states: expected {tstates}, took {self.tstates}")
        want = bytearray(self.initial_memory)
        for address, data in (memory or {}).items():
            for k, byte in enumerate([data] if isinstance(data, int) else data):
                want[(address + k) & 0xFFFF] = byte
        if want != self.memory:
            problems.append("memory differs:\n" + memory_diff(want, self.memory))
        if problems:
            raise AssertionError(self.describe() + "\n" + "\n".join(problems))


def run_instruction(
    code: bytes | Sequence[int],
    *,
    engine: str | None = None,
    at: int = 0x0000,
    memory: Mapping[int, int | bytes | Sequence[int]] | None = None,
    fill: int = 0x00,
    read_port: Callable[[int], int] | None = None,
    write_port: Callable[[int, int], None] | None = None,
    steps: int = 1,
    mnemonic: str | None = None,
    **registers: int,
) -> InstructionRun:
    """Put ``code`` at ``at`` (PC), set ``registers``, run ``steps`` step()s and return the run.

    ``engine`` is one of ``tests.z80.engines.Z80_ENGINES`` (the Spectrum's too).

    ``memory`` maps addresses to extra bytes; the rest of memory holds ``fill``. Registers are
    set in the order given, so ``af=..., f=...`` sets F last. Use ``.expect(...)`` on the result.
    """
    from tests.z80.engines import make_z80

    code = bytes(code)
    mem = bytearray([fill]) * 0x10000
    for address, data in (memory or {}).items():
        for k, byte in enumerate([data] if isinstance(data, int) else data):
            mem[(address + k) & 0xFFFF] = byte
    for k, byte in enumerate(code):
        mem[(at + k) & 0xFFFF] = byte
    initial = bytes(mem)
    ports = {}
    if read_port is not None:
        ports["read_port"] = read_port
    if write_port is not None:
        ports["write_port"] = write_port
    cpu = make_z80(mem, engine, **ports)
    cpu.pc = at
    for name, value in registers.items():
        setattr(cpu, name, value)
    taken = 0
    for _ in range(steps):
        taken += cpu.step()
    return InstructionRun(
        cpu=cpu,
        memory=mem,
        code=code,
        mnemonic=mnemonic or disassemble(initial, at),
        inputs=dict(registers),
        tstates=taken,
        initial_memory=initial,
    )
