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
import math
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from zxmonopoly.harness import invariants
from zxmonopoly.harness.errors import HarnessError
from zxmonopoly.harness.game import (
    PERSONALITIES,
    PERSONALITY_SYMBOL,
    player_field_address,
    read_variable,
)

#: The six the setup gives out; the seventh, the Buyer (PERS_BUYER: buys everything it can at
#: the printed price, never builds or trades), is a yardstick chosen only with --players.
GAME_PERSONALITIES = PERSONALITIES[:6]
#: Frames a game may last before it is called a deadlock (about 55 hours of Spectrum time).
DEFAULT_FRAME_LIMIT = 10_000_000


class InvariantError(HarnessError):
    """An invariant broken in a game: the message has the seed, the turn and the state."""


class PlayersError(HarnessError, ValueError):
    """A ``--players`` list that names no game's players (a ValueError too: a bad value)."""


def personality_of(name: str) -> int:
    """Index in PERSONALITIES (PERS_* order) of a personality name (a unique prefix, case
    ignored)."""
    hits = [i for i, p in enumerate(PERSONALITIES) if p.lower().startswith(name.strip().lower())]
    if len(hits) != 1:
        raise PlayersError(f"unknown personality {name!r}; choose from {', '.join(PERSONALITIES)}")
    return hits[0]


def parse_players(spec: str | None) -> list[int]:
    """``Mean,Reckless,...`` (2-6 names or unique prefixes, repeats allowed) as PERS_*;
    None: all six."""
    if not spec:
        return list(range(len(GAME_PERSONALITIES)))
    words = spec.split(",")
    if any(not word.strip() for word in words):
        raise PlayersError(f"--players {spec!r}: an empty name (between two commas, or at an end)")
    chosen = [personality_of(word) for word in words]
    if not 2 <= len(chosen) <= 6:
        raise PlayersError(f"--players needs 2 to 6 personalities, got {len(chosen)}")
    return chosen


# -- reading the machine ------------------------------------------------------------------------
# The invariants live in the harness (zxmonopoly.harness.invariants); these names stay here
# for callers of the tournament's earlier API.
bank_balance = invariants.bank_balance
square_levels = invariants.square_levels
check_invariants = invariants.check_invariants


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
    events: list = field(default_factory=list)  # the game's record (harness.events.Event)


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
                    fast: bool = True, deal: bool = False) -> None:
    """Title key, seed, then the setup's keys for all-computer players (``deal``: a short
    game's Title Deeds dealt, booklet A)."""
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
    s = session.symbols
    for n, pers in enumerate(personalities):
        session.poke(player_field_address(s, n + 1, "P_PERSONALITY"),
                     s[PERSONALITY_SYMBOL[PERSONALITIES[pers]]])
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
        session.wait_input()
        session.tap("Y" if deal else "N")  # the Title Deeds dealt, or everyone starts with cash
    else:
        session.tap("N")
    for _option in range(3):
        session.wait_input()
        session.tap("N")


def play_game(seed: int, personalities: Sequence[int], *, minutes: int | None = 10,
              engine: str | None = "jit", frame_limit: int = DEFAULT_FRAME_LIMIT,
              check_every_frame: bool = False, fast: bool = True, deal: bool = False,
              on_session: Callable[[object], None] | None = None) -> GameResult:
    """Play one all-computer game; InvariantError on a violation or a game that never ends.

    ``on_session`` is called with the new Session before the setup (a test adds its own frame
    listeners there); the result keeps the game's record of events (``events``). ``deal``: a
    short game (``minutes``) starts with the Title Deeds dealt.
    """
    from zxmonopoly.harness.session import Session

    started = time.perf_counter()
    session = Session.game(engine=engine)
    if on_session is not None:
        on_session(session)
    s = session.symbols
    mem = session.machine.memory
    setup_computers(session, personalities, minutes, seed, fast, deal)
    n = len(personalities)
    result = GameResult(seed, [PlayerResult(PERSONALITIES[p]) for p in personalities])
    start_frame = session.frame
    phase_over = s["PHASE_OVER"]
    phase_playing = s["PHASE_PLAYING"]
    bidder_at, high_at = s["auction_bidder"], s["auction_high"]
    flags_at = [player_field_address(s, i + 1, "P_FLAGS") for i in range(n)]
    playing_bit = 1 << s["PF_PLAYING"]
    watch = _Watch(levels=square_levels(mem, s))

    def fail(why: str) -> InvariantError:
        return InvariantError(f"seed {seed}, players {[PERSONALITIES[p] for p in personalities]}"
                              f", turn {read_variable(mem, s, 'v_turns')}, "
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
        turns = read_variable(mem, s, "v_turns")
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
    result.events = session.events()
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


#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054
#: The level at which a difference of win rates is called significant (after Holm's
#: correction for the number of pairs compared).
SIGNIFICANCE = 0.05


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % by default): (low, high) in 0..1."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def two_proportion_p(wins_a: int, games_a: int, wins_b: int, games_b: int) -> float:
    """The two-sided p-value of the pooled two-proportion z-test (1.0 when undefined)."""
    if not games_a or not games_b:
        return 1.0
    pooled = (wins_a + wins_b) / (games_a + games_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / games_a + 1 / games_b))
    if se == 0:
        return 1.0
    z = (wins_a / games_a - wins_b / games_b) / se
    return math.erfc(abs(z) / math.sqrt(2))


def significant_differences(totals: dict[str, Tally],
                            level: float = SIGNIFICANCE) -> list[tuple[str, str, float]]:
    """The pairs (better, worse, p) whose win rates differ significantly: pairwise
    two-proportion z-tests, Holm's step-down correction over all pairs at ``level``."""
    names = list(totals)
    tests = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            ta, tb = totals[a], totals[b]
            tests.append((two_proportion_p(ta.wins, ta.games, tb.wins, tb.games), a, b))
    tests.sort()
    out = []
    for rank, (p, a, b) in enumerate(tests):
        if p > level / (len(tests) - rank):
            break
        ta, tb = totals[a], totals[b]
        better, worse = (a, b) if ta.wins / ta.games >= tb.wins / tb.games else (b, a)
        out.append((better, worse, p))
    return out


def format_table(results: Sequence[GameResult]) -> str:
    """The per-personality table (with each win rate's 95 % Wilson interval), which
    differences are significant, and the game lengths, as text."""
    rows = [f"{'personality':<16}{'games':>6}{'wins':>6}{'ties':>6}{'bust':>6}"
            f"{'avg worth':>11}{'bought':>8}{'built':>7}{'bids':>7}{'trades':>8}"
            f"{'win %':>7}  {'95% interval'}"]
    totals = tally(results)
    for name, t in totals.items():
        low, high = wilson_interval(t.wins, t.games)
        rows.append(f"{name:<16}{t.games:>6}{t.wins:>6}{t.ties:>6}{t.bankrupt:>6}"
                    f"{t.worth / t.games:>11.0f}{t.bought:>8}{t.built:>7}{t.bids:>7}"
                    f"{t.trades:>8}{100 * t.wins / t.games:>7.1f}  "
                    f"{100 * low:>5.1f}-{100 * high:.1f}")
    if results:
        pairs = len(totals) * (len(totals) - 1) // 2
        found = significant_differences(totals)
        rows.append("")
        head = (f"win rates compared pairwise (two-proportion z-test, Holm-corrected over "
                f"{pairs} pairs, 5 % level): ")
        if found:
            rows.append(head + "; ".join(f"{a} > {b} (p = {p:.3g})" for a, b, p in found))
        else:
            rows.append(head + "no difference is significant")
        turns = [g.turns for g in results]
        frames = [g.frames for g in results]
        rows.append(f"games {len(results)}: turns min {min(turns)} avg "
                    f"{sum(turns) / len(turns):.0f} max {max(turns)}; frames min {min(frames)} "
                    f"avg {sum(frames) / len(frames):.0f} max {max(frames)} "
                    f"({sum(frames) / len(frames) / 50 / 60:.1f} Spectrum minutes a game)")
    return "\n".join(rows)


@dataclass(frozen=True)
class WorkUnit:
    """One game of a tournament, all it needs to be played anywhere (a process, a Dask
    worker): game ``index`` (0-based), its seed and seating and the run's settings."""

    index: int
    seed: int
    seating: tuple[int, ...]
    minutes: int | None
    engine: str | None
    frame_limit: int
    fast: bool


def work_units(games: int, seed: int, players: Sequence[int], *, minutes: int | None = 10,
               engine: str | None = "jit", frame_limit: int = DEFAULT_FRAME_LIMIT,
               fast: bool = True) -> list[WorkUnit]:
    """The tournament's games: game g uses seed ``(seed + g) % 65536`` (0 becomes 1) and the
    seating rotated by g, so no personality always throws first."""
    units = []
    for g in range(games):
        k = g % len(players)
        seating = tuple(players[k:]) + tuple(players[:k])
        units.append(WorkUnit(g, (seed + g) % 65536 or 1, seating, minutes, engine,
                              frame_limit, fast))
    return units


def play_unit(unit: WorkUnit) -> GameResult:
    """Play one work unit (the function the processes and Dask workers run)."""
    return play_game(unit.seed, list(unit.seating), minutes=unit.minutes, engine=unit.engine,
                     frame_limit=unit.frame_limit, fast=unit.fast)


def _results(units: Sequence[WorkUnit], jobs: int,
             scheduler: str | None) -> Iterator[GameResult]:
    """The results of the units in their order: played here, in ``jobs`` processes, or on
    the Dask cluster whose scheduler is at ``scheduler``."""
    if scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise RuntimeError("--scheduler needs Dask distributed: pip install "
                               "'zxmonopoly[cluster]'") from None
        try:
            client = Client(scheduler)
        except (OSError, ValueError, TypeError) as exc:  # no scheduler there, a bad address
            raise RuntimeError(f"--scheduler {scheduler}: {exc}") from None
        with client:
            futures = client.map(play_unit, list(units), pure=False)
            for future in futures:
                yield future.result()
        return
    if jobs <= 1:
        for unit in units:
            yield play_unit(unit)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # spawn: each worker is a fresh interpreter with our sys.path (no engine state forked).
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(units)), mp_context=context) as pool:
        yield from pool.map(play_unit, units)


def run_tournament(games: int, seed: int, players: Sequence[int], *, minutes: int | None = 10,
                   engine: str | None = "jit", verbose: bool = False,
                   frame_limit: int = DEFAULT_FRAME_LIMIT, fast: bool = True, jobs: int = 1,
                   scheduler: str | None = None,
                   log_dir: str | os.PathLike[str] | None = None) -> list[GameResult]:
    """``games`` games (:func:`work_units`) played here (``jobs`` 1), across ``jobs``
    processes, or on the Dask cluster whose scheduler is at ``scheduler``; the results, in
    game order, are the same every way but for the wall-clock ``seconds``. With ``log_dir``
    each game's record of events is written there, ``game-NNNN-seed-S.txt``."""
    units = work_units(games, seed, players, minutes=minutes, engine=engine,
                       frame_limit=frame_limit, fast=fast)
    results = []
    for unit, result in zip(units, _results(units, jobs, scheduler), strict=True):
        results.append(result)
        if log_dir is not None:
            from zxmonopoly.harness.events import write_log

            who = ", ".join(p.personality for p in result.players)
            write_log(Path(log_dir) / f"game-{unit.index + 1:04d}-seed-{unit.seed}.txt",
                      result.events, f"game {unit.index + 1}, seed {unit.seed}: {who}; "
                      f"{result.turns} turns, {result.frames} frames")
        if verbose:
            who = ", ".join(f"{p.personality}{'*' if p.won else ''} {p.worth}"
                            f"{' (bust)' if p.bankrupt else ''}" for p in result.players)
            print(f"game {unit.index + 1} seed {unit.seed}: {result.turns} turns, "
                  f"{result.frames} frames, {result.seconds:.1f}s: {who}", flush=True)
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
    parser.add_argument("--log", metavar="DIR",
                        help="write each game's record of events (every throw, purchase, "
                        "rent, card ... in words) to DIR/game-NNNN-seed-S.txt")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="play the games in N processes (default 1); the results are "
                        "the same as with 1")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play the games on the Dask distributed cluster whose scheduler "
                        "is at ADDRESS (tcp://host:8786; needs zxmonopoly[cluster])")


#: The longest short game the game accepts: 23 hours 59 minutes (MAX_HOURS in setup.asm).
MAX_SHORT_MINUTES = 23 * 60 + 59
#: The most games: one for each of the 65,536 seeds (game g's seed is S + g mod 65536).
MAX_GAMES = 65536
#: The most processes for --jobs: a bound far above any machine's cores (the pool's own
#: semaphores overflow near 2**31; a huge count must be refused, not crash).
MAX_JOBS = 256


def main(args: argparse.Namespace) -> int:
    """Run the tournament, print the table; 1 on an invariant violation, 2 on bad options."""
    problem = None
    if not 1 <= args.games <= MAX_GAMES:
        problem = (f"--games must be 1 to {MAX_GAMES:,} (one game for each seed), "
                   f"not {args.games}")
    elif not 1 <= args.jobs <= MAX_JOBS:
        problem = f"--jobs must be 1 to {MAX_JOBS}, not {args.jobs}"
    elif not 0 <= args.short <= MAX_SHORT_MINUTES:
        problem = (f"--short must be 0 (a normal game) to {MAX_SHORT_MINUTES} minutes (the "
                   f"game's longest short game, 23:59), not {args.short}")
    elif args.frame_limit < 1:
        problem = f"--frame-limit must be 1 or more, not {args.frame_limit}"
    if problem is not None:
        print(f"zxmonopoly tournament: error: {problem}", file=sys.stderr)
        return 2
    log_dir = getattr(args, "log", None)
    if log_dir is not None:
        try:
            Path(log_dir).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"zxmonopoly tournament: error: --log {log_dir}: {exc}", file=sys.stderr)
            return 2
    try:
        players = parse_players(args.players)
    except PlayersError as exc:
        print(f"zxmonopoly tournament: error: {exc}", file=sys.stderr)
        return 2
    try:
        results = run_tournament(args.games, args.seed, players, minutes=args.short or None,
                                 engine=args.engine or "jit", verbose=not args.quiet,
                                 frame_limit=args.frame_limit, fast=args.fast, jobs=args.jobs,
                                 scheduler=args.scheduler, log_dir=log_dir)
    except InvariantError as exc:
        print(f"INVARIANT VIOLATED: {exc}")
        return 1
    except RuntimeError as exc:
        print(f"zxmonopoly tournament: error: {exc}", file=sys.stderr)
        return 2
    print(format_table(results))
    return 0
