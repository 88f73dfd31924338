"""`keras.ops.rearrange`: einops-style axis rearrangement.

    rearrange(images, "b h w c -> b c h w")                       # a transpose
    rearrange(images, "b (h1 h) (w1 w) c -> (b h1 w1) h w c", h1=2, w1=2)

The left side names the input's axes, a parenthesized group splitting one
axis (its parts' lengths from `axes_lengths`, at most one inferred); the
right side orders and groups them. It is a reshape, a transpose and a
reshape, so it works on symbolic shapes and has the gradient of those.
"""

import re

import numpy as np

from runtime._src.keras.ops.operation import keras_op, tensor
from runtime._src.keras.ops.tfops import tf

__all__ = ["rearrange"]

_AXIS = re.compile(r"\(([^)]*)\)|(\w+)")


def _groups(side):
    """[[axis names]] of one side of a pattern, a group per input/output axis."""
    return [m.group(1).split() if m.group(1) is not None else [m.group(2)]
            for m in _AXIS.finditer(side)]


def _lengths(groups, shape, axes_lengths):
    """{axis: length} from the input's shape and the given lengths."""
    if len(groups) != len(shape):
        raise ValueError(f"rearrange: the pattern names {len(groups)} input axes but the "
                         f"tensor has {len(shape)}")
    lengths = dict(axes_lengths)
    for group, size in zip(groups, shape):
        if size is None:                       # unknown while tracing: only a lone axis
            if len(group) > 1 and any(a not in lengths for a in group):
                raise ValueError(f"rearrange: the group {group} splits an axis of unknown "
                                 "length; give its parts' lengths")
            if len(group) == 1:
                lengths.setdefault(group[0], None)
            continue
        unknown = [a for a in group if a not in lengths]
        if len(unknown) > 1:
            raise ValueError(f"rearrange: cannot infer the lengths of {unknown} in one group; "
                             "give all but one of them as keyword arguments")
        known = int(np.prod([lengths[a] for a in group if a in lengths], dtype=np.int64))
        if unknown:
            lengths[unknown[0]] = size // known
        elif len(group) == 1 and group[0] in axes_lengths and size != lengths[group[0]]:
            raise ValueError(f"rearrange: axis {group[0]!r} has length {size}, not "
                             f"{lengths[group[0]]}")
    return lengths


@keras_op
def rearrange(tensor_, pattern, **axes_lengths):
    """`keras.ops.rearrange(tensor, pattern, **axes_lengths)`."""
    x = tensor(tensor_)
    left, _, right = pattern.partition("->")
    if not right:
        raise ValueError(f"rearrange: the pattern must have the form 'in -> out', got "
                         f"{pattern!r}")
    inputs, outputs = _groups(left), _groups(right)
    names = [a for g in inputs for a in g]
    if sorted(names) != sorted(a for g in outputs for a in g):
        raise ValueError(f"rearrange: both sides must name the same axes, got {pattern!r}")
    dims = list(x.shape.dims)
    lengths = _lengths(inputs, dims, axes_lengths)
    if any(v is None for v in lengths.values()):          # from the run-time shape
        runtime_shape = tf.shape(x)
        for i, group in enumerate(inputs):
            if len(group) == 1 and lengths[group[0]] is None:
                lengths[group[0]] = runtime_shape[i]
    split = tf.reshape(x, tf.stack([lengths[a] for a in names]) if _dynamic(lengths)
                       else [lengths[a] for a in names])
    order = [a for g in outputs for a in g]
    moved = tf.transpose(split, [names.index(a) for a in order])
    sizes = [_product([lengths[a] for a in g]) for g in outputs]
    return tf.reshape(moved, tf.stack(sizes) if _dynamic(lengths) else sizes)


def _dynamic(lengths):
    return any(not isinstance(v, (int, np.integer)) for v in lengths.values())


def _product(values):
    out = 1
    for v in values:
        out = out * v
    return out
