"""Headless Chromium for the page's tests (issue 47), driven by Selenium with Debian's
chromium and chromedriver (``.ci/run`` installs them): nothing is downloaded, and a machine
without them skips the tests with the reason."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from zxmonopoly.bench_browser import NoChromium, chromium_paths, launch_chromium
from zxmonopoly.spectrum import video

#: A phone's window: an iPhone 12's or 13's viewport, touch.
PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True},
         "userAgent": "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 "
                      "(KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"}


def binaries() -> tuple[str, str]:
    """The paths of chromium and chromedriver, or the test is skipped saying which is missing."""
    try:
        return chromium_paths()
    except NoChromium as missing:
        pytest.skip(f"{missing}; .ci/run installs them")


def browser(*, phone: bool = False, size: tuple[int, int] = (1024, 900)) -> Any:
    """A new headless Chromium (the benchmark's: a profile of its own, its flags), a phone's
    window if ``phone``."""
    binaries()
    return launch_chromium(mobile=PHONE if phone else None, size=size)


def wait(condition: Callable[[], Any], what: str, seconds: float = 60.0) -> Any:
    """Poll ``condition`` until it gives something true (its value); fail after ``seconds``
    (a hang, not a speed)."""
    end = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < end, f"{what}: not so after {seconds:g} s"
        time.sleep(0.05)


def page(driver: Any, expression: str) -> Any:
    """A JavaScript expression's value in the page (``zx.state``, ...)."""
    return driver.execute_script(f"return {expression};")


def canvas(driver: Any) -> tuple[int | None, np.ndarray]:
    """The frame the page says it drew and its canvas read back (RGB, 256 x 320), at once."""
    frame, url = driver.execute_script(
        "return [zx.drawn, document.getElementById('screen').toDataURL('image/png')];")
    return frame, video.decode_png(base64.b64decode(url.split(",", 1)[1]))


def console(driver: Any) -> list[str]:
    """What the page wrote to its console (errors among it)."""
    return [entry["message"] for entry in driver.get_log("browser")]
