"""What the control-flow operators did, per generated line, for the
conversion report: staged into a graph, or run as plain Python.

    record("if", staged=True)     # called by if_stmt; keyed by its caller's line
    EVENTS[(filename, line)]      # {'if staged': 1, 'if python': 3}
"""

import sys

EVENTS = {}


def record(kind, staged):
    frame = sys._getframe(2)
    key = (frame.f_code.co_filename, frame.f_lineno)
    counts = EVENTS.get(key)
    if counts is None:
        counts = EVENTS[key] = {}
    label = f"{kind} {'staged' if staged else 'python'}"
    counts[label] = counts.get(label, 0) + 1
