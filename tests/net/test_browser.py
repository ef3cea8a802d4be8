"""A browser's seat (issue 47) spoken by the Python page (net/webclient.py), through a lobby:
the picture is the host's, frame for frame; a page's keys are its player's on every machine at
the frame the host says; a watching page cannot press; a watching link cannot play; a page
that leaves and comes back takes its seat back; a page that stops reading is sent no more."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from tests.net.helpers import (
    NAMES,
    QUICK,
    Recorder,
    compare,
    run,
    title_machine,
    wait_until,
)
from zxmonopoly.net import Host, JoinError, Peer, screen
from zxmonopoly.net import protocol as p
from zxmonopoly.net.browser import WINDOW
from zxmonopoly.net.lobby import Lobby
from zxmonopoly.net.lobbywire import page_link, split_page_link, split_room_code
from zxmonopoly.net.webclient import PageClient, key_bytes
from zxmonopoly.spectrum import FrameInput


class Shots:
    """The host's own picture (the window's rendering) of every frame, by frame number."""

    def __init__(self, host: Host) -> None:
        self.rgb: dict[int, np.ndarray] = {}
        host.frame_listeners.append(self)

    def __call__(self, node) -> None:  # noqa: ANN001 - a Node
        self.rgb[node.frame] = node.machine.screen_rgb()


async def hosted(lobby: Lobby, **kwargs: object) -> tuple[Host, str, str]:
    """A host with a room in ``lobby``: (host, room, code)."""
    host = Host(title_machine(), bind=None, lobby=lobby.url, name=NAMES[0], **kwargs)
    await host.start()
    room, code = split_room_code(host.room_code)
    return host, room, code


def test_the_link_keeps_the_code_in_its_fragment() -> None:
    link = page_link("wss://lobby.example.org", "K7QF", "7k3qf-m2x9a")
    assert link == "https://lobby.example.org/r/K7QF#7K3QF-M2X9A"
    assert page_link("ws://127.0.0.1:4849", "K7QF", "7K3QFM2X9A", watch=True) == \
        "http://127.0.0.1:4849/r/K7QF#watch-7K3QF-M2X9A"
    assert split_page_link(link) == ("wss://lobby.example.org", "K7QF", "7K3QFM2X9A", False)
    assert split_page_link("http://h:1/r/K7QF#watch-7K3QF-M2X9A")[3] is True


def test_a_page_sees_the_host_s_picture_and_plays_its_player_on_every_machine() -> None:
    """A host, a peer with a machine and a playing page: at every frame the page drew, its
    picture is the host's own rendering, pixel for pixel; the page's SPACE at the title starts
    the game on both machines, its keys go down at the frames TAKEN says (the host's and the
    peer's keys of its slot), and the two machines are alike at every frame."""

    async def game() -> tuple[int, int, list[str], dict, dict, dict, int]:
        lobby = Lobby("127.0.0.1", 0)
        await lobby.start()
        host, room, code = await hosted(lobby)
        shots = Shots(host)
        peer = Peer.online(title_machine(frames=5), lobby.url, host.room_code, name=NAMES[1])
        await peer.join()
        page = PageClient(lobby.url, room, code, name="WEB")
        seat = await page.join()
        slot = seat.slot
        keys: dict[int, FrameInput] = {}
        peer_keys: dict[int, FrameInput] = {}
        host.frame_listeners.append(
            lambda n: keys.__setitem__(n.frame - 1, n.players[slot].keys.get(n.frame - 1)))
        peer.frame_listeners.append(
            lambda n: peer_keys.__setitem__(n.frame - 1, n.players[slot].keys.get(n.frame - 1)))
        recorders = [Recorder(host), Recorder(peer)]
        alike: list[int] = []

        def drawn(client: PageClient) -> None:
            if client.frame % 7 == 0:
                assert np.array_equal(client.decoder.rgb(), shots.rgb[client.frame]), \
                    f"frame {client.frame} differs"
                alike.append(client.frame)

        page.screen_listeners.append(drawn)
        running = asyncio.gather(host.run(700), peer.run(700))
        await wait_until(lambda: page.frame != p.NO_FRAME and page.frame > 100)
        space = page.tap(1, "SPACE")
        await wait_until(lambda: space in page.taken)
        await wait_until(lambda: page.frame > page.taken[space] + 60)
        one = page.tap(2, "1")
        await wait_until(lambda: one in page.taken)
        await running
        text = host.machine.screen_text()
        await page.close()
        await peer.close()
        await host.close()
        await lobby.close()
        return (compare(recorders), len(alike), text, page.taken, keys, peer_keys, slot)

    compared, alike, text, taken, keys, peer_keys, slot = run(game())
    assert slot == 2  # the peer took slot 1
    assert compared >= 690
    assert alike >= 80
    assert "Player 1" in " ".join(text)  # the title's key was the page's SPACE
    space = FrameInput.pressed(("SPACE",))
    for event, frame in taken.items():
        assert keys[frame] == peer_keys[frame] != keys[frame - 1], (event, frame)
    assert keys[taken[1]] == space


def test_a_watching_page_cannot_press_and_a_watching_link_cannot_play() -> None:
    async def game() -> tuple[list[tuple[str, str]], str, str, int]:
        lobby = Lobby("127.0.0.1", 0)
        await lobby.start()
        host, room, code = await hosted(lobby, timeouts=QUICK)
        running = asyncio.ensure_future(host.run(None))
        watcher = PageClient(lobby.url, room, host.watch_code, watch=True, timeouts=QUICK)
        seat = await watcher.join()
        assert seat.slot == p.NO_SLOT and seat.token == bytes(p.TOKEN_SIZE)
        await wait_until(lambda: watcher.frame != p.NO_FRAME)
        watcher.tap(1, "SPACE")
        await wait_until(lambda: watcher.ended is not None)
        player = PageClient(lobby.url, room, host.watch_code, timeouts=QUICK)
        with pytest.raises(JoinError) as refused:
            await player.join()
        wrong = PageClient(lobby.url, room, "7K3QF-M2X9A", timeouts=QUICK)
        with pytest.raises(JoinError) as wrong_code:
            await wrong.join()
        window = Peer.online(title_machine(), lobby.url, f"{room}-{host.watch_code}",
                             spectator=True, timeouts=QUICK)
        await window.join()  # a window watches by the watching link's code too
        assert window.slot is None
        await window.close()
        frame = host.frame
        await host.close()
        running.cancel()
        await lobby.close()
        return host.dropped, str(refused.value), str(wrong_code.value), frame

    dropped, refused, wrong, frame = run(game())
    assert dropped[0][1] == "a spectator sent keys"
    assert refused == "the host refused: dropped: a watching link's code: it can only watch"
    assert wrong == "the host refused: dropped: wrong join code"


def test_a_page_that_comes_back_takes_its_seat_back() -> None:
    """A page leaves (its keys released, its slot kept from a peer that joins meanwhile);
    opened again with its token, and then another with its name only, it takes slot 1 back."""

    async def game() -> tuple[list[int], list[str]]:
        lobby = Lobby("127.0.0.1", 0)
        await lobby.start()
        host, room, code = await hosted(lobby)
        running = asyncio.ensure_future(host.run(None))
        slots = []
        page = PageClient(lobby.url, room, code, name="WEB")
        slots.append((await page.join()).slot)
        token = page.token
        await page.close()
        await wait_until(lambda: not host.players[slots[0]].playing)
        peer = Peer.online(title_machine(), lobby.url, host.room_code, name=NAMES[1])
        await peer.join()
        slots.append(peer.slot)
        again = PageClient(lobby.url, room, code, name="WEB", token=token)
        slots.append((await again.join()).slot)
        await again.close()
        await wait_until(lambda: not host.players[slots[0]].playing)
        by_name = PageClient(lobby.url, room, code, name="WEB")
        slots.append((await by_name.join()).slot)
        await by_name.close()
        await peer.close()
        await host.close()
        running.cancel()
        await lobby.close()
        return slots, host.messages

    slots, messages = run(game())
    assert slots == [1, 2, 1, 1]
    assert sum("took its seat back from a browser" in line for line in messages) == 2


def test_a_page_that_stops_acknowledging_is_sent_a_window_of_frames() -> None:
    async def game() -> tuple[int, int, int]:
        lobby = Lobby("127.0.0.1", 0)
        await lobby.start()
        host, room, code = await hosted(lobby)
        page = PageClient(lobby.url, room, code, watch=True, ack=False)
        await page.join()
        start = host.frame
        await host.run(WINDOW + 60, paced=False)
        seat = host.browsers.pages[0]
        await wait_until(lambda: page.screens == seat.screens)
        skipped = seat.skipped
        screens = page.screens
        await page.close()
        await host.close()
        await lobby.close()
        return screens, skipped, start

    screens, skipped, _start = run(game())
    assert screens == WINDOW
    assert skipped == 60


def test_the_screen_codec_reads_back_and_refuses_bad_data() -> None:
    machine = title_machine()
    sound = screen.Sound()
    first = screen.capture(machine, 1, sound)
    machine.run_frames(20)
    second = screen.capture(machine, 21, sound)
    decoder = screen.Decoder()
    decoder.apply(screen.encode(first, p.NO_FRAME, screen.ZERO_PICTURE))
    decoder.apply(screen.encode(second, 1, first.picture))
    assert np.array_equal(decoder.rgb(), machine.screen_rgb())
    with pytest.raises(screen.ScreenError, match="against frame 1; this page has frame 21"):
        decoder.apply(screen.encode(second, 1, first.picture))
    bad = p.Screen(30, 21, p.SCREEN_PICTURE, b"not zlib")
    with pytest.raises(screen.ScreenError, match="SCREEN of frame 30"):
        decoder.apply(bad)
    import zlib

    bomb = p.Screen(31, 21, 0, zlib.compress(bytes(10 * screen.PICTURE_SIZE)))
    with pytest.raises(screen.ScreenError, match="more than"):
        decoder.apply(bomb)
    assert key_bytes("CAPS SHIFT+5") == bytes([1, 0, 0, 16, 0, 0, 0, 0])
