"""Which strategy a thread is under, and in which context.

    get_strategy()               # the innermost strategy.scope(), else the default
    has_strategy()               # False under the default strategy
    in_cross_replica_context()   # True inside strategy.scope(), outside strategy.run
    get_replica_context()        # the ReplicaContext inside strategy.run;
                                 # the default one outside any scope; None in
                                 # cross-replica context

Inside a replicated `strategy.run` (several replicas, traced for JAX) a
ReplicaContext's `replica_id_in_sync_group` is a `ReplicaId` op and its
`all_reduce` a `ReplicaAllReduce` op; their JAX rules are
`lax.axis_index` and `lax.psum` / `pmean` / `pmax` / `pmin` over the replica
axis of the `shard_map` (replicated.py). With one replica they are the
constant 0 and the value itself.
"""

import threading

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.nest import flatten, map_structure, pack_sequence_as
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.distribute import threaded as _threaded
from runtime._src.distribute.values import ReduceOp, reduce_op_of
from runtime._src.function import random_generator as _random_generator
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.jit import lower as _lower

__all__ = ["get_strategy", "has_strategy", "in_cross_replica_context", "get_replica_context",
           "ReplicaContext", "AXIS", "push", "pop", "default_strategy"]

AXIS = "replica"       # the name of the replica axis of the shard_map


class _Stack(threading.local):
    def __init__(self):
        self.entries = []      # (strategy, ReplicaContext or None: cross-replica)


_stack = _Stack()
_default = {}              # "strategy", "replica": set by strategy.py when it loads


def set_default_strategy(strategy):
    """The strategy outside any scope (strategy.py's `_DefaultStrategy`)."""
    _default["strategy"] = strategy
    _default["replica"] = ReplicaContext(strategy, 0)


def default_strategy():
    return _default["strategy"]


def push(strategy, replica_context):
    _stack.entries.append((strategy, replica_context))


def pop():
    _stack.entries.pop()


def get_strategy():
    """`tf.distribute.get_strategy`: the strategy of the innermost scope (the
    default strategy outside any)."""
    return _stack.entries[-1][0] if _stack.entries else default_strategy()


def has_strategy():
    """`tf.distribute.has_strategy`: inside a non-default strategy's scope or run."""
    return get_strategy() is not default_strategy()


def in_cross_replica_context():
    """`tf.distribute.in_cross_replica_context`: inside `strategy.scope()`
    and not inside `strategy.run`."""
    return bool(_stack.entries) and _stack.entries[-1][1] is None


def get_replica_context():
    """`tf.distribute.get_replica_context`: the ReplicaContext inside
    `strategy.run`, the default strategy's outside any scope, None in
    cross-replica context."""
    if not _stack.entries:
        return _default["replica"]
    return _stack.entries[-1][1]


class ReplicaContext:
    """`tf.distribute.ReplicaContext`: what the replica function of
    `strategy.run` knows of its replica and reaches the others through."""

    def __init__(self, strategy, replica_id_in_sync_group):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        """This replica's index (an int32 scalar tensor)."""
        if self._replica_id is None:          # a replicated trace: XLA's replica index
            return apply("ReplicaId", [], {})
        return convert_to_tensor(self._replica_id, dtypes.int32)

    @property
    def devices(self):
        return (self._strategy.extended.worker_devices[self._replica_id or 0],)

    def all_reduce(self, reduce_op, value, options=None):
        """The values of all replicas combined (SUM or MEAN), for every
        tensor of the nest `value`; every replica gets the result."""
        op = reduce_op_of(reduce_op)
        if self.num_replicas_in_sync == 1:
            return map_structure(convert_to_tensor, value)
        return map_structure(lambda v: apply("ReplicaAllReduce", [convert_to_tensor(v)],
                                             {"reduce_op": op.value}), value)

    def all_gather(self, value, axis, options=None):
        """Every replica's tensors of `value` concatenated along `axis`."""
        if self.num_replicas_in_sync == 1:
            return map_structure(convert_to_tensor, value)
        return map_structure(lambda v: apply("ReplicaAllGather", [convert_to_tensor(v)],
                                             {"axis": int(axis)}), value)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Call `merge_fn(strategy, *args, **kwargs)` (one program runs all
        replicas in step here, so its values are this replica's)."""
        push(self._strategy, None)
        try:
            return merge_fn(self._strategy, *args, **(kwargs or {}))
        finally:
            pop()

    def __repr__(self):
        return f"<tf.distribute.ReplicaContext replica {self._replica_id}>"


def all_reduce_list(reduce_op, tensors):
    """ReplicaAllReduce of each tensor of a flat list (the optimizer's
    gradient sum), nothing added with one replica."""
    ctx = get_replica_context()
    if ctx is None or ctx.num_replicas_in_sync == 1:
        return list(tensors)
    return pack_sequence_as(list(tensors), flatten(ctx.all_reduce(reduce_op, list(tensors))))


def _generator_strategy():
    return get_strategy() if has_strategy() else None


def _replica_id_in(strategy):
    ctx = get_replica_context()
    if ctx is None or ctx.strategy is not strategy:
        return None
    return ctx.replica_id_in_sync_group


def _replica_turn():
    ctx = get_replica_context()
    if ctx is None or ctx.num_replicas_in_sync == 1:
        return None
    return ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync


_random_generator.distribution.update(strategy=_generator_strategy, replica_id=_replica_id_in,
                                      replica=_replica_turn)


# --- the collective ops ---------------------------------------------------------------

def _same(inputs, attrs):
    return [(inputs[0].dtype, inputs[0].shape)]


def _gathered(inputs, attrs):
    shape = inputs[0].shape
    ctx = get_replica_context()
    if shape.rank is None or ctx is None:
        return [(inputs[0].dtype, TensorShape(None))]
    dims = list(shape.dims)
    axis = attrs["axis"] % len(dims)
    dims[axis] = None if dims[axis] is None else dims[axis] * ctx.num_replicas_in_sync
    return [(inputs[0].dtype, TensorShape(dims))]


# On the executor: one replica, or (threaded.py) a replica's thread.

@define_op("ReplicaAllReduce", infer=_same, stateful=True)
def _all_reduce_kernel(x, reduce_op):
    bound = _threaded.bound_replica()
    return x if bound is None else _threaded.all_reduce(*bound, x, reduce_op)


@define_grad("ReplicaAllReduce")
def _all_reduce_grad(op, grad):
    return [apply("ReplicaAllReduce", [grad], {"reduce_op": op.attrs["reduce_op"]})]


@define_op("ReplicaAllGather", infer=_gathered, stateful=True)
def _all_gather_kernel(x, axis):
    bound = _threaded.bound_replica()
    return x if bound is None else _threaded.all_gather(*bound, x, axis)


@define_op("ReplicaId", infer=lambda inputs, attrs: [(dtypes.int32, TensorShape([]))],
           stateful=True)
def _replica_id_kernel():
    bound = _threaded.bound_replica()
    return np.int32(0 if bound is None else bound[1].first + bound[0])


@_lower.rule("ReplicaAllReduce")
def _all_reduce_rule(node, ins):
    x = _lower.jnp.asarray(ins[0])
    if node.attrs["reduce_op"] == ReduceOp.MEAN.value:
        if x.dtype.kind in "iub":
            return _lower.lax.psum(x, AXIS) // _lower.lax.psum(1, AXIS)
        return _lower.lax.pmean(x, AXIS)
    return _lower.lax.psum(x, AXIS)


@_lower.rule("ReplicaAllGather")
def _all_gather_rule(node, ins):
    return _lower.lax.all_gather(_lower.jnp.asarray(ins[0]), AXIS, axis=node.attrs["axis"],
                                 tiled=True)


@_lower.rule("ReplicaId")
def _replica_id_rule(node, ins):
    return _lower.lax.axis_index(AXIS).astype(np.int32)

