"""The language of ``expect state``: a path into a :class:`~zxmonopoly.harness.game.GameState`
(``player 1 cash``, ``square Mayfair owner``, ``houses_left``), a comparison and a value.

The fields and their kinds follow from :mod:`zxmonopoly.harness.game`: the dataclasses' fields
(by their types) and ``GameState.DERIVED``, the properties worked out from them; the words a
text field takes are game.py's tables (:data:`~zxmonopoly.harness.game.PERSONALITIES` ...).
:func:`parse` reads the text after ``expect state`` into a :class:`StateQuery` (WordError
when malformed, before anything runs); :meth:`StateQuery.failure` checks one against a state.
The format is in docs/harness.md, *Game state*.
"""

from __future__ import annotations

import re
import typing
from dataclasses import fields
from typing import NamedTuple

from zxmonopoly.harness import game, words
from zxmonopoly.harness.words import WordError
from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST, SQUARES
from zxmonopoly.rules.records import PROPERTY_KINDS

#: Kinds of value (see docs/harness.md): int (numbers, every comparison), int? (a number or
#: none), bool (yes/no), str / str? (a word or "quoted", case ignored), dice (3,4), cards
#: (CH01,CH02,..), card? (one card id or none), packs (chance,chest or a count), rent (none
#: only), count (a tuple of records, read as how many). A field's kind follows from its type.
_KIND_OF_TYPE: dict[object, str] = {
    int: "int", int | None: "int?", bool: "bool", str: "str", str | None: "str?",
    tuple[int, int]: "dice", tuple[str, ...]: "cards", game.Rent | None: "rent",
    tuple[game.Player, ...]: "count"}
#: Fields whose type alone does not say how scripts read them.
_KIND_OVERRIDES = {"jail_cards": "packs",  # the packs the cards came from, not card ids
                   "last_card": "card?", "chance_top": "card?", "chest_top": "card?"}
#: Other spellings accepted (words joined by _).
FIELD_ALIASES = {"current_player": "current", "last_dice": "dice", "bank_houses": "houses_left",
                 "bank_hotels": "hotels_left", "get_out_of_jail_free_cards": "jail_cards"}
#: The words a text field takes (case ignored), from game.py's tables.
_FIELD_VALUES = {("player", "personality"): game.PERSONALITIES, ("player", "token"): game.TOKENS,
                 ("phase",): game.PHASES}
_CARD_IDS = frozenset(card.id for card in CHANCE + COMMUNITY_CHEST)
_PACKS = ("chance", "chest")
_TOKEN = re.compile(r"\s*(?:" + words.QUOTED + "|("
                    + "|".join(map(re.escape, sorted(words.COMPARISONS, key=len, reverse=True)))
                    + r')|([^\s"=<>!]+))')


def _kind(name: str, hint: object, optional: bool) -> str:
    kind = _KIND_OVERRIDES.get(name) or _KIND_OF_TYPE[hint]
    return kind + "?" if optional and not kind.endswith("?") else kind


def _schema(record: type, skip: tuple[str, ...] = (), optional: bool = False,
            derived: tuple[str, ...] = ()) -> dict[str, str]:
    """The readable fields of a game dataclass and their kinds, then its ``derived``
    properties' (``optional``: all may be none, as a record that may be absent)."""
    hints = typing.get_type_hints(record)
    table = {f.name: _kind(f.name, hints[f.name], optional) for f in fields(record)
             if f.name not in skip}
    for name in derived:
        hint = typing.get_type_hints(getattr(record, name).fget)["return"]
        table[name] = _kind(name, hint, optional)
    return table


PLAYER_FIELDS = _schema(game.Player, skip=("number",))
SQUARE_FIELDS = _schema(game.Square, skip=("index", "name", "ownable"))
RENT_FIELDS = _schema(game.Rent, skip=("square_name", "dice"), optional=True)  # no rent: none
OPTION_FIELDS = _schema(game.Options)
GAME_FIELDS = _schema(game.GameState, skip=("squares", "options"),
                      derived=game.GameState.DERIVED)


class StateQuery(NamedTuple):
    """One ``expect state``: the path (``("player", 1, "cash")``), the comparison, the value
    to compare with and the field's kind."""

    path: tuple
    op: str
    value: object
    kind: str

    @property
    def label(self) -> str:
        """The path as scripts write it: ``player 1 cash``."""
        return label(self.path)

    def read(self, state: game.GameState) -> object:
        """The value at the path in ``state``, a count field as how many (HarnessError for a
        player not in the game)."""
        value = state_value(state, self.path)
        return len(value) if self.kind == "count" else value  # type: ignore[arg-type]

    def failure(self, state: game.GameState) -> str | None:
        """None when the expectation holds of ``state``, else what was expected and found
        (HarnessError when the path cannot be read)."""
        got = self.read(state)
        compared, wanted = got, self.value
        if self.kind == "packs":
            compared = len(got) if isinstance(wanted, int) else tuple(sorted(got))
        elif self.kind in ("str", "str?"):
            compared = got.casefold() if isinstance(got, str) else got
            wanted = wanted.casefold() if isinstance(wanted, str) else wanted
        if compared is None and self.op not in words.EQUALITIES:
            ok = False
        else:
            ok = words.COMPARISONS[self.op](compared, wanted)
        if ok:
            return None
        count = (f" ({len(got)} card(s))" if self.kind == "packs" and isinstance(wanted, int)
                 else "")
        return f"expected {self.label} {self.op} {shown(self.value)}, got {shown(got)}{count}"


def label(path: tuple) -> str:
    """A state path written as in scripts: ('player', 1, 'cash') -> 'player 1 cash'."""
    return " ".join(str(part) for part in path)


def state_value(state: game.GameState, path: tuple) -> object:
    """The value at a script's state path in a decoded GameState (HarnessError for a player
    not in the game); a count field (``players``) gives its records."""
    head = path[0]
    if head == "player":
        return getattr(state.player(path[1]), path[2])
    if head == "square":
        return getattr(state.squares[path[1]], path[2])
    if head == "rent":
        return None if state.rent is None else getattr(state.rent, path[1])
    if head == "option":
        return getattr(state.options, path[1])
    return getattr(state, head)


def shown(value: object) -> str:
    """A state value as scripts write it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) if value else "none"
    if isinstance(value, str) and (not value or " " in value):
        return words.quote(value)
    return str(value)


# -- parsing ----------------------------------------------------------------------------------


def tokens(text: str) -> list[tuple[str, str]]:
    """Split an expectation into ("q", quoted text), ("op", comparison) and ("w", word)."""
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise WordError(f"cannot read {text[pos:].strip()!r} (a lone '!' or an unclosed "
                            "quote?)")
        if m.group(1) is not None:
            out.append(("q", words.unquote(m.group(1))))
        elif m.group(2) is not None:
            out.append(("op", m.group(2)))
        else:
            out.append(("w", m.group(3)))
        pos = m.end()
    return out


def _field(names: list[str], table: dict[str, str], what: str) -> str:
    """A field name (words joined by _, aliases resolved) checked against ``table``."""
    name = "_".join(w.lower() for w in names)
    name = FIELD_ALIASES.get(name, name)
    if name not in table:
        raise WordError(f"unknown {what} field {' '.join(names).lower()!r}; known: "
                        f"{', '.join(table)}")
    return name


def _path(toks: list[tuple[str, str]]) -> tuple[tuple, str]:
    """The path (``player 1 cash`` -> ("player", 1, "cash")) and its kind."""
    names = [text for _, text in toks]
    if not names:
        raise WordError("expected a game-state name before the comparison, e.g. "
                        "'player 1 cash', 'square Mayfair owner', 'houses_left'")
    head = names[0].lower()
    if head == "player":
        if len(names) < 3:
            raise WordError("expected 'player N FIELD', e.g. 'player 1 cash'")
        number = words.player(names[1])
        name = _field(names[2:], PLAYER_FIELDS, "player")
        return ("player", number, name), PLAYER_FIELDS[name]
    if head == "square":
        if len(names) < 3:
            raise WordError("expected 'square NAME FIELD' or 'square INDEX FIELD', e.g. "
                            "'square \"Mayfair\" owner' or 'square 39 houses'")
        name = _field(names[-1:], SQUARE_FIELDS, "square")
        index = words.square(" ".join(names[1:-1]))
        if SQUARES[index].kind not in PROPERTY_KINDS:
            raise WordError(f"square {index} ({SQUARES[index].name}) cannot be owned: it has "
                            f"no {name}")
        return ("square", index, name), SQUARE_FIELDS[name]
    if head == "rent" and len(names) > 1:
        name = _field(names[1:], RENT_FIELDS, "rent")
        return ("rent", name), RENT_FIELDS[name]
    if head in ("option", "options"):
        name = _field(names[1:], OPTION_FIELDS, "option")
        return ("option", name), OPTION_FIELDS[name]
    name = "_".join(w.lower() for w in names)
    name = FIELD_ALIASES.get(name, name)
    if name not in GAME_FIELDS:
        raise WordError(f"unknown game state {' '.join(names).lower()!r}; expected 'player N "
                        "FIELD', 'square NAME FIELD', 'rent FIELD', 'option NAME' or one of "
                        f"{', '.join(GAME_FIELDS)}")
    return (name,), GAME_FIELDS[name]


def _cards(text: str) -> tuple[str, ...]:
    """Card ids (``CH01,CC14``), each checked."""
    ids = tuple(c.upper() for c in re.split(r"[,\s]+", text.strip()) if c)
    bad = [c for c in ids if c not in _CARD_IDS]
    if bad or not ids:
        raise WordError(f"unknown card {(bad or [text])[0]!r}; cards are CH01-CH16 and "
                        "CC01-CC16")
    return ids


def _value(path: tuple, kind: str, token: tuple[str, str]) -> object:
    """The value to compare with, read by the field's kind."""
    quoted, text = token[0] == "q", token[1]
    low = text.lower()
    if low == "none" and not quoted and (kind.endswith("?") or kind in ("rent", "packs")):
        return () if kind == "packs" else None
    if kind == "rent":
        raise WordError(f"'rent' compares only with none (no rent due), got {text!r}; use "
                        "'rent payer', 'rent owner' or 'rent square' for more")
    if kind.startswith("int") or kind == "count":
        return words.number(text, "a number" + (" or none" if kind == "int?" else ""),
                            pounds=True)
    if kind == "bool":
        if low in ("yes", "true", "on"):
            return True
        if low in ("no", "false", "off"):
            return False
        raise WordError(f"expected yes or no, got {text!r}")
    if kind == "dice":
        faces = [f for f in re.split(r"[,\s+]+", text.strip()) if f]
        if len(faces) != 2 or not all(f in ("0", "1", "2", "3", "4", "5", "6") for f in faces):
            raise WordError(f"expected two dice like 3,4 (0,0 before any throw), got {text!r}")
        return (int(faces[0]), int(faces[1]))
    if kind == "packs":
        if words.is_number(text):
            return words.number(text, "a count of cards")
        packs = tuple(sorted({p.lower() for p in re.split(r"[,\s]+", text.strip()) if p}))
        if not packs or not set(packs) <= set(_PACKS):
            raise WordError("expected a count or the packs (chance, chest, chance,chest or "
                            f"none), got {text!r}")
        return packs
    if kind == "cards":
        return _cards(text)
    if kind == "card?":
        ids = _cards(text)
        if len(ids) != 1:
            raise WordError(f"expected one card id, got {text!r}")
        return ids[0]
    allowed = _FIELD_VALUES.get((path[0], path[2]) if path[0] == "player" else path)
    if allowed and low not in (a.lower() for a in allowed):
        raise WordError(f"expected one of {', '.join(allowed)}, got {text!r}")
    return text


def parse(toks: list[tuple[str, str]]) -> StateQuery:
    """``PATH OP VALUE`` (as :func:`tokens` split it) -> a StateQuery; WordError when
    malformed."""
    ops = [i for i, (kind, _) in enumerate(toks) if kind == "op"]
    if len(ops) != 1:
        raise WordError("expected one comparison (=, !=, <, <=, >, >=) in 'expect state NAME "
                        "OP VALUE'")
    at = ops[0]
    path, kind = _path(toks[:at])
    op = toks[at][1]
    value_tokens = toks[at + 1:]
    if len(value_tokens) != 1:
        written = " ".join(text for _, text in value_tokens)
        raise WordError(f"expected one value after '{op}', got {written!r} (quote text with "
                        'spaces: "Park Lane")')
    if op not in words.EQUALITIES and kind not in ("int", "int?", "count") and not (
            kind == "packs" and words.is_number(value_tokens[0][1])):
        raise WordError(f"'{op}' compares numbers; {label(path)} takes only = or !=")
    value = _value(path, kind, value_tokens[0])
    if value is None and op not in words.EQUALITIES:
        raise WordError(f"'{op} none' compares nothing; use = none or != none")
    return StateQuery(path, op, value, kind)


__all__ = ["FIELD_ALIASES", "GAME_FIELDS", "OPTION_FIELDS", "PLAYER_FIELDS", "RENT_FIELDS",
           "SQUARE_FIELDS", "StateQuery", "label", "parse", "shown", "state_value", "tokens"]
