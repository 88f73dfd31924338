"""Window functions of `tf.signal`: `hann_window`, `hamming_window`,
`kaiser_window`, `kaiser_bessel_derived_window`, `vorbis_window`.

A window depends only on its (Python or constant) length, so it is computed
with numpy in double precision and returned as a constant of `dtype`
(float32 by default). TensorFlow's special cases are kept: a periodic window
of odd length is symmetric (the period is L + even - 1), a Kaiser-Bessel
derived window has 2 * (L // 2) samples, and a window of length 1 is [1.]:

    >>> hann_window(5)
    <tf.Tensor: shape=(5,), dtype=float32, numpy=array([0. , 0.5, 1. , 0.5, 0. ], dtype=float32)>
    >>> kaiser_bessel_derived_window(5).shape
    TensorShape([4])
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import shape_rules as rules

__all__ = ["hann_window", "hamming_window", "kaiser_window", "kaiser_bessel_derived_window",
           "vorbis_window"]


def _window_length(window_length, op_name):
    n = rules.static_int(window_length, op_name, "window_length")
    if n < 0:
        raise ValueError(f"{op_name}: window_length must be non-negative, got {n}")
    return n


def _float_dtype(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype!r}")
    return dtype


def _as_window(values, dtype):
    return convert_to_tensor(np.asarray(values, np.float64).astype(dtype.np_dtype))


def _raised_cosine(op_name, window_length, periodic, dtype, a, b):
    dtype = _float_dtype(dtype)
    length = _window_length(window_length, op_name)
    periodic = rules.static_bool(periodic, op_name, "periodic")
    if length == 1:
        return _as_window(np.ones(1), dtype)
    even = 1 - length % 2
    denominator = length + int(periodic) * even - 1
    count = np.arange(length, dtype=np.float64)
    return _as_window(a - b * np.cos(2 * np.pi * count / max(denominator, 1)), dtype)


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """`tf.signal.hann_window`: 0.5 - 0.5 cos(2 pi n / N), N = L - 1, or L
    when `periodic` and L is even."""
    return _raised_cosine("hann_window", window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """`tf.signal.hamming_window`: 0.54 - 0.46 cos(2 pi n / N), N as in hann_window."""
    return _raised_cosine("hamming_window", window_length, periodic, dtype, 0.54, 0.46)


def _kaiser(length, beta):
    if length == 1:
        return np.ones(1)
    half = (length - 1) / 2.0
    ratio = (np.arange(length) - half) / half
    return np.i0(beta * np.sqrt(np.maximum(0.0, 1.0 - ratio ** 2))) / np.i0(beta)


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """`tf.signal.kaiser_window`: I0(beta sqrt(1 - (2n / (L - 1) - 1)^2)) / I0(beta)."""
    dtype = _float_dtype(dtype)
    length = _window_length(window_length, "kaiser_window")
    return _as_window(_kaiser(length, float(beta)), dtype)


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """`tf.signal.kaiser_bessel_derived_window`: the square root of the running
    sum of a Kaiser window of L // 2 + 1 samples, mirrored (2 * (L // 2) samples)."""
    dtype = _float_dtype(dtype)
    half = _window_length(window_length, "kaiser_bessel_derived_window") // 2
    running = np.cumsum(_kaiser(half + 1, float(beta)))
    rising = np.sqrt(running[:-1] / running[-1])
    return _as_window(np.concatenate([rising, rising[::-1]]), dtype)


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """`tf.signal.vorbis_window`: sin(pi / 2 sin^2(pi (n + 0.5) / L))."""
    dtype = _float_dtype(dtype)
    length = _window_length(window_length, "vorbis_window")
    inner = np.sin(np.pi * (np.arange(length) + 0.5) / max(length, 1))
    return _as_window(np.sin(np.pi / 2.0 * inner ** 2), dtype)
