"""TAP blocks and files (zxmonopoly.tape.tap)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zxmonopoly.tape import tap

blocks = st.builds(tap.TapBlock, st.integers(0, 255), st.binary(max_size=300))


@given(st.lists(blocks, max_size=8))
def test_write_then_read_gives_the_blocks(bs: list[tap.TapBlock]) -> None:
    back = tap.read_tap(tap.write_tap(bs))
    assert back == bs
    assert all(b.valid for b in back)


def test_block_layout_and_checksum() -> None:
    block = tap.TapBlock(0xFF, b"\x01\x02")
    assert block.checksum == 0xFF ^ 1 ^ 2
    assert tap.write_tap([block]) == bytes([4, 0, 0xFF, 1, 2, 0xFC])


def test_a_bad_checksum_is_kept_and_flagged() -> None:
    (block,) = tap.read_tap(bytes([3, 0, 0xFF, 7, 0]))
    assert (block.data, block.checksum, block.valid) == (b"\x07", 0, False)


@pytest.mark.parametrize(("image", "message"), [
    (bytes([5]), "t.tap: block 0 at offset 0: truncated block length (1 byte left)"),
    (bytes([3, 0, 0xFF, 1, 0xFE, 9, 0, 1]),
     "t.tap: block 1 at offset 5: block length 9 runs past the end of the file (1 bytes left)"),
    (bytes([1, 0, 0]), "t.tap: block 0 at offset 0: block length 1 is too short"),
])
def test_malformed_files(image: bytes, message: str) -> None:
    with pytest.raises(tap.TapeError) as info:
        tap.read_tap(image, "t.tap")
    assert str(info.value).startswith(message)


def test_headers() -> None:
    header = tap.Header(tap.CODE, "game", 100, 32768, 32768)
    block = header.to_block()
    assert block.flag == 0 and len(block.data) == 17
    assert block.data[1:11] == b"game      "
    assert tap.Header.from_block(block) == tap.Header(tap.CODE, "game      ", 100, 32768, 32768)
    assert tap.Header.from_block(tap.TapBlock(0xFF, block.data)) is None
    with pytest.raises(ValueError, match="longer than 10"):
        tap.Header(tap.CODE, "much too long", 1, 0, 0).to_block()


def test_program_and_code_blocks() -> None:
    head, data = tap.program_blocks("run", b"\x00\x0a", autostart=10)
    assert tap.Header.from_block(head) == tap.Header(tap.PROGRAM, "run       ", 2, 10, 2)
    assert data == tap.TapBlock(0xFF, b"\x00\x0a")
    head, _ = tap.program_blocks("run", b"xy")
    assert tap.Header.from_block(head).param1 == 0x8000  # type: ignore[union-attr]
    head, _ = tap.code_blocks("c", 0x8000, b"abc")
    assert tap.Header.from_block(head) == tap.Header(tap.CODE, "c         ", 3, 0x8000, 0x8000)
