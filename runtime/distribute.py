"""`tf.distribute`: a training step run on several devices at once
(defined in runtime/_src/distribute/; the replicas run as one XLA program
over JAX's devices, so MirroredStrategy needs the `[jax]` extra).

    >>> import runtime as tf
    >>> cpu = tf.config.list_physical_devices("CPU")[0]
    >>> tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    >>> strategy = tf.distribute.MirroredStrategy()     # 4 replicas
    >>> with strategy.scope():
    ...     model = tf.keras.Sequential([...])           # mirrored Variables
    >>> per_replica = strategy.run(train_step, args=(batch,))
    >>> strategy.reduce("SUM", per_replica, axis=None)
"""

import types as _types

from runtime._src.distribute.context import (ReplicaContext, get_replica_context,
                                             get_strategy, has_strategy,
                                             in_cross_replica_context)
from runtime._src.distribute.input import DistributedDataset, DistributedIterator
from runtime._src.distribute.multi_worker import MultiWorkerMirroredStrategy
from runtime._src.distribute.strategy import (CentralStorageStrategy, MirroredStrategy,
                                              OneDeviceStrategy, Strategy, StrategyExtended)
from runtime._src.distribute.values import (CommunicationImplementation, CommunicationOptions,
                                            CrossDeviceOps, DistributedValues,
                                            HierarchicalCopyAllReduce, InputContext,
                                            InputReplicationMode, NcclAllReduce, ReduceOp,
                                            ReductionToOneDevice, ValueContext)

experimental = _types.SimpleNamespace(
    ValueContext=ValueContext, CentralStorageStrategy=CentralStorageStrategy,
    CommunicationOptions=CommunicationOptions,
    CommunicationImplementation=CommunicationImplementation,
    MultiWorkerMirroredStrategy=MultiWorkerMirroredStrategy)

__all__ = ["CrossDeviceOps", "HierarchicalCopyAllReduce", "NcclAllReduce",
           "ReductionToOneDevice", "DistributedDataset", "DistributedIterator", "DistributedValues", "InputContext",
           "InputReplicationMode", "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "ReduceOp",
           "ReplicaContext", "Strategy", "StrategyExtended", "experimental",
           "get_replica_context", "get_strategy", "has_strategy", "in_cross_replica_context"]
