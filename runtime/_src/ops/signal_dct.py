"""Cosine transforms and mel features of `tf.signal`: `dct`, `idct` (types
1-4, `norm=None` or "ortho"), `linear_to_mel_weight_matrix` and
`mfccs_from_log_mel_spectrograms`.

A DCT of the last axis (length N, known while tracing) is a product with an
N x N cosine matrix, so its gradient is the product with the transpose.
The unnormalized types are scipy's (and TensorFlow's):

    type 1   y_k = x_0 + (-1)^k x_{N-1} + 2 sum_{0<n<N-1} x_n cos(pi k n / (N - 1))
    type 2   y_k = 2 sum_n x_n cos(pi k (2n + 1) / 2N)
    type 3   y_k = x_0 + 2 sum_{n>0} x_n cos(pi n (2k + 1) / 2N)
    type 4   y_k = 2 sum_n x_n cos(pi (2n + 1)(2k + 1) / 4N)

"ortho" scales them to orthonormal matrices (types 2-4). `idct` of type t
is the `dct` of the inverse type (2 <-> 3; 1 and 4 are their own inverses),
unnormalized ones up to a factor 2N (2(N - 1) for type 1), as in TF.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.base_ops import FLOATS, dtype_error
from runtime._src.ops.einsum_ops import tensordot
from runtime._src.ops.math_ops import multiply
from runtime._src.ops.shape_ops import pad

__all__ = ["dct", "idct", "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms"]


def _dct_matrix(kind, n, ortho):
    """M with dct(x) = x @ M, for a last axis of length n (float64)."""
    i = np.arange(n)[:, None].astype(np.float64)     # input index (row)
    k = np.arange(n)[None, :].astype(np.float64)     # output index (column)
    if kind == 1:
        m = 2.0 * np.cos(np.pi * i * k / (n - 1))
        m[0, :], m[-1, :] = 1.0, (-1.0) ** np.arange(n)
        return m
    if kind == 2:
        m = 2.0 * np.cos(np.pi * k * (2 * i + 1) / (2 * n))
        if ortho:
            m[:, 0] *= np.sqrt(1.0 / (4 * n))
            m[:, 1:] *= np.sqrt(1.0 / (2 * n))
        return m
    if kind == 3:
        m = 2.0 * np.cos(np.pi * i * (2 * k + 1) / (2 * n))
        m[0, :] = 1.0
        if ortho:
            m[0, :] *= np.sqrt(1.0 / n)
            m[1:, :] *= np.sqrt(1.0 / (2 * n))
        return m
    m = 2.0 * np.cos(np.pi * (2 * i + 1) * (2 * k + 1) / (4 * n))
    return m * np.sqrt(1.0 / (2 * n)) if ortho else m


def _check_dct_arguments(x, kind, n, axis, norm):
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if kind not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    if kind == 1 and norm == "ortho":
        raise ValueError("Normalization is not supported for the Type-I DCT.")
    if x.dtype not in FLOATS:
        raise dtype_error("dct", x.dtype, FLOATS)


def _fit_length(x, n):
    """x's last axis cropped or zero-padded to n."""
    length = x.shape.dims[-1]
    if n < length:
        return x[..., :n]
    if n > length:
        return pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - length]])
    return x


def _dct(input, kind, n, axis, norm):
    x = convert_to_tensor(input)
    _check_dct_arguments(x, kind, n, axis, norm)
    if x.shape.rank is None or x.shape.rank < 1 or x.shape.dims[-1] is None:
        raise ValueError(f"dct: the last axis must have a length known while tracing, got "
                         f"shape {rules.dims_text(x.shape)}")
    if n is not None:
        x = _fit_length(x, n)
    length = x.shape.dims[-1]
    if kind == 1 and length < 2:
        raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    matrix = _dct_matrix(kind, length, norm == "ortho").astype(x.dtype.np_dtype)
    return tensordot(x, convert_to_tensor(matrix), [[x.shape.rank - 1], [0]])


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # TensorFlow's names
    """`tf.signal.dct`: the discrete cosine transform of type 1, 2, 3 or 4 of
    the last axis (cropped or zero-padded to `n`), as scipy.fft.dct."""
    return _dct(input, type, n, axis, norm)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # TensorFlow's names
    """`tf.signal.idct`: the dct of the inverse type (2 <-> 3, 1 and 4 themselves);
    the exact inverse with norm="ortho", else 2N times it (2(N - 1) for type 1)."""
    if type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    return _dct(input, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, axis, norm)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """`tf.signal.mfccs_from_log_mel_spectrograms`: the type-2 DCT of the last
    axis scaled by 1 / sqrt(2 * num_mel_bins) (HTK's MFCCs)."""
    x = convert_to_tensor(log_mel_spectrograms)
    bins = x.shape.dims[-1] if x.shape.rank else None
    if bins == 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {x!r}")
    return multiply(dct(x, type=2), float(1.0 / np.sqrt(2.0 * bins)) if bins else 1.0)


# --- mel scale -------------------------------------------------------------------

_MEL_BREAK_HERTZ = 700.0
_MEL_HIGH_Q = 1127.0


def _hertz_to_mel(hertz):
    return _MEL_HIGH_Q * np.log(1.0 + hertz / _MEL_BREAK_HERTZ)


def _check_mel_arguments(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype):
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz "
                         f"{upper_edge_hertz:.1f}")
    if sample_rate <= 0.0:
        raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency "
                         f"(sample_rate / 2). Got {upper_edge_hertz} for sample_rate: "
                         f"{sample_rate}")
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype!r}")


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None):
    """`tf.signal.linear_to_mel_weight_matrix`: a [num_spectrogram_bins,
    num_mel_bins] matrix of triangular filters, evenly spaced on the mel scale
    (HTK's), from linear frequencies 0 .. sample_rate / 2; the zero-frequency
    row is all zeros."""
    dtype = dtypes.as_dtype(dtype)
    num_mel_bins = rules.static_int(num_mel_bins, "linear_to_mel_weight_matrix", "num_mel_bins")
    bins = rules.static_int(num_spectrogram_bins, "linear_to_mel_weight_matrix",
                            "num_spectrogram_bins")
    rate = float(rules.static_value(convert_to_tensor(sample_rate), "linear_to_mel_weight_matrix",
                                    "sample_rate"))
    lower, upper = float(lower_edge_hertz), float(upper_edge_hertz)
    _check_mel_arguments(num_mel_bins, rate, lower, upper, dtype)
    spectrogram_mel = _hertz_to_mel(np.linspace(0.0, rate / 2.0, bins)[1:])[:, None]
    edges = np.linspace(_hertz_to_mel(lower), _hertz_to_mel(upper), num_mel_bins + 2)
    low, center, high = edges[:-2][None, :], edges[1:-1][None, :], edges[2:][None, :]
    rising = (spectrogram_mel - low) / (center - low)
    falling = (high - spectrogram_mel) / (high - center)
    weights = np.maximum(0.0, np.minimum(rising, falling))
    weights = np.concatenate([np.zeros((1, num_mel_bins)), weights], 0)
    return convert_to_tensor(weights.astype(dtype.np_dtype))

