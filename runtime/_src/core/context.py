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

__all__ = ["current_graph", "init_scope", "state", "plain_eager"]

# .graph: the graph being traced; .flag_memo: see graph.graph; .tapes: the
# gradient tapes recording on this thread (runtime/_src/autodiff), or None.
state = threading.local()


def current_graph():
    """The graph being traced on this thread, or None in eager mode."""
    return getattr(state, "graph", None)


def plain_eager():
    """True when ops run eagerly and no gradient tape records them: an op's
    front function may then call its kernel directly (an eager fast path);
    otherwise it must go through `op_registry.apply`, which stages or records."""
    return getattr(state, "graph", None) is None and not getattr(state, "tapes", None)


@contextlib.contextmanager
def init_scope():
    """Leave every graph being traced: ops inside run eagerly, unrecorded by
    gradient tapes (`tf.init_scope`)."""
    previous, tapes = getattr(state, "graph", None), getattr(state, "tapes", None)
    state.graph = state.tapes = None
    try:
        yield
    finally:
        state.graph, state.tapes = previous, tapes
