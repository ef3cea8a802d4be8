"""The window's menu (Esc): pages of items drawn over the screen, driven by the keyboard.

Up/Down choose, Enter does, Left/Right change a setting, Esc goes back (or closes). A page is
a list of items, a file list, or a name being typed. The actions are the window's; this
module only draws and routes keys. docs/window.md lists the items.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

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
    """A name being typed; Enter hands it to ``done`` (which may refuse it with a message)."""

    def __init__(self, title: str, name: str, done: Callable[[str], str | None]) -> None:
        super().__init__(title, [], "type a name   Enter save   Backspace delete   Esc back")
        self.name = name
        self.done = done
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
            if char in NAME_CHARACTERS and len(self.name) < NAME_LENGTH:
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
