"""`tf.sets`: set operations along the last dimension of dense tensors or
SparseTensors (each row of the last dimension is a set of its values).

    a = constant([[1, 2, 2, 0], [3, 3, 4, 5]]); b = constant([[2, 7], [5, 3]])
    tf.sets.intersection(a, b)    # SparseTensor: [[2], [3, 5]], dense_shape [2, 2]
    tf.sets.size(sparse)          # int32 count of distinct values per row

As TF 2.21: results are SparseTensors whose rows hold the sorted distinct
values; the last dimension of the dense shape is the largest row's size.
Integers (8 to 64 bits, uint8, uint16) and strings only; a SparseTensor's
indices must be in row-major order unless validate_indices=False.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.sparse.sparse_ops import _sparse_out, _spec, check_order, make
from runtime._src.sparse.sparse_tensor import SparseTensor, _to_tensor

__all__ = ["size", "intersection", "union", "difference"]

_SET_DTYPES = frozenset((dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
                         dtypes.uint16, dtypes.string))


def _rows(parts, dense, validate, op):
    """(leading shape, {row index tuple: set of values}) of one operand."""
    if dense:
        arr = np.asarray(parts[0])
        if arr.ndim < 2:
            raise InvalidArgumentError(f"Shape [{','.join(map(str, arr.shape))}] has rank "
                                       f"{arr.ndim} < 2", op)
        lead = arr.shape[:-1]
        flat = arr.reshape(-1, arr.shape[-1])
        return lead, {idx: set(flat[k].tolist()) for k, idx in enumerate(np.ndindex(*lead))}
    indices, values, shape = (np.asarray(p) for p in parts)
    shape = shape.astype(np.int64)
    if len(shape) < 2:
        raise InvalidArgumentError(f"Shape [{','.join(map(str, shape))}] has rank "
                                   f"{len(shape)} < 2", op)
    indices = indices.reshape(-1, len(shape))
    if validate:
        check_order(indices, shape, op)
    rows = {}
    for row, v in zip(indices[:, :-1], values.tolist()):
        rows.setdefault(tuple(int(i) for i in row), set()).add(v)
    return tuple(int(d) for d in shape[:-1]), rows


def _result(lead, sets, dtype):
    out_idx, out_val, width = [], [], 0
    for idx in np.ndindex(*lead):
        row = sorted(sets.get(idx, ()))
        width = max(width, len(row))
        for k, v in enumerate(row):
            out_idx.append(idx + (k,))
            out_val.append(v)
    values = np.array(out_val, dtype=dtype) if out_val else np.zeros(0, dtype)
    return (np.array(out_idx, np.int64).reshape(-1, len(lead) + 1), values,
            np.array(list(lead) + [width], np.int64))


def _infer_set_op(inputs, attrs):
    return _sparse_out(inputs[0].dtype if attrs["a_dense"] else inputs[1].dtype, None)


@define_op("SetOperation", infer=_infer_set_op, num_outputs=3)
def _set_operation(*parts, a_dense, b_dense, operation, validate):
    n = 1 if a_dense else 3
    op = "SetOperation"
    lead_a, rows_a = _rows(parts[:n], a_dense, validate, op)
    lead_b, rows_b = _rows(parts[n:], b_dense, validate, op)
    if lead_a != lead_b:
        raise InvalidArgumentError(f"Shapes [{','.join(map(str, lead_a))}] and "
                                   f"[{','.join(map(str, lead_b))}] of the sets' leading "
                                   "dimensions do not match", op)
    combine = {"intersection": lambda x, y: x & y, "union": lambda x, y: x | y,
               "a-b": lambda x, y: x - y, "b-a": lambda x, y: y - x}[operation]
    sets = {idx: combine(rows_a.get(idx, set()), rows_b.get(idx, set()))
            for idx in np.ndindex(*lead_a)}
    dtype = np.asarray(parts[0] if a_dense else parts[1]).dtype
    return _result(lead_a, sets, dtype)


@define_op("SetSize", infer=lambda inputs, attrs: [_spec(dtypes.int32, None)])
def _set_size(indices, values, shape, validate):
    lead, rows = _rows((indices, values, shape), False, validate, "SetSize")
    out = np.zeros(lead, np.int32)
    for idx, s in rows.items():
        out[idx] = len(s)
    return out


not_differentiable("SetOperation", "SetSize")


def _check_dtype(t, name):
    if t.dtype not in _SET_DTYPES:
        raise TypeError(f"'{name}' has invalid dtype `{t.dtype!r}` not in supported dtypes: "
                        "int8, int16, int32, int64, uint8, uint16, string.")


def _operand(x, name):
    if isinstance(x, SparseTensor):
        _check_dtype(x, name)
        return [x.indices, x.values, x.dense_shape], False, x.dtype
    t = _to_tensor(x)
    _check_dtype(t, name)
    return [t], True, t.dtype


def _set_operation_of(a, b, operation, validate_indices):
    parts_a, dense_a, dtype_a = _operand(a, "a")
    parts_b, dense_b, dtype_b = _operand(b, "b")
    if dtype_a != dtype_b:
        raise TypeError(f"Types don't match, {dtype_a!r} vs {dtype_b!r}.")
    return make(*apply("SetOperation", parts_a + parts_b, {
        "a_dense": dense_a, "b_dense": dense_b, "operation": operation,
        "validate": bool(validate_indices)}))


def size(a, validate_indices=True):
    """`tf.sets.size`: the number of distinct values in each last-dimension row
    of the SparseTensor `a` (int32, shape dense_shape[:-1])."""
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    _check_dtype(a, "a")
    return apply("SetSize", (a.indices, a.values, a.dense_shape),
                 {"validate": bool(validate_indices)})


def intersection(a, b, validate_indices=True):
    """`tf.sets.intersection`: the values in both a's and b's row, sorted."""
    return _set_operation_of(a, b, "intersection", validate_indices)


def union(a, b, validate_indices=True):
    """`tf.sets.union`: the values in a's or b's row, sorted."""
    return _set_operation_of(a, b, "union", validate_indices)


def difference(a, b, aminusb=True, validate_indices=True):
    """`tf.sets.difference`: a's row minus b's (b's minus a's when not aminusb)."""
    return _set_operation_of(a, b, "a-b" if aminusb else "b-a", validate_indices)
