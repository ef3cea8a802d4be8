"""A frame's picture and sound as a browser's page gets them (docs/network.md, "A browser's
seat"): the host's machine, not a copy of it, is what a page shows.

A frame's **picture** is the bytes the window draws from (``Spectrum48.screen_rgb``): the
display file and attributes (6,912 bytes, in memory order), the border colour of each of the
256 visible lines (stripes as the beam met them), and FLASH's phase: :data:`PICTURE_SIZE`
bytes. Its **sound** is the speaker's changes in the frame: the T-state of each write to port
0xFE that changed the EAR or MIC bit, and the bits after it, 3 bytes each.

A SCREEN message carries a frame against a **base** frame the page has: the two pictures'
bytes XORed (an unchanged byte is a zero; a board game changes few) and the sound, compressed
together with zlib (a browser inflates it with its own ``DecompressionStream``). The base is
the last frame sent on the page's connection: the stream is ordered and sealed, so a page
that has this message has that one (a message lost fails the seal and the connection); a new
connection starts from a picture of zeros (``base`` NO_FRAME). The same delta serves every
page whose base is the same frame, so it is made once a frame however many pages watch.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import numpy as np

from zxmonopoly.memory_map import ATTR_END, DISPLAY_FILE, SCREEN_SIZE
from zxmonopoly.spectrum import Spectrum48, video

from . import protocol as p
from .errors import NetError

#: The picture: display file and attributes, the border's 256 lines, FLASH's phase.
BORDER_AT = SCREEN_SIZE
FLASH_AT = SCREEN_SIZE + video.SCREEN_HEIGHT
PICTURE_SIZE = FLASH_AT + 1
#: A speaker change: 3 bytes, big-endian, the T-state (17 bits) then EAR and MIC.
EDGE_SIZE = 3
#: Speaker changes a frame carries at most (the rest of a frame's are dropped: a tone of
#: 100 kHz would need 4,000).
MAX_EDGES = 4096
#: zlib's level: 6 takes 40 µs a picture here, 9 no fewer bytes on these XORed ones.
LEVEL = 6
#: The speaker's bits on port 0xFE.
EAR_BIT, MIC_BIT = 0x10, 0x08
ZERO_PICTURE = bytes(PICTURE_SIZE)


class ScreenError(NetError):
    """A SCREEN message that cannot be applied (its base is not the page's, its data bad)."""


def picture(machine: Spectrum48) -> bytes:
    """The last whole frame's picture: what ``screen_rgb`` draws, as bytes."""
    mem = machine.memory
    flash = video.flash_swapped(machine.frame)
    return (bytes(mem[DISPLAY_FILE:DISPLAY_FILE + SCREEN_SIZE])
            + machine.border_lines().astype(np.uint8).tobytes() + bytes((flash,)))


def render(picture_bytes: bytes) -> np.ndarray:
    """A picture as the window draws it (video.render): RGB, 256 × 320 × 3."""
    if len(picture_bytes) != PICTURE_SIZE:
        raise ScreenError(f"a picture is {PICTURE_SIZE:,} bytes, not {len(picture_bytes):,}")
    memory = np.zeros(ATTR_END, dtype=np.uint8)
    memory[DISPLAY_FILE:DISPLAY_FILE + SCREEN_SIZE] = np.frombuffer(picture_bytes[:SCREEN_SIZE],
                                                                    dtype=np.uint8)
    border = np.frombuffer(picture_bytes[BORDER_AT:FLASH_AT], dtype=np.uint8) & 7
    return video.render(memory, border, bool(picture_bytes[FLASH_AT] & 1))


def level(value: int) -> int:
    """A byte written to port 0xFE as the speaker's two bits: EAR (2) and MIC (1)."""
    return (2 if value & EAR_BIT else 0) | (1 if value & MIC_BIT else 0)


@dataclass(frozen=True)
class Frame:
    """One frame as the pages get it: its number (the network's: the frame after it is
    the next to emulate), its picture, its speaker changes and the speaker's bits before."""

    number: int
    picture: bytes
    edges: bytes
    start: int  # the speaker's bits (EAR 2, MIC 1) as the frame began


class Sound:
    """The speaker's changes frame after frame: only writes that change EAR or MIC count."""

    def __init__(self) -> None:
        self.level = 0

    def frame(self, machine: Spectrum48) -> tuple[bytes, int]:
        """The last whole frame's changes (packed) and the bits it began with."""
        start = self.level
        now = start
        out = bytearray()
        for t, value in machine.last_frame_events:
            bits = level(value)
            if bits != now and len(out) < MAX_EDGES * EDGE_SIZE:
                out += ((t << 2) | bits).to_bytes(EDGE_SIZE, "big")
            now = bits
        self.level = now
        return bytes(out), start


def capture(machine: Spectrum48, number: int, sound: Sound) -> Frame:
    """The frame ``machine`` has just run, numbered ``number``."""
    edges, start = sound.frame(machine)
    return Frame(number, picture(machine), edges, start)


def encode(frame: Frame, base: int, base_picture: bytes) -> p.Screen:
    """The SCREEN message of ``frame`` for a page that has ``base`` (NO_FRAME: nothing yet,
    ``base_picture`` zeros)."""
    flags = ((p.SCREEN_EAR if frame.start & 2 else 0) | (p.SCREEN_MIC if frame.start & 1 else 0))
    if frame.picture == base_picture:
        body = frame.edges
    else:
        flags |= p.SCREEN_PICTURE
        delta = np.bitwise_xor(np.frombuffer(frame.picture, dtype=np.uint8),
                               np.frombuffer(base_picture, dtype=np.uint8))
        body = delta.tobytes() + frame.edges
    return p.Screen(frame.number, base, flags, zlib.compress(body, LEVEL) if body else b"")


class Decoder:
    """A page's side in Python (tests, the benchmark's pages): the picture and sound of each
    SCREEN in turn."""

    def __init__(self) -> None:
        self.frame = p.NO_FRAME
        self.picture = ZERO_PICTURE
        #: The last frame's speaker changes: (T-state, bits) each, and its bits before them.
        self.edges: list[tuple[int, int]] = []
        self.start = 0

    def apply(self, message: p.Screen) -> None:
        """Take a SCREEN message (ScreenError when it is not against this page's picture)."""
        base = ZERO_PICTURE if message.base == p.NO_FRAME else self.picture
        if message.base != p.NO_FRAME and message.base != self.frame:
            raise ScreenError(f"SCREEN of frame {message.frame} against frame {message.base}; "
                              f"this page has frame {self.frame}")
        body = b""
        if message.data:
            inflate = zlib.decompressobj()
            limit = PICTURE_SIZE + MAX_EDGES * EDGE_SIZE
            try:
                body = inflate.decompress(message.data, limit + 1)
            except zlib.error as exc:
                raise ScreenError(f"SCREEN of frame {message.frame}: {exc}") from None
            if len(body) > limit or not inflate.eof:
                raise ScreenError(f"SCREEN of frame {message.frame}: more than {limit:,} bytes")
        changed = bool(message.flags & p.SCREEN_PICTURE)
        sound = body[PICTURE_SIZE:] if changed else body
        if changed and len(body) < PICTURE_SIZE or len(sound) % EDGE_SIZE:
            raise ScreenError(f"SCREEN of frame {message.frame}: {len(body):,} bytes")
        if changed:
            delta = np.frombuffer(body[:PICTURE_SIZE], dtype=np.uint8)
            base = np.bitwise_xor(np.frombuffer(base, dtype=np.uint8), delta).tobytes()
        self.picture = base
        self.frame = message.frame
        self.start = (2 if message.flags & p.SCREEN_EAR else 0) | (
            1 if message.flags & p.SCREEN_MIC else 0)
        self.edges = [(v >> 2, v & 3) for (v,) in struct.iter_unpack(">I", b"".join(
            b"\0" + sound[k:k + EDGE_SIZE] for k in range(0, len(sound), EDGE_SIZE)))]

    def rgb(self) -> np.ndarray:
        """The page's picture as the window would draw it."""
        return render(self.picture)
