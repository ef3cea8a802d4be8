"""Lobbies behind a real TLS proxy (issue 46's deployment): the nginx and Caddy configurations
docs/network.md gives, taken from the page itself (only the name, the port and the
certificate made the test's), in front of two lobbies with shards A and B. A host of each
lobby opens a room through the proxy, a joiner comes in by the room code (the proxy sends
`/A...` to A and `/B...` to B), and the two machines are alike at every frame; each lobby
counts its clients by the address the proxy forwards; the browser's page and the health
line pass through; a client from another address is counted under it, not the proxy's.
Skipped, saying why, where nginx or Caddy is not installed (`.ci/run` installs both)."""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests import REPO_ROOT
from tests.net.helpers import NAMES, Recorder, compare, run, title_machine
from tests.net.tls import self_signed
from zxmonopoly.net import Host, Peer
from zxmonopoly.net import lobbywire as w
from zxmonopoly.net.lobby import Lobby

DOCS = REPO_ROOT / "docs" / "network.md"
#: The ports docs/network.md's configurations give the two lobbies.
DOC_PORTS = {"A": "4851", "B": "4852"}
#: A loopback address of a player's own (Linux answers all of 127.0.0.0/8).
ELSEWHERE = "127.0.0.2"
#: Seconds the proxy may take to listen (a hang, not a speed).
START = 30.0


def doc_block(after: str) -> str:
    """The first fenced block of docs/network.md after the line ending with ``after``."""
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(re.escape(after) + r"\n+```\n(.*?)```", text, flags=re.S)
    assert match, f"docs/network.md has no configuration after {after!r}"
    return match.group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx_config(folder: Path, port: int, lobbies: dict[str, int], cert: Path,
                 key: Path) -> list[str]:
    """The documented nginx server, on ``port`` with the test's certificate, in a whole
    configuration of its own (no daemon, files in ``folder``); the command that runs it."""
    server = doc_block("sends `/A...` to lobby A and `/B...` to lobby B. nginx:")
    server = server.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    server = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", server)
    server = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", server)
    for shard, doc_port in DOC_PORTS.items():
        server = server.replace(f"127.0.0.1:{doc_port}", f"127.0.0.1:{lobbies[shard]}")
    temp = folder / "temp"
    temp.mkdir()
    whole = f"""
daemon off;
master_process off;
worker_processes 1;
user root root;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
{server}
}}
"""
    path = folder / "nginx.conf"
    path.write_text(whole)
    return ["nginx", "-p", str(folder), "-c", str(path)]


def caddy_config(folder: Path, port: int, lobbies: dict[str, int], cert: Path,
                 key: Path) -> list[str]:
    """The documented Caddyfile, on ``port`` with the test's certificate (no admin endpoint,
    no certificates fetched); the command that runs it."""
    site = doc_block("it sets\n`X-Forwarded-For` to the client's address):")
    site = site.replace("lobby.example.org {",
                        f"https://127.0.0.1:{port} {{\n    tls {cert} {key}", 1)
    for shard, doc_port in DOC_PORTS.items():
        site = site.replace(f"127.0.0.1:{doc_port}", f"127.0.0.1:{lobbies[shard]}")
    whole = "{\n    admin off\n    auto_https disable_redirects\n    storage file_system " \
            f"{folder}/data\n}}\n{site}"
    path = folder / "Caddyfile"
    path.write_text(whole)
    return ["caddy", "run", "--adapter", "caddyfile", "--config", str(path)]


PROXIES = {"nginx": nginx_config, "caddy": caddy_config}


@pytest.fixture(params=sorted(PROXIES))
def proxy(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, int, Path,
                                                                            dict[str, int]]]:
    """(name, the proxy's port, its certificate, the lobbies' ports by shard): the proxy
    running the documented configuration in front of ports given to two lobbies."""
    name = request.param
    if shutil.which(name) is None:
        pytest.skip(f"{name} is not installed (apt-get install {name})")
    cert, key = self_signed(tmp_path)
    lobbies = {shard: free_port() for shard in DOC_PORTS}
    port = free_port()
    command = PROXIES[name](tmp_path, port, lobbies, cert, key)
    out = (tmp_path / f"{name}.out").open("w")
    process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                               env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
                                    "HOME": str(tmp_path)})
    try:
        end = time.monotonic() + START
        while True:
            assert process.poll() is None, (tmp_path / f"{name}.out").read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < end, f"{name} did not listen in {START:g} s"
                time.sleep(0.05)  # a poll for the proxy's socket, bounded above
        yield name, port, cert, lobbies
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        out.close()


def fetch(url: str, cert: Path) -> str:
    """A plain HTTPS GET through the proxy, trusting the test's certificate."""
    context = ssl.create_default_context(cafile=str(cert))
    with urllib.request.urlopen(url, context=context, timeout=10) as answer:
        return answer.read().decode()


def test_two_lobbies_behind_the_documented_proxy_play_a_room_each(proxy) -> None:  # noqa: ANN001
    name, port, cert, ports = proxy
    url = f"wss://127.0.0.1:{port}"

    async def game() -> tuple[list[Host], list[int], dict[str, Lobby]]:
        lobbies = {shard: Lobby("127.0.0.1", ports[shard], shard=shard,
                                proxies=frozenset({"127.0.0.1"})) for shard in ports}
        for lobby in lobbies.values():
            await lobby.start()
        hosts: list[Host] = []
        compared = []
        try:
            # Hosts until each lobby has a room: the proxy sends a host to either.
            for _ in range(20):
                if all(lobby.rooms for lobby in lobbies.values()):
                    break
                host = Host(title_machine(), bind=None, lobby=url, lobby_ca=str(cert),
                            name=NAMES[0])
                await host.start()
                hosts.append(host)
            assert all(lobby.rooms for lobby in lobbies.values()), \
                f"{name} sent every host to one lobby"
            # The documented configurations send hosts to the lobbies in turn (Caddy's
            # default, at random, let one lobby refuse a host from this address, 1 in 16).
            assert len(hosts) == 2, f"{name} did not send hosts in turn: {len(hosts)} hosts"
            for host in hosts:
                peer = Peer.online(title_machine(frames=7), url, host.room_code,
                                   lobby_ca=str(cert), name=NAMES[1])
                await peer.join()
                recorders = [Recorder(host), Recorder(peer)]
                await asyncio.gather(host.run(60), peer.run(60))
                compared.append(compare(recorders))
                await peer.close()
            # A host from another address: the lobby counts it by the address the proxy
            # forwards (its own connection comes from the proxy's, 127.0.0.1).
            context = ssl.create_default_context(cafile=str(cert))
            async with connect(url + "/", ssl=context, compression=None,
                               local_addr=(ELSEWHERE, 0)) as ws:
                await ws.send(w.open_room())
                opened = w.decode(await ws.recv(), host=True)
                assert opened.name == "ROOM", opened
                seen = {shard: {client.address for client in lobby.clients.values()}
                        for shard, lobby in lobbies.items()}
        finally:
            for host in hosts:
                await host.close()
            for lobby in lobbies.values():
                await lobby.close()
        assert set().union(*seen.values()) == {"127.0.0.1", ELSEWHERE}, seen
        return hosts, compared, lobbies

    hosts, compared, lobbies = run(game(), timeout=180)
    assert all(n >= 55 for n in compared), compared
    for shard, lobby in lobbies.items():
        assert lobby.counts["rooms opened"] >= 1 and lobby.counts["members entered"] >= 1, \
            (shard, lobby.counts)
        rooms = [h.room.name for h in hosts if h.room.name.startswith(shard)]  # type: ignore
        assert rooms, shard


def test_the_page_and_the_health_line_pass_through_the_documented_proxy(proxy) -> None:  # noqa: ANN001
    name, port, cert, ports = proxy

    async def pages() -> tuple[str, str, str]:
        lobbies = [Lobby("127.0.0.1", ports[shard], shard=shard,
                         proxies=frozenset({"127.0.0.1"})) for shard in ports]
        for lobby in lobbies:
            await lobby.start()
        try:
            loop = asyncio.get_running_loop()
            base = f"https://127.0.0.1:{port}"
            health = await loop.run_in_executor(None, fetch, base + "/", cert)
            page = await loop.run_in_executor(None, fetch, base + "/r/A7K3", cert)
            script = await loop.run_in_executor(None, fetch, base + "/web/app.js", cert)
        finally:
            for lobby in lobbies:
                await lobby.close()
        return health, page, script

    health, page, script = run(pages(), timeout=60)
    assert health.startswith("zxmonopoly lobby: 0 rooms"), (name, health)
    assert "<canvas" in page, (name, page[:200])
    assert "crypto.subtle" in script or "import" in script, (name, script[:200])
