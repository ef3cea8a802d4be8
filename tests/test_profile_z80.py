"""tools/profile_z80.py: the opcode counts behind the dispatch trees' weights."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tests import load_tool

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    return load_tool("profile_z80")


def test_count_op_sorts_bytes_into_tables():
    tool = _tool()
    counts = {t: Counter() for t in tool.TABLES}
    for data in (b"\x7e\0\0\0", b"\xcb\x46\0\0", b"\xed\xb0\0\0", b"\xfd\x7e\x05\0",
                 b"\xdd\xcb\x02\x46"):
        tool.count_op(data, counts)
    assert counts["main"] == Counter({0x7E: 1, 0xCB: 1, 0xED: 1, 0xFD: 1, 0xDD: 1})
    assert counts["cb"] == Counter({0x46: 2})  # BIT 0,(HL) and BIT 0,(IX+2)
    assert counts["ed"] == Counter({0xB0: 1})
    assert counts["dd"] == Counter({0x7E: 1, 0xCB: 1})


def test_parts_weigh_by_their_share_not_their_size():
    tool = _tool()
    parts = {p: {t: Counter() for t in tool.TABLES} for p in tool.PARTS}
    parts["code"]["main"][0x00] = 10          # 10 of one opcode...
    parts["game"]["main"][0x76] = 1_000_000   # ...and a million of another
    out = tool.combine(parts)
    share = tool.PARTS["code"] + tool.PARTS["game"]
    assert out["main"]["00"] == round(tool.SCALE * tool.PARTS["code"] / share)
    assert out["main"]["76"] == round(tool.SCALE * tool.PARTS["game"] / share)
    assert out["cb"] == {}


def test_static_counts_cover_our_rom_and_game():
    tool = _tool()
    counts = {t: Counter() for t in tool.TABLES}
    tool.count_code(counts)
    assert sum(counts["main"].values()) > 10_000  # both listings, instructions only
    assert counts["main"][0xCD] > 1_000  # CALL nn: the game is mostly calls


def test_committed_profile_is_whole():
    data = json.loads((ROOT / "tools" / "z80_profile.json").read_text())
    assert data["parts"] == _tool().PARTS
    for table in ("main", "cb", "ed", "dd"):
        weights = {int(k, 16): v for k, v in data[table].items()}
        assert all(0 <= op < 256 and v > 0 for op, v in weights.items())
        assert abs(sum(weights.values()) - data["scale"]) < 300  # rounding only
