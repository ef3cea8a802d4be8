"""Fuse (fuse-emulator-sdl) driven by tests: recording and playing RZX files under Xvfb.

Each call starts its own X server (Xvfb, on a free display number) and Fuse on it, with a home
of its own (Fuse writes its settings there), drives it with xdotool and reads its window's
picture straight from the X server (libX11's XGetImage, through ctypes): Fuse-SDL refuses an
Xvfb that keeps its screen in a file. ``missing()`` says what is not installed, for a skip.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

OPENSE_ROM = Path("/usr/share/spectrum-roms/opense.rom")
#: Fuse's window at its default size: the 256×192 display inside a 32-pixel border left and
#: right and a 24-line one above and below.
WINDOW = (320, 240)
DISPLAY_AT = (32, 24)


def missing() -> str | None:
    """What the Fuse tests need and this machine lacks (packages named), or None."""
    for tool, package in (("fuse-sdl", "fuse-emulator-sdl"), ("Xvfb", "xvfb"),
                          ("xdotool", "xdotool")):
        if shutil.which(tool) is None:
            return f"{tool} absent: apt-get install {package}"
    if ctypes.util.find_library("X11") is None:
        return "libX11 absent: apt-get install libx11-6"
    return None


class _XImage(ctypes.Structure):
    """The leading fields of Xlib's XImage, as far as the pixels."""

    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.POINTER(ctypes.c_ubyte)),
                ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
                ("bits_per_pixel", ctypes.c_int)]


def grab(display: str, width: int, height: int) -> np.ndarray:
    """The top-left ``width``×``height`` pixels of an X display's root window, as RGB."""
    x11 = ctypes.CDLL(ctypes.util.find_library("X11"))
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XGetImage.restype = ctypes.POINTER(_XImage)
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                              ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x11.XDestroyImage = None  # a macro in Xlib: the image's own destroy function is not needed
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    handle = x11.XOpenDisplay(display.encode())
    if not handle:
        raise RuntimeError(f"cannot open X display {display}")
    try:
        z_pixmap, all_planes = 2, 0xFFFFFFFF
        image = x11.XGetImage(handle, x11.XDefaultRootWindow(handle), 0, 0, width, height,
                              all_planes, z_pixmap).contents
        if image.bits_per_pixel != 32:
            raise RuntimeError(f"X display {display}: {image.bits_per_pixel} bits a pixel, "
                               "expected 32")
        raw = np.ctypeslib.as_array(image.data, shape=(height * image.bytes_per_line,)).copy()
    finally:
        x11.XCloseDisplay(handle)
    pixels = raw.reshape(height, image.bytes_per_line)[:, :width * 4].reshape(height, width, 4)
    return pixels[:, :, 2::-1].copy()  # B, G, R, pad in memory (little-endian 0x00RRGGBB)


def spectrum_colours(rgb: np.ndarray) -> np.ndarray:
    """Each pixel as a Spectrum colour number 0–7 (G·4 + R·2 + B), brightness set aside: Fuse
    and we light the channels differently, but never by less than half."""
    on = rgb >= 0x60
    return (on[..., 1].astype(np.uint8) << 2) | (on[..., 0].astype(np.uint8) << 1) | on[..., 2]


@dataclass
class Fuse:
    """A running Fuse: its X display, process and window."""

    display: str
    process: subprocess.Popen[bytes]
    window: str

    def keys(self, names: Sequence[str], delay_ms: int = 120) -> None:
        """Press and release X key names (xdotool's: ``a``, ``Return``, ``shift+p``) in turn."""
        for name in names:
            subprocess.run(["xdotool", "key", "--window", self.window, "--delay",
                            str(delay_ms), name], env=self._env(), check=True, timeout=30,
                           capture_output=True)

    def type(self, names: Sequence[str], hold: float = 0.15, gap: float = 0.15) -> None:
        """Type X key names one by one, each held ``hold`` seconds (Fuse reads keys a frame
        at a time: a press and release within one frame would be lost)."""
        for name in names:
            self.hold(name, hold)
            time.sleep(gap)  # real time: Fuse runs at its own speed; a key's gap is its frames

    def hold(self, name: str, seconds: float) -> None:
        """Hold one X key down for ``seconds``."""
        for action in ("keydown", "keyup"):
            subprocess.run(["xdotool", action, "--window", self.window, name], env=self._env(),
                           check=True, timeout=30, capture_output=True)
            if action == "keydown":
                time.sleep(seconds)  # real time: held over Fuse's frames, as a person holds it

    def quit(self, timeout: float = 30.0) -> None:
        """Exit Fuse as a user does (F10), which closes a recording with its state, and wait."""
        subprocess.run(["xdotool", "key", "--window", self.window, "F10"], env=self._env(),
                       timeout=30, capture_output=True)  # fails once the window is gone
        self.process.wait(timeout)

    def picture(self) -> np.ndarray:
        """The Spectrum's display (192×256) in Fuse's window, as colour numbers 0–7."""
        rgb = grab(self.display, *WINDOW)
        x, y = DISPLAY_AT
        return spectrum_colours(rgb[y:y + 192, x:x + 256])

    def alive(self) -> bool:
        """Whether Fuse is still running."""
        return self.process.poll() is None

    def _env(self) -> dict[str, str]:
        return {**os.environ, "DISPLAY": self.display}


def _free_display() -> str:
    """An X display number nobody uses (no lock file)."""
    for number in range(70 + os.getpid() % 50, 400):
        if not Path(f"/tmp/.X{number}-lock").exists() and \
                not Path(f"/tmp/.X11-unix/X{number}").exists():
            return f":{number}"
    raise RuntimeError("no free X display number")


@contextmanager
def fuse(args: Sequence[str], rom: Path, timeout: float = 90.0) -> Iterator[Fuse]:
    """Start Xvfb and ``fuse-sdl`` (48K, no sound, ``rom``, then ``args``) and stop both after.

    Fuse's other settings are its defaults: a recording gets an autosave (a snapshot block)
    every 5 s, which a replay is compared with as it passes.
    """
    display = _free_display()
    home = Path(tempfile.mkdtemp(prefix="zxm-fuse-"))
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "640x480x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    process: subprocess.Popen[bytes] | None = None
    try:
        # Not the test process's SDL settings: a pygame test in the same worker sets
        # SDL_VIDEODRIVER=dummy, under which Fuse runs without a window for xdotool to find.
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("SDL_")},
               "DISPLAY": display, "HOME": str(home), "SDL_AUDIODRIVER": "dummy",
               "SDL_VIDEODRIVER": "x11"}
        deadline = time.monotonic() + timeout
        while not Path(f"/tmp/.X11-unix/X{display[1:]}").exists():
            if time.monotonic() > deadline or xvfb.poll() is not None:
                raise RuntimeError(f"Xvfb did not start on {display}")
            time.sleep(0.1)
        process = subprocess.Popen(
            ["fuse-sdl", "--machine", "48", "--no-sound", "--no-confirm-actions",
             "--rom-48", str(rom), *args],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # A loaded machine can take long to map Fuse's window: --sync waits for it, and a Fuse
        # that has already quit is told apart (its own words) from one that is only slow.
        try:
            found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name",
                                    "Fuse"], env=env, capture_output=True, text=True,
                                   timeout=timeout)
        except subprocess.TimeoutExpired:
            said = ""
            if process.poll() is not None and process.stderr is not None:
                said = process.stderr.read().decode(errors="replace").strip()
            raise RuntimeError(f"no Fuse window on {display} in {timeout:.0f} s"
                               + (f"; Fuse quit: {said}" if said else "")) from None
        if not found.stdout.split():
            raise RuntimeError(f"no Fuse window on {display}")
        yield Fuse(display, process, found.stdout.split()[0])
    finally:
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        xvfb.terminate()
        xvfb.wait(10)
        shutil.rmtree(home, ignore_errors=True)
