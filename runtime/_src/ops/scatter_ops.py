"""Multi-dimensional indexing: `gather_nd`, `scatter_nd`,
`tensor_scatter_nd_update/add/sub/max/min`, `boolean_mask`, and `where`
(its one-argument form takes numeric conditions too, as TF's).

An `indices` tensor of shape [..., M] holds M-long coordinates into the first
M dimensions of params (or of the scattered-into tensor):

    >>> gather_nd(constant([[1, 2], [3, 4]]), [[1, 0], [0, 1]])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 2], dtype=int32)>

Out-of-range coordinates raise InvalidArgumentError naming the first bad one,
as TF's CPU kernels do.
"""

import numpy as np

from runtime._src.core.composite import dispatch_api
from runtime._src.core import tensor as _tensor

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad  # gradients
from runtime._src.ops import math_ops
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import _shape_tensor, range as _range, reshape, shape as _shape
from runtime._src.ops.manipulation_ops import concat, expand_dims, gather, squeeze
from runtime._src.ops.shape_ops import broadcast_to, int_tensor, kernel_error, op_error

__all__ = ["gather_nd", "scatter_nd", "tensor_scatter_nd_update", "tensor_scatter_nd_add",
           "tensor_scatter_nd_sub", "tensor_scatter_nd_max", "tensor_scatter_nd_min",
           "boolean_mask", "where"]


def _dims_text(dims):
    return "[" + ",".join(str(d) for d in dims) + "]"


def _check_indices(indices):
    if not indices.dtype.is_integer:
        raise TypeError(f"indices must be an int32 or int64 tensor, got {indices.dtype.name}")


def _bad_coordinate(coords, into):
    """The first coordinate outside `into` (a shape), or None."""
    bad = np.flatnonzero(np.any((coords < 0) | (coords >= np.asarray(into, np.int64)), axis=-1))
    if not bad.size:
        return None
    i = bad[0]
    return i, "[" + ", ".join(str(int(v)) for v in coords[i]) + "]"


# --- gather_nd -------------------------------------------------------------------------

def _infer_gather_nd(inputs, attrs):
    params, indices = inputs
    _check_indices(indices)
    batch = attrs["batch_dims"]
    pd, idims = params.shape.dims, indices.shape.dims
    if pd is None or idims is None or idims[-1:] == [None] or (idims and idims[-1] is None):
        return [(params.dtype, TensorShape(None))]
    if not idims:
        raise ValueError("indices must have rank >= 1, got a scalar")
    m = idims[-1]
    if m + batch > len(pd):
        raise ValueError(f"index innermost dimension length must be <= params rank; saw: "
                         f"{m + batch} vs. {len(pd)}")
    for i in range(batch):
        if pd[i] is not None and idims[i] is not None and pd[i] != idims[i]:
            raise ValueError(f"batch dimensions of params and indices must match, got shapes "
                             f"{rules.dims_text(params.shape)} and "
                             f"{rules.dims_text(indices.shape)}")
    return [(params.dtype, TensorShape(list(idims[:-1]) + list(pd[batch + m:])))]


@define_op("GatherNd", infer=_infer_gather_nd)
def _gather_nd(params, indices, batch_dims):
    b = batch_dims
    m = np.shape(indices)[-1]
    if m + b > np.ndim(params):
        raise InvalidArgumentError(f"GatherNd: index innermost dimension length must be <= "
                                   f"params rank; saw: {m + b} vs. {np.ndim(params)}", "GatherNd")
    batch_shape = np.shape(params)[:b]
    if np.shape(indices)[:b] != batch_shape:
        raise InvalidArgumentError(f"GatherNd: batch dimensions of params {list(batch_shape)} "
                                   f"and indices {list(np.shape(indices)[:b])} must match",
                                   "GatherNd")
    n = int(np.prod(batch_shape))
    p = np.reshape(params, (n,) + np.shape(params)[b:])
    k = int(np.prod(np.shape(indices)[b:-1]))
    idx = np.reshape(indices, (n, k, m)).astype(np.int64)
    found = _bad_coordinate(idx.reshape(n * k, m), np.shape(p)[1:1 + m])
    if found is not None:
        i, text = found
        raise InvalidArgumentError(f"GatherNd: indices{_position(i, np.shape(indices)[:-1])} = "
                                   f"{text} does not index into param shape "
                                   f"{_dims_text(np.shape(params))}", "GatherNd")
    if m == 0:                                           # every index is the whole slice
        out = np.broadcast_to(p[:, None], (n, k) + np.shape(p)[1:])
    else:
        rows = np.arange(n)[:, None]
        out = p[(rows,) + tuple(np.moveaxis(idx, -1, 0))]  # [n, k] + params.shape[b + m:]
    return np.reshape(out, np.shape(indices)[:-1] + np.shape(params)[b + m:])


@define_grad("GatherNd")
def _gather_nd_grad(op, grad):
    # Each gathered slice's gradient is added back at its coordinates. With
    # batch_dims b, every coordinate is first prefixed by its b batch positions.
    params, indices = op.inputs
    batch = op.attrs["batch_dims"]
    if batch:
        indices = _with_batch_coordinates(indices, _shape(params, indices.dtype), batch)
    shape = apply("Shape", (params,), {"out_type": indices.dtype})
    return [apply("ScatterNd", (indices, grad, shape)), None]


def _with_batch_coordinates(indices, params_shape, batch):
    """indices [B..., K..., M] (B the `batch` leading dims) as [B..., K..., batch + M]:
    each coordinate prefixed by the batch position it sits at."""
    rank = indices.shape.rank
    if rank is None:
        raise LookupError("No gradient defined for operation 'GatherNd' with batch_dims > 0 "
                          "and indices of unknown rank")
    outer = _shape(indices, indices.dtype)[:-1]
    columns = []
    for i in range(batch):
        position = _range(0, params_shape[i], 1, dtype=indices.dtype)
        position = reshape(position, [1] * i + [-1] + [1] * (rank - 2 - i))
        columns.append(expand_dims(broadcast_to(position, outer), -1))
    return concat(columns + [indices], -1)


def _position(flat, shape):
    if not shape:
        return ""
    return "[" + ",".join(str(int(v)) for v in np.unravel_index(flat, shape)) + "]"


def gather_nd(params, indices, batch_dims=0, name=None):
    """Slices of `params` at the coordinates in the last dimension of `indices`.

    Output shape: indices.shape[:-1] + params.shape[batch_dims + M:].
    """
    out = dispatch_api("gather_nd", (params,), params, indices, batch_dims)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    params = convert_to_tensor(params)
    indices = int_tensor(indices, "GatherNd", "indices")
    batch = rules.static_int(batch_dims, "GatherNd", "batch_dims")
    if batch < 0:
        raise ValueError(f"GatherNd: batch_dims must be non-negative, got {batch}")
    return apply("GatherNd", (params, indices), {"batch_dims": batch})


# --- scatter_nd / tensor_scatter_nd_* ----------------------------------------------------

def _scatter_index_shape(indices):
    """(outer dims, M) of an indices shape [..., M]."""
    dims = list(indices)
    return dims[:-1], (dims[-1] if dims else None)


def _check_updates(indices, updates, target, error):
    """TF's shape checks of `updates` against indices and the target shape (lists, None = ?)."""
    outer, m = _scatter_index_shape(indices)
    if m is not None and target is not None and m > len(target):
        raise error(f"Index innermost dimension length must be <= output rank; saw: {m} vs. "
                    f"{len(target)}")
    if updates is None:
        return
    if len(updates) < len(outer) or any(a is not None and b is not None and a != b
                                         for a, b in zip(outer, updates)):
        raise error(f"Outer dimensions of indices and update must match. Indices shape: "
                    f"{_dims_text(['?' if d is None else d for d in indices])}, updates shape:"
                    f"{_dims_text(['?' if d is None else d for d in updates])}")
    if target is None or m is None:
        return
    inner, expected = updates[len(outer):], target[m:]
    if len(inner) != len(expected) or any(a is not None and b is not None and a != b
                                          for a, b in zip(inner, expected)):
        raise error(f"Dimensions [{m},{len(target)}) of input[shape="
                    f"{_dims_text(['?' if d is None else d for d in target])}] must match "
                    f"dimensions [{len(outer)},{len(updates)}) of updates[shape="
                    f"{_dims_text(['?' if d is None else d for d in updates])}]")


def _infer_scatter_nd(inputs, attrs):
    indices, updates, shape = inputs
    _check_indices(indices)
    target = rules.shape_from_tensor(shape)
    if indices.shape.dims is not None and updates.shape.dims is not None:
        _check_updates(indices.shape.dims, updates.shape.dims, target.dims,
                       ValueError)
    return [(updates.dtype, target)]


def _infer_tensor_scatter(inputs, attrs):
    tensor, indices, updates = inputs
    _check_indices(indices)
    rules.check_same_dtype(tensor, updates)
    if None not in (tensor.shape.dims, indices.shape.dims, updates.shape.dims):
        _check_updates(indices.shape.dims, updates.shape.dims, list(tensor.shape.dims),
                       ValueError)
    return [(tensor.dtype, tensor.shape)]


def _scatter(op_name, out, indices, updates, combine):
    """Apply `updates` at `indices` into `out` (a fresh array) with numpy ufunc `combine`."""
    error = kernel_error(op_name)
    if np.ndim(indices) < 2:
        # TF's shape rule reads [M] as one coordinate, its kernels as M scalar ones: no
        # 1-D indices pass both.
        raise error(f"indices must be a matrix of coordinates [N, M] or more, got shape "
                    f"{_dims_text(np.shape(indices))}; write [[i, ...]]")
    _check_updates(list(np.shape(indices)), list(np.shape(updates)), list(out.shape),
                   error)
    outer, m = _scatter_index_shape(np.shape(indices))
    coords = np.reshape(indices, (int(np.prod(outer)), m)).astype(np.int64)
    found = _bad_coordinate(coords, out.shape[:m])
    if found is not None:
        i, text = found
        raise error(f"indices[{i}] = {text} does not index into shape "
                    f"{_dims_text(out.shape)}")
    key = tuple(coords.T)
    values = np.reshape(updates, (coords.shape[0],) + out.shape[m:])
    if combine is None:
        out[key] = values
    else:
        combine.at(out, key, values)
    return out


@define_op("ScatterNd", infer=_infer_scatter_nd)
def _scatter_nd(indices, updates, shape):
    target = tuple(int(d) for d in np.reshape(shape, -1))
    if any(d < 0 for d in target):
        raise InvalidArgumentError(f"ScatterNd: shape must be non-negative, got {list(target)}",
                                   "ScatterNd")
    combine = np.logical_or if updates.dtype == np.bool_ else np.add
    return _scatter("ScatterNd", np.zeros(target, updates.dtype), indices, updates, combine)


@define_grad("ScatterNd")
def _scatter_nd_grad(op, grad):
    indices = op.inputs[0]
    return [None, apply("GatherNd", (grad, indices), {"batch_dims": 0}), None]


def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of `shape` with `updates` added at the coordinates `indices`
    (duplicates sum)."""
    indices = int_tensor(indices, "ScatterNd", "indices")
    updates = convert_to_tensor(updates)
    shape = unwrap_variable(shape)
    if isinstance(shape, Tensor):
        shape = int_tensor(shape, "ScatterNd", "shape")
    else:
        shape = _shape_tensor(shape, "ScatterNd")
    if shape.dtype != indices.dtype:
        shape = math_ops.cast(shape, indices.dtype)
    return apply("ScatterNd", (indices, updates, shape))


_TENSOR_SCATTER = {"TensorScatterUpdate": None, "TensorScatterAdd": np.add,
                   "TensorScatterSub": np.subtract, "TensorScatterMax": np.maximum,
                   "TensorScatterMin": np.minimum}


def _define_tensor_scatter(op_name, combine):
    @define_op(op_name, infer=_infer_tensor_scatter)
    def kernel(tensor, indices, updates):
        return _scatter(op_name, tensor.copy(), indices, updates, combine)

    def public(tensor, indices, updates, name=None):
        tensor = convert_to_tensor(tensor)
        indices = int_tensor(indices, op_name, "indices")
        updates = unwrap_variable(updates)
        if isinstance(updates, Tensor):
            if updates.dtype != tensor.dtype:
                raise op_error(op_name, f"updates must have the dtype of tensor "
                                        f"({tensor.dtype.name}), got {updates.dtype.name}")
        else:
            updates = _convert_exact(updates, tensor.dtype)
        return apply(op_name, (tensor, indices, updates))
    return public


def _convert_exact(value, dtype):
    """A Python value as a tensor of `dtype`, refusing floats for integer dtypes (as TF)."""
    if isinstance(value, (list, tuple)) and any(_tensor.is_tensor_like(v)
                                                for v in _tensor.flatten_lists(value)):
        return convert_to_tensor(value, dtype)      # tensors inside: packed, as TF does
    array = np.asarray(value)
    if dtype.is_integer and array.dtype.kind == "f":
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    return convert_to_tensor(value, dtype)


tensor_scatter_nd_update = _define_tensor_scatter("TensorScatterUpdate", None)
tensor_scatter_nd_update.__doc__ = "`tensor` with slices at `indices` replaced by `updates`."
tensor_scatter_nd_add = _define_tensor_scatter("TensorScatterAdd", np.add)
tensor_scatter_nd_add.__doc__ = "`tensor` with `updates` added at `indices` (duplicates sum)."
tensor_scatter_nd_sub = _define_tensor_scatter("TensorScatterSub", np.subtract)
tensor_scatter_nd_sub.__doc__ = "`tensor` with `updates` subtracted at `indices`."
tensor_scatter_nd_max = _define_tensor_scatter("TensorScatterMax", np.maximum)
tensor_scatter_nd_max.__doc__ = "`tensor` with the maximum of it and `updates` at `indices`."
tensor_scatter_nd_min = _define_tensor_scatter("TensorScatterMin", np.minimum)
tensor_scatter_nd_min.__doc__ = "`tensor` with the minimum of it and `updates` at `indices`."


def _gathered(op, t):
    """`t` (shaped like the op's tensor) at the op's indices."""
    return apply("GatherNd", (t, op.inputs[1]), {"batch_dims": 0})


@define_grad("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, grad):
    tensor, indices, updates = op.inputs
    zeros = apply("ZerosLike", (updates,), {"dtype": None})
    return [apply("TensorScatterUpdate", (grad, indices, zeros)), None, _gathered(op, grad)]


@define_grad("TensorScatterAdd")
def _tensor_scatter_add_grad(op, grad):
    return [grad, None, _gathered(op, grad)]


@define_grad("TensorScatterSub")
def _tensor_scatter_sub_grad(op, grad):
    return [grad, None, math_ops.negative(_gathered(op, grad))]


def _tensor_scatter_extreme_grad(op, grad):
    # Each output element's gradient goes to the inputs that equal it (tensor's
    # element and/or updates scattered there), shared equally between ties.
    tensor, indices, updates = op.inputs
    out = op.outputs[0]
    from_tensor = math_ops.cast(math_ops.equal(tensor, out), grad.dtype)
    from_updates = math_ops.cast(math_ops.equal(updates, _gathered(op, out)), grad.dtype)
    shape = apply("Shape", (tensor,), {"out_type": indices.dtype})
    share = grad / (from_tensor + apply("ScatterNd", (indices, from_updates, shape)))
    return [share * from_tensor, None, _gathered(op, share) * from_updates]


define_grad("TensorScatterMax")(_tensor_scatter_extreme_grad)
define_grad("TensorScatterMin")(_tensor_scatter_extreme_grad)


for _f, _name in ((tensor_scatter_nd_update, "update"), (tensor_scatter_nd_add, "add"),
                  (tensor_scatter_nd_sub, "sub"), (tensor_scatter_nd_max, "max"),
                  (tensor_scatter_nd_min, "min")):
    _f.__name__ = _f.__qualname__ = f"tensor_scatter_nd_{_name}"
del _f, _name


# --- where / boolean_mask -----------------------------------------------------------------

def where(condition, x=None, y=None, name=None):
    """Elements of x where condition is true, else of y (broadcasting all three).

    With only `condition`: the int64 coordinates of its true (nonzero) elements,
    shape [N, rank].
    """
    out = dispatch_api("where", (condition, x, y), condition, x, y)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    if x is None and y is None:
        condition = convert_to_tensor(condition)
        if condition.dtype.is_string:
            raise TypeError("Where: condition must be a bool or numeric tensor, got string")
        if condition.shape.rank == 0:
            raise op_error("Where", "WhereOp : Unhandled input dimensions: 0")
        if condition.dtype is not dtypes.bool:
            condition = math_ops.not_equal(condition, convert_to_tensor(0, condition.dtype))
    return math_ops.where(condition, x, y)


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The slices of `tensor` where `mask` is true: mask covers dimensions
    [axis, axis + mask.rank) of tensor, which become one dimension."""
    tensor = convert_to_tensor(tensor)
    mask = convert_to_tensor(mask)
    k = mask.shape.rank
    if k is None:
        raise ValueError("Number of mask dimensions must be specified, even if some dimensions "
                         "are None.  E.g. shape=[None] is ok, but shape=None is not.")
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else rules.static_int(axis, "boolean_mask", "axis")
    dims = tensor.shape.dims
    if dims is not None:
        axis = rules.normalize_axis(axis, len(dims))
        part = TensorShape(dims[axis:axis + k])
        if len(part.dims) != k or not part.is_compatible_with(mask.shape):
            raise ValueError(f"Shapes {_paren(part)} and {_paren(mask.shape)} are incompatible")
    if dims is not None and None not in dims:
        flat = reshape(tensor, list(dims[:axis]) + [-1] + list(dims[axis + k:]))
    else:
        full = _shape(tensor)
        flat = reshape(tensor, concat([full[:axis], [-1], full[axis + k:]], 0))
    indices = squeeze(where(reshape(mask, [-1])), [1])
    return gather(flat, indices, axis=axis)


def _paren(shape):
    return str(tuple(shape.dims)) if shape.dims is not None else "<unknown>"
