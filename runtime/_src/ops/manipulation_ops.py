"""Ops that rearrange tensors: `concat`, `stack`, `unstack`, `gather`,
`expand_dims`, `squeeze`, `transpose`, `one_hot`, and `stack_nested`.

    >>> stack([constant(1), 2, 3])
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>

Lists of values take the dtype of their first tensor (Python numbers convert
to it); tensors of different dtypes raise, as for binary ops. All public
functions are re-exported by `array_ops`.
"""

import numpy as np

from runtime._src.core.composite import dispatch_api
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.graph import current_graph
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.core.tensor import Tensor, convert_to_tensor, is_tensor_like, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.gradient_ops import reshape_like
from runtime._src.core import dtypes

__all__ = ["concat", "stack", "unstack", "gather", "expand_dims", "squeeze", "transpose",
           "one_hot", "stack_nested", "convert_all"]


def convert_all(values, op_name, dtype=None):
    """A list of values as tensors of one dtype (`dtype`, else the first tensor's)."""
    if isinstance(values, Tensor) or not isinstance(values, (list, tuple)):
        raise TypeError(f"{op_name}: expected a list of tensors, got {type(values).__name__}")
    if not values:
        raise ValueError(f"{op_name}: expected a non-empty list of tensors")
    values = [unwrap_variable(v) for v in values]   # a TensorLike read once
    if dtype is None:
        dtype = next((v.dtype for v in values if isinstance(v, Tensor)), None)
    out = []
    for v in values:
        if isinstance(v, Tensor) and dtype is not None and v.dtype is not dtype:
            message = (f"{op_name}: all inputs must have the same dtype, got {dtype.name} and "
                       f"{v.dtype.name}; use tf.cast to convert one of them")
            if current_graph() is None:
                raise InvalidArgumentError(message, op_name)
            raise TypeError(message)
        t = convert_to_tensor(v, dtype)
        dtype = t.dtype
        out.append(t)
    return out


def _merged_shape(inputs, op_name_what):
    """The most specific shape compatible with every input's (ValueError if none)."""
    shape = inputs[0].shape
    for t in inputs[1:]:
        if not shape.is_compatible_with(t.shape):
            raise ValueError(f"{op_name_what}: shapes {rules.dims_text(inputs[0].shape)} and "
                             f"{rules.dims_text(t.shape)} are not compatible")
        shape = shape.merge_with(t.shape)
    return shape


# --- concat / stack / unstack ------------------------------------------------------

def _infer_concat(inputs, attrs):
    for t in inputs[1:]:
        rules.check_same_dtype(inputs[0], t)
    ranks = {t.shape.rank for t in inputs if t.shape.rank is not None}
    if len(ranks) > 1:
        raise ValueError("all inputs must have the same rank, got shapes "
                         + ", ".join(rules.dims_text(t.shape) for t in inputs))
    if not ranks:
        return [(inputs[0].dtype, TensorShape(None))]
    rank = ranks.pop()
    if rank == 0:
        raise ValueError("Can't concatenate scalars (use tf.stack instead)")
    axis = rules.normalize_axis(attrs["axis"], rank)
    sizes = [t.shape.dims[axis] if t.shape.dims is not None else None for t in inputs]
    others = [TensorShape([d for i, d in enumerate(t.shape.dims) if i != axis])
              if t.shape.dims is not None else TensorShape(None) for t in inputs]
    merged = others[0]
    for t, s in zip(inputs[1:], others[1:]):
        if not merged.is_compatible_with(s):
            raise ValueError(f"dimensions other than axis {axis} must match, got shapes "
                             f"{rules.dims_text(inputs[0].shape)} and {rules.dims_text(t.shape)}")
        merged = merged.merge_with(s)
    total = None if None in sizes else sum(sizes)
    dims = list(merged.dims) if merged.dims is not None else [None] * (rank - 1)
    return [(inputs[0].dtype, TensorShape(dims[:axis] + [total] + dims[axis:]))]


@define_op("ConcatV2", infer=_infer_concat)
def _concat(*values, axis):
    if np.ndim(values[0]) == 0:
        raise InvalidArgumentError("ConcatV2: Can't concatenate scalars (use tf.stack instead)")
    return np.concatenate(values, axis=axis)


@define_grad("ConcatV2")
def _concat_grad(op, grad):
    return list(apply("ConcatGrad", (grad, *op.inputs), {"axis": op.attrs["axis"]}))


def _infer_concat_grad(inputs, attrs):
    return [(inputs[0].dtype, t.shape) for t in inputs[1:]]


@define_op("ConcatGrad", infer=_infer_concat_grad, num_outputs=None)
def _concat_grad_kernel(grad, *values, axis):
    """grad cut along `axis` into pieces the sizes of the concatenated values."""
    ends = np.cumsum([np.shape(v)[axis] for v in values])[:-1]
    return tuple(np.split(grad, ends, axis=axis))


@define_grad("ConcatGrad")
def _concat_grad_grad(op, *grads):
    pieces = apply("ConcatV2", grads, {"axis": op.attrs["axis"]})
    return [pieces] + [None] * (len(op.inputs) - 1)


def concat(values, axis, name="concat"):
    """Join tensors along an existing dimension `axis`."""
    out = dispatch_api("concat", (values if isinstance(values, (list, tuple)) else ()), values, axis)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    values = convert_all(values, "ConcatV2")
    return apply("ConcatV2", values, {"axis": rules.static_int(axis, "ConcatV2", "axis")})


def _infer_pack(inputs, attrs):
    for t in inputs[1:]:
        rules.check_same_dtype(inputs[0], t)
    shape = _merged_shape(inputs, "all inputs must have the same shape")
    if shape.dims is None:
        return [(inputs[0].dtype, TensorShape(None))]
    axis = rules.normalize_axis(attrs["axis"], len(shape.dims) + 1)
    dims = list(shape.dims)
    return [(inputs[0].dtype, TensorShape(dims[:axis] + [len(inputs)] + dims[axis:]))]


@define_op("Pack", infer=_infer_pack)
def _pack(*values, axis):
    return np.stack(values, axis=axis)


@define_grad("Pack")
def _pack_grad(op, grad):
    return list(apply("Unpack", (grad,), {"num": len(op.inputs), "axis": op.attrs["axis"]}))


def stack(values, axis=0, name="stack"):
    """Join same-shaped tensors along a new dimension `axis`. A tensor (a list
    stacked by a staged loop) is its own stack along axis 0, as in TensorFlow."""
    out = dispatch_api("stack", (values if isinstance(values, (list, tuple)) else ()), values, axis)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    if isinstance(values, Tensor):
        if rules.static_int(axis, "Pack", "axis") == 0:
            return values
        values = unstack(values)
    values = convert_all(values, "Pack")
    return apply("Pack", values, {"axis": rules.static_int(axis, "Pack", "axis")})


def _infer_unpack(inputs, attrs):
    x = inputs[0]
    num, axis = attrs["num"], attrs["axis"]
    if x.shape.dims is None:
        return [(x.dtype, TensorShape(None))] * num
    axis = rules.normalize_axis(axis, len(x.shape.dims))
    dims = list(x.shape.dims)
    if dims[axis] is not None and dims[axis] != num:
        raise ValueError(f"num={num} does not match dimension {axis} of shape "
                         f"{rules.dims_text(x.shape)}")
    return [(x.dtype, TensorShape(dims[:axis] + dims[axis + 1:]))] * num


@define_op("Unpack", infer=_infer_unpack, num_outputs=None)
def _unpack(x, num, axis):
    if np.shape(x)[axis] != num:
        raise InvalidArgumentError(f"Unpack: Input shape axis {axis} must equal {num}, got shape "
                                   f"[{','.join(map(str, np.shape(x)))}]", "Unpack")
    return tuple(np.moveaxis(x, axis, 0))


@define_grad("Unpack")
def _unpack_grad(op, *grads):
    return [apply("Pack", grads, {"axis": op.attrs["axis"]})]


def unstack(value, num=None, axis=0, name="unstack"):
    """Split `value` along `axis` into a list of tensors (`num` from its shape)."""
    value = convert_to_tensor(value)
    axis = rules.static_int(axis, "Unpack", "axis")
    dims = value.shape.dims
    if dims is not None:
        if not dims:
            raise ValueError("unstack: input must have rank >= 1, got a scalar")
        axis = rules.normalize_axis(axis, len(dims))
        if num is None:
            num = dims[axis]
    if num is None:
        raise ValueError(f"unstack: cannot infer argument `num` from shape {value.shape}; "
                         "pass num=")
    num = rules.static_int(num, "Unpack", "num")
    return list(apply("Unpack", (value,), {"num": num, "axis": axis}))


# --- gather ----------------------------------------------------------------------
#
# gather(params, indices, axis, batch_dims): for each of the leading
# `batch_dims` dimensions (shared by params and indices) separately,
# np.take(params[b], indices[b], axis - batch_dims). Output shape:
#     params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]

def _infer_gather(inputs, attrs):
    params, indices = inputs
    if not indices.dtype.is_integer:
        raise TypeError(f"indices must be int32 or int64, got {indices.dtype.name}")
    if params.shape.dims is None or indices.shape.dims is None:
        return [(params.dtype, TensorShape(None))]
    dims, idims = params.shape.dims, indices.shape.dims
    if not dims:
        raise ValueError("params must have rank >= 1, got a scalar")
    axis = rules.normalize_axis(attrs["axis"], len(dims))
    batch = attrs.get("batch_dims", 0)
    for i in range(batch):
        if dims[i] is not None and idims[i] is not None and dims[i] != idims[i]:
            raise ValueError(f"params.shape[{i}] ({dims[i]}) must equal indices.shape[{i}] "
                             f"({idims[i]}) for batch_dims={batch}; shapes "
                             f"{rules.dims_text(params.shape)} and {rules.dims_text(indices.shape)}")
    out = dims[:axis] + idims[batch:] + dims[axis + 1:]
    return [(params.dtype, TensorShape(out))]


@define_op("GatherV2", infer=_infer_gather)
def _gather(params, indices, axis, batch_dims=0):
    n = np.shape(params)[axis]
    flat = np.reshape(indices, -1)
    bad = np.flatnonzero((flat < 0) | (flat >= n))
    if bad.size:
        where = np.unravel_index(bad[0], np.shape(indices))
        position = ",".join(str(int(i)) for i in where)
        raise InvalidArgumentError(f"GatherV2: indices[{position}] = {flat[bad[0]]} is not "
                                   f"in [0, {n})")
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    return _batched_take(params, indices, axis, batch_dims)


@define_grad("GatherV2")
def _gather_grad(op, grad):
    params, indices = op.inputs
    return [apply("GatherGrad", (grad, params, indices), dict(op.attrs)), None]


def _infer_gather_grad(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


@define_op("GatherGrad", infer=_infer_gather_grad)
def _gather_grad_kernel(grad, params, indices, axis, batch_dims=0):
    """Zeros like params with each gathered slice's gradient added back at its
    index (repeated indices add up)."""
    out = np.zeros(np.shape(params), grad.dtype)
    axis = axis % max(np.ndim(params), 1)     # a negative axis counts from params' end
    if batch_dims == 0:
        _scatter_add(out, indices, grad, axis)
        return out
    for b in np.ndindex(*np.shape(indices)[:batch_dims]):
        _scatter_add(out[b], indices[b], grad[b], axis - batch_dims)
    return out


def _scatter_add(out, indices, grad, axis):
    n = np.ndim(indices)
    moved = np.moveaxis(grad, tuple(range(axis, axis + n)), tuple(range(n)))
    np.add.at(np.moveaxis(out, axis, 0), indices, moved)


@define_grad("GatherGrad")
def _gather_grad_grad(op, grad):
    _, _, indices = op.inputs
    return [apply("GatherV2", (grad, indices), dict(op.attrs)), None, None]


def _batched_take(params, indices, axis, batch):
    """gather with batch_dims > 0, as one numpy advanced-indexing step."""
    if np.shape(params)[:batch] != np.shape(indices)[:batch]:
        raise InvalidArgumentError(f"GatherV2: params.shape[:{batch}] "
                                   f"{list(np.shape(params)[:batch])} must equal "
                                   f"indices.shape[:{batch}] {list(np.shape(indices)[:batch])}")
    moved = np.moveaxis(params, axis, batch)           # batch + [N] + middle + rest
    rank_i = np.ndim(indices)
    grids = []
    for k, size in enumerate(np.shape(indices)[:batch]):
        shape = [1] * rank_i
        shape[k] = size
        grids.append(np.arange(size).reshape(shape))
    taken = moved[tuple(grids) + (indices,)]            # batch + idx + middle + rest
    n_idx, n_mid = rank_i - batch, axis - batch
    perm = (list(range(batch)) + list(range(batch + n_idx, batch + n_idx + n_mid))
            + list(range(batch, batch + n_idx)) + list(range(batch + n_idx + n_mid, taken.ndim)))
    return np.transpose(taken, perm)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Slices of `params` along `axis` at `indices`, per batch when `batch_dims` > 0.

    `axis` defaults to `batch_dims`; both may be negative (counted from the end
    of params' and indices' shapes).
    """
    out = dispatch_api("gather", (params, indices), params, indices, axis, batch_dims)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    params = convert_to_tensor(params)
    indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        raise TypeError(f"GatherV2: indices must be int32 or int64, got {indices.dtype.name}")
    batch = rules.static_int(batch_dims, "GatherV2", "batch_dims")
    axis = batch if axis is None else rules.static_int(axis, "GatherV2", "axis")
    attrs = {"axis": axis}
    if batch:
        attrs["axis"], attrs["batch_dims"] = _gather_batch_axis(params, indices, axis, batch)
    return apply("GatherV2", (params, indices), attrs)


def _gather_batch_axis(params, indices, axis, batch):
    """(axis, batch_dims), both non-negative, checked as TensorFlow does."""
    rank_p, rank_i = params.shape.rank, indices.shape.rank
    if rank_p is None or rank_i is None:
        raise ValueError("GatherV2: batch_dims needs params and indices of known rank, got "
                         f"shapes {params.shape} and {indices.shape}")
    if not -rank_i <= batch <= rank_i:
        raise ValueError(f"GatherV2: batch_dims {batch} is out of range for indices of rank "
                         f"{rank_i} (expected {-rank_i} <= batch_dims <= {rank_i})")
    batch = batch + rank_i if batch < 0 else batch
    axis = rules.normalize_axis(axis, rank_p)
    if batch > axis:
        raise ValueError(f"GatherV2: batch_dims ({batch}) must be less than or equal to "
                         f"axis ({axis})")
    return axis, batch


# --- expand_dims / squeeze / transpose -------------------------------------------

def _infer_expand_dims(inputs, attrs):
    x = inputs[0]
    if x.shape.dims is None:
        return [(x.dtype, TensorShape(None))]
    dims = list(x.shape.dims)
    axis = rules.normalize_axis(attrs["axis"], len(dims) + 1)
    return [(x.dtype, TensorShape(dims[:axis] + [1] + dims[axis:]))]


@define_op("ExpandDims", infer=_infer_expand_dims)
def _expand_dims(x, axis):
    return np.expand_dims(x, axis)


@define_grad("ExpandDims")
def _expand_dims_grad(op, grad):
    return [reshape_like(grad, op.inputs[0])]


def expand_dims(input, axis, name=None):  # TensorFlow's name
    """`input` with a new dimension of size 1 inserted at `axis`."""
    out = dispatch_api("expand_dims", (input,), input, axis)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    axis = rules.static_int(axis, "ExpandDims", "axis")
    return apply("ExpandDims", (convert_to_tensor(input),), {"axis": axis})


def _infer_squeeze(inputs, attrs):
    x, axis = inputs[0], attrs["axis"]
    dims = x.shape.dims
    if dims is None:
        return [(x.dtype, TensorShape(None))]
    if axis is None:
        if None in dims:
            return [(x.dtype, TensorShape(None))]
        return [(x.dtype, TensorShape([d for d in dims if d != 1]))]
    axes = {rules.normalize_axis(a, len(dims)) for a in axis}
    for a in sorted(axes):
        if dims[a] not in (1, None):
            raise ValueError(f"Can not squeeze dim[{a}], expected a dimension of 1, "
                             f"got {dims[a]}")
    return [(x.dtype, TensorShape([d for i, d in enumerate(dims) if i not in axes]))]


@define_op("Squeeze", infer=_infer_squeeze)
def _squeeze(x, axis):
    return np.squeeze(x, axis)


@define_grad("Squeeze")
def _squeeze_grad(op, grad):
    return [reshape_like(grad, op.inputs[0])]


def squeeze(input, axis=None, name=None):  # TensorFlow's name
    """`input` without its size-1 dimensions (only those in `axis` if given)."""
    out = dispatch_api("squeeze", (input,), input, axis)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    if axis is not None:
        axis = rules.static_ints(axis, "Squeeze", "axis")
    return apply("Squeeze", (convert_to_tensor(input),), {"axis": axis})


def _infer_transpose(inputs, attrs):
    x, perm = inputs[0], attrs["perm"]
    dims = x.shape.dims
    if dims is None:
        return [(x.dtype, TensorShape(None if perm is None else [None] * len(perm)))]
    if perm is None:
        return [(x.dtype, TensorShape(dims[::-1]))]
    if len(perm) == len(dims) and all(-len(dims) <= p < len(dims) for p in perm) \
            and sorted(perm) != list(range(len(dims))):
        return [(x.dtype, TensorShape([None] * len(dims)))]   # as TF: fails when it runs
    if sorted(perm) != list(range(len(dims))):
        raise ValueError(f"perm must be a permutation of 0..{len(dims) - 1}, got {list(perm)} "
                         f"for shape {rules.dims_text(x.shape)}")
    return [(x.dtype, TensorShape([dims[p] for p in perm]))]


@define_op("Transpose", infer=_infer_transpose)
def _transpose(x, perm):
    if perm is not None and sorted(p % max(x.ndim, 1) for p in perm) != list(range(x.ndim)):
        raise InvalidArgumentError(
            f"Transpose: perm must be a permutation of 0..{x.ndim - 1}, got {list(perm)} "
            f"for shape [{','.join(map(str, x.shape))}]", "Transpose")
    return np.transpose(x, perm)


@define_grad("Transpose")
def _transpose_grad(op, grad):
    perm = op.attrs["perm"]
    inverse = None if perm is None else tuple(int(i) for i in np.argsort(perm))
    return [apply("Transpose", (grad,), {"perm": inverse})]


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """`a` with its dimensions permuted by `perm` (reversed when None)."""
    if perm is not None:
        perm = rules.static_ints(perm, "Transpose", "perm")
    return apply("Transpose", (convert_to_tensor(a),), {"perm": perm})


# --- one_hot -----------------------------------------------------------------------

def _infer_one_hot(inputs, attrs):
    x = inputs[0]
    if not x.dtype.is_integer:
        raise TypeError(f"indices must be an integer tensor, got {x.dtype.name}")
    if x.shape.dims is None:
        return [(attrs["dtype"], TensorShape(None))]
    dims = list(x.shape.dims)
    axis = attrs["axis"]
    axis = len(dims) if axis == -1 else rules.normalize_axis(axis, len(dims) + 1)
    return [(attrs["dtype"], TensorShape(dims[:axis] + [attrs["depth"]] + dims[axis:]))]


@define_op("OneHot", infer=_infer_one_hot)
def _one_hot(indices, depth, on_value, off_value, axis, dtype):
    hot = np.expand_dims(indices, -1) == np.arange(depth)    # out-of-range -> all off
    out = np.where(hot, on_value, off_value).astype(dtype.np_dtype)
    return out if axis == -1 else np.moveaxis(out, -1, axis)


not_differentiable("OneHot")


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """A one-hot encoding: `on_value` at each index, `off_value` elsewhere (float32)."""
    indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        raise TypeError(f"OneHot: indices must be an integer tensor, got {indices.dtype.name}")
    if dtype is None:
        given = next((v for v in (on_value, off_value) if v is not None), None)
        dtype = given.dtype if isinstance(given, Tensor) else (
            dtypes.dtype_of_python(given) if given is not None else dtypes.float32)
    dtype = dtypes.as_dtype(dtype)
    on = _fill_value(on_value, 1, dtype, "on_value")
    off = _fill_value(off_value, 0, dtype, "off_value")
    depth = rules.static_int(depth, "OneHot", "depth")
    if depth < 0:
        raise ValueError(f"OneHot: depth must be >= 0, got {depth}")
    attrs = {"depth": depth, "on_value": on,
             "off_value": off, "dtype": dtype,
             "axis": -1 if axis is None else rules.static_int(axis, "OneHot", "axis")}
    return apply("OneHot", (indices,), attrs)


def _fill_value(value, default, dtype, what):
    """on_value/off_value of one_hot as a numpy scalar (known while tracing)."""
    value = unwrap_variable(default if value is None else value)
    if isinstance(value, Tensor):
        value = rules.static_value(value, "OneHot", what)
    return np.asarray(value).astype(dtype.np_dtype)[()]


# --- nested lists ------------------------------------------------------------------

def stack_nested(values, dtype=None):
    """A nested list of tensors and Python numbers as one tensor (nested tf.stack).

    Numbers take `dtype`, else the dtype of the first tensor found.
    """
    if dtype is None:
        dtype = _first_tensor_dtype(values)
    return _stack_level(values, dtype)


def _first_tensor_dtype(values):
    stack = [values]
    while stack:
        v = stack.pop(0)
        if is_tensor_like(v):
            return v.dtype
        if isinstance(v, (list, tuple)):
            stack[:0] = list(v)
    return None


def _stack_level(value, dtype):
    if isinstance(value, (list, tuple)):
        if _first_tensor_dtype(value) is None:
            return convert_to_tensor(value, dtype)
        return stack([_stack_level(v, dtype) for v in value])
    return convert_to_tensor(value, dtype)
