"""TZX reading (zxmonopoly.tape.tzx): every block type, round trips, bad input."""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tape import tzxbuild as tb
from zxmonopoly.tape import blocks as b
from zxmonopoly.tape import signal
from zxmonopoly.tape.signal import build_signal
from zxmonopoly.tape.tap import TapeError
from zxmonopoly.tape.tzx import read_tzx

HEADER = tb.rom(0, bytes([3]) + b"game      " + bytes([3, 0, 0, 0x80, 0, 0x80]))
DATA = tb.rom(0xFF, b"abc")


def parse(*blocks: bytes) -> b.Tape:
    """The tape of a TZX made of ``blocks``."""
    return read_tzx(tb.tzx(*blocks), "t.tzx")


def one(raw: bytes) -> b.Block:
    """The only block of a TZX holding ``raw``, checked to come with no warning."""
    tape = parse(raw)
    assert tape.warnings == []
    (block,) = tape.blocks
    return block


#: Each block type: the builder's bytes and the block the reader must make of them.
EVERY_BLOCK = [
    (tb.standard(HEADER, 1234), b.StandardData(HEADER, 1234)),
    (tb.turbo(DATA, 1000, 400, 500, 300, 600, 1500, 6, 0),
     b.TurboData(DATA, 0, 1000, 400, 500, 300, 600, 1500, 6)),
    (tb.pure_tone(2168, 300), b.PureTone(2168, 300)),
    (tb.pulse_sequence(667, 735, 100), b.PulseSequence((667, 735, 100))),
    (tb.pure_data(b"\x80\x40", 500, 1000, 2, 7), b.PureData(b"\x80\x40", 7, 500, 1000, 2)),
    (tb.direct(b"\x3c\x80", 100, 1, 1), b.DirectRecording(b"\x3c\x80", 100, 1, 1)),
    (tb.csw([10, 300, 5], 35000, 20), b.CswRecording(b"\x0a\x00\x2c\x01\x00\x00\x05", 35000, 1,
                                                      3, 20)),
    (tb.csw([10, 300, 5], 35000, z=True),
     b.CswRecording(zlib.compress(b"\x0a\x00\x2c\x01\x00\x00\x05"), 35000, 2, 3, 0)),
    (tb.generalized([(0, [2168]), (0, [667, 735])], [(0, 100), (1, 1)],
                    [(0, [855, 855]), (3, [1710])], [1, 0, 1], 500),
     b.GeneralizedData(500, ((0, (2168,)), (0, (667, 735))), ((0, 100), (1, 1)),
                       ((0, (855, 855)), (3, (1710,))), 3, b"\xa0")),
    (tb.pause(0), b.Pause(0)),
    (tb.pause(250), b.Pause(250)),
    (tb.group_start(b"Bleep 1"), b.GroupStart("Bleep 1")),
    (tb.group_end(), b.GroupEnd()),
    (tb.jump(-2), b.Jump(-2)),
    (tb.loop_start(5), b.LoopStart(5)),
    (tb.loop_end(), b.LoopEnd()),
    (tb.call_sequence(3, -1), b.CallSequence((3, -1))),
    (tb.return_(), b.Return()),
    (tb.select((1, b"Game"), (-4, b"Trainer")), b.Select(((1, "Game"), (-4, "Trainer")))),
    (tb.stop_if_48k(), b.StopIf48K()),
    (tb.set_level(1), b.SetLevel(1)),
    (tb.text(b"Side A\rLevel 1"), b.Text("Side A\rLevel 1")),
    (tb.message(5, b"Turn over"), b.Message(5, "Turn over")),
    (tb.archive_info((0, b"Monopoly"), (3, b"1985"), (0xFF, b"\xe9")),
     b.ArchiveInfo(((0, "Monopoly"), (3, "1985"), (0xFF, "\xe9")))),
    (tb.hardware((0, 1, 0), (3, 0, 1)), b.Hardware(((0, 1, 0), (3, 0, 1)))),
    (tb.custom_info(b"POKEs", b"\x01\x02"), b.CustomInfo("POKEs           ", b"\x01\x02")),
    (tb.glue(), b.Glue(1, 20)),
]


@pytest.mark.parametrize(("raw", "block"), EVERY_BLOCK, ids=lambda x: getattr(x, "NAME", ""))
def test_every_block_type_is_read(raw: bytes, block: b.Block) -> None:
    assert one(raw) == block
    assert b.block_id(block) == raw[0]
    assert block.summary().startswith(block.NAME if block.ID != 0x20 else ("Pause", "Stop"))


def test_offsets_and_version() -> None:
    tape = parse(tb.text(b"ab"), tb.pure_tone(1, 1), tb.group_end())
    assert [blk.offset for blk in tape.blocks] == [10, 14, 19]
    assert (tape.format, tape.version) == ("tzx", (1, 20))


def test_all_blocks_in_one_file() -> None:
    tape = parse(*(raw for raw, _ in EVERY_BLOCK))
    assert tape.blocks == [block for _, block in EVERY_BLOCK]
    assert tape.warnings == []


@given(st.lists(st.sampled_from(EVERY_BLOCK), max_size=12),
       st.lists(st.tuples(st.integers(0, 255), st.binary(max_size=40)), max_size=4))
def test_built_then_parsed_gives_the_blocks(chosen: list[tuple[bytes, b.Block]],
                                            data: list[tuple[int, bytes]]) -> None:
    extra = [(tb.standard(tb.rom(f, d), 10), b.StandardData(tb.rom(f, d), 10)) for f, d in data]
    pairs = chosen + extra
    tape = parse(*(raw for raw, _ in pairs))
    assert tape.blocks == [block for _, block in pairs]


def test_data_block_properties() -> None:
    block = one(tb.standard(HEADER))
    assert isinstance(block, b.StandardData)
    assert (block.flag, block.checksum_ok) == (0, True)
    assert block.payload == HEADER[1:-1]
    assert block.header is not None and block.header.name == "game      "
    assert block.summary() == ('Standard Speed Data: Bytes: "game      " CODE 32768,3, length 3;'
                               " flag 0x00, checksum 0x0E OK; pause 1000 ms")


def warnings_of(*blocks: bytes, minor: int = 20) -> list[str]:
    """The warnings reading a TZX of ``blocks`` gives, as text."""
    return [str(w) for w in read_tzx(tb.tzx(*blocks, minor=minor), "t.tzx").warnings]


def test_bad_checksum_is_a_warning_and_the_block_is_kept() -> None:
    bad = DATA[:-1] + b"\x00"
    tape = parse(tb.standard(bad), tb.turbo(bad))
    assert [str(w) for w in tape.warnings] == [
        "t.tzx: block 0 at offset 10: bad checksum: stored 0x00, computed 0x9F "
        "(the block is still played)",
        "t.tzx: block 1 at offset 20: bad checksum: stored 0x00, computed 0x9F "
        "(the block is still played)"]
    assert tape.blocks[0] == b.StandardData(bad)
    assert tape.blocks[0].checksum_ok is False  # type: ignore[attr-defined]


@pytest.mark.parametrize(("blocks", "minor", "message"), [
    ([tb.standard(b"\xff")], 20,
     "t.tzx: block 0 at offset 10: data block of 1 bytes has no room for a flag and a checksum"),
    ([tb.turbo(DATA, used_bits=0)], 20,
     "t.tzx: block 0 at offset 10: used bits in the last byte is 0 (expected 1 to 8): read as 8"),
    ([tb.loop_start(1)], 20,
     "t.tzx: block 0 at offset 10: loop of 1 repetitions (expected 2 or more): played once"),
    ([b"\x2a\x01\x00\x00\x00\x00"], 20,
     "t.tzx: block 0 at offset 10: stop-if-48K block has length 1 (expected 0)"),
    ([b"\x2b\x01\x00\x00\x00\x07"], 20,
     "t.tzx: block 0 at offset 10: signal level 7 (expected 0 or 1): read as high"),
    ([b"\x99\x03\x00\x00\x00abc", tb.text(b"x")], 20,
     "t.tzx: block 0 at offset 10: unknown block ID 0x99: skipped 3 bytes (TZX extension rule)"),
    ([b"\x34" + bytes(8)], 20, "t.tzx: block 0 at offset 10: deprecated block 0x34 skipped"),
    ([b"\x40\x00\x02\x00\x00ab"], 20,
     "t.tzx: block 0 at offset 10: deprecated block 0x40 skipped"),
    ([b"\x16\x02\x00\x00\x00ab"], 20,
     "t.tzx: block 0 at offset 10: deprecated block 0x16 skipped"),
    ([tb.text(b"x")], 21,
     "t.tzx: offset 9: TZX version 1.21 is newer than 1.20: unknown blocks skipped"),
    ([b"\x32\x04\x00\x02\x00\x01a"], 20,
     "t.tzx: block 0 at offset 10: archive info: text ID runs past the block's length 4"),
    ([b"\x28\x03\x00\x01\x01\x00"], 20,
     "t.tzx: block 0 at offset 10: select block: text length runs past the block's length 3"),
    ([b"\x19\x05\x00\x00\x00" + bytes(5)], 20,
     "t.tzx: block 0 at offset 10: generalized data: pilot symbol count runs past the block's "
     "length 5: skipped"),
    ([b"\x18\x0a\x00\x00\x00" + bytes([0, 0, 0x44, 0xAC, 0, 3, 0, 0, 0, 0])], 20,
     "t.tzx: block 0 at offset 10: CSW recording with compression 3, rate 44100 Hz cannot be "
     "played: skipped"),
    ([tb.direct(b"\x01", 0)], 20,
     "t.tzx: block 0 at offset 10: 0 T-states per sample: the recording is silent"),
])
def test_warnings(blocks: list[bytes], minor: int, message: str) -> None:
    assert warnings_of(*blocks, minor=minor) == [message]


def test_skipped_blocks_are_kept_and_reading_goes_on() -> None:
    tape = parse(b"\x99\x03\x00\x00\x00abc", tb.text(b"x"))
    assert tape.blocks == [b.Skipped(0x99, b"abc"), b.Text("x")]
    assert b.block_id(tape.blocks[0]) == 0x99
    assert tape.blocks[0].summary() == "Skipped block 0x99: 3 bytes"


def test_generalized_block_with_a_symbol_past_the_alphabet_is_skipped() -> None:
    raw = tb.generalized([(0, [100])], [(1, 5)], [], [])
    assert warnings_of(raw) == ["t.tzx: block 0 at offset 10: generalized data: pilot/sync stream "
                                "uses symbol 1 of 1: skipped"]


@pytest.mark.parametrize(("image", "message"), [
    (b"", "t.tzx: offset 0: empty file"),
    (b"ZXTap", "t.tzx: offset 0: truncated TZX header (5 of 10 bytes)"),
    (b"ZXTape!\x1a\x01", "t.tzx: offset 0: truncated TZX header (9 of 10 bytes)"),
    (b"RIFF....WAVE", "t.tzx: offset 0: not a TZX file (no 'ZXTape!' signature)"),
    (b"ZXTape!\x00\x01\x14", "t.tzx: offset 0: not a TZX file (no 'ZXTape!' signature)"),
    (tb.header(2, 0), "t.tzx: offset 8: TZX version 2.00 is not supported (major version 1 only)"),
    (tb.tzx(tb.standard(DATA))[:-1],
     "t.tzx: block 0 at offset 10: data length 5 runs past the end of the file (4 bytes left)"),
    (tb.tzx(tb.text(b"x"), b"\x10\xe8"),
     "t.tzx: block 1 at offset 13: truncated block: pause needs 2 bytes, 1 left in the file"),
    (tb.tzx(tb.turbo(DATA))[:16],
     "t.tzx: block 0 at offset 10: truncated block: timings needs 2 bytes, 1 left in the file"),
    (tb.tzx(tb.pulse_sequence(1, 2, 3))[:-1],
     "t.tzx: block 0 at offset 10: truncated block: 3 pulse lengths needs 6 bytes, 5 left"),
    (tb.tzx(tb.generalized([(0, [100])], [(0, 5)], [], []))[:-1],
     "t.tzx: block 0 at offset 10: block length 20 runs past the end of the file (19 bytes left)"),
    (tb.tzx(b"\x99\x01"),
     "t.tzx: block 0 at offset 10: unknown block ID 0x99 with no room for a length field"),
    (tb.tzx(b"\x99\xff\x00\x00\x00abc"),
     "t.tzx: block 0 at offset 10: unknown block ID 0x99: its length 255 runs past the end of "
     "the file (3 bytes left); not a block, or a corrupt file"),
    (tb.tzx(tb.custom_info(b"x", b"abc"))[:-2],
     "t.tzx: block 0 at offset 10: custom info length 3 runs past the end of the file"),
    (tb.tzx(b"\x5aXTape!"),
     "t.tzx: block 0 at offset 10: truncated block: glue block needs 9 bytes, 6 left"),
])
def test_errors(image: bytes, message: str) -> None:
    with pytest.raises(TapeError) as info:
        read_tzx(image, "t.tzx")
    assert str(info.value).startswith(message)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([raw for raw, _ in EVERY_BLOCK]), max_size=6),
       st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=4),
       st.integers(0, 10_000), st.binary(max_size=30))
def test_damaged_files_give_a_tape_or_a_tape_error(chosen: list[bytes],
                                                   flips: list[tuple[int, int]], cut: int,
                                                   junk: bytes) -> None:
    image = bytearray(tb.tzx(*chosen) + junk)
    for at, value in flips:
        if len(image) > 10:
            image[10 + at % (len(image) - 10)] = value
    image = image[:max(10, len(image) - cut % 20)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(signal, "MAX_EDGES", 200_000)
        try:
            build_signal(read_tzx(bytes(image), "f.tzx"))
        except TapeError as exc:
            assert str(exc).startswith("f.tzx: ")
