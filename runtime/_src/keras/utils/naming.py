"""Layer, model and metric names as Keras gives them.

A class name becomes snake case (`ReLU` -> `re_lu`, `MyModel` -> `my_model`,
`Conv2D` -> `conv2d`), and each default name is made unique per process by
a counter: the first Dense is `dense`, the next `dense_1`, then `dense_2`.

The path of a Keras variable is the names of the scopes open when it was
made, then its name: `keras.name_scope` opens one, and so does a layer while
it is built or called (`"block/dense/kernel"`).

    with name_scope("block"):
        keras.Variable(1.0, name="x").path      # "block/x"
"""

import itertools
import re
import threading

from runtime._src.core.context import name_scope as _graph_name_scope

__all__ = ["to_snake_case", "unique_name", "reset_names", "name_scope", "scope_entries",
           "current_path"]

_lock = threading.Lock()
_counters = {}
_scope_state = threading.local()        # .entries: the open name scopes, outermost first


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


def scope_entries():
    """The open name scopes of this thread, outermost first (a list to push on)."""
    entries = getattr(_scope_state, "entries", None)
    if entries is None:
        entries = _scope_state.entries = []
    return entries


def current_path():
    """The open scopes' names joined by "/" ("" when none is open)."""
    parts = []
    for entry in scope_entries():
        if entry.override_parent is not None:
            parts = [p for p in entry.override_parent.split("/") if p]
        parts.append(entry.name)
    return "/".join(parts)


class name_scope:  # Keras's name
    """`keras.name_scope(name, caller=None, deduplicate=True,
    override_parent=None)`: the variables made inside get `name/` in their
    path, and the graph ops `name/` in theirs (it also opens `tf.name_scope`).
    With `deduplicate`, a scope with the caller and name of the innermost one
    is not opened again; `override_parent` is an absolute path to use instead
    of the enclosing scopes."""

    def __init__(self, name, caller=None, deduplicate=True, override_parent=None):
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character "
                             f"`/`. Received: name={name}")
        self.name, self.caller = name, caller
        self.deduplicate, self.override_parent = deduplicate, override_parent
        self._graph_scope = None

    def __enter__(self):
        entries = scope_entries()
        if self.deduplicate and entries and self.caller is not None and \
                entries[-1].caller is self.caller and entries[-1].name == self.name:
            return self
        entries.append(self)
        self._graph_scope = _graph_name_scope(self.name)
        self._graph_scope.__enter__()
        return self

    def __exit__(self, *exc):
        if self._graph_scope is not None:
            scope, self._graph_scope = self._graph_scope, None
            scope.__exit__(*exc)
            scope_entries().pop()
