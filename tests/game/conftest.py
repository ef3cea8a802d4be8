"""The game's tests: fixtures are in tests/conftest.py (``game``, ``rig``, ``shared_rig``),
helpers in tests/game/helpers.py and screen.py. The scripts (``scripts/*.zxs``) are collected
by our pytest plugin (src/zxmonopoly_pytest.py); the soak's long one is run by
tests/harness/test_watch.py."""

#: The soak's script runs 100,000 frames: test_watch runs it under the slow marker.
collect_ignore_glob = ["soak/*.zxs"]
