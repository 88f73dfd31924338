"""`keras.layers.STFTSpectrogram(mode="log", frame_length=256, frame_step=None,
fft_length=None, window="hann", periodic=False, scaling="density",
padding="valid", expand_dims=False, data_format=None)`: the short-time Fourier
transform of (batch, time, channels) signals (channels_last) as a strided
Conv1D with trainable kernels made by `keras.initializers.STFT` (the real and
the imaginary side, each (frame_length, 1, fft_length // 2 + 1)), as Keras 3's.

    modes   "real", "imag", "angle", "stft" (real then imag bins), "psd" (the
            one-sided power), "magnitude", "log" (of the magnitude)
    output  (batch, frames, channels * bins), or (batch, frames, bins, channels)
            with expand_dims (transposed for channels_first)
"""

import math
import warnings

from runtime._src.keras.backend.config import epsilon
from runtime._src.keras.initializers.stft_initializer import STFT, get_window
from runtime._src.keras.layers.layer import InputSpec, Layer
from runtime._src.keras.utils.argument_validation import _data_format
from runtime._src.keras.ops.tfops import tf

__all__ = ["STFTSpectrogram"]

_MODES = ["log", "magnitude", "psd", "real", "imag", "angle", "stft"]


def _check(mode, frame_length, frame_step, fft_length, scaling, padding):
    if frame_step is not None and (frame_step > frame_length or frame_step < 1):
        raise ValueError("`frame_step` should be a positive integer not greater than "
                         f"`frame_length`. Received frame_step={frame_step}, "
                         f"frame_length={frame_length}")
    if fft_length is not None and fft_length < frame_length:
        raise ValueError("`fft_length` should be not less than `frame_length`. "
                         f"Received fft_length={fft_length}, frame_length={frame_length}")
    if fft_length is not None and (fft_length & -fft_length) != fft_length:
        warnings.warn(f"`fft_length` is recommended to be a power of two. "
                      f"Received fft_length={fft_length}")
    if mode not in _MODES:
        raise ValueError(f"Output mode is invalid, it must be one of {', '.join(_MODES)}. "
                         f"Received: mode={mode}")
    if scaling is not None and scaling not in ("density", "spectrum"):
        raise ValueError("Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                         f"Received scaling={scaling}")
    if padding not in ("valid", "same"):
        raise ValueError("Padding is invalid, it should be 'valid', 'same'. "
                         f"Received: padding={padding}")


class STFTSpectrogram(Layer):
    """See the module docstring."""

    def __init__(self, mode="log", frame_length=256, frame_step=None, fft_length=None,
                 window="hann", periodic=False, scaling="density", padding="valid",
                 expand_dims=False, data_format=None, **kwargs):
        _check(mode, frame_length, frame_step, fft_length, scaling, padding)
        if isinstance(window, str):
            get_window(window, 1)
        super().__init__(**kwargs)
        self.mode, self.frame_length, self.frame_step = mode, frame_length, frame_step
        self._frame_step = frame_step or frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or 2 ** int(math.ceil(math.log2(frame_length)))
        self.window, self.periodic, self.scaling = window, periodic, scaling
        self.padding, self.expand_dims = padding, expand_dims
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        for side in ("real", "imag"):
            if self.mode != ("imag" if side == "real" else "real"):
                setattr(self, f"{side}_kernel", self.add_weight(
                    name=f"{side}_kernel", shape=shape,
                    initializer=STFT(side, self.window, self.scaling, self.periodic)))
        self.built = True

    def _conv(self, inputs, kernel):
        """(batch, channels, bins, frames) of one kernel over every channel."""
        x = inputs if self.data_format == "channels_first" else tf.transpose(inputs, [0, 2, 1])
        shape = tf.shape(x)
        x = tf.reshape(x, tf.stack([-1, shape[2], 1]))
        y = tf.conv1d(x, tf.cast(kernel.read_value(), inputs.dtype), self._frame_step,
                      self.padding.upper())
        y = tf.transpose(y, [0, 2, 1])
        return tf.reshape(y, tf.stack([-1, shape[1], tf.shape(y)[1], tf.shape(y)[2]]))

    def _adjust(self, y):
        if self.expand_dims:
            return tf.transpose(y, [0, 3, 2, 1] if self.data_format == "channels_last"
                                else [0, 1, 3, 2])
        shape = tf.shape(y)
        y = tf.reshape(y, tf.stack([-1, shape[1] * shape[2], shape[3]]))
        return tf.transpose(y, [0, 2, 1]) if self.data_format == "channels_last" else y

    def call(self, inputs):
        if inputs.dtype.name not in ("float16", "float32", "float64"):
            raise TypeError("Invalid input type. Expected `float16`, `float32` or `float64`. "
                            f"Received: input type={inputs.dtype.name}")
        real = None if self.mode == "imag" else self._conv(inputs, self.real_kernel)
        imag = None if self.mode == "real" else self._conv(inputs, self.imag_kernel)
        if self.mode in ("real", "imag"):
            return self._adjust(real if self.mode == "real" else imag)
        if self.mode == "angle":
            return self._adjust(tf.atan2(imag, real))
        if self.mode == "stft":
            return self._adjust(tf.concat([real, imag], 2))
        power = tf.square(real) + tf.square(imag)
        if self.mode == "psd":
            return self._adjust(power + tf.pad(power[:, :, 1:-1, :],
                                               [[0, 0], [0, 0], [1, 1], [0, 0]]))
        eps = tf.cast(epsilon(), power.dtype)
        magnitude = self._adjust(tf.sqrt(tf.maximum(power, eps)))
        return magnitude if self.mode == "magnitude" else tf.log(tf.maximum(magnitude, eps))

    def compute_output_shape(self, input_shape):
        last = self.data_format == "channels_last"
        batch, channels = input_shape[0], input_shape[-1 if last else 1]
        length = input_shape[1 if last else 2]
        bins = (self._fft_length // 2 + 1) * (2 if self.mode == "stft" else 1)
        if length is not None:
            length = -(-length // self._frame_step) if self.padding == "same" else \
                (length - self.frame_length) // self._frame_step + 1
        if self.expand_dims:
            return (batch, length, bins, channels) if last else (batch, channels, length, bins)
        width = None if channels is None else bins * channels
        return (batch, length, width) if last else (batch, width, length)

    def get_config(self):
        config = super().get_config()
        config.update({"mode": self.mode, "frame_length": self.frame_length,
                       "frame_step": self.frame_step, "fft_length": self.fft_length,
                       "window": self.window, "periodic": self.periodic,
                       "scaling": self.scaling, "padding": self.padding,
                       "data_format": self.data_format, "expand_dims": self.expand_dims})
        return config
