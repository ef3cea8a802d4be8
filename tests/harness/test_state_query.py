"""The ``expect state`` language (harness/state_query.py): its fields are game.py's, read by
their types, and its words are game.py's tables."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from zxmonopoly.harness import game, state_query
from zxmonopoly.harness.words import WordError


def _kind(hint: object) -> str:
    """The kind a field of this type is read as (the rule docs/harness.md states)."""
    optional = typing.get_origin(hint) in (typing.Union, __import__("types").UnionType) and \
        type(None) in typing.get_args(hint)
    base = next(a for a in typing.get_args(hint) if a is not type(None)) if optional else hint
    kind = {int: "int", bool: "bool", str: "str", tuple[int, int]: "dice",
            tuple[str, ...]: "cards", game.Rent: "rent", tuple[game.Player, ...]: "count"}[base]
    return kind + "?" if optional and kind != "rent" else kind


CARD_FIELDS = {"last_card", "chance_top", "chest_top"}


@pytest.mark.parametrize("table, record, left_out", [
    (state_query.PLAYER_FIELDS, game.Player, {"number"}),
    (state_query.SQUARE_FIELDS, game.Square, {"index", "name", "ownable"}),
    (state_query.OPTION_FIELDS, game.Options, set()),
    (state_query.GAME_FIELDS, game.GameState, {"squares", "options"})])
def test_state_schema_is_the_dataclass_fields(table, record, left_out) -> None:
    """The fields ``expect state`` reads are the record's (its identity and nested records left
    out), then the properties GameState.DERIVED names, each of the kind its type gives; jail
    cards are packs, a card field one card id or none."""
    hints = typing.get_type_hints(record)
    names = [f.name for f in dataclasses.fields(record) if f.name not in left_out]
    derived = list(getattr(record, "DERIVED", ()))
    assert list(table) == names + derived
    for name in names + derived:
        hint = hints[name] if name in hints else \
            typing.get_type_hints(getattr(record, name).fget)["return"]
        want = "packs" if name == "jail_cards" else "card?" if name in CARD_FIELDS else \
            _kind(hint)
        assert table[name] == want, name


def test_derived_fields_are_properties_of_the_state() -> None:
    """What scripts read beside the fields is worked out by GameState itself."""
    for name in game.GameState.DERIVED:
        assert isinstance(getattr(game.GameState, name), property), name


def test_rent_schema_is_rents_fields_any_of_them_none() -> None:
    """``rent payer/owner/square`` are Rent's number fields, none when no rent is due."""
    numbers = [f.name for f in dataclasses.fields(game.Rent) if str(f.type).startswith("int")
               and f.name != "dice"]
    assert state_query.RENT_FIELDS == {name: "int?" for name in numbers}


def _state() -> game.GameState:
    squares = tuple(game.Square(i, f"S{i}", True, None, 0, False, False) for i in range(40))
    player = game.Player(1, "ANNE", 1500, 0, "GO", False, 0, (), True, "Buyer", "Boot", True,
                         False)
    return game.GameState("playing", (player,), squares, 32, 12, 1, (3, 4), 0, 5,
                          ("CH01", "CH02"), ("CC01",), None, None, False, None,
                          game.Options(False, False, False, False), 100, 7, (0, 0), frames=9)


def test_every_game_field_reads_from_a_state() -> None:
    """Each field of the schema is read from a decoded state; a count as how many."""
    state = _state()
    for name, kind in state_query.GAME_FIELDS.items():
        state_query.StateQuery((name,), "=", None, kind).read(state)
    for name, kind in state_query.PLAYER_FIELDS.items():
        state_query.StateQuery(("player", 1, name), "=", None, kind).read(state)
    assert state_query.StateQuery(("players",), "=", 1, "count").read(state) == 1
    assert state_query.StateQuery(("chance_top",), "=", "CH01", "card?").failure(state) is None
    assert state_query.StateQuery(("total_money",), "=", 1600, "int").failure(state) is None


def _query(text: str) -> state_query.StateQuery:
    return state_query.parse(state_query.tokens(text))


@pytest.mark.parametrize("name", game.PERSONALITIES)
def test_every_personality_of_the_game_is_a_value(name: str) -> None:
    """The values of ``personality`` are game.py's seven (the Buyer too), case ignored."""
    query = _query(f"player 1 personality = {name.lower()}")
    state = _state()
    player = dataclasses.replace(state.players[0], personality=name)
    assert query.failure(dataclasses.replace(state, players=(player,))) is None


def test_the_words_of_text_fields_are_games_tables() -> None:
    """A word that is not in the game's table is refused, listing the table."""
    for text, table in (("player 1 personality = Shy", game.PERSONALITIES),
                        ("player 1 token = Thimble", game.TOKENS), ("phase = lunch", game.PHASES)):
        with pytest.raises(WordError, match="expected one of " + ", ".join(table)):
            _query(text)


def test_a_failed_query_says_what_was_expected_and_found() -> None:
    state = _state()
    assert _query("players > 1").failure(state) == "expected players > 1, got 1"
    assert _query("player 1 personality = Mean").failure(state) == (
        "expected player 1 personality = Mean, got Buyer")
    assert _query("chance_count = 3").failure(state) == "expected chance_count = 3, got 2"
