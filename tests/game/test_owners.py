"""owners_run, the O key (booklet part C "Owner"; seed_rules B1.7), and deed_show, the title
deeds it and the cursor show."""

from __future__ import annotations

import pytest

BUDGET = 2000
LIST_ROWS = range(16, 23)


@pytest.fixture
def rig(rig):
    """The fresh rig of conftest with ANNE and BOB and their deeds and cards."""
    r = rig
    r.poke("v_num_players", 2)
    for p, name in enumerate(("ANNE", "BOB")):
        r.poke(r.player_address(p + 1, "P_FLAGS"), 1 << r.symbols["PF_PLAYING"])
        for i, ch in enumerate(name.encode() + b"\0"):
            r.poke(r.player_address(p + 1, "P_NAME") + i, ch)
    v = r.address("v_squares")
    shift = r.symbols["SQ_BUILD_SHIFT"]
    mortgaged = 1 << r.symbols["SQ_MORTGAGED"]
    r.poke(v + 39, 2 | 5 << shift)                  # Mayfair: BOB, a hotel
    r.poke(v + 37, 2 | 3 << shift)                  # Park Lane: BOB, 3 houses
    r.poke(v + 5, 1 | mortgaged)                    # King's Cross: ANNE, mortgaged
    r.poke(v + 12, 1)                               # Electric Company: ANNE
    chance, chest = r.symbols["JC_CHANCE"], r.symbols["JC_CHEST"]
    r.poke(r.player_address(2, "P_JAIL_CARDS"), 1 << chance | 1 << chest)
    return r


def listing(r) -> str:
    return "\n".join(r.row(n) for n in LIST_ROWS)


def entry(r, name: str) -> tuple[int, int]:
    at = r.find(name)
    assert at is not None and at[0] in LIST_ROWS, name
    return at


def test_owner_numbers_and_mortgaged_in_white_on_red(rig):
    r = rig
    r.start_call("owners_run")
    r.wait_input(BUDGET)
    assert "Old Kent Rd   -" in listing(r)           # the Bank's
    assert "Kings Cross   1" in listing(r)
    assert "Electric Co   1" in listing(r)
    row, col = entry(r, "Kings Cross")
    cell = r.attributes(row, col)
    assert (cell.ink, cell.paper) == (r.symbols["WHITE"], r.symbols["RED"])
    row, col = entry(r, "Electric Co")
    assert r.attributes(row, col).paper == r.symbols["WHITE"]
    assert "SPACE" in r.row(23)
    r.tap("SPACE")                                  # the second page
    r.wait_input(BUDGET)
    assert "Mayfair       2" in listing(r)
    assert "Park Lane     2" in listing(r)
    assert "Old Kent Rd" not in listing(r)
    r.tap("SPACE")                                  # and round again
    r.wait_input(BUDGET)
    assert "Old Kent Rd" in listing(r)
    r.tap("ENTER")
    r.finish_call(BUDGET)
    assert all(not r.row(n).strip() for n in range(16, 24))


def test_a_portfolio_with_buildings_and_jail_cards(rig):
    r = rig
    r.start_call("owners_run")
    r.wait_input(BUDGET)
    r.type("2")
    r.wait_input(BUDGET)
    text = listing(r)
    assert "Park Lane" in text and "Mayfair" in text
    assert "Kings Cross" not in text and "Old Kent Rd" not in text
    row, col = entry(r, "Park Lane")
    assert r.row(row)[col + 13] == "3"              # a house glyph, then the count
    assert "Jail Free   Ch" in text and "Jail Free   CC" in text
    assert r.row(23).startswith("2 BOB")
    r.type("1")
    r.wait_input(BUDGET)
    text = listing(r)
    assert "Kings Cross" in text and "Electric Co" in text and "Mayfair" not in text
    row, col = entry(r, "Kings Cross")
    assert r.attributes(row, col).paper == r.symbols["RED"]
    r.type("o")                                     # the whole list again
    r.wait_input(BUDGET)
    assert "Old Kent Rd" in listing(r)
    r.tap("ENTER")
    r.finish_call(BUDGET)


def test_p_chooses_a_property_and_shows_its_deed(rig):
    r = rig
    r.start_call("owners_run")
    r.wait_input(BUDGET)
    r.type("2")
    r.wait_input(BUDGET)
    r.type("p")                                     # the first entry flashes
    r.wait_input(BUDGET)
    row, col = entry(r, "Park Lane")
    assert r.attributes(row, col).flash
    r.tap("SPACE")                                  # on to Mayfair
    r.wait_input(BUDGET)
    row, col = entry(r, "Mayfair")
    assert r.attributes(row, col).flash
    r.tap("ENTER")
    r.wait_input(BUDGET)
    assert r.row(16).startswith("Mayfair") and "Price £400" in r.row(16)
    assert "Owner: 2 BOB" in r.row(20) and "Hotel" in r.row(20)
    r.tap("SPACE")                                  # any key: back to the list
    r.wait_input(BUDGET)
    assert "Mayfair" in listing(r) and not r.attributes(*entry(r, "Mayfair")).flash
    r.tap("ENTER")
    r.finish_call(BUDGET)


def deed(r, square: int) -> list[str]:
    r.call("deed_show", a=square)
    return [r.row(n) for n in range(16, 21)]


def test_deed_of_a_site(rig):
    rows = deed(rig, 37)
    assert rows[0].startswith("Park Lane") and rows[0].endswith("Price £350")
    assert rows[1].startswith("Rent   £35")
    assert "£175" in rows[1] and "£500" in rows[1]
    assert "£1100" in rows[2] and "£1300" in rows[2] and "£1500" in rows[2]
    assert "Houses     £200" in rows[3] and "Mortgage   £175" in rows[3]
    assert "Owner: 2 BOB" in rows[4] and "3 houses" in rows[4]
    rows = deed(rig, 1)
    assert rows[4].startswith("Owner: Bank")


def test_deed_of_a_station_and_a_utility(rig):
    rows = deed(rig, 5)
    assert "1 station   £25" in rows[1] and "2 stations  £50" in rows[1]
    assert "3 stations £100" in rows[2] and "4 stations £200" in rows[2]
    assert "Mortgage   £100" in rows[3]
    assert "Owner: 1 ANNE" in rows[4] and "Mortgaged" in rows[4]
    col = rows[4].index("Mortgaged")
    cell = rig.attributes(20, col)
    assert (cell.ink, cell.paper) == (rig.symbols["WHITE"], rig.symbols["RED"])
    rows = deed(rig, 28)
    assert "4 x dice" in rows[1] and "10 x dice" in rows[2]
    assert "Mortgage    £75" in rows[3] and "Owner: Bank" in rows[4]


def test_deed_of_squares_nobody_owns(rig):
    assert "Pay £200 to the Bank." in deed(rig, 4)[1]
    assert "Pay £100 to the Bank." in deed(rig, 38)[1]
    assert "Collect £200" in deed(rig, 0)[1]
    assert "fine of £50" in deed(rig, 10)[3]
    assert "Go directly to Jail" in deed(rig, 30)[1]
    rig.poke("v_options", 1 << rig.symbols["OPT_JACKPOT"])
    rig.poke16("v_jackpot", 350)
    assert "Jackpot: £350" in deed(rig, 20)[2]
