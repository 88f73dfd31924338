"""`keras.initializers.STFT(side="real", window="hann", scaling="density",
periodic=False)` (also `STFTInitializer`, `stft`): the kernel of a Conv1D that
computes one side of a short-time Fourier transform, for `STFTSpectrogram`.

For shape (T, 1, F // 2 + 1) the kernel is cos (side "real") or sin ("imag")
of -2 pi t f / F, t the tap, f the frequency bin, times the window divided by
its L2 norm ("density") or its sum ("spectrum"). A window is a name, an array
of T values, or None. The names are scipy.signal.get_window's common windows
(boxcar, triang, bartlett, hann, hamming, blackman, blackmanharris, nuttall,
flattop, cosine), symmetric, or periodic (the first T of T + 1) with `periodic`.
"""

import math

import numpy as np

from runtime._src.core import dtypes
from runtime._src.keras.initializers.initializers import _BY_NAME, Initializer
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import array_ops

__all__ = ["STFT", "get_window"]

_COSINE_SUMS = {
    "hann": (0.5, 0.5), "hamming": (0.54, 0.46), "blackman": (0.42, 0.50, 0.08),
    "blackmanharris": (0.35875, 0.48829, 0.14128, 0.01168),
    "nuttall": (0.3635819, 0.4891775, 0.1365995, 0.0106411),
    "flattop": (0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368),
}
_ALIASES = {"hanning": "hann", "han": "hann", "hamm": "hamming", "ham": "hamming",
            "black": "blackman", "blackharr": "blackmanharris", "nutl": "nuttall",
            "nut": "nuttall", "flat": "flattop", "flt": "flattop", "box": "boxcar",
            "ones": "boxcar", "rect": "boxcar", "rectangular": "boxcar", "tri": "triang",
            "triangle": "triang", "bart": "bartlett", "brt": "bartlett",
            "halfcosine": "cosine"}


def _symmetric(name, n):
    if name in _COSINE_SUMS:
        angle = np.linspace(-np.pi, np.pi, n)
        return sum(a * np.cos(k * angle) for k, a in enumerate(_COSINE_SUMS[name]))
    if name == "boxcar":
        return np.ones(n)
    if name == "cosine":
        return np.sin(np.pi / n * (np.arange(n) + 0.5))
    if name == "bartlett":
        k = np.arange(n)
        return np.where(k <= (n - 1) / 2.0, 2.0 * k / (n - 1), 2.0 - 2.0 * k / (n - 1))
    k = np.arange(1, (n + 1) // 2 + 1)           # triang
    half = (2 * k - 1.0) / n if n % 2 == 0 else 2 * k / (n + 1.0)
    return np.concatenate([half, half[::-1] if n % 2 == 0 else half[-2::-1]])


def get_window(name, length, periodic=False):
    """The window `name` of `length` samples (float64 numpy), as
    scipy.signal.get_window(name, length, fftbins=periodic)."""
    key = _ALIASES.get(name, name) if isinstance(name, str) else None
    if key not in _COSINE_SUMS and key not in ("boxcar", "cosine", "bartlett", "triang"):
        raise ValueError(f"Unknown window type: {name!r}")
    if length <= 1:
        return np.ones(max(length, 0))
    n = length + 1 if periodic else length
    return _symmetric(key, n)[:length]


class STFT(Initializer):
    """See the module docstring."""

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in ("real", "imag"):
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if isinstance(window, str):
            get_window(window, 1)
        if scaling is not None and scaling not in ("density", "spectrum"):
            raise ValueError("Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                             f"Received scaling={scaling}")
        self.side, self.window, self.scaling, self.periodic = side, window, scaling, periodic

    def __call__(self, shape, dtype=None):
        dtype = dtypes.as_dtype(dtype or "float32")
        frames, _, bins = shape
        np_dtype = dtype.as_numpy_dtype
        fft = np_dtype((bins - 1) * 2)
        freq = (np.arange(bins, dtype=np_dtype) / fft).reshape(1, 1, bins)
        time = np.arange(frames, dtype=np_dtype).reshape(frames, 1, 1)
        args = (np_dtype(-2) * time) * freq * np_dtype(math.pi)
        kernel = np.cos(args) if self.side == "real" else np.sin(args)
        window = self._window(frames, np_dtype)
        if window is not None:
            kernel = kernel * window / self._scale(window)
        return array_ops.constant(kernel.astype(np_dtype), dtype)

    def _window(self, frames, np_dtype):
        if self.window is None:
            return None
        values = get_window(self.window, frames, self.periodic) \
            if isinstance(self.window, str) else np.asarray(self.window)
        values = values.astype(np_dtype)
        if values.ndim != 1 or values.shape[-1] != frames:
            raise ValueError("The shape of `window` must be equal to [frame_length]."
                             f"Received: window shape={values.shape}")
        return values.reshape(frames, 1, 1)

    def _scale(self, window):
        if self.scaling == "density":
            return np.sqrt(np.sum(np.square(window)))
        if self.scaling == "spectrum":
            return np.sum(np.abs(window))
        return window.dtype.type(1)

    def get_config(self):
        return {"side": self.side, "window": self.window, "periodic": self.periodic,
                "scaling": self.scaling}


serialization.register_builtin("keras.initializers", STFT)
serialization.register_builtin("keras.initializers", STFT, "STFTInitializer")
_BY_NAME["stft"] = STFT
