"""Generated files are declared once: every file a tool writes is an output that tools/regen.py
declares, and ``.gitattributes`` marks exactly those outputs ``linguist-generated``
(docs/architecture.md, "Generated files"), so neither list can drift from the tools.
"""

from __future__ import annotations

import sys
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

from tests import REPO_ROOT, load_tool

sys.path.insert(0, str(REPO_ROOT / "tools"))  # the tools import each other by name
regen = load_tool("regen")
GITATTRIBUTES = REPO_ROOT / ".gitattributes"


def marked_generated(text: str) -> list[str]:
    """The patterns a .gitattributes text marks ``linguist-generated`` (set, or ``=true``)."""
    patterns = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if words and {"linguist-generated", "linguist-generated=true"} & set(words[1:]):
            patterns.append(words[0])
    return patterns


def matches(pattern: str, path: str) -> bool:
    """Whether a .gitattributes pattern takes a path from the root, as git reads it: with a
    slash it is anchored and ``*`` stays within a folder; without one it is a file's name."""
    assert "**" not in pattern, "a pattern this check does not read: " + pattern
    parts = PurePosixPath(path).parts
    if "/" not in pattern:
        return fnmatchcase(parts[-1], pattern)
    wanted = PurePosixPath(pattern.lstrip("/")).parts
    return len(wanted) == len(parts) and all(map(fnmatchcase, parts, wanted))


def declared() -> list[str]:
    """Every output pattern of the chain and of the tools run by hand, in order."""
    return [pattern for step in (*regen.STEPS, *regen.BY_HAND) for pattern in step.outputs]


def test_the_pattern_reader_reads_as_git_does() -> None:
    text = "# a comment linguist-generated\na/*.py linguist-generated=true\nb.txt -diff\n" \
           "*.png linguist-generated\n"
    assert marked_generated(text) == ["a/*.py", "*.png"]
    assert matches("a/*.py", "a/x.py") and not matches("a/*.py", "a/b/x.py")
    assert not matches("a/*.py", "c/a/x.py") and matches("*.png", "docs/screens/go.png")


def test_gitattributes_marks_exactly_what_regen_declares() -> None:
    marked = marked_generated(GITATTRIBUTES.read_text(encoding="utf-8"))
    assert sorted(marked) == sorted(declared())
    assert len(set(marked)) == len(marked)


def test_every_declared_output_is_there_and_marked() -> None:
    marked = marked_generated(GITATTRIBUTES.read_text(encoding="utf-8"))
    for pattern in declared():
        found = sorted(REPO_ROOT.glob(pattern))
        assert found, f"{pattern}: no file (run python tools/regen.py)"
        for path in found:
            name = path.relative_to(REPO_ROOT).as_posix()
            assert any(matches(p, name) for p in marked), f"{name} is not marked generated"


def _tool_outputs() -> dict[str, list[Path]]:
    """What each tool says it writes, from its own constants."""
    sys.path.insert(0, str(REPO_ROOT / "src"))
    from zxmonopoly import images
    from zxmonopoly.asm import build

    built = [build.DATA_DIR / build.STAMP]
    for target in build.TARGETS:
        image = build.DATA_DIR / target.image
        built += [image, images.symbols_beside(image), images.listing_beside(image)]
    gen_z80 = load_tool("gen_z80")
    return {
        **{tool: [load_tool(tool).OUTPUT] for tool in
           ("gen_rules_data", "gen_game_tables", "gen_board3d", "gen_loading_screen")},
        "build": built,
        "gen_z80": [gen_z80.PACKAGE_DIR / name for name in (*gen_z80.OUTPUTS, *gen_z80.PIECES)],
        "profile_z80": [load_tool("profile_z80").OUT],
        "make_screens": [load_tool("make_screens").OUT / "loading.png"],
    }


def test_what_each_tool_writes_is_among_its_declared_outputs() -> None:
    steps = {step.tool.removesuffix(".py"): step for step in (*regen.STEPS, *regen.BY_HAND)}
    written = _tool_outputs()
    assert set(written) <= set(steps)
    for tool, paths in written.items():
        for path in paths:
            name = path.resolve().relative_to(REPO_ROOT).as_posix()
            assert any(matches(p, name) for p in steps[tool].outputs), f"{tool} writes {name}"
