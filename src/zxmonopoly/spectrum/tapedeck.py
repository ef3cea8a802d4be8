"""The Spectrum's tape recorder: plays a tape's edges into the EAR bit, fast-loads, saves.

Real loading: the Spectrum engine reads the EAR level from the tape's edge times as the
program reads port 0xFE, with T-state precision (the edges are an array the compiled loop
sees). Fast loading: when the PC reaches LD-BYTES (0x0556) in a ROM with the standard
interface, the next data block is copied in at once and the routine returns as the ROM's would.
Saving: SA-BYTES (0x04C2) is trapped and the block is appended to a TAP file.
See docs/tape.md.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from zxmonopoly.memory_map import ROM_SIZE
from zxmonopoly.z80 import Z80, state

LD_BYTES = 0x0556
SA_BYTES = 0x04C2
SA_LD_RET = 0x053F
# The standard routines' first instructions: INC D / EX AF,AF' / DEC D (LD-BYTES saves the
# load/verify carry and the flag byte), and LD HL,SA/LD-RET / PUSH HL (SA-BYTES). A ROM with
# these at the standard addresses has the standard interface (spectrum_facts §5.2). Some ROMs
# (OpenSE BASIC) begin LD-BYTES with a DI before them: the entry registers are the same.
LD_BYTES_PROLOGUE = bytes.fromhex("140815")
LD_BYTES_PROLOGUES = (LD_BYTES_PROLOGUE, bytes.fromhex("F3140815"))
#: A TAP record's 2-byte length counts the flag and the checksum too.
TAP_MAX_DATA = 0xFFFF - 2
#: Bytes SAVE may write to TAP files in one machine's life (a program saving in a loop wrote
#: 112 MB in 5 frames before there was a limit). Past it, SAVE runs as on a real machine, to
#: MIC only, and :attr:`TapeDeck.problems` says so once.
SAVE_LIMIT = 16 * 1024 * 1024
#: Problems kept in :attr:`TapeDeck.problems` (later ones are counted).
MAX_PROBLEMS = 20
SA_BYTES_PROLOGUE = bytes.fromhex("213F05E5")


class Deck(Protocol):
    """What the recorder needs of the machine it sits in (a :class:`Spectrum48`)."""

    cpu: Z80
    memory: bytearray
    rom: bytes


@dataclass
class DataBlock:
    """One block of bytes on the tape, with where its signal starts and ends."""

    index: int  # position among the tape's data blocks, in playing order
    data: bytes  # flag, payload, checksum: as the loader reads them
    first_edge: int
    end_edge: int
    end_time: int


class TapeDeck:
    """Plays, stops and rewinds a tape in a :class:`Spectrum48`; traps LD-BYTES and SA-BYTES."""

    def __init__(self, machine: Deck):
        self.machine = machine
        self.edges = np.zeros(1, dtype=np.int64)  # the compiled loop always gets an array
        self.name: str | None = None
        #: What ``tape info`` warns of in the tape inserted (no blocks, a bad checksum, ...).
        self.warnings: list[Any] = []
        self.fast = True
        self.trap_saves = True  # SAVE goes straight to a TAP file (else MIC only, as real)
        self.save_path: Path | None = None
        self.saved: list[Any] = []  # TapBlocks written by SAVE
        self.save_limit = SAVE_LIMIT
        self.saved_bytes = 0  # written to TAP files by SAVE so far
        self.problems: list[str] = []  # SAVEs not written, for the user (see _problem)
        self.problems_dropped = 0
        self._limit_reached = False
        self._blocks: list[DataBlock] = []
        self._stops: list[tuple[int, int]] = []  # (edge index, tape time) where the tape stops
        self._level0 = 0
        self._time = 0  # tape time while stopped
        self._next_block = 0  # for fast loading: the next data block to hand over
        self._arm_traps()  # SAVE works with no tape in

    # -- the tape ---------------------------------------------------------------------------

    def insert(self, source: str | os.PathLike[str] | bytes, name: str | None = None) -> None:
        """Put a TAP or TZX (a path or its bytes) in the recorder, rewound and stopped."""
        from zxmonopoly import tape as tapes

        signal = tapes.signal_of(source, name)
        self.name = name or (str(source) if not isinstance(source, bytes) else "<tape>")
        self.edges = np.ascontiguousarray(signal.edges, dtype=np.int64)
        if self.edges.size == 0:
            self.edges = np.zeros(1, dtype=np.int64)
        self._level0 = int(signal.initial_level) & 1
        self.warnings = list(signal.warnings)
        self._stops = [(int(i), int(t)) for i, t in tapes.stop_points(signal)]
        # In playing order (a block's index in the file repeats inside a TZX loop).
        self._blocks = [DataBlock(k, bytes(b.raw), int(b.first_edge), int(b.end_edge),
                                  int(b.end_time)) for k, b in enumerate(tapes.data_blocks(signal))]
        self.stop()
        self.rewind()
        self._arm_traps()

    @property
    def playing(self) -> bool:
        """Whether the tape is running."""
        return bool(self.machine.cpu.state[state.TAPE_ON])

    @property
    def finished(self) -> bool:
        """Whether the tape has been read: every data block handed over by fast loading, or
        the tape played to its last edge and stopped. No tape: True."""
        if self.name is None:
            return True
        if self.playing:
            return False
        last = int(self.edges[-1]) if self.edges.size else 0
        loaded = self._next_block >= len(self._blocks)
        return loaded or self._time >= last

    def position(self) -> int:
        """Tape time now, in T-states from its start."""
        st = self.machine.cpu.state
        if st[state.TAPE_ON]:
            return int(st[state.TAPE_T0]) + self.machine.cpu.tstates
        return self._time

    def block_counter(self) -> tuple[int, int]:
        """(the data block playing or next to play, counted from 1; the tape's data blocks)."""
        total = len(self._blocks)
        now = self.position()
        done = sum(1 for block in self._blocks if block.end_time <= now)
        done = max(done, self._next_block)
        return min(done + 1, total), total

    def rewind(self) -> None:
        """Back to the start of the tape."""
        was = self.playing
        self.stop()
        self._time = 0
        self._next_block = 0
        st = self.machine.cpu.state
        st[state.TAPE_POS] = 0
        st[state.EAR_IN] = self._level0
        if was:
            self.play()

    def seek(self, time: int) -> None:
        """Wind the tape to ``time`` (T-states from its start); it plays on from there if it was
        playing. With :meth:`position` this moves a tape between machines (snapshots do not
        hold the tape)."""
        was = self.playing
        self.stop()
        st = self.machine.cpu.state
        self._time = max(0, int(time))
        pos = int(np.searchsorted(self.edges, self._time, side="right")) if self.name else 0
        st[state.TAPE_POS] = pos
        st[state.EAR_IN] = (self._level0 ^ pos) & 1
        self._next_block = next((b.index for b in self._blocks if b.end_time > self._time),
                                len(self._blocks))
        if was:
            self.play()

    def play(self) -> None:
        """Start the tape from where it is."""
        if self.name is None or self.playing:
            return
        st = self.machine.cpu.state
        st[state.TAPE_T0] = self._time - self.machine.cpu.tstates
        st[state.TAPE_LEVEL0] = self._level0
        st[state.TAPE_END] = self._segment_end(int(st[state.TAPE_POS]))
        st[state.TAPE_ON] = 1

    def stop(self) -> None:
        """Stop the tape where it is."""
        st = self.machine.cpu.state
        if st[state.TAPE_ON]:
            self._time = int(st[state.TAPE_T0]) + self.machine.cpu.tstates
            self._catch_up(self._time)
            st[state.TAPE_ON] = 0

    def _segment_end(self, pos: int) -> int:
        for index, _ in self._stops:
            if index > pos:
                return index
        return int(self.edges.size) if self.name is not None else 0

    def _catch_up(self, now: int) -> None:
        """Move past every edge up to tape time ``now`` (within the playable segment)."""
        st = self.machine.cpu.state
        end = int(st[state.TAPE_END])
        pos = int(st[state.TAPE_POS])
        pos = max(pos, min(end, int(np.searchsorted(self.edges, now, side="right"))))
        st[state.TAPE_POS] = pos
        st[state.EAR_IN] = (self._level0 ^ pos) & 1

    def end_frame(self, frame_tstates: int) -> None:
        """At a frame's end: move the tape on, stop at stop points and at the end."""
        st = self.machine.cpu.state
        if not st[state.TAPE_ON]:
            return
        now = int(st[state.TAPE_T0]) + frame_tstates
        self._catch_up(now)
        end = int(st[state.TAPE_END])
        stop_time = next((t for i, t in self._stops if i == end), None)
        last = int(self.edges[-1]) if self.edges.size else 0
        if (stop_time is not None and now >= stop_time) or (end >= self.edges.size
                                                             and now > last):
            self._time = now - frame_tstates + self.machine.cpu.tstates
            st[state.TAPE_ON] = 0
            self._time = max(self._time, stop_time or last)
            return
        st[state.TAPE_T0] = int(st[state.TAPE_T0]) + frame_tstates

    # -- traps ------------------------------------------------------------------------------

    def _arm_traps(self) -> None:
        rom = self.machine.rom
        bp = self.machine.cpu.breakpoints
        bp[LD_BYTES] = 1 if (self.fast and self.name is not None and
                             any(rom[LD_BYTES:LD_BYTES + len(p)] == p
                                 for p in LD_BYTES_PROLOGUES)) else 0
        bp[SA_BYTES] = 1 if (self.trap_saves and
                             rom[SA_BYTES:SA_BYTES + 4] == SA_BYTES_PROLOGUE) else 0

    def set_fast(self, fast: bool) -> None:
        """Fast loading on (the default) or off (the tape plays in real time)."""
        self.fast = fast
        self._arm_traps()

    def set_save_trap(self, on: bool) -> None:
        """SAVE to a TAP file at once (the default), or only as the real signal on MIC."""
        self.trap_saves = on
        self._arm_traps()

    def trap(self) -> bool:
        """Handle a stop at LD-BYTES or SA-BYTES; True when handled (the run goes on)."""
        pc = self.machine.cpu.pc
        if pc == LD_BYTES and self.machine.cpu.breakpoints[LD_BYTES]:
            return self._fast_load()
        if pc == SA_BYTES and self.machine.cpu.breakpoints[SA_BYTES]:
            return self._save()
        return False

    def _fast_load(self) -> bool:
        """LD-BYTES at once: IX dest, DE length, A flag, carry = load (else verify)."""
        cpu, mem = self.machine.cpu, self.machine.memory
        self.stop()
        pos = int(cpu.state[state.TAPE_POS])
        block = next((b for b in self._blocks if b.index >= self._next_block
                      and b.end_edge > pos), None)
        if block is None:
            return False  # nothing left: let the ROM wait on the tape as it would
        self._next_block = block.index + 1
        cpu.state[state.TAPE_POS] = block.end_edge
        self._time = block.end_time
        cpu.state[state.EAR_IN] = (self._level0 ^ block.end_edge) & 1
        data, length, dest, load = block.data, cpu.de, cpu.ix, cpu.f & 1
        ok = False
        done = 0
        if data and data[0] == cpu.a:
            payload = data[1:]
            parity = data[0]
            done = min(length, len(payload))
            for k in range(done):
                byte = payload[k]
                addr = (dest + k) & 0xFFFF
                if load:
                    if addr >= ROM_SIZE:  # (the ROM is not written)
                        mem[addr] = byte
                elif mem[addr] != byte:
                    done = k
                    break
                parity ^= byte
            if done == length and len(payload) > length:
                parity ^= payload[length]
                ok = parity == 0
            cpu.ix = (dest + done) & 0xFFFF
            cpu.de = (length - done) & 0xFFFF
        # As the ROM leaves them: carry = success; then SA/LD-RET restores the border,
        # checks BREAK and enables interrupts.
        cpu.f = (cpu.f & 0xFE) | (1 if ok else 0)
        cpu.pc = SA_LD_RET
        # The tape runs on from the block's end, so a program's own loader that reads the next
        # blocks in real time finds them playing.
        self.play()
        return True

    def _problem(self, message: str) -> None:
        """Keep a message for the user about a SAVE that was not written (the first few)."""
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(message)
        else:
            self.problems_dropped += 1

    def _save(self) -> bool:
        """SA-BYTES at once: IX start, DE length, A flag; the block goes to the save file.

        A block a TAP file cannot hold (more than 65,533 bytes), one past :attr:`save_limit`
        or one the file refuses is not trapped: the ROM's own SA-BYTES runs, to MIC only, as
        on a real Spectrum with no recorder, and :attr:`problems` says why. The guest program
        never sees a host error.
        """
        from zxmonopoly.tape.tap import TapBlock, write_tap

        cpu, mem = self.machine.cpu, self.machine.memory
        length, start = cpu.de, cpu.ix
        what = f"SAVE of {length:,} bytes from {start:#06x} (flag {cpu.a:#04x})"
        if length > TAP_MAX_DATA:
            self._problem(f"{what} not written: a TAP block holds {TAP_MAX_DATA:,} bytes at "
                          "most; it went to MIC only")
            return False
        if self.saved_bytes + length + 4 > self.save_limit:
            if not self._limit_reached:
                self._problem(f"{what} not written, nor any later SAVE: this run has saved "
                              f"{self.saved_bytes:,} bytes, and {self.save_limit:,} is the "
                              "most; they went to MIC only")
                self._limit_reached = True
            return False
        data = bytes(mem[(start + k) & 0xFFFF] for k in range(length))
        block = TapBlock(cpu.a, data)
        path = self.save_path or self._new_save_path()
        try:
            with open(path, "ab") as out:
                out.write(write_tap([block]))
        except OSError as exc:
            self._problem(f"{what} not written: {path}: {exc.strerror or exc}; it went to "
                          "MIC only")
            return False
        self.save_path = path
        self.saved.append(block)
        self.saved_bytes += length + 4
        cpu.ix = (cpu.ix + cpu.de) & 0xFFFF
        cpu.de = 0
        cpu.f = cpu.f | 1
        cpu.pc = SA_LD_RET
        return True

    @staticmethod
    def _new_save_path() -> Path:
        """A new file in the working directory: never one that exists."""
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = Path(f"zxmonopoly-save-{stamp}.tap")
        k = 1
        while path.exists():
            path = Path(f"zxmonopoly-save-{stamp}-{k}.tap")
            k += 1
        return path
