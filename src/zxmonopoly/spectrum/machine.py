"""The ZX Spectrum 48K: the Z80 core, 16K ROM + 48K RAM, the ULA's frame, contention and ports.

The CPU runs a Spectrum engine generated from the same description as the bare one (see
docs/z80.md): it applies memory and I/O contention, answers the ULA port (keyboard half-rows,
EAR), the Kempston joystick and the floating bus from arrays, and logs every write to port
0xFE with its T-state. Python runs it a frame (69,888 T) at a time, raising the interrupt for
the first 32 T of each frame, and turns the log into border stripes and beeper samples.
"""

from __future__ import annotations

import functools
import os
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from zxmonopoly import images
from zxmonopoly import snapshot as snapshots
from zxmonopoly.files import read_regular
from zxmonopoly.memory_map import MEMORY_SIZE, RAM_SIZE, ROM_SIZE
from zxmonopoly.z80 import Z80, state
from zxmonopoly.z80.cpu import default_engine, engine_tables, load_engine

from . import keystrokes, video
from .beeper import Beeper, port_fe_events
from .errors import SpectrumError
from .frameinput import KEMPSTON_BITS, ROW_KEYS, FrameInput
from .keyboard import Joystick, Keyboard, KeyboardError, keys_for_text, parse_keys
from .keyfeed import KeyFeed
from .tapedeck import TapeDeck
from .timing import (
    AUDIO_RATE,
    FIFTY_HZ_CPU,
    FRAME_TSTATES,
    INT_LENGTH,
    contention_table,
    with_pass_tables,
)
from .ula import ENGINES as SPECTRUM_ENGINES

OUT_LOG_ENTRIES = 4096
#: The port-read log's size (RZX): a frame of an RZX recording holds at most 65,534 reads.
IN_LOG_ENTRIES = 0xFFFE
#: The most fetches one run of :meth:`Spectrum48.run_fetches` asks for (a frame's run does
#: about 17,500 at most): far from the 32,768 steps R keeps in the CPython engines.
RUN_FETCHES_MAX = 16_384
#: A ROM file larger than this is refused before it is read (a wrong size up to it is named).
MAX_ROM_FILE = 1 << 20

#: Audio (``audio=True``): 44,100 Hz mono int16. The beeper counts 69,888 × 50 T-states to the
#: second (:data:`~.timing.FIFTY_HZ_CPU`), so every frame gives exactly 882 samples and a host
#: showing 50 frames a second consumes exactly what it gets (no underruns, no drift); the pitch
#: is 0.16 % under a real 48K's, which nobody hears. MIC (bit 3) is mixed in at Fuse's weight
#: (2/50 of EAR); a DC blocker keeps the output centred on 0.
AUDIO_CPU_HZ = FIFTY_HZ_CPU
AUDIO_MIC_WEIGHT = 2 / 50
AUDIO_VOLUME = 8_000.0
#: Samples ``take_audio`` can hold before the oldest are dropped (one second).
AUDIO_BUFFER_SAMPLES = AUDIO_RATE


def default_rom() -> bytes:
    """Our own ROM image, shipped with the package (roms/, docs/rom-api.md)."""
    try:
        return images.rom()
    except images.ImageMissing as exc:
        raise SpectrumError(f"our ROM is not built ({exc}): pass rom= (or --rom FILE) with a "
                            "16,384-byte 48K ROM image") from None


def load_rom(rom: bytes | bytearray | str | os.PathLike[str] | None) -> bytes:
    """A ROM image from bytes, a file, or (None) our own."""
    if rom is None:
        return default_rom()
    if isinstance(rom, (bytes, bytearray)):
        data, name = bytes(rom), "ROM image"
    else:
        path = Path(rom)
        try:  # bounded: /dev/zero or a huge file would be read until memory ran out
            data = read_regular(path, MAX_ROM_FILE, "ROM image")
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            raise SpectrumError(f"{path}: cannot read the ROM: "
                                f"{getattr(exc, 'strerror', None) or exc}") from None
        name = str(path)
    if len(data) != ROM_SIZE:
        raise SpectrumError(f"{name}: a 48K ROM is {ROM_SIZE:,} bytes, this is {len(data):,}")
    return data


@functools.cache
def jit_contention() -> np.ndarray:
    """The Spectrum JIT's contention array (the delays, then its block passes' tables): made
    once a process and shared by every machine on the JIT, which only read it."""
    import importlib

    passes = importlib.import_module(SPECTRUM_ENGINES + "_jit").PASS_SPECS
    return with_pass_tables(contention_table(), passes)


class Spectrum48:
    """A 48K Spectrum that runs headless: frames, keys, screen, snapshots.

    ``rom``: None (our ROM), a path or the 16,384 bytes of any 48K ROM image. ``engine``:
    ``"jit"`` or ``"python"`` (default as for :class:`~zxmonopoly.z80.Z80`). ``audio``: turn
    each frame's port-0xFE writes into beeper samples for :meth:`take_audio` (off by default:
    headless runs are faster without).
    """

    def __init__(self, rom: bytes | bytearray | str | os.PathLike[str] | None = None,
                 engine: str | None = None, audio: bool = False):
        self.memory = bytearray(MEMORY_SIZE)
        self.rom = load_rom(rom)
        self.memory[:ROM_SIZE] = self.rom
        self.engine = engine or default_engine()
        self.cpu = Z80(self.memory, engine=self.engine)
        self.keyboard = Keyboard()
        self.joystick = Joystick()
        self.frame = 0  # frames completed since power-on
        self.border = 7  # border colour at the start of the current frame
        self._frame_events: list[tuple[int, int]] = []  # port-FE writes in the current frame
        self.last_frame_events: list[tuple[int, int]] = []  # ... and in the last whole frame
        self._border_at_last_frame = 7
        self._log = np.zeros(2 * OUT_LOG_ENTRIES, dtype=np.int64)
        self._in_log = np.zeros(IN_LOG_ENTRIES, dtype=np.uint8)
        self.deck = TapeDeck(self)
        self._bind_engine()
        self.frame_listeners: list[Callable[[Spectrum48], None]] = []
        #: Called at every stop at a breakpoint (``cpu.breakpoints``) other than the tape's
        #: traps, in every run (run_frames, run_until, step): a handler that raises stops the
        #: run there, with the PC at the breakpoint; one that returns lets the run go on.
        self.break_handlers: list[Callable[[Spectrum48], None]] = []
        #: Called when the engine stops at a broken watch (:meth:`set_watches`), after the
        #: instruction or interrupt that broke it: one that raises stops the run there; when
        #: all return, the run goes on (stopping again after each instruction while broken).
        self.watch_handlers: list[Callable[[Spectrum48], None]] = []
        self.beeper: Beeper | None = None
        if audio:
            self.beeper = Beeper(AUDIO_RATE, FRAME_TSTATES, AUDIO_CPU_HZ, volume=AUDIO_VOLUME,
                                 mic_weight=AUDIO_MIC_WEIGHT, dc_block=True)
        self.audio_limit = AUDIO_BUFFER_SAMPLES  # samples kept for take_audio at most
        self._audio: deque[np.ndarray] = deque()
        self._audio_samples = 0
        self.audio_dropped = 0  # samples dropped because nobody took them in time
        self.reset()

    def _bind_engine(self) -> None:
        """Give the Spectrum engine of ``self.engine`` its containers (and compile or load it)."""
        self._tables = engine_tables(self.engine)
        if self.engine == "jit":
            self._cont: Any = jit_contention()
            self._mem: Any = np.frombuffer(self.memory, dtype=np.uint8)
        else:
            self._cont = contention_table().tolist()  # CPython indexes lists fastest
            self._mem = self.memory
        self._run: Callable[..., int] = load_engine(
            self.engine, SPECTRUM_ENGINES,
            (self._cont, self.keyboard.rows, self.joystick.state, self._log, self.deck.edges,
             self._in_log))

    def set_engine(self, engine: str) -> None:
        """Run on ``engine`` from now on; call it between frames (or any two runs).

        Everything the engines share carries over exactly: registers, T-state, interrupt
        line, ULA output, tape position, memory, keyboard, breakpoints. The window uses it to
        move from CPython to the JIT once a background process has compiled it.
        """
        if engine == self.engine:
            return
        self.cpu.set_engine(engine)
        self.engine = engine
        self._bind_engine()

    # -- power and state --------------------------------------------------------------------

    def reset(self) -> None:
        """Power on: RAM cleared, CPU reset, at the start of a frame."""
        self.memory[ROM_SIZE:] = bytes(RAM_SIZE)
        # Armed watches are the host's, not the machine's: they outlive a reset (the CPU's
        # reset clears its whole state array, where the engines read them).
        st = self.cpu.state
        end = state.WATCH_TABLE + state.WATCH_STRIDE * state.WATCH_ENTRIES
        table = slice(state.WATCH_TABLE, end)
        count, watches = int(st[state.WATCH_N]), st[table].copy()
        self.cpu.reset()
        st = self.cpu.state
        st[table], st[state.WATCH_N] = watches, count
        self.cpu.rom_top = ROM_SIZE
        self.cpu.tstates = 0
        st = self.cpu.state
        st[state.ULA_OUT] = 0
        st[state.OUT_N] = 0
        self.border = 7
        self._frame_events = []
        self.last_frame_events = []
        self.frame = 0
        self._reset_audio()
        self._arm_interrupt()

    def _arm_interrupt(self) -> None:
        st = self.cpu.state
        st[state.INT_END] = INT_LENGTH
        st[state.INT_DATA] = 0xFF
        st[state.INT_ACK_CLEARS] = 0

    @property
    def tstates(self) -> int:
        """T-states into the current frame."""
        return self.cpu.tstates

    # -- running ----------------------------------------------------------------------------

    def _run_to(self, limit: int) -> int:
        """Run the CPU until T reaches ``limit`` (within the frame) or a breakpoint."""
        st = self.cpu.state
        tables = self._tables
        bp = self.cpu.breakpoints.array
        while True:
            reason = self._run(st, self._mem, bp, limit, *tables, self._cont,
                               self.keyboard.rows, self.joystick.state, self._log,
                               self.deck.edges, self._in_log)
            self._drain_log()
            if reason == state.EXIT_WATCH:
                for handler in self.watch_handlers:
                    handler(self)
                if not self.cpu.breakpoints[self.cpu.pc]:
                    continue
                reason = state.EXIT_BREAK  # a breakpoint here too: the engine stopped first
            if reason == state.EXIT_BREAK and self.deck.trap():
                continue  # a tape routine done at once: the program runs on
            if reason == state.EXIT_BREAK:
                for handler in self.break_handlers:
                    handler(self)
            if reason != state.EXIT_LOG_FULL:
                return int(reason)

    def set_watches(self, entries: Iterable[tuple[int, int, int, int, bool]]) -> None:
        """Have the engine check, after every instruction and interrupt acknowledge, each
        (address, width, lo, hi, inside): the byte (width 1) or little-endian word (2) at
        address, or SP when address is -1, must be in lo..hi (inside) or outside it (not
        inside); at the first one broken the run stops and calls ``watch_handlers``.
        No entries disarms them (runs then pay only the breakpoint test they always make)."""
        entries = list(entries)
        if len(entries) > state.WATCH_ENTRIES:
            raise ValueError(f"{len(entries)} watches: the engines check "
                             f"{state.WATCH_ENTRIES} at most")
        st = self.cpu.state
        for k, (address, width, lo, hi, inside) in enumerate(entries):
            if width not in (1, 2) or not -1 <= address <= 0xFFFF:
                raise ValueError(f"watch entry {k}: address {address}, width {width}")
            at = state.WATCH_TABLE + state.WATCH_STRIDE * k
            for i, value in enumerate((address, width, lo, hi, 1 if inside else 0)):
                st[at + i] = int(value)
        st[state.WATCH_N] = len(entries)
        self.cpu.breakpoints.watching = bool(entries)

    def _drain_log(self) -> None:
        st = self.cpu.state
        n = int(st[state.OUT_N])
        if n:
            pairs = self._log[:n].reshape(-1, 2).tolist()
            self._frame_events.extend((int(t), int(v)) for t, v in pairs)
            st[state.OUT_N] = 0

    def _end_frame(self, length: int = FRAME_TSTATES) -> None:
        """Close the frame: keep its port writes, start the next one at T - ``length``.

        ``length`` is the frame's, 69,888 T but in an RZX replay, where a frame ends at its
        count of fetches, whatever T that is, and the next starts at T 0 (as Fuse plays them).
        """
        events = [e for e in self._frame_events if e[0] < length]
        carried = [(t - length, v) for t, v in self._frame_events if t >= length]
        self.last_frame_events = events
        self._border_at_last_frame = self.border
        if events:
            self.border = events[-1][1] & 7
        self._frame_events = carried
        self.deck.end_frame(length)
        self.cpu.tstates = self.cpu.tstates - length
        self.frame += 1
        self._arm_interrupt()
        if self.beeper is not None:
            self._beep(events)
        for listener in self.frame_listeners:
            listener(self)

    # -- counting fetches and logging port reads (RZX) ---------------------------------------

    @property
    def fetches(self) -> int:
        """Opcode fetches (M1 cycles, a prefix one, as R counts them) since power-on."""
        return int(self.cpu.state[state.FETCHES])

    def log_port_reads(self, mode: int, values: bytes = b"") -> None:
        """Start the port-read log afresh: ``state.IN_RECORD`` logs each IN's value,
        ``state.IN_REPLAY`` has the INs read ``values`` in turn, ``state.IN_OFF`` stops it."""
        st = self.cpu.state
        if mode == state.IN_REPLAY:
            if len(values) > IN_LOG_ENTRIES:
                raise ValueError(f"{len(values):,} port reads: the log holds {IN_LOG_ENTRIES:,}")
            self._in_log[:len(values)] = np.frombuffer(bytes(values), dtype=np.uint8)
            st[state.IN_END] = len(values)
        else:
            st[state.IN_END] = IN_LOG_ENTRIES
        st[state.IN_N] = 0
        st[state.IN_MODE] = mode
        # The engines take the log's way only when told (the machine has no port callbacks).
        st[state.IO_EXIT] = state.IO_LOG if mode != state.IN_OFF else 0

    @property
    def port_reads(self) -> int:
        """INs since the port-read log was started (past its end too)."""
        return int(self.cpu.state[state.IN_N])

    def logged_port_reads(self) -> bytes:
        """The values the INs read since the log was started (as many as it holds)."""
        return self._in_log[:min(self.port_reads, IN_LOG_ENTRIES)].tobytes()

    def run_fetches(self, count: int) -> int:
        """Run until ``count`` more opcode fetches are done; return how many more were done.

        More (a positive return) only when an instruction's fetches cross the count. The
        engines count fetches as they leave a run, and every fetch takes 4 T at least, so a
        run to T + 4·(left − 2) cannot pass the count (an instruction fetches twice at most):
        a frame of an RZX recording takes a few long runs, then single instructions.
        """
        target = self.fetches + count
        while True:
            left = target - self.fetches
            if left <= 0:
                return -left
            t = self.cpu.tstates
            # A run counts its fetches by R's steps, which the CPython engines keep modulo
            # 32,768: no run may fetch that often (a frame's 65,535 of a bad file would).
            step = min(left - 2, RUN_FETCHES_MAX)
            self._run_to(t + 4 * step if left > 2 else t + 1)

    def take_interrupt(self) -> bool:
        """Accept the frame's interrupt now if it is due (no instruction runs); say if it was."""
        st = self.cpu.state
        t = self.cpu.tstates
        if not (self.cpu.iff1 and t < int(st[state.INT_END]) and not int(st[state.AFTER_EI])):
            return False
        self._run_to(t + 1)  # the engine accepts it first, and stops: it takes 13 T or more
        return True

    def end_frame_here(self) -> None:
        """End the frame now, wherever T is: the next starts at T 0 with the interrupt (RZX)."""
        self._end_frame(self.cpu.tstates)

    def step(self) -> int:
        """Run one instruction (with contention; a frame ends when it should); return its T."""
        t0 = self.cpu.tstates
        self._run_to(t0 + 1)
        taken = self.cpu.tstates - t0
        if self.cpu.tstates >= FRAME_TSTATES:
            self._end_frame()
        return taken

    def run_frames(self, n: int = 1) -> None:
        """Run ``n`` whole frames (finishing the current one first)."""
        for _ in range(n):
            while self._run_to(FRAME_TSTATES) == state.EXIT_BREAK:
                pass  # a caller's breakpoint: its break_handlers have seen it; run on
            self._end_frame()

    def run_until(self, pc: int | None = None, max_frames: int = 500,
                  condition: Callable[[Spectrum48], bool] | None = None) -> bool:
        """Run until PC reaches ``pc`` or ``condition(self)`` holds (checked at frame ends).

        Runs ``max_frames`` whole frames at most; returns True when reached, else False. A
        breakpoint of the caller's at ``pc`` stays set; at the others the break_handlers are
        called (one may raise to stop the run) and the run goes on.
        """
        addr = None if pc is None else pc & 0xFFFF
        bp = self.cpu.breakpoints
        had = addr is not None and bool(bp[addr])
        if addr is not None:
            bp[addr] = 1
        try:
            if condition is not None and condition(self):
                return True
            frames = 0
            while frames < max_frames:
                reason = self._run_to(FRAME_TSTATES)
                if reason == state.EXIT_BREAK:
                    if addr is not None and self.cpu.pc == addr:
                        return True
                    if self.cpu.tstates < FRAME_TSTATES:
                        continue  # someone else's breakpoint: the frame runs on
                self._end_frame()
                frames += 1
                if condition is not None and condition(self):
                    return True
            return False
        finally:
            if addr is not None and not had:
                bp[addr] = 0

    def run_until_text(self, text: str, max_frames: int = 500) -> bool:
        """Run frames until ``text`` appears anywhere on the screen."""
        return self.run_until(condition=lambda m: text in "\n".join(m.screen_text()),
                              max_frames=max_frames)

    # -- keys -------------------------------------------------------------------------------

    def tap(self, keys: str | Iterable[str], hold: int = keystrokes.HOLD_FRAMES,
            gap: int = keystrokes.GAP_FRAMES) -> None:
        """Press a key or combination for ``hold`` frames, then release it for ``gap`` frames."""
        self.feed_keys([keystrokes.Press(tuple(parse_keys(keys)), hold, gap)])

    def type_keys(self, combos: Iterable[str | Iterable[str]], hold: int = keystrokes.HOLD_FRAMES,
                  gap: int = keystrokes.GAP_FRAMES) -> None:
        """Press combinations one after another as any 48K ROM takes them (the same key again
        only once the ROM has seen it up long enough: ``keystrokes.plan``)."""
        self.feed_keys(keystrokes.plan(combos, hold, gap))

    def feed_keys(self, schedule: Iterable[keystrokes.Press]) -> None:
        """Run the frames a typing schedule takes (:meth:`run_feed`)."""
        feed = KeyFeed()
        feed.type(schedule)
        self.run_feed(feed)

    def run_feed(self, feed: KeyFeed) -> None:
        """Run frames while ``feed`` has a script or typing to come, its keys the frame's input
        (:meth:`set_input`; the joystick as it is); keys held on the keyboard before are let go
        meanwhile (the feed's precedence) and held again after."""
        feed.hold("keyboard", self.keyboard.pressed_combo())
        joystick = int(self.joystick.state[0])
        try:
            while True:
                feed.begin_frame()
                if not feed.busy:  # a script's last actions take no frame
                    break
                self.set_input(feed.frame_input(joystick))
                self.run_frames(1)
                feed.advance()
        finally:  # at the end, or a run stopped half way: the keys held before, and no others
            feed.clear()
            self.set_input(feed.frame_input(joystick))
            feed.let_go("keyboard")

    def set_input(self, frame_input: FrameInput) -> None:
        """The input of the frames to come: the keyboard matrix and the Kempston port, written
        here and nowhere else (the window, the lockstep node, a key feed all hand it a
        :class:`~.frameinput.FrameInput`). Checked (KeyboardError) and masked: a half-row's
        bits 5-7 are no key (set), the Kempston port's bits 5-7 none (clear)."""
        if not isinstance(frame_input, FrameInput):
            raise KeyboardError("a frame's input is a FrameInput, not "
                                f"{type(frame_input).__name__}")
        self.keyboard.rows[:] = np.frombuffer(frame_input.rows, dtype=np.uint8) | (
            0xFF ^ ROW_KEYS)
        self.joystick.state[0] = frame_input.joystick & KEMPSTON_BITS

    def held_input(self) -> FrameInput:
        """The input the machine holds now (its matrix and Kempston port)."""
        return FrameInput(self.keyboard.rows.tobytes(), int(self.joystick.state[0]))

    def type_text(self, text: str, hold: int = keystrokes.HOLD_FRAMES,
                  gap: int = keystrokes.GAP_FRAMES) -> None:
        """Type ``text`` as a user would (the right shift for each character; L mode)."""
        self.type_keys(keys_for_text(text), hold, gap)

    # -- screen -----------------------------------------------------------------------------

    def border_lines(self) -> np.ndarray:
        """The border colour of each of the last whole frame's 256 visible lines (stripes
        as the beam met them), as the picture shows them."""
        return video.border_colours_per_line(
            [(t, v & 7) for t, v in self.last_frame_events], self._border_at_last_frame)

    def screen_rgb(self) -> np.ndarray:
        """The last whole frame as RGB (256×320×3): border stripes per line, FLASH, BRIGHT."""
        return video.render(self.memory, self.border_lines(), video.flash_swapped(self.frame))

    def screenshot(self, path: str | os.PathLike[str]) -> None:
        """Save the screen as a PNG."""
        video.write_png(path, self.screen_rgb())

    def screen_text(self, unknown: str = "?") -> list[str]:
        """The display as 24 lines of 32 characters, read with the running ROM's font."""
        return video.screen_text(self.memory, video.charset_from_memory(self.memory), unknown)

    # -- sound ------------------------------------------------------------------------------

    @property
    def audio(self) -> bool:
        """Whether frames make beeper samples."""
        return self.beeper is not None

    def set_audio(self, on: bool) -> None:
        """Start (or stop) making beeper samples for :meth:`take_audio`."""
        if on and self.beeper is None:
            self.beeper = Beeper(AUDIO_RATE, FRAME_TSTATES, AUDIO_CPU_HZ, volume=AUDIO_VOLUME,
                                 mic_weight=AUDIO_MIC_WEIGHT, dc_block=True)
            self._reset_audio()
        elif not on:
            self.beeper = None
            self._reset_audio()

    def _reset_audio(self) -> None:
        """Empty the sample buffer; the speaker starts at the ULA's output bits now (EAR, MIC)."""
        self._audio.clear()
        self._audio_samples = 0
        if self.beeper is not None:
            out = int(self.cpu.state[state.ULA_OUT])
            self.beeper.reset(ear=out >> 4, mic=out >> 3)

    def _beep(self, events: list[tuple[int, int]]) -> None:
        """Add the samples of the frame just finished (its port-0xFE writes) to the buffer."""
        assert self.beeper is not None
        samples = self.beeper.frame_samples(port_fe_events(events))
        self._audio.append(samples)
        self._audio_samples += len(samples)
        while self._audio_samples > self.audio_limit and self._audio:
            extra = self._audio_samples - self.audio_limit
            oldest = self._audio[0]
            if len(oldest) <= extra:
                self._audio.popleft()
                dropped = len(oldest)
            else:
                self._audio[0] = oldest[extra:]
                dropped = extra
            self._audio_samples -= dropped
            self.audio_dropped += dropped

    def take_audio(self) -> np.ndarray:
        """The int16 samples made since the last call (44,100 Hz mono), emptying the buffer."""
        if not self._audio:
            return np.zeros(0, dtype=np.int16)
        samples = np.concatenate(self._audio)
        self._audio.clear()
        self._audio_samples = 0
        return samples

    # -- snapshots --------------------------------------------------------------------------

    def save_snapshot(self, path: str | os.PathLike[str]) -> None:
        """Save the machine as .szx, .sna or .z80 (by suffix; .szx keeps it exactly)."""
        snapshots.save(path, self.to_snapshot(), rom=self.rom)

    def load_snapshot(self, path: str | os.PathLike[str]) -> None:
        """Load a .szx, .sna or .z80 snapshot (by suffix); the ROM stays as it is."""
        self.from_snapshot(snapshots.load(path))

    def to_snapshot(self) -> snapshots.Snapshot:
        """The machine's state as a format-neutral snapshot, the CPU's hidden state included."""
        cpu = self.cpu
        st = cpu.state
        regs = {name: getattr(cpu, name) for name in snapshots.REGISTER_NAMES}
        return snapshots.Snapshot(
            **regs, border=self.border_now(), ram=bytes(self.memory[ROM_SIZE:]),
            tstates=cpu.tstates, mic_ear=int(st[state.ULA_OUT]) & 0x18,
            halted=bool(cpu.halted), memptr=cpu.memptr, q=cpu.q,
            ei_last=bool(st[state.AFTER_EI]), ldair_last=bool(st[state.AFTER_LDAIR]))

    def from_snapshot(self, snap: snapshots.Snapshot) -> None:
        """Put the machine in the state of ``snap`` (the tape, keys and frame count stay)."""
        self.memory[ROM_SIZE:] = snap.ram
        cpu = self.cpu
        for name in snapshots.REGISTER_NAMES:
            setattr(cpu, name, getattr(snap, name))
        cpu.halted = int(snap.halted)
        cpu.memptr = snap.memptr
        cpu.q = snap.q
        cpu.tstates = snap.tstates % FRAME_TSTATES
        st = cpu.state
        st[state.ULA_OUT] = (snap.border & 7) | (snap.mic_ear & 0x18)
        st[state.AFTER_EI] = int(snap.ei_last)
        st[state.AFTER_LDAIR] = int(snap.ldair_last)
        self.border = self._border_at_last_frame = snap.border & 7
        self._frame_events = []
        self.last_frame_events = []
        self._reset_audio()
        self._arm_interrupt()

    def border_now(self) -> int:
        """The border colour in force now."""
        return self._frame_events[-1][1] & 7 if self._frame_events else self.border
