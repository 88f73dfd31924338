"""Source map: each line of generated code -> the user's file, line and text.

Converted functions are compiled from generated source registered under a
fake filename (`<autograph:f>`) with `linecache`, so tracebacks and `inspect`
show the generated code. This module maps such (filename, line) back to the
user's code:

    register("<autograph:f>", {3: ("user.py", 12, "if x > 0:")})
    user_location("<autograph:f>", 3)   # ('user.py', 12)
    user_location("other.py", 3)        # None

`runtime` attributes graph nodes to user lines with `user_location`, and
errors raised by the operators name the user's line with `current_location`.
"""

import os
import sys

_MAPS = {}
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def register(filename, line_map):
    """Record `line_map` ({generated line: (file, line, text)}) for `filename`."""
    _MAPS[filename] = dict(line_map)


def forget(filename):
    """Drop the map of `filename` (its generated code is gone)."""
    _MAPS.pop(filename, None)


def lookup(filename, lineno):
    """(file, line, text) of the user's code for a generated line, or None."""
    m = _MAPS.get(filename)
    if m is None:
        return None
    return m.get(lineno)


def user_location(filename, lineno):
    """(file, line) of the user's code for a generated line, or None."""
    m = _MAPS.get(filename)          # `lookup`, in line: asked for every node traced
    found = None if m is None else m.get(lineno)
    return None if found is None else found[:2]


def current_location(depth=1):
    """(file, line, text) of the innermost user frame (generated code mapped
    back to the user's lines), skipping autograph's own frames; or None."""
    f = sys._getframe(depth)
    while f is not None:
        filename = f.f_code.co_filename
        m = _MAPS.get(filename)     # `lookup`, in line: a frame's line is read only where
        if m is not None:           # a map can use it (reading it is not cheap)
            found = m.get(f.f_lineno)
            if found is not None:
                return found
        if not filename.startswith(_PACKAGE_DIR) and not filename.startswith("<autograph"):
            return None
        f = f.f_back
    return None


def current_frame(depth=1):
    """The innermost frame of generated code (the one current_location maps
    back to the user's line), skipping autograph's own frames; or None."""
    f = sys._getframe(depth)
    while f is not None:
        filename = f.f_code.co_filename
        if lookup(filename, f.f_lineno) is not None:
            return f
        if not filename.startswith(_PACKAGE_DIR) and not filename.startswith("<autograph"):
            return None
        f = f.f_back
    return None


def describe(location):
    """' (file:line: text)' for messages, or '' when unknown."""
    if not location:
        return ""
    filename, line, text = location
    return f" ({filename}:{line}: {text})" if text else f" ({filename}:{line})"
