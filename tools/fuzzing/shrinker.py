"""Shrinking a disagreeing program: delete lines (and whole blocks) while it
still disagrees the same way. Each shrinker takes the runner's run function,
so the runs it repeats are the ones that found the mismatch.

    shrink(source, seed, three_runs)
    shrink4(source, seed, inputs, budget_s, four_runs)
    shrink_jax(source, seed, inputs, budget_s, jax_runs)
"""

import re
import textwrap
import time

from .judging import _kind, _kind4, bad_rows, judge_jax, mismatches


def shrink(source, seed, runs):
    """Delete statements (and whole blocks) while the program still disagrees
    in the same way (see `_kind`) and the original still returns ints.
    `runs`: the runner's `three_runs`."""
    lines = source.splitlines()
    kind = _kind(runs(source, seed))
    changed = True
    while changed:
        changed = False
        for i in range(len(lines)):
            for j in range(len(lines), i, -1):
                candidate = lines[:i] + lines[j:]
                text = "\n".join(candidate) + "\n"
                if _still_fails(text, seed, kind, runs):
                    lines, changed = candidate, True
                    break
            if changed:
                break
    return "\n".join(lines) + "\n"


def _still_fails(source, seed, kind, runs):
    try:
        compile(source, "<shrink>", "exec")
        textwrap.dedent(source)
        if "def main" not in source or not terminates(source):
            return False
        rows = runs(source, seed)
        if not all(r[1][0] == "ok" and isinstance(r[1][1], int) for r in rows):
            return False
        return bool(mismatches(rows)) and (kind is None or _kind(rows) == kind)
    except Exception:  # noqa: BLE001 - an invalid candidate is simply rejected
        return False


def shrink4(source, seed, inputs, budget_s, runs, ints=True):
    """`shrink` for the four-run modes: on the inputs that disagree, keeping
    the kind of disagreement; gives up (keeping the best so far) after
    `budget_s` seconds. `runs` is the runner's `four_runs` or
    `variable_runs`; `ints`: the native run must return an int."""
    rows = runs(source, seed, inputs)
    inputs = [r[0] for r in bad_rows(rows)] or list(inputs)
    kind = _kind4(runs(source, seed, inputs))
    deadline = time.monotonic() + budget_s
    seen = {}

    def fails(text):
        if text not in seen:
            seen[text] = _still_fails4(text, seed, inputs, kind, runs, ints)
        return seen[text]

    return _delete_lines(source, fails, deadline)


def _delete_lines(source, fails, deadline):
    """Delete runs of lines while `fails(text)` stays true, until `deadline`."""
    lines = source.splitlines()
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for i in range(len(lines)):
            for j in range(len(lines), i, -1):
                if time.monotonic() > deadline:
                    break
                candidate = lines[:i] + lines[j:]
                if fails("\n".join(candidate) + "\n"):
                    lines, changed = candidate, True
                    break
            if changed:
                break
    return "\n".join(lines) + "\n"


_WHILE = re.compile(r"^(\s*)while (i\d+) <")


def terminates(source):
    """Every generated `while iN < K and ...:` is followed by its
    `iN = iN + 1`; a candidate that deleted it could loop forever."""
    lines = source.splitlines()
    for k, line in enumerate(lines):
        m = _WHILE.match(line)
        if m and (k + 1 >= len(lines)
                  or lines[k + 1] != f"{m.group(1)}    {m.group(2)} = {m.group(2)} + 1"):
            return False
    return True


def names_are_bound(source):
    """Every name the program reads is bound somewhere in it (or is a
    builtin): a shrink step that deleted the only assignment of a name would
    turn a real bug into a NameError that only tracing both branches hits."""
    import ast
    import builtins
    tree = ast.parse(source)
    bound = set(dir(builtins))
    read = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return read <= bound


def _still_fails4(source, seed, inputs, kind, runs, ints):
    try:
        compile(source, "<shrink>", "exec")
        if "def main" not in source or not terminates(source) or not names_are_bound(source):
            return False
        rows = runs(source, seed, inputs)
        if not all(r[1][0] == "ok" and (not ints or isinstance(r[1][1], int)) for r in rows):
            return False
        return bool(bad_rows(rows)) and _kind4(rows) == kind
    except Exception:  # noqa: BLE001 - an invalid candidate is simply rejected
        return False


def shrink_jax(source, seed, inputs, budget_s, runs):
    """Delete statements while the program still disagrees the same way.
    `runs`: the runner's `jax_runs`."""
    def kind(rows):
        return {(judge_jax(r), r[2][1] if r[2][0] == "raised" else "value") for r in rows
                if judge_jax(r) != "ok"}
    want = kind(runs(source, seed, inputs))

    def fails(text):
        try:
            compile(text, "<shrink>", "exec")
            if "def main" not in text or not terminates(text) or not names_are_bound(text):
                return False
            rows = runs(text, seed, inputs)
            return all(r[1][0] == "ok" for r in rows) and kind(rows) == want
        except Exception:  # noqa: BLE001 - an invalid candidate is simply rejected
            return False
    return _delete_lines(source, fails, time.monotonic() + budget_s)
