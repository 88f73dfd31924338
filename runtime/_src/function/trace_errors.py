"""Errors of tracing a function, each with TensorFlow's text first and our
explanation after it, and where warnings point (the user's frame).

    variable_creation_error   a trace created Variables again (TF's ValueError)
    recursion_error           tracing never ended (TF's StagingError)
    explain_unconverted       a tensor used as a bool where autograph could
                              not convert (no source): say so
    user_stacklevel           `warnings.warn` stacklevel of the user's frame
"""

import os
import sys

from autograph.integration import UNCONVERTED_MARK as _UNCONVERTED_MARK

from runtime._src.core.errors import OperatorNotAllowedInGraphError, StagingError

__all__ = ["variable_creation_error", "recursion_error", "explain_unconverted",
           "user_stacklevel"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def variable_creation_error(name, trace, count):
    """TensorFlow 2.21's ValueError for Variables created by a later trace."""
    return ValueError(
        "tf.function only supports singleton tf.Variables created on the first call. "
        "Make sure the tf.Variable is only created once or created outside tf.function. "
        "See https://www.tensorflow.org/guide/function#creating_tfvariables for more "
        f"information.\n{name}: {trace} created {count} Variable(s) again. Create them "
        "only when they do not exist yet (for example `if self.v is None: self.v = "
        "tf.Variable(...)`), or outside the function.")


_NOT_ALLOWED = " is not allowed in a graph"     # core.tensor's message, up to the reason


def explain_unconverted(error):
    """A tensor used as a Python bool in a function autograph ran unconverted
    (its source is not available): say so, and how to fix it."""
    hint = getattr(error, _UNCONVERTED_MARK, None)
    if hint and isinstance(error, OperatorNotAllowedInGraphError) and len(error.args) == 1:
        head, found, _ = str(error.args[0]).partition(_NOT_ALLOWED)
        if found and hint not in error.args[0]:
            error.args = (f"{head}{_NOT_ALLOWED}: {hint}",)


def recursion_error(name, error):
    """TensorFlow's StagingError for a tf.function whose tracing never ends;
    it keeps the notes naming the user's lines."""
    staging = StagingError(
        f"in user code:\n\n    RecursionError: {error}\n\n{name}: tracing never "
        "finished. While tracing, a recursion that stops on a tensor value never stops: "
        "both branches of a tensor `if` are traced, and a tf.function called while it is "
        "traced is inlined. Write the recursion as a loop (a tensor while loop), or stop "
        "it on a Python value.")
    for note in getattr(error, "__notes__", ()):
        staging.add_note(note)
    return staging


def user_stacklevel():
    """`warnings.warn` stacklevel pointing at the first frame outside runtime."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        level += 1
        frame = frame.f_back
    return level

