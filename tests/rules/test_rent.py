"""Rent in every case (A21-A26; booklet A "Landing on owned property", "Advantages for owners")."""

from __future__ import annotations

import pytest

from tests.rules.helpers import game, group, own
from zxmonopoly.rules import GROUPS, HOTEL, SQUARES, STATIONS, UTILITIES, claim_rent, rent, throw
from zxmonopoly.rules.records import Kind

SITES = [sq.index for sq in SQUARES if sq.kind is Kind.SITE]


def test_a21_unowned_property_pays_no_rent():
    assert rent(game(), 39, 7) == 0


@pytest.mark.parametrize("site", SITES)
def test_a21_site_rent_as_printed_on_the_deed_alone(site):
    g = game()
    own(g, 0, site)
    assert rent(g, site, 7) == SQUARES[site].rents[0]


@pytest.mark.parametrize("site", SITES)
@pytest.mark.parametrize("houses", [1, 2, 3, 4, HOTEL])
def test_a21_a42_site_rent_with_houses_and_hotel(site, houses):
    g = game()
    group(g, 0, SQUARES[site].group, houses=houses)
    assert rent(g, site, 7) == SQUARES[site].rents[houses]


def test_a21_mortgaged_site_pays_no_rent():
    g = game()
    own(g, 0, 39, mortgaged=True)
    assert rent(g, 39, 7) == 0


@pytest.mark.parametrize("name", list(GROUPS))
def test_a22_double_rent_on_unimproved_sites_of_a_complete_group(name):
    g = game()
    for s in group(g, 0, name):
        assert rent(g, s, 7) == 2 * SQUARES[s].rents[0]


def test_a22_no_double_rent_on_an_incomplete_group():
    g = game()
    own(g, 0, 37)
    own(g, 1, 39)
    assert rent(g, 37, 7) == 35 and rent(g, 39, 7) == 50


def test_a22_booklet_double_rent_blocked_if_one_site_of_the_group_is_mortgaged():
    g = game()
    own(g, 0, 6, 8)
    own(g, 0, 9, mortgaged=True)
    assert rent(g, 6, 7) == 6 and rent(g, 8, 7) == 6 and rent(g, 9, 7) == 0


def test_a22_booklet_unimproved_site_of_a_built_group_keeps_double_rent():
    """Booklet A "Houses": "On the unimproved Sites ... he continues collecting double rental"."""
    g = game()
    group(g, 0, "light_blue")
    own(g, 0, 8, houses=1)
    own(g, 0, 9, houses=1)
    assert rent(g, 6, 7) == 12 and rent(g, 8, 7) == 30 and rent(g, 9, 7) == 40


@pytest.mark.parametrize("count,expected", [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_a24_station_rent_by_number_owned(count, expected):
    g = game()
    own(g, 0, *STATIONS[:count])
    own(g, 1, *STATIONS[count:])
    assert all(rent(g, s, 7) == expected for s in STATIONS[:count])


def test_a24_booklet_four_stations_one_mortgaged_collects_100_not_200():
    g = game()
    own(g, 0, *STATIONS)
    g.holdings[STATIONS[0]].mortgaged = True
    assert [rent(g, s, 7) for s in STATIONS] == [0, 100, 100, 100]


@pytest.mark.parametrize("dice", range(2, 13))
def test_a25_utility_rent_4_times_the_dice_with_one(dice):
    g = game()
    own(g, 0, 12)
    own(g, 1, 28)
    assert rent(g, 12, dice) == 4 * dice and rent(g, 28, dice) == 4 * dice


@pytest.mark.parametrize("dice", range(2, 13))
def test_a25_utility_rent_10_times_the_dice_with_both(dice):
    g = game()
    own(g, 0, *UTILITIES)
    assert rent(g, 12, dice) == rent(g, 28, dice) == 10 * dice


def test_a25_mortgaged_utility_does_not_count_like_a_station():
    g = game()
    own(g, 0, *UTILITIES)
    g.holdings[28].mortgaged = True
    assert rent(g, 12, 9) == 36 and rent(g, 28, 9) == 0


def test_a25_utility_rent_uses_the_throw_that_brought_the_player():
    g = game()
    own(g, 0, 12)
    g.current = 1
    g.players[1].square = 7
    throw(g, 2, 3)
    assert claim_rent(g, 0) == 20 and g.players[1].cash == 1480


def test_a26_owner_in_jail_still_collects_rent():
    g = game()
    own(g, 0, 39)
    g.players[0].in_jail, g.players[0].square = True, 10
    g.current = 1
    g.players[1].square = 34
    throw(g, 2, 3)
    assert claim_rent(g, 0) == 50 and g.players[0].cash == 1550
