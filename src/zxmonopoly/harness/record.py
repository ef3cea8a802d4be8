"""Record the keys played into a keystroke script (F9 in the window), so a game becomes a test.

A :class:`Recorder` starts by saving a snapshot beside the script (the script's header starts
from it), then takes the keys held in each frame and writes them run-length encoded as
``hold KEYS FRAMES`` and ``wait FRAMES`` lines. Stopping appends what the screen and, when the
game is running, the game's state show at that moment as ``expect`` lines: replaying the
script must reach the same place. Frames, never wall-clock time, so the replay is exact.
"""

from __future__ import annotations

import os
from pathlib import Path

from zxmonopoly.harness.session import Symbols
from zxmonopoly.spectrum.machine import Spectrum48

#: Screen rows checked at the end of a recording: the game's status line and its messages
#: (a board's graphics read as '?' and change with every move, so they are left out).
CHECKED_ROWS = (15, 21, 22, 23)


def _free_stem(directory: Path) -> str:
    """The first ``recording-N`` with neither a script nor a snapshot in ``directory``."""
    n = 1
    while any((directory / f"recording-{n}{suffix}").exists() for suffix in (".zxs", ".z80")):
        n += 1
    return f"recording-{n}"


class Recorder:
    """Keys and frames from a running machine into a ``.zxs`` keystroke script."""

    def __init__(self, machine: Spectrum48, directory: str | os.PathLike[str] = ".",
                 symbols: str | os.PathLike[str] | None = None) -> None:
        self.machine = machine
        self.directory = Path(directory)
        self.symbols_path = Path(symbols) if symbols is not None else None
        stem = _free_stem(self.directory)
        self.script_path = self.directory / f"{stem}.zxs"
        self.snapshot_path = self.directory / f"{stem}.z80"
        self.lines: list[str] = []
        self._keys: tuple[str, ...] = ()
        self._frames = 0
        self.frames = 0

    def start(self) -> None:
        """Save the snapshot the script starts from and write the header."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self.machine.save_snapshot(self.snapshot_path)
        self.lines = ["# Recorded with F9 in the zxmonopoly window: the keys held in each frame.",
                      *self._symbols_header(), f"snapshot {self.snapshot_path.name}"]

    def _symbols_header(self) -> list[str]:
        """How the script names its symbol map, so that it runs on any machine once copied.

        The bundled game's map is ``game`` (the script finds it wherever the package is
        installed); any other is its path relative to the script's directory.
        """
        if self.symbols_path is None:
            return []
        from zxmonopoly.asm.build import GAME, image_path

        source = self.symbols_path.resolve()
        try:
            if source == image_path(GAME).with_suffix(".sym.json").resolve():
                return ["game"]
        except FileNotFoundError:
            pass
        try:
            name = os.path.relpath(source, self.directory.resolve())
        except ValueError:  # another drive (Windows): no relative path exists
            name = str(source)
        return [f"symbols {Path(name).as_posix()}"]

    def frame(self, keys: tuple[str, ...] | list[str]) -> None:
        """One frame was run with ``keys`` held (the matrix during that frame)."""
        keys = tuple(sorted(keys))
        if keys != self._keys and self._frames:
            self._flush()
        self._keys = keys
        self._frames += 1
        self.frames += 1

    def _flush(self) -> None:
        """Write the run of frames with the same keys."""
        if self._keys:
            self.lines.append(f"hold {'+'.join(self._keys)} {self._frames}")
        else:
            self.lines.append(f"wait {self._frames}")
        self._frames = 0

    def expectations(self) -> list[str]:
        """``expect`` lines for what the screen and the game's state show now."""
        lines = []
        text = self.machine.screen_text()
        for row in CHECKED_ROWS:
            line = text[row].rstrip()
            if line.strip() and '"' not in line:
                lines.append(f'expect "{line.strip()}" at row {row}')
        if self.symbols_path is not None:
            from zxmonopoly.harness.game import decode_state, game_running

            symbols = Symbols.load(self.symbols_path)
            mapping = {name: symbols[name] for name in symbols}
            if game_running(self.machine.memory, mapping):
                state = decode_state(self.machine.memory, mapping)
                lines.append(f"expect state phase = {state.phase}")
                for player in state.players:
                    lines.append(f"expect state player {player.number} cash = {player.cash}")
                    lines.append(f"expect state player {player.number} square = {player.square}")
                for square in state.squares:
                    if square.owner is not None:
                        lines.append(f"expect state square {square.index} owner = {square.owner}")
        return lines

    def stop(self) -> Path:
        """End the recording: flush, add the expectations, write the script; return its path."""
        if self._frames:
            self._flush()
        self.lines.append("# What the screen and the game showed when the recording stopped:")
        self.lines += self.expectations()
        self.script_path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        return self.script_path
