"""Differential play: the Z80 game and the Python rules model, action by action.

A seeded driver plays human players' keys into the game (GameRig: the game's own routines,
the dice rigged) and the same actions into ``zxmonopoly.rules``; after every action the state
decoded from RAM is compared with the model's. A difference stops the game with a
:class:`Mismatch` naming the seed, the action and both states. Decisions (buy or not, bids,
paying out of jail, fine or Chance, claiming rent in time or not) come from the seed, so a
seed is a reproducible test case.

The comparison stops, as "out of the model's reach", when a player cannot pay: the game then
sells and mortgages on the player's behalf (bank.asm) while the model records a debt for the
player to settle by hand.

Every game is also written down as a keystroke script (:meth:`DifferentialGame.script`): the
same game played from the title through the real setup, the same throws and answers, ending
with the model's state as ``expect`` lines. A mismatch writes it to ``script_dir`` (when
given), so the difference becomes a regression test that replays through the tape.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path

from zxmonopoly.harness.errors import HarnessError
from zxmonopoly.harness.game import GameState, decode_state
from zxmonopoly.harness.rig import RETURN_TRAP, GameRig
from zxmonopoly.rules import estate, turn
from zxmonopoly.rules.data import CARDS, SQUARES
from zxmonopoly.rules.state import HOTEL, Game, RuleError, new_game

#: Frames one question may take to appear (moving a token round the board is the longest).
STEP_BUDGET = 6000
NAMES = ("ANN", "BOB", "CAT", "DAN", "EVE", "FAY")


class Mismatch(HarnessError):
    """The game and the model disagree after an action."""


@dataclass
class Report:
    """What a differential game did."""

    seed: int
    actions: int = 0
    turns: int = 0
    stopped: str = ""
    log: list[str] = field(default_factory=list)


def _compare(state: GameState, model: Game) -> list[str]:
    """The differences between the decoded state and the model, as readable lines."""
    out: list[str] = []
    for i, (p, m) in enumerate(zip(state.players, model.players, strict=True)):
        got = (p.cash, p.square, p.in_jail, p.jail_turns if p.in_jail else 0, len(p.jail_cards))
        want = (m.cash, m.square, m.in_jail, m.jail_turns if m.in_jail else 0, len(m.jail_cards))
        if got != want:
            out.append(f"player {i + 1} (cash, square, in jail, jail turns, jail cards): "
                       f"game {got}, model {want}")
    for index, holding in model.holdings.items():
        sq = state.squares[index]
        owner = None if sq.owner is None else sq.owner - 1
        houses = HOTEL if sq.hotel else sq.houses
        got = (owner, houses, sq.mortgaged)
        want = (holding.owner, holding.houses, holding.mortgaged)
        if got != want:
            out.append(f"{SQUARES[index].name} (owner, houses, mortgaged): game {got}, "
                       f"model {want}")
    for deck in ("chance", "chest"):
        if list(getattr(state, deck)) != model.decks[deck]:
            out.append(f"{deck} pack: game {list(getattr(state, deck))}, "
                       f"model {model.decks[deck]}")
    due = model.rent_due
    got_rent = None if state.rent is None else (state.rent.payer - 1, state.rent.square)
    want_rent = None if due is None else (due.payer, due.square)
    if got_rent != want_rent:
        out.append(f"rent due (payer, square): game {got_rent}, model {want_rent}")
    return out


class DifferentialGame:
    """One seeded game of human players, the game's routines against the rules model."""

    def __init__(self, seed: int, players: int = 2, engine: str | None = None,
                 rig: GameRig | None = None, script_dir: str | os.PathLike[str] | None = None
                 ) -> None:
        self.seed = seed
        self.script_dir = None if script_dir is None else Path(script_dir)
        self.keys: list[str] = _setup_lines(seed & 0xFFFF or 1, players)
        self.rng = random.Random(seed)
        self.rig = rig if rig is not None else GameRig(engine=engine)
        self.report = Report(seed)
        r = self.rig
        r.call("state_clear")
        r.poke("v_num_players", players)
        for p in range(players):
            r.poke(r.player_address(p + 1, "P_FLAGS"), 1 << r.symbols["PF_PLAYING"])
            r.poke(r.player_address(p + 1, "P_TOKEN"), p)
            for i, ch in enumerate(NAMES[p].encode() + b"\0"):
                r.poke(r.player_address(p + 1, "P_NAME") + i, ch)
        r.poke16("v_seed", seed & 0xFFFF or 1)
        for _ in range(players):     # the rattles of the throws for who goes first (a script
            r.call("snd_rattle")     # plays them) draw random numbers before the shuffle
        r.call("game_new")
        state = self.state()
        self.model = new_game(NAMES[:players], chance=state.chance, chest=state.chest)
        self.check("the start")

    # -- the two sides ----------------------------------------------------------------------

    def state(self) -> GameState:
        """The game's state decoded from RAM."""
        mapping = {name: self.rig.symbols[name] for name in self.rig.symbols}
        return decode_state(self.rig.machine.memory, mapping)

    def check(self, action: str) -> None:
        """Compare after ``action``; a difference raises Mismatch with both states."""
        self.report.actions += 1
        self.report.log.append(action)
        problems = _compare(self.state(), self.model)
        if problems:
            where = ""
            if self.script_dir is not None:
                path = self.script_dir / f"differential-{self.seed}.zxs"
                path.write_text(self.script(), encoding="utf-8")
                where = f"\nthe game as a keystroke script: {path}"
            raise Mismatch(f"seed {self.seed}, action {self.report.actions} ({action}):\n  "
                           + "\n  ".join(problems) + where + "\nscreen:\n" + self.rig.text())

    def out_of_reach(self) -> bool:
        """Whether the model now waits for a debt to be settled by hand (see module doc)."""
        return bool(self.model.debts)

    # -- driving the game -------------------------------------------------------------------

    def _run_to_question(self) -> str | None:
        """Run until the game asks something (its message lines) or the routine returns."""
        machine = self.rig.machine
        wait = self.rig.address("keys_wait.wait")
        if not machine.run_until(pc=wait, max_frames=STEP_BUDGET,
                                 condition=lambda m: m.cpu.pc == RETURN_TRAP):
            raise HarnessError(f"seed {self.seed}: the game neither asked nor returned "
                               f"within {STEP_BUDGET} frames\n{self.rig.text()}")
        if machine.cpu.pc == RETURN_TRAP:
            return None
        return " ".join(self.rig.row(n).strip() for n in (21, 22, 23))

    def _answer(self, keys: str) -> None:
        """Tap each key when the game waits for one (and write it into the script)."""
        for key in keys:
            name = "ENTER" if key == "\n" else key.upper()
            self.keys += ["wait input within 6000", f"tap {name}"]
            self.rig.wait_input(STEP_BUDGET)
            self.rig.tap(name)

    def script(self) -> str:
        """The game so far as a keystroke script that ends expecting the model's state."""
        lines = [f"# Differential play, seed {self.seed}: {self.report.actions} actions, written "
                 "by zxmonopoly.harness.differential.", *self.keys, "wait input within 6000"]
        m = self.model
        for i, p in enumerate(m.players):
            lines += [f"expect state player {i + 1} cash = {p.cash}",
                      f"expect state player {i + 1} square = {p.square}",
                      f"expect state player {i + 1} in_jail = {'yes' if p.in_jail else 'no'}"]
        for index, h in m.holdings.items():
            owner = "none" if h.owner is None else str(h.owner + 1)
            lines.append(f"expect state square {index} owner = {owner}")
            if h.owner is not None:
                lines.append(f"expect state square {index} mortgaged = "
                             f"{'yes' if h.mortgaged else 'no'}")
        lines.append(f"expect state chance = {','.join(m.decks['chance'])}")
        lines.append(f"expect state chest = {','.join(m.decks['chest'])}")
        return "\n".join(lines) + "\n"

    def _bids(self, square: int) -> list[tuple[int, int]]:
        """Bids for an auction: none to three, rising, sometimes one beyond the bidder's assets."""
        bids: list[tuple[int, int]] = []
        high = 0
        for _ in range(self.rng.choice((0, 1, 1, 2, 3))):
            bidder = self.rng.randrange(len(self.model.players))
            if self.model.players[bidder].bankrupt:
                continue
            if self.rng.random() < 0.1:
                amount = self.model.players[bidder].cash + 5000   # beyond any assets here
            else:
                amount = high + self.rng.randint(1, SQUARES[square].price)
            bids.append((bidder, amount))
            if amount > high:
                high = amount
            if amount > 5000:
                break
        return bids

    def _turn_questions(self) -> list[tuple[str, object]]:
        """Run the throw, answering each question; return the answers in the order asked."""
        answers: list[tuple[str, object]] = []
        while True:
            text = self._run_to_question()
            if text is None:
                return answers
            if "Get Out of Jail Free card?" in text:
                use = self.rng.random() < 0.7
                answers.append(("card", use))
                self._answer("y" if use else "n")
            elif "fine and leave jail?" in text:
                pay = self.rng.random() < 0.5
                answers.append(("fine", pay))
                self._answer("y" if pay else "n")
            elif text.startswith("Buy "):
                buy = self.rng.random() < 0.6
                answers.append(("buy", buy))
                self._answer("y" if buy else "n")
            elif text.startswith("AUCTION"):
                square = self.model.offer if self.model.offer is not None else -1
                state = self.state()
                square = next(p.square for p in state.players
                              if p.number == state.current) if square < 0 else square
                bids = self._bids(square)
                answers.append(("auction", bids))
                for bidder, amount in bids:
                    self._answer(str(bidder + 1))
                    self._answer(str(amount) + "\n")
                    if amount > 5000:
                        break
                else:
                    self._answer("\n")
            elif "Q: the computer chooses" in text:
                # Raising money: let the game choose (the model then stops: out of reach).
                answers.append(("raise", None))
                self._answer("q")
            elif text.startswith("Take a Chance"):
                take = self.rng.random() < 0.5
                answers.append(("chance", take))
                self._answer("y" if take else "n")
            else:
                raise HarnessError(f"seed {self.seed}: an unexpected question: {text!r}")

    def _model_turn(self, dice: tuple[int, int], answers: list[tuple[str, object]]) -> None:
        """The same turn in the model, consuming the answers in order.

        Answers after the game led a short payer through raising money are out of the
        model's reach (it records a debt there; the game sells, and may go on to a
        bankruptcy's auctions): the model takes the answers before it, and the state
        comparison and ``out_of_reach`` decide what follows.
        """
        cut = next((k for k, a in enumerate(answers) if a[0] == "raise"), len(answers))
        queue = list(answers[:cut])
        m = self.model
        if queue and queue[0][0] == "card":
            if queue.pop(0)[1]:
                turn.use_jail_card(m)
        if queue and queue[0][0] == "fine":
            if queue.pop(0)[1]:
                turn.pay_fine(m)
        turn.throw(m, *dice)
        while m.offer is not None or m.choice is not None:
            if not queue:
                wanted = (f"an offer of {SQUARES[m.offer].name}" if m.offer is not None
                          else "a choice: fine or Chance")
                raise Mismatch(f"seed {self.seed}: after {dice} the model has {wanted}; the "
                               f"game asked only {answers}\nscreen:\n{self.rig.text()}")
            kind, value = queue.pop(0)
            if m.offer is not None:
                if kind == "buy" and value:
                    estate.buy(m)
                    continue
                if kind == "buy":
                    if not queue:
                        raise Mismatch(f"seed {self.seed}: {SQUARES[m.offer].name} declined "
                                       f"but the game held no auction\n{self.rig.text()}")
                    kind, value = queue.pop(0)
                if kind != "auction":
                    raise Mismatch(f"seed {self.seed}: the model offers "
                                   f"{SQUARES[m.offer].name} but the game asked {kind}")
                estate.decline(m, value)  # type: ignore[arg-type]
            elif kind == "chance":
                turn.choose(m, bool(value))
        if queue:
            raise Mismatch(f"seed {self.seed}: the game asked {queue} that the model did not")

    def play_turn(self) -> bool:
        """One action: a rent claim or a throw (with its questions). False when stopped."""
        m = self.model
        if len(m.players) - sum(p.bankrupt for p in m.players) < 2:
            self.report.stopped = "one player left"
            return False
        if m.rent_due is not None and self.rng.random() < 0.7:
            owner = m.rent_due.owner
            self.keys += ["wait input within 6000", "tap R"]
            self.rig.start_call("rent_claim")
            self._turn_questions()            # a short human payer is asked how to raise it
            turn.claim_rent(m, owner)
            if self.out_of_reach():
                self.report.stopped = "a player could not pay rent (raising money)"
                return False
            self.check(f"R: rent claimed by player {owner + 1}")
            return True
        dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        self.rig.poke("v_rig_dice", dice[0])
        self.rig.poke(self.rig.address("v_rig_dice") + 1, dice[1])
        current = m.current
        self.keys += ["wait input within 6000", f"roll {dice[0]} {dice[1]}", "tap D"]
        self.rig.start_call("turn_throw")
        answers = self._turn_questions()
        again = bool(self.rig.machine.cpu.f & 1)
        try:
            self._model_turn(dice, answers)
        except RuleError as exc:
            raise Mismatch(f"seed {self.seed}: the model refused the game's turn: {exc}") from None
        if self.out_of_reach():
            self.report.stopped = "a player could not pay (raising money)"
            return False
        self.check(f"player {current + 1} threw {dice[0]}+{dice[1]}, answers {answers}")
        if again != m.to_throw:
            raise Mismatch(f"seed {self.seed}: after {dice}, the game says throw again = "
                           f"{again}, the model {m.to_throw}")
        if not m.to_throw:
            turn.end_turn(m)
            self.rig.call("turn_next_player")
            self.report.turns += 1
            if self.state().current != m.current + 1:
                raise Mismatch(f"seed {self.seed}: next player: game {self.state().current}, "
                               f"model {m.current + 1}")
        return True

    def play(self, actions: int) -> Report:
        """Play up to ``actions`` actions (or until stopped)."""
        for _ in range(actions):
            if not self.play_turn():
                break
        else:
            self.report.stopped = f"{actions} actions"
        return self.report


def _setup_lines(seed: int, players: int) -> list[str]:
    """The script's start: the title, the seed, the players entered as in the rig, no short
    game or options, player 1 throwing highest for who goes first."""
    lines = ["game", "tap SPACE", "wait input", f"seed {seed}"]
    for p in range(players):
        lines += ["wait input", f"tap {p + 1}", "wait input", "tap N", "wait input",
                  f"type {NAMES[p]}", "wait input", "tap ENTER"]
    if players < len(NAMES):
        lines += ["wait input", "tap ENTER"]
    lines += ["wait input", "tap N"] * 4             # short game, the three options
    for p in range(players):
        lines += ["wait input", "roll 6 6" if p == 0 else "roll 1 2", "tap D"]
    return lines


#: Card ids the game and the model both know, for messages.
CARD_IDS = tuple(CARDS)
