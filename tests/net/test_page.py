"""The browser's page in real headless Chromium (issue 47): a host and a lobby on loopback,
the page opened from the host's link. Its canvas, read back, is the host's own rendering of
the frame it says it drew, pixel for pixel; keys typed into it play its player's setup and
first throw, each taken by the host's machine at the frame the host stamped it for; a page
watching from a phone's window cannot press; closed and opened again it takes its seat back;
a wrong code in the link gives the page's message and no picture; the lobby never receives
the code."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from tests.net.chromium import browser, canvas, console, page, wait
from tests.net.helpers import game_symbols, title_machine
from zxmonopoly.harness.game import decode_state
from zxmonopoly.harness.scripted import game_typist, message_of
from zxmonopoly.harness.session import INPUT_WAIT
from zxmonopoly.memory_map import ATTR_END, DISPLAY_FILE
from zxmonopoly.net import Host, screen
from zxmonopoly.net import lobbywire as w
from zxmonopoly.net import protocol as p
from zxmonopoly.net.lobby import Lobby
from zxmonopoly.net.thread import NetThread
from zxmonopoly.spectrum import FrameInput, video
from zxmonopoly.spectrum.keyboard import resolve

#: The keys the F1 picture marks, as the window gives them to a host.
LABELS = (("D", "Dice"), ("Y", "Yes"), ("N", "No/none"), ("ENTER", "select"))
#: Frames of pictures the host keeps for the comparisons (the page is a few behind).
KEPT = 400


@dataclass
class Table:
    """A lobby and a host (ANNE, Monopoly's player 2, typing her own keys) on a network
    thread; what the host's machine showed and took at every frame; what the lobby received."""

    thread: NetThread
    lobby: Lobby
    host: Host
    #: Frame -> (display file and attributes, border per line, FLASH): the window's inputs.
    pictures: dict[int, tuple[bytes, np.ndarray, bool]] = field(default_factory=dict)
    #: Frame -> each player's keys for it, and the machine's input at it.
    keys: dict[int, dict[int, FrameInput]] = field(default_factory=dict)
    taken: dict[int, FrameInput] = field(default_factory=dict)
    #: Frame -> the speaker's changes in it (EAR or MIC changed).
    edges: dict[int, int] = field(default_factory=dict)
    #: Everything the lobby received: HTTP requests (path and headers) and messages.
    received: list[bytes] = field(default_factory=list)
    #: ANNE's keys (the host's own typist).
    anne: Any = None
    running: Any = None

    def link(self, watch: bool = False) -> str:
        """The host's link for a browser (the one it prints and shows)."""
        link = self.host.page_link(watch)
        assert link is not None
        return link

    def rendered(self, frame: int) -> np.ndarray:
        """The host's rendering of ``frame`` as the window draws it (video.render)."""
        display, border, flash = self.pictures[frame]
        memory = np.zeros(ATTR_END, dtype=np.uint8)
        memory[DISPLAY_FILE:] = np.frombuffer(display, dtype=np.uint8)
        return video.render(memory, border, flash)

    def message(self) -> str:
        with self.host.lock:
            return message_of(self.host.machine, game_symbols())

    def waiting(self) -> bool:
        """Whether the game waits for a key (halted in keys_wait)."""
        with self.host.lock:
            cpu = self.host.machine.cpu
            return bool(cpu.halted) and cpu.pc == game_symbols()[INPUT_WAIT]

    def close(self) -> None:
        self.host.end("the host ended the game")
        self.thread.call(self.host.close())
        self.thread.call(self.lobby.close())
        self.thread.close()


def open_table(players: int = p.MAX_SLOTS) -> Table:
    """A lobby and a hosted game at the title, running at 50 frames a second."""
    thread = NetThread()
    received: list[bytes] = []

    async def start() -> tuple[Lobby, Host]:
        lobby = Lobby("127.0.0.1", 0)
        http, relay, first = lobby._http, lobby._relay, lobby._first

        def seen_http(connection, request):  # noqa: ANN001, ANN202 - the lobby's own
            received.append(request.path.encode() + b"\n" + bytes(request.headers.serialize()))
            return http(connection, request)

        def seen_relay(client, raw):  # noqa: ANN001, ANN202
            received.append(bytes(raw))
            return relay(client, raw)

        def seen_first(client, message):  # noqa: ANN001, ANN202
            received.append(repr(message).encode())
            return first(client, message)

        lobby._http, lobby._relay, lobby._first = seen_http, seen_relay, seen_first  # type: ignore[method-assign]
        await lobby.start()
        host = Host(title_machine(), bind=None, lobby=lobby.url, name="ANNE", labels=LABELS,
                    players=players)
        await host.start()
        return lobby, host

    lobby, host = thread.call(start())
    table = Table(thread, lobby, host, received=received)
    sound = screen.Sound()

    def record(node: Any) -> None:
        machine = node.machine
        frame = node.frame
        table.pictures[frame] = (bytes(machine.memory[DISPLAY_FILE:ATTR_END]),
                                 machine.border_lines(), video.flash_swapped(machine.frame))
        table.pictures.pop(frame - KEPT, None)
        table.keys[frame - 1] = {slot: pl.keys[frame - 1] for slot, pl in node.players.items()
                                 if frame - 1 in pl.keys}
        table.taken[frame - 1] = machine.held_input()
        table.edges[frame] = len(sound.frame(machine)[0]) // screen.EDGE_SIZE

    host.frame_listeners.append(record)
    anne = table.anne = game_typist(game_symbols(), 2, "ANNE", host=False, players=2,
                                    minutes=1)
    table.running = asyncio.run_coroutine_threadsafe(host.run(None, local=anne), thread.loop)
    return table


@pytest.fixture
def table() -> Iterator[Table]:
    table = open_table()
    try:
        yield table
    finally:
        table.close()


@pytest.fixture(scope="module")
def desktop() -> Iterator[Any]:
    driver = browser()
    try:
        yield driver
    finally:
        driver.quit()


def same_picture(table: Table, driver: Any, what: str) -> int:
    """The page's canvas is the host's rendering of the frame it drew; that frame."""
    frame, rgb = canvas(driver)
    assert frame is not None, f"{what}: no picture drawn"
    expected = table.rendered(frame)
    differ = int(np.count_nonzero((rgb != expected).any(axis=2)))
    assert differ == 0, f"{what}: {differ} pixels of frame {frame} differ"
    return frame


def join(driver: Any, link: str, name: str, *, play: bool = True) -> None:
    """Open the link, give the name, Play (or Watch), and wait for the seat and a picture."""
    driver.get(link)
    wait(lambda: page(driver, "zx.state") == "ready", "the page ready")
    field_ = driver.find_element("id", "name")
    field_.clear()
    field_.send_keys(name)
    driver.find_element("id", "play" if play else "watch").click()
    state = "playing" if play else "watching"
    wait(lambda: page(driver, f"zx.state === '{state}' && zx.drawn !== null"),
         f"the page {state}: {page(driver, 'zx.message')}")


@dataclass
class Typed:
    """A key typed into the page: its Spectrum keys and the frame the host said it took."""

    keys: tuple[str, ...]
    frame: int


def type_keys(table: Table, driver: Any, text: str, keys: tuple[str, ...]) -> Typed:
    """Type ``text`` into the page when the game waits for a key, as a person at it would;
    the frame the host's TAKEN gave it, once the game has had it."""
    from selenium.webdriver.common.action_chains import ActionChains

    wait(table.waiting, f"the game waiting for {text!r}")
    count = page(driver, "zx.keys.length")
    ActionChains(driver).send_keys(text).perform()
    frame = wait(lambda: page(driver, f"zx.keys.length > {count} && zx.keys[{count}].frame"),
                 f"{text!r} taken")
    wait(lambda: table.host.frame > frame + 8, f"{text!r} had")
    return Typed(keys, frame)


def prompt(table: Table, pattern: str) -> str:
    """Wait until the game waits for a key at a message ``pattern`` finds; the message."""
    def shown() -> str | None:
        text = table.message()
        return text if re.search(pattern, text) and table.waiting() else None

    try:
        return wait(shown, f"the prompt {pattern!r}")
    except AssertionError as error:  # what a person at the host would see, to tell why
        with table.host.lock:
            held = table.host.machine.held_input()
        raise AssertionError(f"{error}: the screen says {table.message()!r}, the game "
                             f"{'waits' if table.waiting() else 'does not wait'} for a key, "
                             f"keys held {held}, ANNE answered {table.anne.typed}") from None


def test_a_friend_plays_from_a_link_and_another_watches_from_a_phone(table: Table,
                                                                     desktop: Any) -> None:
    """The page (Monopoly's player 1, "web" as its PC keys type it) plays its setup and
    first throw by the PC keys; a phone-sized page watches with the on-screen keyboard and
    cannot press; the page closed and opened again takes its seat back; the canvases are the
    host's pictures."""
    from selenium.webdriver.common.keys import Keys

    host = table.host
    join(desktop, table.link(), "WEB")
    slot = page(desktop, "zx.slot")
    assert slot == 1 and page(desktop, "zx.ahead") == 0
    labels = page(desktop, "[...document.querySelectorAll('.key.game')].map(k => k.dataset.key)")
    assert set(labels) == {"D", "Y", "N", "ENTER"}
    compared = [same_picture(table, desktop, "at the title")]
    typed = []
    prompt(table, "PRESS ANY KEY")
    typed.append(type_keys(table, desktop, " ", ("SPACE",)))
    prompt(table, "Player 1: press a piece's number")
    typed.append(type_keys(table, desktop, "1", ("1",)))
    typed.append(type_keys(table, desktop, "n", ("N",)))
    for letter in "web":
        typed.append(type_keys(table, desktop, letter, (letter.upper(),)))
    typed.append(type_keys(table, desktop, Keys.ENTER, ("ENTER",)))
    compared.append(same_picture(table, desktop, "after the name"))

    phone = browser(phone=True)
    try:
        join(phone, table.link(watch=True), "PHONE", play=False)
        assert page(phone, "document.getElementById('play').hidden")
        phone.find_element("id", "show-keys").click()
        wait(lambda: phone.find_element("id", "keyboard").is_displayed(), "the keyboard shown")
        for key in phone.find_elements("css selector", ".key[data-key='D'], .key[data-key='5']"):
            key.click()
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(phone).send_keys("d").perform()
        prompt(table, "Player 3: press a piece's number")
        typed.append(type_keys(table, desktop, Keys.ENTER, ("ENTER",)))
        assert page(phone, "zx.keysSent") == 0
        compared.append(same_picture(table, phone, "on the phone"))
        roster = page(phone, "zx.roster.seated.map(p => [p.name, p.slot, p.kind])")
        assert ["WEB", 1, p.BROWSER_KIND] in roster and ["PHONE", p.NO_SLOT, p.BROWSER_KIND] \
            in roster
        phone.save_screenshot(str(_shots() / "page-phone.png"))
    finally:
        phone.quit()

    prompt(table, r"Short game\? \(Y/N\)")
    typed.append(type_keys(table, desktop, "n", ("N",)))
    for option in ("taxes and fines", "no auctions", "players may retire"):
        prompt(table, f"Option: {option}")
        typed.append(type_keys(table, desktop, "n", ("N",)))
    # Who goes first: D as often as the game asks (a tie throws again), until WEB's turn
    # (after ANNE's whole turn if she threw higher).
    prompt(table, "1 web: press D")
    throws = 0
    while prompt(table, r"Turn of 1 |1 web: press D").startswith("1 web: press D"):
        typed.append(type_keys(table, desktop, "d", ("D",)))
        throws += 1
    typed.append(type_keys(table, desktop, "d", ("D",)))
    wait(lambda: decode_state(host.machine.memory, game_symbols()).players[0].square != 0,
         "WEB's piece moved")
    compared.append(same_picture(table, desktop, "after the first throw"))
    desktop.save_screenshot(str(_shots() / "page-desktop.png"))

    # Each key went down at the frame the host stamped it for, as that player's keys, and
    # the machine took it there.
    for key in typed:
        keys = table.keys[key.frame][slot]
        assert keys == FrameInput.pressed(key.keys), (key, keys)
        assert table.keys[key.frame - 1].get(slot) != keys, key
        rows = table.taken[key.frame].rows
        assert all(not rows[row] & mask for row, mask in resolve(key.keys)), key
    assert len(compared) == 4 and throws >= 1 and len(typed) == 13 + throws
    assert [d for d in host.dropped if "spectator" in d[1]] == []

    # The beeper: every speaker change of every frame the page applied reached it; the mute
    # button mutes it.
    first, last, edges = page(desktop, "[zx.firstFrame, zx.frame, zx.edges]")
    with host.lock:
        assert host.browsers.pages[0].skipped == 0
    assert edges == sum(table.edges[f] for f in range(first, last + 1)) > 0
    desktop.find_element("id", "mute").click()
    assert page(desktop, "zx.muted") and desktop.find_element("id", "mute").text == "Sound: off"

    # Closed and opened again (the same browser: its token), the page takes its seat back.
    desktop.get("about:blank")
    wait(lambda: not host.players[slot].playing, "the page's seat released")
    join(desktop, table.link(), "WEB")
    assert page(desktop, "zx.slot") == slot
    assert any("took its seat back from a browser" in line for line in host.messages)
    same_picture(table, desktop, "back in its seat")
    errors = [line for line in console(desktop) if "SEVERE" in line]
    assert errors == []

    # The lobby received neither the code nor the watching code, in any form.
    for code in (host.code, host.watch_code):
        plain = p.normal_code(code)
        for secret in (plain, f"{plain[:5]}-{plain[5:]}"):
            assert not any(secret.encode() in data or secret.lower().encode() in data
                           for data in table.received), secret
    assert any(data.startswith(f"/r/{host.room.name}\n".encode())  # type: ignore[union-attr]
               for data in table.received)


def _shots() -> Any:
    from tests import REPO_ROOT

    out = REPO_ROOT / "build" / "page-shots"
    out.mkdir(parents=True, exist_ok=True)
    return out


def test_a_wrong_code_in_the_link_gives_the_page_s_message_and_no_picture(
        table: Table, desktop: Any) -> None:
    room = table.host.room.name  # type: ignore[union-attr]
    wrong = w.page_link(table.lobby.url, room, "7K3QF-M2X9A")
    desktop.get(wrong)
    wait(lambda: page(desktop, "zx.state") == "ready", "the page ready")
    desktop.find_element("id", "play").click()
    message = wait(lambda: page(desktop, "zx.state === 'ended' && zx.message"),
                   "the page's message")
    assert message.startswith("This link is wrong or has expired")
    assert page(desktop, "zx.drawn") is None
    assert not desktop.find_element("id", "screen").is_displayed()
    assert any("wrong join code" in reason for _who, reason in table.host.dropped)
    desktop.get(w.page_link(table.lobby.url, "ZZZZ" if room != "ZZZZ" else "YYYY",
                            table.host.code))
    wait(lambda: page(desktop, "zx.state") == "ready", "the page ready")
    desktop.find_element("id", "play").click()
    message = wait(lambda: page(desktop, "zx.state === 'ended' && zx.message"),
                   "the page's message")
    assert message.startswith("This link has expired: there is no game in room")
    desktop.get(table.link().split("#")[0] + "#not-a-code")
    message = wait(lambda: page(desktop, "zx.state === 'ended' && zx.message"),
                   "the page's message")
    assert message.startswith("This link is not whole")



def test_a_full_room_the_connection_lost_and_the_host_gone(desktop: Any) -> None:
    """A game of two players: a second page is told the game is full and watches instead; the
    first page's connection cut, it joins again by itself into its seat; the host gone, both
    pages say so."""
    table = open_table(players=2)
    host = table.host
    try:
        join(desktop, table.link(), "WEB")
        first = desktop.current_window_handle
        desktop.switch_to.new_window("window")
        desktop.get(table.link())
        wait(lambda: page(desktop, "zx.state") == "ready", "the second page ready")
        desktop.find_element("id", "play").click()
        message = wait(lambda: page(desktop, "zx.state === 'ended' && zx.message"), "full")
        assert message == "The game is full (2 players at most). You can watch it."
        desktop.find_element("id", "watch-instead").click()
        wait(lambda: page(desktop, "zx.state === 'watching' && zx.drawn !== null"), "watching")
        second = desktop.current_window_handle

        desktop.switch_to.window(first)
        with host.lock:
            member = next(c for c in host.conns if c.slot == 1).pipe.member  # type: ignore[attr-defined]
        client = table.lobby.rooms[host.room.name].members[member]  # type: ignore[union-attr]
        table.thread.loop.call_soon_threadsafe(client.ws.transport.abort)
        wait(lambda: page(desktop, "zx.state") == "lost", "the page saw the connection lost")
        assert page(desktop, "zx.message").startswith("Connection lost")
        wait(lambda: page(desktop, "zx.state === 'playing' && zx.joins === 2"), "joined again")
        assert page(desktop, "zx.slot") == 1 and page(desktop, "zx.message") == ""
        same_picture(table, desktop, "joined again")

        host.end("the host ended the game")
        for handle in (first, second):
            desktop.switch_to.window(handle)
            message = wait(lambda: page(desktop, "zx.state === 'ended' && zx.message"), "over")
            assert message == "The host has ended the game."
        desktop.switch_to.window(second)
        desktop.close()
        desktop.switch_to.window(first)
    finally:
        table.close()


def test_the_page_s_tables_are_the_machine_s_and_the_window_s(table: Table,
                                                              desktop: Any) -> None:
    """The page's key matrix and SYMBOL SHIFT table are spectrum/keyboard.py's, its PC key map
    ui/keys.py's (by the DOM's key codes), its palette spectrum/video.py's."""
    pygame = pytest.importorskip("pygame")
    from zxmonopoly.spectrum.keyboard import HALF_ROWS, SYMBOL_SHIFT_KEYS
    from zxmonopoly.ui.keys import _HELD_KEY_NAMES

    desktop.get(table.link(watch=True))
    wait(lambda: page(desktop, "zx.state") == "ready", "the page ready")
    tables = desktop.execute_async_script("""
        const done = arguments[arguments.length - 1];
        Promise.all([import('/web/keys.js'), import('/web/screen.js')]).then(([k, s]) =>
            done([k.HALF_ROWS, k.SYMBOL_SHIFT_KEYS, k.PC_KEYS, s.PALETTE]));""")
    half_rows, symbols, pc_keys, palette = tables
    assert [tuple(row) for row in half_rows] == list(HALF_ROWS)
    assert symbols == SYMBOL_SHIFT_KEYS
    assert np.array_equal(np.array(palette, dtype=np.uint8), video.PALETTE)
    dom = {"Enter": pygame.K_RETURN, "NumpadEnter": pygame.K_KP_ENTER, "Space": pygame.K_SPACE,
           "ShiftLeft": pygame.K_LSHIFT, "ShiftRight": pygame.K_RSHIFT,
           "ControlLeft": pygame.K_LCTRL, "ControlRight": pygame.K_RCTRL,
           "AltLeft": pygame.K_LALT, "AltRight": pygame.K_RALT,
           "Backspace": pygame.K_BACKSPACE, "ArrowLeft": pygame.K_LEFT,
           "ArrowDown": pygame.K_DOWN, "ArrowUp": pygame.K_UP, "ArrowRight": pygame.K_RIGHT}
    dom.update({f"Key{c}": getattr(pygame, f"K_{c.lower()}") for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"})
    dom.update({f"Digit{d}": getattr(pygame, f"K_{d}") for d in "0123456789"})
    dom.update({f"Numpad{d}": getattr(pygame, f"K_KP{d}") for d in "0123456789"})
    assert set(pc_keys) == set(dom) and len(dom) == len(_HELD_KEY_NAMES)
    assert {code: tuple(names) for code, names in pc_keys.items()} == {
        code: _HELD_KEY_NAMES[key] for code, key in dom.items()}
