"""Layer, model and metric names as Keras gives them.

A class name becomes snake case (`ReLU` -> `re_lu`, `MyModel` -> `my_model`,
`Conv2D` -> `conv2d`), and each default name is made unique per process by
a counter: the first Dense is `dense`, the next `dense_1`, then `dense_2`.
"""

import itertools
import re
import threading

__all__ = ["to_snake_case", "unique_name", "reset_names"]

_lock = threading.Lock()
_counters = {}


def to_snake_case(name):
    """`MyModel` -> `my_model`, `ReLU` -> `re_lu`, `MaxPooling2D` -> `max_pooling2d`."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(prefix):
    """`prefix` the first time, then `prefix_1`, `prefix_2`, ..."""
    with _lock:
        counter = _counters.setdefault(prefix, itertools.count())
        n = next(counter)
    return prefix if n == 0 else f"{prefix}_{n}"


def reset_names():
    """Start every name counter again (tests; Keras's `clear_session`)."""
    with _lock:
        _counters.clear()
