"""Tensor indexing and slicing, `t[...]` (the `StridedSlice` op).

A key may hold ints (negative counts from the end), slices with int bounds,
`...`, `None` (tf.newaxis) and scalar integer tensors, as in TensorFlow:

    t[1]          t[-1, :2]        t[..., 0]        t[:, None]        t[i]

The key is parsed once into a static `spec` (a tuple of plain tuples, so the
node prints, hashes and generates code like any other attr); symbolic tensor
indices become extra inputs of the node and are referred to from the spec as
`("input", k)`. An index out of range raises `ValueError` while tracing when
the shape is known, else `InvalidArgumentError` when the op runs.
"""

import numpy as np

from runtime._src.core.context import plain_eager
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.core.tensor import (EagerTensor, SymbolicTensor, Tensor, convert_to_tensor,
                                      unwrap_variable)
from runtime._src.core.tensor_shape import TensorShape

__all__ = ["getitem", "parse_key"]

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
