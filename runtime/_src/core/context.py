"""Where ops go: the graph being traced on this thread, if any.

The graph layer pushes a `Graph` here while tracing (`Graph.as_default()`);
everything that stages or runs ops asks `current_graph()`. It lives in core so
that tensors (`convert_to_tensor`) and the op registry can ask without
importing the graph layer.

    >>> current_graph() is None      # eager
    True
"""

import contextlib
import threading

__all__ = ["current_graph", "init_scope", "state"]

state = threading.local()   # .graph: the graph being traced; .flag_memo: see graph.graph


def current_graph():
    """The graph being traced on this thread, or None in eager mode."""
    return getattr(state, "graph", None)


@contextlib.contextmanager
def init_scope():
    """Leave every graph being traced: ops inside run eagerly (`tf.init_scope`)."""
    previous = getattr(state, "graph", None)
    state.graph = None
    try:
        yield
    finally:
        state.graph = previous
