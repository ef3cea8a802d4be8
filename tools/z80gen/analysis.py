"""What a block of generated code reads and sets, asked of Python's own parser.

The generator needs a few facts about code it has made: the names a compiled function takes
and gives back, the cells a block engine's instruction assigns, the line where PC is first
read, whether an exit stands inside a loop. It asks them of :mod:`ast`, never by matching a
line's text; the markers among the lines (``templates.Marker``) it knows by their class, and
here each stands as a ``pass`` at its depth (a marker is no code of its own).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from zxmonopoly.z80.templates import Line, Marker, indent

#: The line of :func:`_tree`'s source that holds the block's first line (after the ``def``).
_FIRST = 2


def _tree(lines: list[Line]) -> ast.Module:
    """The block as the body of a function, each marker a ``pass``, parsed (a ``pass`` after
    it: a block may be empty)."""
    code = [x.pad + "pass" if isinstance(x, Marker) else x for x in lines]
    return ast.parse("\n".join(["def _block():", *indent([*code, "pass"], 1)]))


def names_used(lines: list[Line]) -> tuple[set[str], set[str]]:
    """Names a block of code reads and names it assigns (its markers do neither)."""
    reads: set[str] = set()
    writes: set[str] = set()
    for node in ast.walk(_tree(lines)):
        if isinstance(node, ast.Name):
            (writes if isinstance(node.ctx, ast.Store) else reads).add(node.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            reads.add(node.target.id)
    return reads, writes


def names_by_line(lines: list[Line]) -> list[set[str]]:
    """The names each line of a block mentions, read or set (none on a marker's line)."""
    out: list[set[str]] = [set() for _ in lines]
    for node in ast.walk(_tree(lines)):
        if isinstance(node, ast.Name):
            out[node.lineno - _FIRST].add(node.id)
    return out


def markers_in_loops(lines: list[Line], which: Callable[[Marker], bool]) -> list[Marker]:
    """The markers chosen by ``which`` that stand in the body of a ``while`` or ``for`` of the
    block (a ``break`` there would leave that loop)."""
    bodies = [(node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno)
              for node in ast.walk(_tree(lines)) if isinstance(node, ast.While | ast.For)]
    return [x for k, x in enumerate(lines) if isinstance(x, Marker) and which(x)
            and any(first <= k + _FIRST <= last for first, last in bodies)]
