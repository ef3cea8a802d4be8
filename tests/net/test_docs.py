"""docs/network.md states the protocol as the code has it: every message and its bounds, the
limits."""

from __future__ import annotations

import re

from tests import REPO_ROOT
from zxmonopoly.net import protocol as p

DOC = (REPO_ROOT / "docs" / "network.md").read_text()


def test_the_message_table_gives_every_type_and_its_bounds() -> None:
    rows = re.findall(r"^\| (\d+) \| ([A-Z]+) \| [^|]+ \| [^|]+ \| ([\d,–]+) \|$", DOC, re.M)
    table = {int(t): (name, bounds) for t, name, bounds in rows}
    assert set(table) == set(p.MESSAGES)
    for msg_type, cls in p.MESSAGES.items():
        name, bounds = table[msg_type]
        assert name == cls.NAME
        low, high = cls.MIN, cls.MAX
        assert bounds == (f"{low:,}" if low == high else f"{low:,}–{high:,}"), name


def test_the_limits_are_stated() -> None:
    for text in (f"| players | {p.MAX_SLOTS} slots at most on the wire (`MAX_SLOTS`)",
                 f"| spectators (`--watch`) | {p.MAX_SPECTATORS} |",
                 f"| {p.MIN_DELAY} to {p.MAX_DELAY} frames (starts at {p.START_DELAY})",
                 f"| {p.MAX_LEAD} frames", f"| {p.MAX_PENDING} |",
                 f"| {p.HANDSHAKE_TIMEOUT:.0f} s |",
                 f"| {p.PEER_TIMEOUT:.0f} s (the host pings every {p.PING_INTERVAL} s)",
                 f"| {p.STALL_TIMEOUT:.0f} s |",
                 f"| {p.MESSAGE_TIMEOUT:.0f} s, plus 1 s per 64 KiB |"):
        assert text in DOC, text
