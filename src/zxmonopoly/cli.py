"""The ``zxmonopoly`` command: thin subcommands over the library."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

# The engine names of zxmonopoly.z80.ENGINES, repeated here so that ``--help`` does not import
# numba; tests/test_cli.py checks that the two agree.
ENGINE_CHOICES = ("jit", "python")

# CP/M memory map used by ``cpm``: the program is loaded at the start of the TPA, BDOS sits at
# the top of memory with its entry point (a JP) at 0x0005, as a CP/M 2.2 system would have it.
CPM_TPA = 0x0100
CPM_BDOS = 0xFE00
CPM_MAX_SIZE = CPM_BDOS - CPM_TPA
CPM_STACK = 0xFFFE

# Ports of the BDOS stub (low byte of the port address, the value written is A).
_PORT_FUNCTION = 0x00  # C, the BDOS function number
_PORT_E = 0x01  # E
_PORT_D = 0x02  # D; writing it performs the function
_PORT_EXIT = 0x03  # warm boot (jump to 0x0000): the program has finished

# 0x0000: OUT (3),A ; HALT            -- warm boot ends the run
_CPM_WARM_BOOT = bytes([0xD3, _PORT_EXIT, 0x76])
# 0x0005: JP CPM_BDOS                 -- programs read the top of memory from 0x0006
_CPM_BDOS_ENTRY = bytes([0xC3, CPM_BDOS & 0xFF, CPM_BDOS >> 8])
# CPM_BDOS: hand C, E and D to the host through ports, then return.
_CPM_BDOS_STUB = bytes(
    [
        0x79,  # LD A,C
        0xD3, _PORT_FUNCTION,  # OUT (0),A
        0x7B,  # LD A,E
        0xD3, _PORT_E,  # OUT (1),A
        0x7A,  # LD A,D
        0xD3, _PORT_D,  # OUT (2),A
        0xC9,  # RET
    ]
)  # fmt: skip

# T-states per call of Z80.run() in ``cpm``: grows from the first to the last, so that a short
# program ends quickly and a long one pays little per-call overhead.
_CPM_FIRST_CHUNK = 1 << 12
_CPM_LAST_CHUNK = 1 << 21


class CliError(Exception):
    """An error to report as ``zxmonopoly: error: ...`` with exit status 2."""


def _make_cpu(memory: bytearray, engine: str | None, **ports):
    from zxmonopoly.z80 import Z80, Z80Error, jit_available

    if engine == "jit" and not jit_available():
        raise CliError("the jit engine needs numba, which cannot be imported; use --engine python")
    try:
        return Z80(memory, engine=engine, **ports)
    except Z80Error as exc:  # e.g. a bad ZXMONOPOLY_ENGINE
        raise CliError(str(exc)) from None


class _Bdos:
    """The two console functions of CP/M's BDOS that test programs use, and warm boot."""

    def __init__(self, memory: bytearray, out) -> None:
        self.memory = memory
        self.out = out
        self.function = 0
        self.e = 0
        self.done = False
        self.error: str | None = None
        self.cpu = None  # set once the Z80 exists
        self.exit_tstates: int | None = None

    def write_port(self, port: int, value: int) -> None:
        low = port & 0xFF
        if low == _PORT_FUNCTION:
            self.function = value
        elif low == _PORT_E:
            self.e = value
        elif low == _PORT_D:
            self.call(value << 8 | self.e)
        elif low == _PORT_EXIT:
            self.done = True
            # The CPU runs on (halted) to the end of its run() chunk: note when it got here.
            self.exit_tstates = self.cpu.tstates

    def call(self, de: int) -> None:
        if self.function == 0:  # system reset
            self.done = True
        elif self.function == 2:  # console output: E
            self.put(bytes([de & 0xFF]))
        elif self.function == 9:  # print string: DE, terminated by '$'
            memory = self.memory
            text = bytearray()
            address = de
            for _ in range(0x10000):
                byte = memory[address]
                if byte == 0x24:  # '$'
                    break
                text.append(byte)
                address = (address + 1) & 0xFFFF
            self.put(bytes(text))
        elif not self.done:
            self.error = f"unsupported BDOS function {self.function} (only 0, 2 and 9 exist here)"
            self.done = True

    def put(self, data: bytes) -> None:
        self.out.write(data.decode("ascii", errors="replace"))
        self.out.flush()


def run_cpm(
    path: Path,
    *,
    engine: str | None = None,
    max_tstates: int = 0,
    out=None,
) -> int:
    """Run the CP/M program ``path`` until it warm-boots; return the T-states it took.

    The count is the CPU's at the warm boot's port write (its OUT at 0x0000).

    BDOS functions 2 (console output) and 9 (print string) go to ``out`` (stdout by default).
    ``max_tstates`` > 0 stops a program that runs longer with a CliError.
    """
    out = sys.stdout if out is None else out
    try:
        program = path.read_bytes()
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except OSError as exc:
        raise CliError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not program:
        raise CliError(f"{path}: the file is empty")
    if len(program) > CPM_MAX_SIZE:
        raise CliError(
            f"{path}: {len(program)} bytes is too large for a CP/M program here "
            f"(at most {CPM_MAX_SIZE} bytes, 0x{CPM_TPA:04X}-0x{CPM_BDOS - 1:04X})"
        )

    memory = bytearray(0x10000)
    memory[0 : len(_CPM_WARM_BOOT)] = _CPM_WARM_BOOT
    memory[5 : 5 + len(_CPM_BDOS_ENTRY)] = _CPM_BDOS_ENTRY
    memory[CPM_BDOS : CPM_BDOS + len(_CPM_BDOS_STUB)] = _CPM_BDOS_STUB
    memory[CPM_TPA : CPM_TPA + len(program)] = program
    # The return address of the program's final RET: the warm boot at 0x0000.
    memory[CPM_STACK] = memory[CPM_STACK + 1] = 0x00

    bdos = _Bdos(memory, out)
    cpu = _make_cpu(memory, engine, write_port=bdos.write_port)
    bdos.cpu = cpu
    cpu.pc = CPM_TPA
    cpu.sp = CPM_STACK
    chunk = _CPM_FIRST_CHUNK
    while not bdos.done:
        if max_tstates and cpu.tstates >= max_tstates:
            raise CliError(f"{path}: still running after {cpu.tstates} T-states")
        limit = cpu.tstates + chunk
        if max_tstates:
            limit = min(limit, max_tstates)
        cpu.run(limit)
        chunk = min(chunk * 2, _CPM_LAST_CHUNK)
    if bdos.error:
        raise CliError(f"{path}: {bdos.error}")
    return cpu.tstates if bdos.exit_tstates is None else bdos.exit_tstates


def _cmd_cpm(args: argparse.Namespace) -> int:
    tstates = run_cpm(args.file, engine=args.engine, max_tstates=args.max_tstates)
    if args.verbose:
        print(f"{tstates} T-states", file=sys.stderr)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from zxmonopoly import benchmarks

    return benchmarks.run_from_args(args)


def _cmd_run(args: argparse.Namespace) -> int:
    """Run the Spectrum headless: frames, typing, waiting for text, screen and snapshot out."""
    from zxmonopoly.snapshot import SnapshotError
    from zxmonopoly.spectrum import Spectrum48, SpectrumError, keystrokes
    from zxmonopoly.spectrum.keyboard import KeyboardError
    from zxmonopoly.tape import TapeError
    from zxmonopoly.z80 import Z80Error, jit_available

    for option, value in (("--frames", args.frames), ("--max-frames", args.max_frames)):
        if value < 0:
            raise CliError(f"{option} must be 0 or more, not {value}")
    if args.engine == "jit" and not jit_available():
        raise CliError("the jit engine needs numba, which cannot be imported; use --engine python")
    if args.game:
        for option, value in (("--tape", args.tape), ("--snapshot", args.snapshot)):
            if value:
                raise CliError(f"--game loads the bundled game tape: it cannot go with {option}")
        from zxmonopoly.asm.build import GAME, image_path

        args.tape = image_path(GAME)
        if not args.tape.is_file():
            raise CliError(f"the game is not built: {args.tape} is missing "
                           "(run python tools/build.py)")
    try:
        machine = Spectrum48(rom=args.rom, engine=_machine_engine(args.engine,
                                                                  _run_frames(args)))
        if args.snapshot:
            machine.load_snapshot(args.snapshot)
        if args.tape:
            machine.deck.set_fast(not args.real_load)
            machine.deck.insert(args.tape)
            if args.real_load and not args.autoload:
                machine.deck.play()
        if args.game:  # boot, LOAD "" as a user types it, then --frames of the game
            from zxmonopoly.harness.session import BOOT_FRAMES

            machine.run_frames(BOOT_FRAMES)
            keystrokes.type_load_quoted(machine)
            if args.real_load:
                machine.deck.play()
        machine.run_frames(args.frames)
        if args.tape and args.autoload and not args.game:
            keystrokes.type_load_quoted(machine)
            if args.real_load:
                machine.deck.play()
        if args.type:
            machine.type_text(args.type.replace("\\n", "\n"))
        status = 0
        if args.until_text is not None:
            if not machine.run_until_text(args.until_text, max_frames=args.max_frames):
                print(f"zxmonopoly: {args.until_text!r} did not appear within "
                      f"{args.max_frames} frames", file=sys.stderr)
                status = 1
        if args.screen_text or status:
            print("\n".join(machine.screen_text()))
        if args.screenshot:
            machine.screenshot(args.screenshot)
        if args.save_snapshot:
            machine.save_snapshot(args.save_snapshot)
    except (SpectrumError, SnapshotError, KeyboardError, Z80Error, TapeError) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:  # writing the screenshot
        name = f"{exc.filename}: " if exc.filename else ""
        raise CliError(f"{name}{exc.strerror or exc}") from None
    return status


def _machine_engine(engine: str | None, frames: int | None) -> str:
    """The headless machine's engine (the rule: zxmonopoly.spectrum.engine, docs/spectrum.md)."""
    from zxmonopoly.spectrum.engine import choose_machine_engine
    from zxmonopoly.z80 import Z80Error

    try:
        return choose_machine_engine(engine, frames)
    except Z80Error as exc:  # a bad ZXMONOPOLY_ENGINE
        raise CliError(str(exc)) from None


def _run_frames(args: argparse.Namespace) -> int:
    """The most frames ``run`` can take with these options (for the engine choice)."""
    from zxmonopoly.harness.session import BOOT_FRAMES
    from zxmonopoly.spectrum.keyboard import KeyboardError, keys_for_text

    frames = args.frames
    if args.until_text is not None:
        frames += args.max_frames
    if args.game or args.autoload:
        frames += BOOT_FRAMES + 4 * 6  # the boot, then LOAD "" typed (6 frames a key)
    if args.type:
        try:
            frames += 6 * len(keys_for_text(args.type.replace("\\n", "\n")))
        except KeyboardError:  # reported when it is typed
            frames += 6 * len(args.type)
    return frames


def _bundled_game_tape() -> Path:
    """The Monopoly tape shipped with the package (built first in a source checkout)."""
    from zxmonopoly.asm.build import GAME, image_path

    try:
        return image_path(GAME)
    except FileNotFoundError as exc:
        raise CliError(str(exc)) from None


def _cmd_play(args: argparse.Namespace) -> int:
    """Open the window: boot, type LOAD "" and load the tape (or a snapshot), then play."""
    from zxmonopoly.spectrum import SpectrumError
    from zxmonopoly.z80 import Z80Error, jit_available

    for option, value in (("--scale", args.scale), ("--exit-after-frames", args.exit_after_frames)):
        if value is not None and value < (1 if option == "--scale" else 0):
            raise CliError(f"{option} must be {'1' if option == '--scale' else '0'} or more, "
                           f"not {value}")
    if args.file is not None:
        _file_to_option(args)
    for option, path in (("--tape", args.tape), ("--snapshot", args.snapshot), ("--rom", args.rom)):
        if path is not None and not path.is_file():
            raise CliError(f"{option} {path}: no such file")
    from zxmonopoly.ui.display import WindowError as DisplayError
    from zxmonopoly.ui.display import check_environment

    try:  # before anything slow: no display is one line and exit 2 at once
        check_environment()
    except DisplayError as exc:
        raise CliError(str(exc)) from None
    if args.engine == "jit" and not jit_available():
        raise CliError("the jit engine needs numba, which cannot be imported; use --engine python")
    try:
        from zxmonopoly.ui.window import Window, WindowError
    except ImportError as exc:
        raise CliError(f"the window needs pygame ({exc}); pip install pygame") from None
    try:
        window = Window(rom=args.rom, engine=args.engine, scale=args.scale,
                        fullscreen=args.fullscreen, mute=args.mute)
    except WindowError as exc:
        raise CliError(str(exc)) from None
    except (SpectrumError, Z80Error, OSError) as exc:
        raise CliError(str(exc)) from None
    try:
        if args.snapshot:
            if not window.load_snapshot(args.snapshot):
                raise CliError(f"{args.snapshot}: cannot load the snapshot")
        else:
            tape = args.tape if args.tape else _bundled_game_tape()
            window.insert_tape(tape, real_load=args.real_load)
            symbols = Path(tape).with_name(Path(tape).stem + ".sym.json")
            window.symbols = symbols if symbols.is_file() else None
            if args.autoload:
                window.autoload(real_load=args.real_load, **_boot_wait(args))
            elif args.real_load:
                window.machine.deck.play()
        window.run(max_frames=args.exit_after_frames)
        if args.screenshot:
            window.save_screenshot(args.screenshot)
    except WindowError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        raise CliError(f"{name}{exc.strerror or exc}") from None
    finally:
        window.close()
    return 0


def _boot_wait(args: argparse.Namespace) -> dict[str, int]:
    """How long the window lets the ROM boot before typing LOAD "": less for our quick ROM."""
    from zxmonopoly.ui.window import OUR_ROM_BOOT_FRAMES

    return {"boot_frames": OUR_ROM_BOOT_FRAMES} if args.rom is None else {}


def _file_to_option(args: argparse.Namespace) -> None:
    """``zxmonopoly FILE``: a tape becomes --tape, a snapshot --snapshot (by the suffix)."""
    from zxmonopoly.snapshot import SUFFIXES as SNAPSHOT_SUFFIXES

    suffix = args.file.suffix.lower()
    if suffix in (".tap", ".tzx"):
        option = "tape"
    elif suffix in SNAPSHOT_SUFFIXES:
        option = "snapshot"
    else:
        kinds = ", ".join((".tap", ".tzx", *SNAPSHOT_SUFFIXES))
        raise CliError(f"{args.file}: not a tape or snapshot this opens ({kinds})")
    if getattr(args, option) is not None:
        raise CliError(f"{args.file}: give either FILE or --{option}, not both")
    if not args.file.is_file():
        raise CliError(f"{args.file}: no such file")
    setattr(args, option, args.file)


def _cmd_tape_info(args: argparse.Namespace) -> int:
    """List a tape's blocks like tzxlist."""
    from zxmonopoly.tape import TapeError, info_lines

    try:
        print("\n".join(info_lines(args.file)))
    except TapeError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"{args.file}: {exc.strerror or exc}") from None
    return 0


def _cmd_script(args: argparse.Namespace) -> int:
    """Run keystroke scripts; print pass/fail per script and the screen at each failure."""
    from zxmonopoly.harness.script import run_script
    from zxmonopoly.z80 import jit_available

    if args.engine == "jit" and not jit_available():
        raise CliError("the jit engine needs numba, which cannot be imported; use --engine python")
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
    from zxmonopoly import tournament

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
    _add_engine_argument(cpm)
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
    _add_engine_argument(bench)
    benchmarks.add_arguments(bench)
    bench.set_defaults(handler=_cmd_bench)

    run = commands.add_parser(
        "run",
        help="run the Spectrum headless",
        description="Boot the Spectrum (our ROM, or --rom), optionally from a snapshot; run "
        "frames, type text as a user would, wait for text on the screen; print the screen "
        "as text, save a screenshot or a snapshot.",
    )
    run.add_argument("--rom", type=Path, metavar="FILE", help="a 16,384-byte 48K ROM image")
    run.add_argument("--snapshot", type=Path, metavar="FILE", help="load a .sna or .z80 first")
    run.add_argument("--frames", type=int, default=100, metavar="N",
                     help="frames to run first (default 100: about 2 s of Spectrum time)")
    run.add_argument("--type", metavar="TEXT", help="type TEXT on the keyboard (\\n = ENTER)")
    run.add_argument("--until-text", metavar="T",
                     help="then run until T is on the screen (exit 1 if it never comes)")
    run.add_argument("--max-frames", type=int, default=500, metavar="N",
                     help="frame budget for --until-text (default 500)")
    run.add_argument("--screen-text", action="store_true", help="print the screen as text")
    run.add_argument("--screenshot", type=Path, metavar="F", help="save the screen as PNG")
    run.add_argument("--save-snapshot", type=Path, metavar="F", help="save a .sna or .z80")
    run.add_argument("--tape", type=Path, metavar="FILE", help="put a .tap or .tzx in the deck")
    run.add_argument("--autoload", action="store_true",
                     help='type LOAD "" after --frames (J, SYMBOL SHIFT+P twice, ENTER; spelled '
                     "on a ROM without K mode)")
    run.add_argument("--real-load", action="store_true",
                     help="play the tape in real time through the EAR bit (default: fast load)")
    run.add_argument("--game", action="store_true",
                     help='load the bundled game: boot, type LOAD "" and load its tape, then run '
                     "--frames (e.g. --game --frames 300 --screen-text shows the title)")
    _add_engine_argument(run)
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
    play.add_argument("--snapshot", type=Path, metavar="F", help="start from a .z80 or .sna")
    play.add_argument("--no-autoload", dest="autoload", action="store_false",
                      help='do not type LOAD "" (you type it yourself)')
    play.add_argument("--real-load", action="store_true",
                      help="load in real time with the border stripes and sound (default: fast)")
    play.add_argument("--scale", type=int, default=2, metavar="N",
                      help="window size: N times 320x256 (default 2)")
    play.add_argument("--fullscreen", action="store_true", help="start in full screen")
    play.add_argument("--mute", action="store_true", help="no sound")
    play.add_argument("--exit-after-frames", type=int, metavar="N",
                      help="close the window after N frames (for automation)")
    play.add_argument("--screenshot", type=Path, metavar="F",
                      help="on exit, save the window's pixels as PNG")
    _add_engine_argument(play)
    play.set_defaults(handler=_cmd_play)

    script = commands.add_parser(
        "script",
        help="run keystroke scripts (.zxs) and report pass/fail",
        description="Run keystroke scripts (see docs/harness.md): print PASS or FAIL per "
        "script, with the failing line and the screen; exit 1 if any failed.",
    )
    script.add_argument("files", nargs="+", type=Path, metavar="FILE")
    _add_engine_argument(script)
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
    _add_engine_argument(tournament)
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
    from zxmonopoly.tournament import add_arguments

    add_arguments(parser)


def _add_engine_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        choices=ENGINE_CHOICES,
        default=None,
        help="Z80 engine (default: jit when numba imports, else python; or ZXMONOPOLY_ENGINE)",
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


if __name__ == "__main__":
    sys.exit(main())
