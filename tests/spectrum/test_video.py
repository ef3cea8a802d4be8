"""Palette, geometry, rendering, border stripes, screen text and PNG (zxmonopoly.spectrum.video)."""

from __future__ import annotations

import struct
import time
import zlib

import numpy as np
import pytest

from zxmonopoly.memory_map import ATTR_END, ATTR_FILE, ATTR_FILE_SIZE
from zxmonopoly.spectrum import timing, video
from zxmonopoly.spectrum.video import PALETTE, render

# Reference values written from spectrum_facts.md §2.3: normal level 0xC0, bright 0xFF,
# colour bits 0 blue, 1 red, 2 green.
EXPECTED_RGB = {
    0: (0, 0, 0), 1: (0, 0, 192), 2: (192, 0, 0), 3: (192, 0, 192),
    4: (0, 192, 0), 5: (0, 192, 192), 6: (192, 192, 0), 7: (192, 192, 192),
    8: (0, 0, 0), 9: (0, 0, 255), 10: (255, 0, 0), 11: (255, 0, 255),
    12: (0, 255, 0), 13: (0, 255, 255), 14: (255, 255, 0), 15: (255, 255, 255),
}


def pixel_address(x: int, y: int) -> int:
    """Facts §2.2 as bit fields: 010 y7 y6 y2 y1 y0 | y5 y4 y3 x4..x0 (x in bytes)."""
    high = 0b010 << 5 | (y >> 6 & 3) << 3 | (y & 7)
    low = (y >> 3 & 7) << 5 | x
    return high << 8 | low


def blank_memory() -> bytearray:
    return bytearray(65536)


def set_pixel(mem: bytearray, x: int, y: int) -> None:
    mem[pixel_address(x // 8, y)] |= 0x80 >> (x % 8)


def set_attr(mem: bytearray, col: int, row: int, ink: int, paper: int, bright: bool = False,
             flash: bool = False) -> None:
    mem[ATTR_FILE + 32 * row + col] = ink | paper << 3 | bright << 6 | flash << 7


def display_rgb(frame: np.ndarray, x: int, y: int) -> tuple[int, ...]:
    """The colour of display pixel (x, y) in a rendered frame."""
    return tuple(int(v) for v in frame[video.BORDER + y, video.BORDER + x])


def test_geometry_constants() -> None:
    assert (timing.LINE_TSTATES, timing.LINES, timing.FRAME_TSTATES) == (224, 312, 69_888)
    assert timing.DISPLAY_TSTATES == 14_336 == 64 * 224 and timing.CONTENDED_FROM == 14_335
    assert timing.CONTENDED_TO == 14_335 + 191 * 224 + 128
    assert (video.SCREEN_WIDTH, video.SCREEN_HEIGHT) == (320, 256)
    assert video.LEFT_BORDER_TSTATES == 16
    # Visible line 0 is frame line 32; display line 0 is visible line 32 and its left border
    # edge comes 16 T before its first pixel.
    assert video.LINE_STARTS[0] == 32 * 224 - 16
    assert video.LINE_STARTS[32] == 14_336 - 16
    assert video.LINE_STARTS[255] == 287 * 224 - 16
    assert video.CHUNK_TSTATES_GRID.shape == (256, 40)
    assert video.CHUNK_TSTATES_GRID[32, 4] == 14_336  # the first display pixel's chunk


def test_palette() -> None:
    assert PALETTE.shape == (16, 3) and PALETTE.dtype == np.uint8
    for index, rgb in EXPECTED_RGB.items():
        assert tuple(PALETTE[index]) == rgb, index


def test_row_addresses_follow_the_facts() -> None:
    for y in range(192):
        assert video.row_address(y) == pixel_address(0, y)
    assert [video.row_address(y) for y in (0, 1, 7, 8, 63, 64, 191)] == [
        0x4000, 0x4100, 0x4700, 0x4020, 0x47E0, 0x4800, 0x57E0]


def test_flash_phase() -> None:
    assert [video.flash_swapped(f) for f in (0, 15, 16, 31, 32, 48)] == [
        False, False, True, True, False, True]


def test_single_pixels_land_at_exact_positions() -> None:
    mem = blank_memory()
    set_attr(mem, 0, 0, ink=2, paper=5)  # red on cyan
    set_attr(mem, 31, 23, ink=1, paper=6, bright=True)  # bright blue on bright yellow
    set_pixel(mem, 0, 0)
    set_pixel(mem, 7, 1)
    set_pixel(mem, 255, 191)
    frame = render(mem, 0)
    assert frame.shape == (256, 320, 3) and frame.dtype == np.uint8
    red, cyan = EXPECTED_RGB[2], EXPECTED_RGB[5]
    assert display_rgb(frame, 0, 0) == red
    assert display_rgb(frame, 1, 0) == cyan
    assert display_rgb(frame, 0, 1) == cyan
    assert display_rgb(frame, 7, 1) == red
    assert display_rgb(frame, 255, 191) == EXPECTED_RGB[9]
    assert display_rgb(frame, 254, 191) == EXPECTED_RGB[14]
    # Cells with attribute 0 are black on black; the border is black here too.
    assert display_rgb(frame, 100, 100) == (0, 0, 0)


def test_render_matches_a_per_pixel_reference() -> None:
    rng = np.random.default_rng(7)
    mem = bytearray(rng.integers(0, 256, 65536, dtype=np.uint8).tobytes())
    for flash_on in (False, True):
        frame = render(mem, 3, flash_on)
        expected = np.zeros((192, 256, 3), dtype=np.uint8)
        for y in range(192):
            for x in range(256):
                attr = mem[ATTR_FILE + (y // 8) * 32 + x // 8]
                ink, paper = attr & 7, attr >> 3 & 7
                if flash_on and attr & 0x80:
                    ink, paper = paper, ink
                bright = 8 if attr & 0x40 else 0
                on = mem[pixel_address(x // 8, y)] >> (7 - x % 8) & 1
                expected[y, x] = EXPECTED_RGB[(ink if on else paper) + bright]
        assert np.array_equal(frame[32:224, 32:288], expected)
        assert (frame[:32] == EXPECTED_RGB[3]).all() and (frame[224:] == EXPECTED_RGB[3]).all()
        assert (frame[:, :32] == EXPECTED_RGB[3]).all()
        assert (frame[:, 288:] == EXPECTED_RGB[3]).all()


def test_flash_swaps_only_flashing_cells_and_only_when_on() -> None:
    mem = blank_memory()
    set_attr(mem, 0, 0, ink=1, paper=6, flash=True)
    set_attr(mem, 1, 0, ink=1, paper=6)
    for y in range(8):
        mem[pixel_address(0, y)] = mem[pixel_address(1, y)] = 0xF0  # left half ink
    blue, yellow = EXPECTED_RGB[1], EXPECTED_RGB[6]
    off, on = render(mem, 0, False), render(mem, 0, True)
    assert (display_rgb(off, 0, 0), display_rgb(off, 4, 0)) == (blue, yellow)
    assert (display_rgb(on, 0, 0), display_rgb(on, 4, 0)) == (yellow, blue)
    assert (display_rgb(on, 8, 0), display_rgb(on, 12, 0)) == (blue, yellow)


def test_bright_applies_to_ink_and_paper_not_to_the_border() -> None:
    mem = blank_memory()
    set_attr(mem, 0, 0, ink=7, paper=2, bright=True)
    mem[pixel_address(0, 0)] = 0x80
    frame = render(mem, 7)
    assert display_rgb(frame, 0, 0) == (255, 255, 255)
    assert display_rgb(frame, 1, 0) == (255, 0, 0)
    assert tuple(frame[0, 0]) == (192, 192, 192)


def test_border_colour_per_line_from_writes() -> None:
    edge = video.LINE_STARTS
    events = [(edge[10], 2), (edge[40] + 1, 5), (edge[250] - 1, 0x1E)]  # 0x1E: a raw port byte
    lines = video.border_colours_per_line(events, 1)
    assert lines.shape == (256,) and lines.dtype == np.uint8
    assert list(lines[:10]) == [1] * 10
    assert list(lines[10:41]) == [2] * 31  # the write at line 40's edge + 1 misses line 40
    assert list(lines[41:250]) == [5] * 209
    assert list(lines[250:]) == [6] * 6  # 0x1E & 7
    # No writes: the initial colour everywhere; writes before T=0 or after the frame also work.
    assert (video.border_colours_per_line([], 4) == 4).all()
    assert (video.border_colours_per_line([(-5, 3), (80_000, 6)], 4) == 3).all()


def test_border_writes_out_of_order_are_sorted() -> None:
    edge = video.LINE_STARTS
    lines = video.border_colours_per_line([(edge[20], 3), (edge[5], 6)], 0)
    assert list(lines[[0, 5, 19, 20, 255]]) == [0, 6, 6, 3, 3]


def test_border_stripes_render_on_the_right_lines() -> None:
    edge = video.LINE_STARTS
    lines = video.border_colours_per_line([(edge[3], 2), (edge[100], 4), (edge[230], 1)], 7)
    frame = render(blank_memory(), lines)
    white, red, green, blue = (EXPECTED_RGB[c] for c in (7, 2, 4, 1))
    for y, colour in ((0, white), (2, white), (3, red), (99, red), (100, green), (229, green),
                      (230, blue), (255, blue)):
        for x in (0, 31, 288, 319) if 32 <= y < 224 else (0, 160, 319):
            assert tuple(frame[y, x]) == colour, (y, x)
    assert tuple(frame[100, 32]) == (0, 0, 0)  # the display is not border


def test_border_per_chunk() -> None:
    edge = video.LINE_STARTS
    chunks = video.border_colours_per_chunk([(edge[10] + 4 * 5, 2)], 7)
    assert chunks.shape == (256, 40)
    assert (chunks[:10] == 7).all() and (chunks[11:] == 2).all()
    assert list(chunks[10, :5]) == [7] * 5 and list(chunks[10, 5:]) == [2] * 35
    frame = render(blank_memory(), chunks)
    assert tuple(frame[10, 39]) == EXPECTED_RGB[7]
    assert tuple(frame[10, 40]) == EXPECTED_RGB[2]
    assert tuple(frame[9, 300]) == EXPECTED_RGB[7]
    assert tuple(frame[100, 0]) == EXPECTED_RGB[2]


def test_render_inputs_and_errors() -> None:
    mem = blank_memory()
    set_attr(mem, 0, 0, ink=0, paper=4)
    as_bytes, as_array = render(bytes(mem), 1), render(np.frombuffer(mem, np.uint8), 1)
    assert np.array_equal(as_bytes, as_array)
    out = np.zeros((256, 320, 3), np.uint8)
    assert render(mem, 1, out=out) is out and np.array_equal(out, as_bytes)
    with pytest.raises(ValueError, match="border_at"):
        render(mem, np.zeros(10, np.uint8))
    with pytest.raises(ValueError, match="out must be"):
        render(mem, 0, out=np.zeros((10, 10, 3), np.uint8))
    with pytest.raises(ValueError, match="memory must hold"):
        render(bytes(100), 0)
    with pytest.raises(ValueError, match="events must be"):
        video.border_colours_per_line([1, 2, 3], 0)


@pytest.mark.bench
def test_render_is_fast() -> None:
    mem = bytearray(np.random.default_rng(1).integers(0, 256, 65536, np.uint8).tobytes())
    lines = video.border_colours_per_line([(20_000, 3)], 1)
    out = np.empty((256, 320, 3), np.uint8)
    render(mem, lines, True, out=out)
    best = min(_timed(lambda: render(mem, lines, True, out=out)) for _ in range(20))
    assert best < 0.005  # measured about 0.4 ms; the window calls it 50 times a second


def _timed(fn) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


# -- screen text ------------------------------------------------------------------------------


def glyph(code: int) -> bytes:
    """A synthetic glyph for characters 33..127: distinct, and never the inverse of another."""
    return bytes([code, 0x81, code ^ 0x3C, 0x42, (code * 7) & 0xFF, 0x00, 0x18, 0x66])


CHARSET = bytes(8) + b"".join(glyph(c) for c in range(33, 128))


def put_cell(mem: bytearray, col: int, row: int, pattern: bytes) -> None:
    for line in range(8):
        mem[pixel_address(col, row * 8 + line)] = pattern[line]


def test_screen_text_reads_every_glyph_inverse_and_unknown() -> None:
    mem = blank_memory()
    for index in range(96):  # characters 32..127 in the first three rows
        put_cell(mem, index % 32, index // 32, CHARSET[8 * index:8 * index + 8])
    text = "Hi £5"
    for col, char in enumerate(text):  # an INVERSE line: every bit flipped
        code = 0x60 if char == "£" else ord(char)
        put_cell(mem, col, 5, bytes(b ^ 0xFF for b in glyph(code)) if code != 32 else b"\xff" * 8)
    put_cell(mem, 0, 23, bytes([1, 2, 3, 4, 5, 6, 7, 8]))  # matches no glyph
    put_cell(mem, 31, 23, glyph(ord("Z")))
    lines = video.screen_text(mem, CHARSET)
    assert len(lines) == 24 and all(len(line) == 32 for line in lines)
    assert "".join(lines[:3]) == video.SPECTRUM_CHARACTERS
    assert lines[0] == " !\"#$%&'()*+,-./0123456789:;<=>?"
    assert lines[1] == "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]↑_"
    assert lines[2] == "£abcdefghijklmnopqrstuvwxyz{|}~©"
    assert lines[5] == "Hi £5" + " " * 27
    assert lines[23] == "?" + " " * 30 + "Z"
    assert video.screen_text(mem, CHARSET, unknown="#")[23][0] == "#"
    assert lines[10] == " " * 32


def test_screen_text_ignores_attributes_and_takes_arrays() -> None:
    mem = blank_memory()
    put_cell(mem, 3, 4, glyph(ord("k")))
    mem[ATTR_FILE:ATTR_END] = bytes([0xFF]) * ATTR_FILE_SIZE
    lines = video.screen_text(np.frombuffer(mem, np.uint8), np.frombuffer(CHARSET, np.uint8))
    assert lines[4] == "   k" + " " * 28


def test_screen_text_charset_errors() -> None:
    with pytest.raises(ValueError, match="768 bytes"):
        video.screen_text(blank_memory(), bytes(100))


def test_charset_from_memory_follows_chars() -> None:
    mem = blank_memory()
    base = 0x9000
    mem[base:base + 768] = CHARSET
    mem[video.CHARS:video.CHARS + 2] = (base - 256).to_bytes(2, "little")
    assert video.charset_from_memory(mem) == CHARSET
    put_cell(mem, 0, 0, glyph(ord("Q")))
    assert video.screen_text(mem, video.charset_from_memory(mem))[0][0] == "Q"


# -- PNG --------------------------------------------------------------------------------------


def test_png_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rgb = np.random.default_rng(3).integers(0, 256, (256, 320, 3), dtype=np.uint8)
    path = tmp_path / "frame.png"
    video.write_png(path, rgb)
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", data[16:24]) == (320, 256)
    back = video.read_png(path)
    assert back.dtype == np.uint8 and np.array_equal(back, rgb)


def test_png_of_a_rendered_frame(tmp_path) -> None:  # type: ignore[no-untyped-def]
    mem = blank_memory()
    set_attr(mem, 2, 2, ink=6, paper=1, bright=True)
    put_cell(mem, 2, 2, glyph(ord("A")))
    frame = render(mem, 5)
    video.write_png(tmp_path / "s.png", frame)
    assert np.array_equal(video.read_png(tmp_path / "s.png"), frame)


def _png(width: int, height: int, colour_type: int, rows: list[bytes]) -> bytes:
    """A PNG built by hand from already-filtered rows (filter byte first)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


def _filter(kind: int, line: np.ndarray, prev: np.ndarray, bpp: int) -> bytes:
    """The PNG filters of the specification, applied forwards, byte by byte."""
    out = []
    for i, value in enumerate(line.tolist()):
        left = int(line[i - bpp]) if i >= bpp else 0
        up = int(prev[i])
        upleft = int(prev[i - bpp]) if i >= bpp else 0
        if kind == 0:
            pred = 0
        elif kind == 1:
            pred = left
        elif kind == 2:
            pred = up
        elif kind == 3:
            pred = (left + up) // 2
        else:
            p = left + up - upleft
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
            pred = left if pa <= pb and pa <= pc else up if pb <= pc else upleft
        out.append((value - pred) & 0xFF)
    return bytes([kind]) + bytes(out)


@pytest.mark.parametrize(("colour_type", "channels"), [(2, 3), (6, 4), (0, 1)])
def test_png_reader_undoes_every_filter(colour_type: int, channels: int) -> None:
    rng = np.random.default_rng(colour_type)
    width, height = 7, 10
    image = rng.integers(0, 256, (height, width * channels), dtype=np.uint8)
    prev = np.zeros(width * channels, np.uint8)
    rows = []
    for y in range(height):
        rows.append(_filter(y % 5, image[y], prev, channels))
        prev = image[y]
    back = video.decode_png(_png(width, height, colour_type, rows))
    pixels = image.reshape(height, width, channels)
    expected = np.repeat(pixels, 3, axis=2) if channels == 1 else pixels[:, :, :3]
    assert np.array_equal(back, expected)


def test_png_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    good = video.png_bytes(np.zeros((2, 2, 3), np.uint8))
    with pytest.raises(video.PngError, match="x.png: not a PNG file"):
        video.decode_png(b"GIF89a", "x.png")
    bad_crc = bytearray(good)
    bad_crc[30] ^= 1  # inside the IHDR CRC
    with pytest.raises(video.PngError, match="bad CRC in IHDR"):
        video.decode_png(bytes(bad_crc))
    with pytest.raises(video.PngError, match="truncated"):
        video.decode_png(good[:40])
    with pytest.raises(video.PngError, match="unsupported PNG"):
        video.decode_png(_png(1, 1, 3, [b"\x00\x00"]))
    with pytest.raises(video.PngError, match="unknown filter type 9"):
        video.decode_png(_png(1, 1, 2, [b"\x09\x00\x00\x00"]))
    with pytest.raises(video.PngError, match="image data is"):
        video.decode_png(_png(2, 1, 2, [b"\x00\x00\x00\x00"]))
    with pytest.raises(ValueError, match="uint8"):
        video.png_bytes(np.zeros((2, 2), np.uint8))
    path = tmp_path / "bad.png"
    path.write_bytes(b"nope")
    with pytest.raises(video.PngError, match="bad.png: not a PNG"):
        video.read_png(path)
