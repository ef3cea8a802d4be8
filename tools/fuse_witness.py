"""A witness that is neither our emulator nor our ROM: FUSE loads the game tape under OpenSE BASIC.

FUSE (the Free Unix Spectrum Emulator, Debian package fuse-emulator-sdl) runs as a 48K with the
third-party ROM OpenSE BASIC and our tape, in a virtual X display (Xvfb). ``load ""`` is typed
into its window as X key events (xdotool), as a user's keys: FUSE's own auto-load types the
Sinclair ROM's keyword, which OpenSE (no K mode) does not have. Tape traps and FUSE's loader
acceleration are off, so OpenSE's own loader reads every edge of FUSE's tape signal; FUSE only
runs at top speed while the tape plays.

FUSE's debugger (commands given in its settings file, ``debuggercommand``) stops at the game's
entry ``start`` and at the title's wait for a key (``keys_wait.wait`` with ``v_phase`` =
``PHASE_TITLE``) and prints the machine's memory there (the screen, the state block, the font)
as 32-bit words on its standard output. At the title FUSE then runs on while the tool takes
screenshots of its window (Xvfb keeps its screen in a file, ``-fbdir``), and ends it. The same
points are reached on our emulator (same ROM, same tape, fast load) and compared byte by byte,
FUSE's loading screen with the SCREEN$ on the tape, and FUSE's window pixel by pixel with our
picture of the title (FLASH off and on). With ``--real-load`` ours plays the tape at the real
speed too, and the frames from the tape's start to ``start`` are compared (our tape signal and
loading against FUSE's).

Usage: ``PYTHONPATH=$PWD/src python tools/fuse_witness.py [--engine python|jit] [--real-load]
[--out DIR] [--rom FILE] [--tape FILE]``. With our own ROM (``--rom src/zxmonopoly/data/rom.bin``)
``LOAD ""`` is typed in K mode (J, SYMBOL SHIFT+P twice, ENTER): our ROM on FUSE.
Exit status 0: FUSE reached the title and everything matched; 1: a difference or FUSE did not
get there (the figures and FUSE's screen as text say where); 2: a tool is missing or failed.
Needs ``fuse`` (fuse-emulator-sdl), ``Xvfb`` (xvfb), ``xdotool`` and ``stdbuf`` (coreutils).
"""

from __future__ import annotations

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from zxmonopoly import images  # noqa: E402
from zxmonopoly.harness.session import Session, load_budget  # noqa: E402
from zxmonopoly.memory_map import ATTR_FILE, DISPLAY_FILE, SCREEN_SIZE  # noqa: E402
from zxmonopoly.spectrum import keystrokes, video  # noqa: E402
from zxmonopoly.spectrum.keyboard import CAPS_SHIFT, SYMBOL_SHIFT  # noqa: E402
from zxmonopoly.tape import read_tap  # noqa: E402

OPENSE = Path("/usr/share/spectrum-roms/opense.rom")

SCREEN = DISPLAY_FILE                       # display file and attributes (SCREEN_SIZE)
ATTRS = ATTR_FILE - SCREEN                  # attribute offset in the screen
MESSAGE_ROWS = 4                            # character rows 0-3: where the ROM prints "Bytes:"
CHARS = video.CHARS                         # system variable: the font's address - 256
FONT_SIZE = 768                             # glyphs 32..127
#: Tags FUSE prints before each dump (0xF05E0000 + point), so the output parses unambiguously.
TAG = 0xF05E0000
BOOTED, PLAYING, NOT_PLAYING, ENTRY, TITLE, TIMEOUT, SHOWN, STOPPED, STALLED = range(1, 10)
#: Frames after the tape stops (the ROM's loader no longer reading it: the end, or a loading
#: error) by which the title must be there, else FUSE gives up (exit 5): from then on it would
#: run at the real speed only.
STALL_FRAMES = 500
#: Frames after the typing by which the ROM must have started the tape (FUSE's loader
#: detection), else ``load ""`` did not take: FUSE runs at the real speed until the tape plays.
TAPE_START_FRAMES = 250
#: Frames FUSE runs before ``load ""`` is typed: OpenSE is at its prompt well before.
FUSE_BOOT_FRAMES = 150
#: Frames the two loads (from the tape's start to ``start``) may be apart: FUSE starts the tape
#: when the ROM's loader first reads it (--detect-loader), ours at the end of the typing, a few
#: frames earlier; a tape signal off by 0.2 % would be 23 frames longer or shorter.
TAPE_FRAMES_APART = 20
#: Each key held, and each gap, in frames of 20 ms (FUSE runs at the real speed while typing):
#: more than the 3 of our own typing, as X events reach FUSE once a frame at best.
HOLD_FRAMES, GAP_FRAMES = 5, 6
#: X key names of the Spectrum keys typed.
X_KEYS = {CAPS_SHIFT: "Shift_L", SYMBOL_SHIFT: "Control_L", "ENTER": "Return", "SPACE": "space"}
#: Seconds of wall time allowed, for the window to appear and for the whole run.
WINDOW_WAIT, RUN_WAIT = 20.0, 180.0
#: The status of a FUSE killed after RUN_WAIT (it exits 0 to 4 on its own).
KILLED = -9
#: Tries at starting FUSE in a fresh display.
START_ATTEMPTS = 3
#: Screenshots of FUSE's window at the title, and the seconds before each: FLASH swaps every
#: 16 frames (0.32 s), so 0.72 s of them see both phases, each more than once (one may be torn
#: by a window update).
SHOTS, SHOT_GAP = 6, 0.12
#: The bits of each colour level a 16-bit (5-6-5) display keeps.
RGB565 = np.array([0xF8, 0xFC, 0xF8], dtype=np.uint8)


class WitnessError(Exception):
    """A tool is missing or did not behave; the message says which and what to do."""


@dataclass
class Dump:
    """What FUSE printed at one stop: the frame and memory ranges (address -> bytes)."""

    frame: int
    pc: int
    ranges: dict[int, bytes] = field(default_factory=dict)

    def read(self, address: int, size: int) -> bytes:
        """``size`` bytes from ``address``: from one dumped range."""
        for start, data in self.ranges.items():
            if start <= address and address + size <= start + len(data):
                return data[address - start:address - start + size]
        raise KeyError(f"0x{address:04X}+{size} was not dumped")


def need(program: str, package: str) -> str:
    """The path of ``program``, or a WitnessError naming the package to install."""
    path = shutil.which(program)
    if path is None:
        raise WitnessError(f"{program} not found: apt-get install {package}")
    return path


def dump_commands(tag: int, ranges: list[tuple[int, int]]) -> list[str]:
    """Debugger commands printing ``tag``, the frame, PC, then each range as big-endian words."""
    lines = [f"print {tag}", "print spectrum:frames", "print z80:pc"]
    for start, size in ranges:
        if size % 4:
            raise ValueError(f"range 0x{start:04X}+{size}: not whole 32-bit words")
        lines += [f"print [{a}]*16777216+[{a + 1}]*65536+[{a + 2}]*256+[{a + 3}]"
                  for a in range(start, start + size, 4)]
    return lines


def padded(start: int, size: int) -> tuple[int, int]:
    """A range widened to whole 32-bit words."""
    end = start + size
    start &= ~3
    return start, (end - start + 3) & ~3


def load_schedule(k_mode: bool) -> list[keystrokes.Press]:
    """LOAD "" and ENTER: keyword J in K mode (a Sinclair-style ROM such as ours), else spelled
    letter by letter (OpenSE BASIC)."""
    if k_mode:
        return keystrokes.plan(keystrokes.LOAD_QUOTED_K_MODE, HOLD_FRAMES, GAP_FRAMES)
    return keystrokes.plan_text(keystrokes.LOAD_QUOTED_SPELLED, HOLD_FRAMES, GAP_FRAMES)


def debugger_script(symbols: dict[str, int], budget: int,
                    schedule: list[keystrokes.Press]) -> tuple[str, dict[int, list]]:
    """FUSE's debugger commands and, for each tag, the ranges it dumps."""
    state = padded(symbols["v_state"], symbols["v_state_end"] - symbols["v_state"])
    font = padded(symbols["font"], FONT_SIZE)
    screen = (SCREEN, SCREEN_SIZE)
    sysvars = padded(CHARS, 2)
    layout: dict[int, list] = {BOOTED: [], PLAYING: [], STOPPED: [],
                               STALLED: [screen, sysvars], NOT_PLAYING: [screen, sysvars],
                               ENTRY: [screen, sysvars], TITLE: [screen, sysvars, state, font],
                               TIMEOUT: [screen, sysvars]}
    typing = FUSE_BOOT_FRAMES + 2 * keystrokes.frames_of(schedule)
    stops = [  # (tag, breakpoint, what then)
        (BOOTED, f"break time 100 if spectrum:frames == {FUSE_BOOT_FRAMES}", ["continue"]),
        (PLAYING, "break event tape:play", ["set $playing 1", "set $stopped 0", "continue"]),
        (STOPPED, "break event tape:stop", ["set $stopped spectrum:frames", "continue"]),
        (STALLED, f"break time 100 if $stopped > 0 && spectrum:frames > $stopped + "
                  f"{STALL_FRAMES}", ["exit 5"]),
        (NOT_PLAYING, f"break time 100 if spectrum:frames > {typing + TAPE_START_FRAMES}"
                      " && $playing == 0", ["exit 4"]),
        (ENTRY, f"break {symbols['start']}", ["continue"]),
        # once only (tbreak): the wait's HALT loop passes there every frame
        (TITLE, f"tbreak {symbols['keys_wait.wait']} if [{symbols['v_phase']}] == "
                f"{symbols['PHASE_TITLE']}", [f"print {TAG + SHOWN}", "continue"]),
        (TIMEOUT, f"break time 100 if spectrum:frames > {budget}", ["exit 3"]),
    ]
    # debugger variables: has the tape started; the frame it last stopped (0: playing)
    lines = ["set $playing 0", "set $stopped 0"]
    for number, (tag, breakpoint, then) in enumerate(stops, start=1):
        lines += [breakpoint, f"commands {number}",
                  *dump_commands(TAG + tag, layout[tag]), *then, "end"]
    return "\n".join(lines), layout


def parse_dumps(out: str, layout: dict[int, list]) -> dict[int, Dump]:
    """The dumps in FUSE's standard output, by tag (the first of each)."""
    values = [int(word, 16) for word in out.split() if word.startswith("0x")]
    dumps: dict[int, Dump] = {}
    i = 0
    while i < len(values):
        tag = values[i] - TAG
        if tag not in layout or i + 2 >= len(values):
            i += 1
            continue
        dump = Dump(frame=values[i + 1], pc=values[i + 2])
        i += 3
        for start, size in layout[tag]:
            words = values[i:i + size // 4]
            if len(words) < size // 4:
                raise WitnessError(f"FUSE's output stops inside the dump of 0x{start:04X}")
            dump.ranges[start] = b"".join(w.to_bytes(4, "big") for w in words)
            i += size // 4
        dumps.setdefault(tag, dump)  # the first: the tape starts more than once
    return dumps


def x_keys(combo: tuple[str, ...]) -> list[str]:
    """The X key names of a Spectrum key combination."""
    return [X_KEYS.get(key, key.lower()) for key in combo]


def start_xvfb(fbdir: Path) -> tuple[subprocess.Popen, str]:
    """A virtual X display on a free number, its screen kept as an XWD file in ``fbdir``
    (``Xvfb_screen0``); the process and its DISPLAY."""
    need("Xvfb", "xvfb")
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "640x480x24",
                             "-fbdir", str(fbdir), "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    got = b""
    while not got.endswith(b"\n"):  # read all of it: Xvfb dies if the pipe closes early
        chunk = os.read(read, 64)
        if not chunk:
            break
        got += chunk
    os.close(read)
    if not got.strip().isdigit():
        xvfb.kill()
        raise WitnessError("Xvfb did not start (no display number on -displayfd)")
    return xvfb, ":" + got.decode().strip()


class Fuse:
    """FUSE running the tape under ``rom`` in a virtual display, its output read line by line."""

    def __init__(self, rom: Path, tape: Path, script: str, home: Path, display: str):
        fuse = need("fuse", "fuse-emulator-sdl")
        stdbuf = need("stdbuf", "coreutils")
        # The debugger commands are too long for one argument (128 KiB): the settings file
        # takes them. HOME is a scratch directory, so the user's own settings play no part.
        (home / ".fuserc").write_text('<?xml version="1.0"?>\n<settings>\n  <debuggercommand>'
                                      + escape(script) + "</debuggercommand>\n</settings>\n")
        self.env = dict(os.environ, HOME=str(home), DISPLAY=display, SDL_AUDIODRIVER="dummy")
        command = [stdbuf, "-oL", fuse, "--machine", "48", "--rom-48", str(rom),
                   "--no-sound", "--no-auto-load", "--no-traps", "--no-accelerate-loader",
                   "--fastload", "--detect-loader", "--speed", "100",
                   "--no-confirm-actions", "--no-autosave-settings", "--tape", str(tape)]
        self.command = command
        self.process = subprocess.Popen(command, env=self.env, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self.booted = threading.Event()
        self.shown = threading.Event()  # the title's dump is all read
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if line.strip() == f"0x{TAG + BOOTED:x}":
                self.booted.set()
            elif line.strip() == f"0x{TAG + SHOWN:x}":
                self.shown.set()

    def xdotool(self, *args: str) -> str:
        """Run xdotool on FUSE's display; its output."""
        done = subprocess.run([need("xdotool", "xdotool"), *args], env=self.env,
                              capture_output=True, text=True, timeout=WINDOW_WAIT)
        if done.returncode:
            raise WitnessError(f"xdotool {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def window(self) -> str:
        """FUSE's window id, once it is shown."""
        deadline = time.monotonic() + WINDOW_WAIT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break  # it gave up
            found = subprocess.run([need("xdotool", "xdotool"), "search", "--onlyvisible",
                                    "--name", "Fuse"], env=self.env, capture_output=True,
                                   text=True)
            if found.stdout.split():
                return found.stdout.split()[0]
            time.sleep(0.2)
        raise WitnessError(f"FUSE's window did not appear: {self.stderr()}")

    def type(self, schedule: list[keystrokes.Press]) -> None:
        """Type a keystrokes schedule as X key events (a frame is 20 ms)."""
        window = self.window()
        self.xdotool("mousemove", "--window", window, "100", "100")  # focus follows the pointer
        self.xdotool("windowfocus", "--sync", window)
        if not self.booted.wait(WINDOW_WAIT):
            raise WitnessError(f"FUSE did not reach frame {FUSE_BOOT_FRAMES}: {self.stderr()}")
        for step in schedule:
            keys = x_keys(step.keys)
            self.xdotool("keydown", *keys)
            time.sleep(step.hold / 50)
            self.xdotool("keyup", *reversed(keys))
            time.sleep(step.gap / 50)

    def wait(self, timeout: float) -> int | None:
        """Wait for the title's dump (None: FUSE runs on, at the title) or for FUSE's exit
        (its status); after ``timeout`` seconds FUSE is killed (KILLED)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.shown.is_set():
                return None
            status = self.process.poll()
            if status is not None:
                self.reader.join(5)
                return status
            time.sleep(0.05)
        self.kill()  # stuck where the tape no longer plays: FUSE at the real speed
        return KILLED

    def geometry(self, window: str) -> tuple[int, int, int, int]:
        """A window's x, y, width and height on the display."""
        values = dict(line.split("=", 1) for line in
                      self.xdotool("getwindowgeometry", "--shell", window).split())
        x, y, width, height = (int(values[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
        return x, y, width, height

    def stderr(self) -> str:
        """FUSE's error output, once it has ended (else empty)."""
        if self.process.poll() is None or self.process.stderr is None:
            return ""
        return self.process.stderr.read().strip()[-500:]

    def kill(self) -> None:
        """Stop FUSE if it still runs."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@dataclass
class FuseRun:
    """What FUSE did: exit status (None: stopped by us at the title), dumps, screenshots of
    its window's display at the title, wall seconds."""

    status: int | None
    dumps: dict[int, Dump]
    shots: list[np.ndarray]
    seconds: float


def run_fuse(rom: Path, tape: Path, symbols: dict[str, int], budget: int, k_mode: bool,
             log=print) -> FuseRun:
    """Run FUSE to the title (or a watchdog); at the title, take screenshots of its window."""
    schedule = load_schedule(k_mode)
    script, layout = debugger_script(symbols, budget, schedule)
    for attempt in range(1, START_ATTEMPTS + 1):
        home = Path(tempfile.mkdtemp(prefix="fuse-witness-"))
        xvfb, display = start_xvfb(home)
        began = time.monotonic()
        fuse = None
        try:
            fuse = Fuse(rom, tape, script, home, display)
            if attempt == 1:
                log("fuse: " + " ".join(fuse.command[2:]))
            try:
                window = fuse.window()
            except WitnessError as exc:
                # SDL now and then fails to open a display that has just started
                # ("error initialising"): a fresh display and FUSE do.
                if attempt == START_ATTEMPTS:
                    raise
                log(f"fuse: attempt {attempt}: {exc}; again")
                continue
            fuse.type(schedule)
            status = fuse.wait(RUN_WAIT)
            shots = []
            if status is None:  # at the title, running on: FLASH changes every 16 frames
                x, y, width, height = fuse.geometry(window)
                # Xvfb draws the pointer into its screen: out of the window with it
                fuse.xdotool("mousemove", str(x + width + 8), str(y + height + 8))
                for _ in range(SHOTS):
                    time.sleep(SHOT_GAP)
                    shots.append(window_display(home / "Xvfb_screen0", x, y, width, height))
            dumps = parse_dumps("".join(fuse.lines), layout)
            return FuseRun(status, dumps, shots, time.monotonic() - began)
        finally:
            if fuse is not None:
                fuse.kill()
            xvfb.terminate()  # not kill: Xvfb then removes its lock and socket
            xvfb.wait()
            shutil.rmtree(home, ignore_errors=True)
    raise AssertionError("unreachable")


def read_xwd(path: Path) -> np.ndarray:
    """An XWD file of 24-bit TrueColor (Xvfb's -fbdir screen) as a (height, width, 3) array."""
    data = path.read_bytes()
    fields = struct.unpack(">25I", data[:100])
    size, _, _, depth, width, height = fields[:6]
    order, bits, per_line = fields[7], fields[11], fields[12]
    ncolors = fields[19]
    if depth != 24 or bits != 32:
        raise WitnessError(f"{path}: depth {depth}, {bits} bits a pixel; expected 24 in 32")
    start = size + 12 * ncolors
    pixels = np.frombuffer(data, dtype="<u4" if order == 0 else ">u4", count=per_line // 4 *
                           height, offset=start).reshape(height, per_line // 4)[:, :width]
    masks = fields[14:17]
    return np.stack([(pixels & m) >> (int(m).bit_length() - 8) for m in masks],
                    axis=-1).astype(np.uint8)


def window_display(fb: Path, x: int, y: int, width: int, height: int) -> np.ndarray:
    """The Spectrum's 256x192 display, centred in FUSE's window (320x240 at the normal
    filter: borders of 32 and 24 pixels), read from Xvfb's screen file."""
    screen = read_xwd(fb)
    if width < 256 or height < 192:
        raise WitnessError(f"FUSE's window is {width}x{height}: smaller than the display")
    left, top = x + (width - 256) // 2, y + (height - 192) // 2
    return screen[top:top + 192, left:left + 256].copy()


def colour_indices(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's nearest colour of our palette (0-15; bright black counted as black)."""
    palette = video.PALETTE.astype(np.int32)
    distance = ((rgb[..., None, :].astype(np.int32) - palette) ** 2).sum(axis=-1)
    index = distance.argmin(axis=-1)
    return np.where(index == 8, 0, index)


def memory_of(dump: Dump, rom: bytes) -> bytearray:
    """A 64K image: the ROM and the dumped ranges (zeros elsewhere)."""
    mem = bytearray(65536)
    mem[:len(rom)] = rom
    for start, data in dump.ranges.items():
        mem[start:start + len(data)] = data
    return mem


def differing(a: bytes, b: bytes) -> list[int]:
    """The offsets where two equal-length byte strings differ."""
    return [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]


def screen_lines(mem: bytearray) -> list[str]:
    """The screen as text, read with the font CHARS points at."""
    return video.screen_text(mem, video.charset_from_memory(mem))


@dataclass
class Ours:
    """Our emulator's run: the screen and frame at ``start``, the frame the tape began to
    play (real load only) and the session, left at the title's wait for a key."""

    entry_screen: bytes
    entry_frame: int
    play_frame: int | None
    session: Session


def ours(rom: Path, tape: Path, engine: str | None, real_load: bool) -> Ours:
    """Our emulator, same ROM and tape, loaded fast or at the real speed, to the title. A
    fast load gets to ``start`` while LOAD "" is still being typed: a breakpoint catches it."""
    session = Session(rom, engine=engine, symbols=images.game_symbols_path())
    machine, start = session.machine, session.address("start")
    seen: list[tuple[bytes, int]] = []

    def at_start(m) -> None:
        if m.cpu.pc == start and not seen:
            seen.append((bytes(m.memory[SCREEN:SCREEN + SCREEN_SIZE]), m.frame))
    machine.break_handlers.append(at_start)
    machine.cpu.breakpoints[start] = 1
    try:
        session.load_tape(tape, fast=not real_load)  # a real load presses PLAY after ENTER
        play_frame = session.frame if real_load else None
        session.wait_input(load_budget(tape, fast=not real_load))
    finally:
        machine.cpu.breakpoints[start] = 0
        machine.break_handlers.remove(at_start)
    if not seen:
        raise WitnessError("our emulator reached the title without passing start")
    return Ours(seen[0][0], seen[0][1], play_frame, session)


def outside_message_rows() -> list[int]:
    """Offsets of the screen outside character rows 0-3 (pixels and attributes)."""
    keep = []
    for y in range(192):
        if y < 64 and (y & 0x38) >> 3 < MESSAGE_ROWS:
            continue
        offset = video.row_address(y) - SCREEN
        keep += range(offset, offset + 32)
    keep += range(ATTRS + 32 * MESSAGE_ROWS, SCREEN_SIZE)
    return keep


def character_rows(offsets: list[int]) -> list[int]:
    """The character rows (0-23) that screen offsets fall in."""
    rows = set()
    for offset in offsets:
        if offset >= ATTRS:
            rows.add((offset - ATTRS) // 32)
        else:
            rows.add((offset >> 11) * 8 + ((offset >> 5) & 7))
    return sorted(rows)


def tape_screen(tape: Path) -> bytes | None:
    """The SCREEN$ on a tape: the data after a CODE header of 6912 bytes at 16384, if any."""
    blocks = read_tap(tape.read_bytes())
    for header, data in zip(blocks, blocks[1:], strict=False):
        h = header.data  # a 17-byte header: type, name, length, start
        if (len(h) == 17 and h[0] == 3 and int.from_bytes(h[11:13], "little") == SCREEN_SIZE
                and int.from_bytes(h[13:15], "little") == SCREEN
                and len(data.data) == SCREEN_SIZE):
            return bytes(data.data)
    return None


def field_names(symbols: dict[str, int], start: int, offsets: list[int]) -> list[str]:
    """The state block's fields (``v_`` symbols) that offsets from ``start`` fall in."""
    fields = sorted((v, n) for n, v in symbols.items() if n.startswith("v_") and "." not in n)
    names = set()
    for offset in offsets:
        below = [n for v, n in fields if v <= start + offset]
        names.add(below[-1] if below else f"+{offset}")
    return sorted(names)


def compare_shots(shots: list[np.ndarray], session: Session, log=print) -> bool:
    """FUSE's window at the title against our picture of our title, FLASH off and on, pixel
    by pixel by colour: True when each phase is matched by one screenshot at least."""
    edge = video.BORDER
    ok = True
    for flash in (False, True):
        mine_rgb = video.render(session.machine.memory, 0, flash)[edge:edge + 192,
                                                                  edge:edge + 256]
        mine = colour_indices(mine_rgb)
        wrong = [int((colour_indices(shot) != mine).sum()) for shot in shots]
        matched = [shot for shot, w in zip(shots, wrong, strict=True) if w == 0]
        # FUSE's SDL surface is 16-bit: its levels are ours cut to 5, 6 and 5 bits
        same_rgb = any(((mine_rgb & RGB565) == shot).all() for shot in matched)
        log(f"FUSE's window at the title, FLASH {'on ' if flash else 'off'}: "
            f"{len(matched)} of {len(shots)} screenshots show ours exactly (colour of each of "
            f"the 49,152 display pixels; fewest differing: {min(wrong, default='-')})"
            + ("; RGB equal to 5-6-5 bits" if same_rgb else ""))
        ok &= bool(matched)
    return ok


def witness(rom: Path, tape: Path, engine: str | None, out: Path | None,
            real_load: bool = False, log=print) -> bool:
    """Run FUSE and our emulator and compare; True when everything matched."""
    symbols = dict(images.game_symbols())
    budget = load_budget(tape, fast=False) + FUSE_BOOT_FRAMES + 500
    rom_bytes = rom.read_bytes()
    k_mode = rom_bytes == images.rom()  # our ROM has K mode; OpenSE spells keywords
    fuse = run_fuse(rom, tape, symbols, budget, k_mode, log)
    status, dumps = fuse.status, fuse.dumps
    what = {None: "at the title", KILLED: f"FAIL: no title after {RUN_WAIT:.0f} s; killed"}
    log(f"fuse: {what.get(status, f'exit status {status}')} after {fuse.seconds:.1f} s")
    ok = True
    if PLAYING in dumps:
        log(f"fuse: the ROM started the tape at frame {dumps[PLAYING].frame}")
    elif NOT_PLAYING in dumps:
        log("fuse: FAIL: the tape never started: LOAD \"\" was not taken")
    if ENTRY in dumps:
        log(f"fuse: reached start (0x{symbols['start']:04X}) at frame {dumps[ENTRY].frame}")
    else:
        log("fuse: FAIL: the game's entry was never reached (the tape did not load)")
        ok = False
    if TITLE not in dumps or status is not None:
        last = (dumps.get(TIMEOUT) or dumps.get(STALLED) or dumps.get(NOT_PLAYING)
                or dumps.get(ENTRY))
        if STALLED in dumps:
            log(f"fuse: FAIL: the tape stopped, and {STALL_FRAMES} frames later (frame "
                f"{dumps[STALLED].frame}) no title")
        log(f"fuse: FAIL: no title (status {status}); FUSE's screen "
            + (f"at frame {last.frame}:" if last else "was never dumped"))
        if last:
            for line in screen_lines(memory_of(last, rom_bytes)):
                log("  |" + line + "|")
        log("VERDICT: FAIL: FUSE did not reach the title")
        return False
    title = dumps[TITLE]
    log(f"fuse: title waits for a key (PC 0x{title.pc:04X}) at frame {title.frame}")
    fuse_title_mem = memory_of(title, rom_bytes)
    for line in screen_lines(fuse_title_mem):
        log("  |" + line + "|")

    scr = tape_screen(tape)
    run = ours(rom, tape, engine, real_load)
    session, our_entry = run.session, run.entry_screen
    our_title = bytes(session.machine.memory[SCREEN:SCREEN + SCREEN_SIZE])
    log(f"ours ({session.machine.engine} engine, {'real' if real_load else 'fast'} load): "
        f"start at frame {run.entry_frame}, title at frame {session.frame}")
    if run.play_frame is not None and PLAYING in dumps and ENTRY in dumps:
        fuse_tape = dumps[ENTRY].frame - dumps[PLAYING].frame
        our_tape = run.entry_frame - run.play_frame
        log(f"frames from the tape starting to start: FUSE {fuse_tape}, ours {our_tape} "
            f"(apart {abs(fuse_tape - our_tape)}, at most {TAPE_FRAMES_APART} allowed)")
        ok &= abs(fuse_tape - our_tape) <= TAPE_FRAMES_APART
    if ENTRY in dumps:
        fuse_entry = dumps[ENTRY].read(SCREEN, SCREEN_SIZE)
        if scr is not None:
            keep = outside_message_rows()
            vs_tape = [i for i in keep if fuse_entry[i] != scr[i]]
            log(f"loading screen at start: FUSE vs the tape's SCREEN$ (character rows "
                f"{MESSAGE_ROWS}-23): {len(vs_tape)} of {len(keep)} bytes differ"
                + (f", in rows {character_rows(vs_tape)}" if vs_tape else ""))
            ok &= not vs_tape
        vs_ours = differing(fuse_entry, our_entry)
        log(f"screen at start: FUSE vs ours: {len(vs_ours)} of {SCREEN_SIZE} bytes differ"
            + (f", in rows {character_rows(vs_ours)}" if vs_ours else ""))
        ok &= not vs_ours
    fuse_title = title.read(SCREEN, SCREEN_SIZE)
    vs_ours = differing(fuse_title, our_title)
    log(f"title screen: FUSE vs ours: {len(vs_ours)} of {SCREEN_SIZE} bytes differ"
        + (f", in rows {character_rows(vs_ours)}" if vs_ours else ""))
    ok &= not vs_ours
    ok &= compare_shots(fuse.shots, session, log)
    start, end = symbols["v_state"], symbols["v_state_end"]
    fuse_state = title.read(start, end - start)
    our_state = bytes(session.machine.memory[start:end])
    clock = range(symbols["v_frames"] - start, symbols["v_frames"] - start + 2)
    state_diff = [i for i in differing(fuse_state, our_state) if i not in clock]
    phase = fuse_state[symbols["v_phase"] - start]
    log(f"state block v_state..v_state_end ({end - start} bytes, v_frames aside): "
        f"{len(state_diff)} differ" + (f" in {field_names(symbols, start, state_diff)}"
                                       if state_diff else "")
        + f"; FUSE's v_phase = {phase} (PHASE_TITLE = {symbols['PHASE_TITLE']})")
    ok &= not state_diff and phase == symbols["PHASE_TITLE"]
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for name, dump in (("fuse-entry.png", dumps.get(ENTRY)), ("fuse-title.png", title)):
            if dump is not None:
                video.write_png(out / name, video.render(memory_of(dump, rom_bytes), 0))
        for number, shot in enumerate(fuse.shots, start=1):
            video.write_png(out / f"fuse-window-{number}.png", shot)
        log(f"wrote FUSE's screens as PNGs in {out}")
    log("VERDICT: " + (f"PASS: FUSE loads the tape under {rom.name} to the title, as ours"
                       if ok else "FAIL"))
    return ok


def main(argv: list[str] | None = None) -> int:
    """Command line: run the witness; 0 pass, 1 fail, 2 a tool missing or failing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, default=OPENSE, help="48K ROM for both emulators")
    parser.add_argument("--tape", type=Path, default=None, help="tape (default: the game's)")
    parser.add_argument("--engine", default=None, help="our engine: python or jit")
    parser.add_argument("--out", type=Path, default=None, help="write FUSE's screens as PNGs")
    parser.add_argument("--real-load", action="store_true",
                        help="ours loads at the real speed too; compare the tape's frames")
    args = parser.parse_args(argv)
    try:
        if not args.rom.is_file():
            raise WitnessError(f"{args.rom}: no such ROM (apt-get install opense-basic)")
        tape = args.tape or images.game_tape_path()
        return 0 if witness(args.rom, tape, args.engine, args.out, args.real_load) else 1
    except WitnessError as exc:
        print(f"fuse_witness: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
