"""RZX recordings on the 48K: play one back frame by frame, or record the machine as it runs.

The format is :mod:`zxmonopoly.snapshot.rzx`; this is the machine's side (docs/recordings.md).
Playing, a frame runs until its count of opcode fetches (``Spectrum48.run_fetches``), each IN
reading the frame's next recorded value (the engines' port-read log), and then ends where it
is: the next frame starts at T 0 with the interrupt, as Fuse plays them. A frame whose reads
run out, or that leaves some unread, or whose count falls inside an instruction, has gone
out of step with the recording: :class:`RzxDesync` names it. Recording, each of the machine's
frames becomes one frame of the file: the fetches it ran and the values its INs read.
"""

from __future__ import annotations

import os

from zxmonopoly import snapshot as snapshots
from zxmonopoly.memory_map import RAM_START
from zxmonopoly.snapshot.rzx import (
    Frame,
    InputBlock,
    Recording,
    RzxError,
    SnapshotBlock,
    load_rzx,
    snapshot_block,
)
from zxmonopoly.z80 import state

from .errors import SpectrumError
from .machine import IN_LOG_ENTRIES, Spectrum48
from .timing import FRAME_TSTATES, INT_LENGTH

__all__ = ["RzxDesync", "RzxPlayer", "RzxRecorder", "closing_differences", "machine_for"]


class RzxDesync(SpectrumError):
    """A replay out of step with its recording; the message names the file and the frame."""

    def __init__(self, name: str, frame: int, problem: str) -> None:
        super().__init__(f"{name}: frame {frame}: {problem}")
        self.frame = frame


def machine_for(recording: Recording, rom: bytes | str | os.PathLike[str] | None = None,
                engine: str | None = None) -> Spectrum48:
    """A 48K with the recording's ROM (Fuse's custom-ROM block), else ``rom`` (else ours)."""
    start = recording.start
    return Spectrum48(rom=start.rom if start.rom is not None else rom, engine=engine)


class RzxPlayer:
    """Plays a recording on a machine, frame by frame, from its first snapshot.

    ``machine``: one made for it (:func:`machine_for`); the start snapshot is loaded into it
    here. Snapshot blocks between input blocks are the moment the play has reached already
    (Fuse's autosaves, every 5 s of a recording), so they are not loaded: the machine is
    compared with each as play passes it (``bookmarks_checked``, and ``bookmark_differences``:
    the frame and what differs, :func:`closing_differences`). The last, Fuse's closing one,
    is ``closing``.
    """

    def __init__(self, recording: Recording, machine: Spectrum48, name: str = "recording"):
        self.recording = recording
        self.machine = machine
        self.name = name
        self.frames: list[Frame] = []
        self._block_start: dict[int, int] = {}  # frame index -> the T-state its block starts at
        self._bookmarks: dict[int, SnapshotBlock] = {}  # frame index -> the snapshot before it
        for k, block in enumerate(recording.blocks):
            if isinstance(block, InputBlock):
                self._block_start[len(self.frames)] = block.tstates
                self.frames.extend(block.frames)
            elif k and self.frames and block is not recording.closing:
                self._bookmarks[len(self.frames)] = block
        self.bookmarks_checked = 0
        self.bookmark_differences: list[tuple[int, list[str]]] = []
        self.frame = 0  # frames played
        machine.from_snapshot(recording.start.snapshot)
        # The recording starts inside a frame: no interrupt until its first frame has run.
        machine.cpu.state[state.INT_END] = 0

    @classmethod
    def load(cls, path: str | os.PathLike[str], rom: bytes | str | os.PathLike[str] | None = None,
             engine: str | None = None) -> RzxPlayer:
        """Read ``path`` and make a machine for it (:func:`machine_for`)."""
        recording = load_rzx(path)
        return cls(recording, machine_for(recording, rom, engine), os.fspath(path))

    @property
    def closing(self) -> SnapshotBlock | None:
        """The recording's closing snapshot (Fuse's state at its end), if it has one."""
        return self.recording.closing

    @property
    def done(self) -> bool:
        """Whether every frame has been played."""
        return self.frame >= len(self.frames)

    def play_frame(self) -> None:
        """Play the next frame: its fetches with its port reads, then its interrupt."""
        index = self.frame
        frame = self.frames[index]
        m = self.machine
        if index in self._bookmarks:
            self.bookmarks_checked += 1
            differences = closing_differences(m, self._bookmarks.pop(index).snapshot)
            if differences:
                self.bookmark_differences.append((index, differences))
        if index in self._block_start:
            self._start_block(index, self._block_start[index])
        m.log_port_reads(state.IN_REPLAY, frame.inputs)
        try:
            over = m.run_fetches(frame.fetches)
            reads = m.port_reads
        finally:
            m.log_port_reads(state.IN_OFF)
        if reads > len(frame.inputs):
            raise RzxDesync(self.name, index, f"{reads:,} port reads, {len(frame.inputs):,} "
                                              "recorded")
        if reads < len(frame.inputs):
            raise RzxDesync(self.name, index, f"{len(frame.inputs) - reads:,} of its "
                                              f"{len(frame.inputs):,} recorded port reads "
                                              "left unread")
        if over:
            raise RzxDesync(self.name, index, f"its count of {frame.fetches:,} fetches ends "
                                              f"inside an instruction ({over} past it)")
        m.end_frame_here()
        self.frame += 1

    def _start_block(self, index: int, tstates: int) -> None:
        """An input block's first frame starts at its T-state.

        Fuse ends a frame at the first instruction boundary from 69,888 T on and writes the
        next block's T-state (and an autosave's) before it starts the next frame: 69,897 is
        9 T into it, its interrupt to come. So is the start of every block but the first (a
        frame starts with its interrupt, whatever its T-state); the first starts inside a
        frame, without one, unless its T-state is past the frame's end too.
        """
        m = self.machine
        if index == 0 and tstates < FRAME_TSTATES:
            m.cpu.tstates = tstates
            return
        m.cpu.tstates = tstates % FRAME_TSTATES
        m.cpu.state[state.INT_END] = m.cpu.tstates + INT_LENGTH

    def settle(self) -> bool:
        """After the last frame, accept its interrupt as Fuse does before its closing snapshot."""
        return self.machine.take_interrupt()

    def play(self, frames: int | None = None) -> int:
        """Play ``frames`` frames (all that are left when None); return how many were played."""
        left = len(self.frames) - self.frame
        count = left if frames is None else min(frames, left)
        for _ in range(count):
            self.play_frame()
        return count


class RzxRecorder:
    """Records a machine from now: a snapshot block, then one frame per frame it runs.

    ``suffix``: the start snapshot's format, ".szx" (with the machine's ROM in it, so that
    Fuse runs the same ROM) or ".z80". :meth:`stop` adds the closing snapshot and returns the
    recording. Its frames are the machine's: stop between frames, as the window does.
    """

    def __init__(self, machine: Spectrum48, suffix: str = ".szx", creator: str = "zxmonopoly"):
        self.machine = machine
        # A player starts inside the frame and takes no interrupt before the first frame's
        # count (Fuse neither): one due now is accepted before the start snapshot is taken.
        machine.take_interrupt()
        self.recording = Recording([snapshot_block(machine.to_snapshot(), suffix,
                                                   rom=machine.rom)], creator=creator)
        self._input = InputBlock([], machine.tstates)
        self.recording.blocks.append(self._input)
        self._fetches = machine.fetches
        self.recording_now = True
        machine.log_port_reads(state.IN_RECORD)
        machine.frame_listeners.append(self._frame_ended)

    @property
    def frames(self) -> int:
        """Frames recorded so far."""
        return len(self._input.frames)

    def _take_frame(self) -> None:
        m = self.machine
        reads = m.port_reads
        if reads > IN_LOG_ENTRIES:
            self.stop()
            raise RzxError("recording", f"frame {self.frames}: {reads:,} port reads, an RZX "
                                        f"frame holds {IN_LOG_ENTRIES:,} at most")
        fetches = m.fetches
        self._input.frames.append(Frame(fetches - self._fetches, m.logged_port_reads()))
        self._fetches = fetches
        m.log_port_reads(state.IN_RECORD)

    def _frame_ended(self, machine: Spectrum48) -> None:
        self._take_frame()

    def stop(self, suffix: str = ".szx") -> Recording:
        """Stop recording: a partly run frame is kept, then the closing snapshot."""
        if not self.recording_now:
            return self.recording
        m = self.machine
        m.frame_listeners.remove(self._frame_ended)
        self.recording_now = False
        if m.fetches != self._fetches:
            self._take_frame()
        m.log_port_reads(state.IN_OFF)
        # At a frame's end, as Fuse closes a recording: with the next frame's interrupt taken.
        m.take_interrupt()
        self.recording.blocks.append(snapshot_block(m.to_snapshot(), suffix, rom=m.rom))
        return self.recording


def closing_differences(machine: Spectrum48, closing: snapshots.Snapshot) -> list[str]:
    """What of the machine differs from a closing snapshot: registers, CPU state, RAM bytes."""
    ours = machine.to_snapshot()
    out = [f"{name}: ours {getattr(ours, name)}, recorded {getattr(closing, name)}"
           for name in (*snapshots.REGISTERS, "halted", "memptr", "border")
           if getattr(ours, name) != getattr(closing, name)]
    ram = [k for k in range(len(ours.ram)) if ours.ram[k] != closing.ram[k]]
    if ram:
        out.append(f"RAM: {len(ram):,} bytes differ, the first at {ram[0] + RAM_START:#06x}")
    return out
