"""Watches (``Session.watch`` and the script lines) and the monkey: PC watches caught by
breakpoints at the first instruction outside the range, value/SP/invariant watches at frame
ends and, armed in the engines, after every instruction; the machine's break_handlers honoured
by run_frames and run_until."""

from __future__ import annotations

from pathlib import Path

import pytest

from zxmonopoly.clock import FRAME_TSTATES
from zxmonopoly.harness.script import ScriptError, parse_script, run_script
from zxmonopoly.harness.watch import WatchViolation, monkey, parse_watch
from zxmonopoly.memory_map import ROM_SIZE

SOAK = Path(__file__).resolve().parents[1] / "game" / "soak" / "monkey_100k.zxs"
RST_0 = 0xC7


def test_a_pc_watch_is_checked_when_turned_on(game):
    with pytest.raises(WatchViolation, match=r"PC 0x[0-9A-F]{4} is outside 0x0000..0x3FFF"):
        game.watch("pc in ROM")


def test_a_pc_watch_catches_the_first_instruction_outside(game):
    """An RST 0 planted where the game waits for a key: the watch stops the machine at the
    ROM's first instruction, 0x0000, not at the next frame end."""
    game.watch("pc in game")
    game.poke(game.address("keys_wait.wait"), RST_0)
    with pytest.raises(WatchViolation) as caught:
        game.tap("SPACE")
        game.wait(50)
    message = str(caught.value)
    assert "PC 0x0000 is outside" in message and "screen:" in message
    assert game.machine.cpu.pc == 0x0000
    assert 0 < game.machine.cpu.tstates < FRAME_TSTATES


def test_unwatch_clears_only_its_own_breakpoints(game):
    bp = game.machine.cpu.breakpoints
    bp[0x1234] = 1                      # someone else's
    game.watch("pc in game")
    assert bp[0x0000] and bp[0x1234]
    game.unwatch("pc in game")
    assert not bp[0x0000] and bp[0x1234]
    assert game.machine.break_handlers  # the watcher stays, with no watch on
    game.wait(5)


def test_value_and_sp_watches_at_frame_ends(game):
    game.watch("v_num_players == 0")
    game.watch("sp in STACK_LIMIT..STACK_TOP")
    game.wait(10)
    game.poke("v_num_players", 7)
    with pytest.raises(WatchViolation, match="v_num_players holds 7"):
        game.wait(1)


def test_break_handlers_are_honoured_by_run_frames_and_run_until(game):
    seen = []
    machine = game.machine
    wait_at = game.address("keys_wait.wait")
    machine.cpu.breakpoints[wait_at] = 1
    machine.break_handlers.append(lambda m: seen.append(m.cpu.pc))
    machine.run_frames(3)
    assert seen and set(seen) == {wait_at}
    seen.clear()
    machine.run_until(condition=lambda m: m.frame >= game.frame + 2, max_frames=5)
    assert seen and set(seen) == {wait_at}


def test_the_monkey_is_repeatable(game):
    from zxmonopoly.harness import Session

    other = Session.game(engine="python")
    log_a = monkey(game, 400, 5)
    log_b = monkey(other, 400, 5)
    assert log_a == log_b and game.frame == other.frame
    assert game.state() == other.state()


@pytest.mark.parametrize(("line", "problem"), [
    ("watch pc", "expected 'pc in RANGE'"),
    ("watch pc in somewhere", "expected ROM, game or A..B"),
    ("watch sp in game", "SP watch takes A..B"),
    ("watch v_phase ~ 3", "expected a comparison"),
    ("monkey 100", "expected 'monkey FRAMES seed S'"),
])
def test_malformed_watch_lines(tmp_path, line, problem):
    path = tmp_path / "t.zxs"
    path.write_text(f"game\n{line}\n", encoding="utf-8")
    with pytest.raises(ScriptError, match=problem):
        parse_script(path)


def test_watch_forms():
    assert parse_watch("pc in ROM, 0x8000..program_end").ranges == (("rom",),
                                                                  (0x8000, "program_end"))
    w = parse_watch("word v_jackpot in 0..5000")
    assert (w.kind, w.width, w.op, w.value) == ("value", 2, "in", (0, 5000))


@pytest.mark.slow
def test_monkey_100k_frames_with_watches():
    result = run_script(SOAK, engine="jit")
    assert result.passed, result.report()


# Programs in a ROM of their own, interrupts off, looping for ever. The SP one sets SP to
# 0x7000 for one instruction (the NOP at 0x0007) and back; the value one writes 5 to 0x9000
# and, two instructions on, 0 again. Each breaks its watch for a few T-states in a frame,
# between frame ends: the engines catch it after the instruction that broke it.
SP_PROGRAM = bytes([0xF3, 0x31, 0x00, 0xFF,         # DI; LD SP,0xFF00
                    0x31, 0x00, 0x70,               # 0x0004 LD SP,0x7000
                    0x00,                           # 0x0007 NOP
                    0x31, 0x00, 0xFF,               # LD SP,0xFF00
                    0x00, 0x00, 0x00,               # NOP x3
                    0x18, 0xF4])                    # JR 0x0004
VALUE_PROGRAM = bytes([0xF3, 0x31, 0x00, 0xFF,      # DI; LD SP,0xFF00
                       0x3E, 0x05,                  # 0x0004 LD A,5
                       0x32, 0x00, 0x90,            # 0x0006 LD (0x9000),A
                       0x00,                        # 0x0009 NOP
                       0xAF,                        # XOR A
                       0x32, 0x00, 0x90,            # LD (0x9000),A
                       0x18, 0xF4])                 # JR 0x0004


def _bare_session(program: bytes, engine: str):
    from zxmonopoly.harness import Session

    session = Session(rom=program + bytes(ROM_SIZE - len(program)), engine=engine, boot=False)
    session.machine.cpu.sp = 0xFF00
    return session


def test_an_sp_watch_is_checked_after_every_instruction(engine):
    session = _bare_session(SP_PROGRAM, engine)
    session.wait(2)                                 # the frame ends never see it
    assert session.machine.cpu.sp == 0xFF00
    session.watch("sp in 0xFE00..0xFF00")
    with pytest.raises(WatchViolation, match="SP 0x7000 is outside 0xFE00..0xFF00"):
        session.wait(1)
    assert session.machine.cpu.pc == 0x0007 and session.machine.cpu.sp == 0x7000
    assert session.machine.cpu.tstates < 100        # the first pass, early in the frame
    session.unwatch("sp in 0xFE00..0xFF00")
    session.wait(2)                                 # disarmed: the program runs on
    assert not session.machine.cpu.breakpoints


def test_an_armed_watch_outlives_a_reset(engine):
    # The watch table lives in the CPU's state array, which a reset clears: the machine keeps
    # the host's watches across it, so a watch is never silently off.
    session = _bare_session(SP_PROGRAM, engine)
    session.watch("sp in 0xFE00..0xFF00")
    session.machine.reset()
    session.machine.cpu.sp = 0xFF00
    with pytest.raises(WatchViolation, match="SP 0x7000 is outside 0xFE00..0xFF00"):
        session.wait(1)
    assert session.machine.cpu.pc == 0x0007


def test_a_value_watch_is_checked_after_every_instruction(engine):
    session = _bare_session(VALUE_PROGRAM, engine)
    session.wait(2)
    assert session.peek(0x9000) == 0
    session.watch("0x9000 == 0")
    session.watch("word 0x8FFF < 0x0500")           # 0x0500 while 5 is there: broken too
    with pytest.raises(WatchViolation, match="'0x9000 == 0' broken: 36864 holds 5"):
        session.wait(1)
    assert session.machine.cpu.pc == 0x0009 and session.peek(0x9000) == 5
    session.unwatch("0x9000 == 0")
    session.poke(0x9000, 0)
    session.machine.cpu.pc = 0x0004
    with pytest.raises(WatchViolation, match="'word 0x8FFF < 0x0500' broken: 36863 holds 1280"):
        session.wait(1)
    assert session.machine.cpu.pc == 0x0009


def test_at_most_eight_engine_watches(game):
    for k in range(8):
        game.watch(f"0x{0x9000 + k:04X} <= 255")
    with pytest.raises(Exception, match="8 at most"):
        game.watch("0x9100 <= 255")
    assert len(game._watcher.watches) == 8
    game.unwatch()
    assert not game.machine.cpu.breakpoints.watching


def test_the_invariants_watch_checks_money_where_the_game_is_at_rest():
    """Money is conserved between two money moves, not inside one: stopped on its way (a
    player's cash paid, the Bank's account not yet credited) the watch lets the move finish;
    at a frame end where the game waits (the CPU halted), a pound too many is caught."""
    from zxmonopoly.harness import tournament
    from zxmonopoly.harness.game import player_field_address
    from zxmonopoly.harness.invariants import check_invariants
    from zxmonopoly.harness.session import Session

    session = Session.game(engine="python")
    tournament.setup_computers(session, [0, 1, 2, 3], None, 11)
    session.wait_pc("bank_gain", budget=20_000)      # a computer pays the Bank: half way
    assert any("money not conserved" in p for p in check_invariants(session))
    session.watch("invariants")                      # checked at once: nothing to say
    session.wait_until(lambda s: s.machine.cpu.halted, budget=500)
    cash = player_field_address(session.symbols, 1, "P_CASH")
    session.poke16(cash, session.peek16(cash) + 1)
    with pytest.raises(WatchViolation, match="money not conserved"):
        session.wait_until(lambda s: False, budget=200)
