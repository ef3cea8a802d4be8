"""Call the game's Z80 routines one at a time: the game's code put straight into RAM.

A :class:`GameRig` skips the tape: it copies the game's code block into a booted machine,
installs the game's interrupt, clears its state block and then calls routines by symbol
name with chosen registers, running frames (so HALT waits and key presses work) until the
routine returns. Tests of single rules (rent, cards, dice) use it; whole games use a
:class:`~zxmonopoly.harness.session.Session` that loads the tape as a user does.
"""

from __future__ import annotations

from collections.abc import Iterable

from zxmonopoly import images
from zxmonopoly.harness.game import player_field_address
from zxmonopoly.harness.session import INPUT_WAIT, HarnessError, Session, Symbols
from zxmonopoly.memory_map import PRINTER_BUFFER
from zxmonopoly.tape import tap

#: Where the rig parks a routine's return: a ``JR $`` in the printer buffer, outside the game.
RETURN_TRAP = PRINTER_BUFFER
JR_SELF = (0x18, 0xFE)


def game_code() -> tuple[int, bytes]:
    """The start address and bytes of the built game's program: the tape's last CODE block
    (the loading screen, a CODE block at 16384, comes before it)."""
    path = images.game_tape_path()
    blocks = tap.read_tap(path.read_bytes(), str(path))
    found = None
    for k, block in enumerate(blocks):
        header = tap.Header.from_block(block)
        if header is not None and header.type == tap.CODE and k + 1 < len(blocks):
            found = header.param1, bytes(blocks[k + 1].data)
    if found is None:
        raise HarnessError(f"{path} holds no CODE block")
    return found


def game_symbols() -> Symbols:
    """The built game's symbol map."""
    return Symbols.load(images.game_symbols_path())


class GameRig(Session):
    """A session with the game's code in RAM and its routines callable by name."""

    def __init__(self, *, engine: str | None = None) -> None:
        super().__init__(engine=engine, symbols=images.game_symbols_path())
        start, code = game_code()
        mem = self.machine.memory
        mem[start:start + len(code)] = code
        mem[RETURN_TRAP:RETURN_TRAP + 2] = bytes(JR_SELF)
        cpu = self.machine.cpu
        cpu.iff1 = cpu.iff2 = 0
        self.call("interrupt_install")
        self.call("state_clear")
        # As the game's start does: CHARS (the ROM's variable) points at the game's font.
        chars, charset = self.symbols["SYS_CHARS"], self.symbols["font"] - 256
        mem[chars:chars + 2] = charset.to_bytes(2, "little")
        self.font = "font"

    def start_call(self, routine: str | int, **registers: int) -> None:
        """Set the registers, push the return trap and jump to ``routine``; run nothing yet."""
        cpu = self.machine.cpu
        cpu.sp = self.symbols["STACK_TOP"] - 2
        self.machine.memory[cpu.sp] = RETURN_TRAP & 0xFF
        self.machine.memory[cpu.sp + 1] = RETURN_TRAP >> 8
        for name, value in registers.items():
            setattr(cpu, name, value)
        cpu.halted = 0
        cpu.iff1 = cpu.iff2 = 1
        cpu.pc = self.address(routine)

    def finish_call(self, budget: int = 500) -> None:
        """Run frames until the routine started by :meth:`start_call` returns."""
        if not self.machine.run_until(pc=RETURN_TRAP, max_frames=budget):
            raise self.fail(f"the routine did not return within {budget} frames "
                            f"(PC = 0x{self.machine.cpu.pc:04X})")

    def call(self, routine: str | int, budget: int = 500, keys: Iterable[str] = (),
             **registers: int) -> None:
        """Call a routine with registers; tap ``keys`` one after another while it runs."""
        self.start_call(routine, **registers)
        for key in keys:
            self.wait_input()
            self.tap(key)
        self.finish_call(budget)

    def type_keys(self, text: str) -> None:
        """Type ``text`` one character at a time, each when the game waits for a key."""
        for ch in text:
            self.wait_input()
            self.type(ch)

    # -- state block ------------------------------------------------------------------------

    def player_address(self, player: int, field: str) -> int:
        """The address of a field (``"P_CASH"``…) of player ``player``'s record, players
        numbered 1-6 as on the screen (HarnessError otherwise)."""
        return player_field_address(self.symbols, player, field)


__all__ = ["INPUT_WAIT", "RETURN_TRAP", "GameRig", "game_code", "game_symbols"]
