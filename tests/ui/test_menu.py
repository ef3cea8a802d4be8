"""The window's menu, status line, pause banner, joysticks and file opening, under Xvfb.

A real X server (Xvfb) and the real pygame: every action is a key event posted to pygame's
queue and handled by the window's own loop (``Window.step``), as a user's key press would be.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")

from zxmonopoly import cli  # noqa: E402
from zxmonopoly.basic import tokenise  # noqa: E402
from zxmonopoly.harness.session import Session  # noqa: E402
from zxmonopoly.memory_map import ATTR_END, DISPLAY_FILE  # noqa: E402
from zxmonopoly.snapshot.rzx import load_rzx  # noqa: E402
from zxmonopoly.spectrum import Spectrum48  # noqa: E402
from zxmonopoly.spectrum.keyboard import JOYSTICK_BITS, KEYS  # noqa: E402
from zxmonopoly.spectrum.keystrokes import HOLD_FRAMES  # noqa: E402
from zxmonopoly.spectrum.timing import AUDIO_SAMPLES_PER_FRAME  # noqa: E402
from zxmonopoly.tape import write_tap  # noqa: E402
from zxmonopoly.tape.tap import program_blocks  # noqa: E402
from zxmonopoly.ui import window as window_module  # noqa: E402
from zxmonopoly.ui.menu import FilePage, NamePage  # noqa: E402
from zxmonopoly.ui.window import PAUSED_COLOUR, Window  # noqa: E402

#: The main page's items, in order (menu.main_page).
ITEMS = ("open", "tape", "rewind", "save", "load", "reset", "pause", "speed", "sound",
         "joystick", "cursor", "status", "screenshot", "record", "record keys", "record rzx",
         "host", "join", "quit")


@pytest.fixture(scope="module")
def xvfb() -> Iterator[str]:
    """An X server of our own for this module; DISPLAY points at it, SDL uses x11.

    ``-noreset``: without it the server resets when its last client leaves, and a window
    opened during the reset finds no X11 (SDL then falls back to offscreen).
    """
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb): the menu tests need an X "
                    "server")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24",
                               "-nolisten", "tcp", "-noreset"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        server.wait()
        pytest.skip("Xvfb did not start")
    saved = {name: os.environ.get(name) for name in ("DISPLAY", "SDL_VIDEODRIVER",
                                                      "SDL_AUDIODRIVER", "ZXMONOPOLY_ENGINE")}
    os.environ["DISPLAY"] = f":{number}"
    os.environ.pop("SDL_VIDEODRIVER", None)
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.pop("ZXMONOPOLY_ENGINE", None)
    try:
        yield os.environ["DISPLAY"]
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        server.terminate()
        server.wait(10)


@pytest.fixture
def window(xvfb: str, tmp_path: Path) -> Iterator[Window]:
    """A muted window on the python engine on the X server, files in tmp_path."""
    w = Window(engine="python", mute=True, snapshot_dir=tmp_path, out=lambda text: None)
    assert pygame.display.get_driver() == "x11"
    w.run(max_frames=30, paced=False)
    yield w
    w.close()


def press(w: Window, key: int, unicode: str = "") -> None:
    """Post a key's press and release to pygame's queue; the window takes them (no frame)."""
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode=unicode, scancode=0))
    w.handle_events()


def choose(w: Window, item: str, key: int = pygame.K_RETURN) -> None:
    """Open the menu (Esc), go down to ``item`` and press ``key`` on it."""
    if w.menu is None:
        press(w, pygame.K_ESCAPE)
    assert w.menu is not None
    for _ in range(w.menu.page.selected):
        press(w, pygame.K_UP)
    for _ in range(ITEMS.index(item)):
        press(w, pygame.K_DOWN)
    press(w, key)


def hello_tape(directory: Path) -> Path:
    path = directory / "hello.tap"
    path.write_bytes(write_tap(program_blocks("hello", tokenise('10 PRINT "HELLO TAPE"\n'), 10)))
    return path


def screen(w: Window) -> str:
    return "\n".join(w.machine.screen_text())


def test_esc_opens_the_menu_and_the_spectrum_waits(window: Window) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a",
                                         scancode=0))
    window.step(paced=False)
    press(window, pygame.K_ESCAPE)
    assert window.menu is not None and "menu" in pygame.display.get_caption()[0]
    assert window.machine.keyboard.pressed() == []  # the A held is let go
    frame = window.machine.frame
    for _ in range(5):
        window.step(paced=False)
    assert window.machine.frame == frame
    pixels = window.window_rgb()
    assert not np.array_equal(pixels, window.machine.screen_rgb().repeat(2, 0).repeat(2, 1))
    press(window, pygame.K_ESCAPE)
    assert window.menu is None
    window.step(paced=False)
    assert window.machine.frame == frame + 1


def test_open_a_tape_from_the_file_list(window: Window, tmp_path: Path) -> None:
    hello_tape(tmp_path)
    (tmp_path / "notes.txt").write_text("not a tape")
    choose(window, "open")
    page = window.menu.page
    assert isinstance(page, FilePage)
    assert [text for text, _ in page.lines()[1:]] == ["../", "hello.tap"]  # no notes.txt
    press(window, pygame.K_RETURN)
    assert window.menu is None
    assert window.machine.deck.name.endswith("hello.tap")
    window.run(max_frames=window.frames_run + 400, paced=False)
    assert "HELLO TAPE" in screen(window)


def test_tape_play_stop_rewind_and_the_block_counter(window: Window, tmp_path: Path) -> None:
    window.insert_tape(hello_tape(tmp_path), real_load=True)
    press(window, pygame.K_ESCAPE)
    label = window.menu.page.items[ITEMS.index("tape")].label()
    assert "Tape: play" in label and "hello.tap block 1/2" in label
    choose(window, "tape")
    deck = window.machine.deck
    assert deck.playing
    press(window, pygame.K_ESCAPE)
    window.run(max_frames=window.frames_run + 400, paced=False)  # past the header (~6 s)
    assert deck.position() > 0
    assert deck.block_counter() == (2, 2)
    choose(window, "tape")
    assert not deck.playing
    choose(window, "rewind")
    assert deck.position() == 0 and deck.block_counter() == (1, 2)


def type_name(w: Window, name: str) -> None:
    page = w.menu.page
    assert isinstance(page, NamePage)
    for _ in range(len(page.name)):
        press(w, pygame.K_BACKSPACE)
    for char in name:
        press(w, getattr(pygame, f"K_{char}"), char)


def test_save_and_load_a_snapshot_by_name(window: Window, tmp_path: Path) -> None:
    window.machine.memory[0x8000] = 0x5A
    choose(window, "save")
    type_name(window, "mine")
    press(window, pygame.K_RETURN)
    assert window.menu is None
    assert (tmp_path / "mine.szx").is_file()
    choose(window, "save")  # the same name again is refused, nothing overwritten
    type_name(window, "mine")
    press(window, pygame.K_RETURN)
    assert "exists" in window.menu.page.lines()[-1][0]
    press(window, pygame.K_ESCAPE)  # back to the main page
    press(window, pygame.K_ESCAPE)  # closed
    assert window.menu is None
    window.machine.memory[0x8000] = 0
    choose(window, "load")
    assert [text for text, _ in window.menu.page.lines()[1:]] == ["../", "mine.szx"]
    press(window, pygame.K_RETURN)
    assert window.menu is None and window.machine.memory[0x8000] == 0x5A


def test_reset(window: Window) -> None:
    window.run(max_frames=window.frames_run + 20, paced=False)
    assert "zxmonopoly ROM" in screen(window)
    choose(window, "reset")
    assert window.menu is None and window.machine.frame == 0
    assert "zxmonopoly ROM" not in screen(window)


def yellow_pixels(pixels: np.ndarray) -> int:
    return int(np.all(pixels == PAUSED_COLOUR, axis=2).sum())


def test_pause_is_shown_on_the_screen(window: Window) -> None:
    choose(window, "pause")
    assert window.paused
    press(window, pygame.K_ESCAPE)
    frame = window.machine.frame
    for _ in range(3):
        window.step(paced=False)
    assert window.machine.frame == frame
    assert yellow_pixels(window.window_rgb()[:40]) > 50  # the PAUSED banner
    choose(window, "pause")
    press(window, pygame.K_ESCAPE)
    window.step(paced=False)
    assert not window.paused and window.machine.frame == frame + 1
    assert yellow_pixels(window.window_rgb()[:40]) == 0


def test_speed_100_200_max(window: Window) -> None:
    choose(window, "speed", pygame.K_RIGHT)
    assert window.speed == 2
    press(window, pygame.K_ESCAPE)
    frame = window.machine.frame
    window.step(paced=False)
    assert window.machine.frame == frame + 2
    choose(window, "speed", pygame.K_RIGHT)
    assert window.turbo
    press(window, pygame.K_ESCAPE)
    frame = window.machine.frame
    window.step(paced=False)  # as many frames as fit in 20 ms
    assert window.machine.frame > frame
    choose(window, "speed", pygame.K_LEFT)
    choose(window, "speed", pygame.K_LEFT)
    assert window.speed == 1


def test_sound_on_and_off(window: Window) -> None:
    """On, every sample of the frames run goes to the mixer or waits its turn, and the mixer
    has had the first at once; off, nothing more goes to it.

    Counted, not timed: the mixer plays in real time and holds at most two 40 ms Sounds, so
    whether its channel is still busy when the test looks depends on how long a loaded
    machine took to get there (50 to 60 ms after the last frame here at load 5; more, and a
    check of ``get_busy()`` failed beside the network test's two windows).
    """
    assert window.audio is None and not window.sound  # started muted
    choose(window, "sound")
    assert window.sound and window.audio is not None and window.machine.audio
    audio = window.audio
    press(window, pygame.K_ESCAPE)
    window.run(max_frames=window.frames_run + 1, paced=False)
    assert audio.handed == AUDIO_SAMPLES_PER_FRAME  # the channel was idle: it plays at once
    window.run(max_frames=window.frames_run + 9, paced=False)
    made = 10 * AUDIO_SAMPLES_PER_FRAME
    assert audio.handed > AUDIO_SAMPLES_PER_FRAME
    assert audio.handed + audio.backlog() + audio.dropped == made  # none lost on the way
    choose(window, "sound")
    assert not window.sound
    assert audio.backlog() == 0
    handed = audio.handed
    press(window, pygame.K_ESCAPE)
    window.run(max_frames=window.frames_run + 10, paced=False)
    assert audio.handed == handed and audio.backlog() == 0


def test_joystick_and_the_pc_cursor_keys(window: Window) -> None:
    choose(window, "joystick", pygame.K_RIGHT)
    assert window.joystick_mode == "kempston"
    choose(window, "cursor")
    assert window.cursor_joystick
    press(window, pygame.K_ESCAPE)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0, unicode="",
                                         scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RCTRL, mod=0,
                                         unicode="", scancode=0))
    window.step(paced=False)
    assert window.machine.joystick.state[0] == JOYSTICK_BITS["LEFT"] | JOYSTICK_BITS["FIRE"]
    assert window.machine.keyboard.pressed() == []  # not CAPS SHIFT+5, not SYMBOL SHIFT
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_LEFT, mod=0, unicode="",
                                         scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RCTRL, mod=0,
                                         unicode="", scancode=0))
    window.step(paced=False)  # down one frame so far: held to its minimum (spectrum/presses.py)
    assert window.machine.joystick.state[0] == JOYSTICK_BITS["LEFT"] | JOYSTICK_BITS["FIRE"]
    window.run(max_frames=window.frames_run + HOLD_FRAMES - 1, paced=False)
    assert window.machine.joystick.state[0] == 0


def test_status_line(window: Window) -> None:
    choose(window, "status")
    assert window.show_status
    press(window, pygame.K_ESCAPE)
    window.run(max_frames=window.frames_run + 10, paced=False)
    assert window.status_text().split("   ")[1:3] == ["100 %", "python"]
    assert window.status_text().endswith("fps") is False and "fps" in window.status_text()
    height = window.screen.get_height()
    bottom = window.window_rgb()[height - 12:]
    expected = window.machine.screen_rgb().repeat(2, 0).repeat(2, 1)[height - 12:]
    assert not np.array_equal(bottom, expected)  # the line is drawn over the border
    window.insert_tape(hello_tape(Path(window.snapshot_dir)))
    assert "tape hello.tap block 1/2 0:00.0 stopped" in window.status_text()


def test_screenshot(window: Window, tmp_path: Path) -> None:
    from zxmonopoly.spectrum import video

    choose(window, "screenshot")
    assert window.menu is None
    shots = list(tmp_path.glob("zxmonopoly-*.png"))
    assert len(shots) == 1
    assert np.array_equal(video.read_png(shots[0]), window.machine.screen_rgb())


def test_quit(window: Window) -> None:
    choose(window, "quit")
    assert not window.running


def test_escape_in_a_page_goes_back_to_the_main_page(window: Window) -> None:
    choose(window, "load")
    assert isinstance(window.menu.page, FilePage)
    press(window, pygame.K_ESCAPE)
    assert window.menu is not None and len(window.menu.pages) == 1


def test_a_dropped_tape_loads(window: Window, tmp_path: Path) -> None:
    pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=str(hello_tape(tmp_path))))
    window.run(max_frames=window.frames_run + 400, paced=False)
    assert "HELLO TAPE" in screen(window)


@pytest.mark.parametrize(("kind", "mode", "keys"), [
    ("hat", "sinclair1", ["6", "9"]),  # left + up
    ("axis", "sinclair2", ["1", "4"]),
    ("hat", "cursor", ["5", "7"]),
])
def test_a_game_pad_as_a_keyboard_joystick(window: Window, kind: str, mode: str,
                                           keys: list[str]) -> None:
    window.set_joystick(mode)
    if kind == "hat":
        pygame.event.post(pygame.event.Event(pygame.JOYHATMOTION, instance_id=0, joy=0, hat=0,
                                             value=(-1, 1)))
    else:
        for axis, value in ((0, -0.9), (1, -0.8)):
            pygame.event.post(pygame.event.Event(pygame.JOYAXISMOTION, instance_id=0, joy=0,
                                                 axis=axis, value=value))
    window.step(paced=False)
    assert sorted(window.machine.keyboard.pressed()) == keys
    fire = {"sinclair1": "0", "sinclair2": "5", "cursor": "0"}[mode]
    pygame.event.post(pygame.event.Event(pygame.JOYBUTTONDOWN, instance_id=0, joy=0, button=1))
    window.step(paced=False)
    assert fire in window.machine.keyboard.pressed()
    pygame.event.post(pygame.event.Event(pygame.JOYBUTTONUP, instance_id=0, joy=0, button=1))
    if kind == "hat":
        pygame.event.post(pygame.event.Event(pygame.JOYHATMOTION, instance_id=0, joy=0, hat=0,
                                             value=(0, 0)))
    else:
        for axis in (0, 1):
            pygame.event.post(pygame.event.Event(pygame.JOYAXISMOTION, instance_id=0, joy=0,
                                                 axis=axis, value=0.1))
    window.step(paced=False)
    assert window.machine.keyboard.pressed() == []


def test_a_game_pad_as_a_kempston_joystick(window: Window) -> None:
    window.set_joystick("kempston")
    pygame.event.post(pygame.event.Event(pygame.JOYAXISMOTION, instance_id=3, joy=3, axis=0,
                                         value=1.0))
    pygame.event.post(pygame.event.Event(pygame.JOYBUTTONDOWN, instance_id=3, joy=3, button=0))
    window.step(paced=False)
    assert window.machine.joystick.state[0] == JOYSTICK_BITS["RIGHT"] | JOYSTICK_BITS["FIRE"]
    assert window.machine.keyboard.pressed() == []
    # The program sees it on port 0x1F: IN A,(0x1F) in a loop, the value stored at 0x8000.
    memory = window.machine.memory
    memory[0x8100:0x8108] = bytes([0xDB, 0x1F, 0x32, 0x00, 0x80, 0x18, 0xF9, 0x00])
    window.machine.cpu.pc = 0x8100
    window.machine.cpu.iff1 = 0
    window.step(paced=False)
    assert memory[0x8000] == JOYSTICK_BITS["RIGHT"] | JOYSTICK_BITS["FIRE"]
    window.set_joystick("none")
    assert window.machine.joystick.state[0] == 0


def test_zxmonopoly_file_plays_a_recording(xvfb: str, tmp_path: Path, monkeypatch) -> None:
    session = Session(engine="python", boot_frames=30)
    path = tmp_path / "answer.rzx"
    with session.record_rzx(path):
        session.machine.type_text("p7*6\n")  # (K mode: p is PRINT)
        session.wait(3)
    frames = len(load_rzx(path).frames)
    seen = capture_close(monkeypatch)
    # The window plays the recording's frames: the screen is the recording's at its end.
    assert cli.main([str(path), "--mute", "--engine", "python", "--exit-after-frames",
                     str(frames)]) == 0
    assert "42" in str(seen["text"])
    assert seen["memory"][DISPLAY_FILE:ATTR_END] == bytes(
        session.machine.memory[DISPLAY_FILE:ATTR_END])


def capture_close(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """Keep what the window showed when ``zxmonopoly`` closes it."""
    seen: dict[str, object] = {}
    close = Window.close

    def closing(self: Window) -> None:
        seen["text"] = "\n".join(self.machine.screen_text())
        seen["tape"] = self.machine.deck.name
        seen["memory"] = bytes(self.machine.memory)
        close(self)

    monkeypatch.setattr(window_module.Window, "close", closing)
    return seen


def test_zxmonopoly_file_opens_a_tape(xvfb: str, tmp_path: Path, monkeypatch) -> None:
    seen = capture_close(monkeypatch)
    tape = hello_tape(tmp_path)
    assert cli.main([str(tape), "--mute", "--engine", "python", "--exit-after-frames", "400",
                     "--scale", "1"]) == 0
    assert seen["tape"] == str(tape) and "HELLO TAPE" in str(seen["text"])


def test_zxmonopoly_file_opens_a_snapshot(xvfb: str, tmp_path: Path, monkeypatch) -> None:
    machine = Spectrum48(engine="python")
    machine.run_frames(30)
    machine.type_text("p7*6\n")  # (K mode: p is PRINT)
    path = tmp_path / "answer.z80"
    machine.save_snapshot(path)
    seen = capture_close(monkeypatch)
    assert cli.main([str(path), "--mute", "--engine", "python", "--exit-after-frames", "2"]) == 0
    assert "42" in str(seen["text"])


def test_keys_reach_the_spectrum_again_after_the_menu(window: Window) -> None:
    choose(window, "status")
    press(window, pygame.K_ESCAPE)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a",
                                         scancode=0))
    window.step(paced=False)
    row, mask = KEYS["A"]
    assert not window.machine.keyboard.rows[row] & mask


def test_f8_and_the_menu_show_the_record_over_the_picture(window: Window) -> None:
    """F8 (or the menu's item) opens the panel of the game's record, drawn over the running
    picture; PgUp scrolls it; F8 closes it."""
    press(window, pygame.K_F8)
    assert window.eventlog.shown
    window.step(paced=False)  # drawn (no events yet: the title line alone)
    frame = window.machine.frame
    window.step(paced=False)
    assert window.machine.frame == frame + 1  # the Spectrum runs on under the panel
    press(window, pygame.K_PAGEUP)
    press(window, pygame.K_F8)
    assert not window.eventlog.shown
    choose(window, "record")
    assert window.eventlog.shown and window.menu is None
