"""Whether the window can be seen: checked before anything slow starts."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator

NO_DISPLAY = "no display: set DISPLAY or use `zxmonopoly run` headless"
#: SDL's video drivers that show nothing: used only when asked for by SDL_VIDEODRIVER (tests,
#: automation), never as the fallback SDL picks when there is no display.
INVISIBLE_DRIVERS = ("offscreen", "dummy")


class WindowError(Exception):
    """The window cannot be opened (no display) or a file given to it cannot be used."""


def check_environment() -> None:
    """Raise WindowError(NO_DISPLAY) when a Unix desktop has neither X11 nor Wayland to show on.

    SDL would silently fall back to its offscreen driver there and the window would run
    invisibly. SDL_VIDEODRIVER set says how to show (or, for ``dummy``, not to): it is obeyed.
    """
    asked = os.environ.get("SDL_VIDEODRIVER", "").strip()
    unix_desktop = sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd"))
    if (unix_desktop and not asked and not os.environ.get("DISPLAY")
            and not os.environ.get("WAYLAND_DISPLAY")):
        raise WindowError(NO_DISPLAY)


def check_display() -> None:
    """Start SDL's video; raise WindowError(NO_DISPLAY) unless a window can be seen.

    After :func:`check_environment`, the driver SDL chose is checked too: ``offscreen`` or
    ``dummy`` when SDL_VIDEODRIVER did not ask for it means DISPLAY named no usable server.
    """
    import pygame

    check_environment()
    with _stderr_held() as said:
        try:
            pygame.display.init()
            driver = (pygame.display.get_driver() or "").lower()
        except pygame.error:
            driver = ""
    asked = os.environ.get("SDL_VIDEODRIVER", "").strip().lower().split(",")
    if not driver or (driver in INVISIBLE_DRIVERS and driver not in asked):
        pygame.display.quit()
        raise WindowError(NO_DISPLAY)  # SDL's own complaints dropped: the one line says it
    if said:
        sys.stderr.write(said.decode(errors="replace"))  # a window opened: nothing is hidden


@contextlib.contextmanager
def _stderr_held() -> Iterator[bytearray]:
    """Hold what C code (SDL) writes on file descriptor 2 meanwhile; give it afterwards."""
    said = bytearray()
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real stderr (embedded): nothing to hold
        yield said
        return
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield said
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            held.seek(0)
            said.extend(held.read())
