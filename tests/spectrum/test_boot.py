"""The boot-and-load recipe (zxmonopoly.spectrum.boot): headless and frame by frame alike."""

from __future__ import annotations

import hashlib

from zxmonopoly import images
from zxmonopoly.spectrum import Spectrum48, boot
from zxmonopoly.spectrum.keyfeed import KeyFeed
from zxmonopoly.spectrum.timing import BOOT_FRAMES, OUR_ROM_BOOT_FRAMES


def digest(m: Spectrum48) -> str:
    """The machine's memory, registers and frame, as one hash."""
    return hashlib.sha256(bytes(m.memory) + repr(list(m.cpu.state)).encode()
                          + m.frame.to_bytes(4, "little")).hexdigest()


def test_the_window_s_frame_by_frame_run_is_the_headless_one() -> None:
    """The recipe on a feed advanced a frame at a time (as the window runs it) leaves the
    machine as boot.load_quoted does, frame for frame: the same LOAD "" at the same frames."""
    tape = images.game_tape_path()
    headless = Spectrum48(engine="python")
    boot.boot_and_load(headless, tape, boot_frames=OUR_ROM_BOOT_FRAMES)
    stepped = Spectrum48(engine="python")
    boot.insert_tape(stepped, tape)
    feed = KeyFeed()
    boot.schedule_load(feed, stepped, boot_frames=OUR_ROM_BOOT_FRAMES)
    while True:
        feed.begin_frame()
        if not feed.busy:
            break
        stepped.set_input(feed.frame_input())
        stepped.run_frames(1)
        feed.advance()
    assert stepped.frame == headless.frame > OUR_ROM_BOOT_FRAMES
    assert digest(stepped) == digest(headless)


def test_the_recipe_loads_the_game_to_its_title() -> None:
    m = Spectrum48(engine="python")
    boot.boot_and_load(m, images.game_tape_path(), boot_frames=BOOT_FRAMES)
    assert m.run_until_text("PRESS ANY KEY", max_frames=500)
    assert m.keyboard.pressed() == []
