"""The game's text (issue 28, item 3): the title centred, the £ never split from its amount,
every message's sentences ended; every text fits the three message lines or is shown in parts,
each held (issue 45, item 5)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from zxmonopoly.harness.session import Session
from zxmonopoly.rules.data import CHANCE, COMMUNITY_CHEST

COLUMNS = 32


@pytest.fixture(scope="module")
def title() -> Session:
    session = Session.game()
    session.wait_input()
    return session


def test_every_title_line_is_centred(title: Session) -> None:
    lines = [(n, line) for n, line in enumerate(title.lines()) if line.strip()]
    assert len(lines) >= 9
    for n, line in lines:
        text = line.rstrip()
        left = len(text) - len(text.lstrip())
        right = COLUMNS - len(text)
        assert abs(left - right) <= 1, f"row {n} is off-centre ({left} | {right}): {line!r}"


# -- the wrapper ---------------------------------------------------------------------------

#: Where the test puts its strings: the printer buffer, after the rig's return trap.
TEXT_AT = 0x5B10


def reference_wrap(text: str, width: int = COLUMNS) -> list[str]:
    """Greedy word wrap as a reader expects it: words (runs between spaces) never split unless
    longer than a line, one space between words dropped at a break."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = word if not line else line + " " + word
        if len(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while len(word) > width:
            lines.append(word[:width])
            word = word[width:]
        line = word
    lines.append(line)
    return lines


def show(rig, pieces: list[str | int]) -> list[str]:
    """Print pieces on cleared message lines (a str through msg_print, an int through
    msg_money) and return the three lines."""
    rig.call("msg_clear")
    for piece in pieces:
        if isinstance(piece, int):
            rig.call("msg_money", hl=piece)
            continue
        data = piece.replace("£", "`").encode("ascii") + b"\0"  # the font's £ is at 60h
        for i, byte in enumerate(data):
            rig.poke(TEXT_AT + i, byte)
        rig.call("msg_print", hl=TEXT_AT)
    return rig.message_rows()


@pytest.mark.parametrize("amount", [5, 1500, 20000])
def test_an_amount_and_its_stop_stay_with_the_pound_sign(shared_rig, amount: int) -> None:
    """'£' and its digits and the stop after them are one word at every column (the issue's
    "total £" / "1500. Press a key")."""
    for lead in range(1, 34):
        pieces: list[str | int] = ["x" * lead + " Cash ", amount, ", total ", amount,
                                   ". Press a key"]
        text = "".join(p if isinstance(p, str) else f"£{p}" for p in pieces)
        rows = show(shared_rig, pieces)
        expected = reference_wrap(text)[-3:]
        assert [r for r in rows if r] == expected, (lead, rows)
        for row in rows:
            assert not row.endswith("£") and not row.startswith("."), (lead, rows)


def test_a_word_printed_in_pieces_is_carried_whole(shared_rig) -> None:
    """A square's name and its full stop, a name and its colon: the stop goes with the word."""
    for lead in range(1, 33):
        pieces: list[str | int] = ["y" * lead, " buys ", "Vine Street", ".", " Throw again."]
        rows = show(shared_rig, pieces)
        assert [r for r in rows if r] == reference_wrap("".join(map(str, pieces))), (lead, rows)


# -- every message ----------------------------------------------------------------------------

GAME_SOURCE = Path(__file__).resolve().parents[2] / "src" / "game"
#: The routines that print more of a message after its first string.
CONTINUES = ("msg_print", "msg_money", "msg_number", "msg_player", "msg_player_piece",
             "msg_square_name", "msg_digit", "msg_char", "msg_stop", "ask_yn", "ask_number",
             "ask_player", "houses_print_unit")
#: Those that show a string as a whole message, and those that ask it as a question.
SHOWS = ("msg_show", "houses_refuse", "trade_refuse_pause")
ENDS = ".?!:"


def strings() -> dict[str, str]:
    """Every str_ label of the game's source and its text (£ for CH_POUND, codes dropped)."""
    found = {}
    for path in sorted(GAME_SOURCE.glob("*.asm")):
        for label, body in re.findall(r"^(str_\w+):\s*db\s+(.*)$", path.read_text(), re.M):
            text = ""
            for piece in re.findall(r'"[^"]*"|;.*|[^,"\s][^,"]*', body):
                if piece.startswith(";"):
                    break  # a comment
                text += piece[1:-1] if piece.startswith('"') else (
                    "£" if piece.strip() == "CH_POUND" else "")
            found[label] = text
    return found


def whole_messages() -> dict[str, str]:
    """The strings the code shows as a whole message or asks as a whole question: ``ld hl,
    str_X`` then msg_show (or a refusal) or ask_yn, with nothing printed after it."""
    texts, uses = strings(), {}
    for path in sorted(GAME_SOURCE.glob("*.asm")):
        calls = re.findall(r"^\s+(?:ld hl, (str_\w+)|(?:call|jp)\s+(?:[a-z]+,\s*)?(\w+))",
                           path.read_text(), re.M)
        for k, (label, _) in enumerate(calls):
            if not label or label not in texts:
                continue
            after = [routine for lbl, routine in calls[k + 1:k + 6] if not lbl][:2]
            if not after:
                continue
            if after[0] == "ask_yn" or (after[0] in SHOWS and
                                        (len(after) < 2 or after[1] not in CONTINUES)):
                uses[label] = texts[label]
    return uses


def test_no_string_parts_a_pound_sign_from_its_amount() -> None:
    texts = strings()
    assert len(texts) > 200
    for label, text in texts.items():
        assert "£ " not in text, f"{label}: {text!r}"


def test_every_whole_message_ends_its_sentence() -> None:
    messages = whole_messages()
    assert len(messages) > 45, sorted(messages)
    for label, text in messages.items():
        assert text.rstrip()[-1:] in ENDS, f"{label} ends without a stop: {text!r}"


def sentence_starts() -> set[str]:
    """The strings that begin a new sentence after other text (" Throw again.")."""
    return {text.strip() for text in strings().values() if re.match(r" [A-Z][a-z]", text)
            and not text.strip().startswith(("Player", "Minutes"))}


def computer_messages(seed: int, frames: int) -> list[str]:
    """Every message an all-computer game shows (read as each is cleared), and the rows."""
    from zxmonopoly.harness.tournament import setup_computers

    session = Session.game(engine="jit")
    setup_computers(session, [0, 1, 2, 3], 20, seed, fast=True)
    at = session.address("msg_clear")
    seen: list[str] = []

    def cleared(shared_rig) -> None:
        if shared_rig.cpu.pc == at and session.message():
            rows = [row for row in session.message_rows() if row]
            assert not any(row.endswith("£") or row.startswith(".") for row in rows), rows
            seen.append(session.message())

    session.machine.cpu.breakpoints[at] = 1
    session.machine.break_handlers.append(cleared)
    over = session.symbols["PHASE_OVER"]
    session.machine.run_until(
        condition=lambda m: m.memory[session.address("v_phase")] == over, max_frames=frames)
    return seen


@pytest.mark.parametrize("seed", [7, 23])
def test_every_message_of_computer_games_ends_its_sentences(seed: int) -> None:
    messages = computer_messages(seed, 40_000)
    assert len(messages) > 150
    starts = sentence_starts()
    assert "Throw again." in starts
    for text in messages:
        assert text[-1] in ".?!", f"no stop: {text!r}"
        assert ".." not in text.replace("...", ""), text
        for start in starts:
            at = text.find(" " + start)
            assert at < 0 or text[at - 1] in ENDS, f"{start!r} follows no stop: {text!r}"


# -- every text fits, or is shown in parts (issue 45, item 5) ---------------------------------

ROWS = 3


def reference_parts(text: str) -> list[list[str]]:
    """The parts a text is shown in: its wrapped lines, three at a time (each stripped, as
    Parts.shown reads them)."""
    body = text.lstrip(" ")  # a leading space takes its column, as the game prints it
    lead = "\x01" * (len(text) - len(body))
    lines = [line.replace("\x01", "").strip() for line in reference_wrap(lead + body)]
    lines = [line for line in lines if line]
    if not lines:
        return [[]]
    return [lines[k:k + ROWS] for k in range(0, len(lines), ROWS)]


class Parts:
    """Each part of a message that the game held and then cleared for the rest (msg_part),
    with the frames it stayed on the screen, and the rows at the end."""

    def __init__(self, rig):
        self.rig, self.held = rig, []  # [rows, frame at msg_part, frames it stayed]
        # (a game without parts, as before issue 45, scrolls instead: its texts are compared
        # all the same, and fail)
        self.at = rig.symbols["msg_part"] if "msg_part" in rig.symbols else None

    def __enter__(self) -> Parts:
        machine = self.rig.machine
        if self.at is not None:
            machine.cpu.breakpoints[self.at] = 1
        machine.break_handlers.append(self.part)
        machine.frame_listeners.append(self.frame)
        return self

    def __exit__(self, *_exc) -> None:
        machine = self.rig.machine
        self.frame(machine)  # (the call may end in the frame that cleared the last part)
        if self.at is not None:
            machine.cpu.breakpoints[self.at] = 0
        machine.break_handlers.remove(self.part)
        machine.frame_listeners.remove(self.frame)

    def part(self, machine) -> None:
        if machine.cpu.pc == self.at:
            self.held.append([self.rig.message_rows(), machine.frame, None])

    def frame(self, machine) -> None:
        for part in self.held:
            if part[2] is None and self.rig.message_rows() != part[0]:
                part[2] = machine.frame - part[1]

    def shown(self) -> list[list[str]]:
        """Every part's rows (blank rows dropped, each row stripped), the last the rows on the
        screen now."""
        parts = [rows for rows, _at, _held in self.held] + [self.rig.message_rows()]
        return [[row.strip() for row in rows if row.strip()] for rows in parts]

    def holds(self) -> list[int | None]:
        return [held for _rows, _at, held in self.held]


def part_frames(rig) -> int:
    """How long a full part stays (MSG_PART_FRAMES; 0 for a game without parts)."""
    return rig.symbols["MSG_PART_FRAMES"] if "MSG_PART_FRAMES" in rig.symbols else 0


def poke_text(rig, text: str, at: int = TEXT_AT) -> int:
    data = text.replace("£", "`").encode("ascii") + b"\0"  # the font's £ is at 60h
    for i, byte in enumerate(data):
        rig.poke(at + i, byte)
    return at


def test_every_string_of_the_game_fits_or_is_shown_in_held_parts(shared_rig) -> None:
    """Each string of the program (the strings table: every str_ label) shown as a message:
    all of it is on the screen, three lines at a time, each full part held."""
    hold = part_frames(shared_rig)
    texts = strings()
    assert len(texts) > 250
    for label, text in texts.items():
        with Parts(shared_rig) as parts:
            shared_rig.call("msg_show", hl=poke_text(shared_rig, text))
        assert parts.shown() == reference_parts(text), label
        assert all(h is not None and h >= hold for h in parts.holds()), label


def test_every_card_text_fits_or_is_shown_in_held_parts(shared_rig) -> None:
    """Each card as cards_show puts it (the pack's name, the text, its stop): never a line
    scrolled away unread (issue 45: "all of your houses. For each ..." was all one saw)."""
    s = shared_rig.symbols
    hold = part_frames(shared_rig)
    shared_rig.call("state_clear")
    split = []
    for pack, (name, cards) in enumerate((("CHANCE: ", CHANCE),
                                          ("COMMUNITY CHEST: ", COMMUNITY_CHEST))):
        for number, card in enumerate(cards):
            shared_rig.poke("card_pack", pack)
            shared_rig.poke("card_number", number)
            with Parts(shared_rig) as parts:
                start = shared_rig.frame
                shared_rig.call("cards_show")
            text = name + card.text + ("" if card.text[-1] in ".?!" else ".")
            assert parts.shown() == reference_parts(text), card.id
            assert all(h is not None and h >= hold for h in parts.holds()), card.id
            # the last part stays the card's own time
            last = (parts.held[-1][1] + parts.holds()[-1]) if parts.held else start
            assert shared_rig.frame - last >= s["CARD_PAUSE"], card.id
            if parts.held:
                split.append(card.id)
    assert split == ["CH08"]  # the one card longer than three lines: shown in two parts


def random_text(rng: random.Random) -> list[str | int]:
    """Words of any length (some longer than a line), names and amounts, in pieces."""
    pieces: list[str | int] = []
    for _ in range(rng.randrange(1, 40)):
        kind = rng.random()
        if kind < 0.15:
            pieces.append(" " if pieces else "")
            pieces.append(rng.choice([5, 60, 1500, 20000]))
        elif kind < 0.2:
            pieces.append((" " if pieces else "") + "w" * rng.randrange(25, 45))  # a line+
        else:
            word = "".join(rng.choice("abcdefghij") for _ in range(rng.randrange(1, 12)))
            pieces.append((" " if pieces else "") + word + rng.choice(["", "", ".", ",", ":"]))
    return pieces


def test_the_wrapper_shows_any_text_whole_in_held_parts(shared_rig) -> None:
    """Any message, however it is printed (strings, amounts, a word in pieces) and however
    long: the parts shown, in order, are the whole text wrapped; a word carried at the end of
    a part is not shown half there first; every full part is held."""
    hold = part_frames(shared_rig)
    rng = random.Random(45)
    longest = 0
    for _ in range(60):
        pieces = random_text(rng)
        text = "".join(p if isinstance(p, str) else f"£{p}" for p in pieces)
        longest = max(longest, len(text))
        with Parts(shared_rig) as parts:
            shared_rig.call("msg_clear")
            for piece in pieces:
                if isinstance(piece, int):
                    shared_rig.call("msg_money", hl=piece)
                elif piece:
                    shared_rig.call("msg_print", hl=poke_text(shared_rig, piece))
        assert parts.shown() == reference_parts(text), text
        assert all(h is not None and h >= hold for h in parts.holds()), text
    assert longest > 3 * 3 * COLUMNS  # some texts take three parts and more


def test_a_prompts_keys_are_seen_whole(shared_rig) -> None:
    """msg_print_whole (the keys of a prompt that waits, e.g. a short payer's): after text of
    any length, the keys are in the last part, whole, while the game waits; the text before
    them is all shown, in held parts."""
    hold = part_frames(shared_rig)
    keys = " ENTER: sell a building or mortgage there. Q: the computer chooses."
    for lead in range(0, 160, 7):
        before = " ".join(["word"] * (lead // 5)) + "." if lead else ""
        with Parts(shared_rig) as parts:
            shared_rig.call("msg_clear")
            if before:
                shared_rig.call("msg_print", hl=poke_text(shared_rig, before))
            shared_rig.call("msg_print_whole", hl=poke_text(shared_rig, keys, TEXT_AT + 0x100))
        shown = parts.shown()
        assert " ".join(shown[-1]).endswith(keys.strip()), (lead, shown)
        assert keys.strip() in " ".join(shown[-1]), (lead, shown)
        words = " ".join(" ".join(part) for part in shown).split()
        assert words == (before + keys).split(), (lead, shown)
        assert all(h is not None and h >= hold for h in parts.holds()), lead


# -- a typed field, answered (issue 45's leftovers) -------------------------------------------


def _answer(rig, routine: str, keys: str, **registers: int) -> None:
    """Call an asking routine and type ``keys`` (then ENTER) when it waits."""
    rig.start_call(routine, **registers)
    for key in [*keys, "ENTER"]:
        rig.wait_input()
        rig.tap(key)
    rig.finish_call()


def test_a_number_answered_shows_only_what_was_typed(shared_rig) -> None:
    """The short game's length as the setup asks it: "Hours: " and "Minutes: ", each a field
    of dots for the room left. After ENTER the field shows only the digits typed (before: the
    dots stayed, "Hours: 1.... Minutes: 30..."), and the question goes on right after them."""
    rig = shared_rig
    s = rig.symbols
    rig.call("msg_clear")
    rig.start_call("ask_number", hl=s["str_hours"])
    rig.wait_input()
    assert rig.message_rows()[0] == "Hours: " + "." * s["INPUT_DIGITS"]  # the empty field
    rig.tap("1")
    rig.wait_input()
    rig.tap("ENTER")
    rig.finish_call()
    assert rig.machine.cpu.hl == 1
    assert rig.message_rows()[0] == "Hours: 1"
    _answer(rig, "ask_number", "30", hl=s["str_minutes"])
    assert rig.machine.cpu.hl == 30
    assert rig.message_rows() == ["Hours: 1 Minutes: 30", "", ""]


def test_a_number_field_left_empty_and_a_name_lose_their_dots(shared_rig) -> None:
    """ENTER alone on a number field (no bid, no hours) leaves it blank, not a row of dots;
    a name typed and ENTER shows the name alone."""
    rig = shared_rig
    s = rig.symbols
    rig.call("msg_clear")
    _answer(rig, "ask_number", "", hl=s["str_auction_bid"])
    assert rig.machine.cpu.f & 1, "ENTER alone: carry (no number)"
    assert rig.message_rows() == [" bids £", "", ""]
    rig.call("msg_clear")
    buffer = TEXT_AT
    _answer(rig, "ask_text", "anne", de=buffer, b=s["NAME_LENGTH"])
    assert rig.message_rows() == ["anne", "", ""]
    assert bytes(rig.peek(buffer + i) for i in range(5)) == b"anne\0"
