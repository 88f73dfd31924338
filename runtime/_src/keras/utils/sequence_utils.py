"""`keras.utils.pad_sequences` and `keras.utils.normalize`.

    pad_sequences([[1, 2, 3], [4, 5]])        # [[1, 2, 3], [0, 4, 5]] int32 (Keras 3's
                                              # defaults: padding and truncating "pre")
    pad_sequences(seqs, maxlen=4, padding="post", truncating="post", value=-1)
    normalize(x, axis=-1, order=2)            # x over its norm along axis

`pad_sequences` returns a numpy array, as Keras. `normalize` of a numpy
array returns a numpy array (a zero norm divides by 1); of anything else a
tensor, `x / max(norm, epsilon())` (L2: `x * min(rsqrt(sum(x**2)), 1/epsilon)`).
"""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.backend import config as backend_config
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["pad_sequences", "normalize"]


def _lengths_and_sample_shape(sequences):
    lengths, sample_shape = [], None
    for seq in sequences:
        try:
            lengths.append(len(seq))
        except TypeError as e:
            raise ValueError("`sequences` must be a list of iterables. "
                             f"Found non-iterable: {seq}") from e
        if sample_shape is None and len(seq):
            sample_shape = np.asarray(seq).shape[1:]
    return lengths, sample_shape or ()


def _check_modes(padding, truncating):
    if padding not in ("pre", "post"):
        raise ValueError(f'Padding type "{padding}" not understood')
    if truncating not in ("pre", "post"):
        raise ValueError(f'Truncating type "{truncating}" not understood')


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """A (len(sequences), maxlen, ...) numpy array of the sequences, padded
    with `value` and cut to `maxlen` (the longest length when None)."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    _check_modes(padding, truncating)
    lengths, sample_shape = _lengths_and_sample_shape(sequences)
    if maxlen is None:
        maxlen = max(lengths) if lengths else 0
    is_text = dtype is not object and (np.issubdtype(dtype, np.str_)
                                       or np.issubdtype(dtype, np.bytes_))
    if isinstance(value, str) and dtype is not object and not is_text:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: "
                         f"{type(value)}\nYou should set `dtype=object` for variable length "
                         "strings.")
    out = np.full((len(sequences), maxlen) + tuple(sample_shape), value, dtype=dtype)
    for index, seq in enumerate(sequences):
        if not len(seq) or not maxlen:
            continue
        kept = np.asarray(seq[-maxlen:] if truncating == "pre" else seq[:maxlen], dtype=dtype)
        if kept.shape[1:] != tuple(sample_shape):
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position "
                             f"{index} is different from expected shape {sample_shape}")
        if padding == "post":
            out[index, :len(kept)] = kept
        else:
            out[index, -len(kept):] = kept
    return out


def normalize(x, axis=-1, order=2):
    """`x` divided by its `order`-norm along `axis` (numpy in, numpy out)."""
    if isinstance(x, np.ndarray):
        norm = np.linalg.norm(x, order, axis, keepdims=True)
        norm[norm == 0] = 1
        return x / norm
    if not isinstance(order, int) or order < 1:
        raise ValueError(f"Argument `order` must be an int >= 1. Received: order={order}")
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"normalize: `x` must be a float tensor; got dtype "
                                   f"{x.dtype.name}. Cast it first: tf.cast(x, tf.float32)")
    if x.shape.rank == 0:
        x = array_ops.expand_dims(x, 0)
    eps = backend_config.epsilon()
    if order == 2:
        square_sum = reduction_ops.reduce_sum(math_ops.square(x), axis=axis, keepdims=True)
        return x * math_ops.minimum(math_ops.rsqrt(square_sum), 1.0 / eps)
    norm = reduction_ops.norm(x, ord=order, axis=axis, keepdims=True)
    return x / math_ops.maximum(norm, eps)
