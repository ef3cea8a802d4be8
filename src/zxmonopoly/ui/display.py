"""Whether the window can be seen: checked before anything slow starts."""

from __future__ import annotations

import os
import sys

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
    try:
        pygame.display.init()
    except pygame.error:
        raise WindowError(NO_DISPLAY) from None
    driver = (pygame.display.get_driver() or "").lower()
    asked = os.environ.get("SDL_VIDEODRIVER", "").strip().lower().split(",")
    if driver in INVISIBLE_DRIVERS and driver not in asked:
        pygame.display.quit()
        raise WindowError(NO_DISPLAY)
