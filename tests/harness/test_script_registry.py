"""Tests of the script command registry (every command documented) and of the ``expect
state`` schema (derived from the harness's GameState)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from zxmonopoly.harness import game, script

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
    with pytest.raises(script._Problem) as err:
        script._parse_line(line)
    if line.startswith("frob"):
        listed = str(err.value).split("expected one of: ")[1].split(", ")
        assert listed == [c.shown or c.name for c in script.COMMANDS.values() if not c.header]
        assert "snapshot" in listed and "game" not in listed
    else:
        assert str(err.value) == "expected 'snapshot_save FILE'"


def _kind(annotation: str) -> str:
    """The kind a field of this annotation is read as (the rule docs/harness.md states)."""
    optional = annotation.endswith(" | None")
    base = annotation.removesuffix(" | None")
    kind = {"int": "int", "bool": "bool", "str": "str", "tuple[int, int]": "dice",
            "tuple[str, ...]": "cards", "Rent": "rent", "tuple[Player, ...]": "int"}[base]
    return kind + "?" if optional and kind not in ("rent",) else kind


@pytest.mark.parametrize("table, record, left_out, extra", [
    (script.PLAYER_FIELDS, game.Player, {"number"}, {}),
    (script.SQUARE_FIELDS, game.Square, {"index", "name", "ownable"}, {}),
    (script.OPTION_FIELDS, game.Options, set(), {}),
    (script.GAME_FIELDS, game.GameState, {"squares", "options"},
     {"chance_count": "int", "chest_count": "int", "chance_top": "str?", "chest_top": "str?",
      "total_money": "int"})])
def test_state_schema_is_the_dataclass_fields(table, record, left_out, extra) -> None:
    """The fields ``expect state`` reads are the record's (its identity and nested records left
    out, worked-out values added), each of the kind its type gives; jail cards are packs."""
    fields = [f for f in dataclasses.fields(record) if f.name not in left_out]
    assert list(table) == [f.name for f in fields] + list(extra)
    for f in fields:
        want = "packs" if f.name == "jail_cards" else _kind(str(f.type))
        assert table[f.name] == want, f.name
    for name, kind in extra.items():
        assert table[name] == kind


def test_rent_schema_is_rents_fields_any_of_them_none() -> None:
    """``rent payer/owner/square`` are Rent's number fields, none when no rent is due."""
    numbers = [f.name for f in dataclasses.fields(game.Rent) if str(f.type).startswith("int")
               and f.name != "dice"]
    assert script.RENT_FIELDS == {name: "int?" for name in numbers}


def test_every_game_field_reads_from_a_state() -> None:
    """Each game-level field of the schema is read by state_value from a decoded state."""
    squares = tuple(game.Square(i, f"S{i}", True, None, 0, False, False) for i in range(40))
    player = game.Player(1, "ANNE", 1500, 0, "GO", False, 0, (), False, None, "Boot", True,
                         False)
    state = game.GameState("playing", (player,), squares, 32, 12, 1, (3, 4), 0, 5,
                           ("CH01", "CH02"), ("CC01",), None, None, False, None,
                           game.Options(False, False, False), 100, 7, (0, 0), frames=9)
    for name in script.GAME_FIELDS:
        script.state_value(state, (name,))
    assert script.state_value(state, ("players",)) == 1
    assert script.state_value(state, ("chance_top",)) == "CH01"
    for name in script.PLAYER_FIELDS:
        script.state_value(state, ("player", 1, name))
