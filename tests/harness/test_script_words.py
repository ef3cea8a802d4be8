"""Hostile words in every script command: Unicode digits (``²``, ``٣``), other scripts'
numerals (``Ⅻ``, ``½``) and symbols, where the harness's words (numbers, players, squares,
comparisons) are read. Each gives the harness's own error with ``file:line`` - never a
ValueError from ``int()`` or a traceback (issue 27: ``str.isdigit()`` is true for ``²``).
"""

from __future__ import annotations

import io
import re
import tempfile
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zxmonopoly.harness.script import COMMANDS, ScriptError, parse_script

#: Digits, numerals and symbols that are not ASCII (and the ASCII symbols among them).
_CHARS = st.characters(categories=("Nd", "Nl", "No", "Sm", "Sc", "Sk", "So"))
#: Hand-picked words: each was (or could have been) read as a number by ``isdigit``/``int``.
KNOWN = ["²", "٣", "໓", "१२", "𝟘", "Ⅻ", "½", "0x٣", "$²", "£²", "1²", "²1", "0x²F", "=²"]
hostile = st.one_of(
    st.sampled_from(KNOWN),
    st.text(_CHARS, min_size=1, max_size=4),
    st.tuples(st.sampled_from(["", "0x", "$", "£", "1", "0"]),
              st.text(_CHARS, min_size=1, max_size=3)).map("".join))
#: A slot gets a hostile word or, now and then, a good one, so later slots are reached too.
slot = hostile | st.sampled_from(["1", "39", "0x27", "$2", "Mayfair", "chance", "CH01"])

_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z0-9]*\b")
_CHOICE = re.compile(r"[^\s|]+(?:\|[^\s|]+)+")


def _template(form: str) -> str:
    """A command's syntax form (as docs/harness.md writes it) as a line with ``{}`` at each
    placeholder: optional parts kept, the last of alternatives taken, ellipses dropped."""
    line = form.replace("[+", "+")
    for mark in ("[", "]", "…", "..."):
        line = line.replace(mark, " ")
    line = _CHOICE.sub(lambda m: m.group().split("|")[-1], line)
    line = _PLACEHOLDER.sub("{}", line)
    return " ".join(line.split())


#: Every form of every command, then the nested languages' paths (state, watch, position).
TEMPLATES = sorted({_template(form) for command in COMMANDS.values()
                    for form in command.syntax}) + [
    "expect state square {} owner = 1", "expect state player {} cash = 1",
    "expect state player 1 cash {} 1", "expect state player 1 cash = {}",
    "expect state dice = {},{}", "expect state player 1 jail_cards = {}",
    "expect state chance = {},{}", "expect state last_card = {}",
    "expect state player 1 personality = {}", "expect state square {} {} houses = 1",
    "expect peek {} = {}", "expect peek16 v_x = {}", 'expect "x" at row {}',
    "watch {} {} {}", "watch word v_x in {}..{}", "watch v_x {} {}", "watch pc in {}..{}",
    "watch sp in {}..{}", "unwatch v_x {} {}", "monkey {} seed {}",
    "own {}, {} by {} {} houses", 'own "{}" by 1 hotel', "cash {} = {}", "at {} {}",
    "jail {} turns {}", "jail cards {} = {}", "free {}", "next chest {}", "turn {}",
    "wait {} within {}", "wait for pc {} within {}", "tap ENTER {}", "hold SPACE {}",
    "roll {} {}", "seed {}"]


def test_every_command_is_fed() -> None:
    """Each command of the registry has a template here (a new command gets fed too)."""
    named = {t.split()[0] for t in TEMPLATES}
    assert {c.shown or c.name for c in COMMANDS.values()} <= named


def _check(template: str, fill: list[str]) -> None:
    """The line parses, or the one error is a ScriptError naming file:line."""
    line = template.format(*fill[:template.count("{}")])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.zxs"
        path.write_text(f"wait 1\n{line}\n", encoding="utf-8")
        try:
            parse_script(path)
        except ScriptError as exc:
            assert f"{path}:2: " in str(exc), str(exc)


_HEALTH = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


@pytest.mark.parametrize("template", TEMPLATES)
@settings(max_examples=12, deadline=None, suppress_health_check=_HEALTH)
@given(fill=st.lists(slot, min_size=4, max_size=4))
def test_hostile_words_give_a_script_error(template: str, fill: list[str]) -> None:
    _check(template, fill)


@pytest.mark.slow
@settings(max_examples=5_000, deadline=None, suppress_health_check=_HEALTH)
@given(template=st.sampled_from(TEMPLATES), fill=st.lists(slot, min_size=4, max_size=4))
def test_hostile_words_long(template: str, fill: list[str]) -> None:
    _check(template, fill)


@pytest.mark.parametrize("line, message", [
    ("expect state square ² owner = 1", "no square '²' on the board"),
    ("expect state player ² cash = 1", "the player number is 1-6, got '²'"),
    ("expect state square 0x2 owner = 1", "square 2 (Community Chest) cannot be owned"),
    ("watch v_houses_left < ²", "expected a value that fits in a byte (0-255) (decimal, 0x.. "
     "or $..), got '²'"),
    ("watch pc in ²..0x4000", "expected an address or symbol name, got '²'"),
    ("watch v_houses_left ≤ 3", "expected a comparison (= == != < <= > >=), got '≤'"),
    ("monkey ² seed 1", "expected a number of frames (decimal, 0x.. or $..), got '²'"),
    ("monkey 1000001 seed 1", "1,000,001 frames is more than a step may run"),
    ("cash 1 = £٣", "expected an amount of pounds (decimal, 0x.. or $..), got '٣'"),
    ("own ² by 1", "no square '²' on the board"),
    ("jail 1 turns ²", "expected a number of jail turns (0-2)"),
    ("turn ²", "the player number is 1-6, got '²'"),
    ("wait ²", "expected a number of frames"),
])
def test_zxmonopoly_script_names_the_line(tmp_path: Path, line: str, message: str) -> None:
    """``zxmonopoly script`` on such a line prints ``file:line: message`` and fails, with no
    traceback (on the old code the first three raised ValueError out of the command)."""
    from zxmonopoly import cli

    path = tmp_path / "t.zxs"
    path.write_text(f"game\nwait 1\n{line}\n", encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        status = cli.main(["script", str(path)])
    assert status == 1
    text = out.getvalue()
    assert f"{path}:3: {message}" in text, text
    assert "Traceback" not in text
