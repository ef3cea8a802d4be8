"""Recording keys into a keystroke script (F9) and replaying it to the same place."""

from __future__ import annotations

from pathlib import Path

from zxmonopoly import images
from zxmonopoly.harness import Session, run_script
from zxmonopoly.harness.record import Recorder
from zxmonopoly.harness.script import parse_script, run_step, start_session


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
    symbols = images.game_symbols_path()
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
    recorder = Recorder(session.machine, tmp_path, images.game_symbols_path())
    recorder.start()
    play(session, recorder, ("SPACE",), 3)
    play(session, recorder, (), 30)
    path = recorder.stop()
    path.write_text(path.read_text().replace("hold SPACE 3", "wait 3"))
    assert not run_script(path, engine="jit").passed


def test_a_recording_copied_elsewhere_runs_there(tmp_path: Path) -> None:
    session = Session.game(engine="jit")
    recorder = Recorder(session.machine, tmp_path / "made", images.game_symbols_path())
    recorder.start()
    play(session, recorder, ("SPACE",), 3)
    play(session, recorder, (), 30)
    path = recorder.stop()
    header = path.read_text().splitlines()[1:3]
    assert header == ["game", "snapshot recording-1.szx"]  # no path of this machine's
    assert str(images.game_tape_path().parent) not in path.read_text()
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
    own.write_text(images.game_symbols_path().read_text())
    recorder = Recorder(session.machine, tmp_path / "recordings", own)
    recorder.start()
    assert recorder.lines[1] == "symbols ../build/mine.sym.json"


def test_a_recording_started_at_the_title_replays_past_the_waits(tmp_path: Path) -> None:
    # The defect: the title waits for a key in HALT; the recording's snapshot lost HALT, and the
    # replay ran a frame behind from the first interrupt on (it failed at frame 1999). The
    # .szx keeps HALT, so a long wait and the keys after it replay to the same place.
    session = Session.game(engine="jit")
    session.machine.run_frames(1)
    assert session.machine.cpu.halted  # the title waits in HALT at every frame's end
    symbols = images.game_symbols_path()
    recorder = Recorder(session.machine, tmp_path, symbols)
    recorder.start()
    assert recorder.snapshot_path.suffix == ".szx"
    for keys, frames in (((), 2100), (("SPACE",), 3), ((), 30), (("1",), 3), ((), 20)):
        play(session, recorder, keys, frames)
    path = recorder.stop()
    result = run_script(path, engine="jit")
    assert result.passed, result.report()
    # The replay's machine is the recorder's, to the T-state and the byte.
    script = parse_script(path)
    replay = start_session(script, "jit")
    for step in script.steps:
        run_step(replay, step)
    assert replay.machine.to_snapshot() == session.machine.to_snapshot()
