"""The board and card data: complete, consistent, as the references say, regenerated unchanged."""

from __future__ import annotations

import json

import pytest

from tests import REFERENCE_DIR, REPO_ROOT, load_tool
from zxmonopoly.rules import data
from zxmonopoly.rules.data import CARDS, CHANCE, COMMUNITY_CHEST, GROUPS, SQUARES
from zxmonopoly.rules.records import Effect, Kind


def _generator():
    return load_tool("gen_rules_data")


def test_regenerating_data_changes_nothing():
    gen = _generator()
    committed = (REPO_ROOT / "src" / "zxmonopoly" / "rules" / "data.py").read_text("utf-8")
    assert committed == gen.generate(REFERENCE_DIR), (
        "rules/data.py is stale: run python tools/gen_rules_data.py")


def test_data_matches_the_json_field_by_field():
    board = json.loads((REFERENCE_DIR / "board_uk.json").read_text("utf-8"))
    for sq, js in zip(SQUARES, board["squares"], strict=True):
        assert (sq.index, sq.name, sq.short) == (js["index"], js["name"], js["short_name"])
        for key in ("price", "mortgage", "house_cost", "hotel_cost", "amount"):
            assert getattr(sq, key) == js.get(key, 0)
    assert data.STARTING_CASH == board["constants"]["starting_cash"]


def test_a3_equipment_40_squares_28_deeds_32_houses_12_hotels_16_plus_16_cards():
    assert [sq.index for sq in SQUARES] == list(range(40))
    assert sum(sq.is_property for sq in SQUARES) == 28
    assert (data.HOUSES_IN_BANK, data.HOTELS_IN_BANK) == (32, 12)
    assert len(CHANCE) == len(COMMUNITY_CHEST) == 16 and len(CARDS) == 32


def test_a1_a10_a35_constants_from_the_booklet():
    assert (data.STARTING_CASH, data.GO_SALARY, data.JAIL_FINE) == (1500, 200, 50)
    assert (data.JAIL_SQUARE, data.GO_TO_JAIL_SQUARE, data.MAX_TURNS_IN_JAIL) == (10, 30, 3)
    assert data.MORTGAGE_INTEREST_PERCENT == 10


def test_square_kinds_in_board_order():
    kinds = {Kind.GO: [0], Kind.JAIL: [10], Kind.FREE_PARKING: [20], Kind.GO_TO_JAIL: [30],
             Kind.CHANCE: [7, 22, 36], Kind.CHEST: [2, 17, 33], Kind.TAX: [4, 38],
             Kind.STATION: [5, 15, 25, 35], Kind.UTILITY: [12, 28]}
    for kind, squares in kinds.items():
        assert [sq.index for sq in SQUARES if sq.kind is kind] == squares
    assert sorted(s for sites in GROUPS.values() for s in sites) == [
        sq.index for sq in SQUARES if sq.kind is Kind.SITE]


def test_a52_deeds_mortgage_at_half_price_and_a43_hotel_costs_a_house():
    for sq in SQUARES:
        if sq.is_property:
            assert sq.mortgage * 2 == sq.price, sq.name
        if sq.kind is Kind.SITE:
            assert sq.hotel_cost == sq.house_cost and len(sq.rents) == 6, sq.name
            assert list(sq.rents) == sorted(sq.rents), sq.name
            assert all(SQUARES[s].house_cost == sq.house_cost for s in GROUPS[sq.group or ""])


def test_a43_booklet_hotel_on_park_lane_or_mayfair_costs_200():
    assert SQUARES[37].hotel_cost == SQUARES[39].hotel_cost == 200


def test_a24_a25_station_and_utility_deeds():
    for s in data.STATIONS:
        assert SQUARES[s].rents == (25, 50, 100, 200) and SQUARES[s].price == 200
    for s in data.UTILITIES:
        assert SQUARES[s].rents == (4, 10) and SQUARES[s].price == 150


def test_a31_tax_amounts():
    assert (SQUARES[4].amount, SQUARES[38].amount) == (200, 100)


# Every card's effect, from the effect column of cards_uk.md.
CARD_EFFECTS = {
    "CH01": (Effect.MOVE_TO, {"dest": 0, "salary": True}),
    "CH02": (Effect.GO_TO_JAIL, {}),
    "CH03": (Effect.MOVE_TO, {"dest": 11, "salary": True}),
    "CH04": (Effect.MOVE_TO, {"dest": 15, "salary": True}),
    "CH05": (Effect.MOVE_TO, {"dest": 24, "salary": True}),
    "CH06": (Effect.MOVE_TO, {"dest": 39, "salary": True}),
    "CH07": (Effect.MOVE_BY, {"steps": -3, "salary": False}),
    "CH08": (Effect.REPAIRS, {"amount": 25, "per_hotel": 100}),
    "CH09": (Effect.REPAIRS, {"amount": 40, "per_hotel": 115}),
    "CH10": (Effect.PAY_BANK, {"amount": 150}),
    "CH11": (Effect.PAY_BANK, {"amount": 20}),
    "CH12": (Effect.PAY_BANK, {"amount": 15}),
    "CH13": (Effect.COLLECT_BANK, {"amount": 150}),
    "CH14": (Effect.COLLECT_BANK, {"amount": 100}),
    "CH15": (Effect.COLLECT_BANK, {"amount": 50}),
    "CH16": (Effect.JAIL_FREE, {}),
    "CC01": (Effect.MOVE_TO, {"dest": 0, "salary": True}),
    "CC02": (Effect.MOVE_BACK_TO, {"dest": 1, "salary": False}),
    "CC03": (Effect.GO_TO_JAIL, {}),
    "CC04": (Effect.PAY_BANK, {"amount": 100}),
    "CC05": (Effect.PAY_BANK, {"amount": 50}),
    "CC06": (Effect.PAY_BANK, {"amount": 50}),
    "CC07": (Effect.COLLECT_BANK, {"amount": 200}),
    "CC08": (Effect.COLLECT_BANK, {"amount": 100}),
    "CC09": (Effect.COLLECT_BANK, {"amount": 100}),
    "CC10": (Effect.COLLECT_BANK, {"amount": 50}),
    "CC11": (Effect.COLLECT_BANK, {"amount": 25}),
    "CC12": (Effect.COLLECT_BANK, {"amount": 20}),
    "CC13": (Effect.COLLECT_BANK, {"amount": 10}),
    "CC14": (Effect.COLLECT_FROM_EACH, {"amount": 10}),
    "CC15": (Effect.JAIL_FREE, {}),
    "CC16": (Effect.FINE_OR_CHANCE, {"amount": 10}),
}


@pytest.mark.parametrize("card_id", sorted(CARD_EFFECTS))
def test_card_data_matches_cards_uk_md(card_id):
    effect, fields = CARD_EFFECTS[card_id]
    card = CARDS[card_id]
    assert card.effect is effect
    for key, value in fields.items():
        assert getattr(card, key) == value, (card_id, key)
    assert card.deck == ("chance" if card_id.startswith("CH") else "chest")
