"""Fuzzing the keystroke-script parser: random and mutated scripts parse or raise ScriptError.

Scripts are drawn from the commands' own vocabulary with random arguments, joined and mutated
at the byte level (non-UTF-8 bytes included). Short runs in the default suite, long ones under
``-m slow`` (tests/fuzz.py).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz import fuzz_test, mutated
from zxmonopoly.harness.script import ScriptError, parse_script

WORDS = ["game", "rom x.rom", "snapshot s.szx", "tape t.tap real", "symbols m.json", "type p",
         "keyword PRINT", "press CAPS SHIFT+5", "release all", "hold SPACE 3", "tap ENTER",
         "wait 10", "wait input within 50", 'wait for "OK" within 9', "wait for pc 0x38",
         'expect "Buy" at row 21', "expect peek 0x5C3A = 255", "expect peek16 $4000 = 65535",
         "expect state player 1 cash = 1500", "expect state square \"Mayfair\" owner = none",
         "expect state dice = 3,4", "expect state chance = CH01,CH02", "roll 1 6", "seed 77",
         "screenshot a.png", "include other.zxs", "# comment", "", "\u00b2", "0x" + "F" * 20,
         "\x00", "\x1b[2J", "wait 99999999999"]
SEEDS = ["\n".join(WORDS).encode()]

scripts = st.lists(st.sampled_from(WORDS) | st.text(max_size=30), max_size=20).map(
    lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass")) | mutated(SEEDS)


@fuzz_test(scripts)
def _script(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.zxs"
        path.write_bytes(data)
        (Path(tmp) / "other.zxs").write_bytes(data[:200])
        try:
            script = parse_script(path)
        except ScriptError as exc:
            assert str(path) in str(exc)
            return
        assert all(step.line >= 1 for step in script.steps)


test_scripts_raise_only_script_error, test_scripts_long = _script
