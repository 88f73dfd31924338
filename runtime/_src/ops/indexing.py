"""Tensor indexing and slicing, `t[...]` and `tf.strided_slice` (the `StridedSlice` op).

A key may hold ints (negative counts from the end), slices with int bounds,
`...`, `None` (tf.newaxis) and scalar integer tensors, as in TensorFlow:

    t[1]          t[-1, :2]        t[..., 0]        t[:, None]        t[i]

The key is parsed once into a static `spec` (a tuple of plain tuples, so the
node prints, hashes and generates code like any other attr); symbolic tensor
indices become extra inputs of the node and are referred to from the spec as
`("input", k)`. An index out of range raises `ValueError` while tracing when
the shape is known, else `InvalidArgumentError` when the op runs.

`strided_slice(x, begin, end, strides, *masks)` turns its arguments into the
same key (`begin_mask` bit i: `None` start, `ellipsis_mask`: `...`,
`new_axis_mask`: `None`, `shrink_axis_mask`: an int index), so both share
one op and one set of shape rules.
"""

import numpy as np

from runtime._src.core.context import current_graph, plain_eager
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.core.tensor import (EagerTensor, SymbolicTensor, Tensor, convert_to_tensor,
                                      unwrap_variable)
from runtime._src.core.tensor_shape import TensorShape

__all__ = ["getitem", "parse_key", "strided_slice"]

_VALID = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
          "scalar tf.int32/tf.int64 tensors are valid indices")


def getitem(tensor, key):
    """tensor[key] with TensorFlow's indexing rules (no fancy or bool indexing)."""
    if not isinstance(tensor, Tensor):
        tensor = convert_to_tensor(tensor)
    if tensor.__class__ is EagerTensor and plain_eager() and _is_simple(key):
        try:
            return EagerTensor(tensor._value[key], tensor.dtype)
        except (IndexError, ValueError):
            pass  # the general path below explains which index is bad
    spec, dynamic = parse_key(key)
    return apply("StridedSlice", (tensor, *dynamic), {"spec": spec})


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0,
                  ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """`tf.strided_slice`: `input_[begin:end:strides]` per dimension, with TF's masks.

    Bit i of a mask applies to entry i of `begin`/`end`/`strides`: `begin_mask`
    and `end_mask` ignore that bound (slice from the start / to the end),
    `ellipsis_mask` makes the entry `...`, `new_axis_mask` makes it
    `tf.newaxis`, and `shrink_axis_mask` indexes with `begin[i]` (dropping the
    dimension). The entries become the same key `t[...]` builds.
    """
    begin = _bound_list(begin, "begin")
    end = _bound_list(end, "end")
    strides = [1] * len(begin) if strides is None else _bound_list(strides, "strides")
    if not len(begin) == len(end) == len(strides):
        raise _arg_error(f"Expected begin, end, and strides to be 1D equal size tensors, but got "
                         f"shapes [{len(begin)}], [{len(end)}], and [{len(strides)}] instead.")
    masks = [_mask(m, what) for m, what in ((begin_mask, "begin_mask"), (end_mask, "end_mask"),
                                             (ellipsis_mask, "ellipsis_mask"),
                                             (new_axis_mask, "new_axis_mask"),
                                             (shrink_axis_mask, "shrink_axis_mask"))]
    b_mask, e_mask, ell_mask, new_mask, shrink_mask = masks
    if bin(ell_mask & ((1 << len(begin)) - 1)).count("1") > 1:
        raise _arg_error("Multiple ellipses in slice spec not allowed")
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ell_mask & bit:
            key.append(Ellipsis)
        elif new_mask & bit:
            key.append(None)
        elif isinstance(s, int) and s == 0:
            raise _arg_error(f"strides[{i}] must be non-zero")
        elif shrink_mask & bit:
            if isinstance(s, int) and s < 0:
                raise _arg_error("only stride 1 allowed on non-range indexing.")
            key.append(b)
        else:
            key.append(slice(None if b_mask & bit else b, None if e_mask & bit else e, s))
    return getitem(input_, tuple(key))


def _arg_error(message):
    """A bad argument: InvalidArgumentError eagerly (as TF's kernel), ValueError while tracing."""
    message = f"StridedSlice: {message}"
    if current_graph() is None:
        return InvalidArgumentError(message, "StridedSlice")
    return ValueError(message)


def _bound_list(value, what):
    """begin/end/strides as a list of ints and scalar tensors (from a list or a 1-D tensor)."""
    value = unwrap_variable(value)
    if isinstance(value, EagerTensor):
        if not value.dtype.is_integer or np.ndim(value._value) != 1:
            raise TypeError(f"StridedSlice: {what} must be a 1-D int32 or int64 tensor, got a "
                            f"{value.dtype.name} tensor of shape {value.shape}")
        return [int(v) for v in value._value]
    if isinstance(value, Tensor):
        n = value.shape.dims[0] if value.shape.rank == 1 else None
        if not value.dtype.is_integer or value.shape.rank != 1 or n is None:
            raise TypeError(f"StridedSlice: {what} must be a 1-D int32 or int64 tensor of known "
                            f"length, got {value!r}")
        return [getitem(value, i) for i in range(n)]
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"StridedSlice: {what} must be a list of ints or a 1-D integer "
                        f"tensor, got {value!r}")
    out = []
    for v in value:
        v = unwrap_variable(v)
        if isinstance(v, Tensor):
            if isinstance(v, EagerTensor):
                out.append(_static_int(v))
            else:
                _check_index_tensor(v)
                out.append(v)
        elif isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
            out.append(int(v))
        else:
            raise TypeError(f"StridedSlice: {what} must hold ints (int32 or int64), got "
                            f"{v!r} in {value!r}")
    return out


def _mask(value, what):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"StridedSlice: {what} must be an int bit mask, got {value!r}")
    return int(value)


def _is_simple(key):
    """True for keys numpy indexes exactly as TensorFlow does: ints, int slices, ..., None."""
    kind = type(key)
    if kind is int:
        return True
    if kind is slice:
        return _simple_slice(key)
    if kind is not tuple:
        return False
    for k in key:
        kind = type(k)
        if not (kind is int or k is None or k is Ellipsis
                or (kind is slice and _simple_slice(k))):
            return False
    return True


def _simple_slice(s):
    return all(v is None or type(v) is int for v in (s.start, s.stop, s.step))


def parse_key(key):
    """(spec, symbolic index tensors) for an indexing key."""
    if not isinstance(key, tuple):
        key = (key,)
    spec, dynamic = [], []

    def bound(v):
        if v is None:
            return None
        v = unwrap_variable(v)
        if isinstance(v, SymbolicTensor):
            _check_index_tensor(v)
            dynamic.append(v)
            return ("input", len(dynamic))
        return _static_int(v)

    for k in key:
        if k is Ellipsis:
            spec.append(("ellipsis",))
        elif k is None:
            spec.append(("newaxis",))
        elif isinstance(k, slice):
            step = bound(k.step)
            if step == 0:
                raise ValueError("slice step cannot be zero")
            spec.append(("slice", bound(k.start), bound(k.stop), step))
        else:
            spec.append(("index", bound(k)))
    if sum(1 for s in spec if s[0] == "ellipsis") > 1:
        raise ValueError("Multiple ellipses in slice spec not allowed")
    return tuple(spec), dynamic


def _static_int(v):
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{_VALID}, got {v!r}")
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, EagerTensor):
        if not v.dtype.is_integer or np.ndim(v._value) != 0:
            raise TypeError(f"{_VALID}, got a {v.dtype.name} tensor of shape {v.shape}")
        return int(v._value)
    raise TypeError(f"{_VALID}, got {v!r}")


def _check_index_tensor(t):
    if not t.dtype.is_integer or t.shape.rank not in (0, None):
        raise TypeError(f"{_VALID}, got {t!r}")


# --- the op --------------------------------------------------------------------

def _walk(spec, rank):
    """Pair each spec entry with the input dimension it reads (None if none).

    Returns (pairs, first dimension left after the key) or raises ValueError
    when the key has more indices than the tensor has dims.
    """
    used = sum(1 for s in spec if s[0] in ("index", "slice"))
    if used > rank:
        raise ValueError(f"Index out of range using input dim {rank}; input has only "
                         f"{rank} dims")
    pairs, dim = [], 0
    for s in spec:
        if s[0] == "ellipsis":
            pairs.append((s, range(dim, dim + rank - used)))
            dim += rank - used
        elif s[0] == "newaxis":
            pairs.append((s, None))
        else:
            pairs.append((s, dim))
            dim += 1
    return pairs, dim


def _infer_strided_slice(inputs, attrs):
    x = inputs[0]
    dims = x.shape.dims
    if dims is None:
        return [(x.dtype, TensorShape(None))]
    pairs, rest = _walk(attrs["spec"], len(dims))
    out = []
    for s, d in pairs:
        kind = s[0]
        if kind == "ellipsis":
            out.extend(dims[i] for i in d)
        elif kind == "newaxis":
            out.append(1)
        elif kind == "index":
            _check_static_index(s[1], d, dims[d])
        else:
            out.append(_slice_length(s[1:], dims[d]))
    out.extend(dims[rest:])
    return [(x.dtype, TensorShape(out))]


def _check_static_index(i, d, n):
    if isinstance(i, int) and n is not None and not -n <= i < n:
        raise ValueError(f"slice index {i} of dimension {d} out of bounds "
                         f"(dimension {d} has size {n})")


def _slice_length(bounds, n):
    if n is None or any(isinstance(b, tuple) for b in bounds):
        return None
    return len(range(*slice(*bounds).indices(n)))


@define_op("StridedSlice", infer=_infer_strided_slice)
def _strided_slice(x, *dynamic, spec):
    key = tuple(_numpy_key_part(s, dynamic) for s in spec)
    try:
        return x[key]
    except IndexError:
        raise _index_error(x, spec, dynamic) from None


@define_grad("StridedSlice")
def _strided_slice_grad(op, grad):
    x, *dynamic = op.inputs
    return [apply("StridedSliceGrad", (grad, x, *dynamic), dict(op.attrs))] + [None] * len(dynamic)


def _infer_strided_slice_grad(inputs, attrs):
    return [(inputs[0].dtype, inputs[1].shape)]


@define_op("StridedSliceGrad", infer=_infer_strided_slice_grad)
def _strided_slice_grad_kernel(grad, x, *dynamic, spec):
    """Zeros like x with grad written where the slice `spec` took its values."""
    out = np.zeros(np.shape(x), grad.dtype)
    out[tuple(_numpy_key_part(s, dynamic) for s in spec)] = grad
    return out


@define_grad("StridedSliceGrad")
def _strided_slice_grad_grad(op, grad):
    _, x, *dynamic = op.inputs
    return [apply("StridedSlice", (grad, *dynamic), dict(op.attrs)), None] + [None] * len(dynamic)


def _value(v, dynamic):
    if isinstance(v, tuple):
        return int(dynamic[v[1] - 1])
    return v


def _numpy_key_part(s, dynamic):
    kind = s[0]
    if kind == "index":
        return _value(s[1], dynamic)
    if kind == "slice":
        step = _value(s[3], dynamic)
        if step == 0:
            raise InvalidArgumentError("StridedSlice: slice step cannot be zero")
        return slice(_value(s[1], dynamic), _value(s[2], dynamic), step)
    if kind == "newaxis":
        return None
    return Ellipsis


def _index_error(x, spec, dynamic):
    """InvalidArgumentError naming the index that is out of range."""
    try:
        pairs, _ = _walk(spec, np.ndim(x))
    except ValueError as e:
        return InvalidArgumentError(f"StridedSlice: {e}")
    for s, d in pairs:
        if s[0] == "index":
            i, n = _value(s[1], dynamic), np.shape(x)[d]
            if not -n <= i < n:
                return InvalidArgumentError(
                    f"StridedSlice: slice index {i} of dimension {d} out of bounds "
                    f"(dimension {d} has size {n})")
    return InvalidArgumentError(f"StridedSlice: invalid index for a tensor of shape "
                                f"{list(np.shape(x))}")
