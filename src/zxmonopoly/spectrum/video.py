"""The picture: palette, frame geometry, rendering RGB frames, decoding screen text, PNG files.

Facts: ``shared/reference/spectrum_facts.md`` §2.1 (memory map), §2.2 (screen addressing),
§2.3 (attributes, palette, FLASH), §2.5 (frame timing). ``docs/spectrum.md`` explains the choices.
"""

from __future__ import annotations

import os
import struct
import zlib
from functools import lru_cache
from typing import Any

import numpy as np

from zxmonopoly.memory_map import ATTR_END, ATTR_FILE, DISPLAY_FILE

from .errors import SpectrumError
from .timing import FIRST_DISPLAY_LINE, LINE_TSTATES

# -- frame geometry (T-states counted from the start of the frame interrupt; the timing is
# timing.py's, the geometry of the picture follows from it) -----------------------------------

PIXELS_PER_TSTATE = 2

DISPLAY_WIDTH, DISPLAY_HEIGHT = 256, 192
#: Border shown on every side of the display, in pixels (and scanlines above and below).
BORDER = 32
SCREEN_WIDTH = DISPLAY_WIDTH + 2 * BORDER  # 320
SCREEN_HEIGHT = DISPLAY_HEIGHT + 2 * BORDER  # 256
#: Frame lines 32..287 are shown: 32 of top border, the 192 display lines, 32 of bottom border.
FIRST_VISIBLE_LINE = FIRST_DISPLAY_LINE - BORDER  # 32
LEFT_BORDER_TSTATES = BORDER // PIXELS_PER_TSTATE  # 16 T before a line's first display pixel
#: The border is also resolved in 8-pixel chunks (4 T each), 40 to a visible line.
CHUNK_PIXELS = 8
CHUNK_TSTATES = CHUNK_PIXELS // PIXELS_PER_TSTATE
CHUNKS_PER_LINE = SCREEN_WIDTH // CHUNK_PIXELS

#: T-state at which the beam reaches the left edge of each of the 256 visible lines (a line
#: is timing's LINE_TSTATES long).
LINE_STARTS = (
    (FIRST_VISIBLE_LINE + np.arange(SCREEN_HEIGHT, dtype=np.int64)) * LINE_TSTATES
    - LEFT_BORDER_TSTATES
)
#: T-state of each 8-pixel chunk of each visible line, shape (256, 40).
CHUNK_TSTATES_GRID = LINE_STARTS[:, None] + CHUNK_TSTATES * np.arange(CHUNKS_PER_LINE)

# -- the ROM's system variables (the screen's addresses are zxmonopoly.memory_map's) ----------

#: System variable CHARS (2 bytes): 256 less than the address of the glyph of character 32.
CHARS = 23606
FLASH_FRAMES = 16  # FLASH shows normal for 16 frames, then swapped for 16

# -- palette ----------------------------------------------------------------------------------

#: Channel levels: Fuse's 0xC0 for normal colours and 0xFF for BRIGHT (facts §2.3).
NORMAL_LEVEL, BRIGHT_LEVEL = 0xC0, 0xFF


def _make_palette() -> np.ndarray:
    """16 RGB rows: index = colour (bit 0 blue, bit 1 red, bit 2 green) + 8 × BRIGHT."""
    palette = np.zeros((16, 3), dtype=np.uint8)
    for index in range(16):
        level = BRIGHT_LEVEL if index & 8 else NORMAL_LEVEL
        palette[index] = (level * ((index >> 1) & 1), level * ((index >> 2) & 1),
                          level * (index & 1))
    return palette


PALETTE = _make_palette()
PALETTE.flags.writeable = False
COLOUR_NAMES = ("black", "blue", "red", "magenta", "green", "cyan", "yellow", "white")


def flash_swapped(frame: int) -> bool:
    """Whether FLASH cells show ink and paper swapped in this frame (16 frames each way)."""
    return bool((frame // FLASH_FRAMES) & 1)


def row_address(y: int) -> int:
    """Address of the first byte of display pixel row ``y`` (0–191)."""
    return DISPLAY_FILE + ((y & 0xC0) << 5) + ((y & 0x07) << 8) + ((y & 0x38) << 2)


# Precomputed index arrays and lookup tables.
_ROWS = np.array([row_address(y) for y in range(DISPLAY_HEIGHT)], dtype=np.intp)
_BITMAP_INDEX = _ROWS[:, None] + np.arange(32)  # (192, 32): address of each display byte
_ATTR_INDEX = ATTR_FILE + 32 * (np.arange(DISPLAY_HEIGHT)[:, None] // 8) + np.arange(32)
#: (24, 32, 8): the addresses of the 8 pixel bytes of each character cell, top to bottom.
_CELL_INDEX = np.ascontiguousarray(_BITMAP_INDEX.reshape(24, 8, 32).transpose(0, 2, 1))


def _make_pixel_table() -> np.ndarray:
    """(attribute, bitmap byte) -> the 8 pixels' RGB, shape (256, 256, 8, 3); FLASH ignored."""
    attr = np.arange(256)
    bright = (attr >> 3) & 8
    ink = (attr & 7) | bright
    paper = ((attr >> 3) & 7) | bright
    bits = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(bool)
    index = np.where(bits[None, :, :], ink[:, None, None], paper[:, None, None])
    return PALETTE[index]


def _make_flash_swap() -> np.ndarray:
    """Each attribute with ink and paper exchanged when its FLASH bit is set."""
    attr = np.arange(256)
    swapped = (attr & 0xC0) | ((attr & 7) << 3) | ((attr >> 3) & 7)
    return np.where(attr & 0x80, swapped, attr).astype(np.uint8)


_PIXEL_RGB = _make_pixel_table()
_FLASH_SWAP = _make_flash_swap()


def _as_uint8(memory: Any) -> np.ndarray:
    """The 64K memory as a uint8 array, without copying."""
    if isinstance(memory, np.ndarray):
        mem = memory
        if mem.dtype != np.uint8:
            raise TypeError(f"memory must be uint8, not {mem.dtype}")
    else:
        mem = np.frombuffer(memory, dtype=np.uint8)
    if mem.ndim != 1 or len(mem) < ATTR_END:
        raise ValueError(f"memory must hold at least {ATTR_END:#06x} bytes, not {len(mem)}")
    return mem


# -- border -----------------------------------------------------------------------------------


def _events(events: Any) -> tuple[np.ndarray, np.ndarray]:
    """(tstates, values) of a log of writes, sorted by time (stable); accepts a list or array."""
    arr = np.asarray(events if events is not None else [], dtype=np.int64)
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] < 2:
        raise ValueError(f"events must be (tstates, value) pairs, not shape {arr.shape}")
    order = np.argsort(arr[:, 0], kind="stable")
    return arr[order, 0], arr[order, 1]


def _colour_at(events: Any, initial_colour: int, times: np.ndarray) -> np.ndarray:
    """The border colour in force at each of ``times`` (a write at T applies from T on)."""
    tstates, values = _events(events)
    table = np.concatenate(([initial_colour & 7], values & 7)).astype(np.uint8)
    return table[np.searchsorted(tstates, times, side="right")]


def border_colours_per_line(events: Any, initial_colour: int) -> np.ndarray:
    """Border colour of each of the 256 visible lines, as the beam reaches the line's left edge.

    ``events`` are ``(tstates, colour)`` border writes within the frame (colour is masked with 7,
    so the bytes written to port 0xFE do as they are); ``initial_colour`` is in force at T = 0.
    """
    return _colour_at(events, initial_colour, LINE_STARTS)


def border_colours_per_chunk(events: Any, initial_colour: int) -> np.ndarray:
    """Border colour of every 8-pixel chunk of the visible frame, shape (256, 40); see per_line."""
    return _colour_at(events, initial_colour, CHUNK_TSTATES_GRID)


# -- rendering --------------------------------------------------------------------------------


def render(memory: Any, border_at: Any = 7, flash_on: bool = False, *,
           out: np.ndarray | None = None) -> np.ndarray:
    """The visible frame as RGB, shape (256, 320, 3) uint8.

    ``memory``: the 64K (bytes, bytearray or uint8 array). ``border_at``: one colour 0–7, or
    colours per visible line (256,) or per 8-pixel chunk (256, 40). ``flash_on``: FLASH cells
    show ink and paper swapped. ``out``: an array to draw into instead of a new one.
    """
    mem = _as_uint8(memory)
    if out is None:
        out = np.empty((SCREEN_HEIGHT, SCREEN_WIDTH, 3), dtype=np.uint8)
    elif out.shape != (SCREEN_HEIGHT, SCREEN_WIDTH, 3) or out.dtype != np.uint8:
        raise ValueError(f"out must be a (256, 320, 3) uint8 array, not {out.shape} {out.dtype}")
    border = np.asarray(border_at)
    if border.ndim == 0:
        out[...] = PALETTE[int(border) & 7]
    elif border.shape == (SCREEN_HEIGHT,):
        out[...] = PALETTE[border & 7][:, None, :]
    elif border.shape == (SCREEN_HEIGHT, CHUNKS_PER_LINE):
        chunks = out.reshape(SCREEN_HEIGHT, CHUNKS_PER_LINE, CHUNK_PIXELS, 3)
        chunks[...] = PALETTE[border & 7][:, :, None, :]
    else:
        raise ValueError(f"border_at must be a colour, (256,) or (256, 40), not {border.shape}")
    attrs = mem[_ATTR_INDEX]
    if flash_on:
        attrs = _FLASH_SWAP[attrs]
    pixels = _PIXEL_RGB[attrs, mem[_BITMAP_INDEX]]  # (192, 32, 8, 3)
    out[BORDER:BORDER + DISPLAY_HEIGHT, BORDER:BORDER + DISPLAY_WIDTH] = pixels.reshape(
        DISPLAY_HEIGHT, DISPLAY_WIDTH, 3)
    return out


# -- screen text ------------------------------------------------------------------------------

#: Characters 32..127 of the Spectrum set as text: ASCII except 0x5E ↑, 0x60 £ and 0x7F ©.
SPECTRUM_CHARACTERS = "".join(
    {0x5E: "↑", 0x60: "£", 0x7F: "©"}.get(code, chr(code)) for code in range(32, 128))
_ALL_BITS = (1 << 64) - 1


@lru_cache(maxsize=8)
def _glyph_table(charset: bytes) -> dict[int, str]:
    """The 8 pixel bytes of each glyph (as a big-endian int) -> its character; inverse after."""
    if len(charset) != 8 * 96:
        raise ValueError(f"charset must be 768 bytes (96 glyphs of 8), not {len(charset)}")
    keys = [int.from_bytes(charset[8 * i:8 * i + 8], "big") for i in range(96)]
    table: dict[int, str] = {0: " "}
    for key, char in zip(keys, SPECTRUM_CHARACTERS, strict=True):
        table.setdefault(key, char)
    table.setdefault(_ALL_BITS, " ")
    for key, char in zip(keys, SPECTRUM_CHARACTERS, strict=True):
        table.setdefault(key ^ _ALL_BITS, char)
    return table


def charset_from_memory(memory: Any) -> bytes:
    """The 96 glyphs (768 bytes) of characters 32..127 at CHARS+256, as the running ROM set it."""
    mem = _as_uint8(memory)
    base = (int(mem[CHARS]) | int(mem[CHARS + 1]) << 8) + 256
    return bytes(mem[(base + np.arange(768)) & 0xFFFF])


def screen_text(memory: Any, charset: bytes | bytearray | np.ndarray,
                unknown: str = "?") -> list[str]:
    """The display as 24 strings of 32 characters, each cell matched against ``charset``.

    ``charset``: 768 bytes, the glyphs of characters 32..127. A cell matches a glyph as drawn or
    inverted (INVERSE); a cell with no pixel set (or all set) is a space; any other is ``unknown``.
    Attributes are not looked at: ink-on-same-colour-paper text still reads.
    """
    mem = _as_uint8(memory)
    table = _glyph_table(bytes(charset))
    keys = mem[_CELL_INDEX].view(">u8").reshape(24, 32).tolist()
    get = table.get
    return ["".join([get(key, unknown) for key in row]) for row in keys]


# -- PNG --------------------------------------------------------------------------------------

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PngError(SpectrumError, ValueError):
    """A PNG file this module cannot read; the message names the file (a ValueError too: bad
    bytes are a bad value)."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(rgb: np.ndarray) -> bytes:
    """An 8-bit RGB PNG of an (height, width, 3) uint8 array (no filtering; zlib level 9)."""
    rgb = np.asarray(rgb)
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise ValueError(f"expected an (h, w, 3) uint8 array, not {rgb.shape} {rgb.dtype}")
    height, width = rgb.shape[:2]
    raw = np.zeros((height, 1 + 3 * width), dtype=np.uint8)  # filter byte 0 on every row
    raw[:, 1:] = rgb.reshape(height, 3 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (PNG_SIGNATURE + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw.tobytes(), 9)) + _chunk(b"IEND", b""))


def write_png(path: str | os.PathLike[str], rgb: np.ndarray) -> None:
    """Write an (height, width, 3) uint8 array as an 8-bit RGB PNG file."""
    try:
        with open(path, "wb") as f:
            f.write(png_bytes(rgb))
    except OSError as exc:
        if exc.filename is None:  # a failed write (a full disk) names no file by itself
            exc.filename = os.fspath(path)
        raise


def _unfilter(raw: np.ndarray, height: int, stride: int, bpp: int, name: str) -> np.ndarray:
    """Undo the per-row PNG filters (0 none, 1 sub, 2 up, 3 average, 4 Paeth)."""
    rows = raw.reshape(height, 1 + stride)
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.uint8)
    for y in range(height):
        kind, line = int(rows[y, 0]), rows[y, 1:]
        if kind == 0:
            cur = line.copy()
        elif kind == 1:
            cur = np.cumsum(line.reshape(-1, bpp), axis=0, dtype=np.uint8).reshape(-1)
        elif kind == 2:
            cur = line + prev
        elif kind in (3, 4):
            data, up, cur_list = line.tolist(), prev.tolist(), [0] * stride
            for i in range(stride):
                left = cur_list[i - bpp] if i >= bpp else 0
                if kind == 3:
                    pred = (left + up[i]) >> 1
                else:
                    upleft = up[i - bpp] if i >= bpp else 0
                    p = left + up[i] - upleft
                    pa, pb, pc = abs(p - left), abs(p - up[i]), abs(p - upleft)
                    pred = left if pa <= pb and pa <= pc else up[i] if pb <= pc else upleft
                cur_list[i] = (data[i] + pred) & 0xFF
            cur = np.array(cur_list, dtype=np.uint8)
        else:
            raise PngError(f"{name}: row {y} has unknown filter type {kind}")
        out[y] = cur
        prev = cur
    return out


def decode_png(data: bytes, name: str = "<png>") -> np.ndarray:
    """An 8-bit non-interlaced greyscale, RGB or RGBA PNG as an (height, width, 3) uint8 array."""
    if not data.startswith(PNG_SIGNATURE):
        raise PngError(f"{name}: not a PNG file (bad signature)")
    pos, header, idat = len(PNG_SIGNATURE), None, []
    while True:
        if pos + 8 > len(data):
            raise PngError(f"{name}: truncated chunk header at offset {pos}")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = data[pos + 8 + length:pos + 12 + length]
        if len(body) != length or len(crc) != 4:
            raise PngError(f"{name}: truncated {kind.decode('latin-1')} chunk at offset {pos}")
        if struct.unpack(">I", crc)[0] != zlib.crc32(kind + body):
            raise PngError(f"{name}: bad CRC in {kind.decode('latin-1')} chunk at offset {pos}")
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise PngError(f"{name}: no IHDR chunk")
    width, height, depth, colour_type, _, _, interlace = header
    channels = {0: 1, 2: 3, 6: 4}.get(colour_type)
    if depth != 8 or channels is None or interlace:
        raise PngError(f"{name}: unsupported PNG (bit depth {depth}, colour type {colour_type}, "
                       f"interlace {interlace}); expected 8-bit grey, RGB or RGBA")
    try:
        raw = np.frombuffer(zlib.decompress(b"".join(idat)), dtype=np.uint8)
    except zlib.error as exc:
        raise PngError(f"{name}: bad compressed image data ({exc})") from None
    stride = width * channels
    if len(raw) != height * (1 + stride):
        raise PngError(f"{name}: image data is {len(raw)} bytes, expected {height * (1 + stride)}")
    pixels = _unfilter(raw, height, stride, channels, name).reshape(height, width, channels)
    if channels == 1:
        return np.repeat(pixels, 3, axis=2)
    return np.ascontiguousarray(pixels[:, :, :3])


def read_png(path: str | os.PathLike[str]) -> np.ndarray:
    """Read a PNG file (as written by :func:`write_png`) into an (height, width, 3) uint8 array."""
    with open(path, "rb") as f:
        return decode_png(f.read(), os.fspath(path))
