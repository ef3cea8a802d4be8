"""Fixtures shared by all tests."""

from __future__ import annotations

import os

import pytest

from tests import REPO_ROOT

# One numba cache for every pytest process (xdist workers included): the jit engine is compiled
# once and then loaded from the cache. Must be set before numba is imported. .ci/run sets it too.
os.environ.setdefault("NUMBA_CACHE_DIR", str(REPO_ROOT / ".numba_cache"))

ENGINES = ("python", "jit")


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """Each Z80 engine in turn; jit is skipped where numba cannot be imported."""
    from zxmonopoly.z80 import jit_available

    if request.param == "jit" and not jit_available():
        pytest.skip("numba cannot be imported: no jit engine")
    return request.param

