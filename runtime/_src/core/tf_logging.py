"""`tf.get_logger`, `tf.autograph.set_verbosity` / `get_verbosity`, `tf.autograph.trace`.

`get_logger()` is the standard library's logger named "tensorflow" (as
TensorFlow's), so `tf.get_logger().setLevel("ERROR")` works as users write it.
`set_verbosity(level)` stores AutoGraph's verbosity (default: the
AUTOGRAPH_VERBOSITY environment variable, else 0) and sets the "autograph"
logger to DEBUG for a level above 0 (WARNING otherwise); with
`alsologtostdout=True` that logger also prints to stdout. `trace(*args)`
prints its arguments when it runs: while tracing, once per trace.
"""

import logging
import os
import sys

__all__ = ["get_logger", "set_verbosity", "get_verbosity", "trace"]

_verbosity = {"level": int(os.environ.get("AUTOGRAPH_VERBOSITY", "0") or 0), "handler": None}


def get_logger():
    """The "tensorflow" logger of the standard `logging` module."""
    return logging.getLogger("tensorflow")


def set_verbosity(level, alsologtostdout=False):
    """AutoGraph's verbosity: 0 quiet; above 0, its logger logs DEBUG messages."""
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise ValueError(f"set_verbosity: level must be an int >= 0, got {level!r}")
    _verbosity["level"] = level
    log = logging.getLogger("autograph")
    log.setLevel(logging.DEBUG if level > 0 else logging.WARNING)
    old = _verbosity["handler"]
    if old is not None:
        log.removeHandler(old)
        _verbosity["handler"] = None
    if alsologtostdout:
        _verbosity["handler"] = logging.StreamHandler(sys.stdout)
        log.addHandler(_verbosity["handler"])


def get_verbosity():
    return _verbosity["level"]


def trace(*args):
    """`tf.autograph.trace`: print `args` now (while tracing: the symbolic tensors)."""
    print(*args)
