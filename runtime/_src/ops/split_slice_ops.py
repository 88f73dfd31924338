"""`split` (into a number of equal parts or into given sizes, one of them
possibly -1) and `slice` (`begin` and `size`, -1 meaning to the end), with
their gradients. Sizes and begins may be tensors known only when the graph
runs."""

import builtins

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor, unwrap_variable
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad  # gradients
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.shape_args import _dims, int_tensor, kernel_error, op_error

__all__ = ["split", "slice"]


# --- split ----------------------------------------------------------------------------

def _split_axis(axis, rank, error):
    if not -rank <= axis < rank:
        raise error(f"-input rank(-{rank}) <= split_dim < input rank ({rank}), but got {axis}")
    return axis + rank if axis < 0 else axis


def _infer_split(inputs, attrs):
    x, num = inputs[0], attrs["num_split"]
    dims = _dims(x.shape)
    if dims is None:
        return [(x.dtype, TensorShape(None))] * num
    axis = _split_axis(attrs["axis"], len(dims), ValueError)
    n = dims[axis]
    if n is not None and n % num:
        raise ValueError(f"Number of ways to split should evenly divide the split dimension, "
                         f"but got split_dim {axis} (size = {n}) and num_split {num}")
    dims[axis] = None if n is None else n // num
    return [(x.dtype, TensorShape(dims))] * num


@define_op("Split", infer=_infer_split, num_outputs=None)
def _split(x, axis, num_split):
    axis = _split_axis(axis, np.ndim(x), kernel_error("Split"))
    n = np.shape(x)[axis]
    if n % num_split:
        raise InvalidArgumentError(
            f"Split: Number of ways to split should evenly divide the split dimension, but got "
            f"split_dim {axis} (size = {n}) and num_split {num_split}", "Split")
    size, lead = n // num_split, (np.s_[:],) * axis   # views, as np.split's, without its cost
    return tuple(x[lead + (np.s_[k * size:(k + 1) * size],)] for k in range(num_split))


@define_grad("Split")
def _split_grad(op, *grads):
    return [apply("ConcatV2", grads, {"axis": op.attrs["axis"]})]


def _split_sizes(sizes, n, error):
    """The sizes with the -1 filled in; TF's errors for bad ones."""
    sizes = [int(s) for s in sizes]
    if sizes.count(-1) > 1:
        raise error("There can only be one -1 in the input.")
    known = sum(s for s in sizes if s != -1)
    if n is None:
        return [None if s == -1 else s for s in sizes]
    if (-1 in sizes and known > n) or (-1 not in sizes and known != n) or any(
            s < -1 for s in sizes):
        raise error("Determined shape must either match input shape along split_dim exactly "
                    "if fully specified, or be less than the size of the input along split_dim "
                    f"if not fully specified.  Got: {known}")
    return [n - known if s == -1 else s for s in sizes]


def _infer_split_v(inputs, attrs):
    x, sizes = inputs
    num = attrs["num_split"]
    dims = _dims(x.shape)
    if dims is None:
        return [(x.dtype, TensorShape(None))] * num
    axis = _split_axis(attrs["axis"], len(dims), ValueError)
    known = rules.constant_value(sizes)
    parts = [None] * num if known is None else _split_sizes(np.reshape(known, -1), dims[axis],
                                                            ValueError)
    return [(x.dtype, TensorShape(dims[:axis] + [p] + dims[axis + 1:])) for p in parts]


@define_op("SplitV", infer=_infer_split_v, num_outputs=None)
def _split_v(x, sizes, axis, num_split):
    axis = _split_axis(axis, np.ndim(x), kernel_error("SplitV"))
    if np.size(sizes) != num_split:
        raise InvalidArgumentError(f"SplitV: expected {num_split} sizes, got {np.size(sizes)}",
                                   "SplitV")
    parts = _split_sizes(np.reshape(sizes, -1), np.shape(x)[axis], kernel_error("SplitV"))
    return tuple(np.split(x, np.cumsum(parts)[:-1], axis=axis))


@define_grad("SplitV")
def _split_v_grad(op, *grads):
    return [apply("ConcatV2", grads, {"axis": op.attrs["axis"]}), None]


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """`value` cut along `axis` into `num_or_size_splits` equal parts (an int), or
    into parts of the given sizes (a list or 1-D tensor; one size may be -1)."""
    value = convert_to_tensor(value)
    axis = rules.static_int(axis, "Split", "axis")
    sizes = unwrap_variable(num_or_size_splits)
    if isinstance(sizes, (int, np.integer)) and not isinstance(sizes, (bool, np.bool_)):
        if sizes < 1:
            raise op_error("Split", f"num_split {sizes} must be at least minimum 1")
        return list(apply("Split", (value,), {"axis": axis, "num_split": int(sizes)}))
    if isinstance(sizes, Tensor) and sizes.shape.rank == 0:
        raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument "
                         f"to split. Argument provided: {sizes!r}")
    sizes = int_tensor(sizes, "SplitV", "num_or_size_splits")
    if sizes.shape.rank != 1:
        raise ValueError(f"SplitV: num_or_size_splits must be a 1-D list of sizes, got shape "
                         f"{rules.dims_text(sizes.shape)}")
    count = sizes.shape.dims[0]
    if count is None:
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {sizes.shape}")
        count = rules.static_int(num, "SplitV", "num")
    return list(apply("SplitV", (value, sizes), {"axis": axis, "num_split": count}))


# --- slice ------------------------------------------------------------------------------

def _infer_slice(inputs, attrs):
    x, begin, sizes = inputs
    rules.check_same_dtype(begin, sizes)
    dims = _dims(x.shape)
    for t in (begin, sizes):
        if t.shape.rank not in (None, 1) or (dims is not None and t.shape.rank == 1
                                               and t.shape.dims[0] not in (None, len(dims))):
            raise ValueError(f"Expected begin and size arguments to be 1-D tensors of size "
                             f"{'?' if dims is None else len(dims)}, but got shapes "
                             f"{rules.dims_text(begin.shape)} and {rules.dims_text(sizes.shape)} "
                             "instead.")
    b, s = rules.constant_value(begin), rules.constant_value(sizes)
    if dims is None:
        n = next((t.shape.dims[0] for t in (begin, sizes) if t.shape.rank == 1), None)
        return [(x.dtype, TensorShape(None if n is None else [None] * n))]
    b = [None] * len(dims) if b is None else [int(v) for v in b]
    s = [None] * len(dims) if s is None else [int(v) for v in s]
    out = []
    for i, (d, bi, si) in enumerate(zip(dims, b, s)):
        if d is not None and bi is not None and bi > d:
            raise ValueError(f"Expected begin[{i}] in [0, {d}], but got {bi}")
        # Other bad begin/size values fail only when the graph runs, as in TF.
        if si is not None and si != -1:
            out.append(si if si >= 0 else None)
        else:
            out.append(None if si is None or d is None or bi is None else d - bi)
    return [(x.dtype, TensorShape(out))]


def _check_slice_dim(i, d, b, s, error):
    if b is not None and not 0 <= b <= d:
        raise error(f"Expected begin[{i}] in [0, {d}], but got {b}")
    if s is not None and b is not None and s != -1 and not 0 <= s <= d - b:
        raise error(f"Expected size[{i}] in [0, {d - b}], but got {s}")
    if s is not None and s < -1:
        raise error(f"Expected size[{i}] in [0, {d if b is None else d - b}], but got {s}")


@define_op("Slice", infer=_infer_slice)
def _slice(x, begin, sizes):
    if np.shape(begin) != (np.ndim(x),) or np.shape(sizes) != (np.ndim(x),):
        raise InvalidArgumentError(
            f"Slice: Expected begin and size arguments to be 1-D tensors of size {np.ndim(x)}, "
            f"but got shapes {list(np.shape(begin))} and {list(np.shape(sizes))} instead.",
            "Slice")
    key = []
    for i, (d, b, s) in enumerate(zip(np.shape(x), begin.tolist(), sizes.tolist())):
        _check_slice_dim(i, d, b, s, kernel_error("Slice"))
        key.append(builtins.slice(b, d if s == -1 else b + s))
    return x[tuple(key)].copy()


@define_grad("Slice")
def _slice_grad(op, grad):
    x, begin, _ = op.inputs
    return [apply("SliceGrad", (grad, x, begin)), None, None]


def _infer_slice_grad(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


@define_op("SliceGrad", infer=_infer_slice_grad)
def _slice_grad_kernel(grad, x, begin):
    """Zeros like x with the slice's gradient placed at `begin`."""
    out = np.zeros(np.shape(x), grad.dtype)
    out[tuple(builtins.slice(int(b), int(b) + d) for b, d in zip(begin, grad.shape))] = grad
    return out


@define_grad("SliceGrad")
def _slice_grad_grad(op, grad):
    # SliceGrad places a block into zeros; its gradient cuts the same block out.
    block, _, begin = op.inputs
    size = apply("Shape", (block,), {"out_type": begin.dtype})
    return [apply("Slice", (grad, begin, size)), None, None]


def slice(input_, begin, size, name=None):  # TensorFlow's name
    """The block of `input_` starting at `begin` with extent `size` (-1: to the end)."""
    input_ = convert_to_tensor(input_)
    begin = unwrap_variable(begin)
    size = unwrap_variable(size)
    dtype = next((t.dtype for t in (begin, size) if isinstance(t, Tensor)), dtypes.int32)
    begin = int_tensor(begin, "Slice", "begin", dtype)
    size = int_tensor(size, "Slice", "size", dtype)
    if begin.dtype != size.dtype:
        raise TypeError(f"Slice: begin and size must have the same dtype, got "
                        f"{begin.dtype.name} and {size.dtype.name}")
    return apply("Slice", (input_, begin, size))
