"""Dtype/shape inference rules shared by many ops.

Each rule takes `(inputs, attrs)` and returns `[(dtype, shape), ...]`, one
pair per output, raising `ValueError`/`TypeError` that names the problem (the
graph prefixes the op name). Rules work on partial shapes: an unknown
dimension (`None`) or an unknown rank stays unknown instead of failing.

    >>> broadcast_shapes(TensorShape([None, 3]), TensorShape([3]))
    TensorShape([None, 3])

`constant_value(t)` and `shape_from_tensor(t)` read what is statically known
about a tensor's value while tracing (a `Const`, a `Shape` of a fully known
shape, a `Pack` of scalars), so ops such as `reshape(x, tf.shape(y))` keep
their static shapes.
"""

import math

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import unwrap_variable

__all__ = ["same_as_first", "broadcast_shapes", "elementwise", "compare",
           "logical", "truediv", "unknown", "check_same_dtype", "normalize_axis", "static_int",
           "static_ints", "static_bool", "static_value", "not_static_error",
           "constant_value", "shape_from_tensor", "dims_text"]


def dims_text(shape):
    """A shape as TensorFlow writes it in errors: `[2,3]`, `[?,3]`, `<unknown>`."""
    if shape.dims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.dims) + "]"


def broadcast_shapes(a, b):
    """numpy broadcasting on partial shapes: unknown dims stay unknown."""
    if a.dims is None or b.dims is None:
        return TensorShape(None)
    if a.dims == b.dims:        # the commonest case (scalars, like shapes): nothing
        return a                # to broadcast (a shape is never changed in place)
    x, y = list(a.dims), list(b.dims)
    n = max(len(x), len(y))
    x = [1] * (n - len(x)) + x
    y = [1] * (n - len(y)) + y
    out = []
    for i, (p, q) in enumerate(zip(x, y)):
        if p == 1:
            out.append(q)
        elif q == 1:
            out.append(p)
        elif p is None or q is None:
            out.append(p if q is None else q)
        elif p == q:
            out.append(p)
        else:
            raise ValueError(f"Incompatible shapes: {dims_text(a)} vs. {dims_text(b)} "
                             f"(dimension {i}: {p} vs {q})")
    return TensorShape(out)


def check_same_dtype(x, y):
    if x.dtype is not y.dtype and x.dtype != y.dtype:    # dtypes are singletons
        raise TypeError(f"inputs must have the same dtype, got {x.dtype.name} and {y.dtype.name}; "
                        "use tf.cast to convert one of them")


_check_same_dtype = check_same_dtype  # older name, kept for other modules


def same_as_first(inputs, attrs):
    """One output with the first input's dtype and shape (unary math)."""
    return [(inputs[0].dtype, inputs[0].shape)]


def unknown(inputs, attrs):
    """One output of the first input's dtype and unknown shape."""
    return [(inputs[0].dtype, TensorShape(None))]


def elementwise(inputs, attrs):
    """Binary op on equal dtypes with broadcasting; output has that dtype."""
    x, y = inputs
    if x.dtype is not y.dtype:          # (check_same_dtype's first test, without the call)
        check_same_dtype(x, y)
    # broadcast_shapes' commonest case (equal known dims) in line: asked of
    # every binary op traced
    a, b = x.shape, y.shape
    return [(x.dtype, a if a.dims == b.dims and a.dims is not None else broadcast_shapes(a, b))]


def truediv(inputs, attrs):
    """x / y: like `elementwise`, but integers give floats (int32 -> float64)."""
    x, y = inputs
    check_same_dtype(x, y)
    return [(true_div_dtype(x.dtype), broadcast_shapes(x.shape, y.shape))]


def true_div_dtype(dtype):
    """TensorFlow's result dtype of `/`: int8/16, uint8 -> float32; int32/64 -> float64."""
    if not dtype.is_integer:
        return dtype
    return dtypes.float64 if dtype.np_dtype.itemsize >= 4 else dtypes.float32


def compare(inputs, attrs):
    """Binary comparison: equal dtypes, broadcast, bool output."""
    x, y = inputs
    if x.dtype is not y.dtype:          # (as in elementwise)
        check_same_dtype(x, y)
    a, b = x.shape, y.shape
    return [(dtypes.bool, a if a.dims == b.dims and a.dims is not None
             else broadcast_shapes(a, b))]


def logical(inputs, attrs):
    """Logical and/or/not: bool inputs, broadcast, bool output."""
    for t in inputs:
        if t.dtype != dtypes.bool:
            raise TypeError(f"expected bool inputs, got {t.dtype.name}")
    shape = inputs[0].shape
    for t in inputs[1:]:
        shape = broadcast_shapes(shape, t.shape)
    return [(dtypes.bool, shape)]


def normalize_axis(axis, rank, what="axis"):
    """A non-negative axis for `rank` dims; ValueError naming it when out of range."""
    if rank is None:
        return axis
    if not -rank <= axis < rank:
        raise ValueError(f"{what} {axis} is out of range for a tensor of rank {rank} "
                         f"(expected {-rank} <= {what} < {rank})")
    return axis + rank if axis < 0 else axis


# --- statically known values ---------------------------------------------------

def static_int(value, op_name, what):
    """An int argument (axis, depth, num) that must be known while tracing.

    Python and numpy ints pass; a tensor or Variable must have a value known
    now (eager, or a constant while tracing), else TypeError naming it.
    """
    if value.__class__ is int:                  # the common case, first
        return value
    value = _unwrap_variable(value)
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{op_name}: {what} must be an int, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if _is_tensor(value):
        known = static_value(value, op_name, what)
        if np.ndim(known) != 0 or not np.issubdtype(np.asarray(known).dtype, np.integer):
            raise TypeError(f"{op_name}: {what} must be an integer scalar, got {value!r}")
        return int(known)
    raise TypeError(f"{op_name}: {what} must be an int, got {value!r}")


def static_ints(value, op_name, what):
    """A list of ints (perm, axes, a shape) that must be known while tracing:
    a Python/numpy sequence (its items may be constant scalar tensors) or a
    tensor with a value known now. TypeError naming the op and argument else."""
    value = _unwrap_variable(value)
    if _is_tensor(value):
        value = static_value(value, op_name, what)
    if isinstance(value, np.ndarray):
        value = value.reshape(-1).tolist()
    if isinstance(value, (list, tuple)):
        return tuple(static_int(v, op_name, what) for v in value)
    return (static_int(value, op_name, what),)


def static_bool(value, op_name, what):
    """A flag (keepdims, transpose_a) that must be known while tracing."""
    if value.__class__ is bool:                 # the common case, first
        return value
    value = _unwrap_variable(value)
    if _is_tensor(value):
        value = static_value(value, op_name, what)
        if np.ndim(value) != 0:
            raise TypeError(f"{op_name}: {what} must be a bool, got a tensor of shape "
                            f"{list(np.shape(value))}")
    return bool(value)


def static_value(t, op_name, what):
    """The numpy value of tensor `t` if known while tracing; else a TypeError
    saying that `what` of `op_name` must be a Python value or a constant."""
    known = constant_value(t)
    if known is None:
        raise not_static_error(t, op_name, what)
    return known


def not_static_error(t, op_name, what):
    return TypeError(
        f"{op_name}: {what} must be known while tracing (a Python value or a constant), "
        f"got the symbolic tensor {t!r}, whose value is only known when the graph runs")


def _unwrap_variable(value):
    # tensor.py imports this module, so its unwrap_variable is looked up late.
    return unwrap_variable(value)


def _is_tensor(value):
    return hasattr(value, "dtype") and hasattr(value, "shape")


# Pure ops evaluated while tracing when all their inputs are small known values,
# so shape arithmetic such as `tf.shape(x)[0] * 2` keeps static shapes.
_FOLDABLE = frozenset(("StridedSlice", "Pack", "Cast", "ConcatV2", "Identity", "AddV2",
                       "Sub", "Mul", "FloorDiv", "FloorMod", "Neg", "Maximum", "Minimum",
                       "Range", "ReverseV2"))
_FOLD_MAX_SIZE = 64
_FOLD_MAX_DEPTH = 8


def constant_value(t, _depth=0):
    """The numpy value of `t` if it is known while tracing, else None."""
    value = getattr(t, "_value", None)
    if value is not None:
        return value
    node = getattr(t, "node", None)
    if node is None:
        return None
    op = node.op
    if op == "Const":
        return node.attrs["value"]
    if op in ("Shape", "Size", "Rank"):
        return _shape_query_value(node, t.dtype)
    if op == "StridedSlice" and node.inputs[0].node.op == "Shape":
        dim = _known_dim(node)
        if dim is not None:
            return t.dtype.np_dtype.type(dim)
    if op in _FOLDABLE and _depth < _FOLD_MAX_DEPTH and len(node.outputs) == 1:
        values = [constant_value(i, _depth + 1) for i in node.inputs]
        if any(v is None or np.size(v) > _FOLD_MAX_SIZE for v in values):
            return None
        if op == "Range" and not _small_range(*values):
            return None
        try:
            return node.opdef.kernel(*values, **node.attrs)
        except Exception:  # noqa: BLE001 - the op reports it when it runs
            return None
    return None


def _small_range(start, limit, delta):
    """Whether a Range of these scalars has at most _FOLD_MAX_SIZE elements."""
    try:
        count = math.ceil((float(limit) - float(start)) / float(delta))
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return False
    return count <= _FOLD_MAX_SIZE


def _known_dim(node):
    """For `tf.shape(x)[i]` with a constant i: x's static dimension i, or None."""
    spec = node.attrs["spec"]
    dims = node.inputs[0].node.inputs[0].shape.dims
    if dims is None or len(spec) != 1 or spec[0][0] != "index" or type(spec[0][1]) is not int:
        return None
    i = spec[0][1]
    return dims[i] if -len(dims) <= i < len(dims) else None


def _shape_query_value(node, dtype):
    """The value of Shape/Size/Rank of a tensor whose static shape answers it."""
    shape = node.inputs[0].shape
    if node.op == "Rank":
        return None if shape.rank is None else dtype.np_dtype.type(shape.rank)
    if not shape.is_fully_defined():
        return None
    if node.op == "Size":
        return dtype.np_dtype.type(int(np.prod(shape.dims)))
    return np.array(shape.dims, dtype=dtype.np_dtype)


def shape_from_tensor(t):
    """The partial shape a 1-D shape tensor describes (-1 stays -1)."""
    value = constant_value(t)
    if value is not None:
        return TensorShape([int(d) for d in np.reshape(value, -1)])
    node = getattr(t, "node", None)
    if node is not None and node.op == "Shape":
        return node.inputs[0].shape
    if node is not None and node.op == "Pack" and node.attrs.get("axis", 0) == 0:
        dims = []
        for part in node.inputs:
            v = constant_value(part)
            dims.append(None if v is None or np.ndim(v) else int(v))
        return TensorShape(dims)
    dims = t.shape.dims
    if dims is not None and len(dims) == 1 and dims[0] is not None:
        return TensorShape([None] * dims[0])
    return TensorShape(None)
