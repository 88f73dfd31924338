"""`tf.custom_gradient` (`tf.recompute_grad` and `tf.grad_pass_through`, built
on it, are in recompute.py).

    @tf.custom_gradient
    def round_straight_through(x):
        def grad(upstream):
            return upstream              # as if round were the identity
        return tf.round(x), grad

A call runs `f` and passes its results through one `CustomGradient` op: an
identity on the results whose inputs are the results, then `f`'s arguments
and a fresh read of each trainable Variable `f` read. Its gradient rule gives
the results no gradient (so nothing flows back through `f`'s own ops) and
calls `grad_fn` for the arguments and Variables. Eagerly the op is recorded
by the tapes like any other; while tracing it is a graph node and `grad_fn`
runs when the gradient is built, so its ops are nodes of the graph (shown by
`python_source()`, optimized with the rest). Outer tapes record what `grad_fn`
computes: gradients of custom gradients work.

In a graph the op refers to its `grad_fn` by a name in a table of this
process, so a saved graph keeps its forward (the op is an identity) but a
gradient through it after loading in another process is a LookupError.

When a `cond` or `while_loop` gradient replays the subgraph holding the op
(control_flow_grad.py), `grad_fn`'s closure still names the forward
subgraph's tensors; the replay's map from those tensors to their copies is
noted here, and while `grad_fn` runs the graph being built resolves them to
the copies.
"""

import functools
import inspect
import itertools
import uuid
import weakref

from runtime._src.core import nest
from runtime._src.core.context import current_graph, state as _state
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op

__all__ = ["custom_gradient", "CustomGradientFunction", "note_replay"]

_OP = "CustomGradient"
# The "gradient" attr of a graph node -> its grad function. Weakly held: the
# graph keeps its own grad functions (`_keep_with`), so they go with it.
_GRAPH_GRAD_FNS = weakref.WeakValueDictionary()
# A replayed CustomGradient node's mapping (forward tensor -> its copy) lives
# on the node's graph, under this name, as {id(node): (node, mapping)}: it
# goes with the graph, whether or not the node's gradient is ever taken.
_REPLAYED = "_replayed_custom_gradients"
_names = itertools.count(1)


@define_op(_OP, num_outputs=None,
           infer=lambda inputs, attrs: [(t.dtype, t.shape)
                                        for t in inputs[:attrs["num_results"]]])
def _custom_gradient_kernel(*values, gradient, num_results):
    """The forward of a custom gradient: its first `num_results` inputs, unchanged."""
    return tuple(values[:num_results])


@define_grad(_OP)
def _custom_gradient_grad(op, *grads):
    n = op.attrs["num_results"]
    gradient = op.attrs["gradient"]
    if callable(gradient):
        compute = gradient
    else:
        compute = _GRAPH_GRAD_FNS.get(gradient)
        if compute is None:
            raise LookupError(
                f"No gradient for the custom gradient '{op.name}' ({gradient}): its grad_fn is "
                "Python code of the process that traced it and is not saved with a graph; "
                "trace the function again (not a loaded one) to differentiate it")
    graph = getattr(op, "graph", None)              # an eager op has none
    notes = None if graph is None else graph.__dict__.get(_REPLAYED)
    with _replay_scope(None if notes is None else notes.get(id(op))):
        found = compute(list(grads[:n]))
    out = [None] * n
    for t, g in zip(op.inputs[n:], found):
        if g is not None and not isinstance(g, Tensor):
            g = convert_to_tensor(g, t.dtype)
        out.append(g)
    return out


def note_replay(node, mapping):
    """Called by `replay` for a replayed custom-gradient node: `mapping` takes
    the forward subgraph's tensors (which grad_fn may hold) to their copies.
    It is kept on the node's graph (every gradient of the node uses it)."""
    _replayed(node.graph)[id(node)] = (node, mapping)


def _replayed(graph):
    """{id(node): (node, mapping)} of the replayed nodes of `graph`."""
    return graph.__dict__.setdefault(_REPLAYED, {})


class _replay_scope:
    """While grad_fn runs: the current graph takes the replayed subgraph's
    tensors to their copies (as if it had captured them); a copy in an outer
    graph is captured when used (`Graph.capture` follows
    `state.capture_aliases`: the backward graph of a taped call,
    function_call.py, is nested in the forward graph holding the copies)."""

    def __init__(self, entry):
        self.mapping = None if entry is None else entry[1]
        self.added = []
        self.aliases = self.active = None

    def __enter__(self):
        graph = current_graph()
        if self.mapping is None or graph is None:
            return
        self.aliases = previous = _state.capture_aliases
        self.active = True
        mapping = self.mapping

        def alias(t):
            found = mapping.get(id(t))
            return found if found is not None or previous is None else previous(t)
        _state.capture_aliases = alias
        known = graph._capture_map
        for key, new in self.mapping.items():
            if key not in known and getattr(getattr(new, "node", None), "graph", None) is graph:
                known[key] = new
                self.added.append(key)

    def __exit__(self, *exc):
        if self.active:
            _state.capture_aliases = self.aliases
        if self.added:
            known = current_graph()._capture_map
            for key in self.added:
                known.pop(key, None)
        return False


# --- which Variables the forward reads ---------------------------------------------

class _VariableWatcher:
    """Stands among the recording tapes while an eager `f` runs: notes the
    trainable Variables it reads (records nothing)."""

    def __init__(self):
        self.variables = {}

    def record_eager(self, opdef, inputs, attrs, outputs):
        pass

    def record_node(self, node):
        pass

    def watches(self, tensor):
        return False

    def record_variable_read(self, variable, tensor):
        if variable.trainable:
            self.variables.setdefault(id(variable), variable)


def _run_eager(f, args, kwargs, record):
    """f(*args, **kwargs) eagerly, and the trainable Variables it read. With
    `record=False` the tapes do not see f's ops (recompute_grad)."""
    watcher = _VariableWatcher()
    saved = getattr(_state, "tapes", None)
    _state.tapes = ((saved or []) if record else []) + [watcher]
    try:
        result = f(*args, **kwargs)
    finally:
        _state.tapes = saved
    return result, list(watcher.variables.values())


def _run_graph(f, args, kwargs, graph):
    """f(*args, **kwargs) while tracing, and the trainable Variables read by
    the nodes it added (in nested subgraphs too)."""
    start = len(graph.nodes)
    result = f(*args, **kwargs)
    found, stack = {}, [graph.nodes[start:]]
    while stack:
        for node in stack.pop():
            if node.op == "ReadVariableOp" and node.attrs["variable"].trainable:
                found.setdefault(id(node.attrs["variable"]), node.attrs["variable"])
            stack.extend(g.nodes for g in node.subgraph_list())
    return result, list(found.values())


def _accepts_variables(grad_fn):
    try:
        spec = inspect.getfullargspec(grad_fn)
    except TypeError:
        return True
    return "variables" in spec.args or "variables" in spec.kwonlyargs or spec.varkw is not None


# --- the decorator ------------------------------------------------------------------

def custom_gradient(f=None):
    """`@tf.custom_gradient`: `f(*x)` returns `(y, grad_fn)`; the gradient of
    `y` with respect to `x` is `grad_fn(*upstream)` (one value per input, a
    single value for one input). When `f` reads trainable Variables,
    `grad_fn(*upstream, variables=...)` returns `(input_grads, variable_grads)`."""
    if f is None:
        return lambda f: custom_gradient(f)
    return CustomGradientFunction(f)


class CustomGradientFunction:
    """The decorated function; as a method decorator it binds like a function."""

    def __init__(self, f, record=True):
        self._f = f
        self._record = record
        functools.update_wrapper(self, f, updated=())

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return CustomGradientFunction(self._f.__get__(instance, owner), self._record)

    def __call__(self, *args, **kwargs):
        graph = current_graph()
        if graph is None:
            return self._call_eager(args, kwargs)
        return self._call_graph(graph, args, kwargs)

    def _call_eager(self, args, kwargs):
        result, grad_fn, read = _results_and_grad_fn(
            *_run_eager(self._f, args, kwargs, self._record))
        inputs = [convert_to_tensor(a) for a in args]
        variables = [v for v in read if all(v is not a for a in args)]
        return self._finish(result, grad_fn, inputs, variables, None)

    def _call_graph(self, graph, args, kwargs):
        if kwargs:
            raise ValueError("The custom_gradient decorator currently supports keywords "
                             "arguments only when eager execution is enabled.")
        args = nest.map_structure(_to_tensor, args)
        from autograph.integration import converted_callable   # as map_fn: f is user code
        f = converted_callable(self._f, user_requested=False)
        result, grad_fn, read = _results_and_grad_fn(*_run_graph(f, args, {}, graph))
        inputs = [convert_to_tensor(a) for a in args]
        variables = sorted(read, key=lambda v: v.name)     # as TensorFlow in graphs
        return self._finish(result, grad_fn, inputs, variables, graph)

    def _finish(self, result, grad_fn, inputs, variables, graph):
        if variables and not _accepts_variables(grad_fn):
            raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument "
                            f"'variables', since function uses variables: {variables}")
        flat = [_to_tensor(t) for t in nest.flatten(result)]
        reads = [v._as_tensor() for v in variables]
        compute = _grad_computation(grad_fn, len(inputs), variables)
        if graph is None:
            gradient = compute
        else:
            gradient = f"{_OP}-{uuid.uuid4().hex[:12]}-{next(_names)}"
            _GRAPH_GRAD_FNS[gradient] = compute
            _keep_with(graph, compute)
        outs = apply(_OP, flat + inputs + reads, {"gradient": gradient,
                                                   "num_results": len(flat)})
        return nest.pack_sequence_as(result, list(outs))


def _keep_with(graph, compute):
    """The outermost graph of `graph` holds `compute` (per-graph data lives
    on the graph: the function's own graph, which rewrites edit in place and
    which outlives its branch and body graphs)."""
    while graph.outer is not None:
        graph = graph.outer
    kept = graph.__dict__.setdefault("_custom_gradient_fns", [])
    kept.append(compute)


def _results_and_grad_fn(value, variables):
    """(result, grad_fn, variables) from what f returned, checked."""
    try:
        result, grad_fn = value
    except TypeError:
        raise TypeError("@tf.custom_gradient: the decorated function must return a pair "
                        f"(result, grad_fn), got {type(value).__name__}") from None
    except ValueError:
        raise ValueError("@tf.custom_gradient: the decorated function must return a pair "
                         f"(result, grad_fn), got {len(value)} values") from None
    if not callable(grad_fn):
        raise TypeError("@tf.custom_gradient: the second value the decorated function returns "
                        f"must be the gradient function, got {type(grad_fn).__name__}")
    return result, grad_fn, variables


def _grad_computation(grad_fn, num_inputs, variables):
    """The gradient rule's call of grad_fn: upstream gradients -> one gradient
    per input, then one per Variable."""
    def compute(upstream):
        if variables:
            returned = grad_fn(*upstream, variables=variables)
            input_grads, variable_grads = returned
            variable_grads = list(variable_grads)
            if len(variable_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from "
                                 "@custom_gradient grad_fn.")
        else:
            input_grads, variable_grads = grad_fn(*upstream), []
        flat = nest.flatten(input_grads)
        if len(flat) != num_inputs:
            raise ValueError(f"custom_gradient function expected to return {num_inputs} "
                             f"gradients, but returned {len(flat)} instead.")
        return flat + variable_grads
    return compute


def _to_tensor(value):
    return value if isinstance(value, Tensor) else convert_to_tensor(value)
