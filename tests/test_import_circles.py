"""No import circles among the modules of src/ and tools/, and the layers of
docs/architecture.md ("Layers"): every import between packages runs down.

Every import statement counts, wherever it sits: at the top, inside a function, or under
``if TYPE_CHECKING:`` (a reader of the imports sees all three).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests import REPO_ROOT

ROOTS = (REPO_ROOT / "src", REPO_ROOT / "tools")
#: The package's layers, bottom first (docs/architecture.md draws them): a module imports
#: from its own package and from layers below its own, never from its layer or above, so
#: two packages of one layer know nothing of each other (the harness and the network, the
#: machine and the assembler). ``zxmonopoly`` is the package's own ``__init__``; tools/ stand
#: above them all and nothing in src/ imports them.
LAYERS = (
    ("zxmonopoly", "clock", "memory_map", "files", "images", "basic", "rules"),
    ("z80", "tape", "snapshot"),
    ("spectrum", "asm", "cpm", "bench_workload"),
    ("harness", "net", "bench_skoolkit"),
    ("ui", "bench_net", "bench_browser", "zxmonopoly_pytest"),
    ("benchmarks",),
    ("cli",),
)


def modules() -> dict[str, Path]:
    """Every module's dotted name (``zxmonopoly.ui.window``, ``z80gen.cycles``) and its file."""
    found: dict[str, Path] = {}
    for root in ROOTS:
        for path in root.rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _owner(name: str, known: dict[str, Path]) -> str | None:
    """The known module ``name`` is in (itself, or the nearest package above it)."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph(known: dict[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of other known modules (``from pkg import sub`` imports sub)."""
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*base_parts, *([node.module] if node.module else [])])
                else:
                    base = node.module or ""
                targets += [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                            for alias in node.names]
        graph[name] = {o for t in targets if (o := _owner(t, known)) not in (None, name)}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_finder_groups_the_modules_of_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_relative_and_package_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "one.py").write_text("def f():\n    from .two import g\n")
    (pkg / "two.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                "    from pkg import one\n")
    known = {"pkg": pkg / "__init__.py", "pkg.one": pkg / "one.py", "pkg.two": pkg / "two.py"}
    graph = import_graph(known)
    assert graph == {"pkg": set(), "pkg.one": {"pkg.two"}, "pkg.two": {"pkg.one"}}
    assert circles(graph) == [["pkg.one", "pkg.two"]]


def test_src_and_tools_have_no_import_circles() -> None:
    known = modules()
    assert "zxmonopoly.ui.window" in known and "z80gen.cycles" in known
    assert circles(import_graph(known)) == []


def unit(module: str) -> str | None:
    """The part of src/ a module is in, as LAYERS names it (None: a tool)."""
    parts = module.split(".")
    if parts[0] == "zxmonopoly_pytest" or module == "zxmonopoly":
        return module
    return parts[1] if parts[0] == "zxmonopoly" else None


def test_every_import_between_packages_runs_down_the_layers() -> None:
    known = modules()
    layer = {name: n for n, names in enumerate(LAYERS) for name in names}
    units = {unit(name) for name in known} - {None}
    assert units == set(layer), "a part of src/ not in LAYERS, or one LAYERS names in vain"
    upward = []
    for source, targets in import_graph(known).items():
        for target in targets:
            here, there = unit(source), unit(target)
            if here is None or here == there:
                continue  # a tool, or inside one package
            if there is None or layer[there] >= layer[here]:
                upward.append(f"{source} -> {target}")
    assert upward == []


def test_cli_imports_the_window_only_to_play() -> None:
    """``zxmonopoly run``, ``bench`` and the rest work where pygame is not installed."""
    tree = ast.parse((REPO_ROOT / "src" / "zxmonopoly" / "cli.py").read_text(encoding="utf-8"))
    where = []
    for statement in tree.body:  # each import under the top-level function it is in
        name = statement.name if isinstance(statement, ast.FunctionDef) else "<module>"
        where += [name for node in ast.walk(statement) if isinstance(node, ast.ImportFrom)
                  and (node.module or "").startswith("zxmonopoly.ui")]
    assert where and set(where) == {"_cmd_play"}
