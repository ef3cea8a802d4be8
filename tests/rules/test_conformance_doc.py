"""docs/rules-conformance.md lists every rule, names only tests that exist, states its coverage."""

from __future__ import annotations

import re

from tests import REPO_ROOT

DOC = REPO_ROOT / "docs" / "rules-conformance.md"
RULES = [f"A{n}" for n in range(1, 70)] + [f"B1.{n}" for n in range(1, 15)]


def _rows() -> dict[str, list[str]]:
    rows = {}
    for line in DOC.read_text("utf-8").splitlines():
        m = re.match(r"\| (A\d+|B1\.\d+) ", line)
        if m:
            rows[m.group(1)] = [c.strip() for c in line.strip("|").split(" | ")]
    return rows


def _tests() -> set[str]:
    names = set()
    for folder in ("rules", "game", "ui"):
        for path in (REPO_ROOT / "tests" / folder).glob("test_*.py"):
            names |= set(re.findall(r"^def (test_\w+)", path.read_text("utf-8"), re.M))
    return names


def test_every_script_named_in_the_doc_exists():
    named = set(re.findall(r"`(\w+\.zxs)`", DOC.read_text("utf-8")))
    scripts = {p.name for p in (REPO_ROOT / "tests" / "game" / "scripts").glob("*.zxs")}
    assert named and not named - scripts, sorted(named - scripts)


def test_every_rule_of_parts_a_and_b1_has_a_row_with_a_game_check():
    rows = _rows()
    assert sorted(rows, key=RULES.index) == RULES
    for rule, cells in rows.items():
        assert len(cells) == 4, rule
        assert cells[3], f"{rule}: no game check entry"
        if cells[2].startswith("—"):
            assert "n/a" in cells[1], f"{rule}: no test and no reason"


def test_every_test_named_in_the_doc_exists():
    text = DOC.read_text("utf-8")
    named = set(re.findall(r"`(test_\w+)`", text))
    assert named and not named - _tests(), sorted(named - _tests())


def test_the_stated_coverage_is_the_real_one():
    rows = _rows()
    covered = sum(1 for cells in rows.values() if "`test_" in cells[2])
    m = re.search(r"\*\*Coverage:\*\* (\d+) of (\d+) rules", DOC.read_text("utf-8"))
    assert m and (int(m.group(1)), int(m.group(2))) == (covered, len(rows))
