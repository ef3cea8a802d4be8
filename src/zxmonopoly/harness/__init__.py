"""The test harness: scripted sessions on the emulated Spectrum and keystroke scripts."""

from zxmonopoly.harness.game import (
    GameState,
    Options,
    Player,
    Rent,
    Square,
    decode_state,
    rig_dice,
    seed,
)
from zxmonopoly.harness.invariants import check_invariants, state_problems
from zxmonopoly.harness.position import Position, PositionError
from zxmonopoly.harness.script import Result, Script, ScriptError, Step, parse_script, run_script
from zxmonopoly.harness.session import (
    Attributes,
    HarnessError,
    Session,
    Symbols,
    format_screen,
)
from zxmonopoly.harness.watch import WatchViolation, monkey

__all__ = ["Attributes", "GameState", "HarnessError", "Options", "Player", "Rent", "Result",
           "Script", "ScriptError", "Session", "Square", "Step", "Symbols", "decode_state",
           "format_screen", "parse_script", "rig_dice", "run_script", "seed",
           # issue 22
           "Position", "PositionError", "WatchViolation", "check_invariants", "monkey",
           "state_problems"]
