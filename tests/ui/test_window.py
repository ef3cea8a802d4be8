"""The pygame window, headless: SDL's dummy video and audio drivers."""

from __future__ import annotations

import contextlib
import os

_SDL_BEFORE = {name: os.environ.get(name) for name in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pygame = pytest.importorskip("pygame")

from zxmonopoly import cli  # noqa: E402
from zxmonopoly.harness import run_script  # noqa: E402
from zxmonopoly.memory_map import ATTR_END, DISPLAY_FILE, RAM_START  # noqa: E402
from zxmonopoly.snapshot.rzx import load_rzx  # noqa: E402
from zxmonopoly.spectrum import video  # noqa: E402
from zxmonopoly.spectrum.keyboard import KEYS  # noqa: E402
from zxmonopoly.spectrum.keystrokes import HOLD_FRAMES  # noqa: E402
from zxmonopoly.spectrum.timing import AUDIO_SAMPLES_PER_FRAME  # noqa: E402
from zxmonopoly.ui.runtime import TICK_WAIT  # noqa: E402
from zxmonopoly.ui.window import Window  # noqa: E402


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


@pytest.fixture
def window(tmp_path: Path) -> Iterator[Window]:
    """A muted window on the python engine, snapshots in tmp_path."""
    w = Window(engine="python", mute=True, snapshot_dir=tmp_path, out=lambda text: None)
    yield w
    w.close()


def key_event(kind: int, key: int, unicode: str = "") -> pygame.event.Event:
    """A KEYDOWN or KEYUP event as SDL sends it."""
    return pygame.event.Event(kind, key=key, mod=0, unicode=unicode, scancode=0)


def is_down(window: Window, name: str) -> bool:
    """Whether the Spectrum key ``name`` is pressed in the matrix (read from the rows)."""
    row, mask = KEYS[name]
    return not window.machine.keyboard.rows[row] & mask


def test_window_opens_and_frames_advance(window: Window) -> None:
    assert window.screen.get_size() == (640, 512)
    window.run(max_frames=5, paced=False)
    assert window.frames_run == 5
    assert window.machine.frame == 5


def test_key_events_reach_the_matrix(window: Window) -> None:
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_a, "a"))
    assert is_down(window, "A")
    window.run(max_frames=HOLD_FRAMES + 5, paced=False)
    window.handle_event(key_event(pygame.KEYUP, pygame.K_a))  # held its minimum: up at once
    assert not is_down(window, "A")
    assert list(window.machine.keyboard.rows) == [0xFF] * 8


def test_a_key_let_go_before_a_frame_is_held_its_frames(window: Window) -> None:
    """A press and release between two frames: the frames after have it for HOLD_FRAMES
    frames, then it is up (spectrum/presses.py)."""
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_a, "a"))
    window.handle_event(key_event(pygame.KEYUP, pygame.K_a))
    assert is_down(window, "A")
    ran = []
    for _ in range(HOLD_FRAMES + 2):
        window.run_frame()
        ran.append(window.machine.keyboard.pressed())  # the keys that frame ran with
    assert ran == [["A"]] * HOLD_FRAMES + [[]] * 2


def test_posted_events_go_through_the_queue(window: Window) -> None:
    pygame.event.post(key_event(pygame.KEYDOWN, pygame.K_RETURN, "\r"))
    window.step(paced=False)
    assert is_down(window, "ENTER")
    assert window.frames_run == 1


@pytest.mark.parametrize(("key", "spectrum"), [
    (pygame.K_LSHIFT, ("CAPS SHIFT",)),
    (pygame.K_RCTRL, ("SYMBOL SHIFT",)),
    (pygame.K_LALT, ("SYMBOL SHIFT",)),
    (pygame.K_BACKSPACE, ("CAPS SHIFT", "0")),
    (pygame.K_LEFT, ("CAPS SHIFT", "5")),
    (pygame.K_DOWN, ("CAPS SHIFT", "6")),
    (pygame.K_UP, ("CAPS SHIFT", "7")),
    (pygame.K_RIGHT, ("CAPS SHIFT", "8")),
    (pygame.K_7, ("7",)),
    (pygame.K_SPACE, ("SPACE",)),
])
def test_key_map(window: Window, key: int, spectrum: tuple[str, ...]) -> None:
    window.handle_event(key_event(pygame.KEYDOWN, key))
    assert sorted(window.machine.keyboard.pressed()) == sorted(spectrum)


def test_typed_quote_is_symbol_shift_p_for_a_few_frames(window: Window) -> None:
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_LSHIFT))
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_QUOTE, '"'))
    # CAPS SHIFT (the PC Shift that typed it) is masked: SS+P alone, not E mode.
    assert sorted(window.machine.keyboard.pressed()) == ["P", "SYMBOL SHIFT"]
    window.run(max_frames=3, paced=False)
    assert sorted(window.machine.keyboard.pressed()) == ["P", "SYMBOL SHIFT"]
    window.run(max_frames=12, paced=False)
    window.handle_event(key_event(pygame.KEYUP, pygame.K_QUOTE))
    assert window.machine.keyboard.pressed() == ["CAPS SHIFT"]


def test_typing_on_our_rom_shows_the_characters(window: Window) -> None:
    window.run(max_frames=100, paced=False)  # the K cursor
    for key, char in ((pygame.K_p, "p"), (pygame.K_QUOTE, '"'), (pygame.K_QUOTE, '"')):
        window.handle_event(key_event(pygame.KEYDOWN, key, char))
        window.run(max_frames=window.frames_run + 5, paced=False)
        window.handle_event(key_event(pygame.KEYUP, key))
        window.run(max_frames=window.frames_run + 5, paced=False)
    assert 'PRINT ""' in "\n".join(window.machine.screen_text())


def test_window_pixels_equal_the_machine_screen_scaled(window: Window) -> None:
    window.run(max_frames=60, paced=False)
    expected = window.machine.screen_rgb().repeat(2, axis=0).repeat(2, axis=1)
    assert np.array_equal(window.window_rgb(), expected)


def test_snapshot_round_trip(window: Window, tmp_path: Path) -> None:
    window.run(max_frames=60, paced=False)
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_F2))
    saved = list(tmp_path.glob("zxmonopoly-*.szx"))
    assert len(saved) == 1
    memory = bytes(window.machine.memory)
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_F2))
    assert len(list(tmp_path.glob("zxmonopoly-*.szx"))) == 2  # never overwritten
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_F5))  # reset: RAM cleared
    assert bytes(window.machine.memory) != memory
    window.last_snapshot = saved[0]
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_F3))
    assert bytes(window.machine.memory)[RAM_START:] == memory[RAM_START:]


def test_pause_stops_frames(window: Window) -> None:
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_PAUSE))
    assert "paused" in pygame.display.get_caption()[0]
    for _ in range(5):
        window.step(paced=False)
    assert window.frames_run == 0
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_p, "p"))  # P resumes
    window.step(paced=False)
    assert window.frames_run == 1
    assert not is_down(window, "P")


def test_f9_records_a_script_that_replays_and_f10_quits(tmp_path: Path) -> None:
    said: list[str] = []
    w = Window(engine="python", mute=True, snapshot_dir=tmp_path, out=said.append)
    try:
        w.run(max_frames=40, paced=False)
        w.handle_event(key_event(pygame.KEYDOWN, pygame.K_F9))
        assert "recording into" in said[-1] and "recording" in pygame.display.get_caption()[0]
        w.handle_event(key_event(pygame.KEYDOWN, pygame.K_p, "p"))
        w.run(max_frames=44, paced=False)  # (max_frames counts from the window's start)
        w.handle_event(key_event(pygame.KEYUP, pygame.K_p, "p"))
        w.run(max_frames=50, paced=False)
        w.handle_event(key_event(pygame.KEYDOWN, pygame.K_F9))
        assert "recorded 10 frames" in said[-1]
        script = tmp_path / "recording-1.zxs"
        lines = script.read_text().splitlines()
        assert "snapshot recording-1.szx" in lines and "hold P 4" in lines and "wait 6" in lines
        assert run_script(script, engine="python").passed
        w.handle_event(key_event(pygame.KEYDOWN, pygame.K_F1))
        w.step(paced=False)  # draws the help overlay
        w.handle_event(key_event(pygame.KEYDOWN, pygame.K_F10))
        assert not w.running
    finally:
        w.close()


def test_dropped_snapshot_loads(window: Window, tmp_path: Path) -> None:
    window.run(max_frames=60, paced=False)
    path = tmp_path / "drop.sna"
    window.machine.save_snapshot(path)
    display = bytes(window.machine.memory[DISPLAY_FILE:ATTR_END])  # (.sna pushes PC on the stack)
    window.machine.reset()
    window.handle_event(pygame.event.Event(pygame.DROPFILE, file=str(path)))
    assert bytes(window.machine.memory[DISPLAY_FILE:ATTR_END]) == display


def test_play_command_writes_a_screenshot_of_the_window(tmp_path: Path, capsys) -> None:
    shot = tmp_path / "window.png"
    status = cli.main(["play", "--exit-after-frames", "60", "--screenshot", str(shot),
                       "--engine", "python", "--mute", "--scale", "1"])
    assert status == 0, capsys.readouterr().err
    assert video.read_png(shot).shape == (256, 320, 3)


def test_play_refuses_a_screenshot_it_could_not_write_before_the_window_opens(tmp_path: Path,
                                                                              capsys) -> None:
    """The window's screenshot is written as it closes: a missing folder is refused first."""
    shot = tmp_path / "nodir" / "window.png"
    status = cli.main(["play", "--exit-after-frames", "60", "--screenshot", str(shot),
                       "--engine", "python", "--mute", "--scale", "1"])
    err = capsys.readouterr().err
    assert status == 2 and "no folder" in err and str(shot) in err
    assert not shot.parent.exists()


def test_the_window_loads_the_bundled_game_by_default(tmp_path: Path) -> None:
    from zxmonopoly import images

    w = Window(engine="jit", mute=True, snapshot_dir=tmp_path, out=lambda text: None)
    try:
        w.insert_tape(images.game_tape_path())
        w.autoload()
        w.run(max_frames=400, paced=False)
        assert any("M O N O P O L Y" in row for row in w.machine.screen_text())
    finally:
        w.close()


def test_play_without_a_display_is_one_clear_error(monkeypatch, capsys) -> None:
    def no_display() -> None:
        raise pygame.error("No available video device")

    monkeypatch.setattr(pygame.display, "init", no_display)
    assert cli.main(["play", "--engine", "python", "--mute"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("zxmonopoly: error: no display")
    assert "Traceback" not in err


def test_sound_goes_to_the_mixer(tmp_path: Path) -> None:
    w = Window(engine="python", snapshot_dir=tmp_path, out=lambda text: None)
    try:
        assert w.audio is not None and w.machine.audio
        w.run(max_frames=10, paced=False)
        # Counted, not sampled with get_busy(): on a loaded machine the mixer may have played the
        # whole 0.2 s out before the check.
        assert w.audio.handed >= 4 * AUDIO_SAMPLES_PER_FRAME
    finally:
        w.close()


def test_missing_audio_device_is_one_message_and_play_goes_on(monkeypatch, tmp_path) -> None:
    def no_audio(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_audio)
    said: list[str] = []
    w = Window(engine="python", snapshot_dir=tmp_path, out=said.append)
    try:
        assert said == ["zxmonopoly: no sound (No available audio device); playing on silently"]
        assert w.audio is None and not w.machine.audio
        w.run(max_frames=3, paced=False)
        assert w.frames_run == 3
    finally:
        w.close()


def test_tape_is_loaded_with_load_quoted_typed_visibly(window: Window, tmp_path: Path) -> None:
    from zxmonopoly.basic import tokenise
    from zxmonopoly.tape import write_tap
    from zxmonopoly.tape.tap import program_blocks

    tape = tmp_path / "hello.tap"
    tape.write_bytes(write_tap(program_blocks("hello", tokenise('10 PRINT "HELLO TAPE"\n'), 10)))
    window.insert_tape(tape)
    window.autoload()
    window.run(max_frames=100 + 16, paced=False)  # the boot, then J and the first "
    assert "loading" in pygame.display.get_caption()[0]
    assert 'LOAD "' in "\n".join(window.machine.screen_text())
    window.run(max_frames=400, paced=False)
    assert "HELLO TAPE" in "\n".join(window.machine.screen_text())
    assert "loading" not in pygame.display.get_caption()[0]


def test_shift_f9_records_rzx_that_the_window_plays_back(tmp_path: Path) -> None:
    said: list[str] = []
    w = Window(engine="python", mute=True, snapshot_dir=tmp_path, out=said.append)
    shift_f9 = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F9, mod=pygame.KMOD_LSHIFT,
                                  unicode="", scancode=0)
    try:
        w.run(max_frames=40, paced=False)
        w.handle_event(shift_f9)
        assert "recording into" in said[-1] and "RZX" in pygame.display.get_caption()[0]
        assert w.recorder is None  # Shift+F9 is not F9: no keystroke script
        w.handle_event(key_event(pygame.KEYDOWN, pygame.K_p, "p"))
        w.run(max_frames=46, paced=False)
        w.handle_event(key_event(pygame.KEYUP, pygame.K_p, "p"))
        w.run(max_frames=60, paced=False)
        w.handle_event(shift_f9)
        assert "recorded 20 frames" in said[-1]
        path = next(tmp_path.glob("*.rzx"))
        end = bytes(w.machine.memory[DISPLAY_FILE:ATTR_END])
        assert "P" in "\n".join(w.machine.screen_text())
        w.machine.reset()
        w.open_file(path)  # a dropped .rzx plays
        assert "playing" in said[-1] and "playing RZX 0/20" in pygame.display.get_caption()[0]
        w.run(max_frames=80, paced=False)
        assert w.rzx.player is None and "played all 20 frames" in said[-1]
        assert bytes(w.machine.memory[DISPLAY_FILE:ATTR_END]) == end
    finally:
        w.close()


def test_rzx_recording_still_running_is_written_at_close(tmp_path: Path) -> None:
    said: list[str] = []
    w = Window(engine="python", mute=True, snapshot_dir=tmp_path / "new", out=said.append)
    try:
        w.run(max_frames=5, paced=False)
        w.record_rzx()  # the menu's item, as Shift+F9
        w.run(max_frames=12, paced=False)
    finally:
        w.close()
    assert "recorded 7 frames" in said[-1]
    assert len(load_rzx(next((tmp_path / "new").glob("*.rzx"))).frames) == 7


def test_the_runtime_s_driver_takes_each_frame_s_local_keys(window: Window) -> None:
    """The seam network play plugs into: a driver takes the local keys (the key feeder's
    matrix and the Kempston bits) of each frame it runs, and the feed moves on one frame a take;
    a driver that stalls takes nothing, and nothing moves on (the typed keys wait, no frame is
    counted)."""
    from zxmonopoly.spectrum.frameinput import FrameInput
    from zxmonopoly.ui.keys import TYPED_GAP, TYPED_HOLD

    seen: list[FrameInput] = []
    stall = [True]
    waits: list[float] = []

    class Recording:
        stops_for_menu = True

        def run_frame(self, machine, keys, wait: float) -> bool:  # noqa: ANN001
            waits.append(wait)
            if stall[0]:
                return False
            seen.append(keys.take())
            machine.run_frames(1)
            return True

        def lock(self):  # noqa: ANN202
            return contextlib.nullcontext()

    window.runtime.driver = Recording()
    window.handle_event(key_event(pygame.KEYDOWN, pygame.K_a, "a"))
    window.keys.type_character("!")  # SYMBOL SHIFT+1 typed while A is held
    for _ in range(3):
        assert not window.runtime.run_frame()
    window.step(paced=False)
    assert window.frames_run == 0 and window.machine.frame == 0 and seen == []
    assert len(waits) == 4 and all(0 <= w <= TICK_WAIT for w in waits)
    stall[0] = False
    frames = HOLD_FRAMES + TYPED_HOLD + TYPED_GAP + 1
    window.run(max_frames=frames, paced=False)
    # the frames went by only now: the A pressed first (its minimum), then "!" alone and the
    # frames of nothing after it, then the held A again
    ss1 = bytes(0xFF ^ (1 if row == 3 else 2 if row == 7 else 0) for row in range(8))
    a_row, a_mask = KEYS["A"]
    held_a = bytes(0xFF ^ (a_mask if row == a_row else 0) for row in range(8))
    assert [local.rows for local in seen] == ([held_a] * HOLD_FRAMES + [ss1] * TYPED_HOLD
                                              + [bytes([0xFF] * 8)] * TYPED_GAP + [held_a])
    assert all(local.joystick == 0 for local in seen)
    assert window.frames_run == window.machine.frame == frames


def test_a_test_driver_slows_the_frames_by_the_environment(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """ZXMONOPOLY_TEST_FPS (for tests: a slow machine's frames) gives each frame its least
    wall time; a value that is no rate is refused before the window opens."""
    from zxmonopoly.ui.display import WindowError
    from zxmonopoly.ui.runtime import TEST_FPS_VARIABLE, slowed_frame_seconds

    monkeypatch.setenv(TEST_FPS_VARIABLE, "5")
    assert slowed_frame_seconds() == 0.2
    w = Window(engine="python", mute=True, snapshot_dir=tmp_path, out=lambda text: None)
    try:
        assert w.runtime.frame_seconds == 0.2
    finally:
        w.close()
    for bad in ("0", "-1", "fast", "51"):
        monkeypatch.setenv(TEST_FPS_VARIABLE, bad)
        with pytest.raises(WindowError, match=TEST_FPS_VARIABLE):
            slowed_frame_seconds()
    monkeypatch.delenv(TEST_FPS_VARIABLE)
    assert slowed_frame_seconds() == 0.0


def test_the_title_says_the_game_s_end_once(window: Window) -> None:
    """The host killed: the status and the latest line are the same sentence; the title
    bar says it once (issue 46)."""
    window.status = "game over: the host left: the game is over"
    window.note("the host left: the game is over")
    title = pygame.display.get_caption()[0]
    assert title.count("the host left: the game is over") == 1, title
    window.note("player 3 (CAT) joined")
    assert "player 3 (CAT) joined" in pygame.display.get_caption()[0]


def test_a_snapshot_of_the_game_keeps_its_record(tmp_path: Path) -> None:
    """``zxmonopoly play game.szx --log FILE`` (tried as a player would: a saved game opened
    again): the record (F8, --log) goes on from the snapshot, as for a game loaded from the
    tape (before: 0 events, an empty log, the window knowing no symbol map for a snapshot).
    A snapshot of another program gives none."""
    from zxmonopoly.harness import tournament
    from zxmonopoly.harness.session import Session

    session = Session.game(engine="python")
    tournament.setup_computers(session, [0, 1], None, 3, fast=True)
    session.wait(300)
    game = tmp_path / "game.szx"
    session.save_snapshot(game)
    log = tmp_path / "game.txt"
    w = Window(engine="python", mute=True, snapshot_dir=tmp_path, out=lambda text: None,
               log=log)
    try:
        assert w.load_snapshot(game)
        w.run(max_frames=600, paced=False)
        kinds = {e.kind for e in w.eventlog.events}
        assert {"throw", "move"} <= kinds, kinds
        assert len(log.read_text(encoding="utf-8").splitlines()) == len(w.eventlog.events)
        other = tmp_path / "rom.szx"
        w.machine.reset()
        w.run(max_frames=60, paced=False)
        w.machine.save_snapshot(other)
        w.symbols = None
        assert w.load_snapshot(other)
        assert w.symbols is None
    finally:
        w.close()
