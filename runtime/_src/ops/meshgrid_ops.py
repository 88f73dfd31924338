"""`meshgrid` (xy and ij indexing), `linspace` (along any axis, with tensor
endpoints) and `sequence_mask`, as TensorFlow's."""

import builtins

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad  # gradients
from runtime._src.ops.gradient_ops import unbroadcast
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import range as _range, reshape, size
from runtime._src.ops.manipulation_ops import convert_all, expand_dims, stack
from runtime._src.ops.math_ops import cast, less, maximum
from runtime._src.ops.reduction_ops import reduce_max, reduce_sum
from runtime._src.ops.shape_ops import _paren, broadcast_to

__all__ = ["meshgrid", "linspace", "sequence_mask"]


# --- meshgrid / linspace / sequence_mask ---------------------------------------------------

def meshgrid(*args, **kwargs):
    """N-D coordinate grids from 1-D coordinate vectors (flattened first).

    `indexing="xy"` (default, Cartesian) makes outputs of shape (len(y), len(x), ...);
    `"ij"` (matrix) makes (len(x), len(y), ...).
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid: unexpected keyword arguments {sorted(kwargs)}")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    if not args:
        return []
    tensors = [convert_to_tensor(a) for a in args]
    tensors = [reshape(t, [-1]) for t in convert_all(tensors, "Meshgrid")]
    sizes = [size(t) for t in tensors]
    if indexing == "xy" and len(tensors) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    full = stack(sizes)
    outputs = []
    for i, t in enumerate(tensors):
        position = i
        if indexing == "xy" and len(tensors) > 1 and i < 2:
            position = 1 - i
        shape = [1] * len(tensors)
        shape[position] = -1
        outputs.append(broadcast_to(reshape(t, shape), full))
    return outputs


def _infer_linspace(inputs, attrs):
    start, stop, num = inputs
    rules.check_same_dtype(start, stop)
    if not start.dtype.is_floating:
        raise TypeError(f"start and stop must be floating-point, got {start.dtype.name}")
    if num.shape.rank not in (None, 0):
        raise ValueError(f"num must be a scalar, got shape {rules.dims_text(num.shape)}")
    shape = rules.broadcast_shapes(start.shape, stop.shape)
    n = rules.constant_value(num)
    n = None if n is None else int(n)
    if n is not None and n < 0:
        raise ValueError(f"Requires num >= 0, got {n}")
    if shape.dims is None:
        return [(start.dtype, TensorShape(None))]
    dims = list(shape.dims)
    axis = rules.normalize_axis(attrs["axis"], len(dims) + 1)
    return [(start.dtype, TensorShape(dims[:axis] + [n] + dims[axis:]))]


@define_op("LinSpace", infer=_infer_linspace)
def _linspace(start, stop, num, axis):
    n = int(num)
    if n < 0:
        raise InvalidArgumentError(f"LinSpace: Requires num >= 0, got {n}", "LinSpace")
    start, stop = np.broadcast_arrays(start, stop)
    dtype = start.dtype
    axis = axis + start.ndim + 1 if axis < 0 else axis
    first, last = np.expand_dims(start, axis), np.expand_dims(stop, axis)
    delta = ((last - first) / dtype.type(builtins.max(n - 1, 1))).astype(dtype)
    shape = [1] * (start.ndim + 1)
    shape[axis] = builtins.max(n - 2, 0)
    steps = np.arange(1, builtins.max(n - 1, 1), dtype=dtype).reshape(shape)
    parts = [first, (first + steps * delta).astype(dtype), last]
    return np.concatenate(parts, axis=axis).take(np.arange(n), axis=axis)


@define_grad("LinSpace")
def _linspace_grad(op, grad):
    # out[..., i, ...] = start + w[i] * (stop - start), w[i] = i / max(num - 1, 1)
    # (so out[0] = start, out[-1] = stop): stop's gradient is the w-weighted sum
    # of grad along the axis, start's the rest; both summed down to their shapes.
    start, stop, num = op.inputs
    axis, rank = op.attrs["axis"], grad.shape.rank
    if axis >= 0 and rank is None:
        raise LookupError("No gradient defined for operation 'LinSpace' with an output of "
                          "unknown rank and a non-negative axis")
    after = -axis - 1 if axis < 0 else rank - axis - 1
    one = convert_to_tensor(1, num.dtype)
    steps = cast(maximum(num - one, one), grad.dtype)
    weights = reshape(cast(_range(0, num, 1, dtype=num.dtype), grad.dtype) / steps,
                      [-1] + [1] * after)
    to_stop = reduce_sum(grad * weights, axis)
    return [unbroadcast(reduce_sum(grad, axis) - to_stop, start), unbroadcast(to_stop, stop),
            None]


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (both included) along `axis`.

    Integer start/stop give float64; `start` and `stop` may be tensors (broadcast together).
    """
    start = convert_to_tensor(start)
    if start.dtype.is_integer:
        start = cast(start, dtypes.float64)
    try:
        stop = unwrap_variable(stop)
        if isinstance(stop, Tensor) and stop.dtype.is_integer and start.dtype is dtypes.float64:
            stop = cast(stop, dtypes.float64)
        stop = convert_to_tensor(stop, start.dtype)
    except ValueError as e:
        raise ValueError(f"stop: {e}") from None
    num = unwrap_variable(num)
    kind = num.dtype if isinstance(num, Tensor) else dtypes.dtype_of_python(num)
    if kind is None or not kind.is_integer:
        raise TypeError(f"LinSpace: num must be of type integer, got {num!r}")
    num = convert_to_tensor(num)
    if num.shape.rank not in (None, 0):
        raise ValueError(f"LinSpace: num must be a scalar, got shape {rules.dims_text(num.shape)}")
    return apply("LinSpace", (start, stop, num), {"axis": rules.static_int(axis, "LinSpace",
                                                                              "axis")})


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[i..., j] = j < lengths[i...], of shape lengths.shape + [maxlen] (bool).

    `maxlen` defaults to the largest length.
    """
    lengths = convert_to_tensor(lengths)
    if maxlen is None:
        maxlen = maximum(reduce_max(lengths), convert_to_tensor(0, lengths.dtype))
    else:
        maxlen = convert_to_tensor(maxlen)
        if maxlen.shape.rank not in (None, 0):
            raise ValueError("Argument `maxlen` must be scalar for sequence_mask, received "
                             f"`maxlen` = {maxlen!r} with shape '{_paren(maxlen.shape)}' instead")
    if not maxlen.dtype.is_integer:
        maxlen = cast(maxlen, dtypes.int32)
    row = _range(0, maxlen, 1, dtype=maxlen.dtype)
    mask = less(row, cast(expand_dims(lengths, -1), maxlen.dtype))
    dtype = dtypes.as_dtype(dtype)
    return mask if dtype is dtypes.bool else cast(mask, dtype)
