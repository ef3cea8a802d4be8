"""All-computer Monopoly games played headless in the emulator, measured per personality.

``zxmonopoly tournament`` (issue 11's measuring tool). Each game is started as a player
starts it: the bundled tape at its title screen (:meth:`Session.game`), a key, ``v_seed``
written (the test hook), then the real setup keys - a piece's number, ``Y`` (a computer
player), a name, ``ENTER`` - for every player, ``ENTER``, the short game's hours and
minutes, ``N`` to our three options. The setup gives each computer player a personality at
random; once all are entered (at the short-game question, before any of them has played)
the tournament writes the personalities it wants into ``P_PERSONALITY``. Everything after
that - who goes first, every turn, auctions, rent, jail, the end - is the game's own code,
with no key pressed, until the game shows its winner (``v_phase`` = ``PHASE_OVER`` and
the game waits for a key).

Why the setup keys and not a GameRig: the setup is part of what is measured (it must leave
a state the game can play from), and the tape is the product; the only pokes are the seed
(the documented hook) and the personalities.

Measured per player from state changes between frames (nothing in the game counts them):

* properties bought - a square passing from the Bank to the player (bought at the printed
  price or won at auction);
* trades - a square passing from one player still in the game to another;
* houses built - a rise in a square's buildings (0-4 houses, 5 = a hotel) while the player
  owns it (a hotel counts as one building);
* bids made - a new (bidder, highest bid) pair in the auction's ``auction_bidder`` /
  ``auction_high`` (each computer bid is followed by a 40-frame pause, so each is seen);
* final worth - the game's own valuation table (``endgame_totals``), 0 for a bankrupt;
* the game's length - ``v_turns`` and frames.

Checked after every turn (``v_turns`` changing) and at the end: money is conserved (every
entered player's cash + the jackpot + the signed 32-bit ``v_bank`` = ``STARTING_CASH`` times
the players), the building stock (houses left + houses on the board = 32, a hotel counting
0 houses; hotels left + hotels = 12), even building within each colour group, buildings only
on a whole group owned by one player, the PC inside the program and the stack pointer within
``STACK_TOP - STACK_SIZE .. STACK_TOP``. A violation stops the tournament with the seed and
the state.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from zxmonopoly.rules.data import SQUARES

PERSONALITIES = ("Mean", "Reckless", "Greedy", "Steady", "Cautious", "Entrepreneurial", "Buyer")
#: The six the setup gives out; the seventh, the Buyer (PERS_BUYER: buys everything it can at
#: the printed price, never builds or trades), is a yardstick chosen only with --players.
GAME_PERSONALITIES = PERSONALITIES[:6]
#: Frames a game may last before it is called a deadlock (about 55 hours of Spectrum time).
DEFAULT_FRAME_LIMIT = 10_000_000
HOTEL_LEVEL = 5
GROUPS: dict[str, tuple[int, ...]] = {}
for _sq in SQUARES:
    if _sq.kind.name == "SITE":
        GROUPS.setdefault(_sq.group, ())
        GROUPS[_sq.group] += (_sq.index,)


class InvariantError(AssertionError):
    """An invariant broken in a game: the message has the seed, the turn and the state."""


def personality_of(name: str) -> int:
    """PERS_* number of a personality name (a unique prefix, case ignored)."""
    hits = [i for i, p in enumerate(PERSONALITIES) if p.lower().startswith(name.strip().lower())]
    if len(hits) != 1:
        raise ValueError(f"unknown personality {name!r}; choose from {', '.join(PERSONALITIES)}")
    return hits[0]


def parse_players(spec: str | None) -> list[int]:
    """``Mean,Reckless,...`` (2-6 names or unique prefixes, repeats allowed) as PERS_*;
    None: all six."""
    if not spec:
        return list(range(len(GAME_PERSONALITIES)))
    chosen = [personality_of(word) for word in spec.split(",") if word.strip()]
    if not 2 <= len(chosen) <= 6:
        raise ValueError(f"--players needs 2 to 6 personalities, got {len(chosen)}")
    return chosen


# -- reading the machine ------------------------------------------------------------------------

def bank_balance(memory, symbols) -> int:
    """v_bank: the Bank's takings less its payments, signed 32-bit."""
    base = symbols["v_bank"]
    return int.from_bytes(bytes(memory[base + i] for i in range(4)), "little", signed=True)


def square_levels(memory, symbols) -> list[tuple[int | None, int, bool]]:
    """(owner 0-5 or None, buildings 0-5 with 5 a hotel, mortgaged) of the 40 squares."""
    base = symbols["v_squares"]
    mask, shift = symbols["SQ_BUILD_MASK"], symbols["SQ_BUILD_SHIFT"]
    owner_mask, mortgaged = symbols["SQ_OWNER_MASK"], 1 << symbols["SQ_MORTGAGED"]
    out = []
    for i in range(40):
        b = memory[base + i]
        o = b & owner_mask
        out.append((None if o == 0 else o - 1, (b & mask) >> shift, bool(b & mortgaged)))
    return out


def check_invariants(session, *, money: bool = True, bank_offset: int = 0) -> list[str]:
    """What is wrong with the running game now (empty: nothing). ``money`` and the stock
    are checked only in a game (phase playing or over); ``bank_offset`` is subtracted from
    ``v_bank`` (a caller that knows the game began with a stale ``v_bank`` may pass it)."""
    from zxmonopoly.harness.game import decode_state

    s = session.symbols
    mem = session.machine.memory
    cpu = session.machine.cpu
    problems = []
    pc, sp = cpu.pc, cpu.sp
    if not (s["GAME_ORIGIN"] <= pc < s["program_end"] or pc == s["IM2_JUMP"]):
        problems.append(f"PC 0x{pc:04X} outside the program "
                        f"(0x{s['GAME_ORIGIN']:04X}..0x{s['program_end']:04X})")
    if not s["STACK_TOP"] - s["STACK_SIZE"] <= sp <= s["STACK_TOP"]:
        problems.append(f"SP 0x{sp:04X} outside the stack "
                        f"(0x{s['STACK_TOP'] - s['STACK_SIZE']:04X}..0x{s['STACK_TOP']:04X})")
    try:
        state = decode_state(mem, s)
    except AssertionError as exc:  # HarnessError
        return problems + [f"the state does not decode: {exc}"]
    if not money or state.phase not in ("playing", "over"):
        return problems
    bank = bank_balance(mem, s) - bank_offset
    total = sum(p.cash for p in state.players) + state.jackpot + bank
    expected = s["STARTING_CASH"] * len(state.players)
    if total != expected:
        problems.append(f"money not conserved: cash {[p.cash for p in state.players]} + "
                        f"jackpot {state.jackpot} + bank {bank} = {total}, not {expected}")
    levels = square_levels(mem, s)
    houses = sum(level for _o, level, _m in levels if level < HOTEL_LEVEL)
    hotels = sum(1 for _o, level, _m in levels if level == HOTEL_LEVEL)
    if not 0 <= state.houses_left <= s["HOUSES_IN_BANK"]:
        problems.append(f"houses left {state.houses_left} out of 0..{s['HOUSES_IN_BANK']}")
    if not 0 <= state.hotels_left <= s["HOTELS_IN_BANK"]:
        problems.append(f"hotels left {state.hotels_left} out of 0..{s['HOTELS_IN_BANK']}")
    if state.houses_left + houses != s["HOUSES_IN_BANK"]:
        problems.append(f"houses: {state.houses_left} in the Bank + {houses} on the board "
                        f"!= {s['HOUSES_IN_BANK']}")
    if state.hotels_left + hotels != s["HOTELS_IN_BANK"]:
        problems.append(f"hotels: {state.hotels_left} in the Bank + {hotels} on the board "
                        f"!= {s['HOTELS_IN_BANK']}")
    for i, (owner, level, _m) in enumerate(levels):
        if level and SQUARES[i].kind.name != "SITE":
            problems.append(f"buildings on {SQUARES[i].name}, not a site")
        if level > HOTEL_LEVEL:
            problems.append(f"{SQUARES[i].name} has building level {level}")
        if level and owner is None:
            problems.append(f"buildings on {SQUARES[i].name}, which nobody owns")
    for group, members in GROUPS.items():
        built = [levels[i][1] for i in members]
        if not any(built):
            continue
        owners = {levels[i][0] for i in members}
        if len(owners) != 1:
            problems.append(f"buildings on the {group} group, owned by {sorted(map(str, owners))}")
        if max(built) - min(built) > 1:
            problems.append(f"uneven building on the {group} group: {built}")
        if any(levels[i][2] for i in members):
            problems.append(f"buildings on the {group} group with a site mortgaged")
    return problems


# -- one game -----------------------------------------------------------------------------------

@dataclass
class PlayerResult:
    """One player's figures in one game."""

    personality: str
    worth: int = 0
    bankrupt: bool = False
    won: bool = False
    tied: bool = False
    bought: int = 0
    built: int = 0
    bids: int = 0
    trades: int = 0


@dataclass
class GameResult:
    """One game: its seed, players (in seating order), length and winner(s)."""

    seed: int
    players: list[PlayerResult]
    turns: int = 0
    frames: int = 0
    seconds: float = 0.0
    message: str = ""


@dataclass
class _Watch:
    """What was seen at the last frame end: squares, the auction, the turn count."""

    levels: list
    auction: tuple[int, int] = (0xFF, 0)
    turns: int = 0
    counts: dict = field(default_factory=lambda: defaultdict(int))


def _state_dump(session) -> str:
    """The decoded state and the screen, for a violation report."""
    from zxmonopoly.harness.session import format_screen

    try:
        state = session.state()
        bank = bank_balance(session.machine.memory, session.symbols)
        lines = [f"phase {state.phase}, turn {state.turns}, current {state.current}, "
                 f"houses left {state.houses_left}, hotels left {state.hotels_left}, "
                 f"jackpot {state.jackpot}, bank {bank}"]
        for p in state.players:
            lines.append(f"  player {p.number} {p.name}: cash {p.cash}, square {p.square}, "
                         f"{'in jail, ' if p.in_jail else ''}"
                         f"{'bankrupt, ' if p.bankrupt else ''}{p.personality}")
        for sq in state.squares:
            if sq.ownable and sq.owner is not None:
                lines.append(f"  {sq.name}: player {sq.owner}, "
                             f"{'hotel' if sq.hotel else f'{sq.houses} houses'}"
                             f"{', mortgaged' if sq.mortgaged else ''}")
    except AssertionError as exc:
        lines = [f"(state not decodable: {exc})"]
    return "\n".join(lines) + "\nscreen:\n" + format_screen(session.lines())


def setup_computers(session, personalities: Sequence[int], minutes: int | None, seed: int,
                    fast: bool = True) -> None:
    """Title key, seed, then the setup's keys for all-computer players."""
    session.wait_input(500)
    session.tap("SPACE")
    session.seed(seed)
    for n, _pers in enumerate(personalities):
        session.wait_input()
        session.tap(str(n + 1))          # piece n+1
        session.wait_input()
        session.tap("Y")                 # a computer player
        session.wait_input()
        session.type(f"CPU{n + 1}")
        session.wait_input()
        session.tap("ENTER")
    if len(personalities) < 6:
        session.wait_input()
        session.tap("ENTER")             # all are in
    session.wait_input()
    # Every player is entered: choose the personalities (before any has played).
    for n, pers in enumerate(personalities):
        session.poke(session.symbols["v_players"] + n * session.symbols["PLAYER_RECORD"]
                     + session.symbols["P_PERSONALITY"], pers)
    if fast:  # the game's own fast setting (F in the menu): computer pauses cut short
        session.poke("v_speed", session.symbols["AI_SPEED_FAST"])
    if minutes:
        session.tap("Y")
        session.wait_input()
        session.type(str(minutes // 60))
        session.wait_input()
        session.tap("ENTER")
        session.wait_input()
        session.type(str(minutes % 60))
        session.wait_input()
        session.tap("ENTER")
    else:
        session.tap("N")
    for _option in range(3):
        session.wait_input()
        session.tap("N")


def play_game(seed: int, personalities: Sequence[int], *, minutes: int | None = 10,
              engine: str | None = "jit", frame_limit: int = DEFAULT_FRAME_LIMIT,
              check_every_frame: bool = False, fast: bool = True) -> GameResult:
    """Play one all-computer game; InvariantError on a violation or a game that never ends."""
    from zxmonopoly.harness.session import Session

    started = time.perf_counter()
    session = Session.game(engine=engine)
    s = session.symbols
    mem = session.machine.memory
    setup_computers(session, personalities, minutes, seed, fast)
    n = len(personalities)
    result = GameResult(seed, [PlayerResult(PERSONALITIES[p]) for p in personalities])
    start_frame = session.frame
    phase_over = s["PHASE_OVER"]
    phase_playing = s["PHASE_PLAYING"]
    bidder_at, high_at = s["auction_bidder"], s["auction_high"]
    flags_at = [s["v_players"] + i * s["PLAYER_RECORD"] + s["P_FLAGS"] for i in range(n)]
    playing_bit = 1 << s["PF_PLAYING"]
    watch = _Watch(levels=square_levels(mem, s))

    def fail(why: str) -> InvariantError:
        return InvariantError(f"seed {seed}, players {[PERSONALITIES[p] for p in personalities]}"
                              f", turn {mem[s['v_turns']] | mem[s['v_turns'] + 1] << 8}, "
                              f"frame {session.frame - start_frame}: {why}\n"
                              + _state_dump(session))

    def observe(_machine) -> bool:
        """Each frame end: count what changed; stop at a new turn or the end."""
        auction = (mem[bidder_at], mem[high_at] | mem[high_at + 1] << 8)
        if auction != watch.auction:
            if auction[0] < n:
                result.players[auction[0]].bids += 1
            watch.auction = auction
        if mem[s["v_phase"]] != phase_playing and mem[s["v_phase"]] != phase_over:
            return False
        levels = square_levels(mem, s)
        if levels != watch.levels:
            for (o0, l0, _m0), (o1, l1, _m1) in zip(watch.levels, levels, strict=True):
                if o1 is not None and o1 < n:
                    if o0 is None and o1 is not None:
                        result.players[o1].bought += 1
                    elif o0 is not None and o0 != o1 and mem[flags_at[o0]] & playing_bit:
                        result.players[o1].trades += 1
                    if l1 > l0 and o0 == o1:
                        result.players[o1].built += l1 - l0
            watch.levels = levels
        turns = mem[s["v_turns"]] | mem[s["v_turns"] + 1] << 8
        if turns != watch.turns:
            watch.turns = turns
            return True
        if check_every_frame:
            return True
        return mem[s["v_phase"]] == phase_over
    while True:
        used = session.frame - start_frame
        if used >= frame_limit:
            raise fail(f"the game did not end within {frame_limit} frames")
        session.machine.run_until(condition=observe, max_frames=frame_limit - used)
        problems = check_invariants(session)
        if problems:
            raise fail("; ".join(problems))
        if mem[s["v_phase"]] == phase_over:
            break
    # The valuation table: wait until the game asks for a key.
    session.wait_input(2000)
    problems = check_invariants(session)
    if problems:
        raise fail("; ".join(problems))
    state = session.state()
    totals_at = s["endgame_totals"]
    worths = []
    for i, p in enumerate(result.players):
        p.worth = mem[totals_at + 2 * i] | mem[totals_at + 2 * i + 1] << 8
        p.bankrupt = state.players[i].bankrupt or not state.players[i].playing
        worths.append(-1 if p.bankrupt else p.worth)
    best = max(worths)
    winners = [i for i, w in enumerate(worths) if w == best]
    for i in winners:
        result.players[i].won = len(winners) == 1
        result.players[i].tied = len(winners) > 1
    result.turns = state.turns
    result.frames = session.frame - start_frame
    result.seconds = time.perf_counter() - started
    result.message = " ".join(session.row(r).strip() for r in (21, 22)).strip()
    return result


# -- many games ---------------------------------------------------------------------------------

@dataclass
class Tally:
    """One personality's totals over the tournament."""

    games: int = 0
    wins: int = 0
    ties: int = 0
    bankrupt: int = 0
    worth: int = 0
    bought: int = 0
    built: int = 0
    bids: int = 0
    trades: int = 0


def tally(results: Sequence[GameResult]) -> dict[str, Tally]:
    """Totals per personality, in PERSONALITIES order (only those that played)."""
    out: dict[str, Tally] = {}
    for name in PERSONALITIES:
        for game in results:
            for p in game.players:
                if p.personality != name:
                    continue
                t = out.setdefault(name, Tally())
                t.games += 1
                t.wins += p.won
                t.ties += p.tied
                t.bankrupt += p.bankrupt
                t.worth += p.worth
                t.bought += p.bought
                t.built += p.built
                t.bids += p.bids
                t.trades += p.trades
    return out


def format_table(results: Sequence[GameResult]) -> str:
    """The per-personality table and the game lengths, as text."""
    rows = [f"{'personality':<16}{'games':>6}{'wins':>6}{'ties':>6}{'bust':>6}"
            f"{'avg worth':>11}{'bought':>8}{'built':>7}{'bids':>7}{'trades':>8}"]
    for name, t in tally(results).items():
        rows.append(f"{name:<16}{t.games:>6}{t.wins:>6}{t.ties:>6}{t.bankrupt:>6}"
                    f"{t.worth / t.games:>11.0f}{t.bought:>8}{t.built:>7}{t.bids:>7}"
                    f"{t.trades:>8}")
    if results:
        turns = [g.turns for g in results]
        frames = [g.frames for g in results]
        rows.append("")
        rows.append(f"games {len(results)}: turns min {min(turns)} avg "
                    f"{sum(turns) / len(turns):.0f} max {max(turns)}; frames min {min(frames)} "
                    f"avg {sum(frames) / len(frames):.0f} max {max(frames)} "
                    f"({sum(frames) / len(frames) / 50 / 60:.1f} Spectrum minutes a game)")
    return "\n".join(rows)


def run_tournament(games: int, seed: int, players: Sequence[int], *, minutes: int | None = 10,
                   engine: str | None = "jit", verbose: bool = False,
                   frame_limit: int = DEFAULT_FRAME_LIMIT, fast: bool = True) -> list[GameResult]:
    """``games`` games; game g uses seed ``(seed + g) % 65536`` (0 becomes 1) and the
    players' seating rotated by g, so no personality always throws first."""
    results = []
    for g in range(games):
        game_seed = (seed + g) % 65536 or 1
        k = g % len(players)
        seating = list(players[k:]) + list(players[:k])
        result = play_game(game_seed, seating, minutes=minutes, engine=engine,
                           frame_limit=frame_limit, fast=fast)
        results.append(result)
        if verbose:
            who = ", ".join(f"{p.personality}{'*' if p.won else ''} {p.worth}"
                            f"{' (bust)' if p.bankrupt else ''}" for p in result.players)
            print(f"game {g + 1} seed {game_seed}: {result.turns} turns, {result.frames} "
                  f"frames, {result.seconds:.1f}s: {who}", flush=True)
    return results


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``tournament`` subcommand's options."""
    parser.add_argument("--games", type=int, default=6, metavar="N", help="games (default 6)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the first game's seed (v_seed); game g uses S+g (default 1)")
    parser.add_argument("--players", metavar="SPEC",
                        help="comma-separated personalities, 2-6, repeats allowed (e.g. "
                        "Mean,Greedy,Steady); unique prefixes do (default: all six)")
    parser.add_argument("--short", type=int, default=10, metavar="MINUTES",
                        help="a short game of this many minutes of Spectrum time (default 10; "
                        "0: a normal game, ended only by bankruptcy)")
    parser.add_argument("--frame-limit", type=int, default=DEFAULT_FRAME_LIMIT, metavar="N",
                        help="call a game deadlocked after N frames (default %(default)s)")
    parser.add_argument("--normal-speed", dest="fast", action="store_false",
                        help="computer turns at the pace a watcher sees (default: the game's "
                        "fast setting, F in the menu)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no line per game")


#: The longest short game the game accepts: 23 hours 59 minutes (MAX_HOURS in setup.asm).
MAX_SHORT_MINUTES = 23 * 60 + 59


def main(args: argparse.Namespace) -> int:
    """Run the tournament, print the table; 1 on an invariant violation, 2 on bad options."""
    problem = None
    if args.games < 1:
        problem = f"--games must be 1 or more, not {args.games}"
    elif not 0 <= args.short <= MAX_SHORT_MINUTES:
        problem = (f"--short must be 0 (a normal game) to {MAX_SHORT_MINUTES} minutes (the "
                   f"game's longest short game, 23:59), not {args.short}")
    elif args.frame_limit < 1:
        problem = f"--frame-limit must be 1 or more, not {args.frame_limit}"
    if problem is not None:
        print(f"zxmonopoly tournament: error: {problem}", file=sys.stderr)
        return 2
    try:
        players = parse_players(args.players)
    except ValueError as exc:
        print(f"zxmonopoly tournament: {exc}")
        return 2
    try:
        results = run_tournament(args.games, args.seed, players, minutes=args.short or None,
                                 engine=args.engine or "jit", verbose=not args.quiet,
                                 frame_limit=args.frame_limit, fast=args.fast)
    except InvariantError as exc:
        print(f"INVARIANT VIOLATED: {exc}")
        return 1
    print(format_table(results))
    return 0
