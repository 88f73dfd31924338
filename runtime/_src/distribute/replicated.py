"""`strategy.run(fn, args)` over several replicas, on JAX's SPMD engine.

    traced = trace(strategy, fn, structure, specs)    # fn as one graph, once
    outputs = traced.program.run(feeds)               # one XLA program, N devices

The replica function is traced once per argument signature into a graph
(with the strategy's ReplicaContext current, so `all_reduce` and
`replica_id_in_sync_group` are the collective ops of context.py), lowered
to JAX by the `jit_compile=True` path (runtime/_src/jit) and run by
`jax.shard_map` over a mesh of the strategy's devices: each device gets its
replica's slice of the stacked arguments and the Variables' values
(replicated), and XLA's collectives carry the all-reduces.

Variables: a MirroredVariable (and any other Variable) is one value every
replica reads, and a write combines the replicas' values as the Variable's
`aggregation` says (`combine_write`: SUM / MEAN of the new values for
`assign`, of the deltas for `assign_add`/`assign_sub`; ONLY_FIRST_REPLICA:
replica 0's; NONE on a plain tf.Variable: the deltas summed, replica 0's
`assign`), so the value written back is one. A SyncOnReadVariable, or a
MirroredVariable of aggregation NONE, is a value per replica (its copies
stacked, split over the replica axis): each replica reads and writes its own
copy (variables.py).

Called while another function is traced, `run` adds one `ReplicatedRun`
node to that graph, whose kernel runs the program.
"""

import numpy as np

from runtime._src.core import nest
from runtime._src.core.context import current_graph, init_scope
from runtime._src.core.tensor import EagerTensor, Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.distribute import context as _ctx
from runtime._src.distribute.threaded import ThreadedProgram, shapes_across, write_rule
from runtime._src.distribute.values import PerReplica
from runtime._src.function.concrete_function import _capture_value
from runtime._src.function.function import Function, _autograph_convert, function
from runtime._src.function.variable_sync import VariableAggregation
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.jit import lower as _lower
from runtime._src.jit.program import JitProgram, unsupported_ops

__all__ = ["run_replicated"]

_TENSOR = object()      # a template slot fed a tensor
_MAX_TRACES = 64        # traced replica functions a strategy keeps


def run_replicated(strategy, fn, args, kwargs):
    """`strategy.run(fn, args, kwargs)` for several replicas: a PerReplica
    for each tensor of fn's result."""
    structure = (tuple(args), dict(kwargs or {}))
    n = strategy._local_replicas        # this process's replicas (all but in multi-worker)
    template, feeds = [], []
    for leaf in nest.flatten(structure):
        if isinstance(leaf, PerReplica):
            if len(leaf.values) != n:
                raise ValueError(f"strategy.run: a PerReplica of {len(leaf.values)} values "
                                 f"given to a strategy of {n} replicas")
            feeds.append([convert_to_tensor(v) for v in leaf.values])
        elif isinstance(leaf, (Tensor, np.ndarray)) or hasattr(leaf, "_as_tensor"):
            feeds.append([convert_to_tensor(leaf)] * n)
        else:
            template.append(leaf)
            continue
        template.append(_TENSOR)
    specs = tuple(_spec_of(values) for values in feeds)
    eager = current_graph() is None
    if eager and getattr(strategy, "_workers", 1) > 1:     # as every worker decides
        everyone = shapes_across([[tuple(v.shape.dims) for v in values] for values in feeds])
        specs = tuple(TensorSpec(_common_shape(per), spec.dtype)
                      for per, spec in zip(everyone, specs))
        uneven = _uneven_of(everyone)
    else:
        uneven = _uneven(feeds, specs)
    key = (fn, repr(template), specs, bool(uneven))
    traced = strategy._traces.get(key)
    if traced is None:
        if len(strategy._traces) >= _MAX_TRACES:      # a new lambda per call: keep the last
            del strategy._traces[next(iter(strategy._traces))]
        traced = strategy._traces[key] = _Traced(strategy, fn, structure, template, specs,
                                                 uneven)
    if eager:
        outs = traced.program.run([[t._value for t in values] for values in feeds], uneven)
        outs = [[EagerTensor(v, t.dtype) for v in per] for per, t in
                zip(outs, traced.program.outputs)]
    else:
        flat = apply("ReplicatedRun", [t for values in feeds for t in values],
                     {"program": traced.program})
        flat = list(flat) if isinstance(flat, (list, tuple)) else [flat]
        outs = [flat[j * n:(j + 1) * n] for j in range(len(traced.program.outputs))]
    return traced.pack([PerReplica(values) for values in outs])


def _spec_of(values):
    """The TensorSpec the replica function is traced with: the values' own
    one, or (an uneven batch: shapes that differ) the most specific shape
    they all have."""
    first = values[0]
    shape = first.shape
    for v in values[1:]:
        if v.dtype != first.dtype:
            raise ValueError(f"strategy.run: the replicas' values differ in dtype "
                             f"({first.dtype.name} and {v.dtype.name})")
        if v.shape != shape:
            shape = shape.most_specific_compatible_shape(v.shape)
    return TensorSpec(shape, first.dtype)


def _uneven(feeds, specs):
    """What makes the replicas' shapes differ ('' when nothing does)."""
    for values, spec in zip(feeds, specs):
        if spec.shape != values[0].shape:
            return _uneven_message([tuple(v.shape.dims) for v in values])
    return ""


def _common_shape(shapes):
    """The most specific shape every one of `shapes` has."""
    common = TensorShape(shapes[0])
    for shape in shapes[1:]:
        common = common.most_specific_compatible_shape(TensorShape(shape))
    return common


def _uneven_of(shapes):
    """`shapes`: per argument, every replica's shape. What makes them differ
    ('' when nothing does)."""
    for per in shapes:
        if any(shape != per[0] for shape in per[1:]):
            return _uneven_message(per)
    return ""


def _uneven_message(sizes):
    return (f"the replicas' inputs have different shapes {sizes} (a global batch that "
            "does not divide by the number of replicas)")


class _Traced:
    """fn traced once for one argument signature, and its ReplicaProgram."""

    def __init__(self, strategy, fn, structure, template, specs, uneven):
        body = fn if isinstance(fn, Function) else _converted(fn)
        self.result = None

        def flat(*tensors):
            it = iter(tensors)
            a, kw = nest.pack_sequence_as(
                structure, [next(it) if t is _TENSOR else t for t in template])
            _ctx.push(strategy, _ctx.ReplicaContext(strategy, None))
            try:
                result = body(*a, **kw)
            finally:
                _ctx.pop()
            self.result = result
            return [convert_to_tensor(x) for x in nest.flatten(result) if _is_tensor(x)]

        name = getattr(fn, "__name__", type(fn).__name__)
        with init_scope():
            concrete = function(flat, autograph=False, name=name).get_concrete_function(*specs)
        missing = unsupported_ops(concrete._run_graph)
        if missing or uneven:
            reason = uneven or ("it uses op(s) with no XLA lowering: "
                                + ", ".join(op for op, _ in missing))
            self.program = ThreadedProgram(concrete, strategy, reason)
        else:
            self.program = ReplicaProgram(concrete, strategy)

    def pack(self, per_replica):
        """fn's result with a PerReplica for each tensor (other values, the
        same on every replica, as they are)."""
        it = iter(per_replica)
        leaves = [next(it) if _is_tensor(x) else x for x in nest.flatten(self.result)]
        return nest.pack_sequence_as(self.result, leaves)


def _is_tensor(value):
    return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


def _converted(fn):
    try:
        return _autograph_convert(fn)
    except Exception:  # noqa: BLE001 - a callable autograph cannot take is traced as it is
        return fn


class ReplicaProgram:
    """A replica function's graph lowered to JAX and run with `shard_map`."""

    def __init__(self, concrete, strategy):
        graph = concrete._run_graph
        self.jit = JitProgram(graph, concrete.name)
        self.jit.combine_write = _combine_write
        self._concrete, self._strategy, self._threaded = concrete, strategy, None
        self.captures = concrete._capture_sources
        self.outputs = list(graph.outputs)
        self.devices = strategy._jax_devices()
        self.local = strategy._local_replicas
        self._fn = None
        self._host = [None] * len(self.jit.variables)
        self._device = [None] * len(self.jit.variables)
        # Per Variable: True when each replica keeps its own copy (variables.py).
        self._local_state = [bool(getattr(v, "per_replica", False)) for v in self.jit.variables]

    def _compile(self):
        jax = _lower.load_jax()
        from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
        mesh = Mesh(np.array(self.devices), (_ctx.AXIS,))
        lowered, local = self.jit._lowered, self._local_state
        written_local = [local[i] for i in self.jit.written]

        def body(args, captured, shared, own):
            shared, own = iter(shared), iter(own)
            state = [next(own)[0] if per else next(shared) for per in local]
            outs, written = lowered([a[0] for a in args] + list(captured), state)
            return ([o[None] for o in outs],
                    [w for w, per in zip(written, written_local) if not per],
                    [w[None] for w, per in zip(written, written_local) if per])

        self._jax = jax
        self._replicated = NamedSharding(mesh, P())
        self._split = NamedSharding(mesh, P(_ctx.AXIS))
        self._processes = jax.process_count()
        split = P(_ctx.AXIS)
        self._fn = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=(split, P(), P(), split),
                                         out_specs=(split, P(), split), check_vma=False))

    def run(self, feeds, uneven=None):
        """`feeds`: per argument tensor, the replicas' numpy values. Returns
        per output, the replicas' numpy values; writes the Variables. Values
        of different shapes (an uneven batch met inside a tf.function, whose
        trace knew no row counts) run a thread per replica (threaded.py);
        `uneven`: what the caller found of that already."""
        if uneven is None:
            uneven = self._uneven(feeds)
        if uneven:
            if self._threaded is None:
                self._threaded = ThreadedProgram(self._concrete, self._strategy, uneven)
            return self._threaded.run(feeds)
        if self._fn is None:
            self._compile()
        jax = self._jax
        stacked = [self._sharded(np.stack(values)) for values in feeds]
        captured = [self._everywhere(_capture_value(c)) for c in self.captures]
        with jax.enable_x64(True):
            shared, own = self._state()
            outs, written_shared, written_own = self._fn(stacked, captured, shared, own)
        self._write_back(iter(written_shared), iter(written_own))
        return [self._local_values(o) for o in outs]

    def _uneven(self, feeds):
        """What makes the replicas' shapes differ ('' when nothing does):
        with several workers, every worker's replicas' shapes."""
        shapes = [[np.shape(v) for v in values] for values in feeds]
        if getattr(self._strategy, "_workers", 1) > 1:    # as every worker decides
            shapes = shapes_across(shapes)
        return _uneven_of(shapes)

    def _state(self):
        """The Variables' device values: one for a mirrored Variable, the
        replicas' copies stacked for a per-replica one (each only when its
        host value changed since the last run)."""
        shared, own = [], []
        for i, v in enumerate(self.jit.variables):
            per = self._local_state[i]
            key = _host_key(v, per)
            if self._host[i] is not key:
                self._host[i] = key
                self._device[i] = (self._per_device(np.stack(v._replica_values())) if per
                                   else self._everywhere(v._value))
            (own if per else shared).append(self._device[i])
        return shared, own

    def _write_back(self, written_shared, written_own):
        variables = self.jit.variables
        for i in self.jit.written:
            v = variables[i]
            if self._local_state[i]:
                value = next(written_own)
                v._set_copies(self._local_values(value))
            else:
                value = next(written_shared)
                v._write(np.asarray(value.addressable_data(0)))
            self._host[i], self._device[i] = _host_key(v, self._local_state[i]), value

    # One process: arrays placed on its devices. Several (multi-worker):
    # global arrays each process gives its replicas' part of.

    def _sharded(self, stacked):
        if self._processes == 1:
            return stacked
        shape = (len(self.devices),) + stacked.shape[1:]
        return self._jax.make_array_from_process_local_data(self._split, stacked, shape)

    def _per_device(self, stacked):
        if self._processes == 1:
            return self._jax.device_put(stacked, self._split)
        return self._sharded(stacked)

    def _everywhere(self, value):
        if self._processes == 1:
            return self._jax.device_put(value, self._replicated)
        return self._jax.make_array_from_process_local_data(self._replicated, np.asarray(value))

    def _local_values(self, out):
        if self._processes == 1:
            return list(np.asarray(out))
        shards = sorted(out.addressable_shards, key=lambda s: s.index[0].start)
        return [np.asarray(s.data)[0] for s in shards]


def _host_key(variable, per_replica):
    """What a Variable's device value was made from (compared by identity)."""
    if per_replica:
        return variable._copies if variable._copies is not None else variable._primary()
    return variable._value


def _combine_write(node, old, new):
    """The value all replicas write, from each replica's `new` (see the
    module docstring); a per-replica Variable's replica keeps its own."""
    variable = node.attrs["variable"]
    if getattr(variable, "per_replica", False):
        return new
    aggregation = write_rule(variable, node.op)
    if aggregation == "first":
        return new
    lax, jnp = _lower.lax, _lower.jnp
    base, delta = (0, new) if node.op == "AssignVariableOp" else (old, new - old)
    if aggregation is VariableAggregation.SUM:
        combined = lax.psum(delta, _ctx.AXIS)
    elif aggregation is VariableAggregation.MEAN and delta.dtype.kind in "iub":
        combined = lax.psum(delta, _ctx.AXIS) // lax.psum(1, _ctx.AXIS)
    elif aggregation is VariableAggregation.MEAN:
        combined = lax.pmean(delta, _ctx.AXIS)
    else:
        first = lax.axis_index(_ctx.AXIS) == 0
        combined = lax.psum(jnp.where(first, delta, jnp.zeros_like(delta)), _ctx.AXIS)
    return jnp.asarray(base + combined, new.dtype)


def _infer_run(inputs, attrs):
    program = attrs["program"]
    n = program.local
    return [(t.dtype, t.shape) for t in program.outputs for _ in range(n)]


@define_op("ReplicatedRun", infer=_infer_run, side_effect=True, num_outputs=None)
def _replicated_run(*values, program):
    n = program.local
    feeds = [list(values[i:i + n]) for i in range(0, len(values), n)]
    return tuple(v for per in program.run(feeds) for v in per)


not_differentiable("ReplicatedRun")
