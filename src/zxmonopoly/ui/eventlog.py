"""The window's record of the game (issue 28): the game's events read at every frame's end,
shown on request in a panel that scrolls over the lower part of the picture (F8, or the
menu's "Record of the game"), and written to a file as they come (``play --log FILE``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TextIO

#: Lines of the panel (it covers the lower part of the picture, which runs on above it).
PANEL_LINES = 12
PANEL_BACKGROUND = (0, 0, 0, 200)
PANEL_TEXT = (230, 230, 230)
PANEL_TITLE = (255, 220, 90)


class EventLog:
    """The record of one machine's game: Events in words, oldest first, and where they go."""

    def __init__(self, machine: Any, log_path: str | os.PathLike[str] | None = None,
                 symbols_of: Any = None) -> None:
        self.machine = machine
        self.symbols_of = symbols_of  # () -> the program's symbol map path (or None)
        self.events: list = []  # zxmonopoly.harness.events.Event
        self.shown = False
        self.scroll = 0  # lines up from the newest
        self._symbols_path: Path | None = None
        self._drain: Any = None
        self._file: TextIO | None = None
        if log_path is not None:
            self._file = open(log_path, "w", encoding="utf-8")  # noqa: SIM115 - kept open
        machine.frame_listeners.append(self.frame)

    def use_symbols(self, path: str | os.PathLike[str] | None) -> None:
        """The running program's symbol map (the game's): where the ring is."""
        from zxmonopoly.harness import events
        from zxmonopoly.harness.session import Symbols

        self._drain = None
        self._symbols_path = Path(path) if path is not None else None
        if self._symbols_path is None or not self._symbols_path.is_file():
            return
        symbols = Symbols.load(self._symbols_path)
        if events.has_record(symbols):
            self._drain = events.EventDrain(symbols)

    def frame(self, machine: Any) -> None:
        """At a frame's end: take what the game declared, and write it to the log."""
        if self.symbols_of is not None:
            path = self.symbols_of()
            if (Path(path) if path is not None else None) != self._symbols_path:
                self.use_symbols(path)
        if self._drain is None:
            return
        fresh = self._drain.drain(machine.memory, machine.frame)
        self.events.extend(fresh)
        if self._file is not None and fresh:
            for event in fresh:
                self._file.write(f"{event.frame:8d}  {event.text}\n")
            self._file.flush()

    def lines(self) -> list[str]:
        """The record as the panel shows it, one event a line."""
        return [event.text for event in self.events]

    def toggle(self) -> None:
        """F8: the panel on or off (it opens on the newest events)."""
        self.shown = not self.shown
        self.scroll = 0

    def scroll_by(self, lines: int) -> None:
        """Scroll the panel: positive goes back in the game."""
        top = max(0, len(self.events) - PANEL_LINES)
        self.scroll = min(top, max(0, self.scroll + lines))

    def draw(self, screen: Any) -> None:
        """The panel over the lower part of the window, the newest events at its foot."""
        import pygame

        width, height = screen.get_size()
        font = pygame.font.Font(None, max(12, height // 30))
        step = font.get_linesize()
        panel = pygame.Surface((width, step * (PANEL_LINES + 1) + 8), pygame.SRCALPHA)
        panel.fill(PANEL_BACKGROUND)
        end = len(self.events) - self.scroll
        shown = self.lines()[max(0, end - PANEL_LINES):end]
        title = (f"Record of the game: {len(self.events)} events "
                 f"(F8 closes; PgUp/PgDn, Home/End scroll)")
        panel.blit(font.render(title, True, PANEL_TITLE), (6, 4))
        for i, line in enumerate(shown):
            panel.blit(font.render(line, True, PANEL_TEXT), (6, 4 + step * (i + 1)))
        screen.blit(panel, (0, height - panel.get_height()))

    def key(self, key: int) -> bool:
        """A PC key while the panel is open: True if it scrolled the panel."""
        import pygame

        moves = {pygame.K_PAGEUP: PANEL_LINES - 1, pygame.K_PAGEDOWN: -(PANEL_LINES - 1),
                 pygame.K_HOME: len(self.events), pygame.K_END: -len(self.events)}
        if key not in moves:
            return False
        self.scroll_by(moves[key])
        return True

    def close(self) -> None:
        """Close the log file."""
        if self._file is not None:
            self._file.close()
            self._file = None

