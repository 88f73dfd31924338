"""Process-wide settings that converting and tracing change for a while: the
cyclic garbage collector (paused) and the recursion limit (raised).

    with pauses.paused_gc():           # gc off until the last pause ends
        ...
    with pauses.deep_recursion():      # limit >= 20000 until the last one ends
        ...

Both are process-wide, so both are reference-counted under one lock: with
two threads converting at once, the first to finish does not turn the
collector back on (or lower the limit) under the other; the last one out
restores what was there before the first one came in.
"""

import gc
import sys
import threading

_LOCK = threading.Lock()
DEEP_LIMIT = 20000     # a long `x + x + ... + x` is one tree level per operand


class _Pause:
    """A reference-counted change of one process-wide setting."""

    def __init__(self, change, restore):
        self._change, self._restore = change, restore
        self._depth = 0
        self._saved = None

    def __enter__(self):
        with _LOCK:
            if self._depth == 0:
                self._saved = self._change()
            self._depth += 1
        return self

    def __exit__(self, *exc):
        with _LOCK:
            self._depth -= 1
            if self._depth == 0:
                self._restore(self._saved)
        return False


def _gc_off():
    was = gc.isenabled()
    gc.disable()
    return was


def _gc_back(was):
    if was:
        gc.enable()


def _deepen():
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, DEEP_LIMIT))
    return limit


def _undeepen(limit):
    if sys.getrecursionlimit() == max(limit, DEEP_LIMIT):   # unless changed meanwhile
        sys.setrecursionlimit(limit)


_GC = _Pause(_gc_off, _gc_back)
_RECURSION = _Pause(_deepen, _undeepen)


def paused_gc():
    """`with paused_gc():` the cyclic collector is off (reference counting
    still frees what dies at once), until the last open pause ends."""
    return _GC


def deep_recursion():
    """`with deep_recursion():` the recursion limit is at least DEEP_LIMIT,
    until the last open one ends."""
    return _RECURSION
