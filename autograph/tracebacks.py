"""Traceback filtering: errors from converted or traced code show the user's
frames, not ours.

An exception that escapes `to_graph`'d code or a `runtime.function` call
passes through a dozen frames of the transpiler and the runtime (operators,
`cond`, tracing, the executor). Those frames say nothing to the user, whose
code is at the top (the call) and at the bottom (where the error is), and
whose source line is also in the message ("in user code: ..."). Public entry
points therefore re-raise with those frames removed, as TensorFlow does since
2.7; `disable_traceback_filtering()` shows everything again when debugging the
library itself.

    try:
        f(x)
    except ValueError as e:
        traceback.print_exception(e)     # user frames (and converted code) only

A package registers its directory with `register_internal_path`; frames whose
file is under a registered directory are dropped. Generated code (file names
like `<autograph:mod.f:0>`) is kept: it is the user's function, rewritten, and
the frame names the function.
"""

import os
import types

_INTERNAL_DIRS = [os.path.dirname(os.path.abspath(__file__)) + os.sep]
_enabled = True


def register_internal_path(path):
    """Hides frames from files under `path` (a package directory)."""
    directory = os.path.abspath(path).rstrip(os.sep) + os.sep
    if directory not in _INTERNAL_DIRS:
        _INTERNAL_DIRS.append(directory)


def enable_traceback_filtering():
    """Hides library frames in tracebacks of converted and traced code (default)."""
    global _enabled
    _enabled = True


def disable_traceback_filtering():
    """Shows every frame, including the library's own."""
    global _enabled
    _enabled = False


def is_traceback_filtering_enabled():
    return _enabled


def _is_internal(frame):
    filename = frame.f_code.co_filename
    return any(filename.startswith(d) for d in _INTERNAL_DIRS)


def filtered(error):
    """`error` with library frames removed from its traceback (when enabled).

    Returns the same exception object, so `raise filtered(e)` inside an
    `except` block keeps its type, message, `__cause__` and `__context__`
    (whose tracebacks are filtered too). If every frame of a traceback is
    internal, it is left as it is: an error in the library itself must stay
    debuggable.
    """
    if not _enabled:
        return error
    seen = set()
    chained = error
    while chained is not None and id(chained) not in seen:
        seen.add(id(chained))
        _filter_one(chained)
        chained = chained.__cause__ or chained.__context__
    return error


def _filter_one(error):
    if error.__traceback__ is None:
        return
    kept = []
    tb = error.__traceback__
    while tb is not None:
        if not _is_internal(tb.tb_frame):
            kept.append(tb)
        tb = tb.tb_next
    if not kept:
        return
    rebuilt = None
    for tb in reversed(kept):
        rebuilt = types.TracebackType(rebuilt, tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
    error.with_traceback(rebuilt)
