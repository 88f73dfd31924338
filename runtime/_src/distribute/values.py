"""Distributed values and the small types of `tf.distribute`:
`PerReplica` (one value per replica, what `strategy.run` returns),
`ReduceOp`, `InputContext`, `InputReplicationMode` and `ValueContext`.

    per = strategy.run(step, args=(batch,))      # PerReplica:{0: ..., 1: ...}
    strategy.experimental_local_results(per)     # (tensor, tensor)

A PerReplica is a composite value (core/composite.py): it passes into and
out of a `tf.function` as its component tensors, one per replica.
"""

import enum

from runtime._src.core.composite import CompositeSpec
from runtime._src.core.dtypes import as_dtype
from runtime._src.core.tensor import Tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.function.variable_sync import VariableAggregation

__all__ = ["DistributedValues", "PerReplica", "PerReplicaSpec", "ReduceOp", "InputContext",
           "InputReplicationMode", "ValueContext", "local_values", "CrossDeviceOps",
           "ReductionToOneDevice", "HierarchicalCopyAllReduce", "NcclAllReduce",
           "CommunicationImplementation", "CommunicationOptions"]


class ReduceOp(enum.Enum):
    """`tf.distribute.ReduceOp`: how values of the replicas combine."""
    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation):
        """The ReduceOp of a `tf.VariableAggregation` (SUM or MEAN)."""
        found = {VariableAggregation.SUM: ReduceOp.SUM,
                 VariableAggregation.MEAN: ReduceOp.MEAN}.get(aggregation)
        if found is None:
            raise ValueError(f"Could not convert from `tf.VariableAggregation` {aggregation} "
                             "to`tf.distribute.ReduceOp` type")
        return found


def reduce_op_of(reduce_op):
    """A ReduceOp from a ReduceOp or its name ('SUM', 'MEAN')."""
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    if isinstance(reduce_op, str) and reduce_op.upper() in ("SUM", "MEAN"):
        return ReduceOp(reduce_op.upper())
    raise ValueError(f"reduce_op must be a tf.distribute.ReduceOp (SUM or MEAN), got "
                     f"{reduce_op!r}")


class DistributedValues:
    """`tf.distribute.DistributedValues`: one value per replica."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    def __repr__(self):
        inner = ",\n".join(f"  {i}: {v!s}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{inner}\n}}"

    __str__ = __repr__


class PerReplica(DistributedValues):
    """`PerReplica`: replica i's value is `values[i]`."""

    @property
    def _type_spec(self):
        if not all(isinstance(v, Tensor) for v in self._values):
            return None
        return PerReplicaSpec(*(TensorSpec(v.shape, v.dtype) for v in self._values))


class PerReplicaSpec(CompositeSpec):
    """The spec of a PerReplica of tensors: one TensorSpec per replica."""

    __slots__ = ("_specs",)

    def __init__(self, *value_specs):
        self._specs = tuple(value_specs)

    value_type = PerReplica

    @property
    def _component_specs(self):
        return list(self._specs)

    def _to_components(self, value):
        return list(value.values)

    def _from_components(self, components):
        return PerReplica(components)

    def _serialize(self):
        return tuple(x for s in self._specs for x in (TensorShape(s.shape), as_dtype(s.dtype)))

    @classmethod
    def _deserialize(cls, fields):
        return cls(*(TensorSpec(fields[i], fields[i + 1]) for i in range(0, len(fields), 2)))

    def __repr__(self):
        return f"PerReplicaSpec({', '.join(repr(s) for s in self._specs)})"


def local_values(value):
    """The per-replica values of `value` (a tuple of one for anything else)."""
    return value.values if isinstance(value, DistributedValues) else (value,)


class InputReplicationMode(enum.Enum):
    """`tf.distribute.InputReplicationMode`: one input pipeline per worker
    (PER_WORKER) or per replica (PER_REPLICA)."""
    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputContext:
    """`tf.distribute.InputContext`: what a `dataset_fn` of
    `distribute_datasets_from_function` learns about its input pipeline."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def num_replicas_in_sync(self):
        return self._num_replicas_in_sync

    @property
    def input_pipeline_id(self):
        return self._input_pipeline_id

    @property
    def num_input_pipelines(self):
        return self._num_input_pipelines

    def get_per_replica_batch_size(self, global_batch_size):
        """global_batch_size / num_replicas_in_sync (ValueError, as TF, when
        it does not divide)."""
        if global_batch_size % self._num_replicas_in_sync != 0:
            raise ValueError(f"The `global_batch_size` {global_batch_size!r} is not divisible "
                             f"by `num_replicas_in_sync` {self._num_replicas_in_sync!r}")
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self):
        return (f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, "
                f"total: {self._num_input_pipelines})")

    __repr__ = __str__


class ValueContext:
    """`tf.distribute.experimental.ValueContext`: what a `value_fn` of
    `experimental_distribute_values_from_function` learns about its replica."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self._replica_id = replica_id_in_sync_group
        self._num_replicas = num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        return self._replica_id

    @property
    def num_replicas_in_sync(self):
        return self._num_replicas

    def __str__(self):
        return (f"tf.distribute.ValueContext(replica id {self._replica_id},  total replicas "
                f"in sync: {self._num_replicas})")

    __repr__ = __str__


class CrossDeviceOps:
    """`tf.distribute.CrossDeviceOps`: how MirroredStrategy all-reduces.
    Here XLA's all-reduce always does (the choice is accepted and kept)."""

    def __init__(self, *args, **kwargs):
        self._args, self._kwargs = args, kwargs


class ReductionToOneDevice(CrossDeviceOps):
    """`tf.distribute.ReductionToOneDevice(reduce_to_device=None, accumulation_fn=None)`."""


class HierarchicalCopyAllReduce(CrossDeviceOps):
    """`tf.distribute.HierarchicalCopyAllReduce(num_packs=1)`."""


class NcclAllReduce(CrossDeviceOps):
    """`tf.distribute.NcclAllReduce(num_packs=1)`."""


class CommunicationImplementation(enum.Enum):
    """`tf.distribute.experimental.CommunicationImplementation`."""
    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


class CommunicationOptions:
    """`tf.distribute.experimental.CommunicationOptions(bytes_per_pack=0,
    timeout_seconds=None, implementation=AUTO)`: kept; XLA's collectives run."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None,
                 implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"bytes_per_pack must be non-negative, got {bytes_per_pack}")
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation
