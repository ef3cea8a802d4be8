"""A whole game over the network (issue 29): two players, each on his own headless peer (the
host and one joined peer), and a spectator; the host sets up a short game, each peer types
its own player's setup and answers every prompt its player is asked (harness/scripted.py's
GameTypist) from the title to the winner; every machine's hash is compared at every frame."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

import pytest

from tests.net.helpers import (
    NAMES,
    Recorder,
    close,
    compare,
    game_symbols,
    run,
    start_game,
    title_machine,
)
from zxmonopoly.harness import decode_state
from zxmonopoly.harness.game import GameState
from zxmonopoly.harness.invariants import state_problems
from zxmonopoly.harness.scripted import (
    HOLD_BACK,
    KEEP,
    POUND,
    GameTypist,
    game_typist,
    message_of,
)
from zxmonopoly.harness.session import INPUT_WAIT
from zxmonopoly.net import Node
from zxmonopoly.net.protocol import MAX_DELAY
from zxmonopoly.net.relay import Relay
from zxmonopoly.rules.data import SQUARES
from zxmonopoly.spectrum.keystrokes import HOLD_FRAMES
from zxmonopoly.z80 import jit_available

PLAYERS = 2
#: Frames one message may stay before the test calls it a prompt nobody answers: far past
#: the hold-backs (HOLD_BACK), any input delay and the game's longest pause.
STUCK = 10 * HOLD_BACK
TIME_UP = "Time is up! The holdings are valued."
#: Frames from a typist's choice to the game's taking its key, at most: the longest input
#: delay and the key's hold.
KEY_LAG = MAX_DELAY + HOLD_FRAMES
WINNER = re.compile(rf"(\d) (\S+) wins, worth {POUND}(\d+)\.")
TIE = re.compile(rf"A tie at {POUND}(\d+): ")
LAST = re.compile(r"(\d) (\S+) wins: the last player left in the game\.")
RENT_PAID = re.compile(rf"\d \S+ pays {POUND}\d+ rent to \d \S+\.")
DUE = "Rent is due to "  # (a computer owner's line; a human owner's says what R claims)
DUE_TO_HUMAN = re.compile(r"may press R for .* before the next throw\.")
#: The jit engine (numba; its cache is shared by the suite) plays a whole game three times as
#: fast as the python one: a 1-minute short game in about 8 s of wall time, not 27.
ENGINE = "jit" if jit_available() else "python"


@dataclass
class Watch:
    """What the host's machine showed and did in the game, seen after every frame; the
    game's invariants (money conserved among them) checked at each prompt."""

    symbols: dict
    lines: list[str] = field(default_factory=list)  # every message shown, in order
    shown: list[int] = field(default_factory=list)  # the frame each was first seen at
    problems: list[str] = field(default_factory=list)  # invariants broken, with the frame
    stuck: str | None = None  # the screen of a prompt nobody answered
    checks: int = 0  # times the invariants were checked (each prompt, as it is shown)
    time_up: int | None = None  # the frame "Time is up!" was shown from
    _waiting: int = 0
    _last: str = ""
    _since: int = 0  # the frame the message shown now was first seen

    def __call__(self, node: Node) -> None:
        s = self.symbols
        cpu = node.machine.cpu
        waiting = bool(cpu.halted) and cpu.pc == s[INPUT_WAIT]
        self._waiting = self._waiting + 1 if waiting else 0
        if self._waiting == 1:  # between two actions (mid-frame, a payment may be half made)
            self.checks += 1
            self.problems += [f"frame {node.frame}: {p}"
                              for p in state_problems(node.machine.memory, s)]
        if node.frame % 5 and not waiting:
            return
        text = message(node)
        if text != self._last:
            self.lines.append(text)
            self.shown.append(node.frame)
            self._last, self._since = text, node.frame
            if text == TIME_UP:
                self.time_up = node.frame
        elif (node.frame - self._since > STUCK and self.stuck is None
              and node.machine.memory[s["v_phase"]] != s["PHASE_OVER"]):
            # one message that long: nobody answers it (or only with keys it refuses)
            self.stuck = f"frame {node.frame}:\n" + "\n".join(node.machine.screen_text())


def message(node: Node) -> str:
    """The node's message lines as one line."""
    return message_of(node.machine, game_symbols())


def over(node: Node, symbols: dict) -> bool:
    """Whether the game has ended on this node's machine and waits for a key (the result shown)."""
    cpu = node.machine.cpu
    return (node.machine.memory[symbols["v_phase"]] == symbols["PHASE_OVER"]
            and bool(cpu.halted) and cpu.pc == symbols[INPUT_WAIT])


def worth(state: GameState, number: int) -> int:
    """The short game's valuation of a player (docs/game.md; rules.money.worth): cash, deeds at
    their price (mortgaged: half), houses at cost, a hotel as five houses."""
    total = state.players[number - 1].cash
    for sq in state.squares:
        if sq.owner != number:
            continue
        deed = SQUARES[sq.index]
        total += deed.price // 2 if sq.mortgaged else deed.price
        total += (5 if sq.hotel else sq.houses) * deed.house_cost
    return total


@dataclass
class Outcome:
    """A whole game played: what the test checks and reports."""

    nodes: list[Node]
    typists: list[GameTypist]
    watch: Watch
    compared: int
    seconds: float


async def play(minutes: int, engine: str, timeout: float, keep: int = KEEP,
               rtt: float | None = None) -> Outcome:
    """Two players and a spectator from the title to the short game's end (or a prompt
    nobody answered, or ``timeout`` seconds); each player keeps ``keep`` in cash; with
    ``rtt``, everyone reaches the host through a relay with that round trip (and 0-10 ms of
    jitter each way)."""
    symbols = game_symbols()
    relay = None if rtt is None else Relay(("127.0.0.1", 0), rtt, jitter=0.01)

    async def via(port: int) -> int:
        assert relay is not None
        relay.target = ("127.0.0.1", port)
        return await relay.start()

    host, peers = await start_game(PLAYERS, spectators=1, engine=engine,
                                   via=None if relay is None else via)
    nodes = [host, *peers]
    recorders = [Recorder(n) for n in nodes]
    watch = Watch(dict(symbols))
    host.frame_listeners.append(watch)
    typists = [game_typist(symbols, k + 1, NAMES[k], host=k == 0, players=PLAYERS,
                           minutes=minutes, keep=keep) for k in range(PLAYERS)]
    start = time.perf_counter()

    def until(node: Node) -> bool:
        return (watch.stuck is not None or over(node, symbols)
                or time.perf_counter() - start > timeout)

    runs = [n.run(paced=False, local=k, until=until) for n, k in zip(nodes, typists, strict=False)]
    await asyncio.gather(*runs, peers[-1].run(paced=False, until=until))  # the spectator
    seconds = time.perf_counter() - start
    compared = compare(recorders)
    await close(host, peers)
    if relay is not None:
        await relay.close()
    return Outcome(nodes, typists, watch, compared, seconds)


def check(outcome: Outcome) -> str:
    """Assert the game was whole, alike everywhere and fair; the winner line."""
    nodes, typists, watch = outcome.nodes, outcome.typists, outcome.watch
    symbols = watch.symbols
    screens = "\n\n".join(f"{n.name or 'node'} at frame {n.frame}: {message(n)!r}"
                          for n in nodes)
    unanswered = {t.name: t.unanswered[-3:] for t in typists}
    answered = {t.name: t.answers[-3:] for t in typists}
    assert watch.stuck is None, (f"a prompt nobody answered, at {watch.stuck}\n"
                                 f"last messages: {watch.lines[-8:]}\nlast answers: {answered}"
                                 f"\nleft to others: {unanswered}")
    assert all(over(n, symbols) for n in nodes), (
        f"the game did not end on every machine in {outcome.seconds:.0f} s:\n{screens}\n"
        f"last messages: {watch.lines[-8:]}")
    frames = {n.frame for n in nodes}
    assert len(frames) == 1, f"the machines stopped at different frames: {frames}"
    assert outcome.compared >= frames.pop() - 10, "the machines were not compared at every frame"
    assert all(n.stats.desyncs == 0 for n in nodes)
    assert watch.checks > sum(t.count("throw") for t in typists)
    assert not watch.problems, watch.problems[:5]
    results = {message(n) for n in nodes}
    assert len(results) == 1, results
    result = results.pop()
    states = [decode_state(n.machine.memory, symbols) for n in nodes]
    state = states[0]
    assert all(s == state for s in states)
    assert [p.name for p in state.players] == list(NAMES[:PLAYERS])
    assert not any(p.computer for p in state.players)
    assert state_problems(nodes[0].machine.memory, symbols) == []
    values = {p.number: worth(state, p.number) for p in state.players if p.playing}
    best = max(values.values())
    won = WINNER.search(result)
    last = LAST.search(result)
    if last:  # a bankruptcy before the time was up (rare in a short game without houses)
        assert [p.number for p in state.players if p.playing] == [int(last.group(1))]
        assert TIME_UP not in watch.lines
    elif won:
        assert TIME_UP in watch.lines, watch.lines[-8:]
        number, name, amount = int(won.group(1)), won.group(2), int(won.group(3))
        assert (name, amount) == (NAMES[number - 1], best), (result, values)
        assert [n for n, v in values.items() if v == best] == [number], (result, values)
    else:
        assert TIME_UP in watch.lines, watch.lines[-8:]
        tie = TIE.search(result)
        assert tie and int(tie.group(1)) == best, (result, values)
        assert sum(v == best for v in values.values()) > 1
    for typist in typists:
        me = typist.number
        throws = [d for _f, kind, d in typist.answers if kind == "throw"]
        assert len(throws) >= 3, (typist.name, typist.answers)
        own = re.compile(rf"Turn of {me} {typist.name}( \(in jail\))?\. D to throw\.")
        assert all(own.fullmatch(d) for d in throws), throws
    bought = [(t.number, d) for t in typists for _f, kind, d in t.answers if kind == "buy"]
    assert bought, [t.answers for t in typists]
    assert any(state.squares[_square(name)].owner == who for who, name in bought), bought
    rent = paid(watch)
    refused = [line for line in watch.lines if line.startswith("No rent is due")]
    # each rent due is claimed by the owner's peer and paid; one due as the time ran out
    # may be lost with the game (the R lands after the end)
    end = (watch.time_up or nodes[0].frame) - KEY_LAG
    claims = [(t.name, f, d) for t in typists for f, k, d in t.answers if k == "rent"]
    due = [f for f, line, before in zip(watch.shown, watch.lines, ["", *watch.lines],
                                        strict=False)
           if _due(line) and not _due(before)]  # (printed, then longer)
    assert len(rent) + len(refused) >= sum(f < end for _n, f, _d in claims), (
        rent, refused, claims)
    # ("Rent is due" stays LAND_PAUSE frames before the game goes on)
    assert len(rent) + len(refused) >= sum(f < end - symbols["LAND_PAUSE"] for f in due), (
        rent, refused, due, claims)
    return result


def _due(line: str) -> bool:
    """Whether a message is the line saying rent is due (to a computer or to a human)."""
    return line.startswith(DUE) or DUE_TO_HUMAN.search(line) is not None


def paid(watch: Watch) -> list[str]:
    """The rent payments shown, each once (a line sampled half printed is not one)."""
    return [line for line in watch.lines if RENT_PAID.fullmatch(line)]


def _square(name: str) -> int:
    return next(sq.index for sq in SQUARES if name in (sq.name, sq.short))


def report(outcome: Outcome, result: str) -> str:
    """One line for the test's output (-s): the figures of the game."""
    turns = {t.name: t.count("throw") for t in outcome.typists}
    counts = {t.name: {k: t.count(k) for k in ("buy", "decline", "rent", "bid", "close")}
              for t in outcome.typists}
    rent = paid(outcome.watch)
    return (f"{outcome.nodes[0].frame} frames in {outcome.seconds:.1f} s; throws {turns}; "
            f"{counts}; invariants checked at {outcome.watch.checks} prompts; "
            f"{len(rent)} rents paid (the first {rent[:1]}); "
            f"{result!r}")


def whole_game(minutes: int, engine: str, seconds: float, rtt: float | None = None) -> str:
    """Play, check and report a short game of ``minutes``; the report."""
    title_machine(engine=engine)  # a cold numba cache compiles here, outside the time limits
    outcome = run(play(minutes, engine, timeout=seconds, rtt=rtt), timeout=seconds + 60)
    line = report(outcome, check(outcome))
    print(line)
    return line


def test_a_one_minute_short_game_over_the_network() -> None:
    """The default suite's whole game: a 1-minute short game (3,000 frames of the game's
    clock, some 3,700 frames from the title), about ten throws each."""
    whole_game(1, ENGINE, 150)


@pytest.mark.slow
def test_a_one_minute_short_game_on_the_python_engine() -> None:
    """The same on the python engine (about 27 s of wall time)."""
    whole_game(1, "python", 300)


@pytest.mark.slow
def test_a_five_minute_short_game_over_the_network() -> None:
    """A longer game, 5 minutes of the game's clock (15,000 frames): many turns each."""
    whole_game(5, ENGINE, 600)


@pytest.mark.slow
def test_a_short_game_through_a_relay_at_100_ms() -> None:
    """The 1-minute game with a 100 ms round trip to the host (the input delay at 6 frames):
    the hold-backs still keep the players' keys apart (about 32 s, waiting on the network)."""
    whole_game(1, ENGINE, 300, rtt=0.1)
