"""The records the board and card data are made of (``data.py`` holds the instances)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """What a square is (board_uk.json ``type``, corners split by their ``corner`` field)."""

    GO = "go"
    SITE = "site"
    STATION = "station"
    UTILITY = "utility"
    CHANCE = "chance"
    CHEST = "chest"
    TAX = "tax"
    JAIL = "jail"
    FREE_PARKING = "free_parking"
    GO_TO_JAIL = "go_to_jail"


PROPERTY_KINDS = frozenset({Kind.SITE, Kind.STATION, Kind.UTILITY})


@dataclass(frozen=True)
class Square:
    """One square of the board, with its title deed when it is a property.

    ``rents``: a site's rent with 0-4 houses and with a hotel; a station's rent when its owner
    has 1-4 stations; a utility's dice multiplier when its owner has 1-2 utilities.
    ``amount``: what a tax square charges. Money fields are 0 where they do not apply.
    """

    index: int
    name: str
    short: str
    kind: Kind
    group: str | None = None
    price: int = 0
    mortgage: int = 0
    house_cost: int = 0
    hotel_cost: int = 0
    rents: tuple[int, ...] = ()
    amount: int = 0

    @property
    def is_property(self) -> bool:
        """Whether the square has a title deed (site, station or utility)."""
        return self.kind in PROPERTY_KINDS


class Effect(StrEnum):
    """What a card does (cards_uk.json ``effect.kind``)."""

    MOVE_TO = "move_to"
    MOVE_BACK_TO = "move_to_backwards"
    MOVE_BY = "move_relative"
    GO_TO_JAIL = "go_to_jail"
    PAY_BANK = "pay_bank"
    COLLECT_BANK = "collect_bank"
    REPAIRS = "repairs"
    COLLECT_FROM_EACH = "collect_from_each_player"
    JAIL_FREE = "get_out_of_jail_free"
    FINE_OR_CHANCE = "fine_or_chance"


@dataclass(frozen=True)
class Card:
    """One Chance or Community Chest card and its exact effect.

    ``dest``: the square moved to; ``steps``: squares moved (negative: backwards);
    ``salary``: whether GO passed or landed on pays; ``amount``: money paid or collected
    (per house for repairs); ``per_hotel``: repairs per hotel.
    """

    id: str
    deck: str
    text: str
    effect: Effect
    dest: int | None = None
    steps: int = 0
    salary: bool = False
    amount: int = 0
    per_hotel: int = 0
