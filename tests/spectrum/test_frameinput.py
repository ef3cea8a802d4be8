"""One frame's input and its one seam into the machine (spectrum/frameinput.py,
``Spectrum48.set_input``): checked, masked, and the only writer of the matrix and the
Kempston port."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from tests import REPO_ROOT
from zxmonopoly.spectrum import NO_INPUT, FrameInput, Spectrum48
from zxmonopoly.spectrum.keyboard import KeyboardError, resolve
from zxmonopoly.spectrum.keyfeed import KeyFeed

SOURCE = REPO_ROOT / "src" / "zxmonopoly"


def test_an_input_is_checked_when_made() -> None:
    assert FrameInput() == NO_INPUT == FrameInput(b"\xff" * 8, 0)
    assert FrameInput(bytearray(8), 3).rows == bytes(8)  # bytes-like: kept as bytes
    for rows in (b"\xff" * 7, b"\xff" * 9, "\xff" * 8, [255] * 8):
        with pytest.raises(KeyboardError, match="8 half-rows"):
            FrameInput(rows)  # type: ignore[arg-type]
    for joystick in (-1, 256, 1.0, True, None):
        with pytest.raises(KeyboardError, match="Kempston bits are a byte"):
            FrameInput(joystick=joystick)  # type: ignore[arg-type]


def test_keys_pressed_and_added() -> None:
    shifted = FrameInput.pressed("CAPS SHIFT+5", joystick=0x10)
    assert shifted.rows == bytes([0xFE, 0xFF, 0xFF, 0xEF, 0xFF, 0xFF, 0xFF, 0xFF])
    assert shifted.joystick == 0x10
    assert FrameInput.pressed(("CAPS SHIFT", "5")) == FrameInput.pressed("CAPS SHIFT+5")
    assert FrameInput.pressed() == NO_INPUT
    # A tap folded into a frame's keys: the keys held stay, the tap's join them.
    tapped = FrameInput.pressed("A").pressing(resolve("Q"))
    assert tapped == FrameInput.pressed("A+Q")
    assert tapped.pressing(()) is tapped


def test_inputs_combined_as_one_keyboard() -> None:
    both = FrameInput.combined([FrameInput.pressed("A", 0x01), FrameInput.pressed("S", 0x10)])
    assert both == FrameInput.pressed("A+S", 0x11)
    assert FrameInput.combined([]) == NO_INPUT


def test_the_seam_masks_what_is_no_key() -> None:
    machine = Spectrum48(engine="python")
    machine.set_input(FrameInput(bytes([0x1E, 0x00, 0xFF, 0x7F, 0x9F, 0xE0, 0x1F, 0xFF]), 0xFF))
    assert machine.keyboard.rows.tobytes() == bytes(
        [0xFE, 0xE0, 0xFF, 0xFF, 0xFF, 0xE0, 0xFF, 0xFF])
    assert int(machine.joystick.state[0]) == 0x1F  # a Kempston reads 5 bits
    assert machine.keyboard.pressed()[:2] == ["CAPS SHIFT", "A"]
    assert machine.held_input() == FrameInput(machine.keyboard.rows.tobytes(), 0x1F)
    machine.set_input(NO_INPUT)
    assert machine.keyboard.pressed() == [] and int(machine.joystick.state[0]) == 0


def test_the_seam_refuses_what_is_not_an_input() -> None:
    machine = Spectrum48(engine="python")
    for wrong in ((b"\xff" * 8, 0), b"\xff" * 8, None):
        with pytest.raises(KeyboardError, match="a frame's input is a FrameInput"):
            machine.set_input(wrong)  # type: ignore[arg-type]


def test_the_seam_is_what_the_program_reads() -> None:
    """IN from the ULA's and the Kempston's ports, run on the machine, reads the seam's
    masked values (a half-row: its keys and bits 5-7 as the ULA gives them; the joystick)."""
    machine = Spectrum48(engine="python")
    machine.run_frames(30)  # our ROM up, waiting for keys
    # At 0x8000: IN A,(0xFE) with A = 0xFD (row 1: A..G), LD (0x9000),A;
    # IN A,(0x1F), LD (0x9001),A; then a loop.
    program = bytes([0x3E, 0xFD, 0xDB, 0xFE, 0x32, 0x00, 0x90,
                     0x3E, 0x00, 0xDB, 0x1F, 0x32, 0x01, 0x90, 0x18, 0xFE])
    machine.memory[0x8000:0x8000 + len(program)] = program
    machine.set_input(FrameInput.pressed("A", joystick=0xE3))
    machine.cpu.pc = 0x8000
    machine.run_frames(1)
    assert machine.memory[0x9000] & 0x1F == 0x1E  # A down
    assert machine.memory[0x9001] == 0x03  # bits 5-7 of the joystick masked away


def test_a_key_feed_s_frames_go_through_the_seam() -> None:
    machine = Spectrum48(engine="python")
    seen: list[FrameInput] = []
    original = machine.set_input
    machine.set_input = lambda given: (seen.append(given), original(given))[1]  # type: ignore[method-assign]
    machine.joystick.state[0] = 0x04
    feed = KeyFeed()
    feed.type_keys(["Q"], 2, 1)
    machine.run_feed(feed)
    assert [s.rows for s in seen[:2]] == [FrameInput.pressed("Q").rows] * 2
    assert all(s.joystick == 0x04 for s in seen)  # the joystick as it was
    assert seen[-1] == FrameInput(joystick=0x04)


def _writes_to_the_matrix(tree: ast.AST) -> list[int]:
    """Lines that assign into a machine's ``keyboard.rows[...]`` or ``joystick.state[...]``."""
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AugAssign) else []
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute) \
                    and isinstance(target.value.value, ast.Attribute) \
                    and (target.value.value.attr, target.value.attr) in (
                        ("keyboard", "rows"), ("joystick", "state")):
                found.append(node.lineno)
    return found


def test_only_the_seam_writes_the_matrix_and_the_kempston_port() -> None:
    """No module of the package writes a machine's matrix or Kempston port but
    ``Spectrum48.set_input``: the window, its runtime, the lockstep node and the key feed
    hand it a FrameInput."""
    writers = {}
    for path in sorted(SOURCE.rglob("*.py")):
        lines = _writes_to_the_matrix(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            writers[str(path.relative_to(SOURCE))] = lines
    assert list(writers) == ["spectrum/machine.py"]
    machine_source = (SOURCE / "spectrum" / "machine.py").read_text(encoding="utf-8")
    tree = ast.parse(machine_source)
    (seam,) = [node for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef) and node.name == "set_input"]
    assert all(seam.lineno <= line <= seam.end_lineno for line in writers["spectrum/machine.py"])
    assert len(writers["spectrum/machine.py"]) == 2
    # ... and the rule is one that finds a write when there is one.
    assert _writes_to_the_matrix(ast.parse("m.keyboard.rows[:] = r\nm.joystick.state[0] |= 1"))\
        == [1, 2]


def test_the_lockstep_node_masks_through_the_seam() -> None:
    """A player's Kempston bits 5-7 (a peer may send any byte) reach no machine."""
    from zxmonopoly.net.lockstep import Node, Player
    from zxmonopoly.net.protocol import NO_FRAME

    class Alone(Node):
        def _send_keys(self, frame: int, keys: FrameInput) -> None:
            pass

        def _checkpoint(self, frame: int, digest: bytes) -> None:
            pass

    node = Alone(Spectrum48(engine="python"))
    node.slot = 0
    node.players[0] = Player(0, "A", spans=[[0, NO_FRAME]])
    node.players[1] = Player(1, "B", spans=[[0, NO_FRAME]],
                             keys={0: FrameInput.pressed("S", 0xF0)})
    assert node.advance(FrameInput.pressed("A", 0x01))
    assert int(node.machine.joystick.state[0]) == 0x11
    assert node.machine.keyboard.pressed() == ["A", "S"]
    assert np.array_equal(node.machine.keyboard.rows,
                          np.frombuffer(FrameInput.pressed("A+S").rows, np.uint8))
