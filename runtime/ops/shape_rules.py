"""Dtype/shape inference rules shared by many ops.

Each rule takes `(inputs, attrs)` and returns `[(dtype, shape), ...]`, one
pair per output, raising `ValueError`/`TypeError` that names the problem.
"""

from ..tensor_shape import TensorShape

__all__ = ["same_as_first", "broadcast_shapes", "elementwise", "compare"]


def broadcast_shapes(a, b):
    """numpy broadcasting on partial shapes: unknown dims stay unknown."""
    if a.dims is None or b.dims is None:
        return TensorShape(None)
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
            raise ValueError(f"Incompatible shapes: {a} and {b} (dimension {i}: {p} vs {q})")
    return TensorShape(out)


def same_as_first(inputs, attrs):
    """One output with the first input's dtype and shape (unary math)."""
    return [(inputs[0].dtype, inputs[0].shape)]


def elementwise(inputs, attrs):
    """Binary op on equal dtypes with broadcasting; output has that dtype."""
    x, y = inputs
    _check_same_dtype(x, y)
    return [(x.dtype, broadcast_shapes(x.shape, y.shape))]


def compare(inputs, attrs):
    """Binary comparison: equal dtypes, broadcast, bool output."""
    from .. import dtypes
    x, y = inputs
    _check_same_dtype(x, y)
    return [(dtypes.bool, broadcast_shapes(x.shape, y.shape))]


def _check_same_dtype(x, y):
    if x.dtype != y.dtype:
        raise TypeError(f"inputs must have the same dtype, got {x.dtype.name} and {y.dtype.name}; "
                        "use tf.cast to convert one of them")
