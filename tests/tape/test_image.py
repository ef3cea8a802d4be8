"""Tape files (zxmonopoly.tape.image): format choice, listing, errors; tzxlist agrees with us."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tape import tzxbuild as tb
from zxmonopoly import tape
from zxmonopoly.tape.blocks import StandardData, Text
from zxmonopoly.tape.tap import TapBlock, TapeError, code_blocks, program_blocks, write_tap

GAME = (program_blocks("run", b"\x00\x0a\x05\x00\xef\x22\x22\xaf\x0d", autostart=10)
        + code_blocks("game", 0x8000, bytes(range(200))))

tap_blocks = st.builds(TapBlock, st.integers(0, 255), st.binary(max_size=300))


@given(st.lists(tap_blocks, max_size=6))
def test_tap_read_of_write_gives_the_blocks(blocks: list[TapBlock]) -> None:
    t = tape.read(write_tap(blocks), "x.tap")
    assert t.format == "tap"
    assert t.warnings == [] or not blocks
    assert t.blocks == [StandardData(b.raw(), 1000) for b in blocks]
    assert tape.read_tap(write_tap(blocks)) == blocks


def test_tap_offsets_and_checksum_warning() -> None:
    bad = TapBlock(0xFF, b"xy", 0)
    t = tape.read(write_tap([GAME[0], bad]), "t.tap")
    assert [b.offset for b in t.blocks] == [0, 21]
    assert [str(w) for w in t.warnings] == [
        "t.tap: block 1 at offset 21: bad checksum: stored 0x00, computed 0xFE "
        "(the block is still played)"]


def test_format_is_chosen_by_content_then_suffix(tmp_path: Path) -> None:
    tzx = tb.tzx(tb.text(b"hi"))
    assert tape.read(tzx, "looks.tap").format == "tzx"
    assert tape.read(write_tap(GAME), "x.tzx.bak").format == "tap"
    with pytest.raises(TapeError, match=r"^x.TZX: offset 0: not a TZX file"):
        tape.read(write_tap(GAME), "x.TZX")
    path = tmp_path / "game.tzx"
    path.write_bytes(tzx)
    t = tape.read(path)
    assert (t.name, t.blocks) == (str(path), [Text("hi", offset=10)])
    assert tape.read(str(path), "other").name == "other"


def test_unreadable_file() -> None:
    with pytest.raises(TapeError, match=r"^/no/such\.tap: offset 0: cannot read: No such file"):
        tape.read("/no/such.tap")


@pytest.mark.parametrize(("image", "message"), [
    (bytes([5]), "t.tap: block 0 at offset 0: truncated block length (1 byte left)"),
    (bytes([3, 0, 0xFF, 1]), "t.tap: block 0 at offset 0: block length 3 runs past the end"),
])
def test_tap_errors(image: bytes, message: str) -> None:
    with pytest.raises(TapeError) as info:
        tape.read(image, "t.tap")
    assert str(info.value).startswith(message)
    assert (info.value.name, info.value.block, info.value.offset) == ("t.tap", 0, 0)


def test_an_empty_tape_is_a_warning() -> None:
    t = tape.read(b"", "e.tap")
    assert (t.blocks, [str(w) for w in t.warnings]) == ([], ["e.tap: offset 0: the tape has no "
                                                             "blocks"])
    assert tape.build_signal(t).end == 0


def test_describe_a_tap() -> None:
    # The same checksums and durations as tzxlist gives for this file.
    assert tape.describe(tape.read(write_tap(GAME), "game.tap")) == [
        "game.tap: TAP, 4 blocks, 19.38 s",
        '   0  0x10  offset 0       Standard Speed Data: Program: "run       " LINE 10, length 9;'
        " flag 0x00, checksum 0x43 OK; pause 1000 ms (6.08 s)",
        "   1  0x10  offset 21      Standard Speed Data: 9 bytes of data; flag 0xFF, checksum "
        "0xBD OK; pause 1000 ms (3.06 s)",
        '   2  0x10  offset 34      Standard Speed Data: Bytes: "game      " CODE 32768,200, '
        "length 200; flag 0x00, checksum 0xC5 OK; pause 1000 ms (6.09 s)",
        "   3  0x10  offset 55      Standard Speed Data: 200 bytes of data; flag 0xFF, checksum "
        "0xFF OK; pause 1000 ms (4.15 s)",
    ]


@pytest.mark.parametrize(("header", "text"), [
    ((1, "nums", 10, 0x8100, 0), 'Number array: "nums" DATA a()'),
    ((2, "strs", 10, 0xC200, 0), 'Character array: "strs" DATA b$()'),
    ((3, "pic", 6912, 16384, 0), 'Bytes: "pic" SCREEN$'),
    ((0, "prog", 5, 0x8000, 5), 'Program: "prog"'),
    ((9, "odd", 1, 0, 0), 'Header type 9: "odd"'),
])
def test_header_texts(header: tuple[int, str, int, int, int], text: str) -> None:
    assert tape.blocks.header_text(tape.Header(*header)) == text


def test_describe_a_tzx_with_warnings_and_info_lines(tmp_path: Path) -> None:
    path = tmp_path / "w.tzx"
    path.write_bytes(tb.tzx(tb.pure_tone(2168, 100), b"\x99\x00\x00\x00\x00", tb.jump(0)))
    lines = tape.info_lines(path)
    assert lines == [
        f"{path}: TZX 1.20, 3 blocks, 0.06 s",
        "   0  0x12  offset 10      Pure Tone: 100 pulses of 2168 T-states (0.06 s)",
        "   1  0x99  offset 15      Skipped block 0x99: 0 bytes",
        "   2  0x23  offset 20      Jump: +0 blocks",
        f"warning: {path}: block 1 at offset 15: unknown block ID 0x99: skipped 0 bytes "
        "(TZX extension rule)",
        f"warning: {path}: block 2 at offset 20: the jump makes an endless loop: the tape ends "
        "here",
    ]


def test_describe_a_tape_too_long_to_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tape.signal, "MAX_EDGES", 10)
    lines = tape.describe(tape.read(tb.tzx(tb.pure_tone(1, 20)), "long.tzx"))
    assert lines[0] == ("long.tzx: TZX 1.20, 1 block (cannot be played: long.tzx: block 0 at "
                        "offset 10: the signal would exceed 10 edges)")


# --- tzxlist (Debian fuse-emulator-utils) reads what we write, and agrees on durations --------

needs_tzxlist = pytest.mark.skipif(
    shutil.which("tzxlist") is None,
    reason="tzxlist is not installed (Debian fuse-emulator-utils; .ci/run installs it)")


def tzxlist(path: Path) -> tuple[list[int], list[float], float]:
    """Block IDs, block durations and total duration as tzxlist prints them."""
    out = subprocess.run(["tzxlist", str(path)], capture_output=True, text=True, check=True)
    assert out.stderr == ""
    ids = [int(m, 16) for m in re.findall(r"Block type 0x([0-9a-fA-F]{2})", out.stdout)]
    durations = [float(d) for d in re.findall(r"Block duration: ([0-9.]+) sec", out.stdout)]
    m = re.search(r"Total tape duration: (\d+) min, ([0-9.]+) sec", out.stdout)
    assert m is not None
    return ids, durations, int(m[1]) * 60 + float(m[2])


def first_durations(signal: tape.Signal, count: int) -> list[float]:
    """Each block's duration when first played, in seconds to 2 places (0 if never played)."""
    seen: dict[int, int] = {}
    for info in signal.blocks:
        seen.setdefault(info.index, info.end - info.start)
    return [round(seen.get(i, 0) / 3_500_000, 2) for i in range(count)]


@needs_tzxlist
def test_tzxlist_reads_our_taps_with_our_durations(tmp_path: Path) -> None:
    blocks = GAME + [TapBlock(0x42, bytes(1000)), TapBlock(0xFF, b"")]
    path = tmp_path / "game.tap"
    path.write_bytes(write_tap(blocks))
    ids, durations, total = tzxlist(path)
    signal = tape.build_signal(tape.read(path))
    assert ids == [0x10] * len(blocks)
    assert durations == first_durations(signal, len(blocks))
    assert total == round(signal.end / 3_500_000, 2)


#: One block of every type tzxlist 1.4 reads; it has no reader for 0x18, 0x26 and 0x27.
TZXLIST_BLOCKS = [
    tb.archive_info((0, b"Monopoly"), (2, b"Us")), tb.hardware((0, 1, 0)), tb.text(b"side A"),
    tb.message(2, b"hello"), tb.group_start(b"loader"),
    tb.standard(tb.rom(0, bytes([3]) + b"game      " + bytes([3, 0, 0, 0x80, 0, 0x80]))),
    tb.turbo(tb.rom(0xFF, b"abc"), used_bits=6, pause=0), tb.group_end(),
    tb.pure_tone(2168, 10), tb.pulse_sequence(667, 735), tb.pure_data(b"\x80", used_bits=1),
    tb.direct(b"\x3c\x80", 100, pause=1, used_bits=1),
    tb.generalized([(0, [2168]), (0, [667, 735])], [(0, 100), (1, 1)],
                   [(0, [855, 855]), (0, [1710, 1710])], [1, 0, 1, 1, 0, 0, 1, 0]),
    tb.pause(100), tb.jump(2), tb.text(b"skipped"), tb.loop_start(2), tb.pure_tone(1000, 3),
    tb.loop_end(), tb.select((1, b"one"), (2, b"two")), tb.set_level(1), tb.stop_if_48k(),
    tb.pause(0), tb.custom_info(b"POKEs", b"xyz"), tb.glue(),
]


@needs_tzxlist
def test_tzxlist_reads_a_tzx_of_our_builder(tmp_path: Path) -> None:
    path = tmp_path / "all.tzx"
    path.write_bytes(tb.tzx(*TZXLIST_BLOCKS))
    ids, durations, _ = tzxlist(path)
    ours = tape.read(path)
    assert ours.warnings == []
    # tzxlist folds the glue block away without listing it.
    assert ids == [raw[0] for raw in TZXLIST_BLOCKS[:-1]]
    assert durations == first_durations(tape.build_signal(ours), len(ids))
