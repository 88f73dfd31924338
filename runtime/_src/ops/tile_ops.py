"""`tile`: a tensor repeated along each dimension (`multiples`, which may be a
tensor known only when the graph runs), and its gradient."""

import builtins

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.composite import dispatch_api
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import math_ops
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import _check_vector, _shape_tensor, shape

__all__ = ["tile"]


# --- tile ----------------------------------------------------------------------

def _infer_tile(inputs, attrs):
    x, multiples = inputs
    reps = rules.shape_from_tensor(multiples)
    if x.shape.dims is None:
        return [(x.dtype, TensorShape(None))]
    rank = len(x.shape.dims)
    if reps.dims is None:
        return [(x.dtype, TensorShape([None] * rank))]
    if len(reps.dims) != rank:
        raise ValueError(f"multiples must have one entry per dimension of the input "
                         f"(rank {rank}), got {len(reps.dims)}: {list(reps.dims)}")
    dims = [None if d is None or r is None else d * r for d, r in zip(x.shape.dims, reps.dims)]
    return [(x.dtype, TensorShape(dims))]


@define_op("Tile", infer=_infer_tile)
def _tile(x, multiples):
    reps = tuple(np.reshape(multiples, -1).tolist())
    if len(reps) != np.ndim(x):
        raise InvalidArgumentError(f"Tile: Expected multiples argument to be a vector of "
                                   f"length {np.ndim(x)} but got length {len(reps)}")
    if builtins.any(r < 0 for r in reps):
        raise InvalidArgumentError(f"Tile: Expected multiples to be non-negative, got {list(reps)}")
    return np.tile(x, reps)


@define_grad("Tile")
def _tile_grad(op, grad):
    return [apply("TileGrad", (grad, op.inputs[0])), None]


def _infer_tile_grad(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


@define_op("TileGrad", infer=_infer_tile_grad)
def _tile_grad_kernel(grad, x):
    """The sum of grad's tiles: grad of shape [m0*d0, m1*d1, ...] summed to [d0, d1, ...]."""
    dims = np.shape(x)
    split = []
    for g, d in zip(grad.shape, dims):
        split.extend((g // d if d else 0, d))
    return np.sum(grad.reshape(split), axis=tuple(range(0, len(split), 2)), dtype=grad.dtype)


@define_grad("TileGrad")
def _tile_grad_grad(op, grad):
    # TileGrad sums the tiles, so its gradient tiles: by shape(grad) / shape(x)
    # (an empty dimension of x is tiled 0 times, its multiple read as 1).
    tiled, x = op.inputs
    multiples = math_ops.floordiv(shape(tiled, dtypes.int64),
                                  math_ops.maximum(shape(x, dtypes.int64), np.int64(1)))
    return [apply("Tile", (grad, multiples)), None]


def tile(input, multiples, name=None):  # TensorFlow's name
    """`input` repeated `multiples[i]` times along each dimension i."""
    out = dispatch_api("tile", (input,), input, multiples)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    multiples = _check_vector(_shape_tensor(multiples, "Tile", "multiples"), "Tile: multiples")
    return apply("Tile", (convert_to_tensor(input), multiples))
