"""Assembler source for the game's data tables, made from the same data as the rules model.

The board: one record of BOARD_RECORD bytes per square (field offsets BOARD_*), the colour
groups, and the square names. The cards: one record of CARD_RECORD bytes per card (CARD_*)
for each pack, and their texts. Text is ASCII with the pound sign as 60h (the Spectrum's
character set) and a 0 terminator (DZ).
"""

from __future__ import annotations

from . import data
from .data import CHANCE, COMMUNITY_CHEST, GROUPS, SQUARES, STATIONS, UTILITIES
from .records import Card, Effect, Kind

POUND = 0x60
"""The pound sign's code in the Spectrum character set."""

KIND_CODES = {kind: code for code, kind in enumerate(Kind)}
EFFECT_CODES = {effect: code for code, effect in enumerate(Effect)}
GROUP_CODES = {name: code for code, name in enumerate(GROUPS)}
GROUP_STATIONS = len(GROUPS)
GROUP_UTILITIES = len(GROUPS) + 1
GROUP_NONE = 0xFF
GROUP_SLOTS = 4
"""Sites per record of the ``board_groups`` table: the stations' four, so that every record
has the same size (a smaller group pads with GROUP_NONE)."""

BOARD_FIELDS = (("KIND", 1), ("GROUP", 1), ("PRICE", 2), ("MORTGAGE", 2), ("HOUSE_COST", 2),
                ("HOTEL_COST", 2), ("RENTS", 12))
"""Board record fields and sizes. RENTS: six words (site: 0-4 houses, hotel; station:
1-4 owned; utility: dice multiplier for 1-2 owned; tax: the amount in the first)."""
CARD_FIELDS = (("EFFECT", 1), ("SALARY", 1), ("SQUARE", 1), ("STEPS", 1), ("AMOUNT", 2),
               ("PER_HOTEL", 2))
"""Card record fields: SQUARE the destination (0FFh: none), STEPS signed, AMOUNT per house
for repairs."""

RENT_WORDS = 6


def _equ(name: str, value: int, comment: str = "") -> str:
    """One ``NAME EQU value`` line."""
    return f"{name:<28} EQU {value}" + (f"  ; {comment}" if comment else "")


def _offsets(prefix: str, fields: tuple[tuple[str, int], ...]) -> list[str]:
    """EQUs for each field's offset and the record size."""
    lines, offset = [], 0
    for name, size in fields:
        lines.append(_equ(f"{prefix}_{name}", offset))
        offset += size
    return lines + [_equ(f"{prefix}_RECORD", offset)]


def text_operands(text: str) -> str:
    """DB/DZ operands for a text: quoted ASCII runs, the pound sign as a number."""
    parts: list[str] = []
    run = ""
    for ch in text:
        if ch == "£":
            if run:
                parts.append('"' + run + '"')
                run = ""
            parts.append(f"{POUND:#04x}".replace("0x", "") + "h")
        elif " " <= ch <= "~":
            run += "\\" + ch if ch in '"\\' else ch
        else:
            raise ValueError(f"no Spectrum code for {ch!r} in {text!r}")
    if run:
        parts.append('"' + run + '"')
    return ", ".join(parts)


def constants_asm() -> str:
    """EQUs for the rule constants (STARTING_CASH, GO_SALARY, JAIL_FINE, ...)."""
    lines = ["; Rule constants, generated from zxmonopoly.rules.data: do not edit."]
    for name, value in vars(data).items():
        if name.isupper() and type(value) is int:
            lines.append(_equ(name, value))
    return "\n".join(lines) + "\n"


def _group_name(square: int) -> str:
    """A square's group symbol: a colour group, the stations, the utilities, or none."""
    sq = SQUARES[square]
    if sq.group is not None:
        return f"GROUP_{sq.group.upper()}"
    return {Kind.STATION: "GROUP_STATIONS", Kind.UTILITY: "GROUP_UTILITIES"}.get(sq.kind,
                                                                              "GROUP_NONE")


def board_asm() -> str:
    """The board's records, groups and names as assembler source."""
    lines = ["; Board tables, generated from zxmonopoly.rules.data: do not edit."]
    lines += [_equ(f"KIND_{kind.name}", code) for kind, code in KIND_CODES.items()]
    lines += [_equ(f"GROUP_{name.upper()}", code) for name, code in GROUP_CODES.items()]
    lines += [_equ("GROUP_STATIONS", GROUP_STATIONS), _equ("GROUP_UTILITIES", GROUP_UTILITIES),
              _equ("GROUP_NONE", GROUP_NONE), _equ("GROUP_SLOTS", GROUP_SLOTS),
              _equ("GROUP_RECORD", 1 + GROUP_SLOTS, "count, then the squares"),
              _equ("BOARD_SQUARES", len(SQUARES)), _equ("BOARD_GROUPS", len(GROUPS) + 2)]
    lines += _offsets("BOARD", BOARD_FIELDS)
    lines.append("board_squares:")
    for sq in SQUARES:
        rents = list(sq.rents) or [sq.amount]
        rents += [0] * (RENT_WORDS - len(rents))
        lines.append(f"        ; {sq.index} {sq.name}")
        lines.append(f"        DB KIND_{sq.kind.name}, {_group_name(sq.index)}")
        lines.append(f"        DW {sq.price}, {sq.mortgage}, {sq.house_cost}, {sq.hotel_cost}")
        lines.append("        DW " + ", ".join(str(r) for r in rents))
    lines.append("board_groups:                   ; count, then the squares (0FFh pads)")
    for name, sites in [*GROUPS.items(), ("stations", STATIONS), ("utilities", UTILITIES)]:
        padded = [*sites, *[GROUP_NONE] * (GROUP_SLOTS - len(sites))]
        lines.append(f"        DB {len(sites)}, " + ", ".join(str(s) for s in padded)
                     + f"  ; {name}")
    lines.append("board_names:")
    lines += [f"        DW board_name_{sq.index}" for sq in SQUARES]
    lines += [f"board_name_{sq.index}: DZ {text_operands(sq.short)}" for sq in SQUARES]
    lines.append("board_name_breaks:      ; where a long word of a name may break (0: none)")
    lines += [f"        DB {name_break(sq.short)}  ; {sq.short}" for sq in SQUARES]
    return "\n".join(lines) + "\n"


#: The words of the squares' short names too long for a line of the close-up's narrow boxes
#: (closeup.asm), and the syllables they break after ("White-chapel"), so that no name is cut
#: where a reader would not cut it.
NAME_BREAKS = {"Whitechapel": "White", "Pentonville": "Penton", "Northumberl'd": "North",
               "Marylebone": "Maryle", "Marlborough": "Marl", "Piccadilly": "Picca"}


def name_break(short: str) -> int:
    """How many characters of a short name come before the break of its long word (0: none)."""
    for word, first in NAME_BREAKS.items():
        at = short.find(word)
        if at >= 0:
            return at + len(first)
    return 0


def _card_record(card: Card) -> list[str]:
    """One card's record lines."""
    dest = 0xFF if card.dest is None else card.dest
    return [f"        ; {card.id} {card.effect.value}",
            f"        DB EFFECT_{card.effect.name}, {int(card.salary)}, {dest}, {card.steps}",
            f"        DW {card.amount}, {card.per_hotel}"]


def cards_asm() -> str:
    """The Chance and Community Chest records and texts, in printed order, as assembler source."""
    lines = ["; Card tables, generated from zxmonopoly.rules.data: do not edit."]
    lines += [_equ(f"EFFECT_{effect.name}", code) for effect, code in EFFECT_CODES.items()]
    lines += [_equ("CARDS_PER_PACK", len(CHANCE))]
    lines += _offsets("CARD", CARD_FIELDS)
    for label, pack in (("chance", CHANCE), ("chest", COMMUNITY_CHEST)):
        lines.append(f"cards_{label}:")
        for card in pack:
            lines += _card_record(card)
        lines.append(f"cards_{label}_texts:")
        lines += [f"        DW card_text_{card.id}" for card in pack]
        lines += [f"card_text_{card.id}: DZ {text_operands(card.text)}" for card in pack]
    return "\n".join(lines) + "\n"


def tables_asm() -> str:
    """Constants, board and cards: everything the game's data file needs."""
    return "\n".join((constants_asm(), board_asm(), cards_asm()))
