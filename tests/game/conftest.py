"""The fixture ``game`` (the bundled game at its title); ``rig`` and ``shared_rig`` are in
tests/conftest.py. The scripts (``scripts/*.zxs``) are collected by our pytest plugin
(src/zxmonopoly_pytest.py), the soak's long one is run by tests/harness/test_watch.py."""

from __future__ import annotations

import pytest


@pytest.fixture
def game():
    """The bundled game at its title screen, waiting for a key (python engine): a
    :meth:`~zxmonopoly.harness.Session.game` started from the once-per-process snapshot."""
    from zxmonopoly.harness import Session

    return Session.game(engine="python")


#: The soak's script runs 100,000 frames: test_watch runs it under the slow marker.
collect_ignore_glob = ["soak/*.zxs"]
