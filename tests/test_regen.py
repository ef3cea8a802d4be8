"""tools/regen.py: every generator, in order; --check lists everything stale."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests import REPO_ROOT, load_tool


def load_regen():
    """tools/regen.py as a module."""
    sys.path.insert(0, str(REPO_ROOT / "tools"))
    return load_tool("regen")


def test_the_chain_holds_every_generator_and_the_build() -> None:
    regen = load_regen()
    tools = sorted(p.name for p in (REPO_ROOT / "tools").glob("gen_*.py")) + ["build.py"]
    assert sorted(step.tool for step in regen.STEPS) == sorted(tools)
    order = [step.tool for step in regen.STEPS]
    # Each step reads what the one before it writes.
    assert order.index("gen_rules_data.py") < order.index("gen_game_tables.py") \
        < order.index("build.py")
    assert order.index("gen_rules_data.py") < order.index("gen_board3d.py") \
        < order.index("gen_loading_screen.py") < order.index("build.py")


def fake_tools(directory: Path, failing: str) -> None:
    """Stand-ins for the tools: each records its arguments; ``failing`` exits 1."""
    log = str(directory / "log")
    for name in ("gen_rules_data.py", "gen_game_tables.py", "gen_board3d.py",
                 "gen_loading_screen.py", "build.py", "gen_z80.py"):
        status = 1 if name == failing else 0
        (directory / name).write_text(
            "import sys\n"
            f"open({log!r}, 'a').write(' '.join(['{name}', *sys.argv[1:]]) + '\\n')\n"
            f"print('{name} is stale' if {status} else '', file=sys.stderr)\n"
            f"sys.exit({status})\n")


def test_check_goes_on_past_a_stale_step_and_fails(tmp_path: Path, capsys,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    regen = load_regen()
    fake_tools(tmp_path, "gen_game_tables.py")
    monkeypatch.setattr(regen, "TOOLS", tmp_path)
    monkeypatch.setattr(regen.gen_rules_data, "REFERENCE", tmp_path)
    assert regen.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "gen_game_tables.py: STALE" in out and "gen_game_tables.py is stale" in out
    assert "gen_z80.py: current" in out
    assert (tmp_path / "log").read_text().splitlines() == [
        "gen_rules_data.py --check", "gen_game_tables.py --check", "gen_board3d.py --check",
        "gen_loading_screen.py --check", "build.py --check", "gen_z80.py --check"]
    assert out.rstrip().endswith("stale: gen_game_tables.py (run python tools/regen.py)")


def test_a_run_stops_at_the_first_failure(tmp_path: Path, capsys,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    regen = load_regen()
    fake_tools(tmp_path, "gen_rules_data.py")
    monkeypatch.setattr(regen, "TOOLS", tmp_path)
    monkeypatch.setattr(regen.gen_rules_data, "REFERENCE", tmp_path)
    assert regen.main([]) == 1
    out = capsys.readouterr().out
    assert "gen_rules_data.py: FAILED" in out and "gen_game_tables.py" not in out


def test_a_missing_reference_skips_the_rules_data(tmp_path: Path, capsys,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    regen = load_regen()
    fake_tools(tmp_path, "")
    monkeypatch.setattr(regen, "TOOLS", tmp_path)
    monkeypatch.setattr(regen.gen_rules_data, "REFERENCE", tmp_path / "nowhere")
    assert regen.main(["--check"]) == 0
    assert f"gen_rules_data.py: skipped ({tmp_path / 'nowhere'} does not exist)" in \
        capsys.readouterr().out
