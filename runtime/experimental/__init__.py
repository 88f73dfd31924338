"""`tf.experimental`: `numpy`, a NumPy-style API over the runtime's ops, and
the ragged shape types (`DynamicRaggedShape`, `RowPartition`)."""

from runtime._src.ragged.dynamic_ragged_shape import DynamicRaggedShape, RowPartition
from runtime.experimental import numpy

__all__ = ["DynamicRaggedShape", "numpy", "RowPartition"]
