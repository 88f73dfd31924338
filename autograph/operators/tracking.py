"""What the control-flow operators did, per statement, for the conversion
report: staged into a graph, or run as plain Python.

    record("if", staged=True, body=if_body)
    EVENTS[filename][line]         # {'if staged': 1, 'if python': 3}

A statement is identified by where its body function is defined (the
generated file and line), which is cheap to get and maps back to the user's
statement. (Code objects themselves compare by content, not by file.) The
counts of a generated file go when its code does (`forget`, called by the
conversion cache), so converting and dropping functions leaves nothing here.
"""

EVENTS = {}


def record(kind, staged, body):
    code = getattr(body, "__code__", None)
    filename, line = (None, None) if code is None else (code.co_filename, code.co_firstlineno)
    lines = EVENTS.get(filename)
    if lines is None:
        lines = EVENTS[filename] = {}
    counts = lines.get(line)
    if counts is None:
        counts = lines[line] = {}
    label = f"{kind} staged" if staged else f"{kind} python"
    counts[label] = counts.get(label, 0) + 1


def forget(filename):
    """Drop the counts of the generated file `filename` (its code is gone)."""
    EVENTS.pop(filename, None)
