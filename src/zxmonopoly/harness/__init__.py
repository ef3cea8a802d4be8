"""The test harness: scripted sessions on the emulated Spectrum and keystroke scripts."""

from zxmonopoly.harness.script import Result, Script, ScriptError, Step, parse_script, run_script
from zxmonopoly.harness.session import (
    Attributes,
    HarnessError,
    Session,
    Symbols,
    format_screen,
)

__all__ = ["Attributes", "HarnessError", "Result", "Script", "ScriptError", "Session", "Step",
           "Symbols", "format_screen", "parse_script", "run_script"]
