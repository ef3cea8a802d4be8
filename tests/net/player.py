"""A headless player in a process of its own (``python -m tests.net.player``), for the tests
that need separate machines: in network namespaces behind NAT (test_nat.py), or a joiner
stopped with SIGSTOP (test_comeback.py). It hosts or joins (directly or through a lobby),
plays the whole short game with the game typist (or presses nothing), records every frame's
machine hash, and at its end writes the hashes to a file and one line of JSON to stdout.

A host prints ``CODE <code>`` (the room code online, else ``PORT <port> <join code>``) as its
first line, so the test can start the others.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from zxmonopoly.harness.scripted import INPUT_WAIT, game_typist
from zxmonopoly.net import Host, Node, Peer, machine_digest

NAMES = ("ANNE", "BOB", "CAT")


def over(node: Node, symbols: dict) -> bool:
    """Whether the game has ended on this machine and waits for a key (the result shown)."""
    cpu = node.machine.cpu
    return (node.machine.memory[symbols["v_phase"]] == symbols["PHASE_OVER"]
            and bool(cpu.halted) and cpu.pc == symbols[INPUT_WAIT])


async def main(args: argparse.Namespace) -> dict:
    from zxmonopoly.harness import Session

    session = Session.game(engine=args.engine)
    symbols = dict(session.symbols)
    machine = session.machine
    if args.role == "host":
        node: Node = Host(machine, bind=None if args.lobby else args.bind, port=args.port,
                          name=NAMES[0], lobby=args.lobby, lobby_ca=args.lobby_ca)
        await node.start()
        assert isinstance(node, Host)
        print(f"CODE {node.room_code}" if args.lobby else f"PORT {node.port} {node.code}",
              flush=True)
        waited = time.perf_counter()
        while len(node.conns) < args.wait_for:  # the others join at the title, frame 0
            if time.perf_counter() - waited > args.timeout:
                raise SystemExit(f"only {len(node.conns)} joined in {args.timeout:g} s")
            await asyncio.sleep(0.05)
    else:
        kwargs = {"spectator": args.role == "watch", "lobby_ca": args.lobby_ca,
                  "name": "" if args.role == "watch" else NAMES[args.number - 1]}
        if args.lobby:
            node = Peer.online(machine, args.lobby, args.code, **kwargs)
        else:
            host, port = args.join.rsplit(":", 1)
            node = Peer(machine, host, int(port), args.code, **kwargs)
        await node.join()
    hashes: dict[int, str] = {}
    node.frame_listeners.append(
        lambda n: hashes.__setitem__(n.frame, machine_digest(n.machine).hex()))
    local = None
    if args.typist == "game" and args.role != "watch":
        local = game_typist(symbols, args.number, NAMES[args.number - 1],
                            host=args.role == "host", players=args.players,
                            minutes=args.minutes)
    start = time.perf_counter()
    ended_over: list[int] = []

    def until(n: Node) -> bool:
        if time.perf_counter() - start > args.timeout:
            return True
        if args.until == "over" and over(n, symbols):
            if not ended_over:
                ended_over.append(n.frame)
            # the host waits until the others have seen the end too (they leave then)
            return not (args.role == "host" and isinstance(n, Host) and n.conns)
        return args.frames is not None and n.frame >= args.frames

    run_args = {"paced": args.paced, "until": until}
    if local is not None:
        run_args["local"] = local
    try:
        await node.run(**run_args)
    finally:
        if isinstance(node, Peer):
            await node.close()
        else:
            await node.close()  # type: ignore[union-attr]
    Path(args.hashes).write_text("".join(f"{f} {h}\n" for f, h in sorted(hashes.items())))
    screen = node.machine.screen_text()
    return {"frame": node.frame, "over": bool(ended_over), "over_at": ended_over[:1],
            "ended": node.ended, "messages": node.messages[-40:],
            "result": " ".join(" ".join(line.split()) for line in screen[20:24]).strip(),
            "desyncs": node.stats.desyncs, "seconds": time.perf_counter() - start}


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.net.player")
    parser.add_argument("--role", choices=("host", "join", "watch"), required=True)
    parser.add_argument("--lobby", help="the lobby's URL (else direct)")
    parser.add_argument("--lobby-ca")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--join", help="HOST:PORT (direct)")
    parser.add_argument("--code", help="the join code, or the room code online")
    parser.add_argument("--number", type=int, default=1, help="the player's number (1 host)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=int, default=1)
    parser.add_argument("--typist", choices=("game", "none"), default="none")
    parser.add_argument("--until", choices=("over", "ended", "frames"), default="ended")
    parser.add_argument("--frames", type=int)
    parser.add_argument("--paced", action="store_true")
    parser.add_argument("--engine", default="python")
    parser.add_argument("--timeout", type=float, default=240.0)
    parser.add_argument("--hashes", required=True)
    parser.add_argument("--wait-for", type=int, default=0,
                        help="the host: start once this many have joined")
    return parser.parse_args(argv)


if __name__ == "__main__":
    summary = asyncio.run(main(parse(sys.argv[1:])))
    print(json.dumps(summary), flush=True)
