"""`GradientTape`: record ops, then compute gradients of a target with
respect to watched tensors and Variables, as `tf.GradientTape` does.

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)          # 6.0

Eagerly, a tape records each op that runs with a watched (or recorded)
input: the op registry calls `record_eager` (runtime/_src/graph/op_registry.py)
and eager Variable reads call `record_variable_read`. While tracing, the graph
calls `record_node` for every node added to the tape's graph, and the
gradient is built as nodes of the same graph. Either way the backward pass
is `backprop.backprop` over the records, with the gradient rules of the ops.

Trainable Variables read while the tape records are watched automatically
(unless `watch_accessed_variables=False`). A tape is used once unless
`persistent=True`.
"""

import enum
import warnings

import numpy as np

from runtime._src.autodiff import backprop as _backprop
from runtime._src.autodiff import control_flow_grad  # registers the If / While gradients
from runtime._src.core import nest
from runtime._src.core.context import current_graph, state as _state
from runtime._src.core.tensor import SymbolicTensor, Tensor, convert_to_tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.locations import user_location
from runtime._src.graph.op_registry import apply
from runtime._src.ops import array_ops, manipulation_ops, math_ops
from runtime._src.function.control_flow import while_loop
from runtime._src.function.tensor_array import TensorArray

__all__ = ["GradientTape", "UnconnectedGradients", "gradients", "hessians", "AggregationMethod"]

_UNROLLED_JACOBIAN = 32    # larger jacobians in graphs are a loop, not one gradient per element


class UnconnectedGradients(enum.Enum):
    """What `gradient` gives for a source the target does not depend on."""
    NONE = "none"
    ZERO = "zero"


def _is_variable(value):
    return not isinstance(value, Tensor) and reads_as_tensor(value) \
        and hasattr(value, "trainable")


class GradientTape:
    """`tf.GradientTape(persistent=False, watch_accessed_variables=True)`."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._recording = False
        self._used = False
        self._graph = None
        self._kept_variables = ()    # watched_variables() of a one-shot tape after its use
        self._reset_records()

    def _reset_records(self):
        self._records = []           # EagerOps or graph Nodes, in recording order
        self._live = {}              # eager: id -> tensor of watched and recorded tensors
        self._watched = {}           # id -> watched tensor
        self._watched_vars = {}      # id -> Variable whose reads are sources
        self._accessed = {}          # id -> Variable read while recording (in order)
        self._reads = {}             # id(Variable) -> tensors its reads gave

    # --- recording -----------------------------------------------------------

    def __enter__(self):
        self._push()
        return self

    def __exit__(self, *exc):
        if self._recording:
            self._pop()
        return False

    def _push(self):
        if self._recording:
            raise ValueError("GradientTape: the tape is already recording")
        graph = current_graph()
        if self._records and graph is not self._graph:
            raise ValueError("GradientTape: a tape used eagerly cannot record in a graph "
                             "(or the reverse); use a new tape")
        self._graph = graph
        tapes = getattr(_state, "tapes", None)
        _state.tapes = (tapes or []) + [self]
        self._recording = True

    def _pop(self):
        tapes = getattr(_state, "tapes", None) or []
        _state.tapes = [t for t in tapes if t is not self] or None
        self._recording = False

    def stop_recording(self):
        """`with tape.stop_recording():` runs its block without recording."""
        return _Paused(self)

    def reset(self):
        """Forget everything recorded so far; only while the tape records, as in TF."""
        if not self._recording:
            raise ValueError("Tape is not recording.")
        self._reset_records()

    def watch(self, tensor):
        """Make `tensor` (a Tensor, a Variable, or a nested structure of them) a source."""
        for leaf in nest.flatten(tensor):
            if _is_variable(leaf):
                self._watched_vars[id(leaf)] = leaf
                continue
            if not isinstance(leaf, Tensor) and reads_as_tensor(leaf):
                leaf = leaf._as_tensor()         # a tf.WeakTensor: its tensor
            if not isinstance(leaf, Tensor):
                raise ValueError(f"Passed in object {leaf!r} of type '{type(leaf).__name__}', "
                                 "not tf.Tensor or tf.Variable")
            leaf = self._own(leaf)
            if not _backprop.carries_gradient(leaf):
                warnings.warn(f"The dtype of the watched tensor must be floating (e.g. "
                              f"tf.float32), got {leaf.dtype!r}", stacklevel=2)
            self._watched[id(leaf)] = leaf
            if self._graph is None:
                self._live[id(leaf)] = leaf

    def watches(self, tensor):
        """True when `tensor` is a watched source (the graph asks, runtime/_src/graph)."""
        return id(tensor) in self._watched

    def _own(self, t):
        """While tracing, an eager or outer tensor as the tape graph's tensor for it."""
        graph = self._graph
        if graph is None or (isinstance(t, SymbolicTensor) and t.node.graph is graph):
            return t
        return graph.capture(t)

    def watched_variables(self):
        """The Variables read while recording (and watched), in first-read order
        (a one-shot tape keeps those it had when it computed its gradient)."""
        if self._used:
            return self._kept_variables
        seen = dict(self._accessed)
        seen.update((k, v) for k, v in self._watched_vars.items() if k not in seen)
        return tuple(seen.values())

    # hooks: called by the op registry, the graph and Variables while recording

    def record_eager(self, opdef, inputs, attrs, outputs):
        if self._graph is not None:
            return
        live = self._live
        for t in inputs:
            if id(t) in live:
                break
        else:
            return
        location = user_location() if opdef.grad is None else None
        self._records.append(_backprop.EagerOp(opdef, inputs, attrs, outputs, location))
        for o in outputs:
            if _backprop.carries_gradient(o):
                live[id(o)] = o

    def record_node(self, node):
        if node.graph is not self._graph:
            if node.op == "ReadVariableOp" and self._graph is not None \
                    and self._inside(node.graph):
                self._variable_read(node.attrs["variable"], None)   # in a branch or loop body
            return
        self._records.append(node)
        if node.op == "ReadVariableOp":
            self._variable_read(node.attrs["variable"], node.outputs[0])

    def _inside(self, graph):
        while graph is not None:
            if graph is self._graph:
                return True
            graph = graph.outer
        return False

    def record_variable_read(self, variable, tensor):
        if self._graph is None and self._variable_read(variable, tensor):
            self._live[id(tensor)] = tensor

    def _variable_read(self, variable, tensor):
        key = id(variable)
        if self._watch_accessed and variable.trainable:
            self._watched_vars.setdefault(key, variable)
        if key not in self._watched_vars:
            return False
        self._accessed.setdefault(key, variable)
        reads = self._reads.setdefault(key, [])
        if tensor is not None:
            reads.append(tensor)
        return True

    # --- gradients -------------------------------------------------------------

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(target)/d(source) for each source, in the structure of `sources`.

        `target` may be a tensor or a nested structure (the gradients of its
        elements add up); `output_gradients` weigh each target element.
        """
        self._check_usable()
        unconnected = _unconnected(unconnected_gradients)
        if target is None:
            raise TypeError("Argument `target` should be a list or nested structure of Tensors, "
                            "Variables or CompositeTensors to be differentiated, but received "
                            "None.")
        flat_targets = nest.flatten(target)
        targets = [self._own(_as_target(t, integer_ok=True)) for t in flat_targets]
        flat_sources = [_source(s) for s in nest.flatten(sources)]
        target_grads = self._target_grads(target, targets, output_gradients)
        # As TF: a target that is not floating (an int32 product) is not
        # differentiated; a source reached only through it gets None.
        kept = [i for i, t in enumerate(targets) if _differentiable(t.dtype)]
        flat_targets, targets, target_grads = ([seq[i] for i in kept] for seq in
                                               (flat_targets, targets, target_grads))
        groups = self._source_groups(flat_sources, flat_targets, targets)
        if self._recording and not self._persistent:
            self._pop()              # as TF: a one-shot tape does not record its own gradient
        flat = self._backprop(targets, target_grads, groups, flat_sources)
        self._after_use()
        out = [_unconnected_value(g, s, unconnected) for g, s in zip(flat, flat_sources)]
        return nest.pack_sequence_as(sources, out)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d(target[i...])/d(source[j...]) with shape target.shape + source.shape.

        Computed one target element at a time (statically known target shapes)."""
        self._check_usable()
        unconnected = _unconnected(unconnected_gradients)
        if isinstance(target, (list, tuple, dict)):
            raise AttributeError(f"'{type(target).__name__}' object has no attribute 'shape'")
        target = _as_target(target)
        flat_sources = nest.flatten(sources)
        groups = self._source_groups(flat_sources)
        if self._recording and not self._persistent:
            self._pop()
        if self._graph is not None and (not target.shape.is_fully_defined()
                                        or np.prod(target.shape.dims) > _UNROLLED_JACOBIAN):
            out = self._jacobian_loop(target, flat_sources, groups, unconnected)
            self._after_use()
            return nest.pack_sequence_as(sources, out)
        dims = list(target.shape.dims)
        size = int(np.prod(dims))
        rows = [[] for _ in flat_sources]
        for i in range(size):
            onehot = np.zeros(size, target.dtype.np_dtype)
            onehot[i] = 1
            weight = convert_to_tensor(onehot.reshape(dims))
            for row, g in zip(rows, self._backprop([target], [weight], groups, flat_sources)):
                row.append(g)
        self._after_use()
        out = []
        for row, s in zip(rows, flat_sources):
            shape = _shape_const(dims + list(s.shape.dims))
            if all(g is None for g in row) and (size or not groups) \
                    and unconnected is UnconnectedGradients.NONE:
                out.append(None)
            elif not row:
                out.append(apply("Reshape", (_zeros_for(s), shape)))
            else:
                row = [g if g is not None else _zeros_for(s) for g in row]
                out.append(apply("Reshape", (apply("Pack", tuple(row), {"axis": 0}), shape)))
        return nest.pack_sequence_as(sources, out)

    def _jacobian_loop(self, target, flat_sources, groups, unconnected):
        """The jacobian as a `while_loop` over the target's elements (a dynamic
        target shape, or a large one: the backward graph is traced once)."""
        size, shape = array_ops.size(target), array_ops.shape(target)
        connected = [False] * len(flat_sources)

        def body(i, *arrays):
            onehot = math_ops.cast(math_ops.equal(array_ops.range(size), i), target.dtype)
            weight = array_ops.reshape(onehot, shape)
            grads = self._backprop([target], [weight], groups, flat_sources)
            for k, g in enumerate(grads):
                connected[k] = g is not None
            return [i + 1] + [a.write(i, g if g is not None else _zeros_for(s))
                              for a, g, s in zip(arrays, grads, flat_sources)]
        arrays = [TensorArray(s.dtype, size=size, element_shape=s.shape) for s in flat_sources]
        arrays = while_loop(lambda i, *arrays: i < size, body, [0] + arrays)[1:]
        out = []
        for a, s, linked in zip(arrays, flat_sources, connected):
            if not linked and unconnected is UnconnectedGradients.NONE:
                out.append(None)
                continue
            source_shape = _shape_const(s.shape.dims) if s.shape.is_fully_defined() \
                else array_ops.shape(s)
            dims = manipulation_ops.concat([shape, source_shape], 0)
            out.append(array_ops.reshape(a.stack(), dims))
        return out

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """d(target[b, i...])/d(source[b, j...]) for each batch row b, with shape
        target.shape + source.shape[1:]; row b of the target must depend on row b
        of the source only (other rows' contributions are summed in, as in TF).

        Computed one target column at a time (target.shape[1:] must be known;
        the batch size may be dynamic). A source the target does not depend on
        gets zeros, as in TensorFlow, whatever `unconnected_gradients` says."""
        self._check_usable()
        _unconnected(unconnected_gradients)
        if _is_variable(target):
            target = target._as_tensor()
        elif not isinstance(target, Tensor):
            target = convert_to_tensor(target)
        for t in (target, source):
            if t.shape.rank is not None and t.shape.rank < 2:
                raise ValueError(f"Shape {t.shape} must have rank at least 2")
        batch, source_batch = target.shape.dims[0], source.shape.dims[0]
        if batch is not None and source_batch is not None and batch != source_batch:
            raise ValueError(f"Need first dimension of target shape ({target.shape}) and "
                             f"source shape ({source.shape}) to match.")
        inner = target.shape[1:]
        if not inner.is_fully_defined():
            raise ValueError(f"GradientTape.batch_jacobian: the target's shape {target.shape} "
                             "must be known after its first (batch) dimension")
        (group,) = self._source_groups([source])
        if self._recording and not self._persistent:
            self._pop()
        dims = list(inner.dims)
        size = int(np.prod(dims))
        rows = []
        if target.dtype.is_floating:
            ones = None if target.shape.is_fully_defined() else \
                apply("OnesLike", (target,), {"dtype": None})
            for j in range(size):
                onehot = np.zeros(size, target.dtype.np_dtype)
                onehot[j] = 1
                weight = np.broadcast_to(onehot.reshape(dims), target.shape.dims) \
                    if ones is None else onehot.reshape(dims)
                weight = convert_to_tensor(weight)
                if ones is not None:
                    weight = apply("Mul", (ones, weight))
                rows.append(self._backprop([target], [weight], [group], [source])[0])
        self._after_use()
        zeros = _zeros_for(source)
        if zeros.dtype != target.dtype:
            zeros = apply("Cast", (zeros, ), {"dtype": target.dtype})
        rows = [g if g is not None else zeros for g in rows] or [zeros] * size
        shape = [-1 if batch is None else batch] + dims + list(source.shape.dims[1:])
        if not rows:                 # a target without elements per row
            return apply("Reshape", (zeros, _shape_const(shape)))
        return apply("Reshape", (apply("Pack", tuple(rows), {"axis": 1}), _shape_const(shape)))

    def _after_use(self):
        """A one-shot tape forgets its records once it has given its gradients."""
        if not self._persistent:
            self._kept_variables = self.watched_variables()
            self._used = True
            self._reset_records()

    def _source_groups(self, flat_sources, flat_targets=(), targets=()):
        """The tensors standing for each source; a source that is also a target
        counts (its gradient is the target's weight), watched or not, as in TF."""
        live = self._graph_live() if self._graph is not None else None
        groups = [self._source_group(s, live) for s in flat_sources]
        for raw, t in zip(flat_targets, targets):
            for group, s in zip(groups, flat_sources):
                if s is raw and not any(x is t for x in group):
                    group.append(t)
        return groups

    def _graph_live(self):
        """While tracing: the ids of the tensors the tape can differentiate for:
        watched ones, Variable reads, and the outputs of recorded nodes that
        depend on them (a tensor computed from nothing watched is not a source)."""
        live = set(self._watched)
        for reads in self._reads.values():
            live.update(id(t) for t in reads)
        for node in self._records:
            if any(id(t) in live for t in node.inputs) or (self._accessed
                                                           and node.subgraph_list()):
                live.update(id(o) for o in node.outputs)
        return live

    def _check_usable(self):
        if self._used:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)")

    def _source_group(self, source, live=None):
        if _is_variable(source):
            if id(source) not in self._watched_vars:
                return []
            return list(self._reads.get(id(source), ()))
        if not isinstance(source, Tensor):
            raise TypeError(f"GradientTape.gradient: sources must be Tensors or Variables, got "
                            f"{source!r} of type {type(source).__name__}")
        source = self._own(source)
        if not _backprop.carries_gradient(source):
            warnings.warn(f"The dtype of the source tensor must be floating (e.g. tf.float32) "
                          f"when calling GradientTape.gradient, got {source.dtype!r}",
                          stacklevel=3)
            return []
        if id(source) not in (self._live if live is None else live):
            return []
        return [source]

    def _target_grads(self, target, targets, output_gradients):
        if output_gradients is None:
            return [_ones_like(t) for t in targets]
        weights = nest.flatten(output_gradients)
        if len(weights) != len(targets):
            raise ValueError(f"GradientTape.gradient: output_gradients has {len(weights)} "
                             f"values but target has {len(targets)}")
        out = []
        for t, w in zip(targets, weights):
            if w is None:
                raise ValueError("Attempt to convert a value (None) with an unsupported type "
                                 "(<class 'NoneType'>) to a Tensor.")
            out.append(convert_to_tensor(w, t.dtype) if not isinstance(w, Tensor) else w)
        return out

    def _backprop(self, targets, target_grads, groups, flat_sources):
        # A persistent tape still recording records its own gradient (higher order).
        variables = {id(s): i for i, s in enumerate(flat_sources)
                     if _is_variable(s) and id(s) in self._watched_vars}
        return _backprop.backprop(list(self._records), targets, target_grads, groups, variables)


class _Paused:
    __slots__ = ("tape",)

    def __init__(self, tape):
        self.tape = tape

    def __enter__(self):
        if not self.tape._recording:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self.tape._pop()

    def __exit__(self, *exc):
        self.tape._push()
        return False


def _source(value):
    """A gradient source: a Variable or tensor as it is, a tensor-like value
    (a tf.WeakTensor) as its tensor."""
    if isinstance(value, Tensor) or _is_variable(value) or not reads_as_tensor(value):
        return value
    return value._as_tensor()


def _unconnected(value):
    if isinstance(value, UnconnectedGradients):
        return value
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}") from None


def _differentiable(dtype):
    return dtype.is_floating or dtype.is_complex


def _as_target(t, integer_ok=False):
    """`t` as a tensor; one of another dtype than float or complex is a TypeError
    unless `integer_ok` (GradientTape.gradient: TF gives its sources None)."""
    if _is_variable(t) or (not isinstance(t, Tensor) and reads_as_tensor(t)):
        t = t._as_tensor()                  # a Variable's value; a tf.WeakTensor's tensor
    if not isinstance(t, Tensor):
        raise TypeError(f"GradientTape.gradient: the target must be a Tensor or Variable, got "
                        f"{t!r} of type {type(t).__name__}")
    if not (integer_ok or _differentiable(t.dtype)):
        raise TypeError(f"GradientTape.gradient: the target must be a floating-point tensor "
                        f"(e.g. tf.float32, or a complex one) to be differentiated, got a "
                        f"{t.dtype.name} tensor; "
                        "use tf.cast to make it a float")
    return t


def _ones_like(t):
    """The default output gradient: a constant when the shape is known."""
    if t.shape.is_fully_defined():
        return convert_to_tensor(np.ones(t.shape.dims, t.dtype.np_dtype))
    return apply("OnesLike", (t,), {"dtype": None})


def _zeros_for(source):
    if _is_variable(source):
        return convert_to_tensor(np.zeros(source.shape.dims, source.dtype.np_dtype))
    return _backprop.zeros_like(source)


def _shape_const(dims):
    return convert_to_tensor(np.array(dims, np.int32))


def _unconnected_value(grad, source, unconnected):
    if grad is not None or unconnected is UnconnectedGradients.NONE:
        return grad
    return _zeros_for(source)        # integer sources too (zeros of their dtype), as in TF


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """`tf.gradients`: symbolic gradients of `ys` for each of `xs`, inside a graph.

    Every op of the graph being traced counts (no tape needed), except that
    loops traced without a recording tape keep no per-iteration state and so
    have no gradient. Returns a list with one gradient (or None) per x.
    """
    graph = current_graph()
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    unconnected = _unconnected(unconnected_gradients)
    targets = [_as_target(y) for y in nest.flatten(ys)]
    sources = [graph.capture(x) if not (isinstance(x, SymbolicTensor) and x.graph is graph)
               else x for x in nest.flatten(xs)]
    weights = [None] * len(targets) if grad_ys is None else nest.flatten(grad_ys)
    target_grads = [_ones_like(t) if w is None else convert_to_tensor(w, t.dtype)
                    for t, w in zip(targets, weights)]
    records = list(graph.nodes)
    if stop_gradients is not None:
        stopped = {id(t) for t in nest.flatten(stop_gradients)}
        records = [n for n in records if not any(id(o) in stopped for o in n.outputs)]
    groups = [[x] if _backprop.carries_gradient(x) else [] for x in sources]
    found = _backprop.backprop(records, targets, target_grads, groups)
    return [_unconnected_value(g, x, unconnected) for g, x in zip(found, sources)]


class AggregationMethod:
    """`tf.AggregationMethod`: how `tf.gradients` adds the gradients reaching
    one tensor along several paths. Every method gives the same sums here
    (they differ in TF only in memory use)."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


def hessians(ys, xs, gate_gradients=False, aggregation_method=None, name="hessians"):
    """`tf.hessians`: for each x, the matrix of second derivatives of
    `sum(ys)`, shaped `x.shape + x.shape`; inside a graph only, as TF's.
    Each x needs a static shape (one gradient is built per element)."""
    if current_graph() is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    out = []
    for x in nest.flatten(xs):
        if not x.shape.is_fully_defined():
            raise ValueError(f"tf.hessians: {x.name} has shape {x.shape}; a static shape is "
                             "needed here (one gradient is built per element)")
        first = gradients(ys, x, aggregation_method=aggregation_method)[0]
        if first is None:
            out.append(None)
            continue
        flat = array_ops.reshape(first, [-1])
        rows = [gradients(flat[i], x)[0] for i in range(int(np.prod(x.shape.dims)))]
        rows = [_zeros_for(x) if r is None else r for r in rows]
        dims = list(x.shape.dims)
        out.append(array_ops.reshape(manipulation_ops.stack(rows), dims + dims))
    return out
