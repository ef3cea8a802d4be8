"""``bench --browser`` measured once, small: a host with pages watching (Python pages in a
process of their own) gives a row whose counts add up; the codec's offline rows of a game."""

from __future__ import annotations

import pytest

from zxmonopoly import bench_browser


def test_the_browser_bench_measures_a_host_with_pages_watching(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_browser, "PAGES", 2)
    row = bench_browser.host_row("python", 1.0, chromium=False)
    assert row.what == "2 Python pages"
    assert row.frames > 0 and len(row.screens) == 2
    assert all(count > 0 for count in row.screens)
    assert row.skipped == 0
