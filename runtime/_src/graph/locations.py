"""Where in the user's code an op was made, and errors that say so.

`user_location()` is the innermost frame outside runtime/ and autograph/,
mapped back through autograph's source map when it is generated code;
`kernel_error` and `leaked_tensor_error` build the errors ops raise.
"""

import os
import sys

from autograph.integration import user_location as _user_location

from runtime._src.core.errors import InvalidArgumentError, OpError

__all__ = ["user_location", "with_location", "kernel_error", "leaked_tensor_error"]

_RUNTIME_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PACKAGE_DIRS = tuple(d + os.sep for d in (
    _RUNTIME_DIR, os.path.join(os.path.dirname(_RUNTIME_DIR), "autograph")))


def user_location(depth=1):
    """(filename, lineno) of the innermost frame outside runtime/autograph,
    from the frame `depth` levels up on (the caller's, 1: the frames below
    it must be ours)."""
    f = sys._getframe(depth)
    ours = _OUR_FILES
    while f is not None:
        fn = f.f_code.co_filename
        if fn not in ours:           # asked for every node traced: a set beats startswith
            if not fn.startswith(_PACKAGE_DIRS):
                line = f.f_lineno    # generated code maps back to the user's line
                mapped = _user_location(fn, line)
                return mapped if mapped is not None else (fn, line)
            ours.add(fn)
        f = f.f_back
    return None


# The files of runtime/ and autograph/ met by user_location (a bounded set).
_OUR_FILES = set()


def with_location(message, location):
    if not location:
        return message
    return f"{message}\n  (at {location[0]}:{location[1]})"


def kernel_error(op_name, inputs, error, location=None):
    """A clear error for a numpy kernel failure: the op, input shapes and cause
    (an OpError the kernel raised itself, NotFoundError..., passes as it is)."""
    if isinstance(error, OpError):
        return error
    shapes = ", ".join(f"{t.dtype.name}{list(t.shape.dims) if t.shape.dims is not None else '[?]'}"
                       for t in inputs if hasattr(t, "dtype"))
    msg = f"{op_name} failed on inputs ({shapes}): {error}"
    return InvalidArgumentError(with_location(msg, location), op_name)


def leaked_tensor_error(t, op_name):
    return TypeError(
        f"{op_name}: tensor {t.name} belongs to graph {t.node.graph.name!r}, which is "
        "not being traced here. A symbolic tensor cannot leave the function that "
        "traced it; return it from the function instead. (A Python side effect in a "
        "tensor if or loop, such as list.append, stores the tensor of the branch or "
        "body it traced: see its SideEffectWarning.)")
