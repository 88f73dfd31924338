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

A package registers its directory with `register_internal_path` (generated
code of its own with `register_internal_prefix`); frames from those files are
dropped. Converted code (file names like `<autograph:mod.f:0>`) is kept: it
is the user's function, rewritten, and the frame names the function.
"""

import os
import types

_INTERNAL_DIRS = [os.path.dirname(os.path.abspath(__file__)) + os.sep]
_enabled = True


def register_internal_path(path):
    """Hides frames from files under `path` (a package directory)."""
    register_internal_prefix(os.path.abspath(path).rstrip(os.sep) + os.sep)


def register_internal_prefix(prefix):
    """Hides frames whose file name starts with `prefix` (e.g. generated code
    named `<graph f#0>`)."""
    if prefix not in _INTERNAL_DIRS:
        _INTERNAL_DIRS.append(prefix)


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
    return filename.startswith(tuple(_INTERNAL_DIRS))


def filtered(error):
    """`error` with library frames removed from its traceback (when enabled).

    Returns the same exception object, so `raise filtered(e)` inside an
    `except` block keeps its type and message. Chained exceptions
    (`__cause__`, `__context__`) are filtered too; one that happened entirely
    inside the library (a numpy kernel's error behind an op's error, whose
    message already says it all) is unlinked. If every frame of the error
    itself is internal (an error the library raised, e.g. an op failing at
    run time, whose message names the op and the user's line), the first and
    last frames stay: where the call entered the library and where it raised.
    """
    if not _enabled:
        return error
    if not _filter_one(error):
        _keep_ends(error)
    seen = {id(error)}
    parent = error
    while True:
        chained = parent.__cause__ or (None if parent.__suppress_context__ else parent.__context__)
        if chained is None or id(chained) in seen:
            return error
        seen.add(id(chained))
        if not _filter_one(chained):
            parent.__cause__ = None
            parent.__suppress_context__ = True
            return error
        parent = chained


def _keep_ends(error):
    first = last = error.__traceback__
    if first is None or first.tb_next is None:
        return
    while last.tb_next is not None:
        last = last.tb_next
    tail = types.TracebackType(None, last.tb_frame, last.tb_lasti, last.tb_lineno)
    error.with_traceback(types.TracebackType(tail, first.tb_frame, first.tb_lasti, first.tb_lineno))


def _filter_one(error):
    """Drops `error`'s internal frames; False when it has no other frames."""
    kept = []
    tb = error.__traceback__
    while tb is not None:
        if not _is_internal(tb.tb_frame):
            kept.append(tb)
        tb = tb.tb_next
    if not kept:
        return False
    rebuilt = None
    for tb in reversed(kept):
        rebuilt = types.TracebackType(rebuilt, tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
    error.with_traceback(rebuilt)
    return True
