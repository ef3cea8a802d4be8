"""Each fact of the machine has one owner (issue 44): the memory map is ``zxmonopoly.memory_map``,
the frame's timing ``zxmonopoly.clock``, K mode's keywords ``zxmonopoly.basic``, the game's
player count the game's symbol map.

The checks read every module of src/, tools/ and tests/ as Python (never importing them): a
name of a leaf's own may be imported anywhere but assigned only in its owner, and the
distinctive numbers of the memory map are never written as another module's constant.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests import REPO_ROOT
from zxmonopoly import basic, clock, memory_map

ROOTS = (REPO_ROOT / "src", REPO_ROOT / "tools", REPO_ROOT / "tests")
#: Generated modules (their own facts are written out in them by design).
GENERATED = ("_engine_py.py", "_engine_jit.py", "_blocks_py.py")


def _sources() -> list[tuple[Path, ast.Module]]:
    """Every module of the roots but the generated ones, parsed."""
    return [(path, ast.parse(path.read_text(encoding="utf-8")))
            for root in ROOTS for path in sorted(root.rglob("*.py"))
            if path.name not in GENERATED]


def _assigned(tree: ast.Module) -> dict[str, ast.expr]:
    """The names a module assigns at its top level, with the values."""
    out: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        out[name.id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            out[node.target.id] = node.value
    return out


def _public(module: object) -> set[str]:
    """A module's upper-case names that are numbers or maps: the facts it owns."""
    return {name for name, value in vars(module).items()
            if name.isupper() and isinstance(value, int | dict)}


def test_the_leaves_import_nothing() -> None:
    for module in (memory_map, clock):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
                   and getattr(node, "module", None) != "__future__"]
        assert imports == [], module.__name__


def test_the_memory_map_is_the_48ks() -> None:
    """The figures themselves, from spectrum_facts §2.1-§2.2 (not from the module)."""
    m = memory_map
    assert (m.ROM_SIZE, m.RAM_START, m.RAM_SIZE, m.MEMORY_SIZE) == (16384, 16384, 49152, 65536)
    assert (m.DISPLAY_FILE, m.DISPLAY_FILE_SIZE, m.ATTR_FILE, m.ATTR_FILE_SIZE) == (
        0x4000, 6144, 0x5800, 768)
    assert (m.ATTR_END, m.PRINTER_BUFFER, m.SCREEN_SIZE) == (0x5B00, 0x5B00, 6912)
    assert (m.CONTENDED_START, m.CONTENDED_SIZE) == (0x4000, 0x4000)


def test_each_fact_is_assigned_by_its_owner_alone() -> None:
    """A memory map, clock or K-mode name is defined only in its owner: everywhere else it is
    imported (``from zxmonopoly.memory_map import ROM_SIZE``), never written again."""
    owners = {name: module for module in (memory_map, clock) for name in _public(module)}
    owners["K_MODE_KEYWORDS"] = basic
    twice = []
    for path, tree in _sources():
        for name in _assigned(tree).keys() & owners.keys():
            if path != Path(owners[name].__file__):
                twice.append(f"{path.relative_to(REPO_ROOT)}: {name}")
    assert twice == []


#: Numbers that are the memory map's and the clock's alone, by the names they give them
#: (0x4000, 0xC000 and 768 are too common to name here: a 16K page, an address, a glyph table).
DISTINCT = {memory_map.ATTR_FILE: "ATTR_FILE", memory_map.ATTR_END: "ATTR_END",
            memory_map.SCREEN_SIZE: "SCREEN_SIZE",
            memory_map.DISPLAY_FILE_SIZE: "DISPLAY_FILE_SIZE",
            clock.FRAME_TSTATES: "FRAME_TSTATES"}


def test_no_module_names_the_memory_map_s_numbers_itself() -> None:
    """No module outside the leaves makes a constant of its own of those numbers (as
    ``ATTRS = 0x5800`` was, beside video's ``ATTR_FILE``)."""
    found = []
    for path, tree in _sources():
        if path in (Path(memory_map.__file__), Path(clock.__file__)):
            continue
        for name, value in _assigned(tree).items():
            if isinstance(value, ast.Constant) and type(value.value) is int \
                    and value.value in DISTINCT:
                found.append(f"{path.relative_to(REPO_ROOT)}: {name} = {value.value} "
                             f"(it is {DISTINCT[value.value]})")
    assert found == []


def test_k_mode_keywords_are_written_once() -> None:
    """No module spells K mode's table of statements again (a letter to NEW ... COPY): tests and
    the harness derive theirs from ``basic.K_MODE_KEYWORDS``, itself from the token table."""
    assert basic.K_MODE_KEYWORDS["A"] == "NEW" and basic.K_MODE_KEYWORDS["P"] == "PRINT"
    assert basic.K_MODE_KEYWORDS["Z"] == "COPY" and len(basic.K_MODE_KEYWORDS) == 26
    words = set(basic.K_MODE_KEYWORDS.values())
    spelled = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                texts = {item.value for item in (*node.keys, *node.values)
                         if isinstance(item, ast.Constant) and isinstance(item.value, str)}
                if len(texts & words) >= 10:
                    spelled.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno}")
    assert spelled == []


def test_the_game_owns_its_player_count() -> None:
    """``MAX_PLAYERS`` is the game's (``src/game/vars.asm``, read by symbol): no module of the
    package defines it, but the rules model, the oracle the game is checked against, which
    states the booklet's 2 to 6 itself and must agree with the game."""
    from zxmonopoly import images
    from zxmonopoly.rules import state as rules

    defined = [path.relative_to(REPO_ROOT) for path, tree in _sources()
               if (REPO_ROOT / "src") in path.parents and "MAX_PLAYERS" in _assigned(tree)]
    assert defined == [Path("src/zxmonopoly/rules/state.py")]
    assert images.game_symbols()["MAX_PLAYERS"] == rules.MAX_PLAYERS
