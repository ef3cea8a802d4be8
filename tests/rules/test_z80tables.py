"""The game's data tables, written as assembler source from the rules data, assemble and decode."""

from __future__ import annotations

import pytest

from zxmonopoly.asm import assemble
from zxmonopoly.rules import data
from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST, GROUPS, SQUARES, STATIONS, UTILITIES
from zxmonopoly.rules.z80tables import (
    EFFECT_CODES,
    GROUP_NONE,
    KIND_CODES,
    POUND,
    tables_asm,
    text_operands,
)

ORIGIN = 0x8000


@pytest.fixture(scope="module")
def program():
    prog = assemble(f"        ORG {ORIGIN}\n" + tables_asm())
    assert not prog.diagnostics
    return prog


def word(prog, addr: int) -> int:
    return prog.memory[addr] | prog.memory[addr + 1] << 8


def text(prog, addr: int) -> str:
    out = []
    while prog.memory[addr]:
        out.append("£" if prog.memory[addr] == POUND else chr(prog.memory[addr]))
        addr += 1
    return "".join(out)


def test_constants_are_equs(program):
    v = program.values
    assert (v["STARTING_CASH"], v["GO_SALARY"], v["JAIL_FINE"]) == (
        data.STARTING_CASH, data.GO_SALARY, data.JAIL_FINE)
    assert (v["HOUSES_IN_BANK"], v["HOTELS_IN_BANK"]) == (32, 12)


def test_board_records_decode_to_the_data(program):
    v = program.values
    for sq in SQUARES:
        rec = v["board_squares"] + sq.index * v["BOARD_RECORD"]
        assert program.memory[rec + v["BOARD_KIND"]] == KIND_CODES[sq.kind]
        group = program.memory[rec + v["BOARD_GROUP"]]
        if sq.group:
            assert group == list(GROUPS).index(sq.group)
        elif sq.index in STATIONS:
            assert group == v["GROUP_STATIONS"]
        elif sq.index in UTILITIES:
            assert group == v["GROUP_UTILITIES"]
        else:
            assert group == GROUP_NONE
        for field, value in (("PRICE", sq.price), ("MORTGAGE", sq.mortgage),
                             ("HOUSE_COST", sq.house_cost), ("HOTEL_COST", sq.hotel_cost)):
            assert word(program, rec + v[f"BOARD_{field}"]) == value, (sq.name, field)
        rents = [word(program, rec + v["BOARD_RENTS"] + 2 * i) for i in range(6)]
        expected = list(sq.rents) or [sq.amount]
        assert rents == expected + [0] * (6 - len(expected)), sq.name
        assert text(program, word(program, v["board_names"] + 2 * sq.index)) == sq.short


def test_group_table(program):
    addr = program.values["board_groups"]
    for sites in [*GROUPS.values(), STATIONS, UTILITIES]:
        count = program.memory[addr]
        assert count == len(sites)
        assert list(program.memory[addr + 1: addr + 1 + count]) == list(sites)
        addr += program.values["GROUP_RECORD"]
    assert addr - program.values["board_groups"] == 10 * program.values["GROUP_RECORD"]


@pytest.mark.parametrize("label,pack", [("chance", CHANCE), ("chest", COMMUNITY_CHEST)])
def test_card_records_decode_to_the_data(program, label, pack):
    v = program.values
    for i, card in enumerate(pack):
        rec = v[f"cards_{label}"] + i * v["CARD_RECORD"]
        assert program.memory[rec + v["CARD_EFFECT"]] == EFFECT_CODES[card.effect]
        assert program.memory[rec + v["CARD_SALARY"]] == card.salary
        dest = program.memory[rec + v["CARD_SQUARE"]]
        assert dest == (0xFF if card.dest is None else card.dest)
        assert program.memory[rec + v["CARD_STEPS"]] == card.steps & 0xFF
        assert word(program, rec + v["CARD_AMOUNT"]) == card.amount
        assert word(program, rec + v["CARD_PER_HOTEL"]) == card.per_hotel
        assert text(program, word(program, v[f"cards_{label}_texts"] + 2 * i)) == card.text


def test_text_operands_escape_quotes_and_map_the_pound():
    assert text_operands('Pay £10 "now"') == '"Pay ", 60h, "10 \\"now\\""'
    with pytest.raises(ValueError):
        text_operands("café")
