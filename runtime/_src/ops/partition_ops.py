"""`tf.dynamic_partition` and `tf.dynamic_stitch`, TensorFlow's pair for
splitting a tensor by a partition index and merging parts back by position:

    parts = dynamic_partition([10, 20, 30, 40], [0, 1, 0, 1], 2)   # [10, 30], [20, 40]
    dynamic_stitch([[0, 2], [1, 3]], parts)                        # [10, 20, 30, 40]

Each is the other's gradient, as in TF. Output lengths depend on the data,
so traced outputs have an unknown first dimension.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops.array_ops import range as _range, reshape, shape as _shape
from runtime._src.ops.manipulation_ops import gather
from runtime._src.ops.reduction_ops import reduce_prod

__all__ = ["dynamic_partition", "dynamic_stitch"]


def _inner(data, index):
    """data's dimensions after the leading ones that `index` covers."""
    if data.shape.dims is None or index.shape.dims is None:
        return None
    return list(data.shape.dims[len(index.shape.dims):])


def _infer_partition(inputs, attrs):
    data, partitions = inputs
    inner = _inner(data, partitions)
    shape = TensorShape(None if inner is None else [None] + inner)
    return [(data.dtype, shape)] * attrs["num_partitions"]


@define_op("DynamicPartition", infer=_infer_partition, num_outputs=None)
def _partition(data, partitions, num_partitions):
    if np.shape(data)[:np.ndim(partitions)] != np.shape(partitions):
        raise InvalidArgumentError(
            f"DynamicPartition: data.shape must start with partitions.shape, got data.shape = "
            f"{list(np.shape(data))}, partitions.shape = {list(np.shape(partitions))}",
            "DynamicPartition")
    bad = (partitions < 0) | (partitions >= num_partitions)
    if np.any(bad):
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InvalidArgumentError(
            f"DynamicPartition: partitions{list(where)} = {partitions[where]} is not in "
            f"[0, {num_partitions})", "DynamicPartition")
    return tuple(data[partitions == i] for i in range(num_partitions))


@define_grad("DynamicPartition")
def _partition_grad(op, *grads):
    data, partitions = op.inputs
    prefix = _shape(partitions)
    positions = reshape(_range(reduce_prod(prefix)), prefix)
    parts = dynamic_partition(positions, partitions, op.attrs["num_partitions"])
    return [reshape(dynamic_stitch(parts, list(grads)), _shape(data)), None]


def _infer_stitch(inputs, attrs):
    n = attrs["n"]
    indices, data = inputs[:n], inputs[n:]
    inner = _inner(data[0], indices[0])
    return [(data[0].dtype, TensorShape(None if inner is None else [None] + inner))]


@define_op("DynamicStitch", infer=_infer_stitch)
def _stitch(*args, n):
    indices, data = args[:n], args[n:]
    inner = np.shape(data[0])[np.ndim(indices[0]):]
    size = max((int(np.max(i)) + 1 for i in indices if np.size(i)), default=0)
    out = np.zeros((size,) + inner, data[0].dtype)
    for index, values in zip(indices, data):
        if np.shape(values)[:np.ndim(index)] != np.shape(index):
            raise InvalidArgumentError(
                f"DynamicStitch: data.shape must start with indices.shape, got indices shape "
                f"{list(np.shape(index))} and data shape {list(np.shape(values))}",
                "DynamicStitch")
        out[np.ravel(index)] = np.reshape(values, (-1,) + inner)     # later ones win, as TF
    return out


@define_grad("DynamicStitch")
def _stitch_grad(op, grad):
    n = op.attrs["n"]
    return [None] * n + [gather(grad, index) for index in op.inputs[:n]]


def dynamic_partition(data, partitions, num_partitions, name=None):
    """`num_partitions` tensors: part i holds the entries of `data` whose
    partition is i, in order (`partitions` indexes data's leading dimensions)."""
    data = convert_to_tensor(data)
    partitions = convert_to_tensor(partitions, dtypes.int32)
    if partitions.dtype != dtypes.int32:
        raise TypeError(f"dynamic_partition: partitions must be int32, got "
                        f"{partitions.dtype.name}")
    num_partitions = int(num_partitions)
    if num_partitions < 1:
        raise ValueError(f"dynamic_partition: num_partitions must be >= 1, got {num_partitions}")
    return list(apply("DynamicPartition", (data, partitions),
                      {"num_partitions": num_partitions}))


def dynamic_stitch(indices, data, name=None):
    """One tensor from `data`: merged[indices[m][i]] = data[m][i] (later
    entries win where indices repeat); its length is the largest index + 1."""
    indices = [convert_to_tensor(i, dtypes.int32) for i in indices]
    if len(indices) != len(data) or not indices:
        raise ValueError(f"dynamic_stitch: expected as many data tensors as indices, got "
                         f"{len(indices)} indices and {len(data)} data")
    first = convert_to_tensor(data[0])
    data = [first] + [convert_to_tensor(d, first.dtype) for d in data[1:]]
    return apply("DynamicStitch", tuple(indices) + tuple(data), {"n": len(indices)})
