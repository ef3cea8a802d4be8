"""A window's side of network play without pygame (net/link.py): the options checked, two
links stepped as two windows' loops would, host-only controls refused on a joiner."""

from __future__ import annotations

import pytest

from tests.net.helpers import NAMES, QUICK, step_until, title_machine
from zxmonopoly.net import machine_digest
from zxmonopoly.net import protocol as p
from zxmonopoly.net.link import (
    HOST,
    JOIN,
    WATCH,
    NetLink,
    NetOptions,
    NetOptionsError,
    net_options,
    spaced_code,
)
from zxmonopoly.spectrum import FrameInput


def test_options_checked() -> None:
    assert net_options() is None
    assert net_options(host=True) == NetOptions(HOST, "127.0.0.1", p.DEFAULT_PORT)
    assert net_options(host=True, port=0, bind="0.0.0.0") == NetOptions(HOST, "0.0.0.0", 0)
    joined = net_options(join="example.org:5000", code="7k3qf-m2x9a")
    assert joined == NetOptions(JOIN, "example.org", 5000, "7K3QFM2X9A")
    assert net_options(join="[::1]", code="7K3QF M2X9A", watch=True) == NetOptions(
        WATCH, "::1", p.DEFAULT_PORT, "7K3QFM2X9A")
    bad = {
        "--host and --join do not go together": {"host": True, "join": "a", "code": "x"},
        "--watch goes with --join": {"watch": True},
        "--code is for --join": {"host": True, "code": "7K3QFM2X9A"},
        "--port must be 0 to 65535, not 70000": {"host": True, "port": 70000},
        "--bind is for --host": {"join": "a", "code": "7K3QFM2X9A", "bind": "0.0.0.0"},
        "--port is for --host": {"join": "a", "code": "7K3QFM2X9A", "port": 1},
        "--join needs --code": {"join": "a"},
        "--code goes with --join": {"code": "7K3QFM2X9A"},
        "--code: '7K3' is not a join code": {"join": "a", "code": "7K3"},
        "--join 'a:0': the port is a number": {"join": "a:0", "code": "7K3QFM2X9A"},
        "--bind needs an address": {"host": True, "bind": " "},
    }
    for text, kwargs in bad.items():
        with pytest.raises(NetOptionsError, match=text.replace("[", r"\[")):
            net_options(**kwargs)
    assert spaced_code("7k3qfm2x9a") == "7K3QF-M2X9A"


def test_two_links_step_alike_and_a_joiner_cannot_pause() -> None:
    host = NetLink.start(title_machine(), NetOptions(HOST, port=0, name=NAMES[0]),
                         timeouts=QUICK)
    try:
        assert host.hosting and "join code " + host.code in host.status()
        assert any(line.endswith("join code " + host.node.code) for line in host.lines())
        peer = NetLink.start(title_machine(frames=7),
                             NetOptions(JOIN, "127.0.0.1", host.node.port,
                                        p.normal_code(host.code), NAMES[1]), timeouts=QUICK)
        try:
            assert peer.status().startswith("player 2 at 127.0.0.1:")
            assert any("joined" in line for line in host.lines() + peer.lines())
            space = FrameInput.pressed("SPACE")
            hashes: list[dict[int, bytes]] = [{}, {}]
            for link, table in zip((host, peer), hashes, strict=True):
                link.node.frame_listeners.append(
                    lambda n, t=table: t.__setitem__(n.frame, machine_digest(n.machine)))
            while host.node.frame < 120 or peer.node.frame < 120:
                host.step(FrameInput(), 0.02)
                peer.step(lambda n: space if n.next_local == 60 else FrameInput(), 0.02)
            common = set(hashes[0]) & set(hashes[1])
            assert len(common) >= 110
            assert all(hashes[0][f] == hashes[1][f] for f in common)

            assert peer.pause(True) == "pause: only the host can do that in a network game"
            assert peer.reset().startswith("reset: only the host")
            assert not peer.paused
            said = host.pause(True)
            assert said.startswith("pause at frame ") and said.endswith(" on every machine")
            frame = int(said.split()[3])
            step_until(lambda: (host.step(FrameInput(), 0.01), peer.step(FrameInput(), 0.01)),
                       lambda: host.paused and peer.paused, "both paused")
            assert host.node.frame == peer.node.frame == frame
            assert host.pause(False).startswith("resume at frame ")
            while peer.node.frame < frame + 10:
                host.step(FrameInput(), 0.01)
                peer.step(FrameInput(), 0.01)
        finally:
            peer.close()
        step_until(lambda: host.step(FrameInput(), 0.01), lambda: host.players() == 1,
                   "the peer gone")
        assert any("dropped player 2" in line for line in host.lines())
    finally:
        host.close()


def test_the_host_leaving_ends_a_joiners_game() -> None:
    host = NetLink.start(title_machine(), NetOptions(HOST, port=0), timeouts=QUICK)
    watcher = NetLink.start(title_machine(), NetOptions(WATCH, "127.0.0.1", host.node.port,
                                                        p.normal_code(host.code)),
                            timeouts=QUICK)
    try:
        assert watcher.status().startswith("watching 127.0.0.1:")
        assert watcher.pause(True).startswith("pause: only the host")
        host.close()
        step_until(lambda: watcher.step(FrameInput(), 0.01), lambda: watcher.ended is not None,
                   "the game ended")
        assert watcher.ended == "the host: the host ended the game"
        assert watcher.status() == "game over: the host: the host ended the game"
    finally:
        watcher.close()
        host.close()


@pytest.mark.parametrize(("argv", "said"), [
    (["--join", "x"], "--join needs --code CODE"),
    (["--host", "--join", "a", "--code", "7K3QFM2X9A"], "--host and --join do not go together"),
    (["--watch"], "--watch goes with --join"),
    (["--host", "--real-load"], "--real-load: not in a network game"),
    (["--name", "BOB"], "--name is for a network game"),
    (["--host", "--port", "-1"], "--port must be 0 to 65535, not -1"),
    (["--port", "0"], "--port is for --host"),  # 0 is given, though false
    (["--strict"], "--strict is for a network game"),
])
def test_play_refuses_bad_network_options_in_one_line(argv: list[str], said: str,
                                                      capsys) -> None:  # noqa: ANN001
    from zxmonopoly import cli

    assert cli.main(["play", *argv]) == 2  # before any window opens (no display needed)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"zxmonopoly: error: {said}")
