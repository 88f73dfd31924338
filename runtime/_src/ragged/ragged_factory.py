"""`tf.ragged.constant` and `tf.ragged.map_flat_values`.

    constant([[1, 2], [3]])                  # <tf.RaggedTensor [[1, 2], [3]]>, int32
    constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)
                                             # values are [3, 2] rows: shape (2, None, 2)
    map_flat_values(tf.math.square, rt)      # the op on the flat values, rows kept
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ragged.ragged_tensor import RaggedTensor

__all__ = ["constant", "map_flat_values"]


def _depth(value):
    """Nesting depth of lists/tuples (the deepest branch; a scalar is 0)."""
    if isinstance(value, (list, tuple)):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, np.ndarray):
        return value.ndim
    return 0


def _split_level(rows):
    """(the concatenated children of `rows`, their row splits)."""
    splits, children = [0], []
    for r in rows:
        if not isinstance(r, (list, tuple, np.ndarray)):
            raise ValueError("all scalar values must have the same nesting depth")
        children.extend(list(r))
        splits.append(len(children))
    return children, splits


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
    """`tf.ragged.constant`: a RaggedTensor of a nested Python list; its ragged
    dimensions are the outer `ragged_rank` ones (default: all but the scalars)."""
    depth = _depth(pylist)
    if depth < 1:
        raise ValueError(f"ragged.constant: expected a nested list, got {pylist!r}")
    if ragged_rank is None:
        ragged_rank = depth - 1 if inner_shape is None else depth - 1 - len(inner_shape)
    if not 1 <= ragged_rank < depth + (depth == 1):
        raise ValueError(f"ragged.constant: ragged_rank must be in [1, {depth - 1}] for a "
                         f"list of depth {depth}, got {ragged_rank}")
    levels, rows = [], list(pylist)
    for _ in range(ragged_rank):
        rows, splits = _split_level(rows)
        levels.append(splits)
    if not rows:
        shape = (0,) + tuple(inner_shape or ())
        values = convert_to_tensor(np.zeros(shape, (dtypes.as_dtype(dtype) if dtype is not None
                                                    else dtypes.float32).np_dtype))
    else:
        try:                       # Python's ints int32, floats float32, as tf.constant
            values = convert_to_tensor(rows, dtype)
        except ValueError:
            raise ValueError("ragged.constant: the inner (uniform) dimensions have rows of "
                             "different lengths; raise ragged_rank") from None
        except TypeError as e:
            if "mixes strings and numbers" not in str(e):
                raise
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.") \
                from None
    for splits in reversed(levels):
        values = RaggedTensor.from_row_splits(values, np.array(splits, np.int64))
    return values


def map_flat_values(op, *args, **kwargs):
    """`tf.ragged.map_flat_values`: `op` applied to the flat values of the
    RaggedTensor arguments (which must share their row partitions); the
    result keeps the rows of the first."""
    first = None

    def unwrap(v):
        nonlocal first
        if isinstance(v, RaggedTensor):
            if first is None:
                first = v
            elif len(v.nested_row_splits) != len(first.nested_row_splits):
                raise ValueError("map_flat_values: the RaggedTensors have different "
                                 "ragged ranks")
            return v.flat_values
        if isinstance(v, (list, tuple)):
            return type(v)(unwrap(x) for x in v)
        if isinstance(v, dict):
            return {k: unwrap(x) for k, x in v.items()}
        return v
    args = [unwrap(a) for a in args]
    kwargs = {k: unwrap(v) for k, v in kwargs.items()}
    if first is None:
        return op(*args, **kwargs)
    return first.with_flat_values(op(*args, **kwargs))
