"""The window in a network game, under Xvfb.

Two real windows: ``play --host`` and ``play --join`` as two processes, real X key events
(xdotool, through the XTEST extension) pressed in the joiner's window, and the host's pause
stopping both at one frame, where their screens are compared. And the Esc menu's Host, Join and
Leave in this process's window beside a headless node of the net library (on its own thread):
the host's LOAD "" typed through the network, a key pressed in a joining window, every frame's
machine hash the same on both.
"""

from __future__ import annotations

import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")

from tests.commands import cli, source_env  # noqa: E402
from tests.ui.test_menu import hello_tape, press, screen, window, xvfb  # noqa: E402, F401
from zxmonopoly.net import machine_digest  # noqa: E402
from zxmonopoly.net import protocol as p  # noqa: E402
from zxmonopoly.net.link import HOST, JOIN, NetLink, NetOptions  # noqa: E402
from zxmonopoly.net.lockstep import Node, TapeFile  # noqa: E402
from zxmonopoly.spectrum import FrameInput, Spectrum48  # noqa: E402
from zxmonopoly.ui.netwindow import NetDriver  # noqa: E402
from zxmonopoly.ui.runtime import LocalDriver  # noqa: E402
from zxmonopoly.ui.window import Window  # noqa: E402

#: Seconds any one wait of this test may take (two python-engine windows on a busy machine).
WAIT = 90.0


class Running:
    """A ``zxmonopoly play`` process whose printed lines are read as they come."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(cli("play", *args),
                                        env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first printed line (from now) matching ``pattern``; fails after WAIT."""
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if self.process.poll() is not None and self.lines.empty():
                    break
                continue
            self.seen.append(line)
            found = re.search(pattern, line)
            if found:
                return found
        raise AssertionError(f"no line matching {pattern!r}; printed:\n" + "\n".join(self.seen))

    def printed(self, pattern: str) -> bool:
        """After the process ended: whether any of its lines matched ``pattern``."""
        self.process.wait(WAIT)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return any(re.search(pattern, line) for line in self.seen)

    def stop(self) -> None:
        """Kill it if it is still running."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


def xdotool(*args: str) -> str:
    """Run xdotool on the test's X server; its output."""
    return subprocess.run(["xdotool", *args], check=True, capture_output=True, text=True,
                          timeout=WAIT).stdout


def window_of(title: str) -> str:
    """The X window whose title matches ``title`` (a regular expression; waits for it).
    Every window is listed by class (xdotool's ``--name`` finds none of SDL's here)."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        listed = subprocess.run(["xdotool", "search", "--classname", "."], capture_output=True,
                                text=True, timeout=WAIT).stdout.split()
        for xid in listed:
            name = subprocess.run(["xdotool", "getwindowname", xid], capture_output=True,
                                  text=True, timeout=WAIT).stdout
            if re.search(title, name):
                return xid
        time.sleep(0.5)
    raise AssertionError(f"no window titled {title!r}")


def press_in(xid: str, key: str) -> None:
    """Focus the X window ``xid`` and press ``key`` in it (a function key: the window acts on
    its going down)."""
    xdotool("windowfocus", "--sync", xid)
    xdotool("key", key)


#: Turns of a window's loop a key is held for (a person's press is 15 frames and more).
HELD_TURNS = 15
#: What a network game's window says to F9 (recording is refused there): each answer is a
#: turn of its loop, whose frames took the keys held.
REFUSED_F9 = r"recording: not in a network game"


def hold_in(process: Running, xid: str, key: str) -> None:
    """Focus the X window ``xid`` and hold ``key`` down in it while the window goes round
    HELD_TURNS turns of its loop, each seen: F9 pressed and its refusal printed, again and
    again (the keys taken at each turn's frames are the ones held), then let it go."""
    xdotool("windowfocus", "--sync", xid)
    xdotool("keydown", key)
    try:
        for _ in range(HELD_TURNS):
            xdotool("key", "F9")
            process.wait_for(REFUSED_F9)
    finally:
        xdotool("keyup", key)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed "
                    "(apt-get install xdotool): the two-window test presses real X keys")
def test_a_key_in_the_joiners_window_changes_both_screens_alike(xvfb: str,  # noqa: F811
                                                                 tmp_path: Path) -> None:
    """``play --host``, ``play --join`` and ``play --join --watch`` as three processes: SPACE
    in the watcher's window leaves every machine at the title (the host's pause, then the
    watcher's screen on closing, show it); SPACE in the joiner's window starts the game on
    both players' machines alike."""
    from zxmonopoly.harness import Session

    title = tmp_path / "title.szx"
    Session.game(engine="python").machine.save_snapshot(title)
    env = source_env(PYTHONUNBUFFERED="1")
    common = ["--mute", "--engine", "python"]
    host = Running(["--host", "--port", "0", "--snapshot", str(title), "--screen-text",
                    str(tmp_path / "host.txt"), *common], env)
    joiner: Running | None = None
    watcher: Running | None = None
    try:
        found = host.wait_for(r"hosting on 127\.0\.0\.1:(\d+); join code (\w{5}-\w{5})")
        port, code = found.group(1), found.group(2)
        joiner = Running(["--join", f"127.0.0.1:{port}", "--code", code, "--screen-text",
                          str(tmp_path / "joiner.txt"), *common], env)
        joiner.wait_for(r"joined as player 2")
        host.wait_for(r"player 2 \(.*\) joined")
        watcher = Running(["--join", f"127.0.0.1:{port}", "--code", code, "--watch",
                           "--screen-text", str(tmp_path / "watcher.txt"), *common], env)
        watcher.wait_for(r"watching from frame")
        host.wait_for(r"is watching from frame")
        hosting = window_of("hosting on 127.0.0.1")
        # A spectator's key: sent to nobody.
        hold_in(watcher, window_of("watching 127.0.0.1"), "space")
        press_in(hosting, "F7")
        frame = host.wait_for(r"the game is paused at frame (\d+)").group(1)
        assert watcher.wait_for(r"the game is paused at frame (\d+)").group(1) == frame
        assert joiner.wait_for(r"the game is paused at frame (\d+)").group(1) == frame
        press_in(window_of("watching 127.0.0.1"), "F10")
        assert watcher.process.wait(WAIT) == 0, "\n".join(watcher.seen)
        press_in(hosting, "F7")  # on again
        hold_in(joiner, window_of("player 2 at 127.0.0.1"), "space")
        press_in(hosting, "F7")
        frame = host.wait_for(r"the game is paused at frame (\d+)").group(1)
        assert joiner.wait_for(r"the game is paused at frame (\d+)").group(1) == frame
        press_in(window_of("player 2 at 127.0.0.1"), "F10")
        assert joiner.process.wait(WAIT) == 0, "\n".join(joiner.seen)
        press_in(hosting, "F10")
        assert host.process.wait(WAIT) == 0, "\n".join(host.seen)
    finally:
        for process in (host, joiner, watcher):
            if process is not None:
                process.stop()
    at_watcher = (tmp_path / "watcher.txt").read_text()
    assert "PRESS ANY KEY" in at_watcher.upper(), at_watcher  # its SPACE went nowhere
    at_host = (tmp_path / "host.txt").read_text()
    at_joiner = (tmp_path / "joiner.txt").read_text()
    assert at_host == at_joiner
    assert "PRESS ANY KEY" not in at_host.upper(), at_host  # the joiner's SPACE left the title
    assert "press a piece's number" in at_host, at_host


#: Frames a headless host stepped beside a watching window runs ahead of it at most.
LEAD = 100


class Stepping:
    """A headless node's link stepped on a thread of its own (its keys all up), every frame's
    machine hash kept. ``follow`` (set for a host beside a watcher, whose keys do not hold it
    back) gives the frame it stays within LEAD frames of: unheld, it ran thousands of frames
    ahead of a window under load, past the peer's MAX_BEHIND, and the watcher left."""

    def __init__(self, link: NetLink) -> None:
        self.link = link
        self.hashes = hashes_of(link.node)
        self.follow: Callable[[], int] | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set() and self.link.ended is None:
            follow = self.follow
            if follow is not None and self.link.node.frame >= follow() + LEAD:
                self.stop.wait(0.002)  # the watcher's turn
            elif not self.link.step(FrameInput(), 0.02):
                self.stop.wait(0.002)  # paused: nothing to wait for in advance_within

    def close(self) -> None:
        self.stop.set()
        self.thread.join(WAIT)
        self.link.close()


def hashes_of(node: Node) -> dict[int, bytes]:
    """The node's machine hash after every frame it emulates, by frame (filled as it runs)."""
    table: dict[int, bytes] = {}
    node.frame_listeners.append(lambda n: table.__setitem__(n.frame, machine_digest(n.machine)))
    return table


def choose_line(w: Window, prefix: str) -> None:
    """Open the menu and press Enter on the main page's line that starts with ``prefix``."""
    if w.menu is None:
        press(w, pygame.K_ESCAPE)
    assert w.menu is not None
    labels = [item.label() for item in w.menu.page.items]
    (index,) = [k for k, label in enumerate(labels) if label.startswith(prefix)]
    for _ in range(w.menu.page.selected):
        press(w, pygame.K_UP)
    for _ in range(index):
        press(w, pygame.K_DOWN)
    press(w, pygame.K_RETURN)


def type_line(w: Window, text: str) -> None:
    """Type ``text`` into the menu's text page (what was there deleted first), then Enter."""
    assert w.menu is not None
    for _ in range(len(w.menu.page.name)):  # type: ignore[attr-defined]
        press(w, pygame.K_BACKSPACE)
    for char in text:
        press(w, ord(char.lower()), char)
    press(w, pygame.K_RETURN)


def step_until(w: Window, done: Callable[[], bool], what: str) -> None:
    """Step the window (unpaced) until ``done()``: an event that waits on another thread's
    frames and the network, so waited for however busy the machine is (WAIT bounds it)."""
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, f"{what}: not so after {WAIT:.0f} s"
        w.step(paced=False)


def both_paused(w: Window, other: NetLink, frame: int) -> None:
    """Step the window until it and ``other`` wait at the host's pause at ``frame``."""
    step_until(w, lambda: w.paused and other.paused and other.node.frame == frame,
               "both paused")
    assert w.net is not None and w.net.node.frame == other.node.frame == frame


def test_the_menu_hosts_and_the_host_s_load_runs_alike_on_a_joiner(
        window: Window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    from zxmonopoly.net import host as hosts

    monkeypatch.setattr(p, "DEFAULT_PORT", 0)  # the menu's Host: any free port, for the test
    # The longest input delay, kept: the host's keys go 25 frames ahead of its picture, and
    # the step of LOAD "" that reads the screen must wait for the machine to catch up.
    monkeypatch.setattr(p, "START_DELAY", p.MAX_DELAY)
    monkeypatch.setattr(hosts, "LOWER_AFTER", float("inf"))
    tape = hello_tape(tmp_path)
    window.open_file(tape)  # a reset and LOAD "" to come, after the boot's wait
    choose_line(window, "Host: this machine only")
    link = window.net
    assert link is not None and link.hosting and window.menu is None
    assert isinstance(window.runtime.driver, NetDriver)
    assert window.status.startswith(f"hosting on 127.0.0.1:{link.node.port}, join code ")
    assert link.node.max_players == 6  # the game's own count, which the window gave the host
    host_hashes = hashes_of(link.node)
    joiner = Stepping(NetLink.start(Spectrum48(engine="python"),
                                    NetOptions(JOIN, "127.0.0.1", link.node.port,
                                               p.normal_code(link.code), "BOB"),
                                    tape=TapeFile.read(tape)))
    try:
        # the boot's wait, LOAD "" typed, the load, the program's PRINT
        step_until(window, lambda: "HELLO TAPE" in screen(window), "the tape's program")
        assert link.players() == 2 and link.node.delay == p.MAX_DELAY
        window.toggle_pause()  # the host's: every machine stops at one frame
        frame = link.node.paused_at
        assert frame is not None
        both_paused(window, joiner.link, frame)
        assert "HELLO TAPE" in "\n".join(joiner.link.node.machine.screen_text())
        common = set(host_hashes) & set(joiner.hashes)
        assert len(common) > 100 and all(host_hashes[f] == joiner.hashes[f] for f in common)
        assert link.node.stats.desyncs == 0
        choose_line(window, "Leave the network game (it ends for everyone)")
        assert window.net is None and isinstance(window.runtime.driver, LocalDriver)
        joiner.thread.join(WAIT)  # its loop ends with the game
        assert joiner.link.ended is not None and "ended the game" in joiner.link.ended
        at = window.machine.frame
        window.step(paced=False)
        assert window.machine.frame == at + 1 and not window.paused  # alone again
    finally:
        joiner.close()


def test_the_menu_joins_a_game_and_the_window_s_keys_reach_the_host(
        window: Window) -> None:  # noqa: F811
    host = Stepping(NetLink.start(Spectrum48(engine="python"),
                                  NetOptions(HOST, "127.0.0.1", 0, "", "ANNE")))
    try:
        choose_line(window, "Join a network game")
        type_line(window, f"127.0.0.1:{host.link.node.port}")
        assert window.menu is not None and "join code" in window.menu.page.title
        type_line(window, "not a code")
        assert window.net is None and "is not a join code" in window.menu.page.problem
        type_line(window, host.link.code.lower())
        link = window.net
        assert link is not None and not link.hosting and window.menu is None
        assert window.status.startswith(f"player 2 at 127.0.0.1:{host.link.node.port}")
        own = hashes_of(link.node)
        window.reset()  # refused: the host's
        assert "only the host" in window.message
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0,
                                             unicode="p", scancode=0))
        # Held until the host's machine has it (K mode: P is PRINT), then let go.
        step_until(window, lambda: "PRINT" in "\n".join(host.link.node.machine.screen_text()),
                   "P held in the window, on the host's screen")
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_p, mod=0,
                                             unicode="p", scancode=0))
        at = link.node.frame
        step_until(window, lambda: link.node.frame >= at + 50, "50 frames more")
        said = host.link.pause(True)
        frame = int(said.split()[3])
        both_paused(window, host.link, frame)
        assert "PRINT" in screen(window)
        common = set(own) & set(host.hashes)
        assert len(common) > 10 and all(own[f] == host.hashes[f] for f in common)
        host.close()  # the host leaves: the game ends in the window
        steps = [0]
        step = window.step

        def counted(paced: bool = True) -> None:
            steps[0] += 1
            assert steps[0] < 5000, "run(max_frames) went on after the game ended"
            step(paced)

        window.step = counted  # type: ignore[method-assign]
        window.run(max_frames=window.frames_run + 10**6, paced=False)  # no frames come: it ends
        assert link.ended is not None and "ended the game" in window.message
        assert window.running
        window.step = step  # type: ignore[method-assign]
        choose_line(window, "Leave the network game")
        assert window.net is None and "left the network game" in window.message
    finally:
        host.close()


def test_a_watching_window_s_keys_are_not_sent(window: Window) -> None:  # noqa: F811
    """Joined with --watch (the menu's options as the CLI gives them), the window follows the
    host's machine; a key held in it reaches no machine (K mode: P would be PRINT)."""
    from zxmonopoly.net.link import net_options

    host = Stepping(NetLink.start(Spectrum48(engine="python"),
                                  NetOptions(HOST, "127.0.0.1", 0, "", "ANNE")))
    try:
        options = net_options(join=f"127.0.0.1:{host.link.node.port}", code=host.link.code,
                              watch=True)
        assert options is not None
        assert window.join_network(options) is None
        link = window.net
        assert link is not None and link.node.slot is None
        assert window.status.startswith(f"watching 127.0.0.1:{host.link.node.port}")
        own = hashes_of(link.node)
        host.follow = lambda: link.node.frame
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0,
                                             unicode="p", scancode=0))
        start = link.node.frame
        step_until(window, lambda: link.node.frame > start + 150, "150 frames watched")
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_p, mod=0,
                                             unicode="p", scancode=0))
        assert "PRINT" not in "\n".join(host.link.node.machine.screen_text())
        assert "PRINT" not in screen(window)
        assert host.link.players() == 1
        common = set(own) & set(host.hashes)
        assert len(common) > 100 and all(own[f] == host.hashes[f] for f in common)
    finally:
        window.leave_network()
        host.close()


def test_play_join_strict_exits_1_on_a_desync(xvfb: str) -> None:  # noqa: F811
    """``play --join ... --strict`` as a process beside a headless host: a byte poked into the
    host's machine makes the joiner's hash differ, the host sends its machine, and the strict
    joiner fails instead of loading it: its window closes, exit status 1, the desync said."""
    host = Stepping(NetLink.start(Spectrum48(engine="python"),
                                  NetOptions(HOST, "127.0.0.1", 0, "", "ANNE")))
    env = source_env(PYTHONUNBUFFERED="1")
    joiner = Running(["--join", f"127.0.0.1:{host.link.node.port}", "--code", host.link.code,
                      "--strict", "--mute", "--engine", "python"], env)
    try:
        joiner.wait_for(r"joined as player 2")
        node = host.link.node
        with node.lock:
            poked = node.frame
            node.machine.memory[0x6000] ^= 0x5A
        said = joiner.wait_for(r"zxmonopoly: desync: .*strict mode fails")
        assert joiner.process.wait(WAIT) == 1, "\n".join(joiner.seen)
        assert host.link.node.stats.desyncs == 1
        assert "host's machine at frame" in said.group(0)
        assert not joiner.printed(r"Traceback")
        assert node.frame > poked
    finally:
        joiner.stop()
        host.close()


def test_joining_leaves_the_windows_record_alone(window: Window) -> None:  # noqa: F811
    """The game's record is read without writing the machine (harness/events.py;
    tests/harness/test_observers.py), so a network game needs no map of its own for it:
    joining leaves the window's symbol map, and so its record, as they were."""
    window.symbols = None
    host = Stepping(NetLink.start(Spectrum48(engine="python"),
                                  NetOptions(HOST, "127.0.0.1", 0, "", "ANNE")))
    try:
        assert window.join_network(NetOptions(JOIN, "127.0.0.1", host.link.node.port,
                                              p.normal_code(host.link.code), "BOB")) is None
        assert window.symbols is None
        # the drain would follow at the next frame the window runs (a step may run none: it
        # waits at most TICK_WAIT for the host's keys)
        ran = window.frames_run
        step_until(window, lambda: window.frames_run > ran, "a frame run")
        assert window.eventlog._symbols_path is None
    finally:
        window.leave_network()
        host.close()


class LobbyThread:
    """A lobby on 127.0.0.1 on an event loop in a thread of its own."""

    def __init__(self) -> None:
        import asyncio

        from zxmonopoly.net.lobby import Lobby

        self.loop = asyncio.new_event_loop()
        self.lobby = Lobby("127.0.0.1", 0)
        self.loop.run_until_complete(self.lobby.start())
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        import asyncio

        asyncio.run_coroutine_threadsafe(self.lobby.close(), self.loop).result(WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)


def test_the_menu_hosts_online_and_joins_by_a_room_code(
        window: Window, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """The menu's "Host: online" opens a room in the lobby $ZXMONOPOLY_LOBBY names: the room
    code is in the title; a joiner enters it by the code; both machines alike. Then a second
    window's menu joins another online host by its room code typed."""
    lobby = LobbyThread()
    monkeypatch.setenv("ZXMONOPOLY_LOBBY", lobby.lobby.url)
    try:
        choose_line(window, "Host: online")
        link = window.net
        assert link is not None and link.hosting and window.menu is None
        code = link.code
        assert window.status.startswith(f"room code {code}, 1 player"), window.status
        room, join_code = code.split("-", 1)
        joiner = Stepping(NetLink.start(Spectrum48(engine="python"), NetOptions(
            JOIN, "", 0, p.normal_code(join_code), "BOB", lobby=lobby.lobby.url, room=room)))
        try:
            own = hashes_of(link.node)
            for _ in range(3000):
                window.step(paced=False)
                if len(set(own) & set(joiner.hashes)) > 100:
                    break
            common = set(own) & set(joiner.hashes)
            assert len(common) > 100 and all(own[f] == joiner.hashes[f] for f in common)
            assert link.players() == 2
        finally:
            joiner.close()
        choose_line(window, "Leave the network game")
        assert window.net is None

        host = Stepping(NetLink.start(Spectrum48(engine="python"), NetOptions(
            HOST, name="ANNE", lobby=lobby.lobby.url, listen=False)))
        try:
            choose_line(window, "Join a network game")
            type_line(window, host.link.code.lower())
            joined = window.net
            assert joined is not None and not joined.hosting and window.menu is None
            assert window.status.startswith(f"player 2 at room {host.link.code[:4]}")
        finally:
            host.close()
    finally:
        lobby.close()


def test_a_browser_plays_from_the_link_a_hosting_window_shows(
        window: Window, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """The window hosts online from its menu; the browser's link its band shows, opened in
    headless Chromium, seats the page as player 2: the canvas is the window's machine's
    picture of the frame the page drew, pixel for pixel, and a key typed on the page reaches
    the window's machine as player 2's at the frame the host stamped it for (issue 47's
    friend with only a browser)."""
    import numpy as np

    from tests.net.chromium import browser, canvas, page, wait
    from zxmonopoly.memory_map import ATTR_END, DISPLAY_FILE
    from zxmonopoly.spectrum import video
    from zxmonopoly.ui.netwindow import banner

    driver = browser()
    lobby = LobbyThread()
    monkeypatch.setenv("ZXMONOPOLY_LOBBY", lobby.lobby.url)
    pictures: dict[int, tuple[bytes, object, bool]] = {}
    taken: dict[int, FrameInput] = {}

    def record(node: Node) -> None:
        machine = node.machine
        pictures[node.frame] = (bytes(machine.memory[DISPLAY_FILE:ATTR_END]),
                                machine.border_lines(), video.flash_swapped(machine.frame))
        pictures.pop(node.frame - 500, None)
        taken[node.frame - 1] = machine.held_input()

    def meanwhile(action: Callable[[], object]) -> None:
        """``action`` (the browser's) on a thread while the window goes on, as it would."""
        done = threading.Event()
        failed: list[BaseException] = []

        def run() -> None:
            try:
                action()
            except BaseException as exc:  # noqa: BLE001 - raised again on the test's thread
                failed.append(exc)
            finally:
                done.set()

        threading.Thread(target=run, daemon=True).start()
        end = time.monotonic() + WAIT
        while not done.is_set():
            assert time.monotonic() < end, "the browser's action did not end"
            window.step(paced=True)
        if failed:
            raise failed[0]

    try:
        choose_line(window, "Host: online")
        link = window.net
        assert link is not None and link.hosting
        shown = banner(window)
        assert shown is not None
        found = re.search(r"or in a browser: (\S+)", shown)
        assert found and found.group(1) == link.page_link, shown
        url = found.group(1)
        assert "#" in url and p.normal_code(link.code.split("-", 1)[1]) not in url.split("#")[0]
        link.node.frame_listeners.append(record)

        def join() -> None:
            driver.get(url)
            wait(lambda: page(driver, "zx.state") == "ready", "the page ready", WAIT)
            driver.find_element("id", "name").send_keys("WEB")
            driver.find_element("id", "play").click()
            wait(lambda: page(driver, "zx.state === 'playing' && zx.drawn !== null"),
                 "the page playing", WAIT)

        meanwhile(join)
        assert page(driver, "zx.slot") == 1 and link.players() == 2
        frame, rgb = canvas(driver)
        display, border, flash = pictures[frame]
        memory = np.zeros(ATTR_END, dtype=np.uint8)
        memory[DISPLAY_FILE:] = np.frombuffer(display, dtype=np.uint8)
        expected = video.render(memory, border, flash)
        assert int(np.count_nonzero((rgb != expected).any(axis=2))) == 0, frame

        def type_x() -> None:
            from selenium.webdriver.common.action_chains import ActionChains

            ActionChains(driver).send_keys("x").perform()
            wait(lambda: page(driver, "zx.keys.length > 0 && zx.keys[0].frame"),
                 "the key taken", WAIT)
            stamped = page(driver, "zx.keys[0].frame")
            wait(lambda: link.node.frame > stamped + 5, "the frame had", WAIT)

        meanwhile(type_x)
        stamped = page(driver, "zx.keys[0].frame")
        keys = link.node.players[1].keys[stamped]
        assert keys == FrameInput.pressed(("X",)), keys
        from zxmonopoly.spectrum.keyboard import resolve

        rows = taken[stamped].rows
        assert all(not rows[row] & mask for row, mask in resolve(("X",))), \
            "the window's machine did not hold X at the stamped frame"
    finally:
        driver.quit()
        window.leave_network()
        lobby.close()


def test_play_host_online_prints_the_room_code_and_the_browser_s_link(
        xvfb: str, tmp_path: Path) -> None:  # noqa: F811
    """``zxmonopoly play --host --online --lobby URL`` (a process, its window on Xvfb) prints
    the room code, the line to pass on and the browser's links; the link's page is served by
    the lobby and its fragment (the secret) is the room code's secret part."""
    import urllib.request

    lobby = LobbyThread()
    env = source_env(PYTHONUNBUFFERED="1")
    host = Running(["--host", "--online", "--lobby", lobby.lobby.url, "--mute", "--engine",
                    "python"], env)
    try:
        code = host.wait_for(r"room code (\w{4}-\w{5}-\w{5})").group(1)
        host.wait_for(rf"the others join with: zxmonopoly play --join {code} --lobby "
                      rf"{re.escape(lobby.lobby.url)}")
        link = host.wait_for(r"or in a browser: (\S+)").group(1)
        watching = host.wait_for(r"to watch in a browser: (\S+)").group(1)
        room, secret = code.split("-", 1)
        base = lobby.lobby.url.replace("ws://", "http://")
        assert link == f"{base}/r/{room}#{secret}", link
        assert watching.startswith(f"{base}/r/{room}#watch-") and secret not in watching
        with urllib.request.urlopen(link.split("#")[0], timeout=WAIT) as answer:
            assert "<canvas" in answer.read().decode()
        assert lobby.lobby.rooms.keys() == {room}
    finally:
        host.stop()
        lobby.close()
