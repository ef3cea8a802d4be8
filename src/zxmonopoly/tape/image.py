"""Tape files: ``read`` picks TAP or TZX; ``describe`` lists blocks like tzxlist."""

from __future__ import annotations

import os
from pathlib import Path

from zxmonopoly.clock import CPU_HZ
from zxmonopoly.files import read_regular

from .blocks import TAP_PAUSE_MS, StandardData, Tape, TapeWarning, block_id
from .signal import Signal, build_signal
from .tap import TapeError, read_tap
from .tzx import SIGNATURE, read_tzx

#: Suffixes read as TZX even without the signature (and then refused with a clear error).
TZX_SUFFIXES = (".tzx", ".cdt")

Source = str | os.PathLike[str] | bytes | bytearray | memoryview
#: A tape file is at most this large (the largest TZX of a real program is a few MB; a file
#: with more is refused before it is read whole).
MAX_TAPE_BYTES = 64 * 1024 * 1024


def printable(text: str) -> str:
    """``text`` with control characters (C0, DEL, C1) as ``\\xNN``: safe on a terminal.

    A header name or an archive text with ``ESC ] 0 ; ... BEL`` would retitle the window or
    worse if printed raw.
    """
    return "".join(c if " " <= c < "\x7f" or c >= "\xa0" else f"\\x{ord(c):02x}"
                   for c in text)


def tap_tape(image: bytes, name: str = "<tap>") -> Tape:
    """A TAP image as a tape of standard-speed blocks with the TAP pause of 1000 ms."""
    tape = Tape(name, "tap", [])
    offset = 0
    for index, block in enumerate(read_tap(bytes(image), name)):
        raw = block.raw()
        tape.blocks.append(StandardData(raw, TAP_PAUSE_MS, offset=offset))
        if not block.valid:
            tape.warnings.append(TapeWarning(
                name, index, offset, f"bad checksum: stored 0x{block.checksum:02X}, computed "
                f"0x{_xor(raw[:-1]):02X} (the block is still played)"))
        offset += 2 + len(raw)
    return tape


def _xor(data: bytes) -> int:
    """The XOR of some bytes."""
    value = 0
    for b in data:
        value ^= b
    return value


def read(source: Source, name: str | None = None) -> Tape:
    """A tape file (path) or image (bytes): TZX by signature or .tzx suffix, else TAP."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = name or "<tape>"
    else:
        path = os.fspath(source)
        name = name or path
        try:
            data = read_regular(path, MAX_TAPE_BYTES, "tape")
        except OSError as exc:
            raise TapeError(name, None, 0, f"cannot read: {exc.strerror or exc}") from None
    suffix = Path(name).suffix.lower()
    if data.startswith(SIGNATURE[:7]) or suffix in TZX_SUFFIXES:
        tape = read_tzx(data, name)
    else:
        tape = tap_tape(data, name)
    if not tape.blocks:
        tape.warnings.append(TapeWarning(name, None, len(data), "the tape has no blocks"))
    return tape


def signal_of(source: Source, name: str | None = None) -> Signal:
    """The signal of a tape file or image: ``build_signal(read(source, name))``."""
    return build_signal(read(source, name))


def describe(tape: Tape) -> list[str]:
    """Lines listing the tape's blocks (type, name, lengths, flag, checksum) and its warnings."""
    try:
        signal = build_signal(tape)
    except TapeError as exc:
        signal = None
        problem = str(exc)
    durations: dict[int, int] = {}
    if signal is not None:
        for info in signal.blocks:
            durations.setdefault(info.index, info.end - info.start)
        total = f", {signal.end / CPU_HZ:.2f} s"
    else:
        total = f" (cannot be played: {problem})"
    version = f" {tape.version[0]}.{tape.version[1]:02d}" if tape.version else ""
    count = len(tape.blocks)
    lines = [f"{tape.name}: {tape.format.upper()}{version}, {count} block"
             f"{'' if count == 1 else 's'}{total}"]
    for index, block in enumerate(tape.blocks):
        duration = durations.get(index)
        tail = f" ({duration / CPU_HZ:.2f} s)" if duration else ""
        lines.append(f"{index:4d}  0x{block_id(block):02X}  offset {block.offset:<7d} "
                     f"{block.summary()}{tail}")
    if signal is not None:
        lines += [f"warning: {w}" for w in signal.warnings]
    else:
        lines += [f"warning: {w}" for w in tape.warnings]
    return lines


def info_lines(path: Source) -> list[str]:
    """``describe`` of a tape file, for ``zxmonopoly tape info FILE``; raises ``TapeError``.

    Every line is :func:`printable`: names and texts from the file cannot reach the terminal
    as control sequences.
    """
    return [printable(line) for line in describe(read(path))]
