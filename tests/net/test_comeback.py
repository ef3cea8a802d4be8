"""Coming back (issue 46): a joiner stopped for 15 s (SIGSTOP, a laptop asleep) is dropped by
the host for its silence; resumed, it says so and joins again by itself, and its machine
equals the host's at every frame after."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import REPO_ROOT
from tests.net.helpers import Recorder, run, title_machine
from zxmonopoly.net import Host

ASLEEP = 15.0
#: Seconds a wait for an event (the join, the return) may take before the test gives up.
WAIT = 60.0


def joins(host: Host) -> int:
    """How many times player 2 has joined the host's game."""
    return sum(1 for line in host.messages
               if line.startswith("player 2 (BOB, ") and " joined:" in line)


async def run_until(host: Host, event, seconds: float = WAIT) -> None:  # noqa: ANN001
    """The host plays on until ``event()`` holds or ``seconds`` have gone (a bound)."""
    end = time.perf_counter() + seconds
    await host.run(until=lambda _h: event() or time.perf_counter() > end)


async def asleep(host: Host, joiner: subprocess.Popen, seconds: float) -> None:
    """The joiner stopped (SIGSTOP) while the host plays on for ``seconds``, then resumed."""
    joiner.send_signal(signal.SIGSTOP)
    end = time.perf_counter() + seconds  # real time: a laptop asleep this long
    await host.run(until=lambda _h: time.perf_counter() >= end)
    joiner.send_signal(signal.SIGCONT)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP is POSIX's")
def test_a_joiner_asleep_for_15_s_comes_back_and_is_alike(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO_ROOT / "src"),
                                                       str(REPO_ROOT)]))
    hashes = tmp_path / "joiner"

    async def game() -> tuple[Host, Recorder, dict, int]:
        host = Host(title_machine(), port=0, name="ANNE")
        await host.start()
        recorder = Recorder(host)
        joiner = subprocess.Popen(
            [sys.executable, "-m", "tests.net.player", "--role", "join", "--join",
             f"127.0.0.1:{host.port}", "--code", host.code, "--number", "2", "--paced",
             "--until", "ended", "--timeout", "120", "--hashes", str(hashes)],
            cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            await run_until(host, lambda: joins(host) == 1 and host.frame >= 100)
            assert joins(host) == 1, host.messages
            asleep_at = host.frame
            await asleep(host, joiner, ASLEEP)
            await run_until(host, lambda: joins(host) == 2)
            assert joins(host) == 2, host.messages
            rejoined = host.frame
            await host.run(150)
            await host.close()
            out, err = joiner.communicate(timeout=30)
        finally:
            if joiner.poll() is None:
                joiner.kill()
                joiner.communicate()
        assert joiner.returncode == 0, err[-3000:]
        return host, recorder, json.loads(out.strip().splitlines()[-1]), rejoined, asleep_at

    host, recorder, joiner, rejoined, asleep_at = run(game(), timeout=150)
    dropped = [reason for who, reason in host.dropped if who.startswith("player 2 (BOB")]
    assert dropped and dropped[0].startswith(("silent for 10 s", "no keys for frame")), dropped
    said = joiner["messages"]
    assert any(line.startswith(("the host dropped this peer (", "the host has been silent",
                                "the connection to the host was lost"))
               and line.endswith("joining again when the host answers") for line in said), said
    assert any(line.startswith("joined again after") for line in said), said
    assert not any("GAME OVER" in line or "the game is over" in line for line in said[:-1])
    theirs = {}
    for line in hashes.read_text().splitlines():
        frame, digest = line.split()
        theirs[int(frame)] = bytes.fromhex(digest)
    after = [f for f in theirs if f > rejoined and f in recorder.hashes]
    assert len(after) >= 100, (len(after), rejoined, joiner["messages"])
    assert all(theirs[f] == recorder.hashes[f] for f in after)
    before = [f for f in theirs if f <= asleep_at and f in recorder.hashes]
    assert before and all(theirs[f] == recorder.hashes[f] for f in before)
