"""Conversion report: for each statement of a function, what autograph did
with it, and why.

    print(report(f))
    # conversion report for f (user.py:3)
    #   line 4   if x > 0:                staged as a graph cond (1x)
    #   line 5     y = helper(x)          in a staged branch; call fell back: ...
    #   line 7   for i in range(3):       ran as Python (unrolled loop, 1x)

Control-flow statements report what happened when the converted function
ran (staged into the graph, or plain Python because the condition or the
iterated value was not a tensor); statements not run yet say so. Calls of
user functions that could not be converted report the reason.
"""

from __future__ import annotations

from typing import Callable

import gast

from ..operators import tracking
from ..pyct import parser
from ..pyct import inspect_utils
from . import api

__all__ = ["report", "ConversionReport"]

_KIND = {gast.If: "if", gast.While: "while", gast.For: "for"}
_STAGED = {"if": "staged as a graph cond", "while": "staged as a graph while_loop",
           "for": "staged as a graph loop over a tensor"}
_PYTHON = {"if": "ran as Python (the condition was not a tensor)",
           "while": "ran as Python (unrolled loop: the condition was not a tensor)",
           "for": "ran as Python (unrolled loop over a Python iterable)"}


class ConversionReport:
    """Rows of (line, source text, depth, status) for one function."""

    def __init__(self, name, filename, first_line, rows):
        self.name = name
        self.filename = filename
        self.first_line = first_line
        self.rows = rows

    def __str__(self):
        width = max([len("  " * d + t) for _, t, d, _ in self.rows] + [10])
        lines = [f"conversion report for {self.name} ({self.filename}:{self.first_line})"]
        for line, text, depth, status in self.rows:
            lines.append(f"  line {line:<4} {('  ' * depth + text).ljust(width)}  {status}")
        return "\n".join(lines)

    __repr__ = __str__


def report(fn: Callable) -> ConversionReport:
    """The conversion report of `fn` (a function or bound method)."""
    func, _ = api._plain_function(fn)
    if func is None:
        raise api.ConversionError(f"cannot report on {inspect_utils.describe(fn)}: "
                                  "it is not a Python function")
    entry = api._convert_or_raise(func)
    node, info = parser.parse_function(func)
    outcomes = _outcomes_by_user_line(entry)
    rows = []
    _walk(node.body, 0, None, info, outcomes, func, rows)
    return ConversionReport(func.__qualname__, info.filename, node.lineno, rows)


def _outcomes_by_user_line(entry):
    found = {}
    for line, counts in tracking.EVENTS.get(entry.filename, {}).items():
        mapped = entry.line_map.get(line)
        if mapped is not None:
            merged = found.setdefault(mapped[1], {})
            for k, v in counts.items():
                merged[k] = merged.get(k, 0) + v
    return found


def _walk(stmts, depth, staged_parent, info, outcomes, func, rows):
    for s in stmts:
        text = info.line_text(s.lineno)
        kind = _KIND.get(type(s))
        status, staged_here = _status(s, kind, staged_parent, outcomes, func)
        rows.append((s.lineno, text, depth, status))
        inner_parent = staged_parent
        if staged_here:
            inner_parent = f"a staged {kind} (line {s.lineno})"
        for field in ("body", "orelse", "finalbody"):
            block = getattr(s, field, None)
            if block and not isinstance(s, gast.FunctionDef):
                _walk(block, depth + 1, inner_parent, info, outcomes, func, rows)


def _status(s, kind, staged_parent, outcomes, func):
    parts, staged_here = [], False
    if staged_parent:
        parts.append(f"inside {staged_parent}")
    if kind is not None:
        counts = outcomes.get(s.lineno, {})
        staged, python = counts.get(f"{kind} staged", 0), counts.get(f"{kind} python", 0)
        streams = [k[len(kind) + 6:-7] for k in counts if k.startswith(f"{kind} over ")]
        if staged:
            label = f"staged as a {streams[0]} loop" if streams else _STAGED[kind]
            parts.append(f"{label} ({staged}x)")
            staged_here = True
        if python:
            parts.append(f"{_PYTHON[kind]} ({python}x)")
        if not staged and not python:
            parts.append(f"converted to {kind}_stmt (not run yet)")
    elif not staged_parent:
        parts.append("runs as Python")
    parts += _fallbacks(s, func)
    return "; ".join(parts), staged_here


def _fallbacks(s, func):
    notes = []
    for n in gast.walk(s):
        if isinstance(n, gast.Call) and isinstance(n.func, gast.Name):
            callee = func.__globals__.get(n.func.id)
            code = getattr(callee, "__code__", None)
            if code is not None and code in api._FALLBACKS:
                notes.append(f"call of {n.func.id} fell back to Python: {api._FALLBACKS[code]}")
    return notes



