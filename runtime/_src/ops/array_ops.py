"""Array ops: creation (`constant`, `zeros`, `fill`, `eye`, `range`...), shapes
(`reshape`, `shape`, `size`, `rank`); `tile` is in tile_ops.py. Re-exported here so this is
the one place to look: `concat`, `stack`, `unstack`, `gather`, `expand_dims`,
`squeeze`, `transpose`, `one_hot` and `stack_nested` (from
`manipulation_ops.py`) and `getitem`, tensor indexing (from `indexing.py`).

    >>> reshape(range(6), [2, -1])
    <tf.Tensor: shape=(2, 3), dtype=int32, numpy=
    array([[0, 1, 2],
           [3, 4, 5]], dtype=int32)>

Shapes given as Python lists are constants; a shape may also be a tensor
(`tf.shape(x)`) or a list holding scalar tensors, and static shape inference
keeps whatever of it is known while tracing.
"""

import builtins

import numpy as np

from runtime._src.core.composite import dispatch_api
from runtime._src.core import dtype_promotion, dtypes
from runtime._src.ops.weak_tensor import WeakTensor
from runtime._src.core.context import plain_eager
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.graph import current_graph
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.core.tensor import (EagerTensor, SymbolicTensor, Tensor, convert_to_tensor,
                                      flatten_lists, is_tensor_like, to_numpy_value,
                                      unwrap_variable)
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.gradient_ops import reshape_like
from runtime._src.ops.indexing import getitem
from runtime._src.ops.manipulation_ops import (concat, expand_dims, gather, one_hot, squeeze,
                                               stack, stack_nested, transpose, unstack)
from runtime._src.ops import math_ops
from runtime._src.ops.math_ops import cast

__all__ = ["constant", "zeros", "ones", "zeros_like", "ones_like", "fill", "eye", "range",
           "reshape", "shape", "size", "rank", "concat", "stack", "unstack", "gather",
           "expand_dims", "squeeze", "transpose", "one_hot", "getitem",
           "stack_nested"]


# --- helpers -------------------------------------------------------------------

def _as_graph_value(array, dtype=None):
    """An eager tensor for a numpy value, or a Const node while tracing."""
    t = EagerTensor(array, dtype or dtypes.as_dtype(array.dtype))
    graph = current_graph()
    return t if graph is None else graph.capture(t)


def _static_dims(shape, op_name):
    """A shape argument as a tuple of ints, or None when it is only known at run time."""
    shape = unwrap_variable(shape)
    if isinstance(shape, TensorShape):
        if not shape.is_fully_defined():
            raise ValueError(f"{op_name}: shape must be fully defined, got {shape}")
        return shape.dims
    if isinstance(shape, Tensor):
        value = rules.constant_value(_at_most_1d(shape, op_name))
        return None if value is None else tuple(int(d) for d in np.reshape(value, -1))
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    if isinstance(shape, (list, tuple)):
        shape = [unwrap_variable(d) for d in shape]
        if any(isinstance(d, SymbolicTensor) for d in shape):
            return None
        return tuple(int(d) for d in shape)
    raise TypeError(f"{op_name}: shape must be a list of ints or an int32 tensor, "
                    f"got {shape!r}")


def _at_most_1d(shape, op_name, what="shape"):
    """A shape tensor, refused when it has more than one dimension."""
    if shape.shape.rank is not None and shape.shape.rank > 1:
        raise ValueError(f"{op_name}: {what} must be a 1-D tensor, got shape "
                         f"{rules.dims_text(shape.shape)}")
    return shape


def _shape_tensor(shape, op_name, what="shape"):
    """A shape argument as a 1-D int32 tensor (lists of scalar tensors are stacked)."""
    shape = unwrap_variable(shape)
    if isinstance(shape, Tensor):
        if not shape.dtype.is_integer:
            raise TypeError(f"{op_name}: {what} must be an int32 or int64 tensor, "
                            f"got {shape.dtype.name}")
        return _at_most_1d(shape, op_name, what)
    if isinstance(shape, TensorShape):
        shape = list(_static_dims(shape, op_name))
    if isinstance(shape, (list, tuple)) and any(is_tensor_like(d) for d in shape):
        kind = dtypes.int64 if any(getattr(d, "dtype", None) == dtypes.int64 for d in shape) \
            else dtypes.int32                  # [rt.nrows(), 1]: int64, as TF packs it
        return stack([convert_to_tensor(d, kind) for d in shape])
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    try:
        value = np.asarray(shape, dtype=np.int32)
    except OverflowError:
        raise ValueError(f"{op_name}: {what} has a dimension outside the int32 range, got "
                         f"{shape!r}") from None
    except (TypeError, ValueError):
        raise TypeError(f"{op_name}: {what} must be a list of ints, got {shape!r}") from None
    if value.ndim != 1:
        raise ValueError(f"{op_name}: {what} must be a 1-D list of ints, got {shape!r}")
    return _as_graph_value(value, dtypes.int32)


# --- constants and filled tensors ------------------------------------------------

def constant(value, dtype=None, shape=None, name=None):
    """A constant tensor from a Python/numpy value (`tf.constant`).

    `shape` reshapes a value with that many elements or broadcasts a single one.
    """
    if dtype_promotion.mode() is not None:
        auto = _auto_converted_constant(value, dtype, shape)
        if auto is not None:
            return auto
    if not isinstance(value, Tensor) and reads_as_tensor(value):
        return _constant_of_variable(value, dtype, shape)
    if isinstance(value, (list, tuple)) and any(
            is_tensor_like(v) and not isinstance(v, EagerTensor) for v in flatten_lists(value)):
        t = convert_to_tensor(value)            # stacks the variables' values
        return t if dtype is None else cast(t, dtype)
    if isinstance(value, SymbolicTensor):
        raise TypeError(f"constant: value must be a Python or numpy value, got the symbolic "
                        f"tensor {value!r}; use tf.identity or tf.cast instead")
    if isinstance(value, EagerTensor):
        value = value._value
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    array = to_numpy_value(value, dtype)
    if shape is not None:
        dims = _known_dims(shape, "constant")
        if builtins.any(d < 0 for d in dims):
            raise ValueError(f"constant: dimensions of shape must be >= 0, got {list(dims)}")
        if np.size(array) == int(np.prod(dims)):
            array = np.reshape(array, dims)
        elif np.size(array) == 1:
            array = np.full(dims, np.reshape(array, ())[()], dtype=array.dtype)
        else:
            raise TypeError(f"constant: cannot reshape or broadcast a value with "
                            f"{np.size(array)} elements to shape {list(dims)}")
    return _as_graph_value(array, dtype)


def _auto_converted_constant(value, dtype, shape):
    """`tf.constant` under auto dtype conversion: a WeakTensor of a Python
    number or list (no dtype), and a tensor of another dtype cast to `dtype`."""
    if isinstance(value, WeakTensor):
        value = value.to_tensor()
    if dtype is None:
        found = dtype_promotion.python_type(value)
        if found is not None and found[1]:
            return WeakTensor(constant(value, found[0], shape))
        return None
    dtype = dtypes.as_dtype(dtype)
    if isinstance(value, Tensor) and value.dtype is not dtype:
        out = cast(value, dtype)
        return out if shape is None else reshape(out, shape)
    return None


def _constant_of_variable(variable, dtype, shape):
    """`tf.constant(v)`: the variable's value now (eagerly) or when the graph runs."""
    t = variable._as_tensor()
    if isinstance(t, EagerTensor):
        return constant(t, dtype, shape)
    if dtype is not None:
        t = cast(t, dtype)
    return t if shape is None else reshape(t, shape)


def _filled(shape, dtype, value, op_name):
    dtype = dtypes.as_dtype(dtype)
    dims = _static_dims(shape, op_name)
    if dims is None:
        return fill(shape, constant(value, dtype))
    if builtins.any(d < 0 for d in dims):
        raise ValueError(f"{op_name}: dimensions must be >= 0, got {list(dims)}")
    if builtins.any(d > _MAX_DIM for d in dims):
        raise ValueError(f"{op_name}: a dimension is too large, got {list(dims)}")
    fill_value = (b"" if value == 0 else b"1") if dtype.is_string else value
    return _as_graph_value(np.full(dims, fill_value, dtype=dtype.np_dtype), dtype)


def zeros(shape, dtype=dtypes.float32, name=None):
    """A tensor of `shape` filled with 0 (float32 by default)."""
    out = dispatch_api("zeros", (shape,), shape, dtype)    # ragged shapes
    if out is not NotImplemented:
        return out
    return _filled(shape, dtype, 0, "zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    """A tensor of `shape` filled with 1 (float32 by default)."""
    out = dispatch_api("ones", (shape,), shape, dtype)    # ragged shapes
    if out is not NotImplemented:
        return out
    return _filled(shape, dtype, 1, "ones")


def _infer_fill(inputs, attrs):
    dims, value = inputs
    if value.shape.rank not in (0, None):
        raise ValueError(f"value must be a scalar, got shape {value.shape}")
    target = rules.shape_from_tensor(dims)
    if target.dims is not None and builtins.any(d is not None and d < 0 for d in target.dims):
        raise ValueError(f"dimensions must be >= 0, got {target.as_list()}")   # as TF
    return [(value.dtype, target)]


@define_op("Fill", infer=_infer_fill)
def _fill(dims, value):
    shape = tuple(np.reshape(dims, -1).tolist())
    if np.ndim(value) != 0:
        raise InvalidArgumentError(f"Fill: value must be a scalar, got shape "
                                   f"{list(np.shape(value))}", "Fill")
    if builtins.any(d < 0 for d in shape):
        raise InvalidArgumentError(f"Fill: dimensions must be >= 0, got {list(shape)}", "Fill")
    return np.full(shape, value, dtype=value.dtype)


@define_grad("Fill")
def _fill_grad(op, grad):
    return [None, apply("Sum", (grad,), {"axis": None, "keepdims": False})]


def fill(dims, value, name=None):
    """A tensor of shape `dims` with every element `value` (its dtype)."""
    out = dispatch_api("fill", (dims,), dims, value)    # ragged shapes
    if out is not NotImplemented:
        return out
    value = convert_to_tensor(value)
    return apply("Fill", (_shape_tensor(dims, "Fill"), value))


def _infer_like(inputs, attrs):
    return [(attrs["dtype"] or inputs[0].dtype, inputs[0].shape)]


@define_op("ZerosLike", infer=_infer_like)
def _zeros_like(x, dtype):
    return np.zeros(np.shape(x), dtype=x.dtype if dtype is None else dtype.np_dtype)


@define_op("OnesLike", infer=_infer_like)
def _ones_like(x, dtype):
    return np.ones(np.shape(x), dtype=x.dtype if dtype is None else dtype.np_dtype)


not_differentiable("ZerosLike", "OnesLike")


def zeros_like(input, dtype=None, name=None):  # TensorFlow's name
    """Zeros with the shape (and, by default, dtype) of `input`."""
    out = dispatch_api("zeros_like", (input,), input, dtype)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    return apply("ZerosLike", (convert_to_tensor(input),), {"dtype": dtype})


def ones_like(input, dtype=None, name=None):  # TensorFlow's name
    """Ones with the shape (and, by default, dtype) of `input`."""
    out = dispatch_api("ones_like", (input,), input, dtype)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    return apply("OnesLike", (convert_to_tensor(input),), {"dtype": dtype})


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix [num_rows, num_columns] (square by default), float32."""
    dtype = dtypes.as_dtype(dtype)
    if not all(_known(n) for n in (num_rows, num_columns)):
        return _eye_of_tensors(num_rows, num_columns, batch_shape, dtype)
    rows = _static_int(num_rows, "eye", "num_rows")
    cols = rows if num_columns is None else _static_int(num_columns, "eye", "num_columns")
    matrix = np.eye(rows, cols, dtype=dtype.np_dtype)
    if batch_shape is not None:
        batch = _known_dims(batch_shape, "eye", "batch_shape")
        matrix = np.broadcast_to(matrix, tuple(batch) + matrix.shape).copy()
    return _as_graph_value(matrix, dtype)


def _known(n):
    """Whether a size argument is known while tracing (None counts: absent)."""
    return n is None or not isinstance(n, Tensor) or rules.constant_value(n) is not None


def _eye_of_tensors(num_rows, num_columns, batch_shape, dtype):
    """`eye` whose size is only known when the graph runs (`tf.shape(x)[0]`
    with an unknown batch): row index == column index, as ops."""
    rows = cast(num_rows, dtypes.int32)
    cols = rows if num_columns is None else cast(num_columns, dtypes.int32)
    matrix = cast(math_ops.equal(expand_dims(range(rows), 1), expand_dims(range(cols), 0)),
                  dtype)
    if batch_shape is None:
        return matrix
    batch = list(_known_dims(batch_shape, "eye", "batch_shape"))
    multiples = _shape_tensor(batch + [1, 1], "Tile", "multiples")    # tile_ops' Tile
    return apply("Tile", (reshape(matrix, [1] * len(batch) + [rows, cols]), multiples))


_MAX_DIM = np.iinfo(np.intp).max


def _static_int(v, op_name, what):
    value = rules.static_int(v, op_name, what)
    if value < 0:
        raise ValueError(f"{op_name}: {what} must be >= 0, got {value}")
    if value > _MAX_DIM:
        raise ValueError(f"{op_name}: {what} is too large, got {value}")
    return value


def _known_dims(shape, op_name, what="shape"):
    """A shape argument that must be known while tracing, as a tuple of ints."""
    dims = _static_dims(shape, op_name)
    return rules.static_ints(shape, op_name, what) if dims is None else dims


# --- range ---------------------------------------------------------------------

_RANGE_ORDER = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


def _infer_range(inputs, attrs):
    values = [rules.constant_value(t) for t in inputs]
    if builtins.any(v is None for v in values):
        return [(inputs[0].dtype, TensorShape([None]))]
    try:
        length = _range_length(*values)
    except InvalidArgumentError as e:           # known while tracing: TF's shape function
        raise ValueError(e.message.removeprefix("Range: ")) from None
    return [(inputs[0].dtype, TensorShape([length]))]


def _range_length(start, limit, delta):
    if delta == 0:
        raise InvalidArgumentError(f"Range: Requires delta != 0: {delta}")
    if delta > 0 and start > limit:
        raise InvalidArgumentError(f"Range: Requires start <= limit when delta > 0: "
                                   f"{start}/{limit}")
    if delta < 0 and start < limit:
        raise InvalidArgumentError(f"Range: Requires start >= limit when delta < 0: "
                                   f"{start}/{limit}")
    return int(np.ceil(np.abs((limit - start) / delta)))


@define_op("Range", infer=_infer_range)
def _range(start, limit, delta):
    n = _range_length(start, limit, delta)
    return (start + np.arange(n, dtype=start.dtype) * delta).astype(start.dtype)


not_differentiable("Range")


def range(start, limit=None, delta=1, dtype=None, name="range"):
    """[start, start + delta, ...) up to `limit`, like Python's range.

    The dtype is the widest of the arguments' (int32 < int64 < float32 < float64).
    """
    if limit is None:
        start, limit = 0, start
    args = [unwrap_variable(a) for a in (start, limit, delta)]
    if dtype is None:
        kinds = [a.dtype if isinstance(a, Tensor) else dtypes.dtype_of_python(a) for a in args]
        for what, a, kind in zip(("start", "limit", "delta"), args, kinds):
            if kind is None:
                raise TypeError(f"Range: {what} must be a number or a scalar tensor, "
                                f"got {a!r}")
        dtype = builtins.max(kinds, key=_range_rank)
    dtype = dtypes.as_dtype(dtype)
    args = [cast(a, dtype) if isinstance(a, Tensor) else constant(a, dtype) for a in args]
    for what, a in zip(("start", "limit", "delta"), args):
        if a.shape.rank not in (0, None):
            raise ValueError(f"Range: {what} must be a scalar, got shape {a.shape}")
    return apply("Range", tuple(args))


def _range_rank(dtype):
    if dtype is None or dtype not in _RANGE_ORDER:
        raise TypeError(f"Range: unsupported argument dtype {getattr(dtype, 'name', dtype)}; "
                        "expected one of "
                        "int32, int64, float32, float64")
    return _RANGE_ORDER.index(dtype)


# --- reshape and shape queries ---------------------------------------------------

def _check_vector(t, what):
    if t.shape.rank not in (None, 1):
        raise ValueError(f"{what} must be a 1-D tensor, got shape {rules.dims_text(t.shape)}")
    return t


def _infer_reshape(inputs, attrs):
    x, shape = inputs
    _check_vector(shape, "shape")
    target = rules.shape_from_tensor(shape)
    if target.dims is None:
        return [(x.dtype, target)]
    dims = list(target.dims)
    _check_reshape_sizes(dims, ValueError)
    if dims.count(-1) > 1:
        raise ValueError(f"can only infer one dimension (-1) of shape {dims}")
    known = [d for d in dims if d is not None and d != -1]
    if x.shape.is_fully_defined():
        total = int(np.prod(x.shape.dims))
        if -1 in dims and None not in dims:
            rest = int(np.prod(known))
            if rest == 0 or total % rest:
                raise ValueError(f"Cannot reshape a tensor with {total} elements to shape "
                                 f"{dims}")
            dims[dims.index(-1)] = total // rest
        elif -1 not in dims and None not in dims and total != int(np.prod(dims)):
            raise ValueError(f"Cannot reshape a tensor with {total} elements to shape {dims} "
                             f"({int(np.prod(dims))} elements)")
    return [(x.dtype, TensorShape([None if d == -1 else d for d in dims]))]


def _check_reshape_sizes(dims, error):
    """numpy reads any negative size as -1; TensorFlow refuses all but -1."""
    for i, d in enumerate(dims):
        if d is not None and d < -1:
            raise error(f"Reshape: size {i} must be non-negative (or -1 to infer it), not {d}",
                        *(("Reshape",) if error is InvalidArgumentError else ()))


def _reshape_error(size, dims):
    """TF 2.21's words for sizes that do not fit (its Reshape kernel's)."""
    known = int(np.prod([d for d in dims if d != -1]))
    if -1 in dims and known:
        text = f"the requested shape requires a multiple of {known}"
    elif -1 in dims:
        return InvalidArgumentError(f"Reshape: cannot reshape a tensor of {size} elements to "
                                    f"shape {list(dims)}", "Reshape")
    else:
        text = f"the requested shape has {known}"
    return InvalidArgumentError(f"Reshape: Input to reshape is a tensor with {size} values, "
                                f"but {text}", "Reshape")


@define_op("Reshape", infer=_infer_reshape)
def _reshape(x, shape):
    dims = tuple(shape.tolist())
    _check_reshape_sizes(dims, InvalidArgumentError)
    try:
        return np.reshape(x, dims)
    except ValueError:
        raise _reshape_error(np.size(x), dims) from None


@define_grad("Reshape")
def _reshape_grad(op, grad):
    return [reshape_like(grad, op.inputs[0]), None]


def reshape(tensor, shape, name=None):
    """`tensor` with a new shape of the same size; one dimension may be -1."""
    if tensor.__class__ is WeakTensor:
        return WeakTensor(reshape(tensor.to_tensor(), shape))
    out = dispatch_api("reshape", (shape,), tensor, shape)    # ragged shapes
    if out is not NotImplemented:
        return out
    tensor = convert_to_tensor(tensor)
    if tensor.__class__ is EagerTensor and plain_eager() \
            and isinstance(shape, (list, tuple)) and all(type(d) is int for d in shape):
        _check_reshape_sizes(shape, InvalidArgumentError)
        try:
            return EagerTensor(np.reshape(tensor._value, shape), tensor.dtype)
        except ValueError:
            raise _reshape_error(tensor._value.size, shape) from None
    return apply("Reshape", (tensor, _shape_tensor(shape, "Reshape")))


def _infer_shape(inputs, attrs):
    return [(attrs["out_type"], TensorShape([inputs[0].shape.rank]))]


@define_op("Shape", infer=_infer_shape)
def _shape(x, out_type):
    return np.array(np.shape(x), dtype=out_type.np_dtype)


def shape(input, out_type=dtypes.int32, name=None):  # TensorFlow's name
    """The shape of `input` as a 1-D int32 tensor (known only at run time in graphs);
    of a SparseTensor, its dense_shape."""
    out = dispatch_api("shape", (input,), input, out_type)    # ragged shapes
    if out is not NotImplemented:
        return out
    dense_shape = _sparse_dense_shape(input)
    if dense_shape is not None:
        return _cast(dense_shape, dtypes.as_dtype(out_type))
    return apply("Shape", (convert_to_tensor(input),), {"out_type": dtypes.as_dtype(out_type)})


def _sparse_dense_shape(value):
    """A SparseTensor's dense_shape (TF's tf.shape/size/rank accept one); else None."""
    if isinstance(value, Tensor) or not hasattr(value, "_map_values_op"):
        return None
    return getattr(value, "dense_shape", None)


def _cast(t, dtype):
    return t if t.dtype is dtype else apply("Cast", (t,), {"dtype": dtype})


def _infer_scalar_of(inputs, attrs):
    return [(attrs["out_type"], TensorShape([]))]


@define_op("Size", infer=_infer_scalar_of)
def _size(x, out_type):
    return out_type.np_dtype.type(np.size(x))


@define_op("Rank", infer=_infer_scalar_of)
def _rank(x, out_type):
    return out_type.np_dtype.type(np.ndim(x))


not_differentiable("Shape", "Size", "Rank")


def size(input, out_type=dtypes.int32, name=None):
    """The number of elements of `input`, an int32 scalar."""
    out = dispatch_api("size", (input,), input, out_type)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    dense_shape = _sparse_dense_shape(input)
    if dense_shape is not None:
        total = apply("Prod", (dense_shape,), {"axis": None, "keepdims": False})
        return _cast(total, dtypes.as_dtype(out_type))
    return apply("Size", (convert_to_tensor(input),), {"out_type": dtypes.as_dtype(out_type)})


def rank(input, name=None):
    """The number of dimensions of `input`, an int32 scalar."""
    out = dispatch_api("rank", (input,), input)    # a tf.RaggedTensor
    if out is not NotImplemented:
        return out
    dense_shape = _sparse_dense_shape(input)
    if dense_shape is not None:
        return apply("Size", (dense_shape,), {"out_type": dtypes.int32})
    return apply("Rank", (convert_to_tensor(input),), {"out_type": dtypes.int32})



