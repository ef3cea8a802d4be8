"""Headless Chromium for the page's tests (issue 47), driven by Selenium with Debian's
chromium and chromedriver (``.ci/run`` installs them): nothing is downloaded, and a machine
without them skips the tests with the reason."""

from __future__ import annotations

import base64
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from zxmonopoly.spectrum import video

#: Flags that keep Chromium to itself: no sandbox (root in CI), no GPU, and none of its own
#: connections (without them it opens many, and the sandbox's firewall refuses them).
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio",
         "--autoplay-policy=no-user-gesture-required")
#: A phone's window: an iPhone 12's or 13's viewport, touch.
PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True},
         "userAgent": "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 "
                      "(KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"}


def binaries() -> tuple[str, str]:
    """The paths of chromium and chromedriver, or the test is skipped saying which is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        pytest.skip("selenium is not installed (pip install '.[test]')")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.skip("no chromium or chromedriver (Debian: apt-get install chromium "
                    "chromium-driver; .ci/run does)")
    return chromium, driver


def browser(*, phone: bool = False, size: tuple[int, int] = (1024, 900)) -> Any:
    """A new headless Chromium (a profile of its own), a phone's window if ``phone``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = binaries()
    os.environ["SE_OFFLINE"] = "true"  # selenium-manager must not fetch anything
    os.environ["SE_AVOID_BROWSER_DOWNLOAD"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='zxmonopoly-chromium-')}")
    if phone:
        options.add_experimental_option("mobileEmulation", PHONE)
    else:
        options.add_argument(f"--window-size={size[0]},{size[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


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
