"""The ``zxmonopoly`` command: thin subcommands over the library."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zxmonopoly.harness import headless
    from zxmonopoly.net.link import NetOptions

from zxmonopoly import JIT_FIRST_COMPILE, images

# The engine names of zxmonopoly.z80.ENGINES, repeated here so that ``--help`` does not import
# numba; tests/test_cli.py checks that the two agree.
ENGINE_CHOICES = ("jit", "python")

#: The longest benchmark run per engine: an hour (the default is 3 s).
MAX_BENCH_SECONDS = 3600
#: The most paired rounds against SkoolKit (the default is 9).
MAX_BENCH_ROUNDS = 1000
#: The largest window: 16 × 320×256 = 5,120×4,096 pixels, more than any display shows.
MAX_SCALE = 16


class CliError(Exception):
    """An error to report as ``zxmonopoly: error: ...`` with exit status 2."""


def _check_engine(engine: str | None) -> None:
    """``--engine`` through the CPU's one check (zxmonopoly.z80.cpu.check_engine)."""
    if engine is None:
        return
    from zxmonopoly.z80.cpu import Z80Error, check_engine

    try:
        check_engine(engine)
    except Z80Error as exc:
        raise CliError(f"{exc}; use --engine python") from None


class _LastChar:
    """Standard output that remembers whether what was written so far ends a line."""

    def __init__(self, out) -> None:  # noqa: ANN001 - a text stream
        self.out = out
        self.line_open = False

    def write(self, text: str) -> int:
        if text:
            self.line_open = not text.endswith("\n")
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


def _cmd_cpm(args: argparse.Namespace) -> int:
    if args.max_tstates < 0:
        raise CliError(f"--max-tstates must be 0 (no limit) or more, not {args.max_tstates}")
    from zxmonopoly.cpm import CpmError, run_cpm

    _check_engine(args.engine)
    out = _LastChar(sys.stdout)
    try:
        tstates = run_cpm(args.file, engine=args.engine, max_tstates=args.max_tstates, out=out)
    except CpmError as exc:
        raise CliError(str(exc)) from None
    if args.verbose:
        if out.line_open:  # the program's last line had no newline: end it first
            print(flush=True)
        print(f"{tstates} T-states", file=sys.stderr)
    return 0


def _cmd_lobby(args: argparse.Namespace) -> int:
    """Serve the lobby until interrupted (docs/network.md, "Playing online: the lobby")."""
    from zxmonopoly.net.lobby import run_from_args
    from zxmonopoly.net.lockstep import NetError

    if not 0 <= args.port <= 65535:
        raise CliError(f"--port must be 0 to 65535, not {args.port}")
    try:
        return run_from_args(args.bind, args.port, args.tls_cert, args.tls_key, args.shard,
                             args.proxy or ())
    except NetError as exc:
        raise CliError(str(exc)) from None


def _cmd_bench(args: argparse.Namespace) -> int:
    from zxmonopoly import benchmarks

    if not 0 < args.seconds <= MAX_BENCH_SECONDS:  # inf ran without end
        raise CliError(f"--seconds must be more than 0 and at most {MAX_BENCH_SECONDS:,}, "
                       f"not {args.seconds:g}")
    if not 0 <= args.rounds <= MAX_BENCH_ROUNDS:
        raise CliError(f"--rounds must be 0 to {MAX_BENCH_ROUNDS}, not {args.rounds}")
    if not 0 < args.round_seconds <= MAX_BENCH_SECONDS:  # nan and inf as --seconds
        raise CliError(f"--round-seconds must be more than 0 and at most "
                       f"{MAX_BENCH_SECONDS:,}, not {args.round_seconds:g}")
    try:
        return benchmarks.run_from_args(args)
    except ValueError as exc:  # --rooms, --players of --lobby
        raise CliError(str(exc)) from None


def _cmd_run(args: argparse.Namespace) -> int:
    """Run the Spectrum headless (harness/headless.py): frames, typing, waiting for text, or
    an RZX recording played; then the screen, a screenshot or a snapshot out."""
    from zxmonopoly.harness import headless
    from zxmonopoly.snapshot import SnapshotError
    from zxmonopoly.spectrum import SpectrumError
    from zxmonopoly.tape import TapeError
    from zxmonopoly.z80 import Z80Error

    if args.rzx is not None:
        _check_rzx_options(args)
    else:
        _check_run_options(args)
    _check_png(args.screenshot)
    _check_engine(args.engine)
    if args.rzx is None and args.game:
        _game_options(args)
    say = headless.say_on_stderr
    try:
        if args.rzx is not None:
            machine, status = headless.play_rzx(args.rzx, say, rom=args.rom, engine=args.engine,
                                                frames=args.frames)
        else:
            machine, status = headless.run(_run_of(args), say)
        headless.write_outputs(machine, headless.Outputs(args.screen_text, args.screenshot,
                                                         args.save_snapshot), status)
        if args.rzx is None:
            headless.report_saves(machine, say)
    except (SpectrumError, SnapshotError, Z80Error, TapeError) as exc:  # the packages' roots
        raise CliError(str(exc)) from None
    except OSError as exc:  # writing the screenshot
        name = f"{exc.filename}: " if exc.filename else ""
        raise CliError(f"{name}{exc.strerror or exc}") from None
    return status


def _check_run_options(args: argparse.Namespace) -> None:
    """``run``'s options for a run (not a recording): bounds and what goes together."""
    from zxmonopoly.harness.headless import DEFAULT_FRAMES
    from zxmonopoly.harness.script import MAX_FRAMES

    if args.frames is None:
        args.frames = DEFAULT_FRAMES
    for option, value in (("--frames", args.frames), ("--max-frames", args.max_frames)):
        # The scripts' bound for one step: a count beyond it would run for days, not fail.
        if not 0 <= value <= MAX_FRAMES:
            raise CliError(f"{option} must be 0 to {MAX_FRAMES:,} (about 5.5 hours of "
                           f"Spectrum time), not {value}")
    for option, given in (("--autoload", args.autoload), ("--real-load", args.real_load)):
        if given and not (args.tape or args.game):
            raise CliError(f"{option} loads a tape: give one with --tape FILE (or --game)")


def _game_options(args: argparse.Namespace) -> None:
    """``run --game``: nothing else to load, and the bundled game's tape in ``args.tape``."""
    for option, value in (("--tape", args.tape), ("--snapshot", args.snapshot)):
        if value:
            raise CliError(f"--game loads the bundled game tape: it cannot go with {option}")
    try:
        args.tape = images.game_tape_path()
    except images.ImageMissing as exc:
        raise CliError(f"the game is not built: {exc}") from None


def _check_rzx_options(args: argparse.Namespace) -> None:
    """``run --rzx``'s options: a recording plays from its own snapshot."""
    for option, given in (("--snapshot", args.snapshot), ("--tape", args.tape),
                          ("--game", args.game), ("--type", args.type),
                          ("--until-text", args.until_text), ("--autoload", args.autoload),
                          ("--real-load", args.real_load)):
        if given:
            raise CliError(f"--rzx plays a recording from its own snapshot: it cannot go with "
                           f"{option}")
    if args.frames is not None and args.frames < 0:
        raise CliError(f"--frames must be 0 or more, not {args.frames}")


def _run_of(args: argparse.Namespace) -> headless.Run:
    """``run``'s options as the harness's headless run."""
    from zxmonopoly.harness import headless

    return headless.Run(rom=args.rom, engine=args.engine, frames=args.frames,
                        snapshot=args.snapshot, tape=args.tape, game=args.game,
                        autoload=args.autoload, real_load=args.real_load,
                        type=args.type.replace("\\n", "\n") if args.type else None,
                        until_text=args.until_text, max_frames=args.max_frames)


def _machine_engine(engine: str | None, frames: int | None) -> str:
    """The headless machine's engine (harness.headless.machine_engine), a bad
    ZXMONOPOLY_ENGINE a CliError."""
    from zxmonopoly.harness.headless import machine_engine
    from zxmonopoly.z80 import Z80Error

    try:
        return machine_engine(engine, frames)
    except Z80Error as exc:
        raise CliError(str(exc)) from None


def _check_png(path: Path | None) -> None:
    """A screenshot name must say PNG: that is the only format written."""
    if path is None:
        return
    if path.suffix.lower() != ".png":
        raise CliError(f"--screenshot {path}: screenshots are PNG; give a name ending .png")
    # Checked now, not when the file is written: the window's screenshot is taken as it
    # closes, after the whole session.
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise CliError(f"--screenshot {path}: no folder {folder} to write it in")


def _bundled_game_tape() -> Path:
    """The Monopoly tape shipped with the package."""
    try:
        return images.game_tape_path()
    except images.ImageMissing as exc:
        raise CliError(str(exc)) from None


def _cmd_play(args: argparse.Namespace) -> int:
    """Open the window: boot, type LOAD "" and load the tape (or a snapshot), then play."""
    from zxmonopoly.spectrum import SpectrumError
    from zxmonopoly.z80 import Z80Error

    if not 1 <= args.scale <= MAX_SCALE:  # SDL took a huge one for a negative size
        raise CliError(f"--scale must be 1 to {MAX_SCALE}, not {args.scale}")
    if args.exit_after_frames is not None and args.exit_after_frames < 0:
        raise CliError(f"--exit-after-frames must be 0 or more, not {args.exit_after_frames}")
    if args.file is not None:
        _file_to_option(args)
    for option, path in (("--tape", args.tape), ("--snapshot", args.snapshot), ("--rom", args.rom),
                         ("--rzx", args.rzx)):
        if path is not None and not path.is_file():
            raise CliError(f"{option} {path}: {_not_a_file(path)}")
    _check_png(args.screenshot)
    _check_play_files(args)
    network = _network_options(args)
    from zxmonopoly.ui.display import WindowError as DisplayError
    from zxmonopoly.ui.display import check_environment

    try:  # before anything slow: no display is one line and exit 2 at once
        check_environment()
    except DisplayError as exc:
        raise CliError(str(exc)) from None
    _check_engine(args.engine)
    try:
        from zxmonopoly.ui.window import Window, WindowError
    except ImportError as exc:
        raise CliError(f"the window needs pygame ({exc}); pip install pygame") from None
    try:
        window = Window(rom=args.rom, engine=args.engine, scale=args.scale,
                        fullscreen=args.fullscreen, mute=args.mute, log=args.log)
    except WindowError as exc:
        raise CliError(str(exc)) from None
    except (SpectrumError, Z80Error, OSError) as exc:
        raise CliError(str(exc)) from None
    try:
        net_tape = None
        if network is not None and not network.hosting:
            # The machine, and the tape in its deck, come from the host: the joiner only
            # brings the same tape file for the handshake to compare.
            net_tape = args.tape if args.tape else _bundled_game_tape()
            symbols = images.symbols_beside(net_tape)  # the record of the game it will run
            window.symbols = symbols if symbols.is_file() else None
        elif args.rzx:
            if not window.rzx.play(window.machine, args.rzx):
                raise CliError(f"{args.rzx}: cannot play the recording")
        elif args.snapshot:
            if not window.load_snapshot(args.snapshot):
                raise CliError(f"{args.snapshot}: cannot load the snapshot")
        else:
            tape = args.tape if args.tape else _bundled_game_tape()
            window.insert_tape(tape, real_load=args.real_load)
            net_tape = tape
            symbols = images.symbols_beside(tape)
            window.symbols = symbols if symbols.is_file() else None
            if args.autoload:
                window.autoload(real_load=args.real_load, **_boot_wait(args))
            elif args.real_load:
                window.machine.deck.play()
        if network is not None:
            from zxmonopoly.ui import netwindow

            problem = netwindow.start(window, network, net_tape)
            if problem is not None:
                raise CliError(problem)
        window.run(max_frames=args.exit_after_frames)
        failure = window.net_failure
        if args.screenshot:
            window.save_screenshot(args.screenshot)
        if args.screen_text:
            args.screen_text.write_text("\n".join(window.machine.screen_text()) + "\n")
        if failure is not None:
            print(f"zxmonopoly: {failure}", file=sys.stderr)
            return 1
    except WindowError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        raise CliError(f"{name}{exc.strerror or exc}") from None
    finally:
        window.close()
    return 0


def _network_options(args: argparse.Namespace) -> NetOptions | None:
    """``play``'s --host/--join/--watch/--code/--port/--bind checked (docs/network.md)."""
    named = (args.join, args.code, args.port, args.bind, args.name, args.lobby, args.lobby_ca)
    if not (args.host or args.watch or args.strict or args.online
            or any(value is not None for value in named)):
        return None  # no network play: the net package is not even imported
    from zxmonopoly.net.link import NetOptionsError, net_options

    try:
        options = net_options(host=args.host, join=args.join, watch=args.watch, code=args.code,
                              port=args.port, bind=args.bind, name=args.name or "",
                              strict=args.strict, online=args.online, lobby=args.lobby,
                              lobby_ca=args.lobby_ca)
    except NetOptionsError as exc:
        raise CliError(str(exc)) from None
    if options is None:
        if args.name is not None:
            raise CliError("--name is for a network game (--host or --join)")
        return None
    if args.real_load:
        raise CliError("--real-load: not in a network game (the tape loads fast on every "
                       "machine alike)")
    if not options.hosting and args.snapshot is not None:
        raise CliError("--snapshot is for the host: a joiner gets the host's machine")
    return options


def _not_a_file(path: Path) -> str:
    """Why ``path``, which is not a regular file, cannot be opened."""
    if path.is_dir():
        return "is a directory, not a file"
    return "not a regular file (a device or a pipe?)" if path.exists() else "no such file"


def _check_play_files(args: argparse.Namespace) -> None:
    """Read the tape and the snapshot before the window opens: a bad one is one line, exit 2."""
    from zxmonopoly import snapshot, tape

    try:
        if args.tape is not None:
            tape.read(args.tape)
        if args.snapshot is not None:
            snapshot.load(args.snapshot)
        if args.rzx is not None:
            from zxmonopoly.snapshot.rzx import load_rzx

            load_rzx(args.rzx)
    except (tape.TapeError, snapshot.SnapshotError) as exc:
        raise CliError(str(exc)) from None


def _boot_wait(args: argparse.Namespace) -> dict[str, int]:
    """How long the window lets the ROM boot before typing LOAD "": less for our quick ROM."""
    from zxmonopoly.spectrum.timing import OUR_ROM_BOOT_FRAMES

    return {"boot_frames": OUR_ROM_BOOT_FRAMES} if args.rom is None else {}


def _file_to_option(args: argparse.Namespace) -> None:
    """``zxmonopoly FILE``: a tape becomes --tape, a snapshot --snapshot (by the suffix)."""
    from zxmonopoly.snapshot import SUFFIXES as SNAPSHOT_SUFFIXES

    suffix = args.file.suffix.lower()
    if suffix in (".tap", ".tzx"):
        option = "tape"
    elif suffix == ".rzx":
        option = "rzx"
    elif suffix in SNAPSHOT_SUFFIXES:
        option = "snapshot"
    else:
        kinds = ", ".join((".tap", ".tzx", *SNAPSHOT_SUFFIXES, ".rzx"))
        raise CliError(f"{args.file}: not a tape, snapshot or recording this opens ({kinds})")
    if getattr(args, option) is not None:
        raise CliError(f"{args.file}: give either FILE or --{option}, not both")
    if not args.file.is_file():
        raise CliError(f"{args.file}: {_not_a_file(args.file)}")
    setattr(args, option, args.file)


def _cmd_tape_info(args: argparse.Namespace) -> int:
    """List a tape's blocks like tzxlist."""
    from zxmonopoly.tape import TapeError, info_lines
    from zxmonopoly.tape.image import printable

    try:
        print("\n".join(info_lines(args.file)))
    except TapeError as exc:
        raise CliError(printable(str(exc))) from None
    except OSError as exc:
        raise CliError(f"{args.file}: {exc.strerror or exc}") from None
    return 0


def _cmd_script(args: argparse.Namespace) -> int:
    """Run keystroke scripts; print pass/fail per script and the screen at each failure."""
    from zxmonopoly.harness.script import run_script

    _check_engine(args.engine)
    engine = _machine_engine(args.engine, None)
    failed = 0
    for path in args.files:
        result = run_script(path, engine=engine)
        print(result.report())
        failed += not result.passed
    print(f"{len(args.files) - failed} passed, {failed} failed")
    return 1 if failed else 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    """Play all-computer games headless and print the per-personality table."""
    from zxmonopoly.harness import tournament

    return tournament.main(args)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``zxmonopoly``."""
    from zxmonopoly import __version__

    parser = argparse.ArgumentParser(
        prog="zxmonopoly",
        description="ZX Spectrum emulator and Monopoly game.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    cpm = commands.add_parser(
        "cpm",
        help="run a CP/M .COM program (such as zexdoc) on the Z80 core",
        description="Run a CP/M .COM program on the bare Z80 core. BDOS console output "
        "(functions 2 and 9) goes to stdout; the run ends when the program jumps to 0x0000.",
    )
    cpm.add_argument("file", type=Path, metavar="FILE.com")
    _add_engine_argument(cpm, "cpm")
    cpm.add_argument(
        "--max-tstates",
        type=int,
        default=0,
        metavar="N",
        help="give up after N T-states (default: no limit)",
    )
    cpm.add_argument(
        "-v", "--verbose", action="store_true", help="print the T-states taken to stderr"
    )
    cpm.set_defaults(handler=_cmd_cpm)

    from zxmonopoly import benchmarks

    bench = commands.add_parser(
        "bench",
        help="measure the speed of the Z80 engines",
        description="Run a mixed Z80 workload on each engine and print T-states per second.",
    )
    _add_engine_argument(bench, "bench")
    benchmarks.add_arguments(bench)
    bench.set_defaults(handler=_cmd_bench)

    lobby = commands.add_parser(
        "lobby",
        help="serve a lobby: rooms that hosts and joiners connect out to (online play)",
        description="Serve the lobby of online network play: hosts open rooms, joiners enter "
        "them by the room code, the lobby relays their sealed messages (it can neither read "
        "nor change them). WebSocket; over TLS with --tls-cert/--tls-key, or behind a TLS "
        "proxy (nginx, Caddy): docs/network.md.")
    lobby.add_argument("--bind", default="127.0.0.1", metavar="ADDR",
                       help="the address to listen on (default 127.0.0.1; 0.0.0.0 for every "
                       "network)")
    lobby.add_argument("--port", type=int, default=4849, metavar="N",
                       help="the port to listen on (default 4849)")
    lobby.add_argument("--tls-cert", metavar="F", help="TLS certificate chain (PEM)")
    lobby.add_argument("--tls-key", metavar="F", help="its private key (PEM)")
    lobby.add_argument("--shard", default="", metavar="L",
                       help="the letter every room's name starts with (several lobbies behind "
                       "one proxy: docs/network.md)")
    lobby.add_argument("--proxy", action="append", metavar="ADDR",
                       help="the address of a TLS proxy in front (nginx, Caddy; may be given "
                       "again): its connections are counted by their X-Forwarded-For")
    lobby.set_defaults(handler=_cmd_lobby)

    run = commands.add_parser(
        "run",
        help="run the Spectrum headless",
        description="Boot the Spectrum (our ROM, or --rom), optionally from a snapshot; run "
        "frames, type text as a user would, wait for text on the screen; print the screen "
        "as text, save a screenshot or a snapshot.",
    )
    run.add_argument("--rom", type=Path, metavar="FILE", help="a 16,384-byte 48K ROM image")
    run.add_argument("--snapshot", type=Path, metavar="FILE",
                     help="load a .szx, .sna or .z80 first")
    run.add_argument("--frames", type=int, default=None, metavar="N",
                     help="frames to run first (default 100: about 2 s of Spectrum time); "
                     "with --rzx, the frames of the recording to play (default all)")
    run.add_argument("--rzx", type=Path, metavar="FILE",
                     help="play an RZX recording (from its snapshot, on its ROM if it holds "
                     "one, else --rom or ours); then --screen-text, --screenshot, "
                     "--save-snapshot")
    run.add_argument("--type", metavar="TEXT", help="type TEXT on the keyboard (\\n = ENTER)")
    run.add_argument("--until-text", metavar="T",
                     help="then run until T is on the screen (exit 1 if it never comes)")
    run.add_argument("--max-frames", type=int, default=500, metavar="N",
                     help="frame budget for --until-text, else for the load of "
                     "--autoload (default 500)")
    run.add_argument("--screen-text", action="store_true", help="print the screen as text")
    run.add_argument("--screenshot", type=Path, metavar="F", help="save the screen as PNG")
    run.add_argument("--save-snapshot", type=Path, metavar="F",
                     help="save a .szx (exact), .sna or .z80")
    run.add_argument("--tape", type=Path, metavar="FILE", help="put a .tap or .tzx in the deck")
    run.add_argument("--autoload", action="store_true",
                     help='type LOAD "" after --frames (J, SYMBOL SHIFT+P twice, ENTER; spelled '
                     "on a ROM without K mode)")
    run.add_argument("--real-load", action="store_true",
                     help="play the tape in real time through the EAR bit (default: fast load)")
    run.add_argument("--game", action="store_true",
                     help='load the bundled game: boot, type LOAD "" and load its tape, then run '
                     "--frames (e.g. --game --frames 300 --screen-text shows the title)")
    _add_engine_argument(run, "run")
    run.set_defaults(handler=_cmd_run)

    play = commands.add_parser(
        "play",
        help="open the emulator window (the default command)",
        description='Open the window: boot the ROM, type LOAD "" as a user would and load the '
        "tape; play with the PC keyboard (see docs/window.md; F1 shows the keys).",
    )
    play.add_argument("file", type=Path, nargs="?", metavar="FILE",
                      help="a tape (.tap, .tzx) to load or a snapshot to start from, "
                      "by its suffix (zxmonopoly FILE is the same)")
    play.add_argument("--rom", type=Path, metavar="F", help="a 16,384-byte 48K ROM image")
    play.add_argument("--tape", type=Path, metavar="F", help="the .tap or .tzx to load")
    play.add_argument("--snapshot", type=Path, metavar="F", help="start from a .szx, .z80 or .sna")
    play.add_argument("--rzx", type=Path, metavar="F",
                      help="play an RZX recording (then play on from where it ends)")
    play.add_argument("--no-autoload", dest="autoload", action="store_false",
                      help='do not type LOAD "" (you type it yourself)')
    play.add_argument("--real-load", action="store_true",
                      help="load in real time with the border stripes and sound (default: fast)")
    play.add_argument("--scale", type=int, default=2, metavar="N",
                      help="window size: N times 320x256 (default 2)")
    play.add_argument("--fullscreen", action="store_true", help="start in full screen")
    play.add_argument("--log", type=Path, metavar="FILE",
                      help="write the game's record of events to FILE as it is played (F8 "
                           "shows it in the window)")
    play.add_argument("--mute", action="store_true", help="no sound")
    play.add_argument("--exit-after-frames", type=int, metavar="N",
                      help="close the window after N frames (for automation)")
    play.add_argument("--screenshot", type=Path, metavar="F",
                      help="on exit, save the window's pixels as PNG")
    play.add_argument("--screen-text", type=Path, metavar="F",
                      help="on exit, write the Spectrum's screen as text (32 x 24)")
    net = play.add_argument_group(
        "network play (docs/network.md)",
        "One game, each player at their own window: the host's machine runs on every peer, "
        "only the keys travel. Up to 6 players (the host included) and 8 spectators.")
    net.add_argument("--host", action="store_true",
                     help="host the game; prints and shows the join code the others need")
    net.add_argument("--online", action="store_true",
                     help="with --host: open a room in a lobby (no port to open, any router); "
                     "prints and shows the room code the others give to --join")
    net.add_argument("--lobby", metavar="URL",
                     help="the lobby (wss://HOST[:PORT]) for --online or --join ROOM-CODE; "
                     "else $ZXMONOPOLY_LOBBY, else the file ~/.config/zxmonopoly/lobby")
    net.add_argument("--lobby-ca", metavar="F",
                     help="a CA certificate (PEM) to trust for the lobby's TLS (a lobby with a "
                     "certificate of its own making); else $ZXMONOPOLY_LOBBY_CA")
    net.add_argument("--port", type=int, metavar="N",
                     help="with --host: the TCP port to listen on (default 4848; 0: any free)")
    net.add_argument("--bind", metavar="ADDR",
                     help="with --host: the address to listen on (default 127.0.0.1, this "
                     "machine only; 0.0.0.0 for every network)")
    net.add_argument("--join", metavar="HOST[:PORT]|ROOM-CODE",
                     help="join the game hosted there (with --code), or the online game of "
                     "that room code (through the lobby)")
    net.add_argument("--code", metavar="CODE", help="with --join: the host's join code")
    net.add_argument("--watch", action="store_true",
                     help="with --join: watch as a spectator (your keys are not sent)")
    net.add_argument("--name", metavar="NAME", help="your name in the others' messages")
    net.add_argument("--strict", action="store_true",
                     help="with --host or --join: a desync (a machine unlike the host's) ends "
                          "the game and exits with status 1 instead of being repaired (tests)")
    _add_engine_argument(play, "play")
    play.set_defaults(handler=_cmd_play)

    script = commands.add_parser(
        "script",
        help="run keystroke scripts (.zxs) and report pass/fail",
        description="Run keystroke scripts (see docs/harness.md): print PASS or FAIL per "
        "script, with the failing line and the screen; exit 1 if any failed.",
    )
    script.add_argument("files", nargs="+", type=Path, metavar="FILE")
    _add_engine_argument(script, "script")
    script.set_defaults(handler=_cmd_script)

    tournament = commands.add_parser(
        "tournament",
        help="play all-computer games headless and measure the personalities",
        description="Play all-computer games of the bundled game headless (see "
        "docs/tournament.md): per personality wins, average final worth, properties bought, "
        "houses built, bids, trades and the games' lengths; the invariants (money, building "
        "stock, even building, PC and stack) are checked after every turn and a violation "
        "exits 1 with the seed and the state.",
    )
    _add_tournament_arguments(tournament)
    _add_engine_argument(tournament, "tournament")
    tournament.set_defaults(handler=_cmd_tournament)

    tape = commands.add_parser("tape", help="tape files", description="Tape files.")
    tape_commands = tape.add_subparsers(dest="tape_command", metavar="ACTION", required=True)
    info = tape_commands.add_parser("info", help="list the blocks of a .tap or .tzx",
                                    description="List a tape's blocks like tzxlist: type, "
                                    "name, lengths, flag, checksum.")
    info.add_argument("file", type=Path, metavar="FILE")
    info.set_defaults(handler=_cmd_tape_info)

    from zxmonopoly.asm.cli import add_asm_subcommand

    add_asm_subcommand(commands)
    return parser


def _add_tournament_arguments(parser: argparse.ArgumentParser) -> None:
    from zxmonopoly.harness.tournament import add_arguments

    add_arguments(parser)


#: What each command does with no --engine (and no ZXMONOPOLY_ENGINE): the truth per command.
ENGINE_DEFAULTS = {
    "play": "python at once, then jit when a background process has compiled it "
            f"(first launch: {JIT_FIRST_COMPILE})",
    "run": "python under 1,500 frames; jit when numba's cache holds it or for 60,000 frames "
           "or more; else python",
    "script": "jit when numba's cache holds it, else python",
    "tournament": f"jit (first run: {JIT_FIRST_COMPILE} to compile)",
    "cpm": "jit when numba imports, else python",
    "bench": "jit when numba imports, else python",
}


def _add_engine_argument(parser: argparse.ArgumentParser, command: str) -> None:
    parser.add_argument(
        "--engine",
        choices=ENGINE_CHOICES,
        default=None,
        help=f"Z80 engine (default: {ENGINE_DEFAULTS[command]}; or ZXMONOPOLY_ENGINE)",
    )


def _default_to_play(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """``play`` is the default command, as Fuse's window is: ``zxmonopoly [FILE] [--mute]``."""
    commands = next(action.choices for action in parser._actions
                    if isinstance(action, argparse._SubParsersAction))
    if argv and (argv[0] in commands or argv[0] in ("-h", "--help", "--version")):
        return argv
    return ["play", *argv]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``zxmonopoly`` console script; returns the exit status."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(_default_to_play(parser, argv))
    try:
        return args.handler(args)
    except CliError as exc:
        print(f"zxmonopoly: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("zxmonopoly: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`zxmonopoly tape info F | head -1`): stop quietly. Python would
        # hit the closed pipe again flushing stdout at exit, so stdout goes to /dev/null first
        # (the recipe of the signal module's documentation, "Note on SIGPIPE").
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
