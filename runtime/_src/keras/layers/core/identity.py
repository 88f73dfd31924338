"""`keras.layers.Identity()`: returns its input (and its mask)."""

from runtime._src.keras.layers.layer import ConfigurableLayer

__all__ = ["Identity"]


class Identity(ConfigurableLayer):
    """`keras.layers.Identity()`: the input unchanged (its mask too)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape


