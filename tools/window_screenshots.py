"""Take docs/window.md's pictures of the window: the menu, the F1 overlay, paused with the status.

Run it with a display, e.g. ``xvfb-run -a -s "-screen 0 1024x768x24" python
tools/window_screenshots.py`` (it writes docs/window-menu.png, docs/window-help.png and
docs/window-paused.png). The window plays the bundled game to its title on the python engine
and is driven by posted key events, as a user's keys would drive it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from zxmonopoly import images  # noqa: E402
from zxmonopoly.spectrum.timing import OUR_ROM_BOOT_FRAMES  # noqa: E402
from zxmonopoly.ui.window import Window  # noqa: E402

#: Frames until the game's title is complete after a fast load.
TITLE_FRAMES = 300
#: Menu lines to go down to reach "Status line" (menu.main_page's order), then up to "Speed".
TO_STATUS, STATUS_TO_SPEED = 11, 4


def main(out: Path = ROOT / "docs") -> None:
    """Write the three pictures into ``out``."""
    window = Window(engine="python", mute=True, out=lambda text: None)

    def key(code: int, char: str = "") -> None:
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=code, mod=0, unicode=char,
                                                 scancode=0))
        window.step(paced=False)

    try:
        window.insert_tape(images.game_tape_path())
        window.autoload(boot_frames=OUR_ROM_BOOT_FRAMES)
        window.run(max_frames=TITLE_FRAMES, paced=False)
        key(pygame.K_ESCAPE)
        for _ in range(TO_STATUS):
            key(pygame.K_DOWN)
        key(pygame.K_RETURN)  # the status line on
        for _ in range(STATUS_TO_SPEED):
            key(pygame.K_UP)
        window.save_screenshot(out / "window-menu.png")
        key(pygame.K_ESCAPE)
        window.run(max_frames=window.frames_run + 3, paced=False)
        key(pygame.K_F1)
        window.save_screenshot(out / "window-help.png")
        key(pygame.K_F1)
        key(pygame.K_F7)
        window.save_screenshot(out / "window-paused.png")
    finally:
        window.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs")
