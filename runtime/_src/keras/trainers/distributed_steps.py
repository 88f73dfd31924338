"""`fit` / `evaluate` / `predict` under a tf.distribute strategy's scope:
each batch is split across the replicas, the step runs as `strategy.run`
(one XLA program over the devices: runtime/_src/distribute), the
gradients are all-reduced by the optimizer and the loss scaled by 1 /
replicas for them (Keras 3's `scale_loss_for_distribution`), so a step
gives the single-device weights.

    step = distributed_step(strategy, run_step, kind, single)
    logs = step(x, y)         # the metrics' results (one set: replica 0's)

The metrics' variables add up across replicas (aggregation SUM), so every
replica's results are the global ones. A batch the replicas cannot share
evenly (the last, smaller one) runs unsplit on one replica, which computes
the same step.
"""

import numpy as np

from runtime._src.core import nest
from runtime._src.core.tensor import EagerTensor, convert_to_tensor
from runtime._src.distribute import context as _dist
from runtime._src.distribute.values import PerReplica
from runtime._src.ops import array_ops

__all__ = ["distributed_step", "replicas_in_sync", "strategy_of_scope"]


def strategy_of_scope():
    """The strategy whose scope `compile` runs in (None: the default)."""
    return _dist.get_strategy() if _dist.has_strategy() else None


def replicas_in_sync():
    """The number of replicas the current step runs on (1 outside strategy.run)."""
    ctx = _dist.get_replica_context()
    return 1 if ctx is None else ctx.num_replicas_in_sync


def distributed_step(strategy, step, kind, single):
    """The step function over the replicas of `strategy`; `single` runs a
    batch that does not split evenly."""
    n = strategy.num_replicas_in_sync
    local = strategy._local_replicas                   # multi-worker: this worker's
    first = getattr(strategy, "_worker", 0) * local

    def run(*arrays):
        batch = _batch_size(arrays)
        if batch is None or batch % n:
            return single(*arrays)
        per = [nest.map_structure(lambda a: _split(a, n, first, local), a) for a in arrays]
        outs = strategy.run(step, args=tuple(per))
        if kind == "predict" and local < n:          # every worker's rows, in order
            return strategy.gather(outs, 0)
        if kind == "predict":
            return nest.map_structure(
                lambda v: array_ops.concat(list(v.values), 0) if isinstance(v, PerReplica)
                else v, outs)
        return nest.map_structure(
            lambda v: v.values[0] if isinstance(v, PerReplica) else v, outs)
    run.__name__ = f"{kind}_function"
    return run


def _batch_size(arrays):
    for leaf in nest.flatten(arrays):
        shape = np.shape(leaf._value if isinstance(leaf, EagerTensor) else leaf)
        if shape:
            return shape[0]
    return None


def _split(array, n, first, local):
    """Replicas first .. first + local - 1's parts of a batch of n equal parts."""
    t = convert_to_tensor(array)
    value = t._value
    size = len(value) // n
    return PerReplica([EagerTensor(value[i * size:(i + 1) * size], t.dtype)
                       for i in range(first, first + local)])
