"""The window in a network game (docs/network.md, "At the window"): its frames come from the
lockstep node, its keys go to the network, the host's controls are stamped with a frame.

:class:`NetDriver` is the runtime's :class:`~zxmonopoly.ui.runtime.FrameDriver` while the
window is in a game: each frame it asks the node for, the node takes this window's keys for the
frame it schedules next (``delay`` frames ahead) and emulates the current frame when every
player's keys for it are in, waiting at most what the runtime allows of the tick, so a stall
never stops the events or the drawing. The rest of this module starts and leaves a game from
the window, keeps the window's title, pause and speed in step with the node, and sends the
host's controls.
"""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path
from typing import Protocol

from zxmonopoly.harness.words import max_players
from zxmonopoly.net.link import NetLink, NetOptions
from zxmonopoly.net.lockstep import NetError, Node, TapeFile
from zxmonopoly.spectrum import NO_INPUT, FrameInput, Spectrum48
from zxmonopoly.spectrum.keyfeed import KeyFeed
from zxmonopoly.ui.audio import AudioOut
from zxmonopoly.ui.files import SNAPSHOT_SUFFIXES, TAPE_SUFFIXES, Files
from zxmonopoly.ui.help import GAME_KEYS
from zxmonopoly.ui.runtime import FrameKeys, LocalDriver, Runtime
from zxmonopoly.ui.rzx import SUFFIX as RZX_SUFFIX


class NetWindow(Protocol):
    """What a network game reads and sets of the window (ui/window.py's Window is one).

    Declared here, not imported, so the window imports this module and not the other way.
    """

    machine: Spectrum48
    feed: KeyFeed
    files: Files
    runtime: Runtime
    audio: AudioOut | None
    net: NetLink | None
    recorder: object | None
    paused: bool
    status: str
    symbols: Path | None

    def note(self, text: str) -> None: ...
    def say(self, text: str) -> None: ...
    def record(self) -> None: ...
    def autoload(self) -> None: ...


class NetDriver:
    """Runs the window's frames through a network game's node (a FrameDriver)."""

    #: The others play on while this window's menu is open (its keys are let go meanwhile).
    stops_for_menu = False

    def __init__(self, link: NetLink) -> None:
        self.link = link
        #: The frame a script action that reads the machine was reached at (it waits until the
        #: machine has run every frame scheduled before it).
        self._action_at: int | None = None

    def run_frame(self, machine: Spectrum48, keys: FrameKeys, wait: float) -> bool:
        """Send this window's keys as far ahead as the delay says and emulate the next frame
        when every player's keys are in, waiting at most ``wait`` seconds for them."""

        def local(node: Node) -> FrameInput:
            # The key feeder moves on one scheduled frame at a time, as it moves on one
            # emulated frame at a time alone. An action that reads the screen (the rest of
            # LOAD "") waits, pressing nothing, until the machine has caught up with it.
            if keys.action_due:
                if self._action_at is None:
                    self._action_at = node.next_local
                if node.frame < self._action_at:
                    return NO_INPUT
                self._action_at = None
            return keys.take()

        return self.link.step(local, wait)

    def lock(self) -> contextlib.AbstractContextManager[object]:
        """The node's lock: its network thread reads and repairs the machine under it."""
        return self.link.node.lock

    def forget_action(self) -> None:
        """The script was cleared (a reset, a file): no action is waiting any more."""
        self._action_at = None


def start(window: NetWindow, options: NetOptions, tape: str | Path | None = None) -> str | None:
    """Host or join from this window (its machine is the game's, a joiner's is replaced by
    the host's); a problem, or None when the game is on."""
    if window.net is not None:
        return "already in a network game: leave it first"
    if window.recorder is not None:
        window.record()  # a recording is of one keyboard; the network's keys are everyone's
    if options.hosting:  # as many players as the game has pieces (its symbol map says), and
        # its keys marked on a browser's keyboard as F1 marks them
        options = dataclasses.replace(options, players=max_players(),
                                      labels=tuple(GAME_KEYS.items()))
    try:
        tape_data = TapeFile.read(tape) if tape is not None else None
        link = NetLink.start(window.machine, options, tape=tape_data)
    except NetError as exc:
        return str(exc)
    window.net = link
    window.runtime.driver = NetDriver(link)
    if not options.hosting:
        window.feed.clear()  # the host's machine is the game's now, and its LOAD ""
    window.paused = False
    sync(window)
    return None


def leave(window: NetWindow) -> None:
    """Leave the network game (the host: end it for everyone); the window plays on alone with
    the machine as it is."""
    link = window.net
    if link is None:
        return
    window.net = None
    window.runtime.driver = LocalDriver()
    link.close()
    window.status = ""
    window.paused = False
    window.runtime.speed = 1
    window.note("left the network game: playing alone")


def sync(window: NetWindow) -> None:
    """Before a tick: the node's lines shown, the title's status, the host's pause and speed
    taken over (they are the same on every window)."""
    link = window.net
    assert link is not None
    for line in link.lines():
        window.note(line)
    for line in link.quiet_lines():  # printed; the title keeps the game's own line
        window.say(f"zxmonopoly: {line}")
    window.status = link.status()
    was_paused, window.paused = window.paused, link.paused
    if window.paused != was_paused:
        if window.audio is not None:
            window.audio.clear()
        if window.paused:
            window.note(f"the game is paused at frame {link.node.frame}"
                        + ("" if link.hosting else " (by the host)"))
    if window.runtime.speed != link.speed:
        window.runtime.speed = link.speed
        if window.audio is not None:
            window.audio.clear()


def banner(window: NetWindow) -> str | None:
    """The line drawn across the window in a network game: the game's end, the pause, or the
    host's join code while no one has joined (the title bar has it always)."""
    link = window.net
    if link is None:
        return None
    if link.ended is not None:
        return f"GAME OVER: {link.ended}"
    if link.rejoining is not None:
        return f"CONNECTION LOST ({link.rejoining}): joining again..."
    if window.paused:
        return "PAUSED (F7 or P goes on)" if link.hosting else "PAUSED by the host"
    if link.hosting and link.players() == 1:
        host = link.node
        if link.options.online:
            return (f"Room code {link.code}   (the others: play --join {link.code})\n"
                    f"or in a browser: {link.page_link}")
        return f"Hosting on {host.bind}:{host.port}   join code {link.code}"  # type: ignore[union-attr]
    return None


def refused(window: NetWindow, what: str) -> bool:
    """On a joiner's window: say that ``what`` is the host's, and True (the caller stops)."""
    link = window.net
    assert link is not None
    refusal = link.refusal(what)
    if refusal is not None:
        window.note(refusal)
        return True
    return False


def reset(window: NetWindow) -> None:
    """Every machine reset at one frame (the host's only); the host's typing forgotten."""
    assert window.net is not None
    if refused(window, "reset"):
        return
    _forget_script(window)
    window.note(window.net.reset())


def _forget_script(window: NetWindow) -> None:
    """The host's LOAD "" and typing are of the machine before: forgotten."""
    window.feed.clear()
    driver = window.runtime.driver
    if isinstance(driver, NetDriver):
        driver.forget_action()


def open_file(window: NetWindow, path: str | Path) -> None:
    """A file dropped on (or opened in) a network game's window: the host's only. A tape is
    put in every deck, every machine reset, and LOAD "" typed; a snapshot loaded everywhere."""
    if refused(window, f"open {Path(path).name}"):
        return
    link = window.net
    assert link is not None
    suffix = Path(path).suffix.lower()
    if suffix in SNAPSHOT_SUFFIXES:
        load_snapshot(window, path)
    elif suffix in TAPE_SUFFIXES:
        try:
            tape = TapeFile.read(path)
        except NetError as exc:
            window.note(str(exc))
            return
        window.note(link.insert_tape(tape))
        window.note(link.reset())
        _forget_script(window)
        window.autoload()
    elif suffix == RZX_SUFFIX:  # its frames are one machine's port reads, not everyone's keys
        window.note(f"{Path(path).name}: an RZX recording plays outside a network game only")
    else:
        window.note(f"{Path(path).name}: not a .tap, .tzx, .szx, .z80 or .sna")


def load_snapshot(window: NetWindow, path: str | Path) -> bool:
    """The host's snapshot loaded on every machine at one frame; whether it was sent."""
    from zxmonopoly import snapshot as snapshots

    if refused(window, "load a snapshot"):
        return False
    link = window.net
    assert link is not None
    try:
        snap = snapshots.load(path)
    except Exception as exc:  # noqa: BLE001 - any failure is shown, play goes on
        window.note(f"cannot load {path}: {exc}")
        return False
    window.note(link.load_snapshot(snap))
    _forget_script(window)
    window.files.last_snapshot = Path(path)
    return True


def deck_path(window: NetWindow) -> str | None:
    """The file of the tape in the deck (the peers must have the same one), if it is one."""
    name = window.machine.deck.name
    return name if name is not None and Path(name).is_file() else None
