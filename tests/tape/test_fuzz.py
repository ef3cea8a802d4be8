"""Fuzzing the tape readers: random and mutated TAP and TZX images raise only TapeError.

Short runs in the default suite, long ones under ``-m slow`` (tests/fuzz.py).
"""

from __future__ import annotations

from tests.fuzz import files, fuzz_test
from tests.tape import tzxbuild as tb
from zxmonopoly import tape
from zxmonopoly.tape.image import describe, printable
from zxmonopoly.tape.tap import TapBlock, TapeError, code_blocks, program_blocks, write_tap

TAP_SEEDS = [
    write_tap(program_blocks("prog", b"\x00\x0a\x05\x00\xef\x22\x22\xaf\x0d", autostart=10)
              + code_blocks("code", 0x8000, bytes(range(40)))),
    write_tap([TapBlock(0xFF, b"\xed" * 20)]),
]
TZX_SEEDS = [
    tb.tzx(tb.standard(tb.rom(0, bytes(17))), tb.turbo(tb.rom(0xFF, bytes(range(30)))),
           tb.pure_tone(2168, 100), tb.pulse_sequence(667, 735), tb.pause(100)),
    tb.tzx(tb.loop_start(3), tb.pure_tone(500, 10), tb.loop_end(), tb.group_start(b"grp"),
           tb.group_end(), tb.jump(1), tb.pure_data(b"\x55\xaa")),
    tb.tzx(tb.direct(b"\xf0\x0f" * 8), tb.csw([100, 200, 300]), tb.csw([50] * 20, z=True),
           tb.call_sequence(1), tb.pause(0)),
]


def _read_all(data: bytes, name: str) -> None:
    """Read, play and list: the only exception allowed is TapeError."""
    try:
        t = tape.read(data, name)
        lines = describe(t)
        tape.build_signal(t)
    except TapeError:
        return
    assert all(printable(line) == printable(printable(line)) for line in lines)


@fuzz_test(files(TAP_SEEDS))
def _tap(data: bytes) -> None:
    _read_all(data, "fuzz.tap")


@fuzz_test(files(TZX_SEEDS))
def _tzx(data: bytes) -> None:
    _read_all(data, "fuzz.tzx")


test_tap_images_raise_only_tape_error, test_tap_images_long = _tap
test_tzx_images_raise_only_tape_error, test_tzx_images_long = _tzx
