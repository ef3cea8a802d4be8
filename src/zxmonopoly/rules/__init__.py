"""The rules of Waddingtons Monopoly as the 1985 booklet gives them: the oracle for the game.

Plain Python, small on purpose. ``data`` (generated from reference/ by
tools/gen_rules_data.py) holds the board and the cards; ``state`` the game state; ``rent``,
``money``, ``estate`` and ``turn`` the rules; ``z80tables`` writes the same data as assembler
source for the game. Docstrings cite the rules as "(A35c, A36 § A Jail)": the numbers of
../shared/reference/seed_rules.md (A1-A69 rules, B1.1-B1.14 computer instructions), then after §
the booklet's part (A rules, C playing on the computer) and heading. docs/rules-conformance.md
maps every rule to its tests.
"""

from __future__ import annotations

from .data import CARDS, CHANCE, COMMUNITY_CHEST, GROUPS, SQUARES, STATIONS, UTILITIES
from .estate import (
    auction,
    build,
    buy,
    declare_bankrupt,
    decline,
    mortgage,
    pay_in_kind,
    sell_building,
    sell_group_buildings,
    sell_jail_card,
    shortage_auction_needed,
    trade,
    unmortgage,
    winning_bid,
)
from .money import charge, interest, pay_debts, raisable, transfer, worth
from .records import Card, Effect, Kind, Square
from .rent import rent
from .state import (
    BANK,
    HOTEL,
    Debt,
    Game,
    Holding,
    Player,
    RentDue,
    RuleError,
    hotels_in_play,
    houses_in_play,
    new_game,
)
from .turn import (
    choose,
    claim_rent,
    deal_short_game,
    end_turn,
    first_player_round,
    pay_fine,
    richest,
    throw,
    use_jail_card,
    winner,
)

__all__ = [
    "BANK", "CARDS", "CHANCE", "COMMUNITY_CHEST", "GROUPS", "HOTEL", "SQUARES", "STATIONS",
    "UTILITIES", "Card", "Debt", "Effect", "Game", "Holding", "Kind", "Player", "RentDue",
    "RuleError", "Square", "auction", "build", "buy", "charge", "choose", "claim_rent",
    "deal_short_game", "declare_bankrupt", "decline", "end_turn", "first_player_round",
    "hotels_in_play", "houses_in_play", "interest", "mortgage", "new_game", "pay_debts",
    "pay_fine", "pay_in_kind", "raisable", "rent", "richest", "sell_building",
    "sell_group_buildings", "sell_jail_card", "shortage_auction_needed", "throw", "trade",
    "transfer", "unmortgage", "use_jail_card", "winner", "winning_bid", "worth",
]
