"""``zxmonopoly bench --browser``: the browser's seat measured (issue 47; docs/network.md, "A
browser's seat"). Three parts, a lobby and a host on loopback each:

1. **The stream over a whole computer game.** Three computer players play a 1-minute short
   game (harness/tournament.py's setup, the pace a watcher sees) hosted at 50 frames a second;
   a real Chromium page watches it from the watching link. Its bytes: what came through the
   page's WebSocket (its own count: the sealed messages and the lobby's byte a message, not the
   WebSocket's and TLS's framing), a second of game, on average and in the busiest second; and
   the SCREEN messages the host sealed for it. Beside them, the same game's frames encoded
   offline three ways: against the frame before (what the host does), against the frame 5
   before (an acknowledgement a 100 ms round trip old, were the base the last frame a page
   acknowledged), and the whole picture each frame.
2. **A key's round trip.** A Chromium page playing at the game's setup; keys typed into it a
   third of a second apart (Selenium's key events); for each, from the page's keydown to the
   page drawing the frame the host says it took it at (TAKEN): the page's own clock. Direct, and
   through a relay that holds each direction 50 ms (100 ms round trip).
3. **A host with 8 pages watching.** The computer game hosted at 50 frames a second (the jit
   engine, the window's), 8 pages watching through a lobby in another process: Python pages
   (net/webclient.py, in that process) and then 8 Chromium tabs; the host's frames a second and
   its process's CPU over ``seconds``.

Nothing here is asserted: the figures are printed (tests/test_bench_browser.py runs a small
part). Rows that need Chromium are left out, saying so, on a machine without it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import shutil
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

#: Chromium's flags: headless, no sandbox (root in CI), no GPU, none of its own connections.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-default-apps",
                  "--disable-extensions", "--mute-audio",
                  "--autoplay-policy=no-user-gesture-required")
#: The computer game: its players' personalities, its length in minutes, its dice's seed.
PERSONALITIES = (0, 1, 2)
MINUTES = 1
SEED = 7
PAGES = 8
KEYS = 20
RELAY_RTT = 0.1


class NoChromium(RuntimeError):
    """Chromium, chromedriver or selenium is missing (the reason)."""


def chromium_paths() -> tuple[str, str]:
    """chromium's and chromedriver's paths; NoChromium saying which is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        raise NoChromium("selenium is not installed (pip install 'zxmonopoly[test]')") from None
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        raise NoChromium("no chromium or chromedriver (Debian: apt-get install chromium "
                         "chromium-driver)")
    return chromium, driver


def launch_chromium(*, mobile: dict | None = None, size: tuple[int, int] = (1024, 900)) -> Any:
    """A new headless Chromium with a profile of its own (``mobile``: Chrome's mobile
    emulation settings, a phone's window), driven by Debian's chromedriver: selenium-manager
    downloads nothing."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = chromium_paths()
    os.environ["SE_OFFLINE"] = "true"
    os.environ["SE_AVOID_BROWSER_DOWNLOAD"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='zxmonopoly-chromium-')}")
    if mobile is not None:
        options.add_experimental_option("mobileEmulation", mobile)
    else:
        options.add_argument(f"--window-size={size[0]},{size[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def poll(condition: Callable[[], Any], what: str, seconds: float = 60.0) -> Any:
    """``condition``'s first true value, looked for every 50 ms; RuntimeError after
    ``seconds``."""
    end = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise RuntimeError(f"{what}: not so after {seconds:g} s")
        time.sleep(0.05)


def _js(driver: Any, expression: str) -> Any:
    return driver.execute_script(f"return {expression};")


def open_page(driver: Any, link: str, name: str, play: bool) -> None:
    """Open a link in ``driver``'s tab, give the name, Play or Watch, wait for a picture."""
    driver.get(link)
    poll(lambda: _js(driver, "globalThis.zx && zx.state") == "ready", "the page ready")
    driver.find_element("id", "name").send_keys(name)
    driver.find_element("id", "play" if play else "watch").click()
    poll(lambda: _js(driver, "zx.drawn !== null"), f"the page's picture ({name})")


# -- the games --------------------------------------------------------------------------------

def computer_game(engine: str) -> Any:
    """A Session whose computer players' short game starts (its setup typed)."""
    from zxmonopoly.harness.session import Session
    from zxmonopoly.harness.tournament import setup_computers

    session = Session.game(engine=engine)
    setup_computers(session, PERSONALITIES, MINUTES, SEED, fast=False)
    return session


def game_over(session: Any) -> Callable[[Any], bool]:
    """A node's ``until``: the game's phase is over."""
    from zxmonopoly.harness.game import decode_state

    def over(node: Any) -> bool:
        return node.frame % 25 == 0 and decode_state(node.machine.memory,
                                                     session.symbols).phase == "over"

    return over


@dataclass
class Table:
    """A lobby and a host on a network thread (the host running ``until``)."""

    thread: Any
    lobby: Any
    host: Any
    running: Any

    def link(self, watch: bool = False, port: int | None = None) -> str:
        """The host's link (to the lobby through ``port``, a relay, if given)."""
        link = self.host.page_link(watch)
        if port is not None:
            link = link.replace(f":{self.lobby.port}/", f":{port}/")
        return link

    def close(self) -> None:
        self.host.end("the benchmark is over")
        self.running.result(10)
        self.thread.call(self.host.close())
        if self.lobby is not None:  # (not one of its own: another process's)
            self.thread.call(self.lobby.close())
        self.thread.close()


def open_table(machine: Any, until: Callable[[Any], bool] | None = None,
               lobby_url: str | None = None) -> Table:
    """A lobby (or the one at ``lobby_url``) and a host of ``machine`` at 50 frames a second."""
    from zxmonopoly.net.host import Host
    from zxmonopoly.net.lobby import Lobby
    from zxmonopoly.net.thread import NetThread

    thread = NetThread()

    async def start() -> tuple[Any, Any]:
        lobby = None
        if lobby_url is None:
            lobby = Lobby("127.0.0.1", 0)
            await lobby.start()
        host = Host(machine, bind=None, lobby=lobby_url or lobby.url, name="HOST")
        await host.start()
        return lobby, host

    lobby, host = thread.call(start())
    running = asyncio.run_coroutine_threadsafe(host.run(None, until=until), thread.loop)
    return Table(thread, lobby, host, running)


# -- 1. the stream over a whole game ------------------------------------------------------------

@dataclass
class StreamRow:
    """What a page was sent over a whole game."""

    frames: int
    page_bytes: int  # through its WebSocket
    peak: float  # bytes in the busiest second
    host_bytes: int  # sealed for it by the host
    drawn: int  # SCREENs the page applied


@dataclass
class CodecRow:
    """One way of encoding the same game, offline: bytes a second of game."""

    what: str
    per_second: float


def codec_rows(engine: str) -> list[CodecRow]:
    """The same computer game encoded three ways (sealed sizes), frame by frame."""
    from zxmonopoly.harness.game import decode_state
    from zxmonopoly.net import protocol as p
    from zxmonopoly.net import screen

    session = computer_game(engine)
    machine, sound = session.machine, screen.Sound()
    history = [screen.capture(machine, 0, sound)]
    totals = [0, 0, 0]
    frames = 0
    while frames < 30_000 and not (
            frames % 25 == 0 and decode_state(machine.memory, session.symbols).phase == "over"):
        machine.run_frames(1)
        frames += 1
        now = screen.capture(machine, frames, sound)
        history = (history + [now])[-6:]
        for k, base in enumerate((history[-2], history[0])):
            totals[k] += len(screen.encode(now, base.number, base.picture).encode())
        whole = zlib.compress(now.picture + now.edges, screen.LEVEL)
        totals[2] += p.HEADER.size + 9 + len(whole)
    seconds = frames / 50
    overhead = p.SEAL_OVERHEAD * frames
    names = ("against the frame before (sent)", "against the frame 5 before (an ack 100 ms old)",
             "the whole picture each frame")
    return [CodecRow(name, (total + overhead) / seconds) for name, total in zip(names, totals,
                                                                                strict=True)]


def stream_row(engine: str) -> StreamRow:
    """A Chromium page watching the whole computer game at 50 frames a second."""
    session = computer_game(engine)
    table = open_table(session.machine, until=game_over(session))
    driver = launch_chromium()
    try:
        open_page(driver, table.link(watch=True), "WATCHER", play=False)
        start = _js(driver, "[zx.bytes, zx.frame, zx.screens]")
        samples = [(time.monotonic(), start[0])]
        while not table.running.done():
            time.sleep(1.0)
            samples.append((time.monotonic(), _js(driver, "zx.bytes")))
        time.sleep(0.5)
        end = _js(driver, "[zx.bytes, zx.frame, zx.screens]")
        with table.host.lock:
            pages = table.host.browsers.pages
            host_bytes = pages[0].conn.sent_bytes if pages else 0
        peak = max((b1 - b0) / (t1 - t0) for (t0, b0), (t1, b1)
                   in zip(samples, samples[1:], strict=False))
        return StreamRow(end[1] - start[1], end[0] - start[0], peak, host_bytes,
                         end[2] - start[2])
    finally:
        driver.quit()
        table.close()


# -- 2. a key's round trip ----------------------------------------------------------------------

@dataclass
class KeyRow:
    """Keys typed into a playing page: the round trip the host measured, and each key's
    time from its keydown to the page drawing the frame that took it."""

    what: str
    rtt: float  # ms, the host's pings of the page
    seen: list[float]  # ms


def key_row(engine: str, rtt: float) -> KeyRow:
    """A page playing at the setup, directly or through a relay of round trip ``rtt``."""
    from selenium.webdriver.common.action_chains import ActionChains

    from zxmonopoly.harness.session import Session
    from zxmonopoly.net.relay import Relay

    table = open_table(Session.game(engine=engine).machine)
    relay = None
    port = None
    if rtt:
        relay = Relay(("127.0.0.1", table.lobby.port), rtt)
        port = table.thread.call(relay.start())
    driver = launch_chromium()
    try:
        open_page(driver, table.link(port=port), "KEYS", play=True)
        ActionChains(driver).send_keys(" ").perform()  # the title's key: the setup begins
        time.sleep(2.0)
        for _ in range(KEYS):
            ActionChains(driver).send_keys("z").perform()  # not a piece: the game ignores it
            time.sleep(1 / 3)
        poll(lambda: _js(driver, f"zx.keys.filter(k => k.seen !== undefined).length "
                                 f">= {KEYS + 1}"), "every key seen")
        seen = _js(driver, "zx.keys.map(k => k.seen)")[1:]
        with table.host.lock:
            pages = table.host.browsers.pages
            rtts = list(pages[0].conn.rtts) if pages else []
        what = f"through a relay, {rtt * 1000:.0f} ms round trip" if rtt else "direct"
        return KeyRow(what, statistics.median(rtts) * 1000 if rtts else float("nan"), seen)
    finally:
        driver.quit()
        if relay is not None:
            table.thread.call(relay.close())
        table.close()


# -- 3. a host with 8 pages watching ------------------------------------------------------------

@dataclass
class HostRow:
    """The host's frames a second and CPU with pages watching."""

    what: str
    frames: int  # the host's, in the measured time
    fps: float
    cpu: float  # of one core, the host's process
    screens: list[int]  # each page's SCREENs applied in the measured time
    rates: list[float]  # ... a second
    skipped: int


def _lobby_and_pages(pipe: Any) -> None:
    """A worker process: a lobby, then (when told a room) pages watching it; reports what each
    page got."""
    from zxmonopoly.net.lobby import Lobby
    from zxmonopoly.net.webclient import PageClient

    async def main() -> None:
        lobby = Lobby("127.0.0.1", 0)
        await lobby.start()
        pipe.send(lobby.url)
        loop = asyncio.get_running_loop()
        room, code, count = await loop.run_in_executor(None, pipe.recv)
        pages = [PageClient(lobby.url, room, code, name=f"PAGE{k + 1}", watch=True)
                 for k in range(count)]
        for page in pages:
            await page.join()
        pipe.send("joined")
        await loop.run_in_executor(None, pipe.recv)  # the start
        first = [page.screens for page in pages]
        pipe.send("started")
        await loop.run_in_executor(None, pipe.recv)  # the end
        pipe.send([page.screens - n for page, n in zip(pages, first, strict=True)])
        for page in pages:
            await page.close()
        await loop.run_in_executor(None, pipe.recv)  # the host has closed its room
        await lobby.close()

    asyncio.run(main())


def host_row(engine: str, seconds: float, chromium: bool) -> HostRow:
    """The computer game hosted with PAGES pages watching (Python pages, or Chromium tabs)."""
    from zxmonopoly.net.lobbywire import split_room_code

    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe()
    worker = context.Process(target=_lobby_and_pages, args=(theirs,), daemon=True)
    worker.start()
    lobby_url = mine.recv()
    session = computer_game(engine)
    table = open_table(session.machine, lobby_url=lobby_url)
    driver = None
    try:
        room, _code = split_room_code(table.host.room_code)
        if chromium:
            mine.send((room, table.host.watch_code, 0))
            mine.recv()
            driver = launch_chromium()
            for k in range(PAGES):
                if k:
                    driver.switch_to.new_window("window")
                open_page(driver, table.link(watch=True), f"TAB{k + 1}", play=False)
        else:
            mine.send((room, table.host.watch_code, PAGES))
            mine.recv()
        host = table.host
        mine.send("start")
        mine.recv()
        frames0, cpu0, t0 = host.stats.frames, time.process_time(), time.perf_counter()
        windows0 = ([_screens(driver, handle) for handle in driver.window_handles]
                    if driver is not None else [])
        time.sleep(seconds)
        frames1, cpu1, t1 = host.stats.frames, time.process_time(), time.perf_counter()
        windows1 = ([_screens(driver, handle) for handle in driver.window_handles]
                    if driver is not None else [])
        mine.send("stop")
        screens = mine.recv()
        rates = [n / (t1 - t0) for n in screens]
        if driver is not None:  # each window's SCREENs over its own two looks
            pairs = list(zip(windows0, windows1, strict=True))
            screens = [n1 - n0 for (_s0, n0), (_s1, n1) in pairs]
            rates = [(n1 - n0) / (s1 - s0) for (s0, n0), (s1, n1) in pairs]
        with host.lock:
            skipped = sum(page.skipped for page in host.browsers.pages)
        what = f"{PAGES} Chromium windows" if chromium else f"{PAGES} Python pages"
        return HostRow(what, frames1 - frames0, (frames1 - frames0) / (t1 - t0),
                       (cpu1 - cpu0) / (t1 - t0), screens, rates, skipped)
    finally:
        if driver is not None:
            driver.quit()
        table.close()
        mine.send("closed")
        worker.join(10)
        if worker.is_alive():
            worker.terminate()


def _screens(driver: Any, handle: str) -> tuple[float, int]:
    """A window's SCREENs applied so far, and when it was asked."""
    driver.switch_to.window(handle)
    return time.perf_counter(), int(_js(driver, "zx.screens"))


# -- the report ---------------------------------------------------------------------------------

def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_from_args(seconds: float, engine: str | None, out: TextIO) -> int:
    """``zxmonopoly bench --browser``: the three parts, printed to ``out``."""
    from zxmonopoly.z80 import jit_available

    engine = engine or ("jit" if jit_available() else "python")
    say = lambda what: print(f"measuring {what} ...", file=sys.stderr, flush=True)  # noqa: E731
    try:
        chromium_paths()
        chromium = True
    except NoChromium as exc:
        chromium = False
        print(f"(no rows with a real browser: {exc})", file=out)
    print(f"the browser's seat: a lobby and a host on loopback, {engine} engine, 50 frames/s",
          file=out)
    say("the codec over a whole computer game, offline")
    codecs = codec_rows(engine)
    if chromium:
        say("a Chromium page watching a whole computer game (about 75 s)")
        stream = stream_row(engine)
        print(f"\n1. a Chromium page watching a whole computer game ({MINUTES}-minute short "
              f"game, {len(PERSONALITIES)} computers): {stream.frames:,} frames "
              f"({stream.frames / 50:.0f} s), {stream.drawn:,} SCREENs applied", file=out)
        per_second = stream.page_bytes / (stream.frames / 50)
        print(f"   through its WebSocket: {per_second / 1024:.1f} KB/s on average, "
              f"{stream.peak / 1024:.1f} KB/s in the busiest second "
              f"({stream.page_bytes:,} bytes); sealed by the host for it: "
              f"{stream.host_bytes:,} bytes", file=out)
    print("   the same game encoded offline (sealed SCREENs, KB/s of game):", file=out)
    for row in codecs:
        print(f"   {row.per_second / 1024:>8.1f}  {row.what}", file=out)
    if chromium:
        print("\n2. a key's round trip: keydown on a playing Chromium page to the page drawing "
              "the frame that took it", file=out)
        print(f"   {'':<36} {'RTT':>7} {'keys':>5} {'median':>8} {'90%':>8} {'max':>8}",
              file=out)
        for rtt in (0.0, RELAY_RTT):
            say(f"a key's round trip ({'direct' if not rtt else f'{rtt * 1000:.0f} ms'})")
            row = key_row(engine, rtt)
            print(f"   {row.what:<36} {row.rtt:>5.0f}ms {len(row.seen):>5} "
                  f"{statistics.median(row.seen):>6.0f}ms {_ms(row.seen, 0.9):>6.0f}ms "
                  f"{max(row.seen):>6.0f}ms", file=out)
    print(f"\n3. a host with {PAGES} pages watching the computer game, {seconds:g} s measured",
          file=out)
    print(f"   {'':<20} {'host fps':>9} {'host CPU':>9} {'SCREENs/s a page':>17} "
          f"{'skipped':>8}", file=out)
    for tabs in (False, True) if chromium else (False,):
        say(f"a host with {PAGES} {'Chromium windows' if tabs else 'Python pages'}")
        row = host_row(engine, seconds, tabs)
        print(f"   {row.what:<20} {row.fps:>9.2f} {row.cpu * 100:>8.0f}% "
              f"{min(row.rates):>8.1f}-{max(row.rates):<8.1f} {row.skipped:>8}", file=out)
    return 0
