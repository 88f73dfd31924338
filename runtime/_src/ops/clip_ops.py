"""Clipping by norm: `tf.clip_by_norm`, `tf.clip_by_global_norm` and
`tf.linalg.global_norm`, composed from other ops the way TensorFlow composes
them (so their gradients come from those ops' rules).

    >>> import runtime as tf
    >>> tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0).numpy()
    array([0.6, 0.8], dtype=float32)
"""

import collections.abc

from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.ops.array_ops import ones_like
from runtime._src.ops.math_ops import (add_n, cast, greater, maximum, minimum, multiply,
                                       sqrt, subtract, truediv, where)
from runtime._src.ops.reduction_ops import reduce_sum

__all__ = ["clip_by_norm", "clip_by_global_norm", "global_norm"]


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`t * clip_norm / max(l2norm(t, axes), clip_norm)`: t unchanged where its L2
    norm (over `axes`, all by default) is at most `clip_norm`, else scaled down to
    it. A zero norm gives a zero gradient, not NaN (TF's safe square root)."""
    t = convert_to_tensor(t)
    clip_norm = cast(convert_to_tensor(clip_norm), t.dtype) if isinstance(clip_norm, Tensor) \
        else convert_to_tensor(clip_norm, dtype=t.dtype)
    l2sum = reduce_sum(multiply(t, t), axes, keepdims=True)
    positive = greater(l2sum, 0)
    l2norm = where(positive, sqrt(where(positive, l2sum, ones_like(l2sum))), l2sum)
    return truediv(multiply(t, clip_norm), maximum(l2norm, clip_norm))


def _tensor_list(t_list, what):
    if isinstance(t_list, (Tensor, str, bytes)) or \
            not isinstance(t_list, collections.abc.Sequence):
        raise TypeError(f"`{what}` should be a sequence of tensors. Received {type(t_list)}.")
    return [None if t is None else convert_to_tensor(t) for t in t_list]


def global_norm(t_list, name=None):
    """`sqrt(sum(||t||^2 for t in t_list))`, ignoring None entries."""
    tensors = [t for t in _tensor_list(t_list, "t_list") if t is not None]
    if not tensors:
        raise ValueError("global_norm: t_list has no tensors (only None)")
    return sqrt(add_n([reduce_sum(multiply(t, t)) for t in tensors]))


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """(`[t * clip_norm / max(global_norm, clip_norm)]`, global_norm), with None
    entries kept; a global norm that is inf or NaN makes every value NaN, as in TF."""
    tensors = _tensor_list(t_list, "t_list")
    use_norm = global_norm(tensors) if use_norm is None else convert_to_tensor(use_norm)
    clip_norm = cast(convert_to_tensor(clip_norm, dtype=use_norm.dtype), use_norm.dtype)
    one = convert_to_tensor(1.0, dtype=use_norm.dtype)
    scale = multiply(clip_norm, minimum(truediv(one, use_norm), truediv(one, clip_norm)))
    scale = scale + subtract(use_norm, use_norm)        # NaN when the norm is not finite
    clipped = [None if t is None else multiply(t, cast(scale, t.dtype)) for t in tensors]
    return clipped, use_norm
