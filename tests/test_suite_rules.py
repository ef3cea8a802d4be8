"""The suite's own rules (docs/architecture.md, "Tests"), read from the test sources so that
what issue 44 removed does not come back: a subprocess runs ``sys.executable``, never a
``python`` found on PATH; no assertion on wall time outside the ``bench`` marker; no sleep
standing for an event.

Each rule is a walk of a test module's syntax tree (no regular expressions over text):

- **python on PATH**: a subprocess call (``run``, ``Popen``, ``check_output`` ...,
  ``create_subprocess_exec``) whose command is a list starting with ``"python"``.
- **wall time asserted**: an ``assert`` that reads the clock (``time.perf_counter()``,
  ``monotonic()``, ``time()``, ``process_time()``), or a name or function result made from it
  in the same test, or a figure named as one (``fps``: frames per second of wall time), in a
  test not marked ``bench``. An assert inside a ``while`` loop is a poll's bound (the wait
  for an event gives up after so long): allowed.
- **sleep for an event**: ``time.sleep(t)`` or ``asyncio.sleep(t)`` (t not 0) that is not
  inside a ``while`` loop (a poll that looks again after the sleep).

A line that must keep a sleep (a key held down for a program that runs in real time, Fuse)
says why in a comment starting ``# real time:``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests import REPO_ROOT

TESTS = REPO_ROOT / "tests"
SUBPROCESS_CALLS = {"run", "Popen", "call", "check_call", "check_output", "getoutput",
                    "create_subprocess_exec", "create_subprocess_shell"}
CLOCKS = {"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time", "time_ns",
          "process_time", "process_time_ns", "thread_time"}
#: Names of figures that are wall time by what they say.
TIMED_NAME = re.compile(r"(^|_)fps($|_)")
PYTHON = re.compile(r"python[0-9.]*")
ALLOWED = "# real time:"


@dataclass(frozen=True)
class Finding:
    """One place that breaks a rule."""

    path: str
    line: int
    rule: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}"


def _name(node: ast.AST) -> str:
    """The last name of a called thing: ``subprocess.run`` -> ``run``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of the functions it defines."""
    todo = list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo += ast.iter_child_nodes(node)


def _marked_bench(decorators: list[ast.expr]) -> bool:
    """Whether the decorators hold ``pytest.mark.bench``."""
    for decorator in decorators:
        for node in ast.walk(decorator):
            if isinstance(node, ast.Attribute) and node.attr == "bench":
                return True
    return False


class _Module:
    """One test module's syntax tree, read for the rules."""

    def __init__(self, source: str, path: str) -> None:
        self.tree = ast.parse(source)
        self.lines = source.splitlines()
        self.path = path
        self.clocks = self._clock_names()
        self.bench_module = any(
            isinstance(node, ast.Assign) and any(_name(t) == "pytestmark" for t in node.targets)
            and _marked_bench([node.value]) for node in self.tree.body)
        self.parents: dict[ast.AST, ast.AST] = {}
        for parent in ast.walk(self.tree):
            for child in ast.iter_child_nodes(parent):
                self.parents[child] = parent
        self.timed, self.timed_functions = self._taint()

    def _clock_names(self) -> set[str]:
        """Names the clocks are called by here: ``perf_counter`` after ``from time import``."""
        names = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.module == "time":
                names |= {alias.asname or alias.name for alias in node.names
                          if alias.name in CLOCKS}
        return names

    def _is_clock(self, node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in CLOCKS:
            return isinstance(func.value, ast.Name) and func.value.id == "time"
        return isinstance(func, ast.Name) and func.id in self.clocks

    def reads_time(self, node: ast.AST, timed: set[str], functions: set[str]) -> bool:
        """Whether an expression is made from the clock (``timed``: the names that are, in
        its scope; ``functions``: the functions whose results are)."""
        for sub in ast.walk(node):
            if self._is_clock(sub):
                return True
            if isinstance(sub, ast.Name) and (sub.id in timed or TIMED_NAME.search(sub.id)):
                return True
            if isinstance(sub, ast.Attribute) and TIMED_NAME.search(sub.attr):
                return True
            if isinstance(sub, ast.Call) and _name(sub.func) in functions:
                return True
        return False

    def _taint(self) -> tuple[dict[ast.AST, set[str]], set[str]]:
        """For each top-level statement (a test and what it nests), the names bound to clock
        readings in it; and the module's functions that return them. To a fixed point: a
        name made from a timed name is timed."""
        timed: dict[ast.AST, set[str]] = {top: set() for top in self.tree.body}
        functions: set[str] = set()
        while True:
            before = (sum(map(len, timed.values())), len(functions))
            for top in self.tree.body:
                names = timed[top]
                for node in ast.walk(top):
                    value, targets = None, []
                    if isinstance(node, ast.Assign):
                        value, targets = node.value, node.targets
                    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
                        value, targets = node.value, [node.target]
                    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        returns = [n.value for n in _own_nodes(node)
                                   if isinstance(n, ast.Return) and n.value is not None]
                        if any(self.reads_time(r, names, functions) for r in returns):
                            functions.add(node.name)
                    if value is not None and self.reads_time(value, names, functions):
                        for target in targets:
                            names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
            if (sum(map(len, timed.values())), len(functions)) == before:
                return timed, functions

    def _top(self, node: ast.AST) -> ast.AST:
        """The module's top-level statement that holds ``node``."""
        for parent in self._enclosing(node):
            if isinstance(parent, ast.Module):
                return node
            node = parent
        return node

    def _enclosing(self, node: ast.AST) -> Iterator[ast.AST]:
        while node in self.parents:
            node = self.parents[node]
            yield node

    def _in_bench(self, node: ast.AST) -> bool:
        if self.bench_module:
            return True
        return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                   and _marked_bench(n.decorator_list) for n in self._enclosing(node))

    def _in_while(self, node: ast.AST) -> bool:
        """Whether the nearest loop around ``node`` (in its function) is a ``while``."""
        for parent in self._enclosing(node):
            if isinstance(parent, ast.While):
                return True
            if isinstance(parent, (ast.For, ast.AsyncFor, ast.FunctionDef,
                                   ast.AsyncFunctionDef, ast.Lambda)):
                return False
        return False

    def _allowed(self, node: ast.AST) -> bool:
        line = self.lines[node.lineno - 1] if node.lineno <= len(self.lines) else ""
        return ALLOWED in line

    def findings(self) -> Iterator[Finding]:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call) and _name(node.func) in SUBPROCESS_CALLS:
                command = node.args[0] if node.args else next(
                    (k.value for k in node.keywords if k.arg == "args"), None)
                first = command.elts[0] if isinstance(command, (ast.List, ast.Tuple)) \
                    and command.elts else command
                if isinstance(first, ast.Constant) and isinstance(first.value, str) and \
                        PYTHON.fullmatch(first.value.split(" ")[0]):
                    yield Finding(self.path, node.lineno,
                                  f"runs {first.value.split(' ')[0]!r} from PATH: use "
                                  "sys.executable")
            elif isinstance(node, ast.Assert) \
                    and self.reads_time(node.test, self.timed[self._top(node)],
                                        self.timed_functions) \
                    and not self._in_bench(node) and not self._in_while(node) \
                    and not self._allowed(node):
                yield Finding(self.path, node.lineno,
                              "asserts wall time outside the bench marker")
            elif isinstance(node, ast.Call) and _name(node.func) == "sleep" and node.args \
                    and not (isinstance(node.args[0], ast.Constant) and node.args[0].value == 0) \
                    and not self._in_while(node) and not self._allowed(node):
                yield Finding(self.path, node.lineno,
                              "sleeps outside a poll: wait for the event instead")


def findings(source: str, path: str = "t.py") -> list[str]:
    """What breaks the rules in one module's source."""
    return [str(f) for f in _Module(source, path).findings()]


def test_the_test_sources_keep_the_rules() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        found += findings(path.read_text(encoding="utf-8"), str(path.relative_to(REPO_ROOT)))
    assert found == []


# -- the rules catch what they are for ------------------------------------------------------

BROKEN = {
    "python on PATH": '''
import subprocess
def test_cli():
    subprocess.run(["python", "-m", "zxmonopoly.cli", "run"], check=True)
''',
    "python3 in Popen, args=": '''
from subprocess import Popen
def test_cli():
    Popen(args=("python3", "-c", "pass"))
''',
    "elapsed asserted": '''
import time
def test_fast():
    start = time.perf_counter()
    work()
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0
''',
    "a clock through a helper": '''
from time import monotonic as now
def _timed(fn):
    t0 = now()
    fn()
    return now() - t0
def test_fast():
    best = min(_timed(work) for _ in range(3))
    assert best < 0.005
''',
    "a measured figure by its name": '''
def test_net():
    row = measure()
    assert row.host_fps > 40
''',
    "a clock in a nested coroutine's result": '''
import time
def test_lockstep():
    async def game():
        start = time.perf_counter()
        await play()
        return frames / (time.perf_counter() - start)
    rate = run(game())
    assert rate >= 49
''',
    "a sleep for an event": '''
import asyncio
async def test_pause():
    pause()
    await asyncio.sleep(1.0)
    assert paused()
''',
    "a key held by the clock": '''
import time
def test_key():
    for key in keys:
        down(key)
        time.sleep(0.3)
        up(key)
''',
}

KEPT = {
    "sys.executable": '''
import subprocess, sys
def test_cli():
    subprocess.run([sys.executable, "-m", "zxmonopoly.cli"], check=True)
    engines = ("python", "jit")
''',
    "timed under bench": '''
import time
import pytest
@pytest.mark.bench
def test_fast():
    start = time.perf_counter()
    work()
    assert time.perf_counter() - start < 1.0
''',
    "a poll's bound": '''
import time
def test_waits():
    end = time.monotonic() + 60
    while not done():
        assert time.monotonic() < end, "never done"
        time.sleep(0.1)
''',
    "a sleep said to be real time": '''
import time
def hold(key):
    down(key)
    time.sleep(0.15)  # real time: Fuse reads a key held over its frames
    up(key)
''',
    "a yield to the event loop": '''
import asyncio
async def turn():
    await asyncio.sleep(0)
''',
}


@pytest.mark.parametrize("source", BROKEN.values(), ids=BROKEN.keys())
def test_a_broken_rule_is_found(source: str) -> None:
    assert len(findings(source)) == 1, findings(source)


@pytest.mark.parametrize("source", KEPT.values(), ids=KEPT.keys())
def test_what_keeps_the_rules_is_not_found(source: str) -> None:
    assert findings(source) == []
