"""Short taps in the window, under Xvfb: real X key events (xdotool) of 5 ms, and two taps 30 ms
apart, each reach the Spectrum as one keystroke, at the normal frame rate and with the window's
frames slowed to 5 a second (its runtime's ``frame_seconds``: ZXMONOPOLY_TEST_FPS), in a window
alone and in a network game's window (its keys the player's for the frames it schedules).

What takes them is our ROM's editor (the KSTATE rule of the 48K's KEYBOARD: the same key must
be up 5 interrupts to count again, two keys at once count for nothing): K mode, so P is PRINT,
then digits. Nothing is timed by the test: xdotool presses the keys in real time while the
window runs its own loop, and the test waits for the edit line to show them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Callable

import pytest

pygame = pytest.importorskip("pygame")

from tests.ui.test_menu import window, xvfb  # noqa: E402, F401
from tests.ui.test_netplay import WAIT, Stepping, window_of, xdotool  # noqa: E402
from zxmonopoly.net import protocol as p  # noqa: E402
from zxmonopoly.net.link import HOST, JOIN, NetLink, NetOptions  # noqa: E402
from zxmonopoly.spectrum import Spectrum48  # noqa: E402
from zxmonopoly.spectrum.keystrokes import HOLD_FRAMES, SAME_KEY_UP  # noqa: E402
from zxmonopoly.ui.window import Window  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not "
                                "installed (apt-get install xdotool): the taps are real X keys")

#: The slow window's frames a second (a weak or busy machine's).
SLOW_FPS = 5
#: Frames after the taps in which nothing more may come (a tap taken twice, a late one).
SETTLE = 2 * (HOLD_FRAMES + SAME_KEY_UP)


def taps(*keys: str, apart: float = 0.03) -> list[str]:
    """xdotool's commands for a 5 ms tap of each key, ``apart`` seconds between them (one
    process, so the timing is xdotool's own, not a process start's)."""
    chain: list[str] = []
    for k, key in enumerate(keys):
        if k:
            chain += ["sleep", str(apart)]
        chain += ["keydown", key, "sleep", "0.005", "keyup", key]
    return chain


def edit_line(machine: Spectrum48) -> str:
    """The ROM's edit line (the bottom row) without its cursor letter."""
    return re.sub(r"[KLCEG]?\s*$", "", machine.screen_text()[-1]).rstrip()


def step_until(w: Window, done: Callable[[], bool], what: str, paced: bool = True) -> None:
    """Run the window's own loop until ``done()`` (WAIT bounds it)."""
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, f"{what}: not so after {WAIT:.0f} s"
        w.step(paced)


def tap_in(w: Window, machine: Callable[[], Spectrum48], chain: list[str], expected: str) -> None:
    """Focus the window, let xdotool tap ``chain`` while the window runs, until the edit line
    of ``machine()`` (the one the keys reach) is ``expected``; then SETTLE frames more change
    nothing."""
    xdotool("windowfocus", "--sync", window_of(r"^zxmonopoly"))
    tapping = subprocess.Popen(["xdotool", *chain])
    try:
        step_until(w, lambda: tapping.poll() is not None, "xdotool's taps")
    finally:
        tapping.wait(WAIT)
    assert tapping.returncode == 0
    step_until(w, lambda: edit_line(machine()) == expected,
               f"the edit line {expected!r} (it is {edit_line(machine())!r})")
    ran = w.frames_run
    step_until(w, lambda: w.frames_run >= ran + SETTLE, f"{SETTLE} frames more")
    assert edit_line(machine()) == expected


def type_the_taps(w: Window, machine: Callable[[], Spectrum48]) -> None:
    """P (PRINT) tapped for 5 ms; 1 tapped twice 30 ms apart; 2 and 3 tapped 30 ms apart."""
    tap_in(w, machine, taps("p"), "PRINT")
    tap_in(w, machine, taps("1", "1"), "PRINT 11")
    tap_in(w, machine, taps("2", "3"), "PRINT 1123")


@pytest.mark.parametrize("per_second", [50, SLOW_FPS])
def test_taps_in_a_window_alone(window: Window, per_second: int) -> None:  # noqa: F811
    """Each tap is one keystroke, in order, at 50 frames a second and at 5."""
    assert edit_line(window.machine) == ""  # our ROM's K cursor, after the fixture's frames
    if per_second != 50:
        window.runtime.frame_seconds = 1 / per_second  # a slow machine: the taps fall in one frame
    type_the_taps(window, lambda: window.machine)


@pytest.mark.parametrize("per_second", [50, SLOW_FPS])
def test_taps_in_a_network_window(window: Window, per_second: int) -> None:  # noqa: F811
    """The same in a window that joined a game: the host's machine (and the window's) takes
    each tap once, in order; both machines stay alike."""
    host = Stepping(NetLink.start(Spectrum48(engine="python"),
                                  NetOptions(HOST, "127.0.0.1", 0, "", "ANNE")))
    try:
        assert window.join_network(NetOptions(JOIN, "127.0.0.1", host.link.node.port,
                                              p.normal_code(host.link.code), "BOB")) is None
        link = window.net
        assert link is not None
        step_until(window, lambda: "ROM" in "\n".join(window.machine.screen_text()),
                   "the host's machine booted")
        if per_second != 50:
            window.runtime.frame_seconds = 1 / per_second
        type_the_taps(window, lambda: host.link.node.machine)
        assert edit_line(window.machine) == "PRINT 1123"
        assert link.node.stats.desyncs == 0
    finally:
        window.leave_network()
        host.close()
