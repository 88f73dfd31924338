"""The strategies: the default one, `OneDeviceStrategy` and
`MirroredStrategy` (one replica per device of one machine).

    strategy = MirroredStrategy()              # every logical CPU (or GPU)
    with strategy.scope():
        model = ...; optimizer = ...           # Variables: mirrored
    per_replica = strategy.run(step, args=(dist_batch,))
    loss = strategy.reduce("SUM", per_replica, axis=None)

With one replica `run` calls the function in a ReplicaContext and returns
its result; with several, the function runs as one XLA program over the
devices (replicated.py), and the result is PerReplica values.
"""

import contextlib
import functools
import importlib.util

from runtime._src.core import devices as _devices
from runtime._src.core.device_config import cpu_device_count
from runtime._src.core.nest import map_structure
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.distribute import context as _ctx
from runtime._src.distribute.values import (DistributedValues, PerReplica, ReduceOp,
                                            ValueContext, local_values, reduce_op_of)
from runtime._src.distribute.variables import make_distributed_variable
from runtime._src.function.variable_creator import variable_creator_scope
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["Strategy", "StrategyExtended", "OneDeviceStrategy", "MirroredStrategy",
           "CentralStorageStrategy", "require_jax"]

_HOST = "/job:localhost/replica:0/task:0"


def require_jax(what):
    """ImportError naming the extra when JAX is not installed."""
    try:
        found = importlib.util.find_spec("jax") is not None
    except ImportError:
        found = False
    if not found:
        raise ImportError(f"{what} runs its replicas on JAX's devices, and JAX is not "
                          "installed: pip install 'autograph-runtime[jax]'")


def _full_name(spec):
    """'/job:localhost/replica:0/task:0/device:CPU:1' for 'cpu:1' (a device
    this process lacks is accepted, as TF: `run` says when it needs it)."""
    name = _devices.canonical_device(spec)
    kind, index = name.rsplit("/", 1)[-1].split(":")[1:]
    return f"{_HOST}/device:{kind}:{index}"


class StrategyExtended:
    """`tf.distribute.StrategyExtended`: the strategy's devices."""

    def __init__(self, strategy, devices):
        self._container_strategy = strategy
        self._devices = tuple(devices)

    @property
    def worker_devices(self):
        return self._devices

    @property
    def parameter_devices(self):
        return self._devices

    def update(self, var, fn, args=(), kwargs=None, group=True):
        """Run `fn(var, *args, **kwargs)` (the one copy of a mirrored variable)."""
        return fn(var, *args, **(kwargs or {}))

    def value_container(self, value):
        return value


class Strategy:
    """`tf.distribute.Strategy`: runs a function on each of its replicas."""

    def __init__(self, devices):
        self._extended = StrategyExtended(self, devices)
        self._traces = {}

    @property
    def _local_replicas(self):
        """The replicas this process runs (all of them but in multi-worker)."""
        return self.num_replicas_in_sync

    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self):
        return len(self._extended.worker_devices)

    @property
    def cluster_resolver(self):
        return None

    _MIRRORS_VARIABLES = False     # tf.Variable(...) in scope(): a MirroredVariable

    @contextlib.contextmanager
    def scope(self):
        """Variables made inside are this strategy's; `get_strategy()` is it."""
        _ctx.push(self, None)
        try:
            if self._MIRRORS_VARIABLES:
                with variable_creator_scope(functools.partial(make_distributed_variable, self)):
                    yield self
            else:
                yield self
        finally:
            _ctx.pop()

    def run(self, fn, args=(), kwargs=None, options=None):
        """fn(*args, **kwargs) on every replica: a PerReplica per result
        tensor (with one replica, fn's result itself)."""
        if not callable(fn):
            raise TypeError(f"strategy.run: fn must be callable, got {fn!r}")
        if self.num_replicas_in_sync > 1:
            from runtime._src.distribute.replicated import run_replicated
            return run_replicated(self, fn, args, kwargs)
        args = map_structure(_only_value, tuple(args))
        kwargs = map_structure(_only_value, dict(kwargs or {}))
        _ctx.push(self, _ctx.ReplicaContext(self, 0))
        try:
            return fn(*args, **kwargs)
        finally:
            _ctx.pop()

    def experimental_local_results(self, value):
        """The replicas' values of each leaf of `value` (a tuple per replica)."""
        leaves = value if isinstance(value, DistributedValues) else None
        if leaves is not None:
            return leaves.values
        if isinstance(value, (list, tuple, dict)):
            per = [map_structure(lambda v, i=i: local_values(v)[min(i, len(local_values(v)) - 1)],
                                 value) for i in range(self.num_replicas_in_sync)]
            return tuple(per)
        return (value,)

    def reduce(self, reduce_op, value, axis=None):
        """The replicas' values combined: SUM or MEAN over replicas and, with
        `axis`, along that axis of each value too."""
        op = reduce_op_of(reduce_op)
        return map_structure(lambda v: self._reduce_one(op, v, axis), value)

    def _reduce_one(self, op, value, axis):
        if not isinstance(value, DistributedValues):
            if self.num_replicas_in_sync > 1 and op is ReduceOp.SUM:
                raise ValueError(f"A non-DistributedValues value {value!r} cannot be "
                                 f"reduced with the given reduce op {op}.")
            value = PerReplica((value,))
        values = [convert_to_tensor(v) for v in value.values]
        if axis is None:
            total = math_ops.add_n(values) if len(values) > 1 else values[0]
            return total if op is ReduceOp.SUM else total / len(values)
        total = math_ops.add_n([reduction_ops.reduce_sum(v, axis=axis) for v in values])
        if op is ReduceOp.SUM:
            return total
        count = math_ops.add_n([array_ops.shape(v)[axis] for v in values])
        return total / math_ops.cast(count, total.dtype)

    def gather(self, value, axis):
        """The replicas' values of each leaf concatenated along `axis`."""
        return map_structure(
            lambda v: array_ops.concat([convert_to_tensor(x) for x in local_values(v)], axis)
            if isinstance(v, DistributedValues) else convert_to_tensor(v), value)

    def experimental_distribute_dataset(self, dataset, options=None):
        """A dataset whose every global batch is split across the replicas."""
        from runtime._src.distribute.input import DistributedDataset
        return DistributedDataset(self, dataset)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """`dataset_fn(InputContext)` gives per-replica batches; each step
        gives each replica the next one."""
        from runtime._src.distribute.input import DistributedDatasetsFromFunction
        return DistributedDatasetsFromFunction(self, dataset_fn)

    def experimental_distribute_values_from_function(self, value_fn):
        """PerReplica of value_fn(ValueContext) for each replica."""
        n = self.num_replicas_in_sync
        values = [value_fn(ValueContext(i, n)) for i in range(n)]
        return values[0] if n == 1 else PerReplica(values)

    def _jax_devices(self):
        """The JAX devices of the replicas, in order."""
        from runtime._src.jit.lower import load_jax
        jax = load_jax()
        out = []
        for name in self._extended.worker_devices:
            kind, index = name.rsplit("/", 1)[-1].split(":")[1:]
            try:
                found = jax.devices(kind.lower())
            except RuntimeError:
                found = []
            if int(index) >= len(found):
                raise ValueError(
                    f"{type(self).__name__}: no device {name!r} to run a replica on: JAX has "
                    f"{len(found)} {kind} device(s); split the CPU with "
                    "tf.config.set_logical_device_configuration before JAX's first use")
            out.append(found[int(index)])
        return out


def _only_value(value):
    if isinstance(value, DistributedValues):
        return value.values[0]
    return value


class _DefaultStrategy(Strategy):
    """The strategy outside any scope: one replica on the current device."""

    def __init__(self):
        super().__init__([f"{_HOST}/device:CPU:0"])

    @contextlib.contextmanager
    def scope(self):
        yield self


_ctx.set_default_strategy(_DefaultStrategy())


class OneDeviceStrategy(Strategy):
    """`tf.distribute.OneDeviceStrategy(device)`: one replica on `device`."""

    def __init__(self, device):
        super().__init__([_full_name(device)])


class MirroredStrategy(Strategy):
    """`tf.distribute.MirroredStrategy(devices=None)`: a replica per device
    (default: every logical GPU, else every logical CPU), Variables mirrored,
    gradients all-reduced (XLA's all-reduce over JAX's devices)."""

    _MIRRORS_VARIABLES = True

    def __init__(self, devices=None, cross_device_ops=None):
        require_jax(type(self).__name__)
        if devices is None:
            kind = "GPU" if _devices.list_logical_devices("GPU") else "CPU"
            devices = [d.name for d in _devices.list_logical_devices(kind)]
        elif isinstance(devices, str):
            devices = [devices]
        devices = [_full_name(d) for d in devices]
        if not devices:
            raise ValueError("MirroredStrategy: devices must not be empty")
        if len(set(devices)) != len(devices):
            raise ValueError(f"MirroredStrategy: a device is given twice in {devices}")
        super().__init__(devices)
        self._cpu_count = cpu_device_count()
        self._cross_device_ops = cross_device_ops


class CentralStorageStrategy(MirroredStrategy):
    """`tf.distribute.experimental.CentralStorageStrategy(compute_devices=None,
    parameter_device=None)`: replicas on the compute devices, Variables on one
    device. Here every Variable is one value already, so it computes as
    MirroredStrategy does."""

    _MIRRORS_VARIABLES = False

    def __init__(self, compute_devices=None, parameter_device=None):
        super().__init__(compute_devices)
