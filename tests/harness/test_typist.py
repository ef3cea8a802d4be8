"""The scripted typists (harness/scripted.py) of two players on one keyboard, as lockstep makes
it: a key a typist pressed at the very frame another player pressed another key was not the
key the game read (one keyboard reads one key), so the game still asks; the typist presses
it again, as a person at his window would."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.net.helpers import game_symbols, title_machine
from zxmonopoly.harness import scripted
from zxmonopoly.harness.scripted import Typist, message_of, setup_typist
from zxmonopoly.spectrum import NO_INPUT, FrameInput, Spectrum48

#: BOB's prompt for who goes first (player 2), and the game's turn that follows the throws.
BOBS_THROW = "2 BOB: press D to throw for who goes first"
TURN = "Turn of "
#: The other hand's key: read after D in the game's scan of the half-rows (keys_read keeps
#: the last key it finds), and no answer to a throw.
OTHER = "M"


@dataclass
class Node:
    """What a typist reads of a lockstep node: the machine, its frame, the frame keys are for
    (no input delay: this frame)."""

    machine: Spectrum48
    frame: int = 0
    next_local: int = 0


@dataclass
class Played:
    node: Node
    #: The frame BOB first pressed a key at his throw's prompt, and the frame TURN first showed.
    bob_pressed: int | None = None
    turn: int | None = None


def play(typists: list[Typist], other: Callable[[int], FrameInput], frames: int) -> Played:
    """The two players' setup on one machine, a third hand pressing ``other(frame)``."""
    played = Played(Node(title_machine()))
    node = played.node
    symbols = game_symbols()
    for _ in range(frames):
        text = message_of(node.machine, symbols)
        if TURN in text:
            played.turn = node.frame
            break
        node.next_local = node.frame
        anne, bob = (t(node) for t in typists)
        if bob != NO_INPUT and BOBS_THROW in text and played.bob_pressed is None:
            played.bob_pressed = node.frame
        node.machine.set_input(FrameInput.combined([anne, bob, other(node.frame)]))
        node.machine.run_frames(1)
        node.frame += 1
    return played


def players() -> list[Typist]:
    symbols = game_symbols()
    return [setup_typist(symbols, 1, "ANNE", host=True, players=2),
            setup_typist(symbols, 2, "BOB", host=False, players=2)]


@pytest.mark.parametrize("retry", [True, False])
def test_a_key_pressed_with_another_player_s_key_is_pressed_again(
        retry: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # Nobody else: the frame BOB presses D (the machine and the typists are deterministic).
    alone = play(players(), lambda _frame: NO_INPUT, 3000)
    pressed = alone.bob_pressed
    assert pressed is not None and alone.turn is not None, "the setup never came to BOB's throw"
    if not retry:  # the typist as it was: one press for each time a prompt is shown
        monkeypatch.setattr(scripted, "RETRY", 10**9)
    typists = players()
    # Another hand's M down with BOB's D, for as long: the game reads M, not D, and asks again.
    held = range(pressed, pressed + scripted.HOLD_FRAMES)
    jostled = play(typists, lambda frame: FrameInput.pressed((OTHER,)) if frame in held
                   else NO_INPUT, pressed + 600)
    assert jostled.bob_pressed == pressed
    bob = typists[1]
    again = [line for line in bob.typed if line.startswith("again: ")]
    if retry:
        assert jostled.turn is not None, message_of(jostled.node.machine, game_symbols())
        assert again and BOBS_THROW in again[0], bob.typed
        assert jostled.turn - alone.turn >= scripted.RETRY, (jostled.turn, alone.turn)
    else:
        assert jostled.turn is None and again == []
        assert BOBS_THROW in message_of(jostled.node.machine, game_symbols())


@pytest.mark.parametrize("names", [("ANNE", "BOB"), ("R2D2", "J.R.")])
def test_a_game_typist_bids_at_an_auction_on_the_line_the_game_asks_it(
        names: tuple[str, str]) -> None:
    """ANNE (£200) declines Whitechapel Road (£60: it would leave her under the £150 she
    keeps); at the Bank's auction each game typist bids by its number and types its amount on
    the line the game asks it on, "1 ANNE bids £" (issue 45 gave the bidder's name a line of
    its own, which the typist no longer recognised: ANNE's number typed, her amount never, and
    the game waited there for ever). Both press their numbers at once and the one keyboard
    reads BOB's; they raise each other in tens, ANNE up to the £50 she can spare (£60 is
    past it); ANNE, whose turn it is, closes it, and BOB buys it for £50. The same with
    names holding digits and punctuation, which the game's name field takes."""
    from tests.game.test_table import game  # (the table tests' setup of a human game)

    s = game(*names)
    with s.position() as pos:
        pos.cash(1, 200)
    s.rig_dice(1, 2)  # ANNE from GO to Whitechapel Road
    symbols = game_symbols()
    typists = [scripted.GameTypist(symbols, [], number=k + 1, name=name)
               for k, name in enumerate(names)]
    node = Node(s.machine, frame=s.machine.frame, next_local=s.machine.frame)
    for _ in range(3000):
        if any(e.kind == "auction" for e in s.events()):
            break
        node.next_local = node.frame
        s.machine.set_input(FrameInput.combined([t(node) for t in typists]))
        s.machine.run_frames(1)
        node.frame += 1
    bids = [(e.a, e.amount) for e in s.events() if e.kind == "bid"]
    sold = [(e.a, e.amount, e.square) for e in s.events() if e.kind == "auction"]
    assert sold == [(2, 50, 3)], (sold, bids, message_of(s.machine, symbols),
                                  [t.answers for t in typists])
    assert bids == [(2, 30), (1, 40), (2, 50)], bids
    assert [(kind, d) for _f, kind, d in typists[0].answers] == [
        ("throw", f"Turn of 1 {names[0]}. D to throw."), ("decline", "Whitechapel Rd."),
        ("bid", "40"), ("close", "Whitechapel Rd.")], typists[0].answers
