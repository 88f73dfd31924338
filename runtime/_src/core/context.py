"""Where ops go: the graph being traced on this thread, if any.

The graph layer pushes a `Graph` here while tracing (`Graph.as_default()`);
everything that stages or runs ops asks `current_graph()`. It lives in core so
that tensors (`convert_to_tensor`) and the op registry can ask without
importing the graph layer.

    >>> current_graph() is None      # eager
    True

`name_scope` (`tf.name_scope`) prefixes the names of the nodes made inside
it while tracing; eagerly it only tracks the scope string.
"""

import contextlib
import re
import threading

__all__ = ["current_graph", "init_scope", "name_scope", "state", "plain_eager",
           "executing_eagerly", "inside_function", "get_current_name_scope"]

class _State(threading.local):
    """Per-thread: .graph, the graph being traced; .tapes, the gradient tapes
    recording (runtime/_src/autodiff), or None; .flag_memo: see graph.graph.
    The class-level defaults make a read on a fresh thread a plain attribute
    hit (a getattr with a default that misses costs ~0.3 us on every op)."""
    graph = None
    tapes = None
    capture_aliases = None  # tensor -> its copy (or None), while a replayed grad_fn runs
    device = ""   # the tf.device scope's canonical spec (core/devices.py)
    # Set on the class when a tf.device scope is first entered (any thread):
    # until then every thread's `device` is "" and tracing need not read it
    # (a thread-local read costs several plain attribute reads).
    device_scoped = False
    log_placement = False  # set on the class: debugging.set_log_device_placement
    check_numerics = None  # set on the class: debugging.enable_check_numerics's hook
    profiler = None        # set on the class: a tf.profiler session's Recorder (core/trace_events.py)


state = _State()


def current_graph():
    """The graph being traced on this thread, or None in eager mode."""
    return state.graph


def plain_eager():
    """True when ops run eagerly and no gradient tape records them: an op's
    front function may then call its kernel directly (an eager fast path);
    otherwise it must go through `op_registry.apply`, which stages or records."""
    return (state.graph is None and not state.tapes and not state.log_placement
            and state.check_numerics is None and state.profiler is None)


def executing_eagerly():
    """`tf.executing_eagerly()`: False while a `tf.function` is traced (also in its
    Python code), True otherwise, and inside `tf.init_scope()`."""
    return state.graph is None


def inside_function():
    """`tf.inside_function()`: True while a `tf.function` (a graph) is traced."""
    return state.graph is not None


@contextlib.contextmanager
def init_scope():
    """Leave every graph being traced: ops inside run eagerly, unrecorded by
    gradient tapes (`tf.init_scope`)."""
    previous, tapes = state.graph, state.tapes
    state.graph = state.tapes = None
    try:
        yield
    finally:
        state.graph, state.tapes = previous, tapes


# --- name_scope -------------------------------------------------------------------

_ROOT_SCOPE = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_SCOPE = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


class name_scope:  # TensorFlow's name
    """`with tf.name_scope("layer") as scope:` names the nodes made inside
    `layer/<op>` (`scope` is the full prefix, `"layer/"`).

    As in TensorFlow: a scope entered twice in one graph becomes `layer_1`;
    a name ending in `/` (`"layer/"`) reenters that exact scope; `""` goes
    back to the root. While tracing, the graph holds the prefix
    (`graph.name_scope_prefix`; subgraphs of cond and while_loop start with
    their outer graph's); eagerly the prefix is kept per thread.
    """

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._saved = []

    @property
    def name(self):
        return self._name

    def __enter__(self):
        graph = current_graph()
        owner = graph if graph is not None else state
        previous = getattr(owner, "name_scope_prefix", "")
        if graph is not None:
            _check_scope_name(self._name, previous)
        if not self._name:
            scope = ""
        elif self._name.endswith("/"):
            scope = self._name
        elif graph is not None:
            scope = graph.unique_name(previous + self._name) + "/"
        else:
            scope = previous + self._name + "/"
        self._saved.append((owner, previous))
        owner.name_scope_prefix = scope
        return scope

    def __exit__(self, *exc):
        owner, previous = self._saved.pop()
        owner.name_scope_prefix = previous
        return False


def get_current_name_scope():
    """`tf.get_current_name_scope`: the full name scope in effect, without the
    trailing slash (`"a/b"` inside `name_scope("a")` and `name_scope("b")`)."""
    graph = current_graph()
    owner = graph if graph is not None else state
    return getattr(owner, "name_scope_prefix", "").rstrip("/")


def _check_scope_name(name, prefix):
    if not name:
        return
    if not prefix and not _ROOT_SCOPE.match(name):
        raise ValueError(f"'{name}' is not a valid root scope name. A root scope name has to "
                         f"match the following pattern: {_ROOT_SCOPE.pattern}")
    if prefix and not _SCOPE.match(name):
        raise ValueError(f"'{name}' is not a valid scope name. A scope name has to match the "
                         f"following pattern: {_SCOPE.pattern}")
