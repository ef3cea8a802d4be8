"""Fixtures shared by all tests."""

from __future__ import annotations

import os
from importlib.metadata import entry_points

import pytest

from tests import REPO_ROOT

# One numba cache for every pytest process (xdist workers included): the jit engine is compiled
# once and then loaded from the cache. Must be set before numba is imported. .ci/run sets it too.
os.environ.setdefault("NUMBA_CACHE_DIR", str(REPO_ROOT / ".numba_cache"))

ENGINES = ("python", "jit")

# Our scripts are collected by our own pytest plugin, which an install registers (the pytest11
# entry point). An install made before the entry point existed lacks it: load it by module
# (then `-p no:zxmonopoly_pytest` is the name that turns it off).
if not entry_points(group="pytest11", name="zxmonopoly"):
    pytest_plugins = ["zxmonopoly_pytest"]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """Each Z80 engine in turn; jit is skipped where numba cannot be imported."""
    from zxmonopoly.z80 import jit_available

    if request.param == "jit" and not jit_available():
        pytest.skip("numba cannot be imported: no jit engine")
    return request.param


@pytest.fixture
def game():
    """The bundled game at its title screen, waiting for a key (python engine): a
    :meth:`~zxmonopoly.harness.Session.game` started from the once-per-process snapshot."""
    from zxmonopoly.harness import Session

    return Session.game(engine="python")


@pytest.fixture
def rig():
    """A fresh :class:`~zxmonopoly.harness.rig.GameRig` (python engine): the game's code in RAM,
    its state block cleared, routines callable by name."""
    from zxmonopoly.harness.rig import GameRig

    return GameRig(engine="python")


@pytest.fixture(scope="module")
def shared_rig():
    """One :class:`~zxmonopoly.harness.rig.GameRig` for a whole module (the default engine):
    each test sets up its own position on it (``tests.game.helpers.Game`` clears the block).
    Not named ``machine``: that is a Spectrum48 (tests/roms/conftest.py, ``rig.machine``)."""
    from zxmonopoly.harness.rig import GameRig

    return GameRig()
