"""Tests of the script command registry: every command documented, every op run."""

from __future__ import annotations

from pathlib import Path

import pytest

from zxmonopoly.harness import script
from zxmonopoly.harness.words import WordError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "harness.md"


def test_every_command_has_a_doc_line_and_is_in_the_docs() -> None:
    """Each registered command has a one-line doc and each of its forms is in docs/harness.md."""
    docs = DOCS.read_text(encoding="utf-8").replace("\\|", "|")  # table cells escape '|'
    for name, command in script.COMMANDS.items():
        assert command.name == name
        assert command.doc.strip() and "\n" not in command.doc, name
        assert command.syntax, name
        for form in command.syntax:
            assert form.split()[0] == (command.shown or name), form
            assert f"`{form}`" in docs, f"{form!r} is not in docs/harness.md's command lists"


def test_every_op_a_command_makes_has_a_runner() -> None:
    """The ops of the commands that run (all but headers and include) each have a runner."""
    ops = {op for c in script.COMMANDS.values() if c.run for op in c.ops or (c.name,)}
    assert ops == set(script._RUNNERS)
    assert {c.name for c in script.COMMANDS.values() if c.run is None} == {
        *script.HEADERS, "include"}


@pytest.mark.parametrize("line", ["frobnicate 3", "snapshot_save"])
def test_unknown_command_lists_the_registry(line: str) -> None:
    """An unknown first word names every command a script may use (not the headers)."""
    with pytest.raises(WordError) as err:
        script._parse_line(line)
    if line.startswith("frob"):
        listed = str(err.value).split("expected one of: ")[1].split(", ")
        assert listed == [c.shown or c.name for c in script.COMMANDS.values() if not c.header]
        assert "snapshot" in listed and "game" not in listed
    else:
        assert str(err.value) == "expected 'snapshot_save FILE'"
