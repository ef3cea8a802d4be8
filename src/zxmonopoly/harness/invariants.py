"""The game's invariants: what must hold of the machine and the state block at any moment.

``state_problems(memory, symbols)`` checks the state block alone (it is what a position set
up by :mod:`zxmonopoly.harness.position` must satisfy); ``check_invariants(session)`` adds
the machine: the PC inside the program and the stack pointer inside the game's stack. Both
return a list of problems, each a sentence naming the rule broken (empty: all hold).
Everything is read through the symbol map, as in :mod:`zxmonopoly.harness.game`.

The rules (docs/harness.md, *Invariants*):

* money is conserved: every entered player's cash + ``v_jackpot`` + the signed 32-bit
  ``v_bank`` (the Bank's takings less its payments) = ``STARTING_CASH`` x the players;
* the building stock: ``v_houses_left`` + houses on the board = ``HOUSES_IN_BANK`` (a hotel
  counts no house), ``v_hotels_left`` + hotels = ``HOTELS_IN_BANK``, each within its range;
* buildings only on sites, on a colour group owned wholly by one player, never on a
  mortgaged site, built evenly (levels in a group differ by at most 1, a hotel being level 5);
* in a game, only entered players own squares (back at the title the squares keep the last
  game's owners until the next setup);
* a player in jail stands on the Jail square; no more than the game's jail turns;
* each Get Out of Jail Free card is either in its pack or held by one player, never both;
  a pack holds each card once and as many as ``CARDS_IN_PACK`` less the cards held.

Money and the stock are checked in a game (phase playing or over) only: before that the
state block holds the setup's leftovers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST, GROUPS, SQUARES
from zxmonopoly.rules.records import Effect, Kind

#: A square's building level for a hotel (0-4 are houses), as the game's SQ_HOTEL.
HOTEL_LEVEL = 5
#: The squares of each colour group (sites only), by group name.
SITE_GROUPS: dict[str, tuple[int, ...]] = dict(GROUPS)
#: Jail's board index.
JAIL_SQUARE = next(sq.index for sq in SQUARES if sq.kind is Kind.JAIL)
#: The Get Out of Jail Free card's number in each pack.
JAIL_FREE_CARD = {"chance": next(i for i, c in enumerate(CHANCE) if c.effect is Effect.JAIL_FREE),
                  "chest": next(i for i, c in enumerate(COMMUNITY_CHEST)
                                if c.effect is Effect.JAIL_FREE)}
#: The game's JC_* bit symbol of each pack.
PACK_BITS = {"chance": "JC_CHANCE", "chest": "JC_CHEST"}
#: Most failed throws a player in jail has behind him (the third throw pays and leaves).
MAX_JAIL_TURNS = 2


def bank_balance(memory: Any, symbols: Mapping[str, int]) -> int:
    """``v_bank``: the Bank's takings less its payments since the game began, signed 32-bit."""
    base = symbols["v_bank"]
    return int.from_bytes(bytes(memory[base + i] for i in range(4)), "little", signed=True)


def set_bank_balance(memory: Any, symbols: Mapping[str, int], value: int) -> None:
    """Write ``v_bank`` (signed 32-bit)."""
    base = symbols["v_bank"]
    memory[base:base + 4] = value.to_bytes(4, "little", signed=True)


def square_levels(memory: Any, symbols: Mapping[str, int]) -> list[tuple[int | None, int, bool]]:
    """(owner 0-5 or None, building level 0-5 with 5 a hotel, mortgaged) of the 40 squares."""
    base = symbols["v_squares"]
    mask, shift = symbols["SQ_BUILD_MASK"], symbols["SQ_BUILD_SHIFT"]
    owner_mask, mortgaged = symbols["SQ_OWNER_MASK"], 1 << symbols["SQ_MORTGAGED"]
    out = []
    for i in range(len(SQUARES)):
        b = memory[base + i]
        o = b & owner_mask
        out.append((None if o == 0 else o - 1, (b & mask) >> shift, bool(b & mortgaged)))
    return out


def state_problems(memory: Any, symbols: Mapping[str, int], *, money: bool = True,
                   bank_offset: int = 0) -> list[str]:
    """What is wrong with the state block now (empty: nothing); each problem names the rule.

    ``money`` False skips money conservation; ``bank_offset`` is subtracted from ``v_bank``.
    """
    from zxmonopoly.harness.errors import HarnessError
    from zxmonopoly.harness.game import decode_state

    s = symbols
    try:
        state = decode_state(memory, s)
    except HarnessError as exc:
        return [f"the state does not decode: {exc}"]
    problems: list[str] = []
    in_game = state.phase in ("playing", "over")
    if money and in_game:
        bank = bank_balance(memory, s) - bank_offset
        total = sum(p.cash for p in state.players) + state.jackpot + bank
        expected = s["STARTING_CASH"] * len(state.players)
        if total != expected:
            problems.append(f"money not conserved: cash {[p.cash for p in state.players]} + "
                            f"jackpot {state.jackpot} + bank {bank} = {total}, not {expected} "
                            f"(STARTING_CASH x {len(state.players)} players)")
    levels = square_levels(memory, s)
    if in_game:
        houses = sum(level for _o, level, _m in levels if level < HOTEL_LEVEL)
        hotels = sum(1 for _o, level, _m in levels if level == HOTEL_LEVEL)
        for what, left, on_board, stock in (
                ("houses", state.houses_left, houses, s["HOUSES_IN_BANK"]),
                ("hotels", state.hotels_left, hotels, s["HOTELS_IN_BANK"])):
            if not 0 <= left <= stock:
                problems.append(f"{what} left {left} out of 0..{stock}")
            if left + on_board != stock:
                problems.append(f"{what}: {left} in the Bank + {on_board} on the board != "
                                f"{stock} (the Bank has {stock} {what} in all)")
    entered = len(state.players)
    for i, (owner, level, _m) in enumerate(levels):
        name = SQUARES[i].name
        if level and SQUARES[i].kind is not Kind.SITE:
            problems.append(f"buildings on {name}, not a site")
        if level > HOTEL_LEVEL:
            problems.append(f"{name} has building level {level}")
        if level and owner is None:
            problems.append(f"buildings on {name}, which nobody owns")
        if in_game and owner is not None and owner >= entered:
            problems.append(f"{name} is owned by player {owner + 1}, who is not in the game "
                            f"({entered} player(s) entered)")
    for group, members in SITE_GROUPS.items():
        built = [levels[i][1] for i in members]
        if not any(built):
            continue
        owners = {levels[i][0] for i in members}
        if len(owners) != 1:
            shown = ", ".join("the Bank" if o is None else f"player {o + 1}"
                              for o in sorted(owners, key=lambda o: -1 if o is None else o))
            problems.append(f"buildings on the {group} group, which is not owned wholly by one "
                            f"player ({shown}): build only on a whole colour group")
        if max(built) - min(built) > 1:
            problems.append(f"uneven building on the {group} group: levels {built} differ by "
                            "more than one (a hotel is level 5)")
        # A mortgaged site holds no buildings (booklet, Mortgages: "All buildings on the
        # Site must be sold back ... before any property can be mortgaged"). Its neighbours
        # may keep theirs: the booklet asks only the site to be bare (rule A52; S001-EB's
        # whole group disagrees, and the booklet wins), while no *new* building goes up on
        # a group with a mortgaged site (A39, the game's H refuses it).
        for i in members:
            if levels[i][2] and levels[i][1]:
                problems.append(f"buildings on {SQUARES[i].name}, which is mortgaged: a site "
                                "is mortgaged only when bare")
    for p in state.players:
        if p.in_jail and p.square != JAIL_SQUARE:
            problems.append(f"player {p.number} is in jail but stands on square {p.square} "
                            f"({p.square_name}), not the Jail ({JAIL_SQUARE})")
        if p.jail_turns > MAX_JAIL_TURNS:
            problems.append(f"player {p.number} has {p.jail_turns} jail turns, more than "
                            f"{MAX_JAIL_TURNS} (the third throw in jail leaves it)")
    for pack, cards in (("chance", CHANCE), ("chest", COMMUNITY_CHEST)):
        ids = getattr(state, pack)
        if len(set(ids)) != len(ids):
            problems.append(f"the {pack} pack holds a card twice: {','.join(ids)}")
        jail_id = cards[JAIL_FREE_CARD[pack]].id
        holders = [p.number for p in state.players if pack in p.jail_cards]
        if len(holders) > 1:
            problems.append(f"players {holders} each hold the {pack} Get Out of Jail Free card "
                            "(there is one)")
        if holders and jail_id in ids:
            problems.append(f"player {holders[0]} holds the {pack} Get Out of Jail Free card "
                            f"({jail_id}) and it is in the pack too")
        if in_game and len(ids) != len(cards) - len(holders):
            problems.append(f"the {pack} pack holds {len(ids)} cards, not {len(cards)} less "
                            f"the {len(holders)} held")
    return problems


def check_invariants(session: Any, *, money: bool = True, bank_offset: int = 0) -> list[str]:
    """What is wrong with the running game now (empty: nothing): the PC inside the program
    (``GAME_ORIGIN`` .. ``program_end``, or the interrupt's ``JP isr`` at ``IM2_JUMP``), the
    stack pointer within ``STACK_TOP - STACK_SIZE`` .. ``STACK_TOP``, and
    :func:`state_problems`."""
    s = session.symbols
    cpu = session.machine.cpu
    problems = []
    pc, sp = cpu.pc, cpu.sp
    if not (s["GAME_ORIGIN"] <= pc < s["program_end"] or pc == s["IM2_JUMP"]):
        problems.append(f"PC 0x{pc:04X} outside the program "
                        f"(0x{s['GAME_ORIGIN']:04X}..0x{s['program_end']:04X})")
    if not s["STACK_TOP"] - s["STACK_SIZE"] <= sp <= s["STACK_TOP"]:
        problems.append(f"SP 0x{sp:04X} outside the stack "
                        f"(0x{s['STACK_TOP'] - s['STACK_SIZE']:04X}..0x{s['STACK_TOP']:04X})")
    return problems + state_problems(session.machine.memory, s, money=money,
                                     bank_offset=bank_offset)


__all__ = ["HOTEL_LEVEL", "JAIL_FREE_CARD", "JAIL_SQUARE", "SITE_GROUPS", "bank_balance",
           "check_invariants", "set_bank_balance", "square_levels", "state_problems"]
