"""Fixtures of the Z80 tests: every check runs on the bare CPU's engines and the Spectrum's."""

from __future__ import annotations

import pytest

from tests.z80.engines import Z80_ENGINES


@pytest.fixture(params=Z80_ENGINES)
def z80_engine(request: pytest.FixtureRequest) -> str:
    """Each of the four engines in turn (tests.z80.engines); jit ones skipped without numba.

    Named apart from the top-level ``engine`` (the Spectrum's python and jit only), so that one
    name means one set of engines everywhere.
    """
    from zxmonopoly.z80 import jit_available

    if request.param.endswith("jit") and not jit_available():
        pytest.skip("numba cannot be imported: no jit engine")
    return request.param
