"""`keras.ops` math: segment reductions, `top_k`, `logsumexp`, `erf` and
the other functions of Keras's `ops/math.py`."""

import numpy as np

from runtime._src.keras.ops.operation import (cast_to, keras_op, standardize_dtype, tensor,
                                              to_float)
from runtime._src.ops import fft_ops, image_color, signal_spectral, signal_windows
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



# -- Fourier transforms: (real, imag) pairs over tf.signal's FFT ops ------------

def _complex_of(x, op_name):
    """The complex tensor of a (real, imag) pair of float tensors."""
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"{op_name}: Input `x` should be a tuple of two tensors - real and "
                         f"imaginary. Received: x={x}")
    re, im = to_float(x[0]), to_float(x[1])
    if re.shape.as_list() != im.shape.as_list():
        raise ValueError(f"{op_name}: Input `x` should be a tuple of two tensors - real and "
                         f"imaginary. Both the real and imaginary parts should have the same "
                         f"shape. Received: x[0].shape = {re.shape}, x[1].shape = {im.shape}")
    return tf.complex(re, cast_to(im, re.dtype.name))


def _parts(z):
    return tf.real(z), tf.imag(z)


@_export
@keras_op
def fft(x):
    """`keras.ops.fft(x)`: x = (real, imag); the DFT along the last axis."""
    return _parts(fft_ops.fft(_complex_of(x, "fft")))


@_export
@keras_op
def fft2(x):
    """`keras.ops.fft2(x)`: x = (real, imag); the DFT over the last two axes."""
    return _parts(fft_ops.fft2d(_complex_of(x, "fft2")))


@_export
@keras_op
def ifft2(x):
    """`keras.ops.ifft2(x)`: x = (real, imag); the inverse DFT over the last two axes."""
    return _parts(fft_ops.ifft2d(_complex_of(x, "ifft2")))


@_export
@keras_op
def rfft(x, fft_length=None):
    """`keras.ops.rfft(x, fft_length=None)`: (real, imag) of the first
    fft_length // 2 + 1 frequencies of real x (cut or zero-padded to fft_length)."""
    length = None if fft_length is None else [fft_length]
    return _parts(fft_ops.rfft(to_float(x), length))


@_export
@keras_op
def irfft(x, fft_length=None):
    """`keras.ops.irfft(x, fft_length=None)`: the real signal of length
    fft_length (2 * (m - 1) by default) whose rfft is x = (real, imag)."""
    length = None if fft_length is None else [fft_length]
    return fft_ops.irfft(_complex_of(x, "irfft"), length)


def _stft_window(window, sequence_length, fft_length, dtype):
    """Keras's window (a name, an array or None) centered in fft_length samples."""
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError('If a string is passed to `window`, it must be one of `"hann"`, '
                             f'`"hamming"`. Received: window={window}')
        make = signal_windows.hann_window if window == "hann" else signal_windows.hamming_window
        values = make(sequence_length, periodic=True, dtype=dtype)
    else:
        values = cast_to(tensor(window), dtype.name)
    if values.shape.rank != 1 or values.shape.as_list()[0] != sequence_length:
        raise ValueError("The shape of `window` must be equal to [sequence_length]."
                         f"Received: window shape={values.shape}")
    left = (fft_length - sequence_length) // 2
    return tf.pad(values, [[left, fft_length - sequence_length - left]])


def _check_stride(sequence_stride):
    if not isinstance(sequence_stride, int) or sequence_stride <= 0:
        raise ValueError("`sequence_stride` must be a positive integer. "
                         f"Received: sequence_stride={sequence_stride}")


@_export
@keras_op
def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """`keras.ops.stft`: (real, imag) of the short-time Fourier transform of
    float x [..., samples] -> [..., frames, fft_length // 2 + 1]; with `center`
    x is reflect-padded by fft_length // 2 at both ends."""
    _check_stride(sequence_stride)
    x = tensor(x)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"Invalid input type. Expected `float32` or `float64`. Received: "
                        f"input type={x.dtype.name}")
    if fft_length < sequence_length:
        raise ValueError("`fft_length` must equal or larger than `sequence_length`. Received: "
                         f"sequence_length={sequence_length}, fft_length={fft_length}")
    win = _stft_window(window, sequence_length, fft_length, x.dtype)
    if center:
        pads = [[0, 0]] * (x.shape.rank - 1) + [[fft_length // 2, fft_length // 2]]
        x = tf.pad(x, pads, mode="REFLECT")
    spectrum = signal_spectral.stft(x, fft_length, sequence_stride, fft_length=fft_length,
                                    window_fn=None if win is None else lambda n, dtype: win)
    return _parts(spectrum)


@_export
@keras_op
def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann",
          center=True):
    """`keras.ops.istft`: the signal whose `stft` is x = (real, imag), with
    the windows' overlap divided out; `length` crops it (after the centering pad)."""
    _check_stride(sequence_stride)
    spectrum = _complex_of(x, "istft")
    dtype = spectrum.dtype.real_dtype
    win = _stft_window(window, sequence_length, fft_length, dtype)
    window_fn = None if win is None else signal_spectral.inverse_stft_window_fn(
        sequence_stride, lambda n, dtype: win)
    frames = spectrum.shape.as_list()[-2]
    out = signal_spectral.inverse_stft(spectrum, fft_length, sequence_stride,
                                       fft_length=fft_length, window_fn=window_fn)
    start = fft_length // 2 if center else 0
    if length is not None:
        return out[..., start:start + length]
    if center:
        return out[..., start:-(fft_length // 2)]
    if frames is None:
        return out
    return out[..., start:fft_length + sequence_stride * (frames - 1)]


__all__.sort()
