"""Judging runs: when outcomes agree, when a run is a clear refusal, when an
error is internal, and how refusals are grouped.

An outcome is ("ok", value, printed) or ("raised", "TypeName", message,
printed); a row is (inputs, native, converted, eager, graph), or (inputs,
original, converted, graph) in the default mode, or (inputs, native, jax).
"""

import re


def mismatches(rows):
    return [r for r in rows if not (r[1] == r[2] == r[3])]


def _kind(rows):
    """How the runs disagree: per mismatching row, 'ok' or the exception
    class of each run. A shrink step must keep it, so deleting a statement
    cannot swap a real bug for a different failure (for example a name the
    deletion left undefined in a branch only the graph traces)."""
    return {tuple(r[0] if r[0] == "ok" else r[1].split(":")[0] for r in row[1:])
            for row in mismatches(rows)}


RUNS = ("native", "converted", "eager", "graph")


REFUSAL_TYPES = ("ValueError", "TypeError", "NotImplementedError", "AttributeError")


INTERNAL_TYPES = ("AttributeError", "KeyError", "UnboundLocalError", "NameError")


INTERNAL_TEXT = ("belongs to graph", "Undefined(", "object has no attribute",
                 "the transpiler failed")


# a ValueError/TypeError with a location is still no clear refusal when its
# message is an implementation's own complaint, not one naming the construct
LEAKED_TEXT = ("object is not subscriptable", "object is not iterable", "is not callable",
               "pred must be a scalar")


_LOCATION = re.compile(r"[\w./\\<>-]+\.py:\d+|<[\w ]+>:\d+")


# a name conversion made (a jump flag, the return slot, a generated body) in
# an error message: never a user's name (the programs use none of them)
_GENERATED_NAME = re.compile(
    r"'(?:continue_|break_|do_return|retval_|loop_body|loop_test|if_body|else_body"
    r"|get_state|set_state)\w*'")


def _same(native, other, compare_printed=True):
    if native[0] != other[0]:
        return False
    if native[0] == "ok":
        return native[1] == other[1] and (not compare_printed or native[2] == other[2])
    return native[1] == other[1] and (not compare_printed or native[3] == other[3])


def is_internal(outcome):
    """An exception that looks like the transpiler's own failure (an
    AttributeError that names the user's file:line and is not Python's own
    "object has no attribute" is a clear error, not an internal one)."""
    if outcome[0] != "raised":
        return False
    if any(t in outcome[2] for t in INTERNAL_TEXT) or _GENERATED_NAME.search(outcome[2]):
        return True
    if outcome[1] == "AttributeError" and _LOCATION.search(outcome[2]):
        return False
    return outcome[1] in INTERNAL_TYPES


def is_refusal(outcome):
    """A clear refusal: a ValueError/TypeError/NotImplementedError whose
    message names a file:line (and does not look internal), or the documented
    run-time check of a tensor loop that must run once to define a name."""
    if outcome[0] != "raised" or not _LOCATION.search(outcome[2]):
        return False
    if outcome[1] == "InvalidArgumentError":
        return "the loop must iterate at least once to define" in outcome[2]
    return (outcome[1] in REFUSAL_TYPES and not is_internal(outcome)
            and not any(t in outcome[2] for t in LEAKED_TEXT))


def judge(row):
    """'ok', 'refused', 'mismatch' or 'internal' (an internal error, also a
    mismatch) for one row of `four_runs`."""
    native, verdicts = row[1], []
    for name, outcome in zip(RUNS[1:], row[2:]):
        if _same(native, outcome, compare_printed=name != "graph"):
            continue
        if native[0] == "ok" and is_internal(outcome):
            verdicts.append("internal")
        elif native[0] == "ok" and name in ("eager", "graph") and is_refusal(outcome):
            verdicts.append("refused")
        else:
            verdicts.append("mismatch")
    for worst in ("internal", "mismatch", "refused"):
        if worst in verdicts:
            return worst
    return "ok"


def judge_program(rows):
    verdicts = {judge(r) for r in rows}
    for worst in ("internal", "mismatch", "refused"):
        if worst in verdicts:
            return worst
    return "ok"


def bad_rows(rows):
    return [r for r in rows if judge(r) in ("mismatch", "internal")]


def _kind4(rows):
    """Per mismatching row: '=' for a run that agrees with the native one,
    else 'ok' or the exception class (see `_kind`)."""
    kinds = set()
    for row in bad_rows(rows):
        native = row[1]
        kinds.add(tuple("=" if _same(native, o, name != "graph") else
                        ("ok" if o[0] == "ok" else o[1])
                        for name, o in zip(RUNS[1:], row[2:])))
    return kinds


def _cut_locations(text):
    """`text` without its '(file.py:N: source)' parentheticals."""
    while True:
        where = _LOCATION.search(text)
        if not where:
            return text
        open_at = text.rfind("(", 0, where.start())
        if open_at < 0:
            return text[:where.start()] + text[where.end():]
        depth, k = 0, open_at
        while k < len(text):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            if depth == 0:
                break
            k += 1
        text = text[:open_at].rstrip() + text[k + 1:]


def refusal_key(message):
    """A refusal message without its file:line parts, object addresses and
    the quoted names or statements, so one refusal made by many programs
    (or of many names) is counted once."""
    first = message.splitlines()[0] if message else ""
    first = _cut_locations(first)
    first = re.sub(r"<function (?:\S*\.)?([^.\s]+) at 0x[0-9a-f]+>", r"<function \1>", first)
    first = re.sub(r"<(?:\S*\.)?(\w+) object at 0x[0-9a-f]+>", r"<\1 object>", first)
    # a quote ends a quoted name or statement where a space, the end or
    # closing punctuation follows it; other quotes are inside (d['w'])
    return re.sub(r"'(?:[^']|'(?!\s|$|[.:;)](?:\s|$)))*'", "'_'", first)


def signature(rows):
    """A coarse name for how a program disagrees (per run: agrees, another
    value, or the exception with names, numbers and locations blanked), so
    only the first programs of each kind are shrunk."""
    parts = set()
    for row in bad_rows(rows):
        sig = []
        for name, o in zip(RUNS[1:], row[2:]):
            if _same(row[1], o, name != "graph"):
                sig.append("=")
            elif o[0] == "ok":
                sig.append("value" if o[1] != row[1][1] else "printed")
            else:
                text = re.sub(r"\d+|<[^>]*>", "_", refusal_key(o[2]))[:70]
                sig.append(f"{o[1]}: {text}")
        parts.add(tuple(sig))
    return tuple(sorted(parts))


def judge_jax(row):
    """'ok', 'refused', 'mismatch' or 'internal' for one row of `jax_runs`."""
    native, staged = row[1], row[2]
    if _same(native, staged, compare_printed=False):
        return "ok"
    if native[0] == "ok" and is_internal(staged):
        return "internal"
    if native[0] == "ok" and is_refusal(staged):
        return "refused"
    return "mismatch"


def _judge_jax_program(rows):
    verdicts = {judge_jax(r) for r in rows}
    return next((v for v in ("internal", "mismatch", "refused") if v in verdicts), "ok")
