"""`tf.distribute.MultiWorkerMirroredStrategy`: MirroredStrategy across
processes (machines), on JAX's distributed runtime.

    os.environ["TF_CONFIG"] = json.dumps({
        "cluster": {"worker": ["host1:12345", "host2:12345"]},
        "task": {"type": "worker", "index": 0}})
    strategy = tf.distribute.MultiWorkerMirroredStrategy()

The strategy reads TF_CONFIG (a "chief" job, if any, comes first: its task
is process 0), starts `jax.distributed` with the first task's address as
coordinator (CPU collectives through gloo) and puts one replica on each
device of each process: `num_replicas_in_sync` counts them all, a
PerReplica holds this process's replicas. A distributed dataset gives this
worker its replicas' slices of each global batch (every worker reads the
whole dataset); `reduce` and `gather` combine the replicas of all workers.
Keras `fit` splits each batch the same way; `predict` gathers every worker's
rows.
"""

import json
import os

from runtime._src.core.nest import map_structure
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.distribute import context as _ctx
from runtime._src.distribute.strategy import Strategy, require_jax
from runtime._src.distribute.values import DistributedValues, ReduceOp, reduce_op_of
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["MultiWorkerMirroredStrategy", "cluster_of"]

_started = {}


def cluster_of(tf_config):
    """(addresses, process id) of a TF_CONFIG (dict or JSON text)."""
    config = json.loads(tf_config) if isinstance(tf_config, str) else dict(tf_config)
    cluster = config.get("cluster") or {}
    task = config.get("task") or {}
    jobs = [j for j in ("chief", "worker") if cluster.get(j)]
    unknown = set(cluster) - {"chief", "worker", "evaluator"}
    if unknown:
        raise ValueError(f"MultiWorkerMirroredStrategy: TF_CONFIG's cluster has job(s) "
                         f"{sorted(unknown)}; only 'chief' and 'worker' take part")
    addresses, ids = [], {}
    for job in jobs:
        for i, address in enumerate(cluster[job]):
            ids[(job, i)] = len(addresses)
            addresses.append(address)
    key = (task.get("type"), int(task.get("index", 0)))
    if addresses and key not in ids:
        raise ValueError(f"MultiWorkerMirroredStrategy: TF_CONFIG's task {task} is not in "
                         f"its cluster {cluster}")
    return addresses, ids.get(key, 0)


def _start(jax, addresses, process_id):
    """jax.distributed over the cluster (once per process)."""
    if _started:
        if _started["cluster"] != (tuple(addresses), process_id):
            raise RuntimeError("MultiWorkerMirroredStrategy: the cluster cannot change "
                               "once JAX's distributed runtime has started")
        return
    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(coordinator_address=addresses[0],
                               num_processes=len(addresses), process_id=process_id)
    _started["cluster"] = (tuple(addresses), process_id)


class MultiWorkerMirroredStrategy(Strategy):
    """`tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=None,
    communication_options=None)`: a replica per device of every worker of
    TF_CONFIG's cluster (one worker without it)."""

    _MIRRORS_VARIABLES = True

    def __init__(self, cluster_resolver=None, communication_options=None):
        require_jax(type(self).__name__)
        from runtime._src.jit.lower import load_jax
        addresses, process_id = cluster_of(os.environ.get("TF_CONFIG") or "{}")
        import jax
        if len(addresses) > 1:
            _start(jax, addresses, process_id)
        jax = load_jax()
        self._jax_all = list(jax.devices("cpu") if jax.default_backend() == "cpu"
                             else jax.devices())
        self._local_count = sum(1 for d in self._jax_all
                                if d.process_index == jax.process_index())
        self._worker = process_id
        self._workers = max(len(addresses), 1)
        names = [f"/job:worker/replica:0/task:{d.process_index}/device:"
                 f"{d.platform.upper()}:{d.id % 2048}" for d in self._jax_all]
        super().__init__(names)

    @property
    def _local_replicas(self):
        return self._local_count

    def _jax_devices(self):
        return self._jax_all

    @property
    def cluster_resolver(self):
        return None

    def experimental_local_results(self, value):
        return super().experimental_local_results(value)

    def reduce(self, reduce_op, value, axis=None):
        """The values of every worker's replicas combined (an all-reduce)."""
        op = reduce_op_of(reduce_op)
        return map_structure(lambda v: self._reduce_all(op, v, axis), value)

    def _reduce_all(self, op, value, axis):
        if not isinstance(value, DistributedValues):
            return super()._reduce_one(op, value, axis)

        def combine(v):
            ctx = _ctx.get_replica_context()
            v = convert_to_tensor(v)
            if axis is None:
                return ctx.all_reduce(op, v)
            total = ctx.all_reduce("SUM", reduction_ops.reduce_sum(v, axis=axis))
            if op is ReduceOp.SUM:
                return total
            count = ctx.all_reduce("SUM", math_ops.cast(array_ops.shape(v)[axis], v.dtype))
            return total / count
        return self.run(combine, args=(value,)).values[0]

    def gather(self, value, axis):
        """Every worker's replicas' values concatenated along `axis`."""
        def gathered(v):
            if not isinstance(v, DistributedValues):
                return convert_to_tensor(v)
            out = self.run(lambda x: _ctx.get_replica_context().all_gather(x, axis),
                           args=(v,))
            return out.values[0]
        return map_structure(gathered, value)
