"""The window's menu (Esc): pages of items drawn over the screen, driven by the keyboard.

Up/Down choose, Enter does, Left/Right change a setting, Esc goes back (or closes). A page is
a list of items, a file list, or a name (an address, a join code) being typed. The actions are
the window's (:class:`MenuActions`); this module builds the pages (:func:`main_page`), draws
them and routes keys. docs/window.md lists the items.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from zxmonopoly.spectrum import Spectrum48  # noqa: E402
from zxmonopoly.ui import joystick as joysticks  # noqa: E402
from zxmonopoly.ui.files import (  # noqa: E402
    OPEN_SUFFIXES,
    SNAPSHOT_SUFFIXES,
    new_snapshot_path,
)
from zxmonopoly.ui.runtime import SPEED_NAMES, SPEEDS  # noqa: E402

if TYPE_CHECKING:
    from zxmonopoly.net.link import NetLink, NetOptions
    from zxmonopoly.ui.eventlog import EventLog
    from zxmonopoly.ui.rzx import WindowRzx

BACKGROUND = (0, 0, 0, 215)
FRAME_COLOUR = (200, 200, 200)
TEXT_COLOUR = (255, 255, 255)
DIM_COLOUR = (160, 160, 160)
SELECTED_BACKGROUND = (0, 90, 200)
TITLE_COLOUR = (255, 255, 0)
#: Rows of a file list shown at once (it scrolls).
LIST_ROWS = 14
#: Characters a snapshot name may have (the rest are refused as typed).
NAME_CHARACTERS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+")
NAME_LENGTH = 40
#: What a network host's address (``HOST`` or ``HOST:PORT``, ``[IPv6]:PORT``) and a join code
#: are typed with in the menu.
ADDRESS_CHARACTERS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.:[]")
CODE_CHARACTERS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789- ")
#: A lobby's URL (wss://HOST[:PORT][/PATH]).
URL_CHARACTERS = ADDRESS_CHARACTERS | set("/_~")
TEXT_HINT = "type   Enter go on   Backspace delete   Esc back"


@dataclass
class Item:
    """One line of a page: its text (now), what Enter does, what Left/Right do (-1/+1)."""

    label: Callable[[], str]
    enter: Callable[[], None] | None = None
    change: Callable[[int], None] | None = None


class Page:
    """A titled list of items with one selected."""

    def __init__(self, title: str, items: Sequence[Item], hint: str = "") -> None:
        self.title = title
        self.items = list(items)
        self.selected = 0
        self.hint = hint or "Up/Down choose   Enter do   Left/Right change   Esc back"

    def key(self, menu: Menu, event: pygame.event.Event) -> None:
        """React to a key: move, do, change, or go back."""
        key = event.key
        if key == pygame.K_ESCAPE:
            menu.back()
        elif key in (pygame.K_UP, pygame.K_KP8):
            self.selected = (self.selected - 1) % max(1, len(self.items))
        elif key in (pygame.K_DOWN, pygame.K_KP2):
            self.selected = (self.selected + 1) % max(1, len(self.items))
        elif key in (pygame.K_HOME, pygame.K_PAGEUP):
            self.selected = 0
        elif key in (pygame.K_END, pygame.K_PAGEDOWN):
            self.selected = max(0, len(self.items) - 1)
        elif not self.items:
            return
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            item = self.items[self.selected]
            if item.enter is not None:
                item.enter()
            elif item.change is not None:
                item.change(+1)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            item = self.items[self.selected]
            if item.change is not None:
                item.change(-1 if key == pygame.K_LEFT else +1)

    def lines(self) -> list[tuple[str, bool]]:
        """(text, selected) of the lines to draw, scrolled to keep the selection in view."""
        first = max(0, min(self.selected - LIST_ROWS // 2, len(self.items) - LIST_ROWS))
        shown = range(first, min(len(self.items), first + LIST_ROWS))
        return [(self.items[k].label(), k == self.selected) for k in shown]


class FilePage(Page):
    """The files of a directory with given suffixes (and its subdirectories, and ..)."""

    def __init__(self, title: str, directory: Path, suffixes: Sequence[str],
                 choose: Callable[[Path], None]) -> None:
        super().__init__(title, [], "Up/Down choose   Enter open   Esc back")
        self.suffixes = tuple(s.lower() for s in suffixes)
        self.choose = choose
        self.enter_directory(directory)

    def enter_directory(self, directory: Path) -> None:
        """List ``directory``."""
        self.directory = directory.resolve()
        try:
            entries = sorted(self.directory.iterdir(), key=lambda p: (not p.is_dir(),
                                                                     p.name.lower()))
        except OSError as exc:
            entries = []
            self.hint = f"cannot list {self.directory}: {exc.strerror or exc}"
        self.items = [Item(lambda: "../", lambda: self.enter_directory(self.directory.parent))]
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir():
                self.items.append(Item(lambda e=entry: f"{e.name}/",
                                       lambda e=entry: self.enter_directory(e)))
            elif entry.suffix.lower() in self.suffixes:
                self.items.append(Item(lambda e=entry: e.name, lambda e=entry: self.choose(e)))
        self.selected = min(1, len(self.items) - 1)  # the first entry, not ..

    def lines(self) -> list[tuple[str, bool]]:
        """The directory, then the entries."""
        return [(f"in {self.directory}", False), *super().lines()]


class NamePage(Page):
    """A name (or an address, a code) being typed with ``characters`` only; Enter hands it to
    ``done`` (which may refuse it with a message)."""

    def __init__(self, title: str, name: str, done: Callable[[str], str | None], *,
                 characters: set[str] = NAME_CHARACTERS, length: int = NAME_LENGTH,
                 hint: str = "type a name   Enter save   Backspace delete   Esc back") -> None:
        super().__init__(title, [], hint)
        self.name = name
        self.done = done
        self.characters = characters
        self.length = length
        self.problem = ""

    def key(self, menu: Menu, event: pygame.event.Event) -> None:
        """Type, delete, confirm or go back."""
        key = event.key
        if key == pygame.K_ESCAPE:
            menu.back()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.name:
                self.problem = self.done(self.name) or ""
        elif key == pygame.K_BACKSPACE:
            self.name = self.name[:-1]
        else:
            char = getattr(event, "unicode", "") or ""
            if char and char in self.characters and len(self.name) < self.length:
                self.name += char

    def lines(self) -> list[tuple[str, bool]]:
        """The name with a cursor, and any problem with it."""
        lines = [(f"{self.name}_", True)]
        if self.problem:
            lines.append((self.problem, False))
        return lines


class Menu:
    """A stack of pages; the window sends it keys while it is open and draws it each frame."""

    def __init__(self, main: Page, on_close: Callable[[], None]) -> None:
        self.pages = [main]
        self.on_close = on_close

    @property
    def page(self) -> Page:
        """The page shown."""
        return self.pages[-1]

    def open(self, page: Page) -> None:
        """Show ``page`` over the current one."""
        self.pages.append(page)

    def back(self) -> None:
        """Back to the page before, or close the menu from the main page."""
        if len(self.pages) > 1:
            self.pages.pop()
        else:
            self.on_close()

    def key(self, event: pygame.event.Event) -> None:
        """A key pressed while the menu is open."""
        self.page.key(self, event)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the page in a box over ``surface``."""
        width, height = surface.get_size()
        size = max(12, min(height // 22, width // 30))
        font = pygame.font.Font(None, size + 4)
        small = pygame.font.Font(None, size)
        page = self.page
        lines = page.lines()
        row = size + 4
        box = pygame.Rect(0, 0, int(width * 0.86), row * (len(lines) + 4))
        box.center = (width // 2, height // 2)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill(BACKGROUND)
        surface.blit(shade, box)
        pygame.draw.rect(surface, FRAME_COLOUR, box, 1)
        x, y = box.left + size, box.top + size // 2
        surface.blit(font.render(page.title, True, TITLE_COLOUR), (x, y))
        y += row + size // 2
        for text, selected in lines:
            if selected:
                pygame.draw.rect(surface, SELECTED_BACKGROUND,
                                 pygame.Rect(box.left + 4, y - 2, box.width - 8, row))
            surface.blit(font.render(text, True, TEXT_COLOUR), (x, y))
            y += row
        surface.blit(small.render(page.hint, True, DIM_COLOUR), (x, box.bottom - row))


class MenuActions(Protocol):
    """What the main page shows and does: the window's settings and actions."""

    machine: Spectrum48
    snapshot_dir: Path
    menu: Menu | None
    paused: bool
    speed: int
    sound: bool
    joystick_mode: str
    cursor_joystick: bool
    show_status: bool
    net: NetLink | None
    eventlog: EventLog
    rzx: WindowRzx
    recorder: object | None

    def close_menu(self) -> None: ...
    def open_file(self, path: str | os.PathLike[str]) -> None: ...
    def toggle_tape(self) -> None: ...
    def rewind_tape(self) -> None: ...
    def save_snapshot_as(self, name: str) -> str | None: ...
    def load_snapshot(self, path: str | os.PathLike[str] | None = None) -> bool: ...
    def reset(self) -> None: ...
    def toggle_pause(self) -> None: ...
    def set_speed(self, speed: int) -> None: ...
    def set_sound(self, on: bool) -> None: ...
    def set_joystick(self, mode: str) -> None: ...
    def toggle_cursor_joystick(self) -> None: ...
    def toggle_status(self) -> None: ...
    def save_screenshot_file(self) -> Path | None: ...
    def record(self) -> None: ...
    def record_rzx(self) -> None: ...
    def host_network(self, options: NetOptions | None = None) -> str | None: ...
    def join_network(self, options: NetOptions) -> str | None: ...
    def leave_network(self) -> None: ...
    def quit(self) -> None: ...


def _cycle(values: tuple, now: object, step: int) -> Any:
    """The value ``step`` places on from ``now`` in ``values``, round the end."""
    return values[(values.index(now) + step) % len(values)]


def main_page(w: MenuActions) -> Page:
    """The menu's items (docs/window.md, "The menu")."""
    deck = w.machine.deck

    def tape_label() -> str:
        if deck.name is None:
            return "Tape: (none; Open puts one in)"
        block, blocks = deck.block_counter()
        return (f"Tape: {'stop' if deck.playing else 'play'}   {Path(deck.name).name} "
                f"block {block}/{blocks}")

    def then_close(action: Callable[[], Any]) -> Callable[[], None]:
        def run() -> None:
            w.close_menu()
            action()
        return run

    items = [
        Item(lambda: "Open a tape, snapshot or recording...", lambda: w.menu and w.menu.open(
            FilePage("Open a tape, snapshot or recording", w.snapshot_dir, OPEN_SUFFIXES,
                     lambda path: then_close(lambda: w.open_file(path))()))),
        Item(tape_label, w.toggle_tape),
        Item(lambda: "Tape: rewind", w.rewind_tape),
        Item(lambda: "Save snapshot as...", lambda: w.menu and w.menu.open(
            NamePage(f"Save a snapshot in {w.snapshot_dir.resolve()} as",
                     new_snapshot_path(w.snapshot_dir).stem, w.save_snapshot_as))),
        Item(lambda: "Load snapshot...", lambda: w.menu and w.menu.open(
            FilePage("Load a snapshot", w.snapshot_dir, SNAPSHOT_SUFFIXES,
                     lambda path: then_close(lambda: w.load_snapshot(path))()))),
        Item(lambda: "Reset", then_close(w.reset)),
        Item(lambda: f"Pause: {'on' if w.paused else 'off'}", w.toggle_pause),
        Item(lambda: f"Speed: {SPEED_NAMES[w.speed]}", None,
             lambda step: w.set_speed(_cycle(SPEEDS, w.speed, step))),
        Item(lambda: f"Sound: {'on' if w.sound else 'off'}", lambda: w.set_sound(not w.sound)),
        Item(lambda: f"Joystick: {joysticks.MODE_NAMES[w.joystick_mode]}", None,
             lambda step: w.set_joystick(_cycle(joysticks.MODES, w.joystick_mode, step))),
        Item(lambda: "PC cursor keys as the joystick (right Ctrl fires): "
             f"{'on' if w.cursor_joystick else 'off'}", w.toggle_cursor_joystick),
        Item(lambda: f"Status line: {'on' if w.show_status else 'off'}", w.toggle_status),
        Item(lambda: "Screenshot", then_close(w.save_screenshot_file)),
        Item(lambda: f"Record of the game (F8): {'shown' if w.eventlog.shown else 'hidden'}",
             then_close(w.eventlog.toggle)),
        Item(lambda: f"Record keys (F9): {'stop' if w.recorder else 'start'}",
             then_close(w.record)),
        Item(w.rzx.menu_label, then_close(w.record_rzx)),
        *_network_items(w, then_close),
        Item(lambda: "Quit", w.quit),
    ]
    return Page("zxmonopoly", items)


def _network_items(w: MenuActions,
                   then_close: Callable[[Callable[[], Any]], Callable[[], None]]) -> list[Item]:
    """Host (this machine only, the local network, online in a lobby) or Join (an address
    and its code, or a room code); in a game, what it is and Leave (docs/network.md)."""
    from zxmonopoly.net.link import lan_address, net_options
    from zxmonopoly.net.protocol import DEFAULT_PORT

    def host(bind: str) -> Callable[[], None]:
        def go() -> None:
            if w.host_network(net_options(host=True, bind=bind)) is None:
                w.close_menu()
        return go

    if w.net is not None:
        return [Item(lambda: f"Network: {w.net.status() if w.net else 'left'}", None),
                Item(lambda: "Leave the network game"
                     + (" (it ends for everyone)" if w.net and w.net.hosting else ""),
                     then_close(w.leave_network))]
    lan = lan_address()
    return [Item(lambda: f"Host: this machine only (127.0.0.1, port {DEFAULT_PORT})",
                 host("127.0.0.1")),
            Item(lambda: f"Host: my local network (the others join {lan}:{DEFAULT_PORT})",
                 host("0.0.0.0")),
            Item(lambda: "Host: online, in a lobby (a room code for the others)",
                 lambda: w.menu and host_online(w, w.menu)),
            Item(lambda: "Join a network game (an address, or a room code)...",
                 lambda: w.menu and join_pages(w, w.menu))]


def with_lobby(w: MenuActions, menu: Menu, then: Callable[[str], str | None]) -> str | None:
    """``then(url)`` with the lobby's URL from $ZXMONOPOLY_LOBBY or the config file, or a
    page that asks for it when neither says."""
    from zxmonopoly.net.lobbylink import lobby_url
    from zxmonopoly.net.lobbywire import LobbyError

    try:
        url = lobby_url()
    except LobbyError:
        def typed(text: str) -> str | None:
            try:
                return then(lobby_url(text))
            except LobbyError as exc:
                return str(exc)

        menu.open(NamePage("The lobby's URL (wss://HOST[:PORT]; or set ZXMONOPOLY_LOBBY)",
                           "wss://", typed, characters=URL_CHARACTERS, length=80,
                           hint=TEXT_HINT))
        return None
    return then(url)


def host_online(w: MenuActions, menu: Menu) -> None:
    """"Host: online": a room in the lobby; its code goes in the title bar and the band."""
    from zxmonopoly.net.link import net_options

    def host(url: str) -> str | None:
        problem = w.host_network(net_options(host=True, online=True, lobby=url))
        if problem is None:
            w.close_menu()
        return problem

    problem = with_lobby(w, menu, host)
    if problem is not None:
        w.note(problem)


def join_pages(w: MenuActions, menu: Menu) -> None:
    """"Join a network game...": the host's address typed, then its join code; the window
    joins (or the page shows why not)."""
    from zxmonopoly.net.link import JOIN, NetOptions
    from zxmonopoly.net.peer import parse_address
    from zxmonopoly.net.protocol import DEFAULT_PORT, JoinCodeError, normal_code

    def with_address(address: str) -> str | None:
        from zxmonopoly.net.lobbywire import is_room_code, split_room_code

        if is_room_code(address):  # online: through the lobby
            room, join_code = split_room_code(address)

            def join(url: str) -> str | None:
                problem = w.join_network(NetOptions(JOIN, "", 0, join_code, lobby=url,
                                                    room=room))
                if problem is None:
                    w.close_menu()
                return problem

            return with_lobby(w, menu, join)
        try:
            host, port = parse_address(address)
        except ValueError as exc:
            return str(exc)

        def with_code(code: str) -> str | None:
            try:
                options = NetOptions(JOIN, host, port, normal_code(code))
            except JoinCodeError as exc:
                return str(exc)
            problem = w.join_network(options)
            if problem is None:
                w.close_menu()
            return problem

        menu.open(NamePage(f"Join {host}:{port}: the join code the host's window shows", "",
                           with_code, characters=CODE_CHARACTERS, length=20, hint=TEXT_HINT))
        return None

    menu.open(NamePage("Join: the host's address (HOST or HOST:PORT), or a room code",
                       f"127.0.0.1:{DEFAULT_PORT}", with_address,
                       characters=ADDRESS_CHARACTERS, length=60, hint=TEXT_HINT))
