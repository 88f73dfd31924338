"""`keras.layers.MelSpectrogram(fft_length=2048, sequence_stride=512,
sequence_length=None, window="hann", sampling_rate=16000, num_mel_bins=128,
min_freq=20.0, max_freq=None, power_to_db=True, top_db=80.0, mag_exp=2.0,
min_power=1e-10, ref_power=1.0)`: audio (batch, samples) or (samples,) ->
(batch, num_mel_bins, frames), as Keras 3's: the centered `keras.ops.stft`
magnitude to the power `mag_exp`, the HTK mel filter bank (triangles peaking
at 1, mel(f) = 1127 ln(1 + f / 700)), then decibels relative to `ref_power`,
floored at (the largest value over the whole batch) - `top_db`.
"""

from runtime._src.core import dtypes
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.ops import math as kmath
from runtime._src.keras.ops import numpy as knp
from runtime._src.keras.ops.tfops import tf

__all__ = ["MelSpectrogram"]

_BREAK_HERTZ = 700.0
_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hertz):
    return _HIGH_FREQUENCY_Q * tf.log(1.0 + hertz / _BREAK_HERTZ)


def linear_to_mel_weight_matrix(num_mel_bins, num_spectrogram_bins, sampling_rate,
                                lower_edge_hertz, upper_edge_hertz, dtype="float32"):
    """(num_spectrogram_bins, num_mel_bins): the triangular mel filters over the
    linear bins of [0, sampling_rate / 2] (bin 0 gets no weight)."""
    zero = tf.constant(0.0, dtype)
    nyquist = tf.cast(sampling_rate, dtype) / 2.0
    linear = knp.linspace(zero, nyquist, num_spectrogram_bins)[1:]
    bins_mel = tf.expand_dims(_hertz_to_mel(linear), 1)
    edges = knp.linspace(_hertz_to_mel(tf.constant(lower_edge_hertz, dtype)),
                         _hertz_to_mel(tf.constant(upper_edge_hertz, dtype)), num_mel_bins + 2)
    lower, center, upper = (tf.reshape(edges[i:i + num_mel_bins], [1, num_mel_bins])
                            for i in range(3))
    lower_slopes = (bins_mel - lower) / (center - lower)
    upper_slopes = (upper - bins_mel) / (upper - center)
    weights = tf.maximum(zero, tf.minimum(lower_slopes, upper_slopes))
    return tf.pad(weights, [[1, 0], [0, 0]])


class MelSpectrogram(Layer):
    """See the module docstring."""

    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None,
                 window="hann", sampling_rate=16000, num_mel_bins=128, min_freq=20.0,
                 max_freq=None, power_to_db=True, top_db=80.0, mag_exp=2.0, min_power=1e-10,
                 ref_power=1.0, **kwargs):
        self.fft_length, self.sequence_stride = fft_length, sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError("`fft_length` must be greater than or equal to   "
                             f"`sequence_length`. Received: `sequence_length`="
                             f"{self.sequence_length}, `fft_length`={self.fft_length}.")
        self.window, self.sampling_rate, self.num_mel_bins = window, sampling_rate, num_mel_bins
        self.min_freq, self.max_freq = min_freq, max_freq or int(sampling_rate / 2)
        self.power_to_db, self.top_db, self.mag_exp = power_to_db, top_db, mag_exp
        self.min_power, self.ref_power = min_power, ref_power
        super().__init__(**kwargs)

    def call(self, inputs):
        dtype = self.compute_dtype if self.compute_dtype in ("float32", "float64") \
            else "float32"
        x = tf.cast(inputs, dtypes.as_dtype(dtype))
        real, imag = kmath.stft(x, self.sequence_length, self.sequence_stride,
                                self.fft_length, window=self.window, center=True)
        spec = tf.pow(tf.sqrt(tf.square(real) + tf.square(imag)),
                      tf.cast(self.mag_exp, real.dtype))
        matrix = linear_to_mel_weight_matrix(self.num_mel_bins, spec.shape.as_list()[-1],
                                             self.sampling_rate, self.min_freq, self.max_freq)
        outputs = knp.tensordot(spec, tf.cast(matrix, spec.dtype), axes=1)
        if self.power_to_db:
            outputs = self._decibels(outputs)
        outputs = knp.swapaxes(outputs, -1, -2)
        return tf.cast(outputs, dtypes.as_dtype(self.compute_dtype))

    def _decibels(self, power):
        floor = tf.cast(self.min_power, power.dtype)
        ten = tf.cast(10.0, power.dtype)
        log_spec = ten * knp.log10(tf.maximum(power, floor))
        ref = tf.abs(tf.cast(self.ref_power, power.dtype))
        log_spec = log_spec - ten * knp.log10(tf.maximum(ref, floor))
        return tf.maximum(log_spec, tf.reduce_max(log_spec) - tf.cast(self.top_db,
                                                                       power.dtype))

    def compute_output_shape(self, input_shape):
        length = input_shape[-1]
        frames = None if length is None else \
            (length + self.sequence_stride + 1) // self.sequence_stride
        if len(input_shape) == 1:
            return [self.num_mel_bins, frames]
        return [input_shape[0], self.num_mel_bins, frames]

    def get_config(self):
        config = super().get_config()
        config.update({k: getattr(self, k) for k in (
            "fft_length", "sequence_stride", "sequence_length", "window", "sampling_rate",
            "num_mel_bins", "min_freq", "max_freq", "power_to_db", "top_db", "mag_exp",
            "min_power", "ref_power")})
        return config
