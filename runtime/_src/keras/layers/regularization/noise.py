"""Regularization layers active only with `training=True`:

    GaussianNoise(stddev)     x + normal(0, stddev) noise
    SpatialDropout1D(rate)    whole channels dropped: (batch, steps, channels) with one
                              keep/drop decision per (sample, channel)
    SpatialDropout2D(rate)    the same for (batch, height, width, channels) images

Kept values are scaled by 1 / (1 - rate), as `Dropout`. With training False
(inference, `predict`, `evaluate`) each returns its input.
"""

from runtime._src.core.tensor import Tensor
from runtime._src.function.control_flow import cond
from runtime._src.keras.layers.layer import InputSpec
from runtime._src.keras.utils.argument_validation import _data_format
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops, random_ops

__all__ = ["GaussianNoise", "SpatialDropout1D", "SpatialDropout2D"]


def _when_training(training, active, inputs):
    if isinstance(training, Tensor):
        return cond(training, active, lambda: math_ops.identity(inputs))
    return active() if training else inputs


class GaussianNoise(ConfigurableLayer):
    """`keras.layers.GaussianNoise(stddev, seed=None)`."""

    _config_keys = ("stddev", "seed")

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= stddev <= 1:
            raise ValueError("Invalid value received for argument `stddev`. Expected a float "
                             f"value between 0 and 1. Received: stddev={stddev}")
        self.stddev, self.seed = stddev, seed
        self.supports_masking = True

    def call(self, inputs, training=False):
        if self.stddev == 0:
            return inputs

        def noisy():
            noise = random_ops.normal(array_ops.shape(inputs), 0.0, self.stddev,
                                      inputs.dtype, seed=self.seed)
            return math_ops.add(inputs, noise)
        return _when_training(training, noisy, inputs)


class _SpatialDropout(ConfigurableLayer):
    _rank = 1
    _config_keys = ("rate", "seed")

    def __init__(self, rate, seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate}")
        self.rate, self.seed = rate, seed
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def get_config(self):
        config = super().get_config()
        config.pop("trainable", None)       # Keras 3.15's SpatialDropout config has none
        return config

    def _noise_shape(self, inputs):
        shape = array_ops.shape(inputs)
        ones = [array_ops.constant(1)] * self._rank
        if self.data_format == "channels_last":
            return array_ops.stack([shape[0], *ones, shape[-1]])
        return array_ops.stack([shape[0], shape[1], *ones])

    def call(self, inputs, training=False):
        if self.rate == 0:
            return inputs
        if self.rate == 1:
            return _when_training(training, lambda: array_ops.zeros_like(inputs), inputs)
        return _when_training(training, lambda: random_ops.dropout(
            inputs, self.rate, noise_shape=self._noise_shape(inputs), seed=self.seed), inputs)


class SpatialDropout1D(_SpatialDropout):
    """`keras.layers.SpatialDropout1D(rate, seed=None)`."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)


class SpatialDropout2D(_SpatialDropout):
    """`keras.layers.SpatialDropout2D(rate, data_format=None, seed=None)`."""

    _rank = 2
    _config_keys = ("rate", "seed", "data_format")
