"""The dropout layers, active only with `training=True` (noise.py has GaussianNoise
and SpatialDropout1D/2D):

    Dropout(rate)             tf.nn.dropout(x, rate)
    GaussianDropout(rate)     x * normal(1, sqrt(rate / (1 - rate))) noise
    AlphaDropout(rate)        dropped values set to SELU's negative saturation
                              -alpha * scale, then an affine map a * x + b that keeps
                              the mean and variance (for SELU networks)
    SpatialDropout3D(rate)    whole channels of (batch, d, h, w, channels) dropped

With training False each returns its input."""

import math

from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.keras.layers.regularization.noise import _SpatialDropout, _when_training
from runtime._src.ops import array_ops, math_ops, random_ops
import numbers
from runtime._src.core.tensor import Tensor
from runtime._src.function.control_flow import cond
from runtime._src.keras.layers.layer import Layer

__all__ = ["GaussianDropout", "AlphaDropout", "SpatialDropout3D", "Dropout"]

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _rate(rate):
    if not 0 <= rate <= 1:
        raise ValueError("Invalid value received for argument `rate`. Expected a float value "
                         f"between 0 and 1. Received: rate={rate}")
    return rate


class GaussianDropout(ConfigurableLayer):
    """`keras.layers.GaussianDropout(rate, seed=None)`."""

    _config_keys = ("rate", "seed")

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.seed = _rate(rate), seed
        self.supports_masking = True

    def call(self, inputs, training=False):
        if not 0 < self.rate < 1:
            return inputs
        stddev = math.sqrt(self.rate / (1.0 - self.rate))

        def noisy():
            noise = random_ops.normal(array_ops.shape(inputs), 1.0, stddev, inputs.dtype,
                                      seed=self.seed)
            return math_ops.multiply(inputs, noise)
        return _when_training(training, noisy, inputs)


class AlphaDropout(ConfigurableLayer):
    """`keras.layers.AlphaDropout(rate, noise_shape=None, seed=None)`."""

    _config_keys = ("rate", "seed", "noise_shape")

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.seed, self.noise_shape = _rate(rate), seed, noise_shape
        self.supports_masking = True

    def _shape(self, inputs):
        shape = array_ops.shape(inputs)
        if self.noise_shape is None:
            return shape
        return array_ops.stack([shape[i] if n is None else array_ops.constant(n)
                                for i, n in enumerate(self.noise_shape)])

    def call(self, inputs, training=False):
        if self.rate <= 0:
            return inputs
        alpha_p = -_SELU_ALPHA * _SELU_SCALE
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate

        def dropped():
            draw = random_ops.uniform(self._shape(inputs), dtype=inputs.dtype, seed=self.seed)
            kept = math_ops.cast(math_ops.greater_equal(draw, self.rate), inputs.dtype)
            x = inputs * kept + alpha_p * (1.0 - kept)
            return a * x + b
        return _when_training(training, dropped, inputs)


class SpatialDropout3D(_SpatialDropout):
    """`keras.layers.SpatialDropout3D(rate, data_format=None, seed=None)`."""

    _rank = 3
    _config_keys = ("rate", "seed", "data_format")


class Dropout(Layer):
    """`tf.keras.layers.Dropout(rate, noise_shape=None, seed=None)`: active
    only when called with `training=True` (directly or from an enclosing
    layer's call)."""

    supports_masking = True         # the input's mask passes on (Keras 3.15)

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(rate, numbers.Real) or not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate!r}")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed,
                "noise_shape": self.noise_shape}

    def call(self, inputs, training=False):
        if self.rate == 0:
            return inputs
        if isinstance(training, Tensor):
            return cond(training, lambda: self._drop(inputs),
                        lambda: math_ops.identity(inputs))
        if training:
            return self._drop(inputs)
        return inputs

    def _drop(self, inputs):
        if self.rate == 1:
            return array_ops.zeros_like(inputs)
        return random_ops.dropout(inputs, self.rate, noise_shape=self.noise_shape,
                                  seed=self.seed)

    def compute_output_shape(self, input_shape):
        return input_shape
