"""`keras.layers.UnitNormalization(axis=-1)`: x * min(rsqrt(sum x**2 over axis),
1e12), as Keras 3 (a zero slice: 0, gradient 1e12)."""

from runtime._src.keras.losses.losses import normalize
from runtime._src.keras.layers.layer import ConfigurableLayer

__all__ = ["UnitNormalization"]


class UnitNormalization(ConfigurableLayer):
    """`keras.layers.UnitNormalization(axis=-1)`: each slice along `axis`
    (an int or a list) scaled to unit L2 norm."""

    _config_keys = ("axis",)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Invalid value for `axis` argument: expected an int or a list/"
                            f"tuple of ints. Received: axis={axis}")
        self.supports_masking = True

    def call(self, inputs):
        return normalize(inputs, axis=self.axis, epsilon=1e-12)

    def compute_output_shape(self, input_shape):
        return input_shape
