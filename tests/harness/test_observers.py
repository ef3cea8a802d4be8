"""Observers read only (issue 44): a machine watched by everything that reads it each frame -
the game's record (the harness's and the window's), the window's status line and picture, the
watches, the harness's screen and state reading - and a machine read by nothing stay the same
machine, byte for byte and register for register; a snapshot and an RZX recording taken with
the record open replay as those taken without it.

The window runs headless, on SDL's dummy drivers (as tests/ui/test_window.py does).
"""

from __future__ import annotations

import os

_SDL_BEFORE = {name: os.environ.get(name) for name in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

pygame = pytest.importorskip("pygame")

from zxmonopoly import images  # noqa: E402
from zxmonopoly.harness import tournament  # noqa: E402
from zxmonopoly.harness.invariants import check_invariants  # noqa: E402
from zxmonopoly.harness.session import Session  # noqa: E402
from zxmonopoly.net.lockstep import machine_digest  # noqa: E402
from zxmonopoly.snapshot import REGISTERS  # noqa: E402
from zxmonopoly.snapshot.rzx import load_rzx, save_rzx  # noqa: E402
from zxmonopoly.spectrum import Spectrum48  # noqa: E402
from zxmonopoly.spectrum.rzx import (  # noqa: E402
    RzxPlayer,
    RzxRecorder,
    closing_differences,
    machine_for,
)
from zxmonopoly.ui.window import Window  # noqa: E402
from zxmonopoly.z80 import jit_available  # noqa: E402

#: Frames the two machines run side by side, and how often they are compared.
FRAMES = 10_000
CHECK_EVERY = 500
#: The window's speed: frames a tick, each tick drawn (its picture, status line, record panel).
WINDOW_SPEED = 2
#: Frames between two readings of the invariants (a whole decode of the state block).
INVARIANTS_EVERY = 25
#: Frames run from the snapshot, and recorded in the RZX, at the end.
REPLAY_FRAMES = 300
#: Four computer players, the fast setting: a game that declares events all the time.
PERSONALITIES = [0, 1, 2, 3]
SEED = 11


@pytest.fixture(scope="module", autouse=True)
def dummy_sdl() -> Iterator[None]:
    """The dummy drivers for this module only: later tests see the environment as it was."""
    os.environ["SDL_VIDEODRIVER"] = os.environ["SDL_AUDIODRIVER"] = "dummy"
    yield
    for name, value in _SDL_BEFORE.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def _engine() -> str:
    # 10,000 frames twice, with a window drawing each: the JIT where numba is.
    return os.environ.get("ZXMONOPOLY_ENGINE") or ("jit" if jit_available() else "python")


def _computer_game(tmp_path: Path, engine: str) -> Path:
    """A .szx of an all-computer game just set up (the setup's keys are input, not observers:
    both machines start from this one file)."""
    session = Session.game(engine=engine)
    tournament.setup_computers(session, PERSONALITIES, None, SEED)
    path = tmp_path / "start.szx"
    session.save_snapshot(path)
    return path


class Watched:
    """The machine read by everything that reads a machine each frame, in one window."""

    def __init__(self, start: Path, engine: str, tmp_path: Path) -> None:
        symbols = images.game_symbols_path()
        self.session = Session.from_snapshot(start, engine=engine, symbols=symbols)
        self.machine = self.session.machine
        # the window over this machine: its record (F8 shown, --log written), status line
        self.window = Window(self.machine, mute=True, snapshot_dir=tmp_path / "window",
                             out=lambda text: None, log=tmp_path / "record.txt")
        self.window.symbols = symbols
        self.window.show_status = True
        self.window.eventlog.toggle()
        self.window.runtime.speed = WINDOW_SPEED
        # the watches: PC (breakpoints), SP and values (armed in the engine)
        s = self.session.symbols
        self.session.watch("pc in game")
        self.session.watch(f"sp in {s['STACK_LIMIT']}..{s['IM2_JUMP']}")
        self.session.watch(f"v_houses_left <= {s['HOUSES_IN_BANK']}")
        self.session.watch("word v_jackpot < 60000")
        # the harness's screen, state and invariants, read at every frame's end (the
        # invariants as a reader only: sampled at a frame's end they may find a money move
        # half made, so the "invariants" watch, which fails on that, is not among the above)
        self.screens = 0
        self.machine.frame_listeners.append(self._read)

    def _read(self, _machine: Spectrum48) -> None:
        self.session.lines()
        self.session.state()
        self.window.status_text()
        if self.screens % INVARIANTS_EVERY == 0:
            check_invariants(self.session)
        self.screens += 1

    def run_to(self, frames: int) -> None:
        """Run the window (each frame read, the picture drawn) until it has run ``frames``."""
        self.window.run(max_frames=frames, paced=False)


def _cpu_and_ram(machine: Spectrum48) -> tuple:
    """The machine's RAM and CPU (registers, hidden state, T-state), without the frame count
    a replay counts from its own start."""
    snap = machine.to_snapshot().settled(keep_halted=True)
    return (bytes(snap.ram), *(getattr(snap, name) for name in (*REGISTERS, "halted",
                                                                   "memptr", "border")))


def _replayed_snapshot(path: Path, engine: str) -> bytes:
    machine = Spectrum48(engine=engine)
    machine.load_snapshot(path)
    machine.run_frames(REPLAY_FRAMES)
    return machine_digest(machine)


def _replayed_rzx(path: Path, engine: str) -> tuple:
    recording = load_rzx(path)
    machine = machine_for(recording, engine=engine)
    player = RzxPlayer(recording, machine, path.name)
    player.play()
    player.settle()  # the last frame's interrupt, taken as the recorder took it at its stop
    assert player.done and player.bookmark_differences == []
    assert closing_differences(machine, recording.closing.snapshot) == []
    return _cpu_and_ram(machine)


def test_observers_change_nothing(tmp_path: Path) -> None:
    """10,000 frames of a computer game: the machine the record, the window and the watches
    read is, every CHECK_EVERY frames, the machine nothing reads; then a .szx and an RZX taken
    of each replay to one state."""
    engine = _engine()
    start = _computer_game(tmp_path, engine)
    watched = Watched(start, engine, tmp_path)
    alone = Spectrum48(engine=engine)
    alone.load_snapshot(start)
    assert alone.frame_listeners == [] and machine_digest(alone) == machine_digest(
        watched.machine)
    for done in range(CHECK_EVERY, FRAMES + 1, CHECK_EVERY):
        watched.run_to(done)
        alone.run_frames(watched.machine.frame - alone.frame)
        assert alone.frame == watched.machine.frame
        assert machine_digest(alone) == machine_digest(watched.machine), (
            f"the watched machine parted from the one nothing reads by frame {alone.frame}")
    record = watched.session.events()
    assert watched.screens >= FRAMES
    assert len(record) > 200 and {"turn", "throw", "move", "buy"} <= {e.kind for e in record}
    assert "lost" not in {e.kind for e in record}
    assert watched.window.eventlog.events == record  # the window read all the harness did

    # A snapshot of each: the same file, and the same machine 300 frames on.
    watched.session.save_snapshot(tmp_path / "watched.szx")
    alone.save_snapshot(tmp_path / "alone.szx")
    assert (tmp_path / "watched.szx").read_bytes() == (tmp_path / "alone.szx").read_bytes()
    assert (_replayed_snapshot(tmp_path / "watched.szx", engine)
            == _replayed_snapshot(tmp_path / "alone.szx", engine))

    # An RZX of each: the window's (Shift+F9) with the record open, and a bare recorder's.
    watched.window.rzx.toggle_record(watched.machine, tmp_path / "rzx")
    recorder = RzxRecorder(alone)
    watched.run_to(FRAMES + REPLAY_FRAMES)
    alone.run_frames(watched.machine.frame - alone.frame)
    watched.window.rzx.toggle_record(watched.machine, tmp_path / "rzx")
    save_rzx(tmp_path / "alone.rzx", recorder.stop())
    (made,) = (tmp_path / "rzx").glob("*.rzx")
    assert machine_digest(watched.machine) == machine_digest(alone)
    live = _cpu_and_ram(alone)
    assert _replayed_rzx(made, engine) == _replayed_rzx(tmp_path / "alone.rzx", engine) == live
    watched.window.close()
