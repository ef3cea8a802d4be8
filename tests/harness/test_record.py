"""Recording keys into a keystroke script (F9) and replaying it to the same place."""

from __future__ import annotations

from pathlib import Path

from zxmonopoly.asm.build import GAME, image_path
from zxmonopoly.harness import Session, run_script
from zxmonopoly.harness.record import Recorder


def play(session: Session, recorder: Recorder, keys: tuple[str, ...], frames: int) -> None:
    """Hold ``keys`` for ``frames`` frames, recording each one."""
    if keys:
        session.machine.keyboard.press(keys)
    for _ in range(frames):
        held = session.machine.keyboard.pressed()
        session.machine.run_frames(1)
        recorder.frame(held)
    if keys:
        session.machine.keyboard.release(keys)


def test_a_recorded_game_replays_to_the_same_state(tmp_path: Path) -> None:
    session = Session.game(engine="jit")
    symbols = image_path(GAME).with_name("monopoly.sym.json")
    recorder = Recorder(session.machine, tmp_path, symbols)
    recorder.start()
    for keys, frames in ((("SPACE",), 3), ((), 30), (("1",), 3), ((), 20), (("N",), 3),
                         ((), 20), (("A",), 3), ((), 10), (("ENTER",), 3), ((), 20)):
        play(session, recorder, keys, frames)
    path = recorder.stop()
    text = path.read_text()
    assert text.startswith("# Recorded") and "hold SPACE 3" in text and "wait 30" in text
    assert "expect state phase = setup" in text
    assert 'expect "' in text
    result = run_script(path, engine="jit")
    assert result.passed, result.report()


def test_a_changed_replay_fails(tmp_path: Path) -> None:
    session = Session.game(engine="jit")
    recorder = Recorder(session.machine, tmp_path, image_path(GAME).with_name("monopoly.sym.json"))
    recorder.start()
    play(session, recorder, ("SPACE",), 3)
    play(session, recorder, (), 30)
    path = recorder.stop()
    path.write_text(path.read_text().replace("hold SPACE 3", "wait 3"))
    assert not run_script(path, engine="jit").passed


def test_a_recording_copied_elsewhere_runs_there(tmp_path: Path) -> None:
    session = Session.game(engine="jit")
    recorder = Recorder(session.machine, tmp_path / "made", image_path(GAME).with_suffix(
        ".sym.json"))
    recorder.start()
    play(session, recorder, ("SPACE",), 3)
    play(session, recorder, (), 30)
    path = recorder.stop()
    header = path.read_text().splitlines()[1:3]
    assert header == ["game", "snapshot recording-1.z80"]  # no path of this machine's
    assert str(image_path(GAME).parent) not in path.read_text()
    copied = tmp_path / "elsewhere" / "scripts"
    copied.mkdir(parents=True)
    for made in (path, recorder.snapshot_path):
        (copied / made.name).write_bytes(made.read_bytes())
    result = run_script(copied / path.name, engine="jit")
    assert result.passed, result.report()


def test_another_symbol_map_is_named_relative_to_the_recording(tmp_path: Path) -> None:
    session = Session(engine="python")
    session.machine.run_frames(30)
    maps = tmp_path / "build"
    maps.mkdir()
    own = maps / "mine.sym.json"
    own.write_text(image_path(GAME).with_suffix(".sym.json").read_text())
    recorder = Recorder(session.machine, tmp_path / "recordings", own)
    recorder.start()
    assert recorder.lines[1] == "symbols ../build/mine.sym.json"
