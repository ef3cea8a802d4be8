"""ai.asm's ai_personalities, read field by field through the symbol map's AI_* offsets, is the
table docs/game.md gives: the documented weights and the computer players cannot drift apart."""

from __future__ import annotations

import re

import pytest

from tests import REPO_ROOT
from zxmonopoly.harness.game import PERSONALITY_SYMBOLS
from zxmonopoly.harness.rig import game_code, game_symbols

#: The docs table's columns after the name, as the fields of a row.
COLUMNS = ("AI_RESERVE", "AI_BID_PERCENT", "AI_SET_PERCENT", "AI_JAIL_TURNS", "AI_TAKE_CHANCE",
           "AI_BUILD_RESERVE", "AI_BUILD_MAX", "AI_TRADE_MARGIN", "AI_OFFER_PERCENT")
WORD_FIELDS = frozenset({"AI_RESERVE", "AI_BUILD_RESERVE"})
HEADER = "| personality | cash reserve |"


def docs_rows() -> dict[str, list[str]]:
    """The personalities table of docs/game.md: its cells by personality name."""
    lines = (REPO_ROOT / "docs" / "game.md").read_text(encoding="utf-8").splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(HEADER))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].split(" (")[0]] = cells[1:]
    return rows


def documented(field: str, cell: str, symbols) -> int:
    """The byte or word a docs cell stands for."""
    words = {"fine": 0, "Chance": 1, "—": 0, "hotel": symbols["SQ_HOTEL"], "never builds": 0,
             "never trades": symbols["AI_NEVER_TRADES"], "never proposes": 0}
    if cell in words:
        return words[cell]
    m = re.match(r"£?(\d+)", cell)
    assert m, f"{field}: {cell!r} is not a figure"
    return int(m.group(1))


def stored(code: bytes, start: int, symbols, personality: str, field: str) -> int:
    """One field of one row of ai_personalities in the built image."""
    at = (symbols["ai_personalities"] + symbols[personality] * symbols["AI_RECORD"]
          + symbols[field] - start)
    size = 2 if field in WORD_FIELDS else 1
    return int.from_bytes(code[at:at + size], "little")


@pytest.mark.parametrize(("personality", "name"), PERSONALITY_SYMBOLS.items())
def test_a_row_is_the_documented_one(personality: str, name: str) -> None:
    symbols = game_symbols()
    start, code = game_code()
    cells = docs_rows()[name]
    assert len(cells) == len(COLUMNS)
    for field, cell in zip(COLUMNS, cells, strict=True):
        assert stored(code, start, symbols, personality, field) == \
            documented(field, cell, symbols), f"{name}: {field} is not {cell!r}"


def test_every_row_is_documented() -> None:
    symbols = game_symbols()
    assert len(docs_rows()) == symbols["AI_PERSONALITIES"] == len(PERSONALITY_SYMBOLS)
