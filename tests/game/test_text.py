"""The game's text (issue 28, item 3): the title centred, the £ never split from its amount,
every message's sentences ended."""

from __future__ import annotations

import pytest

from zxmonopoly.harness.session import Session

COLUMNS = 32


@pytest.fixture(scope="module")
def title() -> Session:
    session = Session.game()
    session.wait_input()
    return session


def test_every_title_line_is_centred(title: Session) -> None:
    lines = [(n, line) for n, line in enumerate(title.lines()) if line.strip()]
    assert len(lines) >= 9
    for n, line in lines:
        text = line.rstrip()
        left = len(text) - len(text.lstrip())
        right = COLUMNS - len(text)
        assert abs(left - right) <= 1, f"row {n} is off-centre ({left} | {right}): {line!r}"
