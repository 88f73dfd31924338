"""`keras.ops` math: segment reductions, `top_k`, `logsumexp`, `erf` and
the other functions of Keras's `ops/math.py`."""

import numpy as np

from runtime._src.keras.ops.operation import (cast_to, keras_op, standardize_dtype, tensor,
                                              to_float)
from runtime._src.ops import image_color
from runtime._src.keras.ops.tfops import tf

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _segment(name, sorted_fn, unsorted_fn):
    def fn(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
        data, ids = tensor(data), cast_to(tensor(segment_ids), "int32")
        if num_segments is None:
            return sorted_fn(data, ids)
        return unsorted_fn(data, ids, num_segments)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(data, segment_ids, num_segments=None, sorted=False)`."
    return _export(keras_op(fn))


segment_sum = _segment("segment_sum", tf.segment_sum, tf.unsorted_segment_sum)
segment_max = _segment("segment_max", tf.segment_max, tf.unsorted_segment_max)


@_export
@keras_op
def top_k(x, k, sorted=True):  # noqa: A002
    """`keras.ops.top_k(x, k, sorted=True)`: (values, int32 indices)."""
    values, indices = tf.top_k(tensor(x), k=k, sorted=sorted)
    return values, cast_to(indices, "int32")


@_export
@keras_op
def in_top_k(targets, predictions, k):
    """`keras.ops.in_top_k(targets, predictions, k)`: bools."""
    predictions = tensor(predictions)
    targets = cast_to(tensor(targets), "int32")
    target_score = tf.gather(predictions, targets, axis=1, batch_dims=1)
    higher = tf.reduce_sum(cast_to(predictions > tf.expand_dims(target_score, 1), "int32"),
                           axis=1)
    return higher < k


@_export
@keras_op
def logsumexp(x, axis=None, keepdims=False):
    """`keras.ops.logsumexp(x, axis=None, keepdims=False)`."""
    return tf.reduce_logsumexp(to_float(x), axis=axis, keepdims=keepdims)


@_export
@keras_op
def erf(x):
    """`keras.ops.erf(x)`."""
    return tf.erf(to_float(x))


@_export
@keras_op
def erfinv(x):
    """`keras.ops.erfinv(x)`, by Newton steps from a rational start."""
    x = to_float(x)
    a = 0.147
    ln = tf.log(1.0 - x * x)
    t = 2.0 / (3.14159265358979 * a) + ln / 2.0
    y = tf.sign(x) * tf.sqrt(tf.sqrt(t * t - ln / a) - t)
    for _ in range(3):
        y = y - (tf.erf(y) - x) / (1.1283791670955126 * tf.exp(-y * y))
    return y


@_export
@keras_op
def rsqrt(x):
    """`keras.ops.rsqrt(x)`."""
    return tf.rsqrt(to_float(x))


@_export
@keras_op
def extract_sequences(x, sequence_length, sequence_stride):
    """`keras.ops.extract_sequences(x, sequence_length, sequence_stride)`: frames
    of the last axis."""
    x = tensor(x)
    n = x.shape.as_list()[-1]
    starts = range(0, n - sequence_length + 1, sequence_stride)
    return tf.stack([x[..., s:s + sequence_length] for s in starts], axis=-2)



@_export
@keras_op
def erfc(x):
    """`keras.ops.erfc(x)`."""
    return tf.erfc(to_float(x))


@_export
@keras_op
def logdet(x):
    """`keras.ops.logdet(x)`: log det of a positive-definite matrix."""
    return tf.logdet(to_float(x))


@_export
@keras_op
def saturate_cast(x, dtype):
    """`keras.ops.saturate_cast(x, dtype)`: clipped to dtype's range, then cast."""
    return image_color.saturate_cast(tensor(x), standardize_dtype(dtype))



def _segment_unsorted(name, combine, init):
    def fn(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
        data, ids = tensor(data), cast_to(tensor(segment_ids), "int32")
        if num_segments is None:
            num_segments = int(tf.reduce_max(ids)) + 1
        if callable(init):
            init_value = init(data.dtype)
        else:
            init_value = init
        onehot = tf.one_hot(ids, num_segments, dtype="bool")
        shape = [-1, num_segments] + [1] * (len(data.shape) - 1)
        mask = tf.reshape(onehot, shape)
        expanded = tf.expand_dims(data, 1)
        filled = tf.where(mask, expanded * tf.ones_like(tf.cast(mask, data.dtype)),
                          tf.fill(tf.shape(expanded * tf.ones_like(tf.cast(mask, data.dtype))),
                                  tensor(init_value, data.dtype)))
        return combine(filled, axis=0)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(data, segment_ids, num_segments=None, sorted=False)`."
    return _export(keras_op(fn))


segment_prod = _segment_unsorted("segment_prod", tf.reduce_prod, 1)


@_export
def switch(index, branches, *operands):
    """`keras.ops.switch(index, branches, *operands)`: branches[index](*operands),
    index clamped to the branches."""
    index = tf.clip_by_value(cast_to(tensor(index), "int32"), 0, len(branches) - 1)
    return tf.switch_case(index, [lambda b=b: b(*operands) for b in branches])



def _largest(dtype):
    return (np.finfo if dtype.is_floating else np.iinfo)(dtype.np_dtype).max


segment_min = _segment_unsorted("segment_min", tf.reduce_min, _largest)


@_export
@keras_op
def cdist(x1, x2, p=2.0):
    """`keras.ops.cdist(x1, x2, p=2.0)`: pairwise p-norm distances of the rows
    (the last two axes; leading axes are batch)."""
    a, b = to_float(x1), to_float(x2)
    diff = tf.abs(tf.expand_dims(a, -2) - tf.expand_dims(b, -3))
    if p == 2.0:
        return tf.sqrt(tf.reduce_sum(tf.square(diff), axis=-1))
    if p == 1.0:
        return tf.reduce_sum(diff, axis=-1)
    if p == float("inf"):
        return tf.reduce_max(diff, axis=-1)
    return tf.pow(tf.reduce_sum(tf.pow(diff, float(p)), axis=-1), 1.0 / p)



@_export
@keras_op
def view_as_real(x):
    """`keras.ops.view_as_real(x)`: a complex tensor as (..., 2) floats."""
    x = tensor(x)
    return tf.stack([tf.real(x), tf.imag(x)], axis=-1)


@_export
@keras_op
def view_as_complex(x):
    """`keras.ops.view_as_complex(x)`: (..., 2) floats as a complex tensor."""
    x = to_float(x)
    return tf.complex(x[..., 0], x[..., 1])



# -- Fourier transforms, as products with cos/sin matrices (differentiable,
# exact to float rounding for the short signals Keras's examples use) -------

def _dot_last(x, matrix):
    """x's last axis contracted with matrix's first (x may be 1-D)."""
    return tf.tensordot(x, matrix, [[len(x.shape) - 1], [0]])


def _angles(n_out, n_in, sign, dtype):
    k = np.arange(n_out).reshape(-1, 1)
    t = np.arange(n_in).reshape(1, -1)
    theta = 2.0 * np.pi * ((k * t) % max(n_in, 1)) / max(n_in, 1)
    return (tensor(np.cos(theta).T.astype(dtype)),
            tensor((sign * np.sin(theta)).T.astype(dtype)))


def _dft_last(re, im, inverse=False):
    """(re, im) transformed along the last axis."""
    n = re.shape.as_list()[-1]
    cos, sin = _angles(n, n, 1.0 if inverse else -1.0, re.dtype.np_dtype)
    out_re = _dot_last(re, cos) - _dot_last(im, sin)
    out_im = _dot_last(re, sin) + _dot_last(im, cos)
    if inverse:
        out_re, out_im = out_re / float(n), out_im / float(n)
    return out_re, out_im


def _complex_pair(x):
    re, im = x
    re, im = to_float(re), to_float(im)
    if re.shape.as_list()[-1] is None:
        raise ValueError("the transformed axis needs a known length")
    return re, im


def _swap_last_two(t):
    rank = len(t.shape)
    return tf.transpose(t, list(range(rank - 2)) + [rank - 1, rank - 2])


@_export
def fft(x):
    """`keras.ops.fft(x)`: x = (real, imag); the DFT along the last axis."""
    return _dft_last(*_complex_pair(x))


def _dft2(x, inverse):
    re, im = _dft_last(*_complex_pair(x), inverse=inverse)
    re, im = _dft_last(_swap_last_two(re), _swap_last_two(im), inverse=inverse)
    return _swap_last_two(re), _swap_last_two(im)


@_export
def fft2(x):
    """`keras.ops.fft2(x)`: x = (real, imag); the DFT over the last two axes."""
    return _dft2(x, inverse=False)


@_export
def ifft2(x):
    """`keras.ops.ifft2(x)`: x = (real, imag); the inverse DFT over the last two axes."""
    return _dft2(x, inverse=True)


@_export
@keras_op
def rfft(x, fft_length=None):
    """`keras.ops.rfft(x, fft_length=None)`: (real, imag) of the first
    fft_length // 2 + 1 frequencies of real x (cut or zero-padded to fft_length)."""
    x = to_float(x)
    n = x.shape.as_list()[-1]
    length = n if fft_length is None else int(fft_length)
    if length < n:
        x = x[..., :length]
    elif length > n:
        x = tf.pad(x, [[0, 0]] * (len(x.shape) - 1) + [[0, length - n]])
    cos, sin = _angles(length // 2 + 1, length, -1.0, x.dtype.np_dtype)
    return _dot_last(x, cos), _dot_last(x, sin)


@_export
def irfft(x, fft_length=None):
    """`keras.ops.irfft(x, fft_length=None)`: the real signal of length
    fft_length (2 * (m - 1) by default) whose rfft is x = (real, imag)."""
    re, im = _complex_pair(x)
    m = re.shape.as_list()[-1]
    n = 2 * (m - 1) if fft_length is None else int(fft_length)
    used = n // 2 + 1
    if used > m:
        pad = [[0, 0]] * (len(re.shape) - 1) + [[0, used - m]]
        re, im = tf.pad(re, pad), tf.pad(im, pad)
    re, im = re[..., :used], im[..., :used]
    k = np.arange(used)
    weights = np.where((k == 0) | ((n % 2 == 0) & (k == n // 2)), 1.0, 2.0)
    theta = 2.0 * np.pi * ((k.reshape(-1, 1) * np.arange(n).reshape(1, -1)) % n) / n
    dtype = re.dtype.np_dtype
    cos = tensor((weights.reshape(-1, 1) * np.cos(theta) / n).astype(dtype))
    sin = tensor((weights.reshape(-1, 1) * np.sin(theta) / n).astype(dtype))
    return _dot_last(re, cos) - _dot_last(im, sin)


__all__.sort()
