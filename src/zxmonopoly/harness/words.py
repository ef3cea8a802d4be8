"""The harness's words, read in one place: numbers, frame counts, addresses, players, squares,
comparisons and quoted text, for scripts, watches and positions alike.

Each reader takes one word as written and gives its value or raises :class:`WordError`
naming what was expected; a script adds its ``file:line`` (docs/harness.md, *Bad input*).
Numbers are ASCII only: ``str.isdigit()`` and ``int()`` also take ``²`` or ``٣``, so they are
never used on a word before :func:`number` has matched it.
"""

from __future__ import annotations

import difflib
import operator
import re
from collections.abc import Callable
from functools import cache

from zxmonopoly import images
from zxmonopoly.harness.errors import HarnessError
from zxmonopoly.rules.data import SQUARES

#: Numbers are written in at most this many characters (a 32-bit value in decimal is 10).
MAX_NUMBER_CHARS = 12
#: The most frames one step may run (``wait``, ``hold``, ``tap``, ``within``, ``monkey``):
#: about 5.5 hours of Spectrum time, far more than any game takes.
MAX_FRAMES = 1_000_000
#: The comparisons, by how they are written (``==`` is another spelling of ``=``).
COMPARISONS: dict[str, Callable[[object, object], bool]] = {
    "=": operator.eq, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge}
#: Comparisons that say equal or not, which every kind of value takes (the others want
#: numbers).
EQUALITIES = ("=", "==", "!=")
#: A "quoted" string's body: ``\"`` a quote, ``\\`` a backslash (any ``\x`` is ``x``).
QUOTED = r'"((?:[^"\\]|\\.)*)"'

_NUMBER = re.compile(r"(?:0x[0-9a-f]+|\$[0-9a-f]+|[0-9]+)\Z", re.IGNORECASE | re.ASCII)
_SYMBOL = re.compile(r"[A-Za-z_.][A-Za-z0-9_.]*\Z")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


class WordError(HarnessError, ValueError):
    """A word that does not read as what its place wants; the message says what was expected
    (a script adds ``file:line``). A HarnessError, as every failure of the harness is."""


def is_number(word: str) -> bool:
    """Whether ``word`` is written as a number (decimal, ``0x..`` or ``$..``, ASCII digits)."""
    return _NUMBER.match(word) is not None


def number(word: str, what: str = "a number", *, pounds: bool = False) -> int:
    """A decimal, ``0x..`` or ``$..`` number of ASCII digits, at most
    :data:`MAX_NUMBER_CHARS` characters (``pounds``: a ``£`` may lead)."""
    if pounds and word.startswith("£"):
        word = word[1:]
    if len(word) > MAX_NUMBER_CHARS:
        raise WordError(f"expected {what}, got a number of {len(word):,} characters "
                        f"({word[:12]!r}...): at most {MAX_NUMBER_CHARS}")
    if not _NUMBER.match(word):
        raise WordError(f"expected {what} (decimal, 0x.. or $..), got {word!r}")
    if word[:2].lower() == "0x":
        return int(word[2:], 16)
    if word.startswith("$"):
        return int(word[1:], 16)
    return int(word)


def frames(word: str) -> int:
    """A frame count: a number up to :data:`MAX_FRAMES`."""
    value = number(word, "a number of frames")
    if value > MAX_FRAMES:
        raise WordError(f"{value:,} frames is more than a step may run ({MAX_FRAMES:,}, about "
                        "5.5 hours)")
    return value


def is_symbol(word: str) -> bool:
    """Whether ``word`` is written as a symbol name of the map (``v_houses_left``)."""
    return _SYMBOL.match(word) is not None


def address(word: str) -> int | str:
    """An address: a number up to 0xFFFF, or a symbol name (resolved when running)."""
    if is_number(word):
        value = number(word, "an address")
        if value > 0xFFFF:
            raise WordError(f"address {word} is beyond 0xFFFF")
        return value
    if is_symbol(word):
        return word
    raise WordError(f"expected an address or symbol name, got {word!r}")


@cache
def max_players() -> int:
    """Players are numbered 1 to this, as on the screen: the game's own count, its symbol
    ``MAX_PLAYERS`` (the game owns it; the harness reads it from the shipped symbol map)."""
    return images.game_symbols()["MAX_PLAYERS"]


def player(word: str) -> int:
    """A player number, 1 to :func:`max_players`."""
    top = max_players()
    what = f"the player number (1-{top})"
    value = number(word, what) if is_number(word) else None
    if value is None or not 1 <= value <= top:
        raise WordError(f"the player number is 1-{top}, got {word!r}")
    return value


def comparison(word: str) -> str:
    """One of :data:`COMPARISONS`, as written."""
    if word not in COMPARISONS:
        raise WordError(f"expected a comparison ({' '.join(COMPARISONS)}), got {word!r}")
    return word


def unquote(body: str) -> str:
    """A quoted string's body (:data:`QUOTED`'s group) with its escapes undone."""
    return _ESCAPE.sub(r"\1", body)


def quote(text: str) -> str:
    """``text`` in double quotes, escaped so that :func:`unquote` gives it back."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _normal(name: str) -> str:
    """A square name for matching: lower case, letters, digits and single spaces."""
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", name.lower().replace("'", "")).split())


def square(which: int | str) -> int:
    """A board index (0-39) from an index, a number as written, or a square's name (full or
    short, case and punctuation ignored, or a unique part of one)."""
    if isinstance(which, str) and is_number(which.strip()):
        which = number(which.strip(), "a board index (0-39)")
    if isinstance(which, int):
        if not 0 <= which < len(SQUARES):
            raise WordError(f"square {which} is not on the board (0..39)")
        return which
    key = _normal(which)
    exact = {sq.index for sq in SQUARES if key in (_normal(sq.name), _normal(sq.short))}
    if not exact:
        exact = {sq.index for sq in SQUARES
                 if key and (key in _normal(sq.name) or key in _normal(sq.short))}
    if len(exact) == 1:
        return exact.pop()
    if exact:
        listed = ", ".join(f"{i} ({SQUARES[i].name})" for i in sorted(exact))
        raise WordError(f"square {which!r} is ambiguous: {listed}; give the index")
    close = difflib.get_close_matches(which, [sq.name for sq in SQUARES], 3, 0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise WordError(f"no square {which!r} on the board{hint}")


__all__ = ["COMPARISONS", "EQUALITIES", "MAX_FRAMES", "MAX_NUMBER_CHARS", "max_players",
           "QUOTED", "WordError", "address", "comparison", "frames", "is_number", "is_symbol",
           "number", "player", "quote", "square", "unquote"]
